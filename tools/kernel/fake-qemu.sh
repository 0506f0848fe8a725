#!/bin/sh
#
# A stand-in for qemu-system-x86_64, for the kernel suite's tests of the
# watchdog's judgement (tools/kernel/boot.sh): it writes the console in
# $KERNEL_FAKE_CONSOLE to the serial FIFO (ser.out, in the current
# folder as boot.sh runs qemu), then exits like a powered-off machine
# (KERNEL_FAKE_MODE=off), like one that triple-faulted (triple: qemu's
# -d cpu_reset log says so), like a qemu that aborted (abort: a message
# on its stderr, status 1), like a qemu that crashed mid-boot (signal:
# the console up to init's load line, then it kills itself with
# SIGSEGV; signal-once: only the first time it runs in this folder,
# then it powers off, as a second boot after a crash of qemu would) or
# after the power-off (signal-late: the whole console, then SIGSEGV),
# or stays until killed, like a kernel in ddb or a hung one (stay).  It holds the FIFOs boot.sh writes to open, so the watchdog's
# commands do not wait for a reader.

exec 4<>ser.in 5<>mon.in
mode=${KERNEL_FAKE_MODE:-off}
if [ "$mode" = signal-once ]; then
	[ -e fake-qemu.crashed ] && mode=off || mode=signal
	: >fake-qemu.crashed
fi
case $mode in
signal)	sed '/^mplock_load/,$d' "$KERNEL_FAKE_CONSOLE" >ser.out
	kill -SEGV $$ ;;
esac
cat "$KERNEL_FAKE_CONSOLE" >ser.out
[ "$mode" = triple ] &&
    echo "Triple fault" >>qemu-reset.log
if [ "$mode" = abort ]; then
	echo "qemu-system-x86_64: stand-in aborted" >&2
	exit 1
fi
[ "$mode" = signal-late ] && kill -SEGV $$
[ "$mode" != stay ] && exit 0
trap 'exit 0' TERM INT
while :; do
	sleep 1
done
