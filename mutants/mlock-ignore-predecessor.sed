# The CPU queues but then waits on the never-armed first variable instead
# of its predecessor's, so it does not wait at all.
# file: sys/kern/kern_mplock_mlock.h
# backend: mlock
# tests: mutex
s/c->mplc_wait = mpl_swap_ptr(&mpl->mpl_be.mlb_tail, (void \*)mine);/(void)mpl_swap_ptr(\&mpl->mpl_be.mlb_tail, (void *)mine); c->mplc_wait = \&mpl->mpl_be.mlb_free;/
