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
# series.sh [-s step] tree dir: the kernel lock as patch series for
# tech@ (doc/series.md).  A maintainer's tool, not installed.

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tools/lib/common.sh"
PROG=series
USAGE='usage: series.sh [-s step] tree dir'
TOOL=$ROOT/tools/mplock-patch
AWK_INPLACE=$ROOT/tools/series/mlock.awk
LC_ALL=C
export LC_ALL
umask 022

# series_tree NAME: $W/NAME, a copy of the tree's sys and man9 pages;
# $W/NAME.files will list the files a step touched.
series_tree() {
	mkdir -p "$W/$1" && cp -Rp "$S/sys" "$W/$1/" &&
	    if [ -d "$S/share/man/man9" ]; then
		mkdir -p "$W/$1/share/man" &&
		cp -Rp "$S/share/man/man9" "$W/$1/share/man/"
	    fi || die "$S: cannot copy it to $W/$1"
}

# inplace FROM TO STEP: FROM's kern_lock.c and <sys/mplock.h> as tech
# step STEP (1 to 4) leaves them, under TO; kern_lock.c edited in the
# ticket lock's lines only, as mplock-patch's parser finds them.
inplace() {
	_tl=$(awk -v mode=lines "$(ticket_awk)" "$1/sys/kern/kern_lock.c" \
	    2>"$W/why") || die "$S: sys/kern/kern_lock.c: not the stock" \
	    "file this series edits: $(cat "$W/why")"
	for _f in kern_lock:kern/kern_lock.c mplock:sys/mplock.h; do
		: >"$W/why"
		_to=$2/sys/${_f#*:}
		mkdir -p "${_to%/*}" &&
		    awk -v f="${_f%%:*}" -v step="$3" -v why="$W/why" \
		    -v lo="${_tl% *}" -v hi="${_tl#* }" -f "$AWK_INPLACE" \
		    "$1/sys/${_f#*:}" >"$_to" || die "$S: sys/${_f#*:}: not the" \
		    "stock file this series edits: $(cat "$W/why")"
	done
}

# ours_line ARCH <stock: the tree's <machine/mplock.h> with the lines
# ours has after __USE_MI_MPLOCK (the cache line) inserted after its own;
# fails when either has no such line.
ours_line() {
	_add=$(sed -n '/^#define __USE_MI_MPLOCK$/,/^#endif/p' \
	    "$ROOT/sys/arch/$1/include/mplock.h" | sed '1d;/^#endif/d')
	[ -n "$_add" ] || return 1
	ADD=$_add awk '{ print }
	$0 == "#define __USE_MI_MPLOCK" && !done {
		print ENVIRON["ADD"]
		done = 1
	}
	END { exit !done }'
}

# series_root DIR STEP [ARCH...]: the files apply installs from this
# checkout, in DIR, less what the steps after STEP add: their files left
# out, their options unifdef(1)ed out.  ARCH...: the arch headers kept.
series_root() {
	_sr=$1 _st=$2
	shift 2
	# Before the guest mode's step: as with MPLOCK_NOGUEST, no hooks.
	_ng="-DMPLOCK_NOGUEST -UMPL_HALT -UMPL_BE_HALT -UMPL_BE_KICK"
	_ng="$_ng -UMPL_BE_WAIT -UMPLT_MLOCK -U__MPL_HALTCOUNTS"
	_ud=
	case $_st in
	backends)	_ud="-UMPLOCK_DEBUG -UMPLOCK_TORTURE $_ng" ;;
	debug)		_ud="-UMPLOCK_TORTURE $_ng" ;;
	torture|arch)	_ud=$_ng ;;
	esac
	mkdir -p "$_sr/share/man/man9" "$_sr/regress/sys/kern/mplock" &&
	    cp "$REGRESS/Makefile.backends" "$_sr/regress/sys/kern/mplock/" ||
	    return 1
	while read -r _p; do
		case $_st:$_p in
		man:*)						;;
		*:share/*)					continue ;;
		backends:sys/kern/kern_mplock_debug.c)		continue ;;
		backends:*_torture.c|debug:*_torture.c)		continue ;;
		*:sys/arch/*/include/mplock.h)
			_a=${_p#sys/arch/}
			case " $* " in
			*" ${_a%%/*} "*)	;;
			*)			continue ;;
			esac ;;
		esac
		mkdir -p "$_sr/${_p%/*}" || return 1
		if [ -n "$_ud" ]; then
			# cat -s: a block taken out leaves one blank line.
			unifdef $_ud "$ROOT/$_p" >"$_sr/$_p.u"
			[ $? -le 1 ] && cat -s "$_sr/$_p.u" >"$_sr/$_p" &&
			    rm -f "$_sr/$_p.u" || return 1
		else
			cp "$ROOT/$_p" "$_sr/$_p" || return 1
		fi
	done <"$W/ours"
}

