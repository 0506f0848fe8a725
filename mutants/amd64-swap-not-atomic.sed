# amd64's tuned swap reads and then writes the tail in two steps: two
# CPUs can get the same predecessor and both enter.
# file: sys/arch/amd64/include/mplock.h
# mdarch: amd64
# backend: mlock
# tests: swap
s/^\([[:space:]]*\)__asm volatile("xchgq %0, %1"$/\1{ void *o = *(void *volatile *)p; *(void *volatile *)p = v; v = o; } if (0) __asm volatile("xchgq %0, %1"/
