# The MCS enqueue marks its node busy only after linking it behind the
# predecessor, which may have handed off in between: the hand-off is
# overwritten and this CPU waits forever.  The window is two stores
# wide; a microsecond between them (a slow or preempted virtual CPU)
# makes each run hit it, where without it a run of mutex could miss.
# file: sys/kern/kern_mplock_mcs.h
# backend: mcs
# tests: mutex
/^	me->mmn_locked = 1;$/d
s/^		mpl_store_ptr_release(&pred->mmn_next, me);$/		{ mpl_store_ptr_release(\&pred->mmn_next, me); delay(1); me->mmn_locked = 1; }/
