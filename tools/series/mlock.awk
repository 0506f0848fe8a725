#
# Copyright (c) 2026 The mplock authors
#
# Permission to use, copy, modify, and distribute this software for any
# purpose with or without fee is hereby granted, provided that the above
# copyright notice and this permission notice appear in all copies.
#
# THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
# WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
# MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
# ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
# WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
# ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
# OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
#
# The first steps of the tech@ series (tools/series/series.sh): step N
# of f=kern_lock (sys/kern/kern_lock.c) or f=mplock (sys/sys/mplock.h),
# as edits of the tree's own file, so no OpenBSD code is stored here.
# Each stock line replaced is found by its exact text (in kern_lock.c
# inside the ticket block, lines LO-HI as tools/mplock-patch's parser
# finds them; where it occurs twice, first); a line not found fails the
# edit, the line named in the file WHY.
#
#	awk -v f=kern_lock -v step=N -v why=WHY -v lo=LO -v hi=HI -f mlock.awk
#
# Steps: 1 release-all, 2 mlock, 3 acquire-count, 4 not-held
# (doc/series.md).  The lock's comment below is the one place that
# states its invariants and barrier pairs; the litmus patterns kl-*
# check those barriers per architecture.

function rep(anchor, text) {
	want[++na] = anchor
	repl[anchor] = text
}

BEGIN {
	T = "\t"
	if (f == "kern_lock") {
		if (step >= 2)
			mlock()
		# __mp_release_all() (the unlock's lines are indented twice).
		rep(T "membar_exit();", \
		    T "if (rv > 0) {\n" T T "membar_exit();")
		rep(T "mpl->mpl_ticket++;", \
		    T T (step >= 2 ? "*cpu->mplc_mine = 0;" : \
		    "mpl->mpl_ticket++;") "\n" T "}")
		if (step >= 3)
			rep(T "while (count--)", T "while (count-- > 0)")
		# __mp_unlock() with MP_LOCKDEBUG: the first db_enter() of
		# the block, the spin's is indented deeper.
		if (step >= 4)
			rep(T T "db_enter();", T T "db_enter();\n" T T "return;")
	} else {
		scope = 1
		if (step >= 2)
			layout()
	}
}

# The M-lock in kern_lock.c.
function mlock() {
	rep("/* Ticket lock implementation */", \
"/*\n" \
" * M-lock: a FIFO queue lock (P. Machanick, \"Design of a\n" \
" * minimal-contention lock\", 2018; of the CLH family).  Each CPU has\n" \
" * two lock words, mplc_busy[], in a cache line of their own, and uses\n" \
" * them in turn.  To queue, a CPU sets its next word to 1 and swaps\n" \
" * its address into mpl_tail, then spins until the word it took out\n" \
" * (mpl_free, never set, for the first) reads 0; to hand off, it\n" \
" * stores 0 into its own.  Each waiter spins on one line, which only\n" \
" * its predecessor writes.\n" \
" *\n" \
" * Invariants: mplc_mine is 1 from the 0->1 lock to the 1->0 unlock.\n" \
" * Each address put into mpl_tail is taken out by one CPU, the next to\n" \
" * queue, so each word has one waiter.  mplc_wait, set with interrupts\n" \
" * off before the depth leaves 0, is the word this CPU waits on: the\n" \
" * lock is ours once it reads 0, and it reads 0 until this CPU has\n" \
" * unlocked.  So an interrupt that takes the lock on a waiting CPU\n" \
" * waits on the same word: a CPU never queues twice.  Two words,\n" \
" * because a CPU that unlocks and locks again must not set the word its\n" \
" * successor may not have seen cleared: word k is set again at\n" \
" * acquisition k + 2, which queues after k + 1, behind that successor.\n" \
" *\n" \
" * Barriers: membar_exit() orders the 1 before the swap that publishes\n" \
" * it.  The successor reads our word through the pointer its swap\n" \
" * returned, so membar_datadep_consumer() is all it needs to see that\n" \
" * 1 or a later 0.  The hand-off's membar_exit() before the store of 0\n" \
" * pairs with the membar_enter_after_atomic() ending the wait, as in\n" \
" * the ticket lock.  On amd64 and i386 all are compiler barriers.\n" \
" */")
	rep(T "mpl->mpl_users = 0;", T "mpl->mpl_free = 0;")
	rep(T "mpl->mpl_ticket = 1;", T "mpl->mpl_tail = &mpl->mpl_free;")
	rep("__mp_lock_spin(struct __mp_lock *mpl, u_int me)", \
	    "__mp_lock_spin(struct __mp_lock *mpl, volatile u_int *wait)")
	rep(T "while (mpl->mpl_ticket != me) {", T "while (*wait != 0) {")
	# __mp_lock()'s, the first of three.
	rep(T "unsigned long s;", \
	    T "volatile u_int *mine, *wait;\n" \
	    T "unsigned long s;")
	rep(T T "cpu->mplc_ticket = atomic_inc_int_nv(&mpl->mpl_users);", \
	    T T "mine = cpu->mplc_mine == &cpu->mplc_busy[0] ?\n" \
	    T T "    &cpu->mplc_busy[1] : &cpu->mplc_busy[0];\n" \
	    T T "cpu->mplc_mine = mine;\n" \
	    T T "*mine = 1;\n" \
	    T T "membar_exit();\n" \
	    T T "wait = atomic_swap_ptr(&mpl->mpl_tail, (void *)mine);\n" \
	    T T "membar_datadep_consumer();\n" \
	    T T "cpu->mplc_wait = wait;\n" \
	    T T "cpu->mplc_depth = 1;\n" \
	    T "} else {\n" \
	    T T "wait = cpu->mplc_wait;\n" \
	    T T "cpu->mplc_depth++;\n" \
	    T "}")
	# Queue before the depth goes up: another CPU's __mp_lock_held()
	# of this one trusts mplc_wait once the depth is not 0.
	rep(T "if (cpu->mplc_depth++ == 0)", \
	    T "/* Queue first: held() trusts mplc_wait once depth > 0. */\n" \
	    T "if (__predict_true(cpu->mplc_depth == 0)) {")
	rep(T "if (--cpu->mplc_depth == 0) {", \
	    T "if (__predict_true(--cpu->mplc_depth == 0)) {")
	# No spin, and no spin accounting, when the word is already 0.
	rep(T "__mp_lock_spin(mpl, cpu->mplc_ticket);", \
	    T "if (*wait != 0)\n" \
	    T T "__mp_lock_spin(mpl, wait);")
	rep(T T "mpl->mpl_ticket++;", T T "*cpu->mplc_mine = 0;")
	rep(T "return (cpu->mplc_ticket == mpl->mpl_ticket && " \
	    "cpu->mplc_depth > 0);", \
	    T "return (cpu->mplc_depth > 0 && *cpu->mplc_wait == 0);")
}

