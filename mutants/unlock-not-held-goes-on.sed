# With MP_LOCKDEBUG, __mp_unlock() of a lock not held goes on after ddb
# as the stock one did: the depth wraps around at 0, and a waiting
# CPU's place is given up while the owner holds the lock.
# file: sys/kern/kern_mplock.c
# backend: mlock
# tests: spinout intrunlock
/not held lock/,/return;/s/^\([[:space:]]*\)return;$/\1;/
