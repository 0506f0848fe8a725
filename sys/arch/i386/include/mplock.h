/*	$OpenBSD$	*/

/* public domain */

#ifndef _MACHINE_MPLOCK_H_
#define _MACHINE_MPLOCK_H_

#define __USE_MI_MPLOCK

#endif /* !_MACHINE_MPLOCK_H */

/*
 * The kernel lock's ordering primitives (sys/kern/kern_mplock.h, which
 * includes this file a second time).
 *
 * i386 is TSO: a load is not reordered with older loads, a store is not
 * reordered with older loads or stores, and a locked instruction orders
 * everything.  So every plain load is an acquire, every plain store a
 * release, and only the compiler has to be held back.  The MI fallbacks
 * pay a locked add to the stack after the swap (membar_enter) and
 * another after the wait (membar_sync); neither is needed.  The MI
 * spin step is already right: CPU_BUSY_CYCLE() is pause.  So is the
 * MI compare-and-swap: its membar_exit() is only a compiler barrier
 * here, and lock cmpxchg orders everything.
 */
#if defined(_KERN_MPLOCK_H_) && !defined(_MACHINE_MPLOCK_MD_)
#define _MACHINE_MPLOCK_MD_

/*
 * xchg with a memory operand is always locked: a full barrier, so
 * both release (the store of our lock variable is visible before the
 * swap) and acquire (later loads come after it).
 */
static inline void *
mpl_md_swap_ptr(volatile void *p, void *v)
{
	__asm volatile("xchgl %0, %1"
	    : "+r" (v), "+m" (*(void *volatile *)p) : : "memory");
	return (v);
}

/* TSO: the store cannot pass older loads or stores; stop the compiler. */
static inline void
mpl_md_store_release(volatile u_int *p, u_int v)
{
	__asm volatile("" : : : "memory");
	*p = v;
}

/* The same for a pointer. */
static inline void
mpl_md_store_ptr_release(volatile void *p, void *v)
{
	__asm volatile("" : : : "memory");
	*(void *volatile *)p = v;
}

#define mpl_swap_ptr(p, v)	mpl_md_swap_ptr((p), (v))
#define mpl_store_release(p, v)	mpl_md_store_release((p), (v))
#define mpl_store_ptr_release(p, v) mpl_md_store_ptr_release((p), (v))
/* TSO: later loads and stores cannot pass the loads that saw the lock. */
#define mpl_acquire()		__asm volatile("" : : : "memory")

#endif /* _KERN_MPLOCK_H_ && !_MACHINE_MPLOCK_MD_ */
