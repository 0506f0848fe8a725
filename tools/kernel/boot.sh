#!/bin/sh
#
# boot.sh RUN NAME: boot RUN/tftp under qemu and judge the run, for
# tools/kernel.sh (doc/kernel.md, "The verdict", with the exit status).
# Environment: NCPU (4), KERNEL_TIMEOUT (900), KERNEL_ACCEL (tcg, or
# kvm), EXPECT_TORTURE, KERNEL_BOOT_NOTE (added to the details).

RUN=$1
NAME=$2
NCPU=${NCPU:-4}
LIMIT=${KERNEL_TIMEOUT:-900}
ACCEL=${KERNEL_ACCEL:-tcg}
case $ACCEL in
tcg|kvm)	;;
*)	echo "boot.sh: KERNEL_ACCEL=$ACCEL: tcg or kvm" >&2; exit 2 ;;
esac

cd "$RUN" || exit 2
rm -f ser.in ser.out mon.in mon.out serial.log monitor.log registers.txt \
    qemu.log qemu-reset.log result
mkfifo ser.in ser.out mon.in mon.out || exit 2

verdict() {	# STATUS EXIT DETAILS
	echo "status=$1" >>result
	echo "kernel: $NAME: $1: $3${KERNEL_BOOT_NOTE:+ ($KERNEL_BOOT_NOTE)}"
	exit "$2"
}

T0=$(date +%s)
qemu-system-x86_64 -machine pc,accel="$ACCEL" -smp "$NCPU" -m 512 \
    -display none -no-reboot -boot n -d cpu_reset -D qemu-reset.log \
    -nic "user,model=e1000,tftp=$RUN/tftp,bootfile=pxeboot" \
    -serial pipe:ser -monitor pipe:mon >qemu.log 2>&1 &
QPID=$!
cat ser.out >serial.log &
SPID=$!
cat mon.out >monitor.log &
MPID=$!

alive() {
	kill -0 "$QPID" 2>/dev/null
}

# upto SECS COMMAND...: until COMMAND succeeds, SECS seconds at most.
upto() {
	_u=$1
	shift
	until "$@"; do
		[ "$_u" -gt 0 ] || return 1
		sleep 1
		_u=$((_u - 1))
	done
}

# to FIFO TEXT: write a line to qemu; a dead qemu must not block us.
to() {
	alive && timeout 5 sh -c 'printf "%s\r" "$2" >"$1"' sh "$1" "$2"
}

# The registers of every CPU, each RIP with the kernel symbol it is in.
record() {
	to mon.in "info registers -a"
	upto 3 eval '[ "$(grep -c RIP= monitor.log)" -ge "$NCPU" ]'
	awk -v nm=bsd.nm '
	    BEGIN {
		while ((getline l < nm) > 0) {
			split(l, f, " ")
			if (length(f[1]) == 16 && f[2] ~ /^[tTwW]$/) {
				addr[++n] = tolower(f[1])
				sym[n] = f[3]
			}
		}
	    }
	    /^CPU#[0-9]+/ { cpu = $1 }
	    /RIP=/ {
		match($0, /RIP=[0-9a-fA-F]+/)
		r = tolower(substr($0, RSTART + 4, RLENGTH - 4))
		# The last at or below r: nm -n sorts, hex strings compare.
		for (i = n; i >= 1 && addr[i] > r; i--)
			;
		printf "%s RIP=%s %s\n", cpu, r, i ? sym[i] : "?"
	    }' monitor.log >registers.txt
}

# qemu's exit status, once it is known; "stopped" when we ended it.
qrc=
stop_qemu() {
	qrc=stopped
	to mon.in "quit"
	upto 2 eval '! alive' || kill "$QPID" 2>/dev/null
	upto 1 eval '! alive' || kill -9 "$QPID" 2>/dev/null
	wait "$QPID" 2>/dev/null
	readers_done
}

# readers_done: the console's reader to qemu's EOF (10 s at most), so
# that serial.log holds all, then the monitor's.
readers_done() {
	upto 10 eval '! kill -0 "$SPID" 2>/dev/null'
	kill "$SPID" "$MPID" 2>/dev/null
	wait 2>/dev/null
}

state=exited
off_at=
while alive; do
	if grep -q 'ddb{[0-9]*}>' serial.log; then
		state=ddb
		break
	fi
	[ -n "$off_at" ] || ! grep -q '^mplock_init: powering off' \
	    serial.log || off_at=$(date +%s)
	# Powered off but qemu still there (no ACPI power-off): done.
	if [ -n "$off_at" ] && [ $(($(date +%s) - off_at)) -ge 30 ]; then
		stop_qemu
		break
	fi
	if [ $(($(date +%s) - T0)) -ge "$LIMIT" ]; then
		state=hang
		break
	fi
	sleep 1
done
BOOT_S=$(($(date +%s) - T0))
if [ "$state" = exited ] && [ -z "$qrc" ]; then
	wait "$QPID" 2>/dev/null
	qrc=$?
fi
echo "boot_s=$BOOT_S" >result
echo "qemu_exit=$qrc" >>result

prompts() {	# ddb's prompts on the console so far
	awk '{ n += gsub(/ddb\{[0-9]*\}>/, "") } END { print n + 0 }' serial.log
}

