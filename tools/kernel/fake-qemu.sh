#!/bin/sh
#
# A stand-in for qemu-system-x86_64, for the kernel suite's tests of
# tools/kernel/boot.sh: it writes $KERNEL_FAKE_CONSOLE to the serial
# FIFO and ends as KERNEL_FAKE_MODE says.  It holds the FIFOs boot.sh
# writes to open, so that the watchdog's commands find a reader.

exec 4<>ser.in 5<>mon.in
mode=${KERNEL_FAKE_MODE:-off}
if [ "$mode" = signal-once ]; then	# a second boot after a crash
	[ -e fake-qemu.crashed ] && mode=off || mode=signal
	: >fake-qemu.crashed
fi
case $mode in
signal)		# a crash of qemu's own, mid-boot
	sed '/^mplock_load/,$d' "$KERNEL_FAKE_CONSOLE" >ser.out
	kill -SEGV $$ ;;
esac
cat "$KERNEL_FAKE_CONSOLE" >ser.out
case $mode in
off)		exit 0 ;;	# powered off
triple)		echo "Triple fault" >>qemu-reset.log; exit 0 ;;
abort)		echo "qemu-system-x86_64: stand-in aborted" >&2; exit 1 ;;
signal-late)	kill -SEGV $$ ;;	# after the power-off
esac
# stay: a kernel in ddb, or hung, until killed.
trap 'exit 0' TERM INT
while :; do
	sleep 1
done
