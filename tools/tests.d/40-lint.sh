# lint: each check of tools/lint.sh passing on a copy of this checkout
# (lint_seeded) and catching faults seeded into it; mplock(9)'s space
# table, mplock_debug(9)'s reports, every tool's answer to misuse.

# lint_seeded CHECK PATH...: "lint.sh CHECK" passes on a copy of
# lint.sh, common.sh, Makefile.backends and PATHs (files or folders);
# seed_CHECK DIR then seeds a fault of each of its rules into it and
# prints a pattern for each line the check must then print, failing.
lint_seeded() {
	_c=$1
	shift
	_d=$OBJ/lint-selftest
	rm -rf "$_d" && mkdir -p "$_d" || return 1
	(cd "$ROOT" && tar cf - tools/lint.sh tools/lib/common.sh \
	    regress/sys/kern/mplock/Makefile.backends "$@") |
	    (cd "$_d" && tar xf -)
	_lint_copy || { echo "fails on a clean copy"; return 1; }
	_want=$(seed_$_c "$_d") || { echo "$_want"; return 1; }
	_out=$(_lint_copy)
	_rc=$?
	echo "$_out"
	[ $_rc -ne 0 ] || { echo "seeded faults not caught"; return 1; }
	echo "$_want" | while IFS= read -r _w; do
		echo "$_out" | grep -q -- "$_w" || { echo "missed: $_w"; exit 1; }
	done
}

_lint_copy() {
	SRC=$LINT_SRC sh "$_d/tools/lint.sh" "$_c" 2>&1
}

# An unclosed list.
seed_man() {
	printf '.Bl -tag -width Ds\n.It foo\n' >>"$1/share/man/man9/mplock.9"
	echo "mplock.9:.*ERROR: appending missing end of block: Bl"
}

seed_style() {
	printf '/* no licence */\nstatic int foo(void)\n{\n        return (0); // x\n}\n' \
	    >"$1/sys/kern/kern_mplock.c"
	printf '%s\n' "no ISC licence" "function type and name" \
	    "indented with spaces" "C++ comment"
}

# A backend registered without its file, option and manual entries,
# and a backend file nobody registered.
seed_backends() {
	sed 's/"ticket"/"stray"/' "$ROOT/sys/kern/kern_mplock_ticket.h" \
	    >"$1/sys/kern/kern_mplock_stray.h"
	sed 's/^BACKENDS=.*/& fake/' "$REGRESS/Makefile.backends" \
	    >"$1/regress/sys/kern/mplock/Makefile.backends"
	printf '%s\n' "fake: registered but there is no" \
	    "fake: sys/sys/mplock.h does not know MPLOCK_FAKE" \
	    "fake: share/man/man9/mplock.9 lacks the line: .It Dv MPLOCK_FAKE" \
	    "fake: mplock.9 lacks its rows" \
	    "kern_mplock_stray.h: backend not in Makefile.backends"
}

# A changed line of the MCS enqueue (the link store), and a pattern
# MAPPING does not name.
seed_litmus() {
	_f=sys/kern/kern_mplock_mcs.h
	sed 's/mpl_store_ptr_release(&pred->mmn_next, me);/mpl_store_ptr(\&pred->mmn_next, me);/' \
	    "$ROOT/$_f" >"$1/$_f"
	cmp -s "$ROOT/$_f" "$1/$_f" && { echo "sed did nothing"; return 1; }
	echo "pattern unmapped" >>"$1/litmus/patterns"
	echo 'kern_mplock_mcs\.h:[0-9][0-9]*-[0-9][0-9]* changed since the litmus test'
	echo "pattern unmapped has no line in MAPPING"
}

# _notice_drop DIR FILE WHO: FILE with ours alone, its stock notice
# (the comment with "Copyright (c) WHO" and the blank line after) gone.
_notice_drop() {
	_s=$(grep -n "Copyright (c) $3" "$ROOT/$2" | cut -d: -f1)
	[ -n "$_s" ] || { echo "no stock notice to drop"; return 1; }
	_e=$(awk -v s="$_s" 'NR > s && /^ \*\/$/ { print NR; exit }' \
	    "$ROOT/$2")
	sed "$((_s - 1)),$((_e + 1))d" "$ROOT/$2" >"$1/$2"
}

