# The MCS hand-off gives up when the CAS of the tail fails, instead of
# waiting for the successor that has swapped but not linked yet: that
# successor waits forever.
# file: sys/kern/kern_mplock_mcs.h
# backend: mcs
# tests: mutex
s/if (mpl_cas_ptr_release(&mpl->mpl_be.mlb_tail, me, NULL) == me)/if (mpl_cas_ptr_release(\&mpl->mpl_be.mlb_tail, me, NULL) != NULL)/
