# The torture's waits line prints the nanoseconds where the turns go:
# the kernel's own check passes, the harness must see that the line's
# turns do not add up to those of the summary.
# file: sys/kern/kern_mplock_torture.c
# backend: mlock
# tests: torture
s/printf("%c%lu", h == 0 ? ' ' : '\/', waitn\[h\]);/printf("%c%lu", h == 0 ? ' ' : '\/', (u_long)waitns[h]);/
