# md: the regress again, with <machine/mplock.h> the host's real
# sys/arch/$HOST_MDARCH/include/mplock.h instead of the shim's MI one,
# so the tuned primitives run where the MI fallbacks ran in "regress":
# every test from a WITNESS+MP_LOCKDEBUG build, the stress tests from a
# build without them (arm64, say, waits differently without
# MP_LOCKDEBUG).

# The stress tests at full length run in suite regress; here, in quick
# mode unless MPLOCK_FULL=1 (make test-full).
q=-q
[ "${MPLOCK_FULL:-0}" = 1 ] && [ -z "${MPLOCK_QUICK:-}" ] && q=
if [ -z "$HOST_MDARCH" ]; then
	t_skip "md" "no sys/arch header for $(uname -m)"
else
	for be in $BACKENDS; do
		n=md/$HOST_MDARCH/$be
		d=$OBJ/md/$HOST_MDARCH/$be
		if ! MDARCH=$HOST_MDARCH harness_build "$d" "$be" \
		    $KERNEL_OPTIONS; then
			t_fail "$n/build" "build failed" "$d/build.log"
			continue
		fi
		for t in $("$d/mplocktest" -l); do
			t_run "$n/$t" 300 "$d/mplocktest" $q "$t"
		done

		d=$OBJ/md/$HOST_MDARCH/$be-plain
		if ! MDARCH=$HOST_MDARCH harness_build "$d" "$be"; then
			t_fail "$n-plain/build" "build failed" "$d/build.log"
			continue
		fi
		t_run "$n/no-debug-options" 300 "$d/mplocktest" -q stress
	done
fi