# A stock notice dropped; kern_mplock.c, which takes the lock's
# functions out of kern_lock.c, without its notice; our ISC block in
# amd64's public-domain <machine/mplock.h>.
seed_notices() {
	_notice_drop "$1" sys/sys/mplock.h "2004 Niklas" &&
	    _notice_drop "$1" sys/kern/kern_mplock.c "2017 Visa" || return 1
	echo "^sys/sys/mplock.h:[0-9]*: stock notice"
	echo "^sys/kern/kern_mplock.c: takes code from sys/kern/kern_lock.c"
	_p=sys/arch/amd64/include/mplock.h
	sed -n '3,/^ \*\/$/p' "$ROOT/sys/kern/kern_mplock_mlock.h" >"$1/isc"
	sed "/^\/\* public domain \*\/\$/r $1/isc" "$ROOT/$_p" >"$1/$_p"
	rm -f "$1/isc"
	cmp -s "$ROOT/$_p" "$1/$_p" && { echo "not seeded"; return 1; }
	echo "^$_p: licence line added to a public domain"
}

# Figures no results file holds, in the README and a doc/ page (the
# test is void if a results file holds one).
seed_figures() {
	if cat "$1"/doc/results/*.txt | grep -E \
	    '54\.37|3\.917|8881|173\.9|2,?071,?313'; then
		echo "a seeded figure is already in doc/results/"
		return 1
	fi
	printf '\nThe M-lock takes 54.37 ns per hand-off, 3.917x the ticket lock.\n' \
	    >>"$1/README.md"
	printf '\nA libc build took 8881 s, +173.9%% over 2,071,313 runs.\n' \
	    >>"$1/doc/bench.md"
	printf '%s\n' 'README.md:.*"54.37 ns"' 'README.md:.*"3.917x"' \
	    'doc/bench.md:.*"8881 s"' 'doc/bench.md:.*"+173.9%"' \
	    'doc/bench.md:.*"2,071,313"'
}

# README.md: the make test row quoting a figure of another results file
# than the one it links (so lint_figures passes it), a make target
# there is not, more than 160 lines.
seed_readme() {
	_r=$(grep -m 1 '^| `make test`' "$ROOT/README.md")
	_s=$(echo "$_r" | sed -n 's/^|[^|]*| \([0-9][0-9]*\) s, .*/\1/p')
	_f=$(echo "$_r" |
	    sed -n 's/.*(\(doc\/results\/test-[0-9-]*\.txt\)).*/\1/p')
	[ -n "$_s" ] && [ -f "$ROOT/$_f" ] ||
	    { echo "the row to seed is gone"; return 1; }
	grep -q '1180s' "$ROOT"/doc/results/test-2026-12-02-1725.txt &&
	    ! grep -q '1180' "$ROOT/$_f" ||
	    { echo "the seeded figure is not where the seed needs it"
	    return 1; }
	sed -e "s/| $_s s, /| 1180 s, /" \
	    -e '/^make bench /s/make bench/make benchmark/' "$ROOT/README.md" \
	    >"$1/README.md"
	yes '' | head -n 161 >>"$1/README.md"
	printf '%s\n' '"1180 s" is in no file' "make benchmark: no such" \
	    "lines, more than 160"
}

. "$ROOT/tools/lib/vendor.sh"
. "$ROOT/tools/lib/realtree.sh"
LINT_SRC=$(vendor_tree openbsd-src)
while read -r _c _p; do
	t_check "lint/$_c-selftest" lint_seeded "$_c" $_p
done <<EOT
man share/man
style sys
backends sys share/man/man9/mplock.9
litmus tools/lib/litmus.sh litmus sys tools/series/mlock.awk
notices tools/mplock-patch tools/lib sys share regress/sys/kern/mplock
figures README.md doc
readme README.md Makefile doc/results
EOT

