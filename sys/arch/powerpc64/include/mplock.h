/*	$OpenBSD$	*/

/* public domain */

#ifndef _MACHINE_MPLOCK_H_
#define _MACHINE_MPLOCK_H_

/* powerpc64 uses the MI kernel lock (sys/sys/mplock.h). */
#define __USE_MI_MPLOCK
#define __MPL_CACHELINE	128	/* POWER's cache line */

#endif /* !_MACHINE_MPLOCK_H */

/*
 * The kernel lock's ordering primitives (sys/kern/kern_mplock.h, which
 * includes this file a second time).
 *
 * Power is weakly ordered.  The MI fallbacks use sync (membar_exit,
 * membar_sync) where only release or acquire ordering is needed, and
 * sync waits for every earlier store to reach all CPUs.  lwsync orders
 * every pair of accesses except an earlier store with a later load,
 * which is all a release or an acquire needs.  While spinning, the
 * hardware thread lowers its SMT priority so its siblings get the core.
 */
#if defined(_KERN_MPLOCK_H_) && !defined(_MACHINE_MPLOCK_MD_)
#define _MACHINE_MPLOCK_MD_

/*
 * lwsync before the ldarx/stdcx. loop: every earlier load and store
 * (the store that arms our lock variable) before the store of the new
 * tail (release).  After the loop a branch on the loaded value (cmpd
 * with itself, never taken) and isync: no later instruction starts
 * before the old tail was read, so every later load (the reads of the
 * predecessor's variable) comes after it (acquire).  The loop's own
 * branch does not do: it depends on the stdcx. result, not on the
 * load, and the architecture lets a later load be satisfied before
 * the ldarx's.  No fence: a later store may still be seen before an
 * earlier one is (kern_mplock.h).
 */
static inline void *
mpl_md_swap_ptr(volatile void *p, void *v)
{
	void *o;

	__asm volatile(
	    "	lwsync\n"
	    "1:	ldarx	%0, 0, %1\n"
	    "	stdcx.	%2, 0, %1\n"
	    "	bne-	1b\n"
	    "	cmpd	%0, %0\n"
	    "	bne-	2f\n"
	    "2:	isync\n"
	    : "=&r" (o) : "r" (p), "r" (v) : "cr0", "memory");
	return (o);
}

/*
 * Compare and swap that releases when it stores: lwsync, then the
 * ldarx/stdcx. loop.  No acquire side is needed.
 */
static inline void *
mpl_md_cas_ptr_release(volatile void *p, void *o, void *n)
{
	void *r;

	__asm volatile(
	    "	lwsync\n"
	    "1:	ldarx	%0, 0, %1\n"
	    "	cmpd	%0, %2\n"
	    "	bne-	2f\n"
	    "	stdcx.	%3, 0, %1\n"
	    "	bne-	1b\n"
	    "2:\n"
	    : "=&r" (r) : "r" (p), "r" (o), "r" (n) : "cr0", "memory");
	return (r);
}

/* lwsync: every earlier load and store before the store. */
static inline void
mpl_md_store_release(volatile u_int *p, u_int v)
{
	__asm volatile("lwsync" : : : "memory");
	*p = v;
}

/* The same for a pointer. */
static inline void
mpl_md_store_ptr_release(volatile void *p, void *v)
{
	__asm volatile("lwsync" : : : "memory");
	*(void *volatile *)p = v;
}

/*
 * lwsync: the loads that saw the lock become ours before every later
 * load and store.  The wait's branch followed by isync would do as
 * well, but only if the compiler kept that branch next to it.  Back to
 * medium SMT priority (or 2,2,2) for the critical section; this runs
 * after every wait, and is a no-op if there was none.
 */
#define mpl_acquire()							\
	__asm volatile("or 2,2,2\n\tlwsync" : : : "memory")

/* One step of waiting at low SMT priority (or 1,1,1). */
#define mpl_spin_wait(p, v) do {					\
	__asm volatile("or 1,1,1" : : : "memory");			\
	CPU_BUSY_CYCLE();						\
} while (0)

#define mpl_swap_ptr(p, v)	mpl_md_swap_ptr((p), (v))
#define mpl_cas_ptr_release(p, o, n) mpl_md_cas_ptr_release((p), (o), (n))
#define mpl_store_release(p, v)	mpl_md_store_release((p), (v))
#define mpl_store_ptr_release(p, v) mpl_md_store_ptr_release((p), (v))

#endif /* _KERN_MPLOCK_H_ && !_MACHINE_MPLOCK_MD_ */
