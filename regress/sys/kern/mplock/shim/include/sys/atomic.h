/*
 * Userland shim: atomic(9) and membar_sync(9) on the C11 __atomic
 * builtins, for the regress, its TSan build (which instruments them)
 * and the kernel compiles of other machines (tools/lib/kcompile.sh:
 * _KERNEL, KC_<MACHINE>).  _ATOMIC_ORDER orders the read-modify-write
 * operations: sequentially consistent, but relaxed in a kernel compile,
 * as weak as atomic(9) allows.  The swap acquires only, as the generic
 * one of arm64, riscv64 and alpha does.
 */
#ifndef _SHIM_SYS_ATOMIC_H_
#define _SHIM_SYS_ATOMIC_H_

#ifdef _KERNEL
#define _ATOMIC_ORDER	__ATOMIC_RELAXED
#else
#define _ATOMIC_ORDER	__ATOMIC_SEQ_CST
#endif

#define _shim_cas(p, e, n) __extension__ ({				\
	__typeof__(*(p) + 0) _e = (e);	/* no volatile */		\
	__atomic_compare_exchange_n((p), &_e, (n), 0, _ATOMIC_ORDER,	\
	    _ATOMIC_ORDER);						\
	_e;								\
})
#define atomic_cas_uint(p, e, n)	_shim_cas((p), (e), (n))
#define atomic_cas_ptr(p, e, n)						\
	_shim_cas((void **)(p), (void *)(e), (void *)(n))

#define atomic_swap_uint(p, v)	__atomic_exchange_n((p), (v), __ATOMIC_ACQUIRE)
#define atomic_swap_ptr(p, v)						\
	__atomic_exchange_n((void **)(p), (void *)(v), __ATOMIC_ACQUIRE)

#define atomic_inc_int_nv(p)	__atomic_add_fetch((p), 1, _ATOMIC_ORDER)
#define atomic_inc_int(p)	((void)atomic_inc_int_nv(p))

/*
 * A kernel compile has each port's barrier instructions, so that the MI
 * fallbacks assemble as in a kernel; alpha and luna88k, compiled with a
 * stand-in target, the builtin full barrier.
 */
#define __membar(i)	__asm volatile(i : : : "memory")
#if defined(KC_ARM64) || defined(KC_ARMV7)
#define membar_enter()		__membar("dmb sy")
#define membar_exit()		__membar("dmb sy")
#define membar_producer()	__membar("dmb st")
#define membar_consumer()	__membar("dmb sy")
#define membar_sync()		__membar("dmb sy")
#elif defined(KC_RISCV64)
#define membar_enter()		__membar("fence w,rw")
#define membar_exit()		__membar("fence rw,w")
#define membar_producer()	__membar("fence w,w")
#define membar_consumer()	__membar("fence r,r")
#define membar_sync()		__membar("fence rw,rw")
#elif defined(KC_POWERPC64) || defined(KC_MACPPC)
#define membar_enter()		__membar("isync")
#define membar_exit()		__membar("sync")
#define membar_producer()	__membar("sync")
#define membar_consumer()	__membar("isync")
#define membar_sync()		__membar("sync")
#elif defined(KC_SPARC64)
#define membar_enter()		__membar("membar #StoreLoad|#StoreStore")
#define membar_exit()		__membar("membar #LoadStore|#StoreStore")
#define membar_producer()	__membar("membar #StoreStore")
#define membar_consumer()	__membar("membar #LoadLoad")
#define membar_sync()		__membar("membar #Sync")
#elif defined(KC_OCTEON) || defined(KC_LOONGSON)
#define membar_enter()		__membar("sync")
#define membar_exit()		__membar("sync")
#define membar_producer()	__membar("sync")
#define membar_consumer()	__membar("sync")
#define membar_sync()		__membar("sync")
#elif defined(_KERNEL)
#define membar_enter()		__sync_synchronize()
#define membar_exit()		__sync_synchronize()
#define membar_producer()	__sync_synchronize()
#define membar_consumer()	__sync_synchronize()
#define membar_sync()		__sync_synchronize()
#else
#define membar_enter()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define membar_exit()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define membar_producer()	__atomic_thread_fence(__ATOMIC_RELEASE)
#define membar_consumer()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define membar_sync()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
#if _ATOMIC_ORDER == __ATOMIC_RELAXED
#define membar_enter_after_atomic()	membar_enter()
#else
#define membar_enter_after_atomic()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif

/* sys/atomic.h's: a load through a pointer just loaded is ordered. */
#define membar_datadep_consumer()	__atomic_signal_fence(__ATOMIC_SEQ_CST)

#endif /* _SHIM_SYS_ATOMIC_H_ */
