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

# kernelbench.sh: make kernel-bench (doc/kernel.md): boot each peer's
# kernel under qemu at several CPU counts in interleaved rounds, and
# compare the figures the boots print.  Exit 0, 1 a failure (the other
# boots still compared) or usage, 77 a missing tool or OpenBSD snapshot.
# Tests set KBENCH_KERNEL_SH (for tools/kernel.sh).

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"
command=$(command_line "$0" "$@")	# for the results file

# The build-like load's first: every peer has it.
FIGURES="build nsacq maxwait"

PROG=kernelbench
USAGE='usage: tools/kernelbench.sh [-n runs] [-o dir] [-p "peer ..."]
           [-r rounds] [-s "ncpu ..."] [-t tasks]
       tools/kernelbench.sh -l dir'

runs=5 peers="stock ticket mlockspin=mlock+MPLOCK_NOGUEST mlock"
smps="2 4 8" rounds=5 tasks=96 out= logsonly=
while getopts :l:n:o:p:r:s:t: ch; do
	case $ch in
	l)	logsonly=1 out=$OPTARG ;;
	n)	runs=$OPTARG ;;
	o)	out=$OPTARG ;;
	p)	peers=$OPTARG ;;
	r)	rounds=$OPTARG ;;
	s)	smps=$OPTARG ;;
	t)	tasks=$OPTARG ;;
	*)	badopt "$ch" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage "$1: no operands"
optnum -n "$runs" 1 9999
optnum -r "$rounds" 1 64
optnum -t "$tasks" 1 100000
[ -n "$smps" ] || usage "-s: no CPU count"
for s in $smps; do
	# qemu and MAXCPUS allow more, init's MAXPROCS (64) not.
	optnum -s "$s" 1 64
done

