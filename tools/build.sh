#!/bin/sh
#
# Build the userland harness (regress and benchmark) for every backend
# from the sys/ sources, into build/<backend>.

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"
. "$ROOT/tools/lib/harness.sh"

PROG=build USAGE='usage: tools/build.sh'
[ $# -eq 0 ] || usage "$1: no operands"
for be in $BACKENDS; do
	d=$OBJ/$be
	if harness_build "$d" "$be" $KERNEL_OPTIONS; then
		echo "built $d/mplocktest $d/mplockbench"
	else
		cat "$d/build.log" >&2
		die "build of backend $be failed"
	fi
done
