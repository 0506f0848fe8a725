# The ownership record survives the hand-off: a CPU that takes the lock
# again before anyone else does is not seen to begin a new turn.
# file: sys/kern/kern_mplock_debug.c
# backend: ticket mlock
# tests: stats
/^mpld_release(/,/^}/s/d->mld_owner = -1;/;/
