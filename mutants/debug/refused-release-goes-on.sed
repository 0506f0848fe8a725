# A misuse is reported but the release goes on anyway.
# file: sys/kern/kern_mplock_debug.c
# backend: mlock
# tests: misuse
/^mpld_unlock_bad(/,/^}/s/return (1);/return (0);/
