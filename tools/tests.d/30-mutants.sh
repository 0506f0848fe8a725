# mutants: seeded bugs the regress must catch (doc/testing.md).

rm -rf "$OBJ/mutants/_base"
HARNESS_PROGS=mplocktest
mi=0
for m in "$MUTANTS"/*.sed; do
	[ -f "$m" ] || continue
	mutant_meta "$m"
	# A bug of the front end ("all"): the default backend and one
	# other, in turn (slice_backends; MPLOCK_FULL=1: all).
	if [ "$backends" = "$BACKENDS" ]; then
		mi=$((mi + 1))
		backends=$(slice_backends "$mi")
	fi
	# A mutant of an arch header runs with that header (# mdarch:),
	# natively on that arch or under qemu (# cross:, suite "cross").
	[ -n "$cross" ] && continue
	if [ -n "$mdarch" ] && [ "$mdarch" != "$HOST_MDARCH" ]; then
		t_skip "mutant/$name" "needs a $mdarch host"
		continue
	fi
	for be in $backends; do
		d=$OBJ/mutants/$name-$be
		# The objects whose sources it leaves alone: from a build
		# of the unchanged tree, one per backend.
		reuse=$OBJ/mutants/_base/$be-${mdarch:-mi}
		[ -f "$reuse/mplocktest" ] ||
		    MDARCH=$mdarch harness_build "$reuse" "$be" \
		    $KERNEL_OPTIONS || reuse=
		MDARCH=$mdarch HARNESS_REUSE=$reuse HARNESS_CHANGED=$file \
		    mutant_check "mutant/$name/$be" "$d" "$m" "$be" \
		    $KERNEL_OPTIONS || continue
		# "torture" must catch the bug on its own: run apart, 0.5 s.
		others=$(echo " $tests " | sed 's/ torture / /g')
		[ -n "${others# }" ] && t_run_fails "mutant/$name/$be" 60 \
		    "$d/build/mplocktest" -w 3 $others
		case " $tests " in
		*" torture "*)
			t_run_fails "mutant/$name/$be/torture" 60 \
			    "$d/build/mplocktest" -w 3 -n 500 torture ;;
		esac
	done
done
