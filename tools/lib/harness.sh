# Build the userland harness from the sys/ sources.  Sourced after
# common.sh.
#
# harness_build DIR BACKEND [CFLAGS ...]
#	Compile the sys/kern lock sources of $MPLOCK_ROOT (default
#	$ROOT) with the shim, for BACKEND, with $CC, into DIR/mplocktest
#	and DIR/mplockbench (bench/ of $ROOT); log in DIR/build.log.
#	$MDARCH: <machine/mplock.h> is sys/arch/$MDARCH's, not the MI one.
#	$HARNESS_PROGS: the programs to link (default both).
#	$HARNESS_LOCK: a foreign lock's sources (BACKEND ""), built
#	instead, with its headers in DIR/inc (tools/lib/stock.sh).
#	$HARNESS_REUSE=DIR2 and $HARNESS_CHANGED=FILE (a mutant's): take
#	from DIR2, built with the same compiler and flags, every object
#	whose sources (its .d) do not name FILE.

# compile_kernel CC BACKEND [CFLAGS ...]
#	Compile every kernel source with the harness's (the kernel's)
#	warning flags against the shim's headers; no objects are kept.
compile_kernel() {
	_cc=$1 _be=$2
	shift 2
	for _f in $(kernel_sources); do
		echo "$_cc ... -DMPLOCK_$(upper "$_be") $* $_f"
		$_cc $HARNESS_CFLAGS -I"$REGRESS/shim/include" \
		    -DMPLOCK_$(upper "$_be") "$@" -c "$_f" -o /dev/null ||
		    return 1
	done
}

# mutant_meta MUTANT: a seeded bug's name (its base name) and its
#	"# NAME:" header lines into file, tests, backends (default the
#	default backend, "all" every one), mdarch, cross and count.
mutant_meta() {
	name=$(basename "$1" .sed)
	file=$(sed -n 's/^# file: //p' "$1")
	tests=$(sed -n 's/^# tests: //p' "$1")
	backends=$(sed -n 's/^# backend: //p' "$1")
	[ -n "$backends" ] || backends=$DEFAULT_BACKEND
	[ "$backends" = all ] && backends=$BACKENDS
	mdarch=$(sed -n 's/^# mdarch: //p' "$1")
	cross=$(sed -n 's/^# cross: //p' "$1")
	count=$(sed -n 's/^# count: //p' "$1")
}

# harness_tree DIR [MUTANT]: a copy of sys/ and the regress in
#	DIR/tree, MUTANT applied to its "# file:"; 1 if that is unchanged.
harness_tree() {
	rm -rf "$1"
	mkdir -p "$1/tree/regress/sys/kern"
	cp -R "$ROOT/sys" "$1/tree/sys"
	cp -R "$REGRESS" "$1/tree/regress/sys/kern/mplock"
	[ -n "${2:-}" ] || return 0
	_f=$(sed -n 's/^# file: //p' "$2")
	sed -f "$2" "$ROOT/$_f" >"$1/tree/$_f"
	! cmp -s "$ROOT/$_f" "$1/tree/$_f"
}

