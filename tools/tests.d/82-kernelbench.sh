# kernelbench (tools/kernelbench.sh): canned boot logs through -l: the
# figures, table and header, failed boots counted and left out, each
# checker checked on a seeded fault; the boot loop with a stand-in for
# tools/kernel.sh; init and the worker.

. "$ROOT/tools/lib/fixture-tree.sh"

KB=$ROOT/tools/kernelbench.sh
KBD=$OBJ/kernelbench-test
rm -rf "$KBD"
mkdir -p "$KBD"

# kb_log DIR ROUND PEER SMP NSACQ MAXWAIT BUILD VERDICT: a boot's log as
# kernelbench.sh keeps it.  VERDICT "none", a figure "-" (NSACQ: no
# torture, as stock): without that line.  KB_EXTRA: more lines.
kb_log() {
	_kl=$1/logs
	mkdir -p "$_kl"
	{
		echo "cpu0 at mainbus0: apid 0 (boot processor)"
		[ "$5" = - ] || echo "mplock_torture: $3 $4 cpus 5.000s acq" \
		    "11/12 intr 465 (278 waiting) violations=0 maxwait" \
		    "${6}us ${5}ns/acq PASS"
		echo "mplock_init: started"
		echo "mplock_load: $4 procs x 300 open/close: errors 0" \
		    "276 ms PASS"
		[ "$7" = - ] || echo "mplock_build: $4 jobs x 48 execs of" \
		    "mplock_worker (8 files each): ok 48 errors 0 $7 ms PASS"
		[ -z "${KB_EXTRA:-}" ] || printf '%s\n' "$KB_EXTRA"
		echo "mplock_init: powering off"
		echo
		[ "$8" = none ] ||
		    echo "kernel: kbench-$3: $8: $4 CPUs, load 276 ms"
	} >"$_kl/r$2-$3-smp$4.log"
}

# Every case's start: 3 rounds, ticket and mlock; -smp 2: mlock slower
# in ns/acq, faster in build, the same waits; -smp 4: the same samples.
kb_base() {
	rm -rf "$1"
	for r in 1 2 3; do
		kb_log "$1" $r ticket 2 $((20000 + r * 100)) $((900 + r)) \
		    $((5000 + r * 10)) PASS
		kb_log "$1" $r mlock 2 $((30000 + r * 100)) $((900 + r)) \
		    $((4000 + r * 10)) PASS
		kb_log "$1" $r ticket 4 $((1000 + r)) 77 $((7000 + r)) PASS
		kb_log "$1" $r mlock 4 $((1000 + r)) 77 $((7000 + r)) PASS
	done
}

# kb_want DIR FILE VALUE ...: the data lines of DIR/FILE are the VALUEs,
# in any order.
kb_want() {
	_f=$1/$2
	shift 2
	_got=$(grep -v '^#' "$_f" | sort -n | tr '\n' ' ')
	_exp=$(printf '%s\n' "$@" | sort -n | tr '\n' ' ')
	[ "$_got" = "$_exp" ] || { echo "$_f: holds [$_got], not [$_exp]"
		return 1; }
}

# kb_edit LOG SED: the sed script applied to the log, in place.
kb_edit() {
	sed "$2" "$1" >"$1.new" && mv "$1.new" "$1"
}

# kb_seed DIR WHAT CHECK...: DIR read again (its log changed by a seeded
# fault) must fail CHECK, else WHAT was not seen.
kb_seed() {
	_sd=$1 _sw=$2
	shift 2
	sh "$KB" -l "$_sd" >/dev/null || return 1
	! "$@" >/dev/null || { echo "$_sw: not seen"; return 1; }
}

# kb_row DIR PEER SMP FIGURE ERE: the table's row matches ERE; with
# ERE "-" there is no such row.
kb_row() {
	_r=$(awk -v b="$2" -v s="$3" -v f="$4" '$1 == b && $2 == s && $3 == f' \
	    "$1/table.txt")
	if [ "$5" = - ]; then
		[ -z "$_r" ] && return 0
	elif echo "$_r" | grep -Eq -- "$5"; then
		return 0
	fi
	echo "row $2 $3 $4: [$_r], not /$5/"
	return 1
}

# The figures of every boot, in the right files, in buildtime's format.
kb_check_figures() {
	_d=$1
	kb_want "$_d" ticket-smp2-nsacq.txt 20100 20200 20300 &&
	kb_want "$_d" mlock-smp2-nsacq.txt 30100 30200 30300 &&
	kb_want "$_d" ticket-smp2-maxwait.txt 901 902 903 &&
	kb_want "$_d" mlock-smp2-build.txt 4010 4020 4030 &&
	kb_want "$_d" ticket-smp4-build.txt 7001 7002 7003 &&
	kb_want "$_d" mlock-smp4-maxwait.txt 77 77 77 &&
	grep -q '^# buildtime results' "$_d/mlock-smp4-maxwait.txt"
}

