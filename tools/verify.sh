#!/bin/sh
#
# Model checks of the lock protocol and the ThreadSanitizer build
# (model/README.md).  Prints a PASS/FAIL line per check, then a table
# of states explored, time and verdict per model and mutant.  Exit
# status 0 when every check passed.
#
#	tools/verify.sh [all]	everything ("make verify")
#	tools/verify.sh models	the Spin models only
#	tools/verify.sh tsan	the TSan build only
#	tools/verify.sh mapping	MAPPING and the recorded source hashes
#	tools/verify.sh map	where each MAPPING anchor is now
#	tools/verify.sh hashes	the current hashes, to be recorded in
#				model/sources.sha256 after the model was
#				re-checked
#	tools/verify.sh litmus	the herd7 litmus tests and their mutants
#				(litmus/README.md)
#	tools/verify.sh litmus-gen	write the litmus tests, to read or run
#				by hand, under build/verify/litmus/tests
#	tools/verify.sh litmus-hashes	the hashes of the source lines the
#				litmus tests stand for, to be recorded in
#				litmus/lines.sha256

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"
PROG=verify
USAGE='usage: tools/verify.sh [all | models | tsan | mapping | map |
           hashes | litmus | litmus-gen | litmus-hashes]'
what=${1:-all}
case $what in
all|models|tsan|mapping|map|hashes|litmus|litmus-gen|litmus-hashes) ;;
*)	usage "$what: no such check" ;;
esac
. "$ROOT/tools/lib/testlib.sh"
. "$ROOT/tools/lib/harness.sh"
. "$ROOT/tools/lib/verify.sh"
. "$ROOT/tools/lib/vendor.sh"
. "$ROOT/tools/lib/herd.sh"
. "$ROOT/tools/lib/litmus.sh"

case $what in
hashes)	verify_print_hashes; exit 0 ;;
map)	verify_print_map; exit 0 ;;
litmus-hashes)	litmus_print_hashes; exit 0 ;;
litmus-gen)
	litmus_tests && echo "$LTESTS"
	exit ;;
esac

mkdir -p "$VOBJ"
RESULTS=$VOBJ/results
export RESULTS
: >"$RESULTS"
: >"$VERIFY_TABLE"
start=$(date +%s)
case $what in
all|mapping)	verify_mapping ;;
esac
case $what in
all|litmus)	verify_litmus ;;
esac
case $what in
all|models)	verify_models ;;
esac
case $what in
all|tsan)	verify_tsan ;;
esac
verify_table
pass=$(grep -c '^PASS' "$RESULTS")
fail=$(grep -c '^FAIL' "$RESULTS")
echo "== verify: $(($(date +%s) - start))s, $pass passed, $fail failed"
[ "$fail" -eq 0 ]
