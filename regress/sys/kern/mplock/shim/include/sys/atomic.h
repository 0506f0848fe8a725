/*
 * Userland shim: atomic(9) and membar_sync(9) as the kernel's generic
 * code provides them, built on the compiler's builtins.  Each barrier
 * is no stronger than its manual page promises where C can express
 * that, so the MI fallbacks are tested as weak as they may be:
 *  - atomic_swap_*: __sync_lock_test_and_set, acquire only (the generic
 *    fallback of arm64, riscv64 and alpha);
 *  - atomic_cas_*, atomic_*_nv: full barrier __sync builtins;
 *  - membar_exit/producer: release fence; membar_consumer: acquire
 *    fence; membar_enter and membar_sync: full fence (C has no
 *    store-to-load fence weaker than that);
 *  - the _after_atomic/_before_atomic variants: compiler barriers, valid
 *    next to the full-barrier __sync operations only.
 * A port's own operations or barriers, defined before this header is
 * included (a kernel compile for that machine), take the place of each
 * group.
 */
#ifndef _SHIM_SYS_ATOMIC_H_
#define _SHIM_SYS_ATOMIC_H_

#ifndef atomic_cas_uint
#define atomic_cas_uint(p, e, n)	__sync_val_compare_and_swap((p), (e), (n))
#define atomic_cas_ulong(p, e, n)	__sync_val_compare_and_swap((p), (e), (n))
#define atomic_cas_ptr(p, e, n)						\
	__sync_val_compare_and_swap((void **)(p), (void *)(e), (void *)(n))

#define atomic_swap_uint(p, v)		__sync_lock_test_and_set((p), (v))
#define atomic_swap_ulong(p, v)		__sync_lock_test_and_set((p), (v))
#define atomic_swap_ptr(p, v)						\
	__sync_lock_test_and_set((void **)(p), (void *)(v))

#define atomic_inc_int_nv(p)		__sync_add_and_fetch((p), 1)
#define atomic_dec_int_nv(p)		__sync_sub_and_fetch((p), 1)
#define atomic_add_int_nv(p, v)		__sync_add_and_fetch((p), (v))
#define atomic_sub_int_nv(p, v)		__sync_sub_and_fetch((p), (v))
#define atomic_inc_int(p)		((void)__sync_add_and_fetch((p), 1))
#define atomic_dec_int(p)		((void)__sync_sub_and_fetch((p), 1))
#define atomic_inc_long(p)		((void)__sync_add_and_fetch((p), 1))

#define membar_enter_after_atomic()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#define membar_exit_before_atomic()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif

#ifndef membar_enter
#define membar_enter()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define membar_exit()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define membar_producer()	__atomic_thread_fence(__ATOMIC_RELEASE)
#define membar_consumer()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define membar_sync()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

/* sys/atomic.h's: a load through a pointer just loaded is ordered. */
#ifndef membar_datadep_consumer
#define membar_datadep_consumer()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif

#endif /* _SHIM_SYS_ATOMIC_H_ */
