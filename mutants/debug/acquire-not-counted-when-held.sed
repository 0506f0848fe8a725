# The statistics skip recursive acquisitions: the debug layer counts
# fewer __mp_lock() calls than were made, which the torture test
# (option MPLOCK_TORTURE) compares with its own count on every CPU.
# file: sys/kern/kern_mplock_debug.c
# backend: mlock
# tests: torture
s/^	st->mds_acquire++;$/	if (!dl->dl_held) st->mds_acquire++;/
