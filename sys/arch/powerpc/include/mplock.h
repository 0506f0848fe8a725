/*	$OpenBSD$	*/

/* public domain */

#ifndef _MACHINE_MPLOCK_H_
#define _MACHINE_MPLOCK_H_

/* powerpc uses the MI kernel lock (sys/sys/mplock.h). */
#define __USE_MI_MPLOCK
/*
 * 128, the line of the G5 (PowerPC 970), which macppc also runs on: with
 * the G3/G4's 32 four CPUs' cells would share one line there.  The G3
 * and G4 only give up space.
 */
#define __MPL_CACHELINE	128

#endif /* !_MACHINE_MPLOCK_H */

/*
 * The kernel lock's ordering primitives (sys/kern/kern_mplock.h, which
 * includes this file a second time).
 *
 * Weakly ordered.  The MI fallbacks use sync (membar_exit, membar_sync)
 * where only release or acquire ordering is needed; lwsync orders every
 * pair of accesses except an earlier store with a later load, which is
 * all a release or an acquire needs.  The G5 (970) executes lwsync as
 * the lighter barrier; on the G3 and G4, which predate it, the same
 * encoding executes as sync, so it is never worse than the fallback.
 * No SMT on these CPUs, so the MI spin step (CPU_BUSY_CYCLE()) stays.
 */
#if defined(_KERN_MPLOCK_H_) && !defined(_MACHINE_MPLOCK_MD_)
#define _MACHINE_MPLOCK_MD_

/*
 * lwsync before the lwarx/stwcx. loop: every earlier load and store
 * (the store that arms our lock variable) before the store of the new
 * tail (release).  After the loop a branch on the loaded value (cmpw
 * with itself, never taken) and isync: no later instruction starts
 * before the old tail was read, so every later load (the reads of the
 * predecessor's variable) comes after it (acquire).  The loop's own
 * branch does not do: it depends on the stwcx. result, not on the
 * load, and the architecture lets a later load be satisfied before
 * the lwarx's.  No fence: a later store may still be seen before an
 * earlier one is (kern_mplock.h).
 */
static inline void *
mpl_md_swap_ptr(volatile void *p, void *v)
{
	void *o;

	__asm volatile(
	    "	lwsync\n"
	    "1:	lwarx	%0, 0, %1\n"
	    "	stwcx.	%2, 0, %1\n"
	    "	bne-	1b\n"
	    "	cmpw	%0, %0\n"
	    "	bne-	2f\n"
	    "2:	isync\n"
	    : "=&r" (o) : "r" (p), "r" (v) : "cr0", "memory");
	return (o);
}

/*
 * Compare and swap that releases when it stores: lwsync, then the
 * lwarx/stwcx. loop.  No acquire side is needed.
 */
static inline void *
mpl_md_cas_ptr_release(volatile void *p, void *o, void *n)
{
	void *r;

	__asm volatile(
	    "	lwsync\n"
	    "1:	lwarx	%0, 0, %1\n"
	    "	cmpw	%0, %2\n"
	    "	bne-	2f\n"
	    "	stwcx.	%3, 0, %1\n"
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

#define mpl_swap_ptr(p, v)	mpl_md_swap_ptr((p), (v))
#define mpl_cas_ptr_release(p, o, n) mpl_md_cas_ptr_release((p), (o), (n))
#define mpl_store_release(p, v)	mpl_md_store_release((p), (v))
#define mpl_store_ptr_release(p, v) mpl_md_store_ptr_release((p), (v))
/*
 * lwsync: the loads that saw the lock become ours before every later
 * load and store.  The wait's branch followed by isync would do as
 * well, but only if the compiler kept that branch next to it.
 */
#define mpl_acquire()		__asm volatile("lwsync" : : : "memory")

#endif /* _KERN_MPLOCK_H_ && !_MACHINE_MPLOCK_MD_ */