# mplock(9): the space of each backend in its table is what
# struct __mp_lock takes on amd64 (MAXCPUS 255, its header, no
# WITNESS).
man_space() {
	_d=$OBJ/man-space
	rm -rf "$_d"
	mkdir -p "$_d/inc/machine"
	echo "#include \"$ROOT/sys/arch/amd64/include/mplock.h\"" \
	    >"$_d/inc/machine/mplock.h"
	sed -n 's/^\.It Sy \([a-z]*\) Ta \([0-9]*\) bytes Ta .*/\1 \2/p' \
	    "$ROOT/share/man/man9/mplock.9" >"$_d/table"
	[ "$(wc -l <"$_d/table")" -eq "$(echo $BACKENDS | wc -w)" ] ||
	    { echo "not a row for each backend:"; cat "$_d/table"; return 1; }
	while read -r _be _sz; do
		_real=$(realtree_sizeof "$_d/size" $CC -std=gnu99 -O2 \
		    -I"$_d/inc" -I"$REGRESS/shim/include" -I"$REGRESS/shim" \
		    -DMAXCPUS=255 -DMPLOCK_$(upper "$_be")) || return 1
		echo "$_be: table $_sz, sizeof $_real"
		[ "$_sz" = "$_real" ] || return 1
	done <"$_d/table"
}
t_check "lint/mplock9-space" man_space

# mplock_debug(9): every report it shows (a literal block
# with a line starting "mplock ") is what a booted kernel printed: it
# is in a results file of tools/kernel.sh (doc/results/kernel-*.txt),
# line breaks aside (ddb wraps long lines at 80 columns).
man_debug_samples() {
	_k=$OBJ/man-debug-kernel
	for _f in "$ROOT"/doc/results/kernel-*.txt; do
		grep -q '^# command: .*tools/kernel.sh' "$_f" 2>/dev/null &&
		    tr -d '\r\n' <"$_f"
	done >"$_k"
	[ -s "$_k" ] || { echo "no results file of tools/kernel.sh"; return 1; }
	awk -v k="$_k" 'BEGIN { getline t < k }
	    /^\.Bd -literal/ { on = 1; b = raw = ""; next }
	    /^\.Ed/ && on && raw ~ /(^|\n)mplock / {
		n++
		if (!index(t, b)) {
			printf "mplock_debug.9: a report no booted kernel" \
			    " printed:\n%s", raw
			bad = 1
			exit
		}
	    }
	    /^\.Ed/ { on = 0 }
	    on { b = b $0; raw = raw $0 "\n" }
	    END {
		if (!bad)
			print n + 0 " reports, each from a booted kernel"
		exit bad || !n
	    }' \
	    "$ROOT/share/man/man9/mplock_debug.9"
}
t_check "lint/mplock_debug-samples-from-kernel" man_debug_samples

# Every tool, misused, says so and does nothing: its name first, the
# "usage:" lines, exit 1 (OpenBSD's habit).  A new tool in tools/ is
# checked too: an unknown option, or an unknown operand where it takes
# no options.
lint_usage() {
	_d=$OBJ/usage-every-tool
	rm -rf "$_d"
	mkdir -p "$_d"
	_rc=0
	for _t in "$ROOT"/tools/*.sh "$ROOT"/tools/buildtime \
	    "$ROOT"/tools/mplock-patch "$ROOT"/tools/series/series.sh; do
		_n=${_t#"$ROOT"/tools/}
		_p=$(basename "$_n" .sh)
		case $_p in
		diffsize | lint | verify | test) _a=nosuch ;;
		*)	_a=-Z ;;
		esac
		rm -rf "$_d/obj"
		OBJ=$_d/obj sh "$_t" $_a </dev/null >"$_d/out" 2>"$_d/err"
		_e=$?
		echo "$_n $_a: exit $_e; $(head -n 1 "$_d/err")"
		[ "$_e" -eq 1 ] && [ ! -s "$_d/out" ] &&
		    grep -q "^usage: " "$_d/err" &&
		    head -n 1 "$_d/err" | grep -Eq "^($_p|$_p\.sh): |^usage: " &&
		    [ ! -e "$_d/obj" ] || { _rc=1; cat "$_d/out" "$_d/err"; }
	done
	return $_rc
}
t_check "lint/usage-every-tool" lint_usage
