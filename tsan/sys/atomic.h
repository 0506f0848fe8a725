/*
 * Userland shim, ThreadSanitizer build: atomic(9) and membar_sync(9) on
 * the C11 __atomic builtins, which TSan instruments.  The orderings are
 * those of the normal shim (its include/sys/atomic.h in
 * regress/sys/kern/mplock/shim): swap acquire only, the others
 * sequentially consistent.  TSan ignores the membar_*() fences; the lock
 * does not use them in this build (see machine/mplock.h here).
 */
#ifndef _SHIM_SYS_ATOMIC_H_
#define _SHIM_SYS_ATOMIC_H_

#define _shim_cas(p, e, n) __extension__ ({				\
	__typeof__(*(p) + 0) _e = (e);	/* no volatile */		\
	__atomic_compare_exchange_n((p), &_e, (n), 0, __ATOMIC_SEQ_CST,	\
	    __ATOMIC_SEQ_CST);						\
	_e;								\
})

#define atomic_cas_uint(p, e, n)	_shim_cas((p), (e), (n))
#define atomic_cas_ulong(p, e, n)	_shim_cas((p), (e), (n))
#define atomic_cas_ptr(p, e, n)						\
	_shim_cas((void **)(p), (void *)(e), (void *)(n))

#define atomic_swap_uint(p, v)	__atomic_exchange_n((p), (v), __ATOMIC_ACQUIRE)
#define atomic_swap_ulong(p, v)	__atomic_exchange_n((p), (v), __ATOMIC_ACQUIRE)
#define atomic_swap_ptr(p, v)						\
	__atomic_exchange_n((void **)(p), (void *)(v), __ATOMIC_ACQUIRE)

#define atomic_inc_int_nv(p)	__atomic_add_fetch((p), 1, __ATOMIC_SEQ_CST)
#define atomic_dec_int_nv(p)	__atomic_sub_fetch((p), 1, __ATOMIC_SEQ_CST)
#define atomic_add_int_nv(p, v)	__atomic_add_fetch((p), (v), __ATOMIC_SEQ_CST)
#define atomic_sub_int_nv(p, v)	__atomic_sub_fetch((p), (v), __ATOMIC_SEQ_CST)
#define atomic_inc_int(p)	((void)atomic_inc_int_nv(p))
#define atomic_dec_int(p)	((void)atomic_dec_int_nv(p))
#define atomic_inc_long(p)	((void)__atomic_add_fetch((p), 1, __ATOMIC_SEQ_CST))

#define membar_enter()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define membar_exit()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define membar_producer()	__atomic_thread_fence(__ATOMIC_RELEASE)
#define membar_consumer()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define membar_sync()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define membar_enter_after_atomic()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#define membar_exit_before_atomic()	__atomic_signal_fence(__ATOMIC_SEQ_CST)

#endif /* _SHIM_SYS_ATOMIC_H_ */
