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
 * amd64 is TSO: a load is not reordered with older loads, a store is not
 * reordered with older loads or stores, and a locked instruction orders
 * everything.  So every plain load is an acquire, every plain store a
 * release, and only the compiler has to be held back.  The MI fallbacks
 * pay an mfence after the swap (membar_enter) and another after the
 * wait (membar_sync); neither is needed.  The MI spin step is already
 * right: CPU_BUSY_CYCLE() is pause.  So is the MI compare-and-swap:
 * its membar_exit() is only a compiler barrier here, and lock cmpxchg
 * orders everything.
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
	__asm volatile("xchgq %0, %1"
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

#if defined(_KERNEL) && defined(MULTIPROCESSOR)
/*
 * Halted waits (the M-lock's guest mode): the idle loop's way to wait,
 * and the NOP IPI that cpu_unidle() sends to end it.
 */
#include <machine/intr.h>

#define MPL_HALT

#define mpl_hypervisor()	((cpu_ecxfeature & CPUIDECX_HV) != 0)
#define mpl_cycles()		rdtsc()

static inline int
mpl_md_halt_begin(void)
{
	if ((read_rflags() & PSL_I) == 0)
		return (0);
	__asm volatile("cli" : : : "memory");
	return (1);
}

#define mpl_halt_begin()	mpl_md_halt_begin()
/* An interrupt pending since the cli is taken in the hlt and ends it. */
#define mpl_halt()		__asm volatile("sti; hlt" : : : "memory")
#define mpl_halt_cancel()	__asm volatile("sti" : : : "memory")
#define mpl_kick(i)		x86_send_ipi(cpu_info[(i)], X86_IPI_NOP)
#endif /* _KERNEL && MULTIPROCESSOR */

#endif /* _KERN_MPLOCK_H_ && !_MACHINE_MPLOCK_MD_ */
