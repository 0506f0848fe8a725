# Misuse is counted but never reported, as if always after a panic.
# file: sys/kern/kern_mplock_debug.c
# backend: mlock
# tests: misuse
s/if (panicstr != NULL || db_active)/if (1)/
