#!/bin/sh
#
# make bench: every kernel lock backend side by side with OpenBSD's
# ticket lock as shipped and the tech@ series' steps, in interleaved
# runs; tools/lib/bench-report.awk makes the report.
# Options, output and method: doc/bench.md.

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"
command=$(command_line "$0" "$@")	# for the results file
. "$ROOT/tools/lib/harness.sh"
. "$ROOT/tools/lib/vendor.sh"
. "$ROOT/tools/lib/stock.sh"
MDARCH=${MDARCH-$HOST_MDARCH}	# measure the shipped MD header; MDARCH= for MI

reps=15
secs=		# 0.3, less when the runs would take over $budget s
threads=	# 1 2 4 ... the online CPUs, and twice them
out=$OBJ/bench
budget=90
PROG=bench
USAGE='usage: tools/bench.sh [-r reps] [-d seconds] [-t "threads ..."]
           [-o dir]'

while getopts :d:o:r:t: ch; do
	case $ch in
	d)	secs=$OPTARG ;;
	o)	out=$OPTARG ;;
	r)	reps=$OPTARG ;;
	t)	threads=$OPTARG ;;
	*)	badopt "$ch" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage "no operands, only options: $*"
optnum -r "$reps" 1 9999
for v in $threads; do
	optnum -t "$v" 1 9999
done
[ -z "$secs" ] || seconds_ok "$secs" ||
    usage "-d: not a number of seconds over 0: $secs"

online=$(ncpu_online)
# Absolute: the builds run make in other directories.
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1

# Other work on the machine shows up as preempted lock holders.  Read
# before the builds below, whose own load the one-minute average would
# still hold when the runs start.
load=$(cut -d ' ' -f 1 /proc/loadavg 2>/dev/null ||
    sysctl -n vm.loadavg 2>/dev/null | awk '{ print $1 }')
loadnote="load average before the builds and runs: ${load:-unknown}"
if awk -v l="${load:-0}" 'BEGIN { exit !(l > 0.3) }'; then
	loadnote="$loadnote: NOT IDLE, the figures are unreliable"
	echo "bench: $loadnote" >&2
fi

# build NAME COMMAND...: build a peer, or stop the benchmark.
build() {
	_bn=$1
	shift
	echo "bench: building $_bn ..." >&2
	"$@" || die "build of $_bn failed, see $out/$_bn/build.log"
}

# OpenBSD's ticket lock as shipped: no vendored tree, no stock row (the
# table says so); a kern_lock.c without that block stops the benchmark,
# before the long builds, rather than measure something else.
stock=
echo "bench: building stock (OpenBSD's kern_lock.c ticket lock) ..." >&2
stock_build "$out/stock"
case $? in
0)	stock=stock
	vtree=$(vendor_tree openbsd-src)
	stocknote="stock: the ticket lock block of OpenBSD's"
	stocknote="$stocknote sys/kern/kern_lock.c ($(sed -n \
	    's/.*\$\(OpenBSD: kern_lock.c,v [0-9.]*\) .*/\1/p' \
	    "$vtree/sys/kern/kern_lock.c" | head -n 1))" ;;
77)	stocknote="stock: skipped, no vendored OpenBSD tree" ;;
*)	die "build of the stock peer failed, see $out/stock/build.log" ;;
esac

# The tech@ series' first two steps (doc/bench.md), built as stock is,
# with the tree's own <machine/mplock.h>.
steps=
for st in ${stock:+1:stock-fix 2:mlock-diff}; do
	sn=${st#*:} sd=$out/steps/${st#*:}
	rm -rf "$sd"
	sh "$ROOT/tools/series/series.sh" -s "${st%%:*}" "$vtree" "$sd" ||
	    die "the tech@ series' step ${st%%:*} failed on the tree"
	ln -s "$vtree/sys/arch" "$sd/sys/arch" || exit 1
	build "$sn" stock_build "$out/$sn" "$sd" "$sn"
	steps="$steps $sn"
done
stepnote="stock-fix, mlock-diff: stock after the tech@ series' first diff"
stepnote="$stepnote (the __mp_release_all() fix) and after its second (the"
stepnote="$stepnote M-lock in kern_lock.c)"

# Our backends, and the default one without its guest mode.
for be in $BACKENDS; do
	build "$be" harness_build "$out/$be" "$be"
done
ng=$DEFAULT_BACKEND-noguest
build "$ng" harness_build "$out/$ng" "$DEFAULT_BACKEND" -DMPLOCK_NOGUEST \
    -DMPL_BENCH_NAME="\"$ng\""
ngnote="$ng: $DEFAULT_BACKEND built with option MPLOCK_NOGUEST (no guest"
ngnote="$ngnote mode)"

max=$("$out/$DEFAULT_BACKEND/mplockbench" -i | sed -n 's/^maxthreads=//p')

if [ -z "$threads" ]; then
	# 1, 2, 4, ... below N, N itself, and 2N oversubscribed.
	t=1
	while [ "$t" -lt "$online" ]; do
		threads="$threads $t"
		t=$((t * 2))
	done
	threads="$threads $online $((online * 2))"
fi
tl=
for t in $threads; do
	if [ "$t" -gt "$max" ]; then
		echo "bench: $t threads: more than the $max the harness" \
		    "has CPUs for, left out" >&2
		continue
	fi
	case " $tl " in *" $t "*) ;; *) tl="$tl $t" ;; esac
