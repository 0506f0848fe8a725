# cross: the regress built with Debian's cross compilers (static, so no
# target sysroot is needed) and run under qemu-user: for each target and
# backend, every test of mplocktest in quick mode from a WITNESS +
# MP_LOCKDEBUG build, with the target's sys/arch header (none: the MI
# fallbacks); on arm64 also the stress tests without the debug options,
# whose wait (ldxr/wfe) differs.  aarch64-lse uses swpal; aarch64 runs
# on a Cortex-A57, which has no LSE, so an LSE instruction would trap.
# qemu runs the guest's threads on the host's CPUs at once, so races
# happen as on hardware, but the host (x86, TSO) keeps the guest's
# accesses in order: these runs execute the MD code, they cannot catch a
# missing barrier.  Seeded bugs in an arch header whose "# cross:" line
# names a target run there and must be caught.  $CROSS_TARGETS: some
# targets only.  make test runs each target with the default backend
# and one other, in turn (slice_backends); MPLOCK_FULL=1 (make
# test-cross, make test-full) every backend.

# target	compiler and flags		emulator and flags	arch
CROSS='aarch64-lse	aarch64-linux-gnu-gcc -march=armv8.1-a	qemu-aarch64 -cpu max	arm64
aarch64	aarch64-linux-gnu-gcc -march=armv8-a	qemu-aarch64 -cpu cortex-a57	arm64
aarch64-mi	aarch64-linux-gnu-gcc -march=armv8-a	qemu-aarch64 -cpu cortex-a57	-
riscv64	riscv64-linux-gnu-gcc	qemu-riscv64	riscv64
ppc64le	powerpc64le-linux-gnu-gcc	qemu-ppc64le	powerpc64
i686	i686-linux-gnu-gcc	qemu-i386	i386
powerpc	powerpc-linux-gnu-gcc	qemu-ppc	powerpc'

# Installed by .ci/run on Debian; elsewhere (no qemu-user) not a failure.
cross_missing() {
	if [ "$(uname -s)" = Linux ]; then
		t_fail "$1" "$2 not installed (.ci/run installs it)"
	else
		t_skip "$1" "$2 not on $(uname -s)"
	fi
}

xi=0
for x in ${CROSS_TARGETS:-$(echo "$CROSS" | cut -f1)}; do
	xi=$((xi + 1))
	l=$(echo "$CROSS" | awk -F '\t' -v x="$x" '$1 == x')
	if [ -z "$l" ]; then
		t_fail "cross/$x" "unknown target"
		continue
	fi
	X_CC="$(echo "$l" | cut -f2) -static"
	X_QEMU=$(echo "$l" | cut -f3)
	X_MDARCH=$(echo "$l" | cut -f4 | sed 's/^-$//')
	m=
	for c in "${X_QEMU%% *}" "${X_CC%% *}"; do
		command -v "$c" >/dev/null 2>&1 || m=$c
	done
	if [ -n "$m" ]; then
		cross_missing "cross/$x" "$m"
		continue
	fi

	# Does the emulator keep a thread's TLS across a signal handler?
	# The tests that raise interrupts (signals) cannot run where it
	# does not (qemu-i386).
	d=$OBJ/cross/$x
	mkdir -p "$d"
	if ! $X_CC -O2 -pthread -o "$d/tls-signal" \
	    "$ROOT/tools/fixtures/tls-signal.c" >"$d/tls-signal.log" 2>&1; then
		t_fail "cross/$x/build" "cannot build a program" \
		    "$d/tls-signal.log"
		continue
	fi
	intr_ok=1
	timeout 60 $X_QEMU "$d/tls-signal" >>"$d/tls-signal.log" 2>&1 ||
	    intr_ok=0

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
			case $intr_ok/$t in
			0/intr | 0/intrunlock | 0/lockorder | 0/torture)
				t_skip "$n/$t" "${X_QEMU%% *} loses TLS across\
 signals: $(tail -n 1 "$d/tls-signal.log")"
				continue ;;
			esac
			t_run "$n/$t" 300 $X_QEMU "$b/mplocktest" -q "$t"
		done
		[ $intr_ok = 0 ] && stress=$($X_QEMU "$b/mplocktest" -l \
		    stress | grep -vx -e intr -e torture)
		[ "$X_MDARCH" = arm64 ] || continue
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
			n=cross/$x/mutant/$name/$be
			if ! harness_tree "$md" "$m"; then
				t_fail "$n" "does not apply to $file any more"
			elif ! CC=$X_CC MDARCH=$X_MDARCH MPLOCK_ROOT=$md/tree \
			    harness_build "$md/build" "$be" $KERNEL_OPTIONS; then
				t_fail "$n" "does not build" "$md/build/build.log"
			else
				# "# count: N" where quick mode is too
				# short to catch the bug reliably.
				len=-q
				[ -n "$count" ] && len="-n $count"
				t_run_fails "$n" 120 $X_QEMU \
				    "$md/build/mplocktest" -w 5 $len $tests
			fi
		done
	done
done
