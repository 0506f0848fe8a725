/*
 * kenv: atomic(9) and membar_sync(9).  The operations are compiler
 * builtins as weak as atomic(9) allows: no ordering at all, except the
 * swap, which acquires as the generic <sys/atomic.h> one does.  The
 * barriers are each port's instructions, so that the MI fallbacks are
 * compiled and assembled as in a kernel.  alpha and luna88k are
 * compiled with a stand-in target and get the builtin full barrier.
 */
#ifndef _KENV_SYS_ATOMIC_H_
#define _KENV_SYS_ATOMIC_H_

#define _kenv_cas(p, e, n) __extension__ ({				\
	__typeof__(*(p)) _e = (e);					\
	__atomic_compare_exchange_n((p), &_e, (n), 0, __ATOMIC_RELAXED,	\
	    __ATOMIC_RELAXED);						\
	_e;								\
})
#define atomic_cas_uint(p, e, n)	_kenv_cas((p), (e), (n))
#define atomic_cas_ulong(p, e, n)	_kenv_cas((p), (e), (n))
#define atomic_cas_ptr(p, e, n)						\
	_kenv_cas((void **)(p), (void *)(e), (void *)(n))

#define atomic_swap_uint(p, v)		__atomic_exchange_n((p), (v),	\
	__ATOMIC_ACQUIRE)
#define atomic_swap_ulong(p, v)		__atomic_exchange_n((p), (v),	\
	__ATOMIC_ACQUIRE)
#define atomic_swap_ptr(p, v)						\
	__atomic_exchange_n((void **)(p), (void *)(v), __ATOMIC_ACQUIRE)

#define atomic_add_int_nv(p, v)		__atomic_add_fetch((p), (v),	\
	__ATOMIC_RELAXED)
#define atomic_sub_int_nv(p, v)		__atomic_sub_fetch((p), (v),	\
	__ATOMIC_RELAXED)
#define atomic_add_long_nv(p, v)	__atomic_add_fetch((p), (v),	\
	__ATOMIC_RELAXED)
#define atomic_sub_long_nv(p, v)	__atomic_sub_fetch((p), (v),	\
	__ATOMIC_RELAXED)
#define atomic_inc_int_nv(p)		atomic_add_int_nv((p), 1)
#define atomic_dec_int_nv(p)		atomic_sub_int_nv((p), 1)
#define atomic_inc_long_nv(p)		atomic_add_long_nv((p), 1)
#define atomic_dec_long_nv(p)		atomic_sub_long_nv((p), 1)
#define atomic_inc_int(p)		((void)atomic_inc_int_nv(p))
#define atomic_dec_int(p)		((void)atomic_dec_int_nv(p))
#define atomic_inc_long(p)		((void)atomic_inc_long_nv(p))
#define atomic_dec_long(p)		((void)atomic_dec_long_nv(p))
#define atomic_load_int(p)		(*(volatile unsigned int *)(p))
#define atomic_store_int(p, v)		(*(volatile unsigned int *)(p) = (v))

#define __membar(i)	__asm volatile(i : : : "memory")

#if defined(KENV_ARM64) || defined(KENV_ARMV7)
#define membar_enter()		__membar("dmb sy")
#define membar_exit()		__membar("dmb sy")
#define membar_producer()	__membar("dmb st")
#define membar_consumer()	__membar("dmb sy")
#define membar_sync()		__membar("dmb sy")
#elif defined(KENV_RISCV64)
#define membar_enter()		__membar("fence w,rw")
#define membar_exit()		__membar("fence rw,w")
#define membar_producer()	__membar("fence w,w")
#define membar_consumer()	__membar("fence r,r")
#define membar_sync()		__membar("fence rw,rw")
#elif defined(KENV_POWERPC64) || defined(KENV_MACPPC)
#define membar_enter()		__membar("isync")
#define membar_exit()		__membar("sync")
#define membar_producer()	__membar("sync")
#define membar_consumer()	__membar("isync")
#define membar_sync()		__membar("sync")
#elif defined(KENV_SPARC64)
#define membar_enter()		__membar("membar #StoreLoad|#StoreStore")
#define membar_exit()		__membar("membar #LoadStore|#StoreStore")
#define membar_producer()	__membar("membar #StoreStore")
#define membar_consumer()	__membar("membar #LoadLoad")
#define membar_sync()		__membar("membar #Sync")
#elif defined(KENV_OCTEON) || defined(KENV_LOONGSON)
#define membar_enter()		__membar("sync")
#define membar_exit()		__membar("sync")
#define membar_producer()	__membar("sync")
#define membar_consumer()	__membar("sync")
#define membar_sync()		__membar("sync")
#else
#define membar_enter()		__sync_synchronize()
#define membar_exit()		__sync_synchronize()
#define membar_producer()	__sync_synchronize()
#define membar_consumer()	__sync_synchronize()
#define membar_sync()		__sync_synchronize()
#endif

#define membar_enter_after_atomic()	membar_enter()
#define membar_exit_before_atomic()	membar_exit()

#endif /* !_KENV_SYS_ATOMIC_H_ */
