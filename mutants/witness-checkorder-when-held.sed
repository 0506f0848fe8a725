# WITNESS is asked to check the order of a lock this CPU already holds.
# file: sys/kern/kern_mplock.c
# backend: all
# tests: lockorder
s/if (!mpl_owned(c))$/if (1)/
