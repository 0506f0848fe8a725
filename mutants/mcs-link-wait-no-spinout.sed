# MCS's hand-off waits for a successor's link without MP_LOCKDEBUG's
# spin-out: a successor stopped between its swap and its link leaves
# the owner spinning with interrupts disabled, unreported.
# file: sys/kern/kern_mplock_mcs.h
# backend: mcs
# tests: spinout
/while ((next = mpl_load_ptr(&me->mmn_next)) == NULL) {/,/^	}$/s/if (--nticks <= 0) {/if (--nticks <= 0 \&\& 0) {/
