# One lock variable per CPU: it is re-armed before the successor saw it
# free (the re-arm hazard); the successor and then this CPU hang.
# file: sys/kern/kern_mplock_mlock.h
# backend: mlock
# tests: mutex
s/cb->mcb_next ^= 1;/cb->mcb_next = 0;/
