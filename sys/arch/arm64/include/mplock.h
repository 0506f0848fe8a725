/*	$OpenBSD$	*/

/* public domain */

#ifndef _MACHINE_MPLOCK_H_
#define _MACHINE_MPLOCK_H_

/* arm64 uses the MI kernel lock (sys/sys/mplock.h). */
#define __USE_MI_MPLOCK
#define __MPL_CACHELINE	128	/* Apple M1/M2 cores have 128-byte lines */

#endif /* !_MACHINE_MPLOCK_H */

/*
 * The kernel lock's ordering primitives (sys/kern/kern_mplock.h, which
 * includes this file a second time).
 *
 * arm64 is weakly ordered.  The MI fallbacks put a dmb sy on each side
 * of the swap (whose generic version only acquires) and another after
 * the wait.  Here the swap and the releasing stores carry their own
 * ordering, the wait ends with a load-only barrier, and a waiting CPU
 * sleeps in wfe until the word it waits on is written.  dmb ish rather
 * than sy: the ordering is between CPUs, which all share the inner
 * shareable domain.
 */
#if defined(_KERN_MPLOCK_H_) && !defined(_MACHINE_MPLOCK_MD_)
#define _MACHINE_MPLOCK_MD_

/*
 * Swap with a release half and an acquire half, and no more: what
 * kern_mplock.h promises.  With LSE, when the kernel is built for
 * ARMv8.1 or later (__ARM_FEATURE_ATOMICS), one swpal.  Otherwise an
 * ldaxr/stlxr loop: stlxr is a release, so every earlier load and
 * store (the store that arms our lock variable) is observed before
 * the new tail is; ldaxr is an acquire, so every later access (the
 * reads of the predecessor's variable) comes after the old tail was
 * read.  Nothing orders an earlier access with a later one: a later
 * store may be observed before the stlxr, and so before an earlier
 * store.  A caller that needs that order releases the later store
 * (MCS's link: mpl_store_ptr_release).  A dmb after the loop would
 * make every swap pay for the one caller that needs it.
 */
static inline void *
mpl_md_swap_ptr(volatile void *p, void *v)
{
	void *o;
#ifdef __ARM_FEATURE_ATOMICS
	__asm volatile("swpal %2, %0, [%1]"
	    : "=&r" (o) : "r" (p), "r" (v) : "memory");
#else
	u_int fail;

	__asm volatile(
	    "1:	ldaxr	%0, [%2]\n"
	    "	stlxr	%w1, %3, [%2]\n"
	    "	cbnz	%w1, 1b\n"
	    : "=&r" (o), "=&r" (fail) : "r" (p), "r" (v) : "memory");
#endif
	return (o);
}

/*
 * Compare and swap that releases when it stores (MCS's hand-off to an
 * empty queue).  With LSE one casl; otherwise an ldxr/stlxr loop whose
 * stlxr is the release.  A failed compare stores nothing and needs no
 * ordering: the caller then hands off with mpl_store_release().
 */
static inline void *
mpl_md_cas_ptr_release(volatile void *p, void *o, void *n)
{
#ifdef __ARM_FEATURE_ATOMICS
	__asm volatile("casl %0, %2, [%1]"
	    : "+&r" (o) : "r" (p), "r" (n) : "memory");
	return (o);
#else
	void *r;
	u_int fail;

	__asm volatile(
	    "1:	ldxr	%0, [%2]\n"
	    "	cmp	%0, %3\n"
	    "	b.ne	2f\n"
	    "	stlxr	%w1, %4, [%2]\n"
	    "	cbnz	%w1, 1b\n"
	    "2:\n"
	    : "=&r" (r), "=&r" (fail) : "r" (p), "r" (o), "r" (n)
	    : "cc", "memory");
	return (r);
#endif
}

/* stlr: every earlier load and store is observed before this store. */
static inline void
mpl_md_store_release(volatile u_int *p, u_int v)
{
	__asm volatile("stlr %w1, [%0]" : : "r" (p), "r" (v) : "memory");
}

/* The same for a pointer: stlr of the whole register. */
static inline void
mpl_md_store_ptr_release(volatile void *p, void *v)
{
	__asm volatile("stlr %1, [%0]" : : "r" (p), "r" (v) : "memory");
}

#define mpl_swap_ptr(p, v)	mpl_md_swap_ptr((p), (v))
#define mpl_cas_ptr_release(p, o, n) mpl_md_cas_ptr_release((p), (o), (n))
#define mpl_store_release(p, v)	mpl_md_store_release((p), (v))
#define mpl_store_ptr_release(p, v) mpl_md_store_ptr_release((p), (v))
/*
 * dmb ishld orders the loads that saw the lock become ours before every
 * later load and store: an acquire, without the store-to-load ordering
 * that dmb sy adds.
 */
#define mpl_acquire()		__asm volatile("dmb ishld" : : : "memory")

#ifndef MP_LOCKDEBUG
/*
 * One step of waiting: ldxr marks the word's line in the exclusive
 * monitor; if the word still holds v, wfe sleeps until an event.  A
 * store to the line by another CPU (the releasing store) clears the
 * monitor, and that is an event, also when it lands between the ldxr
 * and the wfe, which then returns at once: no wake-up is lost, and no
 * timer event stream is needed.  Other events (an interrupt, a store
 * to the rest of the line) only cost a re-read.  CPU_BUSY_CYCLE() (a
 * yield hint, free after a wfe) ends the step as it ends the MI one.
 *
 * Not with MP_LOCKDEBUG: its spin-out counts steps, and a step may
 * last until the next interrupt here, so the MI step is kept.
 */
static inline void
mpl_md_spin_wait(volatile u_int *p, u_int v)
{
	u_int w;

	__asm volatile(
	    "	ldxr	%w0, [%1]\n"
	    "	cmp	%w0, %w2\n"
	    "	b.ne	1f\n"
	    "	wfe\n"
	    "1:\n"
	    : "=&r" (w) : "r" (p), "r" (v) : "cc", "memory");
	CPU_BUSY_CYCLE();
}

#define mpl_spin_wait(p, v)	mpl_md_spin_wait((p), (v))
#endif /* !MP_LOCKDEBUG */

#endif /* _KERN_MPLOCK_H_ && !_MACHINE_MPLOCK_MD_ */
