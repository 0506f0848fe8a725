# __mp_acquire_count() takes the lock once, whatever the count.
# file: sys/kern/kern_mplock.c
# backend: all
# tests: recurse torture
s/while (count-- > 0)/if (count-- > 0)/
