# After a spin-out report the waiter stops waiting and takes the lock.
# file: sys/kern/kern_mplock.c
# backend: all
# tests: spinout
s/^\([[:space:]]*\)nticks = __mp_lock_spinout;$/\1break;/
