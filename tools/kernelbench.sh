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
# kernelbench.sh: boot the patched kernel of each backend several times
# under qemu at several CPU counts and compare each backend with the
# ticket lock on the figures a boot prints (make kernel-bench).
#
#	tools/kernelbench.sh [-n runs] [-b "backend ..."] [-s "ncpu ..."]
#	    [-o dir]
#	tools/kernelbench.sh -l dir
#
# -n runs	boots of each backend at each CPU count (5)
# -b backends	the backends ($KBENCH_BACKENDS, or every backend of
#		Makefile.backends); ticket is the base of the comparisons
# -s ncpus	the qemu -smp values ($KBENCH_SMP, or "2 4 8")
# -o dir	where the run goes (build/kernelbench/DATE, DATE the UTC
#		start, YYYY-MM-DD-HHMM)
# -l dir	no builds, no boots: the boot logs already in dir/logs
#		(named rR-BACKEND-smpS.log, as a run leaves them) are
#		parsed and compared again; the tests feed canned logs so
#
# Each backend's kernel is built once (tools/kernel.sh -B, run name
# kbench-BACKEND), then booted again and again with tools/kernel.sh -r,
# interleaved: round r boots every backend at every CPU count, in an
# order rotated each round, so that drift of the host's load hits all
# alike.  A boot's log (dir/logs/) is its console and kernel.sh's
# verdict line.  From each boot that PASSes three figures go to a
# results file per backend, CPU count and figure, in buildtime's format
# (dir/BACKEND-smpS-FIGURE.txt, one number a line):
#	nsacq	the torture's ns per acquisition (its run time over the
#		acquisitions of all CPUs)
#	maxwait	the torture's longest wait of one CPU for its turn, in
#		us: the worst hand-off latency
#	build	the build-like load's time in ms (init's make -j of fork
#		and exec of a worker that writes and reads files)
# Then for every other backend, CPU count and figure "buildtime compare"
# (ministat where installed) sets the backend's file against ticket's:
# a difference at 95% confidence with its size, "slower by X% +- Y%
# (95%)" (or faster), or "no difference proven".  One table (backend,
# CPUs, figure: boots, mean, standard deviation, ratio of the means to
# ticket's, verdict) is printed and written to dir/table.txt, with
# gnuplot a plot (dir/kernelbench.svg and .png), and the table with a
# header (date, machine, command, source, load) and every boot's
# figures to build/kernelbench/results-DATE.txt (-l: dir/results.txt).
#
# A boot that does not PASS keeps its log, is listed and counted, and
# its figures are left out; the other boots still count.  Exit status:
# 0 every boot passed; 1 a boot or a build failed, or usage; 77 a
# needed tool or the OpenBSD snapshot is missing (tools/kernel.sh).
#
# Under TCG the figures mostly measure how the host schedules the vCPU
# threads (doc/kernel.md): they compare backends on this host only.

# The command line as typed, for the results file.
command=$0
for a in "$@"; do
	case $a in
	*[!A-Za-z0-9_./=-]* | '') command="$command '$a'" ;;
	*) command="$command $a" ;;
	esac
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"

FIGURES="nsacq maxwait build"
BASE=ticket

usage() {
	[ $# -eq 0 ] || echo "kernelbench: $*" >&2
	echo "usage: tools/kernelbench.sh [-n runs] [-b \"backend ...\"]" \
	    "[-s \"ncpu ...\"] [-o dir]" >&2
	echo "       tools/kernelbench.sh -l dir" >&2
	exit 1
}

kdie() {
	echo "kernelbench: $*" >&2
	exit 1
}

runs=5 backends=${KBENCH_BACKENDS:-$BACKENDS} smps=${KBENCH_SMP:-2 4 8}
out= logsonly=
while getopts :b:l:n:o:s: ch; do
	case $ch in
	b)	backends=$OPTARG ;;
	l)	logsonly=1 out=$OPTARG ;;
	n)	runs=$OPTARG ;;
	o)	out=$OPTARG ;;
	s)	smps=$OPTARG ;;
	:)	usage "-$OPTARG: needs a value" ;;
	*)	usage "-$OPTARG: unknown option" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage "$1: no operands"
case $runs in
''|*[!0-9]*)	usage "-n $runs: not a number" ;;
esac
[ "$runs" -ge 1 ] && [ "${#runs}" -le 4 ] || usage "-n $runs: 1 to 9999"
[ -n "$backends" ] || usage "-b: no backend"
for b in $backends; do
	echo " $BACKENDS " | grep -q " $b " ||
	    usage "$b: no such backend (one of: $BACKENDS)"
