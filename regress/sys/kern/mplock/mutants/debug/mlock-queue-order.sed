# The M-lock's queue walk follows the wrong variable: the spin-out
# report no longer lists the waiters in queue order.
# file: sys/kern/kern_mplock_debug.c
# backend: mlock
# tests: report
s/n->mplc_wait == c->mplc_be.mcb_mine/n->mplc_wait == c->mplc_wait/
