# regress: the userland regress for every backend (doc/testing.md); for
# the M-lock the stress tests with its guest mode forced on as well.

# The programs misused: "usage:" and exit 1, as every tool; -l lists the
# tests, of a group too, and "stress" is some of them.
rg_usage() {
	for _a in "mplocktest -Z" "mplocktest nosuch" "mplocktest" \
	    "mplockbench -Z" "mplockbench -t 0 contended"; do
		"$1"/$_a >/dev/null 2>"$1/usage.err"
		_e=$?
		echo "$_a: exit $_e; $(head -n 1 "$1/usage.err")"
		[ "$_e" -eq 1 ] || return 1
		[ "${_a#* }" = "-t 0 contended" ] ||
		    grep -q '^usage: ' "$1/usage.err" || return 1
	done
	"$1/mplocktest" -l >"$1/all.list" &&
	    "$1/mplocktest" -l stress >"$1/stress.list" || return 1
	cat "$1/stress.list"
	[ -s "$1/stress.list" ] &&
	    [ "$(grep -cxFf "$1/all.list" "$1/stress.list")" -eq \
	    "$(wc -l <"$1/stress.list")" ] &&
	    ! cmp -s "$1/all.list" "$1/stress.list"
}
# The harness without the option MPLOCK_DEBUG (the debug layer, suite
# debug): kern_mplock_debug.o defines nothing, no kernel object refers
# to the layer or its clock, the program has none of it.
no_debug_symbols() {
	_d=$1
	_syms='mpld_|mplock_print|mplock_stats|db_mplock'
	nm "$_d/o/kern_mplock_debug.o" 2>&1
	if nm "$_d/o/kern_mplock_debug.o" 2>/dev/null | grep -q .; then
		echo "kern_mplock_debug.o is not empty"
		return 1
	fi
	for _o in "$_d"/o/kern_mplock*.o; do
		# The torture test (option MPLOCK_TORTURE) reads the clock.
		_clk='|nsecuptime'
		[ "${_o##*/}" = kern_mplock_torture.o ] && _clk=
		if nm "$_o" | grep -E "$_syms$_clk|db_printsym"; then
			echo "$_o refers to the debug layer"
			return 1
		fi
	done
	if nm "$_d/mplocktest" | grep -E "$_syms"; then
		echo "mplocktest has the debug layer"
		return 1
	fi
	if ! nm "$_d/o/kern_mplock.o" | grep -q ' T __mp_lock$'; then
		echo "nm sees no __mp_lock: the check proves nothing"
		return 1
	fi
}

for be in $BACKENDS; do
	# mplockbench: the default backend's, for its usage.
	HARNESS_PROGS=mplocktest
	[ "$be" = "$DEFAULT_BACKEND" ] && HARNESS_PROGS="mplocktest mplockbench"
	harness_tests "regress/$be" "$be" "$HQ" $KERNEL_OPTIONS || continue
	[ "$be" = "$DEFAULT_BACKEND" ] && t_check regress/usage rg_usage "$hd"
	t_check "regress/$be/no-debug-symbols" no_debug_symbols "$hd"
	# The stress tests and the spin-out with the waiters halting.
	has_guest "$be" && t_run "regress/$be/guest" 300 "$hd/mplocktest" \
	    $HQ -g stress spinout
	harness_plain "regress/$be" "$be"
done