done
[ -n "$smps" ] || usage "-s: no CPU count"
for s in $smps; do
	case $s in
	''|*[!0-9]*)	usage "-s $s: not a number" ;;
	esac
	# qemu's pc machine and the kernel's MAXCPUS allow more, the
	# init's MAXPROCS (64) not.
	[ "$s" -ge 1 ] && [ "$s" -le 64 ] || usage "-s $s: 1 to 64"
done

stamp=$(date -u +%Y-%m-%d-%H%M)
if [ -n "$logsonly" ]; then
	[ -d "$out/logs" ] || kdie "$out/logs: no such directory"
	results=$out/results.txt
	# What the logs hold, in Makefile.backends' order and by CPUs.
	_l=$(cd "$out/logs" && ls -- r*-*-smp*.log 2>/dev/null)
	[ -n "$_l" ] || kdie "$out/logs: no rR-BACKEND-smpS.log"
	backends=
	for b in $BACKENDS; do
		echo "$_l" | grep -q "^r[0-9]*-$b-smp" &&
		    backends="$backends${backends:+ }$b"
	done
	smps=$(echo "$_l" | sed -n 's/^r[0-9]*-[a-z0-9]*-smp\([0-9]*\)\.log$/\1/p' |
	    sort -n -u | tr '\n' ' ' | sed 's/ $//')
	[ -n "$backends" ] && [ -n "$smps" ] ||
	    kdie "$out/logs: no log of a known backend"
else
	[ -n "$out" ] || out=$OBJ/kernelbench/$stamp
	results=$OBJ/kernelbench/results-$stamp.txt
	[ ! -e "$out/logs" ] || kdie "$out: holds a run already (-l to" \
	    "read it again)"
fi
mkdir -p "$out/logs" "$out/compare" || kdie "cannot make $out"

failures=0
# failed WHAT: one more failure, said now and listed in the results.
failed() {
	failures=$((failures + 1))
	echo "kernelbench: $*" >&2
	echo "$*" >>"$out/failures.txt"
}
: >"$out/failures.txt"

load_before=$(uptime | sed 's/.*load averages*: *//')
t0=$(date +%s)

