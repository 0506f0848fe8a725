#!/bin/sh
#
# The tuned <machine/mplock.h> of this host against the MI fallbacks:
# mplockbench built twice per backend, with sys/arch/$MDARCH's header
# and with the shim's MI-only one, runs interleaved (MD MI, then MI MD,
# ...) so drift hits both alike; the medians and MD/MI per backend.
#
# Another architecture under qemu-user: CC a cross compiler (static),
# MDARCH its sys/arch, BENCH_RUN the emulator, e.g.
#	CC="aarch64-linux-gnu-gcc -march=armv8-a -static" MDARCH=arm64 \
#	BENCH_RUN="qemu-aarch64 -cpu cortex-a57" tools/bench-md.sh
# (emulated figures: only the relative cost of the code paths means
# anything).

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"
. "$ROOT/tools/lib/harness.sh"

reps=7
secs=0.3
threads=
out=$OBJ/bench-md
md=${MDARCH:-$HOST_MDARCH}
PROG=bench-md
USAGE='usage: tools/bench-md.sh [-r reps] [-d seconds] [-t threads] [-o dir]'

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
[ -z "$threads" ] || optnum -t "$threads" 1 9999
seconds_ok "$secs" || usage "-d: not a number of seconds over 0: $secs"
[ -n "$md" ] || die "no sys/arch header for $(uname -m); set MDARCH"

# Absolute: the builds run make in other directories.
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
for be in $BACKENDS; do
	echo "$PROG: building $be with the $md header and with the MI" \
	    "one ..." >&2
	MDARCH=$md harness_build "$out/$be-md" "$be" ||
	    die "build failed, see $out/$be-md/build.log"
	MDARCH= harness_build "$out/$be-mi" "$be" ||
	    die "build failed, see $out/$be-mi/build.log"
done

raw=$out/raw.txt
: >"$raw"
# bench_one VARIANT: one run of each workload of $be built with VARIANT.
bench_one() {
	for _w in uncontended ${threads:+"-t $threads contended"}; do
		${BENCH_RUN:-} "$out/$be-$1/mplockbench" -d "$secs" $_w \
		    >"$out/run" || die "$out/$be-$1/mplockbench failed"
		sed "s/^/variant=$1 /" "$out/run" >>"$raw"
	done
}
order="mi md"
r=1
while [ "$r" -le "$reps" ]; do
	printf '\rrun %d/%d ' "$r" "$reps" >&2
	order="${order#* } ${order% *}"
	for be in $BACKENDS; do
		for v in $order; do
			bench_one "$v"
		done
	done
	r=$((r + 1))
done
printf '\r%20s\r' '' >&2

echo "mplock MD vs MI: sys/arch/$md/include/mplock.h against the MI" \
    "fallbacks, $(ncpu_online) CPUs, $(uname -sm)${BENCH_RUN:+ under \
$BENCH_RUN}, $reps interleaved runs of ${secs}s"
echo "median ns per lock+unlock (uncontended) or per acquisition" \
    "(contended), [min-max]; MD/MI below 1 means the MD path is faster"
stats_awk "$out/stats.awk" || die "cannot write $out/stats.awk"
awk -v csv="$out/bench-md.csv" -f "$out/stats.awk" -f /dev/stdin "$raw" <<'EOF'
{
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		f[kv[1]] = kv[2]
	}
	k = f["backend"] " " f["mode"] " " f["threads"]
	if (!seen[k]++)
		rows[++nrows] = k
	v[k, f["variant"], ++n[k, f["variant"]]] = f["ns"] + 0
}
# Row k's runs of variant var: their median in M[var], and that with
# [min-max] as text.
function median(k, var,    i, m, a) {
	for (i = 1; i <= (m = n[k, var]); i++)
		a[i] = v[k, var, i]
	isort(a, m)
	M[var] = mid(a, m)
	return sprintf("%9.2f [%7.2f-%8.2f]", M[var], a[1], a[m])
}
END {
	printf "%-8s %-17s %28s %28s %7s\n", "backend", "workload",
	    "MD ns", "MI ns", "MD/MI"
	print "backend,mode,threads,md_median_ns,mi_median_ns,runs," \
	    "ratio_md_mi" > csv
	for (r = 1; r <= nrows; r++) {
		split(rows[r], kk, " ")
		mds = median(rows[r], "md")
		mis = median(rows[r], "mi")
		printf "%-8s %-17s %s %s %7.3f\n", kk[1], (kk[2] == \
		    "uncontended" ? kk[2] : "contended " kk[3] " thr"), mds,
		    mis, M["md"] / M["mi"]
		printf "%s,%s,%s,%.2f,%.2f,%d,%.3f\n", kk[1], kk[2], kk[3],
		    M["md"], M["mi"], n[rows[r], "md"], M["md"] / M["mi"] > csv
	}
}
EOF
rm -f "$out/run"
echo "raw figures: $raw; table as CSV: $out/bench-md.csv"
