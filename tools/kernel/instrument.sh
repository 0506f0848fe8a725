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
# instrument.sh TREE: the measurement-only breakdown of the CPU time
# (mplb.h, mplb.c) into the scratch tree of tools/kernel.sh -i: the
# spc_spinning updates of sys/kern/*.c, amd64's TLB shootdown wait,
# statclock() and sysctl_cptime2().  An edit that finds nothing fails,
# naming the place, rather than measure less.  Never on a user's tree.

KT=$(cd "$(dirname "$0")" && pwd)
T=${1:?usage: instrument.sh tree}/sys

PROG=instrument.sh
fail() {
	echo "$PROG: $*" >&2
	exit 1
}

[ -f "$T/kern/kern_clock.c" ] || fail "$T: not a kernel source tree"
grep -q 'kern_mplb' "$T/conf/files" && fail "$T: instrumented already"

# edit FILE WHY PROGRAM: FILE through the awk PROGRAM, which exits 0
# if it made its edit, else fail saying WHY; <sys/mplb.h> included.
edit() {
	awk "$3" "$1" >"$1.mplb" && mv "$1.mplb" "$1" || fail "$1: $2"
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
	edit "$f" "cannot edit" '
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
	END { print n + 0 > (FILENAME ".n") }'
	nspin=$((nspin + $(cat "$f.n")))
	rm -f "$f.n"
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

edit "$T/kern/kern_clock.c" "statclock() charges cp_time elsewhere" '
    { print } /^[ \t]*spc->spc_cp_time\[cp_time\] \+= count;/ {
	print "\tmplb_statclock(ci, cp_time, count);"; d = 1 }
    END { exit !d }'
edit "$T/kern/kern_sysctl.c" "no sysctl_ci_cp_time() in sysctl_cptime2()" '
    /^sysctl_cptime2\(/ { in2 = 1 } { print }
    in2 && /^[ \t]*sysctl_ci_cp_time\(ci, cp_time\);/ {
	print "\tif (oldp != NULL && oldlenp != NULL &&"
	print "\t    *oldlenp >= sizeof(struct mplb_cptime))"
	print "\t\treturn (mplb_sysctl(ci, cp_time, oldp, oldlenp, newp));"
	d = 1; in2 = 0 }
    END { exit !d }'
# The TLB shootdown wait, renamed and wrapped.
edit "$T/arch/amd64/amd64/pmap.c" "no pmap_tlb_shootwait(void) definition" '
    $0 == "pmap_tlb_shootwait(void)" { $0 = "mplb_" $0; d = 1 } { print }
    END {
	if (!d)
		exit 1
	print "\n#ifdef MULTIPROCESSOR"
	print "void\tmplb_pmap_tlb_shootwait(void);\n"
	print "void\npmap_tlb_shootwait(void)\n{"
	print "\tmplb_push(MPLB_TLB);\n\tmplb_pmap_tlb_shootwait();"
	print "\tmplb_pop();\n}\n#endif"
    }'
echo "$PROG: $T: $nspin spin updates, statclock, cp_time2 and" \
    "the TLB shootdown wait instrumented"
