#!/bin/sh
#
# A stand-in for qemu-system-x86_64, for the kernel suite's tests of
# tools/kernel/boot.sh: it writes $KERNEL_FAKE_CONSOLE to the serial
# FIFO and ends as KERNEL_FAKE_MODE says.  Left running (a kernel in
# ddb, or hung) it answers as qemu does, so that the watchdog waits
# for nothing: a ddb prompt after each serial line, every CPU's RIP
# for "info registers", and it quits on "quit".

exec 3>ser.out
mode=${KERNEL_FAKE_MODE:-off}
if [ "$mode" = signal-once ]; then	# a second boot after a crash
	[ -e fake-qemu.crashed ] && mode=off || mode=signal
	: >fake-qemu.crashed
fi
case $mode in
signal)		# a crash of qemu's own, mid-boot
	sed '/^mplock_load/,$d' "$KERNEL_FAKE_CONSOLE" >&3
	kill -SEGV $$ ;;
esac
cat "$KERNEL_FAKE_CONSOLE" >&3
case $mode in
off)		exit 0 ;;	# powered off
triple)		echo "Triple fault" >>qemu-reset.log; exit 0 ;;
abort)		echo "qemu-system-x86_64: stand-in aborted" >&2; exit 1 ;;
signal-late)	kill -SEGV $$ ;;	# after the power-off
esac
# stay, hang: until the monitor's "quit".
while c=$(cat ser.in | tr -d '\r'); do
	[ "$c" = quit ] && exit 0
	printf '%s\r\nddb{2}> ' "$c" >&3
done &
while c=$(cat mon.in | tr -d '\r'); do
	case $c in
	"info registers -a")
		i=0
		while [ "$i" -lt "${NCPU:-4}" ]; do
			printf 'CPU#%d\nRIP=ffffffff81001000 RFL=00000246\n' $i
			i=$((i + 1))
		done >mon.out ;;
	quit)	printf 'quit\r' >ser.in
		wait
		exit 0 ;;
	esac
done