harness_build() {
	_d=$1 _be=$2
	shift 2
	_src=${MPLOCK_ROOT:-$ROOT}
	_shim=$_src/regress/sys/kern/mplock/shim
	_reg=$_src/regress/sys/kern/mplock
	mkdir -p "$_d/o" || return 1
	rm -f "$_d"/o/*.o "$_d/mplocktest" "$_d/mplockbench"
	_inc="-I$_shim/include -I$_shim"
	rm -rf "$_d/mdinc"
	if [ -n "${HARNESS_LOCK:-}" ]; then
		_inc="-I$_d/inc $_inc"
	elif [ -n "${MDARCH:-}" ]; then
		# The regress Makefile's rule (bmake) writes the header.
		MAKEOBJDIR=$_d bmake -m "$ROOT/tools/fixtures/mk" -C "$_reg" \
		    MDARCH="$MDARCH" mdinc/machine/mplock.h >"$_d/build.log" \
		    2>&1 || return 1
		_inc="-I$_d/mdinc $_inc"
	fi
	_flags="$HARNESS_CFLAGS $_inc${_be:+ -DMPLOCK_$(upper "$_be")} $*"
	echo "$CC $_flags" >"$_d/build.log"
	_objs=
	for _f in ${HARNESS_LOCK:-$(kernel_sources "$_src")} "$_shim/shim.c"; do
		_o=$_d/o/$(basename "$_f" .c).o
		_objs="$_objs $_o"
		_harness_reuse "$_o" && continue
		$CC $_flags -MD -c "$_f" -o "$_o" >>"$_d/build.log" 2>&1 ||
		    return 1
	done
	for _p in ${HARNESS_PROGS:-mplocktest mplockbench}; do
		_x= _ps=$_reg
		if [ "$_p" = mplockbench ]; then
			# The benchmark's measuring core is its own object;
			# its sources are this checkout's (not mutated).
			_x=$_d/o/bench.o _ps=$BENCH
			$CC $_flags -c "$_ps/bench.c" -o "$_x" \
			    >>"$_d/build.log" 2>&1 || return 1
		fi
		_harness_reuse "$_d/o/$_p.o" ||
		    $CC $_flags -MD -c "$_ps/$_p.c" -o "$_d/o/$_p.o" \
		    >>"$_d/build.log" 2>&1 || return 1
		$CC $_flags -o "$_d/$_p" "$_d/o/$_p.o" $_x $_objs \
		    >>"$_d/build.log" 2>&1 || return 1
	done
	return 0
}

# harness_check NAME DIR BACKEND [CFLAGS ...]
#	harness_build, or a FAIL line NAME with the end of its log.
harness_check() {
	_hcn=$1
	shift
	harness_build "$@" && return 0
	t_fail "$_hcn" "build failed" "$1/build.log"
	return 1
}

# mutant_check NAME DIR MUTANT BACKEND [CFLAGS ...]: harness_tree DIR
#	MUTANT and harness_check of it into DIR/build, or a FAIL line NAME.
mutant_check() {
	_mcn=$1 _mcd=$2
	if ! harness_tree "$_mcd" "$3"; then
		t_fail "$_mcn" "does not apply to $file any more"
		return 1
	fi
	shift 3
	MPLOCK_ROOT=$_mcd/tree harness_check "$_mcn" "$_mcd/build" "$@"
}

# $HQ: the length of the regress's runs, quick but with MPLOCK_FULL=1
# (make test-full).
HQ=-q
[ "${MPLOCK_FULL:-0}" = 1 ] && HQ=

# harness_tests NAME BACKEND ARGS [CFLAGS ...]
#	Build BACKEND's harness in $OBJ/NAME (left in $hd) and run each
#	test "mplocktest -l" lists, with ARGS, as check NAME/TEST.
#	Returns 1 when the build fails (check NAME/build).
harness_tests() {
	_htn=$1 _htb=$2 _hta=$3
	shift 3
	hd=$OBJ/$_htn
	harness_check "$_htn/build" "$hd" "$_htb" "$@" || return 1
	for _htt in $("$hd/mplocktest" -l); do
		t_run "$_htn/$_htt" 300 "$hd/mplocktest" $_hta "$_htt"
	done
}

# harness_plain NAME BACKEND: the stress tests, quick, from a build
#	without the debug options, as check NAME/no-debug-options.
harness_plain() {
	harness_check "$1-plain/build" "$OBJ/$1-plain" "$2" &&
	    t_run "$1/no-debug-options" 300 "$OBJ/$1-plain/mplocktest" -q \
	    stress
}

# has_guest BACKEND: the backend has a guest mode (the M-lock), which
#	mplocktest -g forces on.
has_guest() {
	grep -q '^#define MPL_BE_HALT' "$ROOT/sys/kern/kern_mplock_$1.h"
}

# Copy an object from $HARNESS_REUSE if its sources leave out the
# changed file.
_harness_reuse() {
	_hr=${HARNESS_REUSE:-}/o/${1##*/}
	[ -n "${HARNESS_REUSE:-}" ] && [ -f "${_hr%.o}.d" ] &&
	    ! grep -qF "$HARNESS_CHANGED" "${_hr%.o}.d" && cp "$_hr" "$1"
}
