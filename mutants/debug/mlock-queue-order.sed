# The M-lock's queue walk follows the wrong variable: the spin-out
# report no longer lists the waiters in queue order.
# file: sys/kern/kern_mplock_mlock.h
# backend: mlock
# tests: report
s/return (n->mplc_wait == c->mplc_be.mcb_mine);/return (n->mplc_wait == c->mplc_wait);/
