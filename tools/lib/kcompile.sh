# Compile kernel sources for OpenBSD machines with clang's
# <arch>-unknown-openbsd targets, against the regress shim's headers
# (regress/sys/kern/mplock/shim/include, freestanding with _KERNEL) and
# the port's own in tools/lib/kcompile-port.h: the machines the
# vendored OpenBSD tree lacks (amd64 and i386 are compiled in that
# tree, tools/lib/realtree.sh).  Sourced after common.sh.
#
# kernel_compile MACHINE SRC [CFLAGS ...]
#	Compile the kernel source file SRC for MACHINE (one of
#	kernel_machines) with the kernel's warning flags, -D_KERNEL
#	-DMULTIPROCESSOR and the extra CFLAGS (say -DWITNESS -DMPLOCK_TICKET).
#	<sys/mplock.h> and <machine/mplock.h> are the real ones of the tree
#	at $SRCROOT (default $ROOT): sys/sys/mplock.h and
#	sys/arch/<arch>/include/mplock.h.  Prints the command, then the
#	compiler's messages; returns the compiler's exit status.
#	$KCOMPILE_OUT: where the object goes (default /dev/null).
#	$KCOMPILE_MI=1: the shim's <machine/mplock.h>, which only opts in
#	to the MI lock, so the MI fallbacks are compiled instead of the
#	arch's.
#	$CLANG: the compiler (default clang).
#
#	What a real tree would catch and this cannot: a declaration of
#	ours that disagrees with the kernel's own headers or code (suite
#	kcompile seeds one for amd64 and i386).
#
# kernel_machine_info MACHINE
#	Prints "ARCH TRIPLE": the sys/arch directory and the clang target
#	(amd64 and i386 too, for tools/lib/realtree.sh).
#	alpha and luna88k have no clang target: they are compiled with a
#	stand-in target of the same word size and byte order (mips64el,
#	powerpc), which checks their headers' C and the MI fallbacks with
#	their MAXCPUS, but no assembly (their headers hold none).

# The machines compiled against the shim: those the vendored OpenBSD
# tree lacks.
kernel_machines() {
	echo arm64 armv7 riscv64 powerpc64 macppc octeon loongson sparc64 \
	    alpha luna88k
}

kernel_machine_info() {
	case $1 in
	amd64)		echo amd64 x86_64-unknown-openbsd ;;
	i386)		echo i386 i386-unknown-openbsd ;;
	arm64)		echo arm64 aarch64-unknown-openbsd ;;
	armv7)		echo arm armv7-unknown-openbsd ;;
	riscv64)	echo riscv64 riscv64-unknown-openbsd ;;
	powerpc64)	echo powerpc64 powerpc64-unknown-openbsd ;;
	macppc)		echo powerpc powerpc-unknown-openbsd ;;
	octeon)		echo mips64 mips64-unknown-openbsd ;;
	loongson)	echo mips64 mips64el-unknown-openbsd ;;
	sparc64)	echo sparc64 sparc64-unknown-openbsd ;;
	alpha)		echo alpha mips64el-unknown-openbsd ;;
	luna88k)	echo m88k powerpc-unknown-openbsd ;;
	*)		return 1 ;;
	esac
}

# Code generation flags close to each port's kernel build.
_kc_machflags() {
	case $1 in
	arm64)		echo -march=armv8-a+nofp+nosimd -mno-outline-atomics ;;
	armv7)		echo -mfloat-abi=soft ;;
	riscv64)	echo -march=rv64imac -mabi=lp64 -mcmodel=medany \
			    -mno-relax ;;
	powerpc64 | macppc | luna88k)	echo -msoft-float ;;
	octeon)		echo -march=octeon -mabi=64 -mno-abicalls -G0 \
			    -msoft-float ;;
	loongson | alpha)	echo -mabi=64 -mno-abicalls -G0 -msoft-float ;;
	sparc64)	echo -mcmodel=medlow -msoft-float ;;
	esac
}

kernel_compile() {
	_kc_m=$1 _kc_src=$2
	shift 2
	_kc_info=$(kernel_machine_info "$_kc_m") || {
		echo "kernel_compile: unknown machine $_kc_m" >&2
		return 2
	}
	set -- $_kc_info "$@"
	_kc_arch=$1 _kc_triple=$2
	shift 2
	_kc_root=${SRCROOT:-$ROOT}
	_kc_inc=$OBJ/kcompile-inc/$_kc_m
	mkdir -p "$_kc_inc/sys" "$_kc_inc/machine" || return 2
	echo "#include \"$_kc_root/sys/sys/mplock.h\"" >"$_kc_inc/sys/mplock.h"
	if [ "${KCOMPILE_MI:-0}" = 1 ]; then
		rm -f "$_kc_inc/machine/mplock.h"
	else
		echo "#include \"$_kc_root/sys/arch/$_kc_arch/include/mplock.h\"" \
		    >"$_kc_inc/machine/mplock.h"
	fi
	_kc_def=KC_$(upper "$_kc_m")
	echo "${CLANG:-clang} -target $_kc_triple $(_kc_machflags "$_kc_m")" \
	    "-D$_kc_def $* $_kc_src"
	# -fno-stack-protector: upstream clang 14 crashes expanding the
	# OpenBSD stack guard for arm64 and armv7 (OpenBSD's own clang
	# does not); the guard is not what this check is about.
	# -nostdlibinc: clang's own <stddef.h> and <stdint.h>, no libc's.
	${CLANG:-clang} -target "$_kc_triple" -std=gnu99 -O2 -ffreestanding \
	    -nostdlibinc -fno-pie -fno-common -fno-stack-protector \
	    $(_kc_machflags "$_kc_m") \
	    $KERNEL_WARNINGS -D_KERNEL -DMULTIPROCESSOR -D"$_kc_def" \
	    -include "$ROOT/tools/lib/kcompile-port.h" \
	    -I"$_kc_inc" -I"$REGRESS/shim/include" "$@" \
	    -c "$_kc_src" -o "${KCOMPILE_OUT:-/dev/null}"
}