# peer SPEC: a peer NAME or NAME=KERNEL[+OPTION...], checked: pn its
# name, pk its kernel (stock or a backend), pa its kernel.sh arguments.
peer() {
	pn=${1%%=*} pk=${1#*=} pa=
	pb=${pk%%+*}
	echo "$pn" | grep -Eqx '[a-z][a-z0-9]{0,15}' ||
	    usage "$1: a peer's name is a-z and 0-9, 16 at most"
	echo " stock $BACKENDS " | grep -q " $pb " ||
	    usage "$1: no such kernel $pb (stock, a backend: $BACKENDS)"
	[ "$pb" = stock ] && pa=-S || pa="-b $pb"
	[ "$pb" = "$pk" ] && return
	case +${pk#*+}+ in
	*++*)	usage "$1: an option is NAME or NAME=VALUE (A-Z, 0-9, _)" ;;
	esac
	for _po in $(echo "${pk#*+}" | tr '+' ' '); do
		echo "$_po" | grep -Eqx '[A-Z][A-Z0-9_]*(=[A-Za-z0-9_.]+)?' ||
		    usage "$1: an option is NAME or NAME=VALUE (A-Z, 0-9, _)"
		pa="$pa -o $_po"
	done
}
[ -n "$peers" ] || usage "-p: no peer"
names=
for p in $peers; do
	peer "$p"
	echo " $names " | grep -q " $pn " && usage "$pn: a peer named twice"
	names="$names${names:+ }$pn"
done

stamp=$(date -u +%Y-%m-%d-%H%M)
if [ -n "$logsonly" ]; then
	[ -d "$out/logs" ] || die "$out/logs: no such directory"
	results=$out/results.txt
	# The peers in the run's order (peers.txt), else stock, the
	# backends, the rest by name.
	_l=$(cd "$out/logs" && ls -- r*-*-smp*.log 2>/dev/null |
	    sed -n 's/^r[0-9]*-\([a-z0-9]*\)-smp\([0-9]*\)\.log$/\1 \2/p')
	[ -n "$_l" ] || die "$out/logs: no rR-PEER-smpS.log"
	_have=$(echo "$_l" | cut -d ' ' -f 1 | sort -u)
	names=
	for n in $(awk '{ print $1 }' "$out/peers.txt" 2>/dev/null) stock \
	    $BACKENDS $_have; do
		echo "$_have" | grep -qx "$n" || continue
		echo " $names " | grep -q " $n " && continue
		names="$names${names:+ }$n"
	done
	smps=$(echo $(echo "$_l" | cut -d ' ' -f 2 | sort -n -u))
else
	results=$OBJ/kernelbench/results-$stamp.txt
	[ -z "$out" ] || results=$out/results.txt
	[ -n "$out" ] || out=$OBJ/kernelbench/$stamp
	[ ! -e "$out/logs" ] || die "$out: holds a run already (-l to" \
	    "read it again)"
fi
mkdir -p "$out/logs" "$out/compare" || die "cannot make $out"

failures=0
failed() {
	failures=$((failures + 1))
	echo "kernelbench: $*" >&2
	echo "$*" >>"$out/failures.txt"
}
: >"$out/failures.txt"

KSH=${KBENCH_KERNEL_SH:-$ROOT/tools/kernel.sh}

load_before=$(uptime | sed 's/.*load averages*: *//')
t0=$(date +%s)

# --- Builds and boots.
if [ -z "$logsonly" ]; then
	built=
	: >"$out/peers.txt"
	for p in $peers; do
		peer "$p"
		n=$pn
		echo "$n $p" >>"$out/peers.txt"
		echo "kernelbench: building $n ($pa)" >&2
		# shellcheck disable=SC2086
		if KERNEL_BUILD_WARMUP=1 KERNEL_BUILD_ROUNDS=$rounds \
		    KERNEL_BUILD_TASKS=$tasks \
		    KERNEL_LOAD_ITERS=${KERNEL_LOAD_ITERS:-100} \
		    sh "$KSH" -B $pa \
		    -n "kbench-$n" >"$out/build-$n.log" 2>&1; then
			built="$built $n"
		else
			_rc=$?
			[ "$_rc" -eq 77 ] && {
				tail -n 1 "$out/build-$n.log" >&2
				exit 77
			}
			failed "$n: the kernel does not build (exit $_rc;" \
			    "log: $out/build-$n.log)"
		fi
	done
	# Every (peer, CPUs) pair; round r starts at pair r mod their number.
	pairs=
	for s in $smps; do
		for n in $built; do
			pairs="$pairs $n:$s"
		done
	done
	np=$(echo $pairs | wc -w)
	k=0
	r=1
	while [ "$r" -le "$runs" ] && [ "$np" -gt 0 ]; do
		for p in $(echo $pairs $pairs | tr ' ' '\n' |
		    sed -n "$(((r - 1) % np + 1)),$(((r - 1) % np + np))p"); do
			n=${p%:*} s=${p#*:}
			k=$((k + 1))
			log=$out/logs/r$r-$n-smp$s.log o=${log%.log}.out
			echo "kernelbench: boot $k of $((np * runs)): round $r, $n," \
			    "-smp $s" >&2
			KERNEL_NCPU=$s sh "$KSH" -r -n "kbench-$n" >"$o" 2>&1
			_rc=$?
			# The console, qemu's crashes, the verdict.
			{
				tr -d '\r' \
				    <"$OBJ/kernel/run/kbench-$n/serial.log" \
				    2>/dev/null
				echo
				grep '^kernel.sh: [^:]*: qemu crashed' "$o"
				grep '^kernel: ' "$o" | tail -n 1
				case $_rc in
				0|1|3|4|5) ;;
				*) echo "kernel: kbench-$n: ERROR: kernel.sh exit $_rc"
				esac
			} >"$log"
			grep '^kernel: ' "$log" | tail -n 1 |
			    sed 's/^/kernelbench: /' >&2
		done
		r=$((r + 1))
	done
fi

# --- The figures of every log.  No PASS, or a PASS without a figure
# (the console's format changed: the parser must follow) is a failure.
# No torture figures are asked of a log without its line (stock).
stats_awk "$out/stats.awk" || die "cannot write $out/stats.awk"
STATS=$(cat "$out/stats.awk")
for n in $names; do
	k=$(awk -v n="$n" '$1 == n { print $2 }' "$out/peers.txt" 2>/dev/null)
	for s in $smps; do
		for f in $FIGURES; do
			printf '# %s\n' "buildtime results" "label: $n-smp$s-$f" \
			    "kernel: peer $n ($k), qemu -smp $s" \
			    "command: tools/kernelbench.sh, figure $f" \
			    >"$out/$n-smp$s-$f.txt"
		done
	done
