#!/bin/sh
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
#
# instrument.sh TREE: add the measurement-only breakdown of where the
# CPU time goes (<sys/mplb.h>, tools/kernel/mplb.h and mplb.c) to the
# scratch tree TREE (its sys/) of a test kernel: tools/kernel.sh -i.
# Never run on a user's tree: the edits are not revertible and are not
# part of the patch.
#
# What it changes, each checked to have happened (a tree whose code
# moved makes it fail, naming the place, instead of measuring less):
#  - every statement "X.spc_spinning++;" and "--;" of sys/kern/*.c
#    (the spins stock bills as CP_SPIN) gets a push and a pop of what
#    it waits for, after the function it is in: __mp_lock* the kernel
#    lock, mtx_* a mutex (sched_lock apart, at run time), rw_* an
#    rwlock, anything else other spinning;
#  - amd64's pmap_tlb_shootwait() is wrapped in a push and a pop;
#  - statclock() (kern_clock.c) calls mplb_statclock() where it charges
#    cp_time; sysctl_cptime2() (kern_sysctl.c) answers a request with
#    room for struct mplb_cptime with mplb_sysctl();
#  - sys/sys/mplb.h, sys/kern/kern_mplb.c and its conf/files line.
# Exit status 0, or 1 with a message.

KT=$(cd "$(dirname "$0")" && pwd)
T=${1:?usage: instrument.sh tree}/sys

fail() {
	echo "instrument.sh: $*" >&2
	exit 1
}

[ -f "$T/kern/kern_clock.c" ] || fail "$T: not a kernel source tree"
grep -q 'kern_mplb' "$T/conf/files" && fail "$T: instrumented already"

# addinc FILE: #include <sys/mplb.h> after its <sys/param.h>.
addinc() {
	awk '{ print } !d && /^#include <sys\/param\.h>/ {
		print "#include <sys/mplb.h>"; d = 1 }
	    END { exit !d }' "$1" >"$1.mplb" && mv "$1.mplb" "$1" ||
	    fail "$1: no #include <sys/param.h>"
}

cp "$KT/mplb.h" "$T/sys/mplb.h" && cp "$KT/mplb.c" "$T/kern/kern_mplb.c" &&
    echo "file kern/kern_mplb.c" >>"$T/conf/files" || fail "cannot copy"

# The spins: the statement made a block, so an unbraced if keeps both.
nspin=0
for f in $(grep -l 'spc_spinning\(++\|--\);' "$T"/kern/*.c); do
	awk '
	/^[A-Za-z_][A-Za-z0-9_]*\(/ { fn = $0; sub(/\(.*/, "", fn) }
	/[A-Za-z_>.]spc_spinning\+\+;/ {
		k = "MPLB_SPIN"
		if (fn ~ /^__mp_lock/)
			k = "MPLB_KLOCK"
		else if (fn ~ /^mtx_/)
			k = "MPLB_MTX_KIND(mtx)"
		else if (fn ~ /^rw_/)
			k = "MPLB_RWLOCK"
		match($0, /[^ \t;{}]*spc_spinning\+\+;/)
		st = substr($0, RSTART, RLENGTH)
		$0 = substr($0, 1, RSTART - 1) "{ " st " mplb_push(" k "); }" \
		    substr($0, RSTART + RLENGTH)
		n++
	}
	/[A-Za-z_>.]spc_spinning--;/ {
		match($0, /[^ \t;{}]*spc_spinning--;/)
		st = substr($0, RSTART, RLENGTH)
		$0 = substr($0, 1, RSTART - 1) "{ mplb_pop(); " st " }" \
		    substr($0, RSTART + RLENGTH)
		n++
	}
	{ print }
	END { print n > "/dev/stderr" }' "$f" >"$f.mplb" 2>"$f.n" &&
	    mv "$f.mplb" "$f" || fail "$f: cannot edit"
	nspin=$((nspin + $(cat "$f.n")))
	rm -f "$f.n"
	addinc "$f"
done
# Stock has five (__mp_lock, mtx_enter, rw_do_enter_write), a patched
# tree the same less stock's __mp_lock plus ours.
[ "$nspin" -ge 4 ] || fail "$T/kern: $nspin spc_spinning updates, not" \
    "the 4 or more of a kernel with the kernel lock, mutexes and rwlocks"
grep -l 'mplb_push(MPLB_KLOCK)' "$T"/kern/*.c >/dev/null ||
    fail "$T/kern: the kernel lock's spin (spc_spinning++ in __mp_lock*)" \
    "not found"
grep -l 'mplb_push(MPLB_MTX_KIND(mtx))' "$T"/kern/*.c >/dev/null ||
    fail "$T/kern: the mutex spin (spc_spinning++ in mtx_*) not found"

# statclock() and sysctl_cptime2().
f=$T/kern/kern_clock.c
awk '{ print } /^[ \t]*spc->spc_cp_time\[cp_time\] \+= count;/ {
	print "\tmplb_statclock(ci, cp_time, count);"; d = 1 }
    END { exit !d }' "$f" >"$f.mplb" && mv "$f.mplb" "$f" ||
    fail "$f: statclock() charges cp_time elsewhere"
addinc "$f"
f=$T/kern/kern_sysctl.c
awk '/^sysctl_cptime2\(/ { in2 = 1 } { print }
    in2 && /^[ \t]*sysctl_ci_cp_time\(ci, cp_time\);/ {
	print "\tif (oldp != NULL && oldlenp != NULL &&"
	print "\t    *oldlenp >= sizeof(struct mplb_cptime))"
	print "\t\treturn (mplb_sysctl(ci, cp_time, oldp, oldlenp, newp));"
	d = 1; in2 = 0 }
    END { exit !d }' "$f" >"$f.mplb" && mv "$f.mplb" "$f" ||
    fail "$f: no sysctl_ci_cp_time() in sysctl_cptime2()"
addinc "$f"

# The TLB shootdown wait, renamed and wrapped.
f=$T/arch/amd64/amd64/pmap.c
grep -q '^pmap_tlb_shootwait(void)$' "$f" ||
    fail "$f: no pmap_tlb_shootwait(void) definition"
sed 's/^pmap_tlb_shootwait(void)$/mplb_pmap_tlb_shootwait(void)/' "$f" \
    >"$f.mplb" || fail "$f: cannot edit"
cat >>"$f.mplb" <<'EOT'

#ifdef MULTIPROCESSOR
void	mplb_pmap_tlb_shootwait(void);

void
pmap_tlb_shootwait(void)
{
	mplb_push(MPLB_TLB);
	mplb_pmap_tlb_shootwait();
	mplb_pop();
}
#endif
EOT
mv "$f.mplb" "$f" || fail "$f: cannot edit"
addinc "$f"
echo "instrument.sh: $T: $nspin spin updates, statclock, cp_time2 and" \
    "the TLB shootdown wait instrumented"
