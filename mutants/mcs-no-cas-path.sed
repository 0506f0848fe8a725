# The MCS hand-off always waits for a successor's link, even when nobody
# queued: the first unlock without a waiter spins forever.
# file: sys/kern/kern_mplock_mcs.h
# backend: mcs
# tests: recurse
s/if (mpl_cas_ptr_release(&mpl->mpl_be.mlb_tail, me, NULL) == me)/if (0)/
