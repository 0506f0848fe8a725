# debug: the debug layer (option MPLOCK_DEBUG), as doc/testing.md says.

DEBUG_FLAGS="$KERNEL_OPTIONS -DMPLOCK_DEBUG"
HARNESS_PROGS=mplocktest

# debug_compile CC BACKEND: the option with some of the others; with
# all of them gcc builds the harness below.
debug_compile() {
	_cc=$1 _be=$2
	_all=
	[ "$_cc" = gcc ] || _all=$DEBUG_FLAGS
	for _opts in "-DMPLOCK_DEBUG" "-DMPLOCK_DEBUG -DDDB" \
	    "-DMPLOCK_DEBUG -DWITNESS" ${_all:+"$_all"}; do
		compile_kernel "$_cc" "$_be" $_opts &&
		    $_cc $HARNESS_CFLAGS -I"$REGRESS/shim/include" \
		    -I"$REGRESS/shim" -DMPLOCK_$(upper "$_be") $_opts \
		    -c "$REGRESS/mplocktest.c" -o /dev/null || return 1
	done
}

# kern_mplock.c without its debug hooks: the MPLD_* lines (with the
# statement of a hook "if") and the #ifdef MPLOCK_DEBUG blocks.
strip_hooks() {
	awk '
	skip			{ skip = 0; next }
	/^#ifdef MPLOCK_DEBUG$/	{ ifdef = 1; next }
	ifdef			{ if ($0 ~ /^#endif/) ifdef = 0; next }
	/MPLD_/			{ if ($0 ~ /^[ \t]*if \(/) skip = 1; next }
				{ print }' "$1"
}

# What the object code is: code, data, relocations, symbols.
obj_dump() {
	objdump -d -r -s "$1" | sed '/file format/d'
	nm "$1"
}

# zero_cost CC BACKEND [SRC DIR]: the front end of tree SRC with the
# option off compiles to the code of the front end without the hook
# lines.
zero_cost() {
	_cc=$1 _be=$2 _src=${3:-$ROOT} _d=${4:-$OBJ/debug/zero-cost/$1-$2}
	rm -rf "$_d"
	mkdir -p "$_d/bare"
	cp "$_src"/sys/kern/kern_mplock*.h "$_d/bare/"
	strip_hooks "$_src/sys/kern/kern_mplock.c" >"$_d/bare/kern_mplock.c"
	if grep -n 'MPLD_\|^#ifdef MPLOCK_DEBUG' "$_d/bare/kern_mplock.c"; then
		echo "hooks left after stripping"
		return 1
	fi
	if ! grep -q 'MPLD_LOCK_DONE' "$_src/sys/kern/kern_mplock.c"; then
		echo "no hooks in kern_mplock.c"
		return 1
	fi
	for _opts in "" "$KERNEL_OPTIONS"; do
		_fl="-std=gnu99 -O2 $KERNEL_WARNINGS -DMPLOCK_$(upper "$_be")"
		_fl="$_fl -I$_src/regress/sys/kern/mplock/shim/include $_opts"
		echo "$_cc $_fl"
		$_cc $_fl -c "$_src/sys/kern/kern_mplock.c" -o "$_d/hooks.o" &&
		$_cc $_fl -c "$_d/bare/kern_mplock.c" -o "$_d/bare.o" ||
		    return 1
		obj_dump "$_d/hooks.o" >"$_d/hooks.dump"
		obj_dump "$_d/bare.o" >"$_d/bare.dump"
		if ! cmp -s "$_d/hooks.dump" "$_d/bare.dump"; then
			echo "object code differs with the hooks ($_opts):"
			diff "$_d/bare.dump" "$_d/hooks.dump" | head -n 20
			return 1
		fi
		echo "identical: $(grep -c '^ *[0-9a-f]*:	' \
		    "$_d/hooks.dump") instructions"
	done
}

# gcc every backend; clang the default and one other (MPLOCK_FULL=1:
# every one).
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	bes=$BACKENDS
	[ $cc = clang ] && bes=$(slice_backends 1)
	for be in $bes; do
		t_check "debug/compile/$cc/$be" debug_compile $cc $be
		t_check "debug/zero-cost/$cc/$be" zero_cost $cc $be
	done
done

for be in $BACKENDS; do
	harness_tests "debug/$be" "$be" "$HQ" $DEBUG_FLAGS || continue
	# The layer's reports and counts with the waiters halting.
	has_guest "$be" && t_run "debug/$be/guest" 300 "$hd/mplocktest" $HQ \
	    -g spinout report stats events torture
done

# Seeded bugs: as the mutants suite, with the option on.  "zero-cost" in
# "# tests:" runs the zero-cost check on the mutated tree.
for m in "$MUTANTS"/debug/*.sed; do
	[ -f "$m" ] || continue
	mutant_meta "$m"
	for be in $backends; do
		d=$OBJ/debug/mutants/$name-$be n=debug/mutant/$name/$be
		log=$(_t_log "$n")
		if [ "$tests" != zero-cost ]; then
			# The objects of the files it leaves: debug/$be's.
			HARNESS_REUSE=$OBJ/debug/$be HARNESS_CHANGED=$file \
			    mutant_check "$n" "$d" "$m" "$be" $DEBUG_FLAGS &&
			    t_run_fails "$n" 60 "$d/build/mplocktest" $HQ -w 5 \
			    $tests
		# Caught only by the comparison, not by any other failure
		# (a compile error, a missing compiler).
		elif ! harness_tree "$d" "$m"; then
			t_fail "$n" "does not apply to $file any more"
		elif zero_cost gcc "$be" "$d/tree" "$d/zero-cost" \
		    >"$log" 2>&1 || ! grep -q 'object code differs' "$log"; then
			t_fail "$n" "seeded bug NOT caught" "$log"
		else
			t_pass "$n" "caught: $(grep -m1 differs "$log")"
		fi
	done
done
