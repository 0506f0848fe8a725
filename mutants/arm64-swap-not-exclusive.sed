# arm64's LL/SC swap without the exclusives: a plain load and store, so
# two CPUs can get the same predecessor and both enter.  Run by the
# cross suite on its aarch64 (ARMv8.0) target.
# file: sys/arch/arm64/include/mplock.h
# mdarch: arm64
# cross: aarch64
# backend: mlock
# tests: swap
s/^\([[:space:]]*\)"1:	ldaxr	%0, \[%2\]\\n"$/\1"1:	ldr	%0, [%2]\\n"/
s/^\([[:space:]]*\)"	stlxr	%w1, %3, \[%2\]\\n"$/\1"	str	%3, [%2]\\n	mov	%w1, #0\\n"/
