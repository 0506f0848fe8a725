# A waiter takes the lock without waiting for its turn.
# file: sys/kern/kern_mplock.c
# backend: all
# tests: mutex torture
s/if ((v = mpl_load(w)) != want)$/if (0 \&\& (v = mpl_load(w)) != want)/
