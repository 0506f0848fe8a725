# bsdmake: the regress directory's own Makefile, the one OpenBSD's
# regress framework runs, driven by bmake with a stand-in
# bsd.regress.mk (tools/fixtures/mk), in quick mode.

if command -v bmake >/dev/null 2>&1; then
	d=$OBJ/bsdmake
	rm -rf "$d"
	mkdir -p "$d"
	t_run "bsdmake/regress" 600 env MAKEOBJDIR="$d" bmake \
	    -m "$ROOT/tools/fixtures/mk" -C "$REGRESS" MPLOCKTEST_FLAGS=-q \
	    regress
else
	t_fail "bsdmake/regress" "bmake not installed (.ci/run installs it)"
fi
