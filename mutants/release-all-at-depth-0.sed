# __mp_release_all() hands off at depth 0 too, as the stock ticket lock
# did: with the ticket lock that moves the ticket on and lets the next
# CPU in while the owner holds the lock.  (The M-lock's hand-off at
# depth 0 stores 0 into a free variable and changes nothing.)
# file: sys/kern/kern_mplock.c
# backend: ticket
# tests: releaseidle
s/if (rv > 0) {/if (rv >= 0) {/
