/*	$OpenBSD$	*/

/* public domain */

#ifndef _MACHINE_MPLOCK_H_
#define _MACHINE_MPLOCK_H_

/* riscv64 uses the MI kernel lock (sys/sys/mplock.h). */
#define __USE_MI_MPLOCK

#endif /* !_MACHINE_MPLOCK_H */

/*
 * The kernel lock's ordering primitives (sys/kern/kern_mplock.h, which
 * includes this file a second time).
 *
 * RVWMO, weakly ordered.  The MI fallbacks surround the swap (the
 * generic amoswap.aq) with fence rw,w and fence w,rw and end the wait
 * with fence rw,rw.  Here the swap orders itself (aq and rl bits), the
 * releasing store needs only the fence for earlier accesses, and the
 * wait ends with the fence for earlier loads.  The MI spin step is
 * already right: CPU_BUSY_CYCLE() is the Zihintpause pause, a hint
 * that executes as a no-op fence on harts without the extension.
 */
#if defined(_KERN_MPLOCK_H_) && !defined(_MACHINE_MPLOCK_MD_)
#define _MACHINE_MPLOCK_MD_

/*
 * amoswap with aq and rl set: no earlier access is ordered after it
 * (release: the store that arms our lock variable is visible before
 * the new tail) and no later access before it (acquire: the reads of
 * the predecessor's variable come after the old tail was read).
 */
static inline void *
mpl_md_swap_ptr(volatile void *p, void *v)
{
	void *o;

	__asm volatile("amoswap.d.aqrl %0, %2, (%1)"
	    : "=&r" (o) : "r" (p), "r" (v) : "memory");
	return (o);
}

/*
 * Compare and swap that releases when it stores: lr.d/sc.d.rl, the rl
 * orders every earlier access before the store.  A failed compare
 * stores nothing and needs no ordering.
 */
static inline void *
mpl_md_cas_ptr_release(volatile void *p, void *o, void *n)
{
	void *r;
	u_long fail;

	__asm volatile(
	    "1:	lr.d	%0, (%2)\n"
	    "	bne	%0, %3, 2f\n"
	    "	sc.d.rl	%1, %4, (%2)\n"
	    "	bnez	%1, 1b\n"
	    "2:\n"
	    : "=&r" (r), "=&r" (fail) : "r" (p), "r" (o), "r" (n)
	    : "memory");
	return (r);
}

/* fence rw,w: every earlier load and store before the store. */
static inline void
mpl_md_store_release(volatile u_int *p, u_int v)
{
	__asm volatile("fence rw,w" : : : "memory");
	*p = v;
}

/* The same for a pointer. */
static inline void
mpl_md_store_ptr_release(volatile void *p, void *v)
{
	__asm volatile("fence rw,w" : : : "memory");
	*(void *volatile *)p = v;
}

#define mpl_swap_ptr(p, v)	mpl_md_swap_ptr((p), (v))
#define mpl_cas_ptr_release(p, o, n) mpl_md_cas_ptr_release((p), (o), (n))
#define mpl_store_release(p, v)	mpl_md_store_release((p), (v))
#define mpl_store_ptr_release(p, v) mpl_md_store_ptr_release((p), (v))
/* fence r,rw: the loads that saw the lock before every later access. */
#define mpl_acquire()		__asm volatile("fence r,rw" : : : "memory")

#endif /* _KERN_MPLOCK_H_ && !_MACHINE_MPLOCK_MD_ */