# series_apply NAME ROOT: apply ROOT's files to a stock copy, NAME; the
# files it touched in $W/NAME.files.
series_apply() {
	series_tree "$1"
	MPLOCK_ROOT=$2 sh "$TOOL" apply "$W/$1" >"$W/$1.log" 2>&1 || {
		cat "$W/$1.log" >&2
		die "$S: internal: apply of step $1 failed"
	}
	# The record's list: "A|M PATH SUM" (mplock-patch(8), FILES).
	awk '$1 == "A" || $1 == "M" { print $2 }' \
	    "$W/$1/.mplock-patch/files" | sort -u >"$W/$1.files"
	rm -rf "$W/$1/.mplock-patch"
}

# tfile NAME PATH: the file PATH of tree NAME, else t0's: a tech step's
# tree holds only the files it changed, and no step removes a file.
tfile() {
	if [ -f "$W/$1/$2" ]; then
		echo "$W/$1/$2"
	else
		echo "$W/t0/$2"
	fi
}

# series_diff OLD NEW: the diff of the files either touched, as
# "mplock-patch diff" writes it.
series_diff() {
	sort -u "$W/$1.files" "$W/$2.files" | while read -r _p; do
		_do=$(tfile "$1" "$_p") _lo=$_p _dn=$(tfile "$2" "$_p") _ln=$_p
		cmp -s "$_do" "$_dn" && continue
		[ -f "$_do" ] || _do=/dev/null _lo=/dev/null
		[ -f "$_dn" ] || _dn=/dev/null _ln=/dev/null
		echo "Index: $_p"
		echo "==================================================================="
		diff -u "$_do" "$_dn" | sed \
		    -e "1s|^--- .*|--- $_lo|" -e "2s|^+++ .*|+++ $_ln|"
	done
}

# memory [ARCH]: sizeof(struct __mp_lock) without WITNESS, stock (two
# u_ints per CPU, and two) and the M-lock's (two lines per CPU, and one),
# for each arch with a MAXCPUS; ARCH: that one, with its line, not 64.
memory() {
	for _a in ${1:-$(ls "$W/t0/sys/arch" 2>/dev/null)}; do
		_m=$(sed -n \
		    's/^#define[[:space:]]*MAXCPUS[[:space:]]*\([0-9]*\).*/\1/p' \
		    "$W/t0/sys/arch/$_a/include/cpu.h" 2>/dev/null |
		    sort -n | tail -n 1)
		[ -n "$_m" ] || continue
		_l=64
		[ -z "${1:-}" ] || _l=$(sed -n \
		    's/^#define __MPL_CACHELINE[[:space:]]*\([0-9]*\).*/\1/p' \
		    "$ROOT/sys/arch/$_a/include/mplock.h")
		printf '%s: %s bytes (stock: %s), MAXCPUS %s, %s-byte lines.\n' \
		    "$_a" "$(commas $(((2 * _m + 1) * _l)))" \
		    "$(commas $((_m * 8 + 8)))" "$_m" "$_l"
	done
}

commas() {
	echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' \
	    -e 'ta'
}

# write SERIES K N OLD NEW STEP [ARCH]: diff K of N of SERIES, from tree
# OLD to NEW, with its mail, in $W/out/SERIES.
write() {
	series_diff "$4" "$5" >"$W/body"
	[ -s "$W/body" ] || die "internal: step $2 of $1 ($6) changes nothing"
	{
		mail "$2" "$3" "$6" "${7:-}"
		case $6 in
		mlock|line)	memory "${7:-}" ;;
		esac
		echo
		git apply --stat -p0 <"$W/body" 2>/dev/null	# diffstat
		echo
		cat "$W/body"
	} >"$W/out/$1/$(printf '%04d-%s.diff' "$2" "${7:-$6}")"
}

