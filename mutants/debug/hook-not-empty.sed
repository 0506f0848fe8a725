# With the option off a hook still leaves a store in the lock path:
# only the zero-cost check can see it.
# file: sys/kern/kern_mplock.h
# backend: ticket mlock
# tests: zero-cost
s/^#define MPLD_LOCK_QUEUED(mpl, c)$/#define MPLD_LOCK_QUEUED(mpl, c) ((c)->mplc_depth = (c)->mplc_depth)/
