# __mp_lock_held() is true as soon as the CPU has a place in the queue.
# file: sys/kern/kern_mplock.h
# backend: all
# tests: fifo recurse torture
s/return (c->mplc_depth > 0 && mpl_load(c->mplc_wait) == c->mplc_want);/return (c->mplc_depth > 0);/
