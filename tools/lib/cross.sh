# Cross targets of the regress: Debian's cross compilers, run under
# qemu-user.  Sourced after common.sh.
#
# cross_targets
#	Prints the target names: aarch64-lse aarch64 aarch64-mi riscv64
#	ppc64le i686 powerpc.
# cross_info TARGET
#	Sets X_CC (compiler and flags), X_QEMU (emulator and flags) and
#	X_MDARCH (the sys/arch header the harness is built with, empty for
#	the MI fallbacks).  aarch64-lse is built for ARMv8.1 and so uses
#	swpal; aarch64 is built for ARMv8.0 and runs on an emulated
#	Cortex-A57, which has no LSE: an LSE instruction would trap.
#	aarch64-mi runs the MI fallbacks on that same weakly ordered CPU.
#	Binaries are linked statically, so no target sysroot is needed at
#	run time.

cross_targets() {
	echo aarch64-lse aarch64 aarch64-mi riscv64 ppc64le i686 powerpc
}

cross_info() {
	case $1 in
	aarch64-lse)
		X_CC="aarch64-linux-gnu-gcc -march=armv8.1-a"
		X_QEMU="qemu-aarch64 -cpu max" X_MDARCH=arm64 ;;
	aarch64)
		X_CC="aarch64-linux-gnu-gcc -march=armv8-a"
		X_QEMU="qemu-aarch64 -cpu cortex-a57" X_MDARCH=arm64 ;;
	aarch64-mi)
		X_CC="aarch64-linux-gnu-gcc -march=armv8-a"
		X_QEMU="qemu-aarch64 -cpu cortex-a57" X_MDARCH= ;;
	riscv64)
		X_CC=riscv64-linux-gnu-gcc
		X_QEMU=qemu-riscv64 X_MDARCH=riscv64 ;;
	ppc64le)
		X_CC=powerpc64le-linux-gnu-gcc
		X_QEMU=qemu-ppc64le X_MDARCH=powerpc64 ;;
	i686)
		X_CC=i686-linux-gnu-gcc
		X_QEMU=qemu-i386 X_MDARCH=i386 ;;
	powerpc)
		X_CC=powerpc-linux-gnu-gcc
		X_QEMU=qemu-ppc X_MDARCH=powerpc ;;
	*)
		return 1 ;;
	esac
	X_CC="$X_CC -static"
}
