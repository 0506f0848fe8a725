#!/bin/sh
#
# Run every test suite (tools/tests.d/*.sh, in name order) and print
# "N passed, N failed" as the last line.  Exit status 0 when none failed.
#
#	tools/test.sh [suite ...]	e.g. tools/test.sh regress mutants
#
# MPLOCK_FULL=1 runs every long matrix in full (make test-full).

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# The tests build this checkout, whatever a user's MPLOCK_ROOT names.
unset MPLOCK_ROOT
. "$ROOT/tools/lib/common.sh"
PROG=test
USAGE='usage: tools/test.sh [suite ...]'
for a in "$@"; do
	ls "$ROOT"/tools/tests.d/[0-9][0-9]-"$a".sh >/dev/null 2>&1 ||
	    usage "$a: no such suite (tools/tests.d)"
done
. "$ROOT/tools/lib/testlib.sh"
. "$ROOT/tools/lib/harness.sh"

RESULTS=$OBJ/test-results
export RESULTS
: >"$RESULTS"

# herd7's build (minutes, once per checkout) overlaps the suites before
# verify, niced; verify waits for it.
case " ${*:-verify} " in
*" verify "*)
	. "$ROOT/tools/lib/vendor.sh"
	. "$ROOT/tools/lib/herd.sh"
	herd_prebuild "$OBJ/herd7-prebuild.log" ;;
esac

start=$(date +%s)
echo "mplock tests: backends: $BACKENDS; $(ncpu_online) CPUs;" \
    "$(uname -sm); CC=$CC"
for suite in "$ROOT"/tools/tests.d/*.sh; do
	name=$(basename "$suite" .sh)
	name=${name#[0-9][0-9]-}
	if [ $# -gt 0 ]; then
		case " $* " in
		*" $name "*) ;;
		*) continue ;;
		esac
	fi
	echo "== $name"
	t0=$(date +%s)
	rm -f "$OBJ/.suite-done"
	( . "$suite"; : >"$OBJ/.suite-done" )
	[ -f "$OBJ/.suite-done" ] || t_fail "$name" "suite aborted"
	echo "-- $name: $(($(date +%s) - t0))s"
done

pass=$(grep -c '^PASS' "$RESULTS")
fail=$(grep -c '^FAIL' "$RESULTS")
skip=$(grep -c '^SKIP' "$RESULTS")
echo "== summary: $(($(date +%s) - start))s"
if [ "$fail" -gt 0 ]; then
	echo "failed:"
	sed -n 's/^FAIL /  /p' "$RESULTS"
fi
[ "$skip" -gt 0 ] && echo "$skip skipped"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
