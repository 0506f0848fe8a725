# An interrupt that takes the lock while its CPU waits queues a second
# time instead of joining the CPU's place in the queue.
# file: sys/kern/kern_mplock.c
# backend: all
# tests: intr
/Queue first: held/{
n
s/if (c->mplc_depth == 0) {$/if (c->mplc_depth == 0 || !mpl_owned(c)) {/
}
