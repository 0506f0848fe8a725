# The Anderson ticket is read and incremented in two steps, so two CPUs
# can draw the same ticket and spin on the same slot.
# file: sys/kern/kern_mplock_anderson.h
# backend: anderson
# tests: mutex
s/t = atomic_inc_int_nv(&mpl->mpl_be.mlb_next);/t = mpl->mpl_be.mlb_next + 1; mpl->mpl_be.mlb_next = t;/
