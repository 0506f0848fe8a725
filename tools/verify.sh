#!/bin/sh
#
# make verify (all): the Spin models, the herd7 litmus tests and the
# ThreadSanitizer build, a PASS/FAIL line per check; the other operands
# are in doc/verification.md.

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"
PROG=verify
USAGE='usage: tools/verify.sh [all | models | tsan | mapping | map |
           hashes | litmus | litmus-gen | litmus-hashes]'
what=${1:-all}
. "$ROOT/tools/lib/harness.sh"
. "$ROOT/tools/lib/verify.sh"
case $what in
all|models|tsan|mapping|litmus) ;;
hashes)	_v_sources | src_hashes; exit 0 ;;
map)	verify_print_map; exit 0 ;;
litmus-hashes)	litmus_print_hashes; exit 0 ;;
litmus-gen)	litmus_tests && echo "$LTESTS"; exit ;;
*)	usage "$what: no such check" ;;
esac
# It makes $OBJ/logs: after the usage check.
. "$ROOT/tools/lib/testlib.sh"

RESULTS=$VOBJ/results
export RESULTS
mkdir -p "$VOBJ"
: >"$RESULTS"
start=$(date +%s)
verify_run "$what"
pass=$(grep -c '^PASS' "$RESULTS")
fail=$(grep -c '^FAIL' "$RESULTS")
echo "== verify: $(($(date +%s) - start))s, $pass passed, $fail failed"
[ "$fail" -eq 0 ]
