# md: the regress with the host's sys/arch/$HOST_MDARCH header, for the
# default backend and one other (MPLOCK_FULL=1: every one).

if [ -z "$HOST_MDARCH" ]; then
	t_skip "md" "no sys/arch header for $(uname -m)"
else
	MDARCH=$HOST_MDARCH HARNESS_PROGS=mplocktest
	for be in $(slice_backends 1); do
		harness_tests "md/$MDARCH/$be" "$be" "$HQ" $KERNEL_OPTIONS &&
		    harness_plain "md/$MDARCH/$be" "$be"
	done
fi