# The M-lock's layout in sys/mplock.h.
function layout() {
	rep("struct __mp_lock_cpu {", \
"/*\n" \
" * Padding unit: <machine/mplock.h> sets __MPL_CACHELINE where the\n" \
" * port's cache lines are longer than 64 bytes.\n" \
" */\n" \
"#ifndef __MPL_CACHELINE\n" \
"#define __MPL_CACHELINE\t64\n" \
"#endif\n" \
"\n" \
"/* Two cache lines: what the successor spins on, and what we write. */\n" \
"struct __mp_lock_cpu {\n" \
T "volatile u_int\t\tmplc_busy[2];\n" \
T "char\t\t\tmplc_pad[__MPL_CACHELINE - 2 * sizeof(u_int)];")
	rep(T "u_int" T T T "mplc_ticket;", "")
	rep(T "u_int" T T T "mplc_depth;", \
	    T "u_int" T T T "mplc_depth;\n" \
	    T "volatile u_int" T T "*mplc_mine;" T "/* set, ours */\n" \
	    T "volatile u_int" T T "*mplc_wait;" T "/* waited on */\n" \
	    "} __aligned(__MPL_CACHELINE);")
	rep(T "volatile u_int" T T "mpl_ticket;", \
	    T "volatile u_int" T T "*mpl_tail;" T "/* last word queued */")
	rep(T "u_int" T T T "mpl_users;", \
	    T "volatile u_int" T T "mpl_free;" T "/* first tail, never set */")
}

f == "kern_lock" { scope = FNR >= lo + 0 && FNR <= hi + 0 }
# mplock.h: the "};" that closes struct __mp_lock_cpu goes with the
# mplc_depth line's replacement.
f == "mplock" && cellend {
	cellend = 0
	if ($0 == "};")
		next
	bad = "struct __mp_lock_cpu does not end after mplc_depth"
}

scope && ($0 in repl) && !($0 in done) {
	done[$0] = 1
	if (repl[$0] != "")
		print repl[$0]
	if (f == "mplock" && $0 ~ /mplc_depth/)
		cellend = 1
	next
}
{ print }

END {
	if (bad == "")
		for (i = 1; i <= na; i++)
			if (!(want[i] in done)) {
				bad = "no stock line \"" want[i] "\""
				break
			}
	if (bad != "") {
		print bad > why
		exit 1
	}
}
