# bsdmake: the regress directory's own Makefile under bmake with a
# stand-in bsd.regress.mk (tools/fixtures/mk), in quick mode; every
# binary must have run and passed every test its "mplocktest -l" lists.

if command -v bmake >/dev/null 2>&1; then
	d=$OBJ/bsdmake
	rm -rf "$d"
	mkdir -p "$d"
	# The default backend and one other (MPLOCK_FULL=1: all): each
	# backend's runs are suite regress's, debug's and md's as well.
	t_run "bsdmake/regress" 600 env MAKEOBJDIR="$d" bmake \
	    -m "$ROOT/tools/fixtures/mk" -C "$REGRESS" MPLOCKTEST_FLAGS=-q \
	    BACKENDS="$(slice_backends 1)" regress

	# bm_every_test LOG DIR: each mplocktest binary in DIR ran, in LOG,
	# every test its -l lists, and each passed.
	bm_every_test() {
		_n=0
		for _b in "$2"/mplocktest-*; do
			[ -x "$_b" ] || continue
			_n=$((_n + 1))
			"$_b" -l >"$2/tests.list" || return 1
			awk -v b="./${_b##*/}" -v list="$2/tests.list" '
			    BEGIN { while ((getline t < list) > 0) want[t] = 1 }
			    $1 ~ /^\.\/mplocktest-/ { cur = $1; next }
			    cur == b && /^[a-z0-9_]+\/[a-z0-9_]+: PASS$/ {
				split($1, p, "/")
				sub(/:$/, "", p[2])
				ran[p[2]] = 1
			    }
			    END {
				for (t in want)
					if (!(t in ran)) {
						print b ": test " t " not run"
						bad = 1
					}
				exit bad
			    }' "$1" || return 1
		done
		echo "$_n binaries, each ran every test it has"
		[ "$_n" -gt 0 ]
	}
	t_check "bsdmake/every-test-run" bm_every_test \
	    "$LOGS/bsdmake_regress.log" "$d"
else
	t_fail "bsdmake/regress" "bmake not installed (.ci/run installs it)"
fi
