# The hand-off serves the ticket after next: the next waiter hangs.
# file: sys/kern/kern_mplock_ticket.h
# backend: ticket
# tests: mutex
s/c->mplc_want + 1);/c->mplc_want + 2);/
