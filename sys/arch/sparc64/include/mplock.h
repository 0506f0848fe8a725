/*	$OpenBSD$	*/

/* public domain */

#ifndef _MACHINE_MPLOCK_H_
#define _MACHINE_MPLOCK_H_

/* sparc64 uses the MI kernel lock (sys/sys/mplock.h). */
#define __USE_MI_MPLOCK

#endif /* !_MACHINE_MPLOCK_H */

/*
 * The kernel lock's ordering primitives (sys/kern/kern_mplock.h, which
 * includes this file a second time).
 *
 * Only the barriers differ from the MI fallbacks; the swap stays the
 * port's atomic_swap_ptr() (a casx loop) and the spin step stays
 * CPU_BUSY_CYCLE().  The fallbacks end the wait with membar_sync(),
 * membar #Sync, which also waits for every outstanding store, and order
 * the swap's store before later loads (membar_enter(), #StoreLoad),
 * where an acquire needs only #LoadLoad and #LoadStore.  The releasing
 * store and the compare-and-swap stay the fallbacks: the membar_exit()
 * in front of each is the release they need.  The masks below are
 * what each primitive needs in RMO, the weakest memory model, so they
 * hold whichever model the kernel runs in.
 */
#if defined(_KERN_MPLOCK_H_) && !defined(_MACHINE_MPLOCK_MD_)
#define _MACHINE_MPLOCK_MD_

/*
 * #LoadStore|#StoreStore before the casx: every earlier load and store
 * (the store that arms our lock variable) before the swap's store
 * (release).  #LoadLoad|#LoadStore after it: the swap's load (casx is a
 * load and a store) before every later access, so the reads of the
 * predecessor's variable come after the old tail was read (acquire).
 */
static inline void *
mpl_md_swap_ptr(volatile void *p, void *v)
{
	void *o;

	__asm volatile("membar #LoadStore|#StoreStore" : : : "memory");
	o = atomic_swap_ptr(p, v);
	__asm volatile("membar #LoadLoad|#LoadStore" : : : "memory");
	return (o);
}

#define mpl_swap_ptr(p, v)	mpl_md_swap_ptr((p), (v))
/* The loads that saw the lock become ours before every later access. */
#define mpl_acquire()							\
	__asm volatile("membar #LoadLoad|#LoadStore" : : : "memory")

#endif /* _KERN_MPLOCK_H_ && !_MACHINE_MPLOCK_MD_ */