# cover SERIES N: the cover letter, [PATCH 0/N]: its prose, then each
# diff's subject.
cover() {
	{
		mail 0 "$2" "$1"
		for _f in "$W/out/$1/"0*.diff; do
			sed -n '1s/^Subject: \[PATCH \([0-9]*\)\/[0-9]*\] /\1 /p' "$_f"
			printf '  (%s, %s lines)\n' "${_f##*/}" \
			    "$(wc -l <"$_f" | tr -d ' ')"
		done
		echo
		[ "$1" = optional ] || text checked
		text apply
	} >"$W/out/$1/0000-cover.txt"
}

# mail K N NAME [ARCH]: section NAME of the prose as mail K of N, its
# first line the subject.
mail() {
	text "$3" "${4:-}" >"$W/mail"
	echo "Subject: [PATCH $1/$2] $(sed 1q "$W/mail")"
	echo
	sed 1d "$W/mail"
}

# text NAME [ARCH]: section NAME of the mails' prose.
text() {
	_bo=$(upper "$BACKENDS" |
	    sed "s/MLOCK //; s/\([A-Z]*\)/MPLOCK_\1/g; s/ /, /g")
	awk -v s="@$1" '/^@/ { on = $0 == s; next } on' <<EOT
@release-all
kernel lock: __mp_release_all() at depth 0 hands nothing on
_kernel_lock_held() returns 1 on every CPU once panicstr or db_active
is set, so mi_switch() (sched_bsd.c), tsleep() and msleep() after a
panic (kern_synch.c), vfs_syncwait() (vfs_subr.c) and sched_toidle()
(kern_sched.c) call __mp_release_all() on CPUs that do not hold the
lock.  At depth 0 it still moves mpl_ticket on, handing the lock to
the next CPU in line while its owner holds it: after a panic, or in
ddb, two CPUs run under the kernel lock.  Hand on only when this CPU
held it.  A userland test of this lock, with threads as CPUs, shows
it: CPU 0 holds, CPU 2 waits, CPU 1 calls __mp_release_all(); without
this diff CPU 2 gets in.
@mlock
kernel lock: an M-lock replaces the ticket lock
Replace the ticket lock behind KERNEL_LOCK() with an M-lock, Philip
Machanick's minimal-contention lock ("Design of a minimal-contention
lock", Rhodes University, 2018), a FIFO queue lock of the CLH family,
as proposed for this lock on tech@ in June 2022.  With the ticket lock
every waiter spins on mpl_ticket, and eight CPUs' cells share a line;
here each waiter spins on its predecessor's word, in a line only that
CPU writes, so a hand-off moves one line to one CPU.

Same interface, recursion, WITNESS and MP_LOCKDEBUG behaviour as the
ticket lock (the next two diffs change two corner cases).  Only
<sys/atomic.h>; on amd64 and i386 __mp_lock() is an xchg and plain
loads and stores, no fence.  The comment states the invariants and
which barrier pairs with which.

Memory, sizeof(struct __mp_lock) without WITNESS (one, static):
@acquire-count
kernel lock: __mp_acquire_count() below 1 takes nothing
__mp_acquire_count() with a negative count counted down through the
whole range of an int.  Take the lock count times, none for a count
below 1.
@not-held
kernel lock: MP_LOCKDEBUG refuses an unlock of a lock not held
With MP_LOCKDEBUG, __mp_unlock() of a lock this CPU does not own
enters ddb; when ddb was left the unlock went on: at depth 0 the depth
wrapped around, and on a CPU that only waits it gave up its place
while the owner still held the lock.  Return after ddb instead.
@line
$2: kernel lock padded to the port's cache line
$2: pad the kernel lock's per-CPU words to the longer cache lines
this port runs on, so that no two CPUs' words share a line.

@backends
kernel lock: backends as options ($_bo)
Make the lock a choice at compile time, for measuring on real
machines: option $_bo instead of the default M-lock.  The lock moves
from kern_lock.c to kern_mplock.c, with kern_lock.c's copyright
notice; each backend is a header inlined into __mp_lock() and
__mp_unlock().
@debug
kernel lock: option MPLOCK_DEBUG and ddb show mplock
option MPLOCK_DEBUG: a record of the lock's recent events per CPU,
checks of its invariants, and the ddb command "show mplock".
@torture
kernel lock: option MPLOCK_TORTURE
option MPLOCK_TORTURE: a torture test of the kernel lock from every
CPU, started from main(), that panics on a violation.
@arch
$2: kernel lock ordering primitives
$2: the kernel lock's atomics and barriers in <machine/mplock.h>
instead of the MI fallbacks, each with its ordering argument.
@guest
kernel lock: M-lock guest mode, waiters halt under a hypervisor
Under a hypervisor with more vCPUs than CPUs, the CPU next in the
queue is often not running while the others spin.  A waiter that has
spun for mplock_guest_spin TSC cycles (option MPLOCK_GUEST_SPIN) marks
the word it waits on with its CPU number and halts (sti; hlt); the
hand-off swaps 0 in and sends a NOP IPI to the CPU the old value
names.  The mark and the hand-off are read-modify-writes of one word,
so either the waiter is kicked or it does not halt.  On when the CPU
reports a hypervisor; option MPLOCK_GUEST forces it, MPLOCK_NOGUEST
leaves it out.  amd64 and i386 only.
@man
kernel lock: manual pages
mplock(9), mplock_debug(9) and mplock_torture(9).
@tech
kernel lock: an M-lock in place of the ticket lock
These diffs replace the ticket lock behind KERNEL_LOCK() with an
M-lock, Philip Machanick's FIFO queue lock ("Design of a
minimal-contention lock", Rhodes University, 2018); 1 fixes the
ticket lock as it is and stands on its own.  The idea comes from the
M-lock posted to tech@ in June 2022.

@checked
Checked: each step compiled in this tree for amd64 and i386, with and
without WITNESS, MP_LOCKDEBUG and DDB; the lock of each step run in
userland with threads as CPUs (the test of 1 fails without it); the
barriers of 2 as herd7 litmus tests; the kernel after 2, and after
both series, booted under qemu with 4 CPUs running a torture test.

@optional
kernel lock: backends, debug layer, torture test, MD primitives, manual pages
Not for commit as it is: what we built on top of the M-lock series, for
those who want to measure the kernel lock or test it.

@apply
Each diff applies on top of the ones before it, from /usr/src with
"patch -p0 < file", or from /usr/src/sys with "patch -p1 < file".
EOT
}

