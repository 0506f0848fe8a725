# cross: the regress built with Debian's cross compilers and run under
# qemu-user (tools/lib/cross.sh): for each target and backend, every
# test of mplocktest in quick mode from a WITNESS+MP_LOCKDEBUG build,
# with the target's sys/arch header (or the MI fallbacks for
# aarch64-mi); for the arm64 targets also the stress tests from a build
# without the debug options, whose wait (ldxr/wfe) differs.  qemu runs
# the guest's threads on the host's CPUs at once, so races happen as on
# hardware, but the host (x86, TSO) keeps the guest's accesses in order:
# these runs execute the MD code, they cannot catch a missing barrier.
# Seeded bugs in an arch header whose "# cross:" line names a target
# run there and must be caught.  $CROSS_TARGETS limits the targets
# (tools/cross.sh sets it).  make test runs each target with the default
# backend and one other, in turn (slice_backends); MPLOCK_FULL=1 (make
# test-cross, make test-full) with every backend.

. "$ROOT/tools/lib/cross.sh"

# Installed by .ci/run on Debian; elsewhere (no qemu-user) not a failure.
cross_missing() {
	if [ "$(uname -s)" = Linux ]; then
		t_fail "$1" "$2 not installed (.ci/run installs it)"
	else
		t_skip "$1" "$2 not on $(uname -s)"
	fi
}

xi=0
for x in ${CROSS_TARGETS:-$(cross_targets)}; do
	xi=$((xi + 1))
	if ! cross_info "$x"; then
		t_fail "cross/$x" "unknown target"
		continue
	fi
	set -- $X_CC
	if ! command -v "$1" >/dev/null 2>&1; then
		cross_missing "cross/$x" "$1"
		continue
	fi
	set -- $X_QEMU
	if ! command -v "$1" >/dev/null 2>&1; then
		cross_missing "cross/$x" "$1"
		continue
	fi

	# Does the emulator keep a thread's TLS across a signal handler?
	# "intr" cannot run where it does not (qemu-i386).
	d=$OBJ/cross/$x
	mkdir -p "$d"
	intr_ok=1
	if ! $X_CC -O2 -pthread -o "$d/tls-signal" \
	    "$ROOT/tools/fixtures/tls-signal.c" >"$d/tls-signal.log" 2>&1; then
		t_fail "cross/$x/build" "cannot build a program" \
		    "$d/tls-signal.log"
		continue
	fi
	if ! timeout 60 $X_QEMU "$d/tls-signal" >>"$d/tls-signal.log" 2>&1
	then
		intr_ok=0
	fi

	for be in $(slice_backends "$xi"); do
		n=cross/$x/$be
		b=$d/$be
		if ! CC=$X_CC MDARCH=$X_MDARCH harness_build "$b" "$be" \
		    $KERNEL_OPTIONS; then
			t_fail "$n/build" "build failed" "$b/build.log"
			continue
		fi
		stress=stress
		for t in $($X_QEMU "$b/mplocktest" -l); do
			# intr, intrunlock, lockorder and torture raise
			# interrupts (signals).
			if [ "$t" = intr -o "$t" = intrunlock -o \
			    "$t" = lockorder -o "$t" = torture ] &&
			    [ $intr_ok = 0 ]; then
				t_skip "$n/$t" "${X_QEMU%% *} loses TLS across signals:\
 $(tail -n 1 "$d/tls-signal.log")"
				continue
			fi
			t_run "$n/$t" 300 $X_QEMU "$b/mplocktest" -q "$t"
		done
		[ $intr_ok = 0 ] && stress=$($X_QEMU "$b/mplocktest" -l \
		    stress | grep -vx -e intr -e torture)

		case $X_MDARCH in
		arm64)	;;
		*)	continue ;;
		esac
		b=$d/$be-plain
		if ! CC=$X_CC MDARCH=$X_MDARCH harness_build "$b" "$be"; then
			t_fail "$n-plain/build" "build failed" "$b/build.log"
			continue
		fi
		t_run "$n/no-debug-options" 300 $X_QEMU "$b/mplocktest" -q \
		    $stress
	done

	for m in "$MUTANTS"/*.sed; do
		mutant_meta "$m"
		[ "$cross" = "$x" ] || continue
		for be in $backends; do
			md=$d/mutant-$name-$be
			if ! harness_tree "$md" "$m"; then
				t_fail "cross/$x/mutant/$name/$be" \
				    "does not apply to $file any more"
			elif ! CC=$X_CC MDARCH=$X_MDARCH MPLOCK_ROOT=$md/tree \
			    harness_build "$md/build" "$be" \
			    $KERNEL_OPTIONS; then
				t_fail "cross/$x/mutant/$name/$be" \
				    "does not build" "$md/build/build.log"
			else
				# "# count: N" where quick mode is too
				# short to catch the bug reliably.
				len=-q
				[ -n "$count" ] && len="-n $count"
				t_run_fails "cross/$x/mutant/$name/$be" 120 \
				    $X_QEMU "$md/build/mplocktest" -w 5 $len \
				    $tests
			fi
		done
	done
done
