# Every unlock hands the lock on, not only the one that drops depth to 0.
# file: sys/kern/kern_mplock.c
# backend: all
# tests: recurse torture
s/if (--c->mplc_depth == 0)/if (--c->mplc_depth < 1000)/
