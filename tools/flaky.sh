#!/bin/sh
#
# Copyright (c) 2026 The mplock authors
#
# Permission to use, copy, modify, and distribute this software for any
# purpose with or without fee is hereby granted, provided that the above
# copyright notice and this permission notice appear in all copies.
#
# THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
# WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
# MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
# ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
# WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
# ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
# OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
#
# flaky.sh: is every seeded bug caught every time?  (make test-flaky)
#
#	tools/flaky.sh [-n runs] [-l loaders] [suite ...]
#
# Runs the suites (default: mutants debug cross kernel) once with
# FLAKY_LOG set, so that every seeded bug whose catch depends on a run
# (t_run_fails, and the kernel suite's seeded boots) notes its command;
# then runs each noted command again until it has run RUNS times (10),
# all with LOADERS (2) busy loops beside it, and judges each run as the
# suite does.  A seeded bug caught fewer than RUNS times fails.
#
# The other seeded bugs need no repetition: the Spin models and herd7
# explore every interleaving or execution of their model (suite verify),
# and the compile-time ones (kcompile, cacheline, standalone, debug's
# zero-cost) are judged on a compiler's or a grep's output.

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"

usage() {
	echo "usage: flaky.sh [-n runs] [-l loaders] [suite ...]" >&2
	exit 1
}

runs=${FLAKY_RUNS:-10} loaders=2
while getopts l:n: o; do
	case $o in
	l)	loaders=$OPTARG ;;
	n)	runs=$OPTARG ;;
	*)	usage ;;
	esac
done
shift $((OPTIND - 1))
case $runs$loaders in
''|*[!0-9]*)	usage ;;
esac
[ "$runs" -ge 1 ] || usage
suites=${*:-mutants debug cross kernel}

FD=$OBJ/flaky
rm -rf "$FD"
mkdir -p "$FD/logs"
FLAKY_LOG=$FD/seeded
: >"$FLAKY_LOG"
export FLAKY_LOG

pids=
stop_load() {
	[ -z "$pids" ] || kill $pids 2>/dev/null
	pids=
}
trap 'stop_load' EXIT
trap 'stop_load; exit 130' INT TERM HUP
i=0
while [ "$i" -lt "$loaders" ]; do
	sh -c 'while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done
echo "flaky: $runs runs of every seeded bug of: $suites;" \
    "$loaders busy loops beside them"

# Run 1: the suites themselves (their seeded bugs and everything else).
KERNEL_SEEDED=1 sh "$ROOT/tools/test.sh" $suites >"$FD/run1.log" 2>&1
grep -E '^\[ *[0-9]+\] (PASS|FAIL|SKIP)' "$FD/run1.log" >"$FD/run1.results"
n=$(wc -l <"$FLAKY_LOG" | tr -d ' ')
[ "$n" -gt 0 ] || {
	echo "flaky: no seeded bug noted in run 1 (see $FD/run1.log)"
	echo "0 passed, 1 failed"
	exit 1
}

# judge KIND RC LOG: was the bug caught?  As t_run_fails and k_mutant.
judge() {
	case $1 in
	kernel)	case $2 in 1|3|4|124) return 0 ;; esac
		return 1 ;;
	esac
	case $2 in
	0|77)	return 1 ;;
	124)	return 0 ;;
	esac
	grep -q FAIL "$3"
}

pass=0 fail=0
while IFS='	' read -r kind name secs cmd; do
	# Run 1's verdict, from the suite's own output.
	caught=0
	grep -qE "\] PASS +$name( |\$)" "$FD/run1.results" &&
	    caught=1
	r=2
	while [ "$r" -le "$runs" ]; do
		log=$FD/logs/$(echo "$name" | tr '/ ' '__').$r.log
		eval "timeout $secs $cmd" >"$log" 2>&1 </dev/null
		judge "$kind" $? "$log" && caught=$((caught + 1))
		r=$((r + 1))
	done
	if [ "$caught" -eq "$runs" ]; then
		pass=$((pass + 1))
		printf 'PASS %-50s caught %d of %d\n' "$name" "$caught" "$runs"
	else
		fail=$((fail + 1))
		printf 'FAIL %-50s caught %d of %d\n' "$name" "$caught" "$runs"
	fi
done <"$FLAKY_LOG"
stop_load
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
