#!/bin/sh
#
# Measure every kernel lock backend side by side on this machine: ns per
# lock+unlock uncontended, and per acquisition with 1..N CPUs contending.
# Backends are interleaved within each repetition so drift hits all of
# them alike; the table shows medians and each backend's ratio to the
# ticket lock measured in the same run (below 1.00: faster).
#
#	tools/bench.sh [-r reps] [-d seconds] [-t "threads ..."]
#	    [-c cs_ns] [-p ncs_ns] [-o dir]

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"
. "$ROOT/tools/lib/harness.sh"
MDARCH=${MDARCH-$HOST_MDARCH}	# measure the shipped MD header; MDARCH= for MI

reps=5
secs=0.3
cs=0
ncs=0
out=$OBJ/bench
threads=

usage() {
	echo "usage: $0 [-r reps] [-d seconds] [-t \"threads ...\"]" \
	    "[-c cs_ns] [-p ncs_ns] [-o dir]" >&2
	exit 2
}

while getopts c:d:o:p:r:t: ch; do
	case $ch in
	c)	cs=$OPTARG ;;
	d)	secs=$OPTARG ;;
	o)	out=$OPTARG ;;
	p)	ncs=$OPTARG ;;
	r)	reps=$OPTARG ;;
	t)	threads=$OPTARG ;;
	*)	usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage

ncpu=$(ncpu_online)
if [ -z "$threads" ]; then
	# 1, 2, 4, ... up to the number of CPUs, and that number itself.
	t=1
	while [ "$t" -lt "$ncpu" ]; do
		threads="$threads $t"
		t=$((t * 2))
	done
	threads="$threads $ncpu"
fi

mkdir -p "$out" || exit 1
for be in $BACKENDS; do
	echo "building $be ..." >&2
	harness_build "$out/$be" "$be" ||
	    die "build of $be failed, see $out/$be/build.log"
done

raw=$out/raw.txt
: >"$raw"
nruns=$((reps * $(echo $BACKENDS | wc -w) * (1 + $(echo $threads | wc -w))))
run=0
order=$BACKENDS
r=1
while [ "$r" -le "$reps" ]; do
	for be in $order; do
		b=$out/$be/mplockbench
		run=$((run + 1))
		printf '\r[%d/%d] rep %d %s uncontended   ' $run $nruns $r \
		    "$be" >&2
		"$b" -d "$secs" uncontended >>"$raw" || die "$b failed"
		for t in $threads; do
			run=$((run + 1))
			printf '\r[%d/%d] rep %d %s %d threads    ' $run \
			    $nruns $r "$be" "$t" >&2
			"$b" -d "$secs" -c "$cs" -p "$ncs" -t "$t" contended \
			    >>"$raw" || die "$b failed"
		done
	done
	# Rotate the order: the first backend of a repetition goes last.
	set -- $order
	first=$1
	shift
	order="$* $first"
	r=$((r + 1))
done
printf '\r%60s\r' '' >&2

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null |
    head -n 1)
[ -n "$cpu" ] || cpu=$(sysctl -n hw.model 2>/dev/null)
echo "mplock benchmark: $ncpu CPUs ($cpu), $(uname -sm), $reps runs of" \
    "${secs}s each, cs=${cs}ns ncs=${ncs}ns"
echo "median ns per lock+unlock (uncontended) or per acquisition" \
    "(contended), [min-max]; ratio: backend/ticket, below 1 is faster"

awk -v backends="$BACKENDS" -v csv="$out/bench.csv" '
function key(mode, t) { return mode " " t }
{
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		f[kv[1]] = kv[2]
	}
	k = key(f["mode"], f["threads"])
	if (!(k in seen)) {
		seen[k] = 1
		rows[++nrows] = k
	}
	kb = k SUBSEP f["backend"]
	v[kb, ++n[kb]] = f["ns"] + 0
	fair[kb] = fair[kb] " " f["fair"]
}
function median(kb,    i, j, m, t, a) {
	m = n[kb]
	for (i = 1; i <= m; i++)
		a[i] = v[kb, i]
	for (i = 2; i <= m; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	lo = a[1]; hi = a[m]
	if (m % 2)
		return a[(m + 1) / 2]
	return (a[m / 2] + a[m / 2 + 1]) / 2
}
END {
	nb = split(backends, b, " ")
	printf "%-22s", "workload"
	for (i = 1; i <= nb; i++)
		printf " %22s", b[i] " ns"
	for (i = 1; i <= nb; i++)
		if (b[i] != "ticket")
			printf " %14s", b[i] "/ticket"
	printf "\n"
	print "backend,mode,threads,median_ns,min_ns,max_ns,runs," \
	    "ratio_to_ticket" > csv
	for (r = 1; r <= nrows; r++) {
		split(rows[r], kk, " ")
		label = kk[1] == "uncontended" ? "uncontended" : \
		    sprintf("contended %3d thr", kk[2])
		printf "%-22s", label
		for (i = 1; i <= nb; i++) {
			kb = rows[r] SUBSEP b[i]
			med[i] = median(kb)
			printf " %9.1f [%5.1f-%5.1f]", med[i], lo, hi
			mn[i] = lo; mx[i] = hi
			if (b[i] == "ticket")
				base = med[i]
		}
		for (i = 1; i <= nb; i++)
			if (b[i] != "ticket")
				printf " %14.2f", med[i] / base
		printf "\n"
		for (i = 1; i <= nb; i++)
			printf "%s,%s,%s,%.2f,%.2f,%.2f,%d,%.3f\n", b[i], kk[1],
			    kk[2], med[i], mn[i], mx[i], n[rows[r] SUBSEP b[i]],
			    med[i] / base > csv
	}
}' "$raw"
echo "raw figures: $raw; table as CSV: $out/bench.csv"
