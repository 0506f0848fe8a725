# kcompile: the kern_mplock*.c files compiled as kernel files for every
# OpenBSD machine clang has a target for, against tools/kenv and the
# machine's real <machine/mplock.h> (tools/lib/kcompile.sh), for every
# backend, with the debug options off and on.  alpha and luna88k have
# no clang target: a stand-in target checks their C (their headers
# must hold no assembly, which nothing here could check).  Then the
# instructions the tuned headers promise are looked for in the objects.

. "$ROOT/tools/lib/kcompile.sh"

# kc_srcs BACKEND: the sources that have code with that backend's
# option.  A kernel compiles every kern_mplock*.c; the other backends'
# files are empty then, and kc_all compiles them for the default
# backend only.
kc_srcs() {
	echo "$ROOT/sys/kern/kern_mplock.c $ROOT/sys/kern/kern_mplock_$1.c"
}

# kc_all NAME MACHINE BACKEND [CFLAGS ...]: the backend's sources with
# the debug options off, and with them on (and the debug layer and the
# torture test, option MPLOCK_TORTURE; every source for the default
# backend); the objects stay in $OBJ/kcompile/NAME/BACKEND.
kc_all() {
	_n=$1 _m=$2 _be=$3
	shift 3
	_d=$OBJ/kcompile/$_n/$_be
	rm -rf "$_d"
	mkdir -p "$_d"
	for _f in $(kc_srcs "$_be"); do
		KCOMPILE_OUT=$_d/$(basename "$_f" .c).o kernel_compile "$_m" \
		    "$_f" -DMPLOCK_$(upper "$_be") "$@" || return 1
	done
	_all="$(kc_srcs "$_be") $ROOT/sys/kern/kern_mplock_debug.c"
	_all="$_all $ROOT/sys/kern/kern_mplock_torture.c"
	[ "$_be" = "$DEFAULT_BACKEND" ] && _all=$(kernel_sources)
	for _f in $_all; do
		KCOMPILE_OUT=$_d/$(basename "$_f" .c)-debug.o kernel_compile \
		    "$_m" "$_f" -DMPLOCK_$(upper "$_be") "$@" -DWITNESS \
		    -DMP_LOCKDEBUG -DMPLOCK_DEBUG -DDDB -DMPLOCK_TORTURE ||
		    return 1
	done
}

# kc_insns NAME MACHINE "CFLAGS" FORBIDDEN REQUIRED...: disassemble the
# objects kc_all built with the machine's header (no debug options, both
# backends) and the same sources built with the MI fallbacks.  FORBIDDEN
# (an ERE) must be absent from the first and present in the second: a
# barrier the header saves.  Every REQUIRED ERE must be in the first.
kc_insns() {
	_n=$1 _m=$2 _fl=$3 _no=$4
	shift 4
	_d=$OBJ/kcompile/$_n
	_od="$OBJDUMP -d --no-show-raw-insn"
	[ "$_m" = arm64 ] && _od="$_od --mattr=+lse"
	: >"$_d/md.s"
	: >"$_d/mi.s"
	for _be in $BACKENDS; do
		for _f in $(kc_srcs "$_be"); do
			_o=$_d/$_be/$(basename "$_f" .c)
			$_od "$_o.o" >>"$_d/md.s" || return 1
			KCOMPILE_MI=1 KCOMPILE_OUT=$_o-mi.o kernel_compile \
			    "$_m" "$_f" -DMPLOCK_$(upper "$_be") $_fl || return 1
			$_od "$_o-mi.o" >>"$_d/mi.s" || return 1
		done
	done
	if grep -En "$_no" "$_d/md.s"; then
		echo "$_n: the tuned header still has /$_no/"
		return 1
	fi
	grep -Eq "$_no" "$_d/mi.s" || {
		echo "$_n: the MI fallbacks have no /$_no/: the check is void"
		return 1
	}
	for _re; do
		grep -Eq "$_re" "$_d/md.s" || {
			echo "$_n: no /$_re/ in the tuned build"
			return 1
		}
	done
	echo "$_n: no /$_no/ (MI has it); has: $*"
}

if ! command -v clang >/dev/null 2>&1; then
	t_skip "kcompile" "clang not installed"
else
	for m in $(kernel_machines); do
		for be in $BACKENDS; do
			t_check "kcompile/$m/$be" kc_all "$m" "$m" "$be"
		done
	done
	lse=-march=armv8.1-a+lse+nofp+nosimd
	for be in $BACKENDS; do
		t_check "kcompile/arm64+lse/$be" kc_all arm64+lse arm64 \
		    "$be" $lse
	done
	for m in alpha luna88k; do
		a=$(kernel_machine_info $m | cut -d' ' -f1)
		h=$ROOT/sys/arch/$a/include/mplock.h
		t_check "kcompile/$m/no-asm" sh -c \
		    "[ -f '$h' ] && ! grep -n asm '$h'"
	done

	OBJDUMP=$(command -v llvm-objdump || command -v llvm-objdump-14)
	if [ -z "$OBJDUMP" ]; then
		t_skip "kcompile/instructions" "llvm-objdump not installed"
	else
		t_check "kcompile/amd64/instructions" kc_insns amd64 amd64 "" \
		    'mfence' 'xchgq'
		t_check "kcompile/i386/instructions" kc_insns i386 i386 "" \
		    'addl[[:space:]]+\$0, \(%esp\)' 'xchgl'
		t_check "kcompile/arm64/instructions" kc_insns arm64 arm64 "" \
		    'dmb[[:space:]]+sy' 'ldaxr' 'stlxr' 'stlr' \
		    'dmb[[:space:]]+ishld' 'ldxr' 'wfe'
		t_check "kcompile/arm64+lse/instructions" kc_insns arm64+lse \
		    arm64 "$lse" 'dmb[[:space:]]+sy|ldaxr' 'swpal' 'stlr' 'wfe'
		t_check "kcompile/riscv64/instructions" kc_insns riscv64 \
		    riscv64 "" 'fence[[:space:]]+rw, rw' 'amoswap.d.aqrl' \
		    'fence[[:space:]]+r, rw' 'fence[[:space:]]+rw, w'
		t_check "kcompile/powerpc64/instructions" kc_insns powerpc64 \
		    powerpc64 "" '[[:space:]]sync$' 'lwsync' 'ldarx' 'isync' \
		    'mr[[:space:]]+1, 1$' 'mr[[:space:]]+2, 2$'
		t_check "kcompile/macppc/instructions" kc_insns macppc \
		    macppc "" '[[:space:]]sync$' 'lwsync' 'lwarx' 'isync'
		t_check "kcompile/sparc64/instructions" kc_insns sparc64 \
		    sparc64 "" '#Sync' 'membar #LoadLoad \| #LoadStore$'
	fi
fi
