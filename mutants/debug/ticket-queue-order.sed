# The ticket backend's queue walk looks for the ticket after next: the
# spin-out report no longer lists the waiters in queue order.
# file: sys/kern/kern_mplock_ticket.h
# backend: ticket
# tests: report
s/return (n->mplc_want == c->mplc_want + 1);/return (n->mplc_want == c->mplc_want + 2);/
