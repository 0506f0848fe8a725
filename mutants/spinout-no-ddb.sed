# The spin-out report is printed but ddb is not entered: the waiter
# spins on without anyone being able to look at the machine.
# file: sys/kern/kern_mplock.c
# tests: spinout
/lock spun out/,/nticks = __mp_lock_spinout;/s/^\([[:space:]]*\)db_enter();$/\1;/
