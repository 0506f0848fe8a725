# lint: man pages (mandoc -Tlint) and style(9) of the kernel sources.

if command -v mandoc >/dev/null 2>&1; then
	t_check "lint/man" sh "$ROOT/tools/lint.sh" man
else
	t_fail "lint/man" "mandoc not installed (.ci/run installs it)"
fi
t_check "lint/style" sh "$ROOT/tools/lint.sh" style

# The style checker must itself catch what it claims to.
lint_catches() {
	_d=$OBJ/lint-selftest
	rm -rf "$_d"
	mkdir -p "$_d/tools/lib" "$_d/sys/kern" "$_d/sys/sys" \
	    "$_d/regress/sys/kern/mplock"
	cp "$ROOT/tools/lint.sh" "$_d/tools/"
	cp "$ROOT/tools/lib/common.sh" "$_d/tools/lib/"
	cp "$REGRESS/Makefile.backends" "$_d/regress/sys/kern/mplock/"
	cp "$ROOT/sys/sys/mplock.h" "$_d/sys/sys/"
	printf '/* no licence */\nstatic int foo(void)\n{\n        return (0); // x\n}\n' \
	    >"$_d/sys/kern/kern_mplock.c"
	_out=$(sh "$_d/tools/lint.sh" style 2>&1)
	echo "$_out"
	for _w in "no ISC licence" "function type and name" \
	    "indented with spaces" "C++ comment"; do
		echo "$_out" | grep -q "$_w" || { echo "missed: $_w"; return 1; }
	done
}
t_check "lint/style-selftest" lint_catches
