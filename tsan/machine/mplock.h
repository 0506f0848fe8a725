/*
 * Userland shim, ThreadSanitizer build: the lock's primitives as C11
 * atomic accesses, each with its ordering on the access, since TSan
 * does not model standalone fences (the MI fallbacks' membar_*()).
 * mpl_load_ptr acquires, which the kernel's need not: there the MCS
 * owner's read of the link is ordered by its hand-off's release, which
 * TSan does not see.  MPL_TSAN_*_ORDER seed a too-weak ordering
 * (tools/lib/verify.sh builds them relaxed and wants a race reported).
 */
#ifndef _MACHINE_MPLOCK_H_
#define _MACHINE_MPLOCK_H_

#define __USE_MI_MPLOCK

#endif /* _MACHINE_MPLOCK_H_ */

/* Second inclusion, from kern_mplock.h. */
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
