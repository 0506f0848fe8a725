# The MCS hand-off without a linked successor empties the queue with a
# plain store instead of a compare-and-swap, dropping a successor that
# has just swapped.
# file: sys/kern/kern_mplock_mcs.h
# backend: mcs
# tests: mutex
s/if (mpl_cas_ptr_release(&mpl->mpl_be.mlb_tail, me, NULL) == me)/if ((mpl->mpl_be.mlb_tail = NULL) == NULL)/
