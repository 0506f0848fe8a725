# md: the regress with the host's sys/arch/$HOST_MDARCH header.  Quick
# unless MPLOCK_FULL=1 (make test-full): the full runs are regress's.

q=-q
[ "${MPLOCK_FULL:-0}" = 1 ] && [ -z "${MPLOCK_QUICK:-}" ] && q=
if [ -z "$HOST_MDARCH" ]; then
	t_skip "md" "no sys/arch header for $(uname -m)"
else
	MDARCH=$HOST_MDARCH
	for be in $BACKENDS; do
		harness_tests "md/$MDARCH/$be" "$be" "$q" $KERNEL_OPTIONS &&
		    harness_plain "md/$MDARCH/$be" "$be"
	done
fi
