/*
 * Copyright (c) 2026 The mplock authors
 *
 * Permission to use, copy, modify, and distribute this software for any
 * purpose with or without fee is hereby granted, provided that the above
 * copyright notice and this permission notice appear in all copies.
 *
 * THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
 * WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
 * MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
 * ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
 * WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
 * ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
 * OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
 */

/*
 * What a port's kernel has and the regress shim cannot: included first
 * in every file tools/lib/kcompile.sh compiles (-DKC_<MACHINE>), before
 * the shim's headers, which leave these to it.  The barriers are each
 * port's instructions, so that the MI fallbacks assemble as in a kernel;
 * alpha and luna88k are compiled with a stand-in target and get the
 * builtin full barrier.  CPU_BUSY_CYCLE(): yield on arm64, the
 * Zihintpause pause on riscv64, a compiler barrier elsewhere (powerpc's
 * without a memory clobber; sparc64's real one is patched at boot, which
 * has no place here).
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
#else
#define membar_enter()		__sync_synchronize()
#define membar_exit()		__sync_synchronize()
#define membar_producer()	__sync_synchronize()
#define membar_consumer()	__sync_synchronize()
#define membar_sync()		__sync_synchronize()
#endif

/* atomic(9) relaxed, but for the swap, which acquires. */
#define _ATOMIC_ORDER	__ATOMIC_RELAXED
#include "../../regress/sys/kern/mplock/shim/include/sys/atomic.h"

#if defined(KC_ARM64)
#define CPU_BUSY_CYCLE()	__asm volatile("yield" : : : "memory")
#elif defined(KC_RISCV64)
#define CPU_BUSY_CYCLE()	__asm volatile(".4byte 0x0100000f" : : : "memory")
#elif defined(KC_POWERPC64) || defined(KC_MACPPC)
#define CPU_BUSY_CYCLE()	__asm volatile("")
#else
#define CPU_BUSY_CYCLE()	__asm volatile("" : : : "memory")
#endif