done
: >"$out/boots.txt"
for log in "$out"/logs/r*-*-smp*.log; do
	[ -f "$log" ] || continue
	set -- $(echo "${log##*/}" |
	    sed 's/^r\([0-9]*\)-\(.*\)-smp\([0-9]*\)\.log$/\1 \2 \3/')
	r=$1 n=$2 s=$3
	echo " $names " | grep -q " $n " || continue
	echo " $smps " | grep -q " $s " || continue
	line=$(awk "$STATS"'
	/^mplock_torture: / { torture = 1 }
	/^mplock_torture: / && match($0, / maxwait [0-9]+us [0-9]+ns\/acq /) {
		split(substr($0, RSTART, RLENGTH), w, " ")
		maxwait = w[2] + 0
		nsacq = w[3] + 0
	}
	# "... errors 0 4937 ms PASS", or "... rounds 4900/4937/5012 ms
	# median 4937 ms PASS".
	/^mplock_build: .* [0-9]+ ms (PASS|FAIL)$/ {
		build = $(NF - 2) + 0
		if (match($0, / rounds [0-9\/]+ /))
			rounds = substr($0, RSTART + 8, RLENGTH - 9)
	}
	/^kernel\.sh: [^:]*: qemu crashed/ { crashes++ }
	/^kernel: [^:]*: [A-Z]+:/ {
		st = $3
		sub(/:$/, "", st)
	}
	END {
		printf "%s build=%s", st == "" ? "NONE" : st, build
		if (rounds != "") {
			printf " rounds=%s", rounds
			# The median init says, checked (init rounds down).
			nr = split(rounds, R, "/")
			for (i = 1; i <= nr; i++)
				R[i] += 0
			isort(R, nr)
			if ((md = int(mid(R, nr))) != build)
				printf " median=%d", md
		}
		if (torture)
			printf " nsacq=%s maxwait=%s", nsacq, maxwait
		printf " crashes=%d\n", crashes
	}' "$log")
	echo "$r $n $s $line" >>"$out/boots.txt"
	at="round $r, $n, -smp $s"
	case $line in
	PASS" "*" median="*)
		set -- $(echo "$line" |
		    sed 's/.* build=\([0-9]*\).* median=\([0-9]*\).*/\2 \1/')
		failed "$at: the median of the rounds is $1, not the log's $2" \
		    "($log)" ;;
	PASS" "*)
		for f in $FIGURES; do
			# A figure named without a value: the format changed.
			case " $line" in *" $f="*) ;; *) continue ;; esac
			v=$(echo "$line" | sed -n "s/.* $f=\([0-9][0-9]*\).*/\1/p")
			[ -n "$v" ] && echo "$v" >>"$out/$n-smp$s-$f.txt" ||
			    failed "$at: no $f figure in a passed boot ($log)"
		done ;;
	*)	# The verdict's reason, where there is one.
		why=$(grep '^kernel: [^:]*: [A-Z]*:' "$log" | tail -n 1 |
		    sed 's/^kernel: [^:]*: [A-Z]*: *//' | cut -c1-160)
		failed "$at: boot ${line%% *}${why:+: $why} ($log)" ;;
	esac
done
sort -k1,1n -k2,2 -k3,3n "$out/boots.txt" >"$out/boots.sorted" &&
    mv "$out/boots.sorted" "$out/boots.txt"

# --- The comparisons: buildtime compare against the base.
# verdict FILE: its output in one line.
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

# stats FILE [MEAN]: boots, mean, standard deviation, coefficient of
# variation (sd over mean) of its data lines, their mean over MEAN.
stats() {
	awk -v t="${2:-0}" "$STATS"'
	!/^#/ && NF { a[++n] = $1 + 0 }
	END {
		if (!n) { print "0 - - - -"; exit }
		m = sprintf("%.1f", meansd(a, n))
		printf "%d %s %.1f %s %s\n", n, m, SD,
		    (m > 0 ? sprintf("%.1f%%", 100 * SD / m) : "-"),
		    (t > 0 ? sprintf("%.3f", m / t) : "-")
	}' "$1"
}

