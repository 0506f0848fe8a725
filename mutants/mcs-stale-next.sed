# The MCS enqueue does not clear its node's link: the next hand-off
# passes the lock to the CPU that followed last time.
# file: sys/kern/kern_mplock_mcs.h
# backend: mcs
# tests: mutex
/me->mmn_next = NULL;/d