# ---------------------------------------------------------------------

step=
while getopts :s: ch; do
	case $ch in
	s)	step=$OPTARG ;;
	*)	badopt "$ch" ;;
	esac
done
shift $((OPTIND - 1))
case $step in
''|[1-4])	;;
*)	usage "-s $step: a step of the tech@ series' first four, 1 to 4" ;;
esac
[ $# -eq 2 ] || usage
case $1$2 in
-*)	usage ;;
*"
"*)	die "a name with a newline; rename it" ;;
esac
[ -d "$1" ] || die "$1: not a directory"
S=$(cd "$1" && pwd) || die "$1: cannot enter"
_dir=$2
if [ -e "$_dir" ] || [ -h "$_dir" ]; then
	[ -d "$_dir" ] && [ -z "$(ls -A "$_dir")" ] ||
	    die "$_dir: exists and is not an empty directory"
fi
command -v unifdef >/dev/null 2>&1 ||
    die "unifdef(1) is not installed"
[ -f "$S/sys/kern/kern_lock.c" ] ||
    die "$S: no sys/kern/kern_lock.c: give the tree that holds sys/"

W=$(mktemp -d "${TMPDIR:-/tmp}/series.XXXXXXXX") ||
    die "cannot make a temporary directory"
trap 'rm -rf "$W"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# -s: that step's two files alone, nothing checked.
if [ -n "$step" ]; then
	inplace "$S" "$W/s" "$step"
	mkdir -p "$_dir" && cp -R "$W/s/." "$_dir/" ||
	    die "$_dir: cannot write step $step"
	exit 0
fi

