# __mp_acquire_count() counts down as the stock one did: a negative
# count takes the lock some 4 billion times.
# file: sys/kern/kern_mplock.c
# backend: mlock
# tests: recurse
s/while (count-- > 0)/while (count--)/
