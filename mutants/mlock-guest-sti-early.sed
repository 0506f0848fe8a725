# Guest mode: interrupts are enabled before the halt instead of by it,
# so a kick that came since the mark is taken (a no-op) before the halt
# begins, and does not end it.
# file: sys/kern/kern_mplock_mlock.h
# backend: mlock
# tests: halt
s/^\(	*\)mpl_halt();$/\1mpl_halt_cancel();\
\1mpl_halt();/