# --- Builds and boots.
if [ -z "$logsonly" ]; then
	built=
	for b in $backends; do
		echo "kernelbench: building $b" >&2
		if sh "$ROOT/tools/kernel.sh" -B -b "$b" -n "kbench-$b" \
		    >"$out/build-$b.log" 2>&1; then
			built="$built $b"
		else
			_rc=$?
			[ "$_rc" -eq 77 ] && {
				tail -n 1 "$out/build-$b.log" >&2
				exit 77
			}
			failed "$b: the kernel does not build (exit $_rc;" \
			    "log: $out/build-$b.log)"
		fi
	done
	# Every (backend, CPUs) pair; round r starts at pair r mod their
	# number.
	pairs=
	for s in $smps; do
		for b in $built; do
			pairs="$pairs $b:$s"
		done
	done
	set -- $pairs
	np=$#
	total=$((np * runs))
	n=0
	r=1
	while [ "$r" -le "$runs" ] && [ "$np" -gt 0 ]; do
		set -- $pairs
		i=$(((r - 1) % np))
		while [ "$i" -gt 0 ]; do
			p=$1
			shift
			set -- "$@" "$p"
			i=$((i - 1))
		done
		for p in "$@"; do
			b=${p%:*} s=${p#*:}
			n=$((n + 1))
			log=$out/logs/r$r-$b-smp$s.log
			echo "kernelbench: boot $n of $total: round $r, $b," \
			    "-smp $s" >&2
			KERNEL_NCPU=$s sh "$ROOT/tools/kernel.sh" -r \
			    -n "kbench-$b" >"$out/logs/r$r-$b-smp$s.out" 2>&1
			_rc=$?
			# The console of this boot (boot.sh starts a new
			# serial.log each time), then the verdict.
			{
				tr -d '\r' \
				    <"$OBJ/kernel/run/kbench-$b/serial.log" \
				    2>/dev/null
				echo
				grep '^kernel: ' "$out/logs/r$r-$b-smp$s.out" |
				    tail -n 1
			} >"$log"
			[ "$_rc" -eq 0 ] || [ "$_rc" -eq 1 ] ||
			    [ "$_rc" -eq 3 ] || [ "$_rc" -eq 4 ] || [ "$_rc" -eq 5 ] ||
			    echo "kernel: kbench-$b: ERROR: kernel.sh exit" \
			    "$_rc" >>"$log"
			tail -n 1 "$log" | sed 's/^/kernelbench: /' >&2
		done
		r=$((r + 1))
	done
fi

# --- The figures of every log.  A log whose verdict is not PASS (or
# has none) is a failed boot; a PASS without one of the figures is a
# failure too (the console's format changed: the parser must follow).
for b in $backends; do
	for s in $smps; do
		for f in $FIGURES; do
			{
				echo "# buildtime results"
				echo "# label: $b-smp$s-$f"
				echo "# kernel: QEMU.$(upper "$b") (tools/kernel.sh" \
				    "-b $b), qemu -smp $s"
				echo "# command: tools/kernelbench.sh, figure $f"
			} >"$out/$b-smp$s-$f.txt"
		done
	done
done
: >"$out/boots.txt"
for log in "$out"/logs/r*-*-smp*.log; do
	[ -f "$log" ] || continue
	base=${log##*/}
	base=${base%.log}
	r=${base%%-*} r=${r#r}
	s=${base##*-smp}
	b=${base#r*-} b=${b%-smp*}
	echo " $backends " | grep -q " $b " || continue
	echo " $smps " | grep -q " $s " || continue
	line=$(awk '
	# The torture'"'"'s summary: "... maxwait 97606us 26939ns/acq PASS".
	/^mplock_torture: .* maxwait [0-9]+us [0-9]+ns\/acq / {
		for (i = 1; i < NF; i++) {
			if ($i == "maxwait" && $(i + 1) ~ /^[0-9]+us$/)
				maxwait = $(i + 1) + 0
			if ($i ~ /^[0-9]+ns\/acq$/)
				nsacq = $i + 0
		}
	}
	# Its turn waits by length: "... turns 9/8/.../0 ms 0/1/.../0".
	/^mplock_torture: waits .*: turns [0-9\/]+ ms [0-9\/]+$/ {
		turns = $(NF - 2)
		waitms = $NF
	}
	# The build load: "mplock_build: ... errors 0 4937 ms PASS".
	/^mplock_build: .* [0-9]+ ms (PASS|FAIL)$/ {
		build = $(NF - 2) + 0
	}
	/^kernel: [^:]*: [A-Z]+:/ {
		st = $3
		sub(/:$/, "", st)
	}
	END {
		printf "%s nsacq=%s maxwait=%s build=%s", st == "" ? \
		    "NONE" : st, nsacq, maxwait, build
		if (turns != "")
			printf " turns=%s waitms=%s", turns, waitms
		printf "\n"
	}' "$log")
	st=${line%% *}
	echo "$r $b $s $line" >>"$out/boots.txt"
	if [ "$st" != PASS ]; then
		# The verdict's reason, where there is one, with the log.
		why=$(grep '^kernel: [^:]*: [A-Z]*:' "$log" | tail -n 1 |
		    sed 's/^kernel: [^:]*: [A-Z]*: *//' | cut -c1-160)
		failed "round $r, $b, -smp $s: boot $st${why:+: $why}" \
		    "($log)"
		continue
	fi
	for f in $FIGURES; do
		v=$(echo "$line" | sed -n "s/.* $f=\([0-9][0-9]*\).*/\1/p")
		if [ -z "$v" ]; then
			failed "round $r, $b, -smp $s: no $f figure in a" \
			    "passed boot ($log)"
			continue
		fi
		echo "$v" >>"$out/$b-smp$s-$f.txt"
	done
done
sort -k1,1n -k2,2 -k3,3n "$out/boots.txt" >"$out/boots.sorted" &&
    mv "$out/boots.sorted" "$out/boots.txt"

# --- The comparisons with ticket: buildtime compare, its verdict.
# verdict FILE: one line from buildtime compare's output.
verdict() {
	awk '
	/^No difference proven/ { v = "no difference proven" }
	/^Difference at/ { d = 1; next }
	d && /%.*\+\/-/ {
		p = $1 + 0
		q = $3 + 0
		v = sprintf("%s by %.1f%% +- %.1f%% (95%%)",
		    p > 0 ? "slower" : "faster", p < 0 ? -p : p, q)
		d = 0
	}
	END { print v == "" ? "not compared" : v }' "$1"
}

# stats FILE: boots, mean and standard deviation of its data lines.
stats() {
	[ -f "$1" ] || { echo "0 - -"; return; }
	awk '!/^#/ && NF { n++; s += $1; ss += $1 * $1 }
	END {
		if (n == 0) { print "0 - -"; exit }
		m = s / n
		sd = n > 1 ? sqrt((ss - s * s / n) / (n - 1)) : 0
		printf "%d %.1f %.1f\n", n, m, sd
	}' "$1"
}

table=$out/table.txt
{
	printf '%-9s %4s %-8s %5s %11s %10s %6s  %s\n' backend cpus figure \
	    boots mean sd ratio "verdict against $BASE"
	for s in $smps; do
		for f in $FIGURES; do
			tf=$out/$BASE-smp$s-$f.txt
			set -- $(stats "$tf")
			tn=$1 tm=$2
			for b in $backends; do
				bf=$out/$b-smp$s-$f.txt
				set -- $(stats "$bf")
				ratio=- v=
				if ! echo " $backends " | grep -q " $BASE "; then
					v="(no $BASE in the run)"
				elif [ "$b" = "$BASE" ]; then
					v="(base)"
				fi
				if [ "$tn" -gt 0 ] && [ "$1" -gt 0 ] &&
				    echo " $backends " | grep -q " $BASE "; then
					ratio=$(awk -v a="$2" -v t="$tm" \
					    'BEGIN { if (t > 0)
						printf "%.3f", a / t
					    else print "-" }')
				fi
				if [ -z "$v" ]; then
					c=$out/compare/$b-smp$s-$f.txt
					if sh "$ROOT/tools/buildtime" compare \
					    "$tf" "$bf" >"$c" 2>&1; then
						v=$(verdict "$c")
					else
						v="not compared: $(grep \
						    'buildtime: ' "$c" |
						    sed -n '1s/^buildtime: //p' |
						    sed "s|$out/||g")"
					fi
				fi
				printf '%-9s %4s %-8s %5s %11s %10s %6s  %s\n' \
				    "$b" "$s" "$f" "$1" "$2" "$3" "$ratio" "$v"
			done
		done
	done
} >"$table"

# --- Where the waiting went: the torture's turn waits by length,
# summed over each backend's passed boots at each CPU count (a boot
# whose console has no histogram line is left out of this table).
awk -v smps="$smps" -v bes="$backends" '
$4 == "PASS" {
	k = $2 " " $3
	for (i = 5; i <= NF; i++) {
		if ($i ~ /^turns=/ &&
		    split(substr($i, 7), t, "/") == 8 &&
		    split(substr($(i + 1), 8), m, "/") == 8) {
			n[k]++
			for (h = 1; h <= 8; h++) {
				T[k, h] += t[h]
				M[k, h] += m[h]
			}
		}
	}
}
END {
	print "Turn waits by length, the torture\047s histogram summed over the"
	print "passed boots: the share of the turns in each decade of wait, the"
	print "time spent waiting, and the share of that time in waits of 1 ms"
	print "or more (a CPU, or the vCPU of one, that did not run)."
	printf "%-9s %4s %5s %10s", "backend", "cpus", "boots", "turns"
	split("<1us <10us <100us <1ms <10ms <100ms <1s >=1s", hn, " ")
	for (h = 1; h <= 8; h++)
		printf " %6s", hn[h]
	printf " %9s %6s\n", "wait ms", ">=1ms"
	ns = split(smps, S, " ")
	nb = split(bes, B, " ")
	for (i = 1; i <= ns; i++)
		for (j = 1; j <= nb; j++) {
			k = B[j] " " S[i]
			if (!(k in n))
				continue
			tt = mm = ml = 0
			for (h = 1; h <= 8; h++) {
				tt += T[k, h]
				mm += M[k, h]
				if (h >= 5)
					ml += M[k, h]
			}
			printf "%-9s %4s %5d %10d", B[j], S[i], n[k], tt
			for (h = 1; h <= 8; h++)
				printf " %5.1f%%", tt ? 100 * T[k, h] / tt : 0
			printf " %9d %5.1f%%\n", mm, mm ? 100 * ml / mm : 0
		}
}' "$out/boots.txt" >"$out/waits.txt"
grep -q '%' "$out/waits.txt" || : >"$out/waits.txt"

# --- The plot: each figure's mean and standard deviation by CPUs.
plot=
if command -v gnuplot >/dev/null 2>&1; then
	mkdir -p "$out/plot"
	for f in $FIGURES; do
		for s in $smps; do
			printf '%s' "$s"
			for b in $backends; do
				set -- $(stats "$out/$b-smp$s-$f.txt")
				printf ' %s %s' "$2" "$3"
			done
			echo
		done | sed 's/ - - / NaN NaN /g; s/ - -$/ NaN NaN/' \
		    >"$out/plot/$f.dat"
	done
	xt=$(for s in $smps; do printf '"%s" %s, ' "$s" "$s"; done |
	    sed 's/, $//')
	for term in svg png; do
		case $term in
		svg)	t="svg size 1200,420 dynamic" ;;
		png)	t="pngcairo size 1200,420" ;;
		esac
		gnuplot >"$out/plot/gnuplot-$term.log" 2>&1 <<-EOF || {
		set terminal $t
		set output "$out/kernelbench.$term"
		names = "$backends"
		set multiplot layout 1,3 title "booted kernel under qemu (TCG)," .\
		    " mean and sd of the boots that passed; $(ncpu_online) host CPUs"
		set xlabel "qemu -smp"
		set xtics ($xt)
		set key top left font ",9"
		set grid
		set offsets 0.5, 0.5, 0, 0
		set ylabel "torture ns per acquisition"
		plot for [i = 1:words(names)] "$out/plot/nsacq.dat" \
		    using (\$1 + (i - 1) * 0.1):(column(2 * i)):(column(2 * i + 1)) \
		    with yerrorlines title word(names, i)
		set ylabel "torture longest wait for the turn, us"
		plot for [i = 1:words(names)] "$out/plot/maxwait.dat" \
		    using (\$1 + (i - 1) * 0.1):(column(2 * i)):(column(2 * i + 1)) \
		    with yerrorlines title word(names, i)
		set ylabel "build-like load, ms"
		plot for [i = 1:words(names)] "$out/plot/build.dat" \
		    using (\$1 + (i - 1) * 0.1):(column(2 * i)):(column(2 * i + 1)) \
		    with yerrorlines title word(names, i)
		unset multiplot
		EOF
			echo "kernelbench: gnuplot $term failed, see" \
			    "$out/plot/gnuplot-$term.log" >&2
			continue
		}
		plot="$plot $out/kernelbench.$term"
	done
fi

# --- The results file.
load_after=$(uptime | sed 's/.*load averages*: *//')
secs=$(($(date +%s) - t0))
nboots=$(grep -c . "$out/boots.txt")
stat=own
command -v ministat >/dev/null 2>&1 && stat=ministat
{
	results_header "$command"
	echo "# load: $load_before before, $load_after after (1, 5, 15" \
	    "minutes); $(ncpu_online) host CPUs shared with the vCPUs"
	echo "# method: $nboots boots in $secs s; each round boots every" \
	    "backend at every -smp, order rotated per round; qemu TCG" \
	    "(KERNEL_ACCEL=${KERNEL_ACCEL:-tcg})"
	echo "# statistics: tools/buildtime compare ($stat), Student's t" \
	    "at 95%, each backend against $BASE"
	echo "# columns: backend, qemu -smp, figure (nsacq: torture ns per" \
	    "acquisition; maxwait: torture longest wait for the turn, us;" \
	    "build: build-like load, ms), boots, mean, sd, ratio of the" \
	    "means to $BASE, verdict"
	echo "# failures: $failures"
	echo
	cat "$table"
	if [ -s "$out/waits.txt" ]; then
		echo
		cat "$out/waits.txt"
	fi
	echo
	echo "boots (round backend smp verdict figures):"
	cat "$out/boots.txt"
	if [ "$failures" -gt 0 ]; then
		echo
		echo "failures:"
		sed "s|$ROOT/||g" "$out/failures.txt"
	fi
} >"$results"

cat "$table"
if [ -s "$out/waits.txt" ]; then
	echo
	cat "$out/waits.txt"
fi
[ -n "$plot" ] && echo "plot:$plot" ||
    echo "plot: skipped, gnuplot not installed or failed"
echo "boots: $out/logs; results files: $out/BACKEND-smpN-FIGURE.txt"
echo "results: $results"
if [ "$failures" -gt 0 ]; then
	echo "kernelbench: $failures failure(s), listed in $results" >&2
	exit 1
fi
exit 0
