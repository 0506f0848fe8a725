/*
 * Userland shim, ThreadSanitizer build: the lock's ordering primitives
 * as C11 atomic accesses.  TSan does not model standalone fences, so the
 * MI fallbacks (membar_*() around plain accesses) would look racy to it;
 * here each primitive carries its ordering on the access itself, which
 * is the role kern_mplock.h gives it:
 *  - mpl_load: acquire load (it subsumes mpl_acquire(), which is empty);
 *  - mpl_load_ptr: acquire load.  In the kernel it has no ordering of
 *    its own: the MCS owner's read of the link is ordered before its
 *    hand-off by that store's release, which TSan does not see;
 *  - mpl_store_ptr: relaxed store, as in the kernel;
 *  - mpl_store_ptr_release: release store (the MCS link);
 *  - mpl_store_release: release store;
 *  - mpl_swap_ptr: acquire+release exchange;
 *  - mpl_cas_ptr_release: compare-and-swap, release when it stores;
 *  - mpl_spin_wait: CPU_BUSY_CYCLE(), as the MI version.
 * MPL_TSAN_STORE_ORDER, MPL_TSAN_LOAD_ORDER, MPL_TSAN_CAS_ORDER and
 * MPL_TSAN_PTR_ORDER exist to seed a too-weak ordering (tools/verify.sh builds with
 * __ATOMIC_RELAXED and requires TSan to report the race).
 */
#ifndef _MACHINE_MPLOCK_H_
#define _MACHINE_MPLOCK_H_

#define __USE_MI_MPLOCK

#endif /* _MACHINE_MPLOCK_H_ */

/* Second inclusion, from sys/kern/kern_mplock.h. */
#if defined(_KERN_MPLOCK_H_) && !defined(_SHIM_TSAN_MPLOCK_PRIMS_)
#define _SHIM_TSAN_MPLOCK_PRIMS_

#ifndef MPL_TSAN_STORE_ORDER
#define MPL_TSAN_STORE_ORDER	__ATOMIC_RELEASE
#endif
#ifndef MPL_TSAN_LOAD_ORDER
#define MPL_TSAN_LOAD_ORDER	__ATOMIC_ACQUIRE
#endif
#ifndef MPL_TSAN_CAS_ORDER
#define MPL_TSAN_CAS_ORDER	__ATOMIC_RELEASE
#endif
#ifndef MPL_TSAN_PTR_ORDER
#define MPL_TSAN_PTR_ORDER	__ATOMIC_RELEASE
#endif

#define mpl_load(p)							\
	__atomic_load_n((volatile u_int *)(p), MPL_TSAN_LOAD_ORDER)
#define mpl_store_release(p, v)						\
	__atomic_store_n((volatile u_int *)(p), (v), MPL_TSAN_STORE_ORDER)
#define mpl_load_ptr(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define mpl_store_ptr(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define mpl_store_ptr_release(p, v)					\
	__atomic_store_n((p), (v), MPL_TSAN_PTR_ORDER)
#define mpl_swap_ptr(p, v)						\
	__atomic_exchange_n((void **)(p), (void *)(v), __ATOMIC_ACQ_REL)
#define mpl_cas_ptr_release(p, o, n) __extension__ ({			\
	void *_mpl_o = (void *)(o);					\
	__atomic_compare_exchange_n((void **)(p), &_mpl_o, (void *)(n),	\
	    0, MPL_TSAN_CAS_ORDER, __ATOMIC_RELAXED);			\
	_mpl_o;								\
})
#define mpl_acquire()		do { } while (0)
#define mpl_spin_wait(p, v)	CPU_BUSY_CYCLE()

#endif /* _KERN_MPLOCK_H_ && !_SHIM_TSAN_MPLOCK_PRIMS_ */
