/*
 * Userland shim: atomic(9) and membar_sync(9) on the C11 __atomic
 * builtins, for the regress, its TSan build (which instruments them)
 * and, through tools/lib/kcompile-port.h, the kernel compiles of other
 * machines.  _ATOMIC_ORDER orders the read-modify-write operations:
 * sequentially consistent unless set before (kernel compiles: relaxed,
 * as weak as atomic(9) allows).  The swap acquires only, as the
 * generic one of arm64, riscv64 and alpha does.  Barriers defined
 * before (a port's instructions) take the place of the C11 fences.
 */
#ifndef _SHIM_SYS_ATOMIC_H_
#define _SHIM_SYS_ATOMIC_H_

#ifndef _ATOMIC_ORDER
#define _ATOMIC_ORDER	__ATOMIC_SEQ_CST
#endif

#define _shim_cas(p, e, n) __extension__ ({				\
	__typeof__(*(p) + 0) _e = (e);	/* no volatile */		\
	__atomic_compare_exchange_n((p), &_e, (n), 0, _ATOMIC_ORDER,	\
	    _ATOMIC_ORDER);						\
	_e;								\
})
#define atomic_cas_uint(p, e, n)	_shim_cas((p), (e), (n))
#define atomic_cas_ulong(p, e, n)	_shim_cas((p), (e), (n))
#define atomic_cas_ptr(p, e, n)						\
	_shim_cas((void **)(p), (void *)(e), (void *)(n))

#define atomic_swap_uint(p, v)	__atomic_exchange_n((p), (v), __ATOMIC_ACQUIRE)
#define atomic_swap_ptr(p, v)						\
	__atomic_exchange_n((void **)(p), (void *)(v), __ATOMIC_ACQUIRE)

#define atomic_inc_int_nv(p)	__atomic_add_fetch((p), 1, _ATOMIC_ORDER)
#define atomic_inc_int(p)	((void)atomic_inc_int_nv(p))

#ifndef membar_enter
#define membar_enter()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define membar_exit()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define membar_producer()	__atomic_thread_fence(__ATOMIC_RELEASE)
#define membar_consumer()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define membar_sync()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
#if _ATOMIC_ORDER == __ATOMIC_RELAXED
#define membar_enter_after_atomic()	membar_enter()
#define membar_exit_before_atomic()	membar_exit()
#else
#define membar_enter_after_atomic()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#define membar_exit_before_atomic()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif

/* sys/atomic.h's: a load through a pointer just loaded is ordered. */
#ifndef membar_datadep_consumer
#define membar_datadep_consumer()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif

#endif /* _SHIM_SYS_ATOMIC_H_ */