done
threads=${tl# }
[ -n "$threads" ] || die "no thread counts left"

rows="$BACKENDS $ng $stock$steps"
nrows=$(echo $rows | wc -w)
nt=$(echo $threads | wc -w)
pingpong=$((online >= 2))
nruns=$((reps * (nrows * (1 + nt) + pingpong)))
if [ -z "$secs" ]; then
	# A run costs its duration and about 20 ms to start.
	secs=$(awk -v n=$nruns -v b=$budget 'BEGIN {
		d = b / n - 0.02
		if (d > 0.3) d = 0.3
		if (d < 0.05) d = 0.05
		printf "%.3f", d }')
fi
ms=$(awk -v d="$secs" 'BEGIN { printf "%d", d * 1000 + 20 }')
echo "bench: $nruns runs of ${secs}s, about $((nruns * ms / 1000))s" >&2

raw=$out/raw.txt
: >"$raw"
# run_one LOCK ARG...: one run, its line into the raw file.
run_one() {
	_l=$1
	shift
	_o=$("$out/$_l/mplockbench" -d "$secs" "$@") || die "$_l $* failed"
	echo "rep=$r $_o" >>"$raw"
}

order=$rows
r=1
while [ "$r" -le "$reps" ]; do
	echo "bench: repetition $r of $reps" >&2
	for l in $order; do
		run_one "$l" uncontended
	done
	# The floor: mplockbench's, whichever lock it has.
	[ "$pingpong" -eq 1 ] && run_one "$DEFAULT_BACKEND" pingpong
	for t in $threads; do
		for l in $order; do
			run_one "$l" -t "$t" contended
		done
	done
	# Rotate: the first lock of this repetition goes last.
	set -- $order
	f=$1
	shift
	order="$* $f"
	r=$((r + 1))
done

# The ratios refer to stock and to our ticket lock, those there are.
bases=
for b in $stock ticket; do
	case " $rows " in *" $b "*) bases="$bases $b" ;; esac
done
[ -n "$bases" ] || bases=$DEFAULT_BACKEND
bases=${bases# }
# Pinned or not: every run says (pin=yes, or pin=no-WHY).
pinnote=$(sed -n 's/.* pin=\([^ ]*\).*/\1/p' "$raw" | sort -u |
    tr '\n' ' ')
case $pinnote in
'yes ')	pinnote="threads pinned: thread i on the i-th CPU allowed"
	pinnote="$pinnote (modulo their number)" ;;
*)	pinnote="pinning: UNAVAILABLE or failed in some runs (${pinnote% }):"
	pinnote="$pinnote threads run where the scheduler puts them" ;;
esac
results=$out/results-$(date -u +%Y-%m-%d-%H%M).txt
[ "$pingpong" -eq 1 ] && rows="$rows pingpong"
# The table is the results file, header and all.
{
	results_header "$command"
	echo "# load: $loadnote"
	echo "mplock benchmark: $($CC --version 2>/dev/null | head -n 1)"
	echo "$reps repetitions of ${secs}s per run; threads: $threads" \
	    "(* more threads than CPUs)"
	echo "our backends: $BACKENDS; the other rows, and the method (runs" \
	    "interleaved, cells median and spread, paired ratios): doc/bench.md"
	echo "$stocknote"
	[ -n "$steps" ] && echo "$stepnote"
	echo "$ngnote"
	echo "$pinnote"
	stats_awk "$out/stats.awk" &&
	awk -v rows="$rows" -v threads="$threads" -v ncpu="$online" \
	    -v bases="$bases" -f "$out/stats.awk" \
	    -f "$ROOT/tools/lib/bench-report.awk" "$raw"
} >"$out/bench.txt" || die "the report failed (tools/lib/bench-report.awk)"
cat "$out/bench.txt"
cp "$out/bench.txt" "$results"

echo "table: $out/bench.txt; raw runs: $raw"
echo "results: $results"
