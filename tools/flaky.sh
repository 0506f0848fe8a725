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
# flaky.sh: is every seeded bug caught every time?  (make test-flaky,
# doc/testing.md)  The suites once, with FLAKY_LOG set, so that each
# seeded bug whose catch depends on a run notes its command; then each
# of those runs again, beside busy loops, judged as the suite judges it.

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"

PROG=flaky
USAGE='usage: tools/flaky.sh [-n runs] [-l loaders] [-m pattern] [suite ...]'

runs=10 loaders=2 pattern=
while getopts :l:m:n: o; do
	case $o in
	l)	loaders=$OPTARG ;;
	m)	pattern=$OPTARG ;;
	n)	runs=$OPTARG ;;
	*)	badopt "$o" ;;
	esac
done
shift $((OPTIND - 1))
optnum -n "$runs" 1 9999
optnum -l "$loaders" 0 64
suites=${*:-mutants debug cross kernel}

results_header "tools/flaky.sh -n $runs -l $loaders${pattern:+ -m '$pattern'}\
 $suites"

. "$ROOT/tools/lib/testlib.sh"
FD=$OBJ/flaky
LOGS=$FD/logs
rm -rf "$FD"
mkdir -p "$LOGS"
seeded=$FD/seeded
: >"$seeded"

# The suites themselves, without the load: they build what the seeded
# bugs run and note the commands.
FLAKY_LOG=$seeded MPLOCK_FULL=1 sh "$ROOT/tools/test.sh" $suites \
    >"$FD/suites.log" 2>&1
if [ -n "$pattern" ]; then
	awk -F '\t' -v p="$pattern" '$2 ~ p' "$seeded" >"$seeded.m"
	mv "$seeded.m" "$seeded"
fi
n=$(wc -l <"$seeded" | tr -d ' ')
[ "$n" -gt 0 ] || die "no seeded bug noted (see $FD/suites.log)"
echo "flaky: $n seeded bugs noted; $(grep -c '^\[ *[0-9]*\] FAIL' \
    "$FD/suites.log") failures in the suites' own run ($FD/suites.log)"

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

# judge KIND: was _t_exec's run's bug caught, as its suite judges it
# (t_kernel_caught or t_caught)?  how: "fail" or "hang".
judge() {
	how=fail
	if [ "$1" = kernel ]; then
		t_kernel_caught || return 1
		case $_rc in 4|124) how=hang ;; esac
		return
	fi
	t_caught || return 1
	case $_rc:$_why in
	124:* | *watchdog* | *hang* | *stuck*) how=hang ;;
	esac
}

pass=0 fail=0
while IFS='	' read -r kind name secs cmd; do
	caught=0 hangs=0
	r=1
	while [ "$r" -le "$runs" ]; do
		eval "set -- $cmd"
		_t_exec "$name.$r" "$secs" "$@" </dev/null
		if judge "$kind"; then
			caught=$((caught + 1))
			[ "$how" = hang ] && hangs=$((hangs + 1))
		fi
		r=$((r + 1))
	done
	if [ "$caught" -eq "$runs" ]; then
		pass=$((pass + 1))
		v=PASS
	else
		fail=$((fail + 1))
		v=FAIL
	fi
	printf '%s %-46s caught %2d of %d (%d by a hang)\n' "$v" "$name" \
	    "$caught" "$runs" "$hangs"
done <"$seeded"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
