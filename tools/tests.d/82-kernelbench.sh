# kernelbench: make kernel-bench's parsing and comparison
# (tools/kernelbench.sh -l), without booting: canned boot logs, written
# here, go through the parser and "buildtime compare".  The figures of
# each boot land in the right results files; a clear difference is
# reported slower or faster, identical samples "no difference proven";
# a failed boot, a boot without a verdict and a passed boot without a
# figure are each counted, left out, and make the run exit 1 while the
# other boots are still compared.  The checker of the figures is itself
# checked on a seeded wrong figure.  Also: init and the worker of the
# booted kernel's build-like load compile and link (tools/kernel/), and
# usage errors follow OpenBSD's conventions.

KB=$ROOT/tools/kernelbench.sh
KBD=$OBJ/kernelbench-test
rm -rf "$KBD"
mkdir -p "$KBD"

# kb_log DIR ROUND BACKEND SMP NSACQ MAXWAIT BUILD VERDICT [TURNS MS]: a
# boot's log as kernelbench.sh keeps it (console, then kernel.sh's
# verdict line); VERDICT "none" leaves the verdict line out, a figure
# "-" its line.  TURNS and MS: the torture's histogram of turn waits
# (70/20/0/0/10/0/0/0 and 0/1/0/0/99/0/0/0), "-" no histogram line.
kb_log() {
	_kl=$1/logs
	mkdir -p "$_kl"
	{
		echo "cpu0 at mainbus0: apid 0 (boot processor)"
		[ "$5" = - ] || echo "mplock_torture: $3 $4 cpus 5.000s acq" \
		    "11/12 intr 465 (278 waiting) violations=0 maxwait" \
		    "${6}us ${5}ns/acq PASS"
		[ "$5" = - ] || [ "${9:-}" = - ] ||
		    echo "mplock_torture: waits <1us <10us <100us <1ms" \
		    "<10ms <100ms <1s >=1s: turns" \
		    "${9:-70/20/0/0/10/0/0/0} ms ${10:-0/1/0/0/99/0/0/0}"
		echo "mplock_init: started"
		echo "mplock_load: $4 procs x 300 open/close: 300/300" \
		    "errors 0 276 ms PASS"
		[ "$7" = - ] || echo "mplock_build: $4 jobs x 48 execs of" \
		    "mplock_worker (8 files each): ok 48 errors 0 $7 ms PASS"
		echo "mplock_init: powering off"
		echo
		[ "$8" = none ] ||
		    echo "kernel: kbench-$3: $8: $4 CPUs, load 276 ms"
	} >"$_kl/r$2-$3-smp$4.log"
}

# The set every case starts from: 3 rounds, ticket and mlock at -smp 2
# and 4.  -smp 2: mlock clearly slower in ns/acq, faster in the build's
# time, the same waits.  -smp 4: identical samples everywhere.
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

# kb_want DIR FILE VALUE ...: the data lines of DIR/FILE are the VALUEs
# (in any order: the boots are read in the logs' name order).
kb_want() {
	_f=$1/$2
	shift 2
	_got=$(grep -v '^#' "$_f" | sort -n | tr '\n' ' ')
	_exp=$(for _v in "$@"; do echo "$_v"; done | sort -n | tr '\n' ' ')
	[ "$_got" = "$_exp" ] && return 0
	echo "$_f: holds [$_got], not [$_exp]"
	return 1
}

# kb_row DIR BACKEND SMP FIGURE ERE: the table's row matches ERE.
kb_row() {
	_r=$(awk -v b="$2" -v s="$3" -v f="$4" \
	    '$1 == b && $2 == s && $3 == f' "$1/table.txt")
	echo "$_r" | grep -Eq -- "$5" && return 0
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
	grep -q '^# buildtime results' "$_d/mlock-smp4-maxwait.txt" &&
	sh "$ROOT/tools/buildtime" compare "$_d/ticket-smp2-nsacq.txt" \
	    "$_d/mlock-smp2-nsacq.txt" >/dev/null
}

