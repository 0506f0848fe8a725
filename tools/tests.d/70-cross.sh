# cross: the regress under qemu-user (doc/architectures.md), with the
# target's sys/arch header ("-": the MI fallbacks); on arm64 also the
# stress tests without the debug options, whose wait (ldxr/wfe) differs.
# A mutant whose "# cross:" line names a target must be caught there.
# $CROSS_TARGETS: some targets only.  Backends: one per target, the
# default on every other target and the others in turn, so each runs
# somewhere (slice_backends); MPLOCK_FULL=1 all.

# target	compiler and flags		emulator and flags	arch
CROSS='aarch64-lse	aarch64-linux-gnu-gcc -march=armv8.1-a	qemu-aarch64 -cpu max	arm64
aarch64	aarch64-linux-gnu-gcc -march=armv8-a	qemu-aarch64 -cpu cortex-a57	arm64
aarch64-mi	aarch64-linux-gnu-gcc -march=armv8-a	qemu-aarch64 -cpu cortex-a57	-
riscv64	riscv64-linux-gnu-gcc	qemu-riscv64	riscv64
ppc64le	powerpc64le-linux-gnu-gcc	qemu-ppc64le	powerpc64
i686	i686-linux-gnu-gcc	qemu-i386	i386
powerpc	powerpc-linux-gnu-gcc	qemu-ppc	powerpc'

# xbuild NAME DIR BACKEND [CFLAGS ...]: harness_check for the target.
xbuild() {
	CC=$X_CC MDARCH=$X_MDARCH harness_check "$@"
}

HARNESS_PROGS=mplocktest
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
	# .ci/run installs them on Debian; elsewhere not a failure.
	if [ -n "$m" ] && [ "$(uname -s)" = Linux ]; then
		t_fail "cross/$x" "$m not installed (.ci/run installs it)"
		continue
	elif [ -n "$m" ]; then
		t_skip "cross/$x" "$m not on $(uname -s)"
		continue
	fi

	# Where the emulator loses TLS across signals, no interrupt tests.
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

	for be in $(slice_backends "$xi" one); do
		n=cross/$x/$be
		b=$d/$be
		xbuild "$n/build" "$b" "$be" $KERNEL_OPTIONS || continue
		for t in $($X_QEMU "$b/mplocktest" -l); do
			case $intr_ok/$t in
			0/intr | 0/intrunlock | 0/lockorder | 0/torture)
				t_skip "$n/$t" "${X_QEMU%% *} loses TLS across\
 signals: $(tail -n 1 "$d/tls-signal.log")"
				continue ;;
			esac
			t_run "$n/$t" 300 $X_QEMU "$b/mplocktest" -q "$t"
		done
		stress=stress
		[ $intr_ok = 0 ] && stress=$($X_QEMU "$b/mplocktest" -l \
		    stress | grep -vx -e intr -e torture)
		[ "$X_MDARCH" = arm64 ] &&
		    xbuild "$n-plain/build" "$d/$be-plain" "$be" &&
		    t_run "$n/no-debug-options" 300 $X_QEMU \
		    "$d/$be-plain/mplocktest" -q $stress
	done

	for m in "$MUTANTS"/*.sed; do
		mutant_meta "$m"
		[ "$cross" = "$x" ] || continue
		for be in $backends; do
			md=$d/mutant-$name-$be
			n=cross/$x/mutant/$name/$be
			CC=$X_CC MDARCH=$X_MDARCH mutant_check "$n" "$md" "$m" \
			    "$be" $KERNEL_OPTIONS || continue
			# "# count: N" where quick mode is too short to
			# catch the bug reliably.
			len=-q
			[ -n "$count" ] && len="-n $count"
			t_run_fails "$n" 120 $X_QEMU "$md/build/mplocktest" \
			    -w 5 $len $tests
		done
	done
done
