# Guest mode: the hand-off stores 0 as on bare metal, without looking
# for a waiter that halted on the variable: the kick is lost, and the
# waiter stays halted until some other interrupt comes (the booted
# kernel's clock; none in the regress's halt test).
# file: sys/kern/kern_mplock_mlock.h
# backend: mlock
# tests: halt
/^mpl_be_release(/,/^}/s/if (__predict_false(mplock_guest)) {/if (0) {/