row() {
	printf '%-10s %4s %-8s %5s %11s %10s %6s %6s %-10s %s\n' "$@"
}
table=$out/table.txt
{
	row peer cpus figure boots mean sd cv ratio base verdict
	for s in $smps; do
		for f in $FIGURES; do
			# The base: the first peer with this figure here.
			bn=
			for n in $names; do
				set -- $(stats "$out/$n-smp$s-$f.txt")
				[ "$1" -gt 0 ] && { bn=$n tm=$2; break; }
			done
			[ -n "$bn" ] || continue
			tf=$out/$bn-smp$s-$f.txt
			for n in $names; do
				bf=$out/$n-smp$s-$f.txt
				set -- $(stats "$bf" "$tm")
				# No row for a figure a peer never has.
				[ "$1" -gt 0 ] || [ "$f" = build ] ||
				    grep -q "^[0-9]* $n $s PASS .* nsacq=" \
				    "$out/boots.txt" || continue
				c=$out/compare/$n-smp$s-$f.txt
				if [ "$n" = "$bn" ]; then
					v="(base)"
				elif sh "$ROOT/tools/buildtime" compare "$tf" \
				    "$bf" >"$c" 2>&1; then
					v=$(verdict "$c")
				else
					v="not compared: $(sed -n \
					    's/^buildtime: //p' "$c" | sed 1q |
					    sed "s|$out/||g")"
				fi
				row "$n" "$s" "$f" "$1" "$2" "$3" "$4" "$5" \
				    "$bn" "$v"
			done
		done
	done
} >"$table"

# --- The results file.
load_after=$(uptime | sed 's/.*load averages*: *//')
secs=$(($(date +%s) - t0))
nboots=$(grep -c . "$out/boots.txt")
crashes=$(awk '{ for (i = 5; i <= NF; i++) if ($i ~ /^crashes=/)
	c += substr($i, 9) } END { print c + 0 }' "$out/boots.txt")
{
	results_header "$command"
	echo "# load: $load_before before, $load_after after (1, 5, 15" \
	    "minutes); $(ncpu_online) host CPUs shared with the vCPUs"
	echo "# peers: $(awk '{ printf "%s%s", (NR > 1 ? ", " : ""), \
	    ($1 == $2 ? $1 : $2) }' "$out/peers.txt" 2>/dev/null)"
	echo "# method: $nboots boots in $secs s; each round boots every" \
	    "peer at every -smp, order rotated per round; qemu TCG" \
	    "(KERNEL_ACCEL=${KERNEL_ACCEL:-tcg}); build-like load: 1 warm-up" \
	    "round, then $rounds rounds of $tasks execs, the median"
	echo "# qemu crashes: $crashes (each booted again once)"
	echo "# statistics: tools/buildtime compare, Student's t" \
	    "at 95%, each peer against the base (the first peer with the" \
	    "figure)"
	echo "# columns: peer, qemu -smp, figure (build: build-like load," \
	    "median of the rounds, ms; nsacq: torture ns per acquisition;" \
	    "maxwait: torture longest wait for the turn, us), boots, mean," \
	    "sd, coefficient of variation, ratio of the means to the base," \
	    "base, verdict"
	echo "# failures: $failures"
	echo
	cat "$table"
	echo
	echo "boots (round peer smp verdict figures):"
	cat "$out/boots.txt"
	if [ "$failures" -gt 0 ]; then
		echo
		echo "failures:"
		sed "s|$ROOT/||g" "$out/failures.txt"
	fi
} >"$results"

cat "$table"
echo "boots: $out/logs; results files: $out/PEER-smpN-FIGURE.txt"
echo "results: $results"
if [ "$failures" -gt 0 ]; then
	echo "kernelbench: $failures failure(s), listed in $results" >&2
	exit 1
fi