kb_figures() {
	_d=$KBD/figures
	kb_base "$_d"
	sh "$KB" -l "$_d" || { echo "exit $?, not 0"; return 1; }
	kb_check_figures "$_d" &&
	kb_row "$_d" ticket 2 nsacq \
	    ' 3 +20200\.0 +100\.0 +0\.5% +1\.000 +ticket +\(base\)$' &&
	kb_row "$_d" mlock 2 nsacq ' 3 +30200\.0 +100\.0 +0\.3% +1\.495 +ticket ' &&
	kb_row "$_d" ticket 4 build \
	    ' 3 +7002\.0 +1\.0 +0\.0% +1\.000 +ticket +\(base\)$' &&
	grep -q '^# failures: 0$' "$_d/results.txt" &&
	grep -q '^# command: ' "$_d/results.txt" &&
	grep -q '^# load: ' "$_d/results.txt" &&
	grep -q '^1 mlock 2 PASS build=4010 nsacq=30100 maxwait=901 crashes=0$' \
	    "$_d/boots.txt" &&
	kb_row "$_d" mlock 2 nsacq 'slower by 49\.5% \+- [0-9.]+% \(95%\)$' &&
	kb_row "$_d" mlock 2 build \
	    'faster by 19\.9% \+- [0-9.]+% \(95%\)$' &&
	kb_row "$_d" mlock 2 maxwait ' 1\.000 +ticket +no difference proven$' ||
	    return 1
	# The checker of the figures sees a wrong one.
	kb_edit "$_d/logs/r2-ticket-smp2.log" 's/ 20200ns\/acq / 20250ns\/acq /'
	kb_seed "$_d" "the wrong figure (20250 for 20200)" \
	    kb_check_figures "$_d"
}

# The coefficient of variation: 90, 100, 110 give 10.0%, and it moves.
kb_cv() {
	_d=$KBD/cv
	kb_base "$_d"
	for r in 1 2 3; do
		kb_log "$_d" $r mlock 4 1001 77 $((7000 + (r - 2) * 700)) PASS
	done
	sh "$KB" -l "$_d" >/dev/null || return 1
	kb_row "$_d" mlock 4 build ' 3 +7000\.0 +700\.0 +10\.0% ' || return 1
	kb_log "$_d" 3 mlock 4 1001 77 8400 PASS
	kb_seed "$_d" "a changed value in the CV" \
	    kb_row "$_d" mlock 4 build ' 10\.0% '
}

# Stock: no torture figures asked or shown; the base of the build, the
# torture's figures' base the first peer with them.
kb_stock() {
	_d=$KBD/stock
	kb_base "$_d"
	for r in 1 2 3; do
		kb_log "$_d" $r stock 2 - - $((10000 + r * 10)) PASS
		kb_log "$_d" $r stock 4 - - $((14000 + r)) PASS
	done
	sh "$KB" -l "$_d" || { echo "exit $?, not 0"; return 1; }
	kb_want "$_d" stock-smp2-build.txt 10010 10020 10030 &&
	kb_row "$_d" stock 2 build ' 3 +10020\.0 .* 1\.000 +stock +\(base\)$' &&
	kb_row "$_d" ticket 2 build ' 0\.501 +stock +faster by 49\.9% ' &&
	kb_row "$_d" mlock 4 build ' 0\.500 +stock +faster by ' &&
	kb_row "$_d" ticket 2 nsacq ' ticket +\(base\)$' &&
	kb_row "$_d" stock 2 nsacq - && kb_row "$_d" stock 4 maxwait - &&
	grep -q '^1 stock 2 PASS build=10010 crashes=0$' "$_d/boots.txt" &&
	# The table's order: stock first (no peers.txt: the known order).
	[ "$(awk 'NR == 2 { print $1 }' "$_d/table.txt")" = stock ]
}

# kb_rounds_log DIR ROUND PEER SMP ROUNDS MEDIAN: a log of build rounds.
kb_rounds_log() {
	_n=$(echo "$5" | tr '/' '\n' | grep -c .)
	KB_EXTRA="mplock_build: $4 jobs x 96 execs of mplock_worker (8 files\
 each), 1 warm-up and $_n rounds: ok $((96 * (_n + 1))) errors 0 rounds $5\
 ms median $6 ms PASS" kb_log "$1" "$2" "$3" "$4" - - - PASS
}