kb_figures() {
	_d=$KBD/figures
	kb_base "$_d"
	sh "$KB" -l "$_d" || { echo "exit $?, not 0"; return 1; }
	kb_check_figures "$_d" &&
	kb_row "$_d" ticket 2 nsacq ' 3 +20200\.0 +100\.0 +1\.000 +\(base\)$' &&
	kb_row "$_d" mlock 2 nsacq ' 3 +30200\.0 +100\.0 +1\.495 ' &&
	grep -q '^# failures: 0$' "$_d/results.txt" &&
	grep -q '^# command: ' "$_d/results.txt" &&
	grep -q '^# load: ' "$_d/results.txt" &&
	grep -q '^1 mlock 2 PASS nsacq=30100 maxwait=901 build=4010 turns=70/20/0/0/10/0/0/0 waitms=0/1/0/0/99/0/0/0$' \
	    "$_d/boots.txt"
}

# kb_wrow DIR BACKEND SMP ERE: the waits table's row matches ERE.
kb_wrow() {
	_r=$(awk -v b="$2" -v s="$3" '$1 == b && $2 == s' "$1/waits.txt")
	echo "$_r" | grep -Eq -- "$4" && return 0
	echo "waits row $2 $3: [$_r], not /$4/"
	return 1
}

# The turn waits: summed over the passed boots of a backend and CPU
# count, in shares of the turns and of the time; a boot with another
# histogram moves its row, a boot without one counts in no row; the
# table is in the results file.
kb_waits() {
	_d=$KBD/waits
	kb_base "$_d"
	kb_log "$_d" 3 mlock 2 30300 903 4030 PASS 0/0/0/0/0/0/0/150 \
	    0/0/0/0/0/0/0/1800
	kb_log "$_d" 3 ticket 4 1003 77 7003 PASS -
	sh "$KB" -l "$_d" >/dev/null || { echo "exit $?, not 0"; return 1; }
	_z=' +0\.0%'
	kb_wrow "$_d" ticket 2 " 3 +300 +70\.0% +20\.0%$_z$_z +10\.0%$_z$_z$_z +300 +99\.0%$" &&
	kb_wrow "$_d" mlock 2 " 3 +350 +40\.0% +11\.4%$_z$_z +5\.7%$_z$_z +42\.9% +2000 +99\.9%$" &&
	kb_wrow "$_d" ticket 4 " 2 +200 +70\.0%" &&
	grep -q '^Turn waits by length' "$_d/results.txt" &&
	grep -Eq '^mlock +4 +3 +300 ' "$_d/results.txt"
}

# The checker above must see a wrong figure: one boot's figure changed
# in its log, the check fails.
kb_seeded() {
	_d=$KBD/seeded
	kb_base "$_d"
	sed 's/ 20200ns\/acq / 20250ns\/acq /' "$_d/logs/r2-ticket-smp2.log" \
	    >"$_d/x" && mv "$_d/x" "$_d/logs/r2-ticket-smp2.log"
	sh "$KB" -l "$_d" >/dev/null || return 1
	if kb_check_figures "$_d"; then
		echo "the wrong figure (20250 for 20200) was not caught"
		return 1
	fi
	return 0
}

kb_verdicts() {
	_d=$KBD/figures
	kb_row "$_d" mlock 2 nsacq 'slower by 49\.5% \+- [0-9.]+% \(95%\)$' &&
	kb_row "$_d" mlock 2 build \
	    'faster by 19\.9% \+- [0-9.]+% \(95%\)$' &&
	kb_row "$_d" mlock 2 maxwait ' 1\.000 +no difference proven$' &&
	kb_row "$_d" mlock 4 nsacq ' 1\.000 +no difference proven$' &&
	kb_row "$_d" mlock 4 build 'no difference proven$' &&
	kb_row "$_d" ticket 4 build '\(base\)$'
}

