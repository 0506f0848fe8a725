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
# The first diff of "mplock-patch series": the M-lock in place of the
# ticket lock, as an edit of the tree's own sys/kern/kern_lock.c
# (f=kern_lock) or sys/sys/mplock.h (f=mplock).  Only the stock lines
# that must change are replaced, each found by its exact text, so the
# diff is small and OpenBSD's code is never stored here; every anchor
# must match exactly once (in kern_lock.c, inside the ticket block), or
# the edit fails with the first line it missed in the file why.
#
#	awk -v f=kern_lock [-v fix=N] -v why=FILE -f mlock.awk kern_lock.c
#
# The M-lock keeps the ticket lock's behaviour, quirks included.  fix=N
# (kern_lock.c) also makes the first N of the changes the next diffs of
# the series make, each the front end's (sys/kern/kern_mplock.c):
# 1, __mp_release_all() at depth 0 hands nothing on; 2,
# __mp_acquire_count() with a count below 1 takes nothing; 3, with
# MP_LOCKDEBUG, __mp_unlock() of a lock not held returns after ddb.

function rep(anchor, text) {
	want[++na] = anchor
	repl[anchor] = text
}

BEGIN {
	T = "\t"
	if (f == "kern_lock") {
		scope = 0
		rep("/* Ticket lock implementation */", \
"/*\n" \
" * M-lock: a FIFO queue lock.  Each CPU's cell holds two lock variables\n" \
" * used alternately.  To take the lock, a CPU arms its next variable\n" \
" * (sets it to 1), swaps its address into mpl_tail and spins on the\n" \
" * variable the swap returned, its predecessor's (or mpl_free, never\n" \
" * armed), until it reads 0; the unlock stores 0 to its own.  Each\n" \
" * waiter spins on one word, so a hand-off wakes one CPU, not all.\n" \
" *\n" \
" * Invariants: mplc_mine is armed from the 0->1 lock to the 1->0\n" \
" * unlock, and 0 at depth 0 (so a hand-off at depth 0 is a store of 0\n" \
" * into a free variable); mplc_wait is what this CPU's turn waits on,\n" \
" * set by the 0->1 lock only, with interrupts off.  A nested lock by\n" \
" * an interrupt on a CPU that waits finds depth != 0 and waits on the\n" \
" * same mplc_wait: it never queues twice.\n" \
" *\n" \
" * Two variables: with one, a CPU that unlocks and locks again could\n" \
" * re-arm it before its successor saw it free, and both would wait for\n" \
" * ever.  Variable k is re-armed at acquisition k + 2, which comes after\n" \
" * acquisition k + 1, which queued behind that successor.\n" \
" *\n" \
" * Barriers (membar_sync(9)): membar_exit() before the swap publishes\n" \
" * the armed variable before its address; membar_enter() after the\n" \
" * swap orders it before the loads of the predecessor's variable.  The\n" \
" * release is membar_exit() then a plain store of 0, paired with the\n" \
" * membar_sync() that ends the spin: the spin ends on a plain load,\n" \
" * not an atomic operation, so only membar_sync() makes it an acquire\n" \
" * on every architecture.\n" \
" */")
		rep(T "mpl->mpl_users = 0;", T "mpl->mpl_free = 0;")
		rep(T "mpl->mpl_ticket = 1;", \
		    T "mpl->mpl_tail = &mpl->mpl_free;\n" \
		    T "/* Until a CPU first queues, both point at mpl_free. */\n" \
		    T "for (i = 0; i < MAXCPUS; i++) {\n" \
		    T T "mpl->mpl_cpus[i].mplc_wait = &mpl->mpl_free;\n" \
		    T T "mpl->mpl_cpus[i].mplc_mine = &mpl->mpl_free;\n" \
		    T "}")
		rep(T "memset(mpl->mpl_cpus, 0, sizeof(mpl->mpl_cpus));", \
		    T "int i;\n\n" \
		    T "memset(mpl->mpl_cpus, 0, sizeof(mpl->mpl_cpus));")
		rep("__mp_lock_spin(struct __mp_lock *mpl, u_int me)", \
		    "__mp_lock_spin(struct __mp_lock *mpl, " \
		    "struct __mp_lock_cpu *cpu)")
		rep(T "while (mpl->mpl_ticket != me) {", \
		    T "while (*cpu->mplc_wait != 0) {")
		# Queue before the depth goes up: another CPU's held() of
		# this one trusts mplc_wait once the depth is not 0.
		rep(T "if (cpu->mplc_depth++ == 0)", \
		    T "/* Queue first: held() trusts mplc_wait at depth > 0. */\n" \
		    T "if (cpu->mplc_depth == 0) {")
		rep(T T "cpu->mplc_ticket = " \
		    "atomic_inc_int_nv(&mpl->mpl_users);", \
		    T T "cpu->mplc_mine = &cpu->mplc_busy[cpu->mplc_next];\n" \
		    T T "cpu->mplc_next ^= 1;\n" \
		    T T "*cpu->mplc_mine = 1;\n" \
		    T T "membar_exit();\n" \
		    T T "cpu->mplc_wait = atomic_swap_ptr(&mpl->mpl_tail,\n" \
		    T T "    (void *)cpu->mplc_mine);\n" \
		    T T "membar_enter();\n" \
		    T "}\n" \
		    T "cpu->mplc_depth++;")
		rep(T "__mp_lock_spin(mpl, cpu->mplc_ticket);", \
		    T "__mp_lock_spin(mpl, cpu);")
		rep(T "membar_enter_after_atomic();", T "membar_sync();")
		rep(T T "mpl->mpl_ticket++;", T T "*cpu->mplc_mine = 0;")
		# __mp_release_all
		if (fix >= 1) {
			rep(T "membar_exit();", \
			    T "/* At depth 0 there is no turn to pass on. */\n" \
			    T "if (rv > 0) {\n" T T "membar_exit();")
			rep(T "mpl->mpl_ticket++;", \
			    T T "*cpu->mplc_mine = 0;\n" T "}")
		} else
			rep(T "mpl->mpl_ticket++;", T "*cpu->mplc_mine = 0;")
		if (fix >= 2)
			rep(T "while (count--)", T "while (count-- > 0)")
		# __mp_unlock with MP_LOCKDEBUG (the spin's is deeper).
		if (fix >= 3)
			rep(T T "db_enter();", T T "db_enter();\n" T T "return;")
		rep(T "return (cpu->mplc_ticket == mpl->mpl_ticket && " \
		    "cpu->mplc_depth > 0);", \
		    T "return (cpu->mplc_depth > 0 && *cpu->mplc_wait == 0);")
	} else if (f == "mplock") {
		scope = 1
		rep(T "u_int" T T T "mplc_ticket;", "")
		rep(T "u_int" T T T "mplc_depth;", \
		    T "u_int" T T T "mplc_depth;\n" \
		    T "u_int" T T T "mplc_next;" \
		    T "/* mplc_busy[] to arm */\n" \
		    T "volatile u_int" T T "mplc_busy[2];\n" \
		    T "volatile u_int" T T "*mplc_mine;" \
		    T "/* armed, ours */\n" \
		    T "volatile u_int" T T "*mplc_wait;" T "/* waited on */\n" \
		    "} __aligned(64);" T T T "/* a cache line each */")
		rep(T "volatile u_int" T T "mpl_ticket;", \
		    T "volatile u_int *volatile mpl_tail;")
		rep(T "u_int" T T T "mpl_users;", \
		    T "volatile u_int" T T "mpl_free;")
	} else {
		print "mlock.awk: f=kern_lock or f=mplock" > "/dev/stderr"
		exit 2
	}
	next_ = 1
}

# kern_lock.c: only the ticket block is edited.
f == "kern_lock" && $0 == "/* Ticket lock implementation */" { scope = 1 }
f == "kern_lock" && scope && $0 == "#endif /* __USE_MI_MPLOCK */" {
	scope = 0
}
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