# The figure is the median of the rounds (odd and even counts); one that
# is not the rounds' (a seeded fault of init) fails the boot.
kb_rounds() {
	_d=$KBD/rounds
	rm -rf "$_d"
	kb_rounds_log "$_d" 1 stock 2 500/300/400 400
	kb_rounds_log "$_d" 2 stock 2 300/301/302/310 301
	kb_rounds_log "$_d" 3 stock 2 900/100/200/500/400 400
	sh "$KB" -l "$_d" || { echo "exit $?, not 0"; return 1; }
	kb_want "$_d" stock-smp2-build.txt 400 301 400 &&
	grep -q '^2 stock 2 PASS build=301 rounds=300/301/302/310 crashes=0$' \
	    "$_d/boots.txt" || return 1
	kb_rounds_log "$_d" 3 stock 2 900/100/200/500/400 500
	sh "$KB" -l "$_d" >"$KBD/rounds.out" 2>&1 && {
		echo "a wrong median passed"
		return 1
	}
	grep -q 'round 3, stock, -smp 2: the median of the rounds is 400, not' \
	    "$_d/results.txt" && kb_want "$_d" stock-smp2-build.txt 400 301
}

# A FAIL, no verdict, a PASS without torture figures or build line: each
# counted and left out, the rest compared, exit 1.
kb_failed() {
	_d=$KBD/failed
	kb_base "$_d"
	kb_log "$_d" 4 mlock 2 99999 99999 99999 FAIL
	kb_log "$_d" 4 ticket 2 99999 99999 99999 none
	kb_log "$_d" 4 mlock 4 1001 77 7001 PASS
	kb_edit "$_d/logs/r4-mlock-smp4.log" 's/ maxwait 77us 1001ns\/acq / /'
	kb_log "$_d" 4 ticket 4 1001 77 - PASS
	sh "$KB" -l "$_d" >"$KBD/failed.out" 2>&1
	_rc=$?
	[ "$_rc" -eq 1 ] || { echo "exit $_rc, not 1"; return 1; }
	grep -q '^# failures: 5$' "$_d/results.txt" || {
		grep '^# failures' "$_d/results.txt"
		echo "not 5 failures (FAIL, no verdict, nsacq, maxwait, build)"
		return 1
	}
	grep -q 'round 4, mlock, -smp 2: boot FAIL: 2 CPUs, load 276 ms (' \
	    "$_d/results.txt" &&
	grep -q 'round 4, ticket, -smp 2: boot NONE' "$_d/results.txt" &&
	grep -q 'round 4, mlock, -smp 4: no nsacq figure' "$_d/results.txt" &&
	grep -q 'round 4, ticket, -smp 4: no build figure' "$_d/results.txt" &&
	grep -q 'kernelbench: 5 failure' "$KBD/failed.out" &&
	kb_check_figures "$_d" &&
	# The passed boot without a torture figure still gives its build.
	kb_want "$_d" mlock-smp4-build.txt 7001 7001 7002 7003 &&
	kb_row "$_d" mlock 2 nsacq ' 3 .*slower by 49\.5%'
}

# Two boots a side: too few for buildtime compare, said in the verdict.
kb_few() {
	_d=$KBD/few
	kb_base "$_d"
	rm "$_d"/logs/r3-*
	sh "$KB" -l "$_d" >/dev/null || return 1
	kb_row "$_d" mlock 2 nsacq ' 2 .*not compared: .*at least 3 needed'
}

kb_usage() {
	t_usage kernelbench tools/kernelbench.sh "-x" "-n" "-n 0" "-n x" \
	    "-p bogus" "-p 'x=bogus'" "-p 'Mlock'" "-p 'a=mlock+bad-opt'" \
	    "-p 'ticket ticket'" "-p ''" "-r 0" "-t x" \
	    "-s 0" "-s x" "operand" || return 1
	# Not a misuse but a wrong directory: the message alone, exit 1.
	FX=$KBD
	fails "kernelbench: $KBD/nonexistent/logs: no such directory" \
	    sh "$KB" -l "$KBD/nonexistent" && one_line "$FX/err" . &&
	    [ ! -s "$FX/out" ]
}

# The boot loop: every peer at every CPU count each round, rotated; each
# log with console, crash and verdict; the crashes counted.  A stand-in
# for tools/kernel.sh: -B builds nothing; -r writes a console and a
# verdict, and for tcrash a qemu crash line.
kb_loop() {
	cat >"$KBD/fake-kernel.sh" <<'EOF'
while getopts Bb:o:n:rS o; do
	case $o in
	B)	exit 0 ;;
	n)	name=$OPTARG ;;
	esac
