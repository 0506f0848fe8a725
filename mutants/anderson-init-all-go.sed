# The Anderson slots start out letting in the first ticket of each slot,
# not only the first ticket: the first CPUs all get in at once.
# file: sys/kern/kern_mplock_anderson.h
# backend: anderson
# tests: fifo
s/= i == 0 ? t : t - MPL_ANDERSON_NSLOTS;/= t;/
