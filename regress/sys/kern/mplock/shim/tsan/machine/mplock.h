/*
 * Userland shim, ThreadSanitizer build: the lock's ordering primitives
 * as C11 atomic accesses.  TSan does not model standalone fences, so the
 * MI fallbacks (membar_*() around plain accesses) would look racy to it;
 * here each primitive carries its ordering on the access itself, which
 * is the role kern_mplock.h gives it:
 *  - mpl_load: acquire load (it subsumes mpl_acquire(), which is empty);
 *  - mpl_store_release: release store;
 *  - mpl_swap_ptr: acquire+release exchange.
 * MPL_TSAN_STORE_ORDER and MPL_TSAN_LOAD_ORDER exist to seed a too-weak
 * ordering (tools/verify.sh builds with __ATOMIC_RELAXED and requires
 * TSan to report the race).
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

#define mpl_load(p)							\
	__atomic_load_n((volatile u_int *)(p), MPL_TSAN_LOAD_ORDER)
#define mpl_store_release(p, v)						\
	__atomic_store_n((volatile u_int *)(p), (v), MPL_TSAN_STORE_ORDER)
#define mpl_swap_ptr(p, v)						\
	__atomic_exchange_n((void **)(p), (void *)(v), __ATOMIC_ACQ_REL)
#define mpl_acquire()		do { } while (0)

#endif /* _KERN_MPLOCK_H_ && !_SHIM_TSAN_MPLOCK_PRIMS_ */
