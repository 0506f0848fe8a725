# MP_LOCKDEBUG's unlock check tests the depth instead of ownership: an
# unlock from an interrupt handler on a CPU that only waits for the lock
# (depth 1) is neither reported nor refused, and hands off a place the
# CPU does not own.
# file: sys/kern/kern_mplock.c
# backend: all
# tests: intrunlock
s/if (!__mp_lock_held(mpl, curcpu())) {/if (c->mplc_depth == 0) {/
