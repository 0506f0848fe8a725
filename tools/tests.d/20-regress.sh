# regress: the userland regress (regress/sys/kern/mplock) for every
# backend: every test of mplocktest, built with WITNESS and MP_LOCKDEBUG,
# then the stress tests again from a build without them; for the M-lock
# the stress tests with its guest mode forced on as well.

q=
[ -n "${MPLOCK_QUICK:-}" ] && q=-q
for be in $BACKENDS; do
	d=$OBJ/regress/$be
	if ! harness_build "$d" "$be" -DWITNESS -DMP_LOCKDEBUG -DDDB; then
		t_fail "regress/$be/build" "build failed" "$d/build.log"
		continue
	fi
	for t in $("$d/mplocktest" -l); do
		t_run "regress/$be/$t" 300 "$d/mplocktest" $q "$t"
	done
	# A backend with a guest mode (the M-lock): the stress tests and
	# the spin-out again with it forced on (-g), its waiters halting.
	if grep -q '^#define MPL_BE_HALT' "$ROOT/sys/kern/kern_mplock_$be.h"
	then
		t_run "regress/$be/guest" 300 "$d/mplocktest" $q -g \
		    $STRESS_TESTS spinout
	fi

	d=$OBJ/regress/$be-plain
	if ! harness_build "$d" "$be"; then
		t_fail "regress/$be-plain/build" "build failed" "$d/build.log"
		continue
	fi
	t_run "regress/$be/no-debug-options" 300 "$d/mplocktest" -q \
	    $STRESS_TESTS
done