done
d=$OBJ/kernel/run/$name
mkdir -p "$d"
ms=$((KERNEL_NCPU * 1000 + ${#name}))
{
	echo "cpu0 at mainbus0: apid 0 (boot processor)"
	echo "mplock_build: $KERNEL_NCPU jobs x 96 execs of mplock_worker" \
	    "(8 files each), 1 warm-up and 3 rounds: ok 384 errors 0" \
	    "rounds $ms/$ms/$ms ms median $ms ms PASS"
	echo "mplock_init: powering off"
} >"$d/serial.log"
[ "$name" = kbench-tcrash ] &&
    echo "kernel.sh: $name: qemu crashed (signal 11): booting again (once)"
echo "kernel: $name: PASS: $KERNEL_NCPU CPUs"
EOF
	_d=$KBD/loop
	_res=$_d/results.txt
	rm -rf "$_d"
	OBJ=$OBJ KBENCH_KERNEL_SH=$KBD/fake-kernel.sh sh "$KB" -n 2 \
	    -p 'tstock=stock tcrash=mlock+MPLOCK_NOGUEST' -s '2 4' -o "$_d" \
	    >"$KBD/loop.out" 2>&1 ||
	    { echo "exit $?, not 0"; cat "$KBD/loop.out"; return 1; }
	[ "$(ls "$_d/logs" | grep -c '\.log$')" -eq 8 ] ||
	    { ls "$_d/logs"; return 1; }
	kb_want "$_d" tstock-smp4-build.txt 4013 4013 &&
	kb_want "$_d" tcrash-smp2-build.txt 2013 2013 &&
	grep -q '^kernel: kbench-tstock: PASS: 2 CPUs$' \
	    "$_d/logs/r1-tstock-smp2.log" &&
	grep -q '^kernel.sh: kbench-tcrash: qemu crashed' \
	    "$_d/logs/r2-tcrash-smp4.log" &&
	grep -q '^2 tcrash 4 PASS build=4013 rounds=4013/4013/4013 crashes=1$' \
	    "$_d/boots.txt" &&
	grep -q '^tcrash tcrash=mlock+MPLOCK_NOGUEST$' "$_d/peers.txt" &&
	grep -q '^# qemu crashes: 4 ' "$_res" &&
	grep -q '^# peers: tstock=stock, tcrash=mlock+MPLOCK_NOGUEST$' \
	    "$_res" &&
	# Round 2 starts one pair later than round 1.
	[ "$(grep 'boot [15] of 8' "$KBD/loop.out" | sed 's/.*8: //')" = \
	    "$(printf 'round 1, tstock, -smp 2\nround 2, tcrash, -smp 2')" ] ||
	    { grep 'boot . of 8' "$KBD/loop.out"; return 1; }
}

# source_id: the commit alone, or with the files that changed.
kb_source() {
	_g=$KBD/git
	rm -rf "$_g" && mkdir -p "$_g" && git -C "$_g" init -q &&
	    echo a >"$_g/f" && git -C "$_g" add f &&
	    git -C "$_g" -c user.name=t -c user.email=t@t commit -qm f ||
	    return 1
	_c=$(git -C "$_g" rev-parse --short HEAD)
	[ "$(ROOT=$_g source_id)" = "$_c" ] || return 1
	echo b >>"$_g/f"
	[ "$(ROOT=$_g source_id)" = "$_c with uncommitted changes (1 file)" ] ||
	    return 1
	: >"$_g/g"
	[ "$(ROOT=$_g source_id)" = "$_c with uncommitted changes (2 files)" ]
}

# init and the worker, as tools/kernel.sh builds them.
kb_compile() {
	. "$ROOT/tools/kernel/toolchain.sh"
	for _p in init worker; do
		bare_build "$_p" "$KBD" -DLOAD_ITERS=300 -DBUILD_TASKS=48 \
		    -DBUILD_WARMUP=1 -DBUILD_ROUNDS=3 -DTORTURE_WAIT=120 ||
		    return 1
		# The OpenBSD syscall pin table, and its exec and mount.
		readelf -lW "$KBD/$_p" | grep -Eq "LOOS\+0x5a3dbe9|0x65a3dbe9" || {
			echo "$_p: no PT_OPENBSD_SYSCALLS segment"
			return 1
		}
	done
}

t_check kernelbench/figures kb_figures
t_check kernelbench/cv kb_cv
t_check kernelbench/stock-base kb_stock
t_check kernelbench/rounds-median kb_rounds
t_check kernelbench/failed-boots kb_failed
t_check kernelbench/too-few-boots kb_few
t_check kernelbench/usage kb_usage
t_check kernelbench/boot-loop kb_loop
t_check kernelbench/source-uncommitted kb_source
if command -v clang >/dev/null 2>&1 && command -v ld.lld >/dev/null 2>&1 &&
    command -v readelf >/dev/null 2>&1; then
	t_check kernelbench/init-worker-build kb_compile
else
	t_skip kernelbench/init-worker-build "clang, ld.lld or readelf" \
	    "not installed"
fi
