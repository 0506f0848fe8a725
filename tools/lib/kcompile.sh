# Kernel sources compiled for the OpenBSD machines the vendored tree
# lacks (realtree.sh compiles amd64 and i386), with clang's
# <arch>-unknown-openbsd targets, freestanding with _KERNEL, against the
# regress shim's headers (which have the port's barriers by -DKC_<MACHINE>).
# Sourced after common.sh.
#
# kernel_compile MACHINE SRC [CFLAGS ...]: compile SRC to $KCOMPILE_OUT
#	(/dev/null) with the kernel's warnings, -DMULTIPROCESSOR and
#	CFLAGS (first: an -I there comes before the others), our
#	<sys/mplock.h> and the machine's <machine/mplock.h>; the command
#	printed, then the compiler's messages.

kernel_machines() {
	echo arm64 armv7 riscv64 powerpc64 macppc octeon loongson sparc64 \
	    alpha luna88k
}

# kernel_machine_info MACHINE: ARCH TRIPLE MAXCPUS (OpenBSD's, or our
# choice on alpha, armv7, loongson and luna88k), then code generation
# flags close to the port's kernel build.  alpha and luna88k have no
# clang target: a stand-in of the same word size and byte order.
kernel_machine_info() {
	case $1 in
	amd64)		echo amd64 x86_64-unknown-openbsd ;;
	i386)		echo i386 i386-unknown-openbsd ;;
	arm64)		echo arm64 aarch64-unknown-openbsd 256 \
			    -march=armv8-a+nofp+nosimd -mno-outline-atomics ;;
	armv7)		echo arm armv7-unknown-openbsd 4 -mfloat-abi=soft ;;
	riscv64)	echo riscv64 riscv64-unknown-openbsd 32 \
			    -march=rv64imac -mabi=lp64 -mcmodel=medany -mno-relax ;;
	powerpc64)	echo powerpc64 powerpc64-unknown-openbsd 48 -msoft-float ;;
	macppc)		echo powerpc powerpc-unknown-openbsd 4 -msoft-float ;;
	octeon)		echo mips64 mips64-unknown-openbsd 16 -march=octeon \
			    -mabi=64 -mno-abicalls -G0 -msoft-float ;;
	loongson)	echo mips64 mips64el-unknown-openbsd 16 \
			    -mabi=64 -mno-abicalls -G0 -msoft-float ;;
	sparc64)	echo sparc64 sparc64-unknown-openbsd 256 \
			    -mcmodel=medlow -msoft-float ;;
	alpha)		echo alpha mips64el-unknown-openbsd 32 \
			    -mabi=64 -mno-abicalls -G0 -msoft-float ;;
	luna88k)	echo m88k powerpc-unknown-openbsd 4 -msoft-float ;;
	*)		return 1 ;;
	esac
}

kernel_compile() {
	_kc_m=$1 _kc_src=$2
	shift 2
	_kc_i=$(kernel_machine_info "$_kc_m") ||
	    { echo "kernel_compile: unknown machine $_kc_m" >&2; return 1; }
	set -- $_kc_i "$@"
	_kc_inc=$OBJ/kcompile-inc/$_kc_m
	mkdir -p "$_kc_inc/machine" || return 1
	echo "#include \"$ROOT/sys/arch/$1/include/mplock.h\"" \
	    >"$_kc_inc/machine/mplock.h"
	_kc_t="-target $2 -DMAXCPUS=$3" _kc_d=-DKC_$(upper "$_kc_m")
	shift 3
	echo "${CLANG:-clang} $_kc_t $_kc_d $* $_kc_src"
	# -fno-stack-protector: upstream clang 14 crashes expanding the
	# OpenBSD stack guard for arm64 and armv7 (OpenBSD's own clang
	# does not).  -nostdlibinc: clang's <stddef.h> and <stdint.h> only.
	${CLANG:-clang} $_kc_t -std=gnu99 -O2 -ffreestanding -nostdlibinc \
	    -fno-pie -fno-common -fno-stack-protector $KERNEL_WARNINGS \
	    -D_KERNEL -DMULTIPROCESSOR "$_kc_d" \
	    "$@" -I"$ROOT/sys" \
	    -I"$_kc_inc" -I"$REGRESS/shim/include" \
	    -c "$_kc_src" -o "${KCOMPILE_OUT:-/dev/null}"
}
