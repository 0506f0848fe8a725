# cacheline: each CPU's cell of the lock padded to at least the longest
# cache line of the CPUs each arch's ports run on (doc/testing.md), for
# every backend; with the M-lock, the line a successor spins on holds
# the lock variables alone, not the depth its holder changes.

# Longest L1 data cache line (the coherence unit) of the CPUs the ports
# of each sys/arch support:
#	arm64	128: Apple M1/M2 (and Cavium ThunderX)
#	mips64	128: Cavium Octeon (octeon); loongson's is 32
#	powerpc	128: the G5 (PowerPC 970), which macppc runs on; G3/G4 32
#	powerpc64 128: POWER8 and POWER9
#	alpha, amd64, arm, i386, riscv64, sparc64: 64 at most
#	m88k	32: the MC88110 (luna88k)
CL_LINES="alpha:64 amd64:64 arm:64 arm64:128 i386:64 m88k:32 mips64:128
    powerpc:128 powerpc64:128 riscv64:64 sparc64:64"

_cl_dir=$OBJ/cacheline
rm -rf "$_cl_dir"
mkdir -p "$_cl_dir"
cat >"$_cl_dir/probe.c" <<'EOF'
#include <sys/param.h>
#include <sys/systm.h>
#include <sys/mplock.h>

#include <stddef.h>

_Static_assert(__MPL_CACHELINE >= CL_LINE,
    "__MPL_CACHELINE shorter than the arch's longest cache line");
_Static_assert(__alignof__(struct __mp_lock_cpu) >= CL_LINE,
    "a CPU's cell is not aligned to a cache line");
_Static_assert(sizeof(struct __mp_lock_cpu) % CL_LINE == 0,
    "a CPU's cell does not end on a cache line");
_Static_assert(offsetof(struct __mp_lock, mpl_cpus[1]) -
    offsetof(struct __mp_lock, mpl_cpus[0]) >= CL_LINE,
    "two CPUs' cells share a cache line");
#if !defined(MPLOCK_TICKET) && !defined(MPLOCK_MCS) && \
    !defined(MPLOCK_ANDERSON)
/* The M-lock: the line the successor spins on holds nothing else. */
_Static_assert(offsetof(struct __mp_lock_cpu, mplc_be) % CL_LINE == 0 &&
    sizeof(struct __mp_lock_cpu_be) % CL_LINE == 0,
    "the M-lock's variables share a line with the rest of the cell");
#endif
EOF

# cl_probe HEADER LINE [SYSDIR]: does the layout with HEADER as
# <machine/mplock.h> (and SYSDIR/sys/mplock.h) keep cells LINE bytes
# apart, for every backend?
cl_probe() {
	mkdir -p "$_cl_dir/inc/machine"
	echo "#include \"$1\"" >"$_cl_dir/inc/machine/mplock.h"
	for _be in $BACKENDS; do
		$CC $HARNESS_CFLAGS ${3:+-I"$3"} -I"$_cl_dir/inc" \
		    -I"$REGRESS/shim/include" -I"$REGRESS/shim" \
		    -DMPLOCK_$(upper "$_be") -DCL_LINE="$2" -fsyntax-only \
		    "$_cl_dir/probe.c" || return 1
	done
}

# cl_seeded NAME FILE SEEDED MESSAGE HEADER LINE [SYSDIR]: SEEDED, FILE
# edited, must fail cl_probe HEADER LINE [SYSDIR] with MESSAGE.
cl_seeded() {
	_n=cacheline/seeded/$1 _l=$3.log
	if cmp -s "$2" "$3"; then
		t_fail "$_n" "nothing to seed in $2"
	elif cl_probe "$5" "$6" ${7:+"$7"} >"$_l" 2>&1; then
		t_fail "$_n" "not caught"
	elif ! grep -q "$4" "$_l"; then
		t_fail "$_n" "failed, but not with '$4'" "$_l"
	else
		t_pass "$_n" "caught: $(grep -m1 -o "$4.*" "$_l" | cut -c1-60)"
	fi
}

for _e in $CL_LINES; do
	_a=${_e%%:*} _line=${_e#*:}
	_h=$ROOT/sys/arch/$_a/include/mplock.h
	t_check "cacheline/$_a" cl_probe "$_h" "$_line"
	[ "$_line" -gt 64 ] || continue
	# The header without its setting (the MI 64).
	_m=$_cl_dir/seeded-$_a.h
	sed '/^#define[[:space:]]*__MPL_CACHELINE[[:space:]]/d' "$_h" >"$_m"
	cl_seeded "$_a" "$_h" "$_m" "__MPL_CACHELINE shorter" "$_m" "$_line"
done
# The M-lock's variables in the line of the depth, as they once were.
_m=$_cl_dir/seed/sys/mplock.h
mkdir -p "${_m%/*}"
awk '/^struct __mp_lock_cpu_be \{$/ { be++ }
    be == 4 && /^} __aligned\(__MPL_CACHELINE\);$/ { print "};"; be++; next }
    { print }' "$ROOT/sys/sys/mplock.h" >"$_m"
cl_seeded mlock-variables-by-depth "$ROOT/sys/sys/mplock.h" "$_m" \
    "variables share a line with the rest" \
    "$REGRESS/shim/include/machine/mplock.h" 64 "$_cl_dir/seed"
# The old powerpc value: four G5 cells to a line.
_h=$ROOT/sys/arch/powerpc/include/mplock.h _m=$_cl_dir/seeded-ppc32.h
sed 's/^\(#define[[:space:]]*__MPL_CACHELINE[[:space:]]*\)128/\132/' \
    "$_h" >"$_m"
cl_seeded powerpc-32 "$_h" "$_m" "__MPL_CACHELINE shorter" "$_m" 128