first() {	# the first console line matching ERE $1
	grep -m1 -E "$1" serial.log | tr -d '\r' | cut -c1-160
}

case $state in
ddb)
	sleep 2
	# No paging, no wrapping: the whole trace in the log.  Each
	# command's end is ddb's next prompt.
	for c in 'set $lines = 0|1' 'set $maxwidth = 0|1' 'trace|4' \
	    'show mplock|3'; do
		_p=$(prompts)
		to ser.in "${c%|*}"
		upto "${c#*|}" eval '[ "$(prompts)" -gt "$_p" ]'
	done
	record
	stop_qemu
	why=$(first 'panic|__mp_|spun out|witness|lock order|fault|^mplock [a-z_]+: ')
	echo "kernel.sh: $NAME: stopped in ddb; console: $RUN/serial.log," \
	    "registers: $RUN/registers.txt" >&2
	tail -n 40 serial.log | tr -d '\r' >&2
	echo >&2	# the console's last line, a prompt, has no newline
	verdict PANIC 3 "${why:-stopped in ddb}"
	;;
hang)
	record
	stop_qemu
	echo "kernel.sh: $NAME: no power-off after ${LIMIT}s; registers:" >&2
	cat registers.txt >&2
	tail -n 20 serial.log | tr -d '\r' >&2
	echo >&2
	verdict HANG 4 "no power-off after ${LIMIT}s (registers:" \
	    "$RUN/registers.txt)"
	;;
esac
readers_done

# --- Powered off: the pass criteria.
tr -d '\r' <serial.log >console.txt
# qemu killed by a signal (its own segfault) before init's power-off:
# no verdict on the kernel; after it, the criteria below judge it.
case $qrc in
129 | 1[3-9][0-9])
	if ! grep -q '^mplock_init: powering off' console.txt; then
		last=$(grep . console.txt | tail -n 1 | cut -c1-100)
		echo "kernel.sh: $NAME: qemu died of signal $((qrc - 128))" \
		    "after ${BOOT_S}s; console: $RUN/serial.log" >&2
		verdict CRASH 5 "qemu crashed (signal $((qrc - 128))) after\
 ${BOOT_S}s, not a verdict on the kernel${last:+; last console line: $last}"
	fi ;;
esac
fails=
fail() {
	fails="$fails${fails:+; }$*"
}
# qemu gone without the power-off (-no-reboot: a reset ends it).
if ! grep -q '^mplock_init: powering off' console.txt; then
	if grep -q 'Triple fault' qemu-reset.log 2>/dev/null; then
		fail "qemu exited on a triple fault (CPU state:" \
		    "$RUN/qemu-reset.log)"
	else
		q=$(grep . qemu.log 2>/dev/null | tail -n 1 | cut -c1-100)
		fail "qemu exited before the power-off${q:+ (qemu: $q)}"
	fi
fi
for l in load:procs build:jobs; do
	w=${l%:*}
	v=$(grep -m1 "^mplock_$w: " console.txt)
	case $v in
	"mplock_$w: $NCPU ${l#*:} "*" PASS")	;;
	'')	fail "no $w line from init" ;;
	*)	fail "$w: $v" ;;
	esac
	eval "$w=\$v"
done
ncpus=$(grep -cE '^cpu[0-9]+ at mainbus0' console.txt)
[ "$ncpus" -eq "$NCPU" ] || fail "$ncpus CPUs attached, not $NCPU"
bad=$(first 'panic|Stopped at|ddb\{|lock order reversal|witness:|uvm_fault|page fault|protection fault|spun out|__mp_lock|__mp_unlock')
[ -z "$bad" ] || fail "console: $bad"
# The torture's summary, not its first violation's line before it.
tort=$(grep -m1 -E '^mplock_torture: [a-z]+ [0-9]+ cpus ' console.txt)
if [ -n "${EXPECT_TORTURE:-}" ]; then
	if [ -z "$tort" ]; then
		fail "no mplock_torture line"
	else
		echo "$tort" | grep -q 'violations=0 ' ||
		    fail "torture: violations: $tort"
		case $tort in
		*PASS)	;;
		*)	fail "torture: $tort" ;;
		esac
		acq=$(echo "$tort" | sed -n 's/.* acq \([0-9/]*\) .*/\1/p')
		echo "$acq" | awk -F/ -v n="$NCPU" '
		    { for (i = 1; i <= NF; i++) if ($i + 0 == 0) exit 1
		      exit NF != n }' ||
		    fail "torture: not every CPU took part ($acq)"
	fi
	grep -q '^mplock_init: torture reported' console.txt ||
	    fail "init did not see the torture's summary"
fi
ms=$(echo "$load" | sed -n 's/.* \([0-9]*\) ms .*/\1/p')
bms=$(echo "$build" | sed -n 's/.* \([0-9]*\) ms .*/\1/p')
{
	echo "load_ms=$ms"
	echo "build_ms=$bms"
	echo "torture=$tort"
} >>result
details="$NCPU CPUs, load ${ms:-?} ms, build ${bms:-?} ms, ${BOOT_S}s from qemu start to power-off${tort:+; $tort}"
[ -z "$fails" ] || verdict FAIL 1 "$fails"
verdict PASS 0 "$details"
