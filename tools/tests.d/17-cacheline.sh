# cacheline: every architecture pads each CPU's cell of the lock to at
# least the longest cache line of the CPUs its ports run on, so that no
# two CPUs' cells share a line on any of them.  The padding unit is
# __MPL_CACHELINE of sys/sys/mplock.h (64 unless <machine/mplock.h> sets
# it); the lengths below are the CPUs' own.  Each arch's header is
# checked against them through the real <sys/mplock.h> layout, compiled
# with the shim's headers for every backend; a header that loses its
# setting must fail the same check (seeded for each arch above 64).
# With the M-lock, the line a successor spins on holds the lock
# variables alone, not the depth its holder changes (seeded: the
# backend's cell not aligned to a line).

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

# cl_probe HEADER LINE: does the layout with HEADER as <machine/mplock.h>
# keep cells LINE bytes apart, for every backend?
cl_probe() {
	_h=$1 _line=$2
	mkdir -p "$_cl_dir/inc/machine"
	echo "#include \"$_h\"" >"$_cl_dir/inc/machine/mplock.h"
	for _be in $BACKENDS; do
		$CC $HARNESS_CFLAGS -I"$_cl_dir/inc" -I"$REGRESS/shim/include" \
		    -I"$REGRESS/shim" -DMPLOCK_$(upper "$_be") \
		    -DCL_LINE="$_line" -fsyntax-only "$_cl_dir/probe.c" ||
		    return 1
	done
}

for _e in $CL_LINES; do
	_a=${_e%%:*} _line=${_e#*:}
	_h=$ROOT/sys/arch/$_a/include/mplock.h
	if [ ! -f "$_h" ]; then
		t_fail "cacheline/$_a" "no $_h"
		continue
	fi
	t_check "cacheline/$_a" cl_probe "$_h" "$_line"
	[ "$_line" -gt 64 ] || continue
	# Seeded: the header without its setting (the MI 64) must fail.
	_m=$_cl_dir/seeded-$_a.h
	sed '/^#define[[:space:]]*__MPL_CACHELINE[[:space:]]/d' "$_h" >"$_m"
	if cmp -s "$_h" "$_m"; then
		t_fail "cacheline/seeded/$_a" "$_h does not set __MPL_CACHELINE"
	elif cl_probe "$_m" "$_line" >"$_cl_dir/seeded-$_a.log" 2>&1; then
		t_fail "cacheline/seeded/$_a" "the check passes without the" \
		    "header's __MPL_CACHELINE"
	else
		t_pass "cacheline/seeded/$_a" "caught: $(grep -m1 -o \
		    'static assertion failed.*\|static_assert.*' \
		    "$_cl_dir/seeded-$_a.log" | cut -c1-60)"
	fi
done
# The M-lock's variables in the line of the depth, as they once were.
mkdir -p "$_cl_dir/seed/sys"
awk '/^struct __mp_lock_cpu_be \{$/ { be++ }
    be == 4 && /^} __aligned\(__MPL_CACHELINE\);$/ { print "};"; be++; next }
    { print }' "$ROOT/sys/sys/mplock.h" >"$_cl_dir/seed/sys/mplock.h"
if cmp -s "$ROOT/sys/sys/mplock.h" "$_cl_dir/seed/sys/mplock.h"; then
	t_fail "cacheline/seeded/mlock-variables-by-depth" "nothing to seed"
elif $CC $HARNESS_CFLAGS -I"$_cl_dir/seed" -I"$REGRESS/shim/include" \
    -I"$REGRESS/shim" -DMPLOCK_MLOCK -DCL_LINE=64 -fsyntax-only \
    "$_cl_dir/probe.c" >"$_cl_dir/seeded-mplock.log" 2>&1; then
	t_fail "cacheline/seeded/mlock-variables-by-depth" "not caught"
elif ! grep -q 'variables share a line with the rest' \
    "$_cl_dir/seeded-mplock.log"; then
	t_fail "cacheline/seeded/mlock-variables-by-depth" "failed, but not" \
	    "on the layout" "$_cl_dir/seeded-mplock.log"
else
	t_pass "cacheline/seeded/mlock-variables-by-depth" "caught"
fi
# The old powerpc value: four G5 cells to a line.
sed 's/^\(#define[[:space:]]*__MPL_CACHELINE[[:space:]]*\)128/\132/' \
    "$ROOT/sys/arch/powerpc/include/mplock.h" >"$_cl_dir/seeded-ppc32.h"
if cmp -s "$ROOT/sys/arch/powerpc/include/mplock.h" \
    "$_cl_dir/seeded-ppc32.h"; then
	t_fail "cacheline/seeded/powerpc-32" "no '__MPL_CACHELINE 128' to seed"
elif cl_probe "$_cl_dir/seeded-ppc32.h" 128 >/dev/null 2>&1; then
	t_fail "cacheline/seeded/powerpc-32" "32-byte padding not caught"
else
	t_pass "cacheline/seeded/powerpc-32" "caught"
fi
