# The ticket is read and incremented in two steps, so two CPUs can draw
# the same ticket.
# file: sys/kern/kern_mplock_ticket.h
# backend: ticket
# tests: mutex
s/c->mplc_want = atomic_inc_int_nv(&mpl->mpl_be.mlb_next);/c->mplc_want = mpl->mpl_be.mlb_next + 1; mpl->mpl_be.mlb_next = c->mplc_want;/
