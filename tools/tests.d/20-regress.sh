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
for be in $BACKENDS; do
	# mplockbench: the default backend's, for its usage.
	HARNESS_PROGS=mplocktest
	[ "$be" = "$DEFAULT_BACKEND" ] && HARNESS_PROGS="mplocktest mplockbench"
	harness_tests "regress/$be" "$be" "$HQ" $KERNEL_OPTIONS || continue
	[ "$be" = "$DEFAULT_BACKEND" ] && t_check regress/usage rg_usage "$hd"
	# The stress tests and the spin-out with the waiters halting.
	has_guest "$be" && t_run "regress/$be/guest" 300 "$hd/mplocktest" \
	    $HQ -g stress spinout
	harness_plain "regress/$be" "$be"
done