# Failed boots: a FAIL, one without a verdict (the log cut short), a
# PASS whose console lacks the torture's line; each counted and left
# out, the rest compared, exit 1.
kb_failed() {
	_d=$KBD/failed
	kb_base "$_d"
	kb_log "$_d" 4 mlock 2 99999 99999 99999 FAIL
	kb_log "$_d" 4 ticket 2 99999 99999 99999 none
	kb_log "$_d" 4 mlock 4 - 77 7001 PASS
	sh "$KB" -l "$_d" >"$KBD/failed.out" 2>&1
	_rc=$?
	[ "$_rc" -eq 1 ] || { echo "exit $_rc, not 1"; return 1; }
	grep -q '^# failures: 4$' "$_d/results.txt" || {
		grep '^# failures' "$_d/results.txt"
		echo "not 4 failures (FAIL, no verdict, nsacq and maxwait)"
		return 1
	}
	grep -q 'round 4, mlock, -smp 2: boot FAIL: 2 CPUs, load 276 ms (' \
	    "$_d/results.txt" &&
	grep -q 'round 4, ticket, -smp 2: boot NONE' "$_d/results.txt" &&
	grep -q 'round 4, mlock, -smp 4: no nsacq figure' "$_d/results.txt" &&
	grep -q 'kernelbench: 4 failure' "$KBD/failed.out" &&
	kb_check_figures "$_d" &&
	# The passed boot without the torture still gives its build time.
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
	    "-b bogus" "-s 0" "-s x" "-b ''" "operand" || return 1
	# Not a misuse but a wrong directory: the message alone, exit 1.
	sh "$KB" -l "$KBD/nonexistent" >"$KBD/usage.out" 2>&1
	_rc=$?
	[ "$_rc" -eq 1 ] || { echo "-l: exit $_rc, not 1"; return 1; }
	grep -v '^kernelbench: ' "$KBD/usage.out" | grep -q . &&
	    { echo "-l: other output"; cat "$KBD/usage.out"; return 1; }
	grep -q '^kernelbench: ' "$KBD/usage.out"
}

# init and the worker, as tools/kernel.sh builds them.
kb_compile() {
	for _p in init worker; do
		clang --target=x86_64-unknown-openbsd -std=c99 -O2 -Wall \
		    -Werror -ffreestanding -fno-builtin -fno-stack-protector \
		    -fno-pie -fcf-protection=none \
		    -fno-asynchronous-unwind-tables -nostdinc \
		    -DTORTURE_WAIT=120 -c "$ROOT/tools/kernel/$_p.c" \
		    -o "$KBD/$_p.o" &&
		    ld.lld -static --no-pie -nostdlib \
		    -T "$ROOT/tools/kernel/init.ld" -o "$KBD/$_p" \
		    "$KBD/$_p.o" || return 1
		# The OpenBSD syscall pin table, and its exec and mount.
		readelf -lW "$KBD/$_p" | grep -Eq "LOOS\+0x5a3dbe9|0x65a3dbe9" || {
			echo "$_p: no PT_OPENBSD_SYSCALLS segment"
			return 1
		}
	done
}

t_check kernelbench/figures kb_figures
t_check kernelbench/seeded-wrong-figure kb_seeded
t_check kernelbench/verdicts kb_verdicts
t_check kernelbench/turn-waits kb_waits
t_check kernelbench/failed-boots kb_failed
t_check kernelbench/too-few-boots kb_few
t_check kernelbench/usage kb_usage
if command -v clang >/dev/null 2>&1 && command -v ld.lld >/dev/null 2>&1 &&
    command -v readelf >/dev/null 2>&1; then
	t_check kernelbench/init-worker-build kb_compile
else
	t_skip kernelbench/init-worker-build "clang, ld.lld or readelf" \
	    "not installed"
fi