# The tree must be one apply takes; what apply installs, from its list.
sh "$TOOL" check "$S" >"$W/check" 2>"$W/check.err" || {
	cat "$W/check.err" >&2
	die "$S: not a stock tree this checkout patches"
}
awk '$1 == "add" || $1 == "change" { print $2 }' "$W/check" |
    while read -r _p; do
	case $_p in
	share/man/man9/* | sys/*)	[ -f "$ROOT/$_p" ] && echo "$_p" ;;
	esac
    done | sort >"$W/ours"
mkdir -p "$W/out/tech" "$W/out/optional"
series_tree t0
: >"$W/t0.files"

# The tree's ports ours has a header for: an optional step each; a tech
# step too where the tree has the header and ours sets __MPL_CACHELINE.
archs=
: >"$W/lines"
for a in $(ls "$ROOT/sys/arch"); do
	_h=sys/arch/$a/include/mplock.h
	[ -f "$ROOT/$_h" ] && [ -d "$W/t0/sys/arch/$a" ] || continue
	archs="$archs arch:$a"
	[ -f "$W/t0/$_h" ] && grep -q '^#define __MPL_CACHELINE' "$ROOT/$_h" &&
	    echo "$a" >>"$W/lines"
done

# tech: the fix, the M-lock, its two changes, the ports' lines.
tsteps="release-all mlock acquire-count not-held $(sed 's/^/line:/' \
    "$W/lines")"
nt=$(echo $tsteps | wc -w | tr -d ' ')
i=0
prev=t0
for w in $tsteps; do
	i=$((i + 1))
	a=${w#line:}
	case $w in
	line:*)	w=line _h=sys/arch/$a/include/mplock.h
		cp -R "$W/$prev" "$W/t$i" &&
		    cp "$W/$prev.files" "$W/t$i.files" ||
		    die "internal: cannot copy $W/$prev"
		mkdir -p "$W/t$i/${_h%/*}" &&
		    ours_line "$a" <"$(tfile "$prev" "$_h")" >"$W/t$i/$_h" ||
		    die "$S: $_h: no __USE_MI_MPLOCK line, or ours sets nothing"
		echo "$_h" >>"$W/t$i.files" ;;
	*)	a=
		inplace "$W/t0" "$W/t$i" "$i"
		printf '%s\n' sys/kern/kern_lock.c sys/sys/mplock.h \
		    >"$W/t$i.files" ;;
	esac
	write tech "$i" "$nt" "$prev" "t$i" "$w" "$a"
	[ "$prev" = t0 ] || rm -rf "$W/$prev"
	prev=t$i
done
tech=$prev

# optional: apply of a cut-down checkout; the ports' lines of tech stay
# until the port's own step.
steps="backends debug torture$archs guest"
if [ -d "$W/t0/share/man/man9" ]; then
	steps="$steps man"
else
	echo "$PROG: $S: no share/man/man9: no manual page step" >&2
fi
no=$(echo $steps | wc -w | tr -d ' ')
k=0
kept=
for s in $steps; do
	k=$((k + 1))
	w=$s a=
	case $s in
	arch:*)	a=${s#arch:}
		w=arch
		kept="$kept $a" ;;
	esac
	series_root "$W/r$k" "$w" $kept || die "internal: cannot copy $ROOT"
	series_apply "o$k" "$W/r$k"
	for la in $(cat "$W/lines"); do
		case " $kept " in *" $la "*) continue ;; esac
		cp "$W/$tech/sys/arch/$la/include/mplock.h" \
		    "$W/o$k/sys/arch/$la/include/mplock.h"
		echo "sys/arch/$la/include/mplock.h" >>"$W/o$k.files"
	done
	write optional "$k" "$no" "$prev" "o$k" "$w" "$a"
	[ "$prev" = "$tech" ] || rm -rf "$W/$prev"
	prev=o$k
done

# The last tree is the whole change: what apply makes.
series_apply whole "$ROOT"
diff -r "$W/whole" "$W/$prev" >"$W/whole.cmp" 2>&1 || {
	head -n 20 "$W/whole.cmp" >&2
	die "internal: the series does not end where apply does"
}
cover tech "$nt"
cover optional "$no"

mkdir -p "$_dir" && cp -R "$W/out/tech" "$W/out/optional" "$_dir/" ||
    die "$_dir: cannot write the series"
for f in "$_dir"/tech/* "$_dir"/optional/*; do
	echo "$PROG: $f: $(wc -l <"$f" | tr -d ' ') lines"
done
