/*	$OpenBSD$	*/

/*
 * Copyright (c) 2004 Niklas Hallqvist.  All rights reserved.
 *
 * Redistribution and use in source and binary forms, with or without
 * modification, are permitted provided that the following conditions
 * are met:
 * 1. Redistributions of source code must retain the above copyright
 *    notice, this list of conditions and the following disclaimer.
 * 2. Redistributions in binary form must reproduce the above copyright
 *    notice, this list of conditions and the following disclaimer in the
 *    documentation and/or other materials provided with the distribution.
 *
 * THIS SOFTWARE IS PROVIDED BY THE AUTHOR ``AS IS'' AND ANY EXPRESS OR
 * IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES
 * OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED.
 * IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY DIRECT, INDIRECT,
 * INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT
 * NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
 * DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY
 * THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
 * (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF
 * THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
 */

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

#ifndef _MPLOCK_H_
#define _MPLOCK_H_

#include <machine/mplock.h>

#ifdef __USE_MI_MPLOCK

#include <sys/_lock.h>

/*
 * The MI kernel lock.  kern_mplock.c keeps the OpenBSD semantics (per-CPU
 * recursion, interrupts nesting while a CPU waits, WITNESS, MP_LOCKDEBUG);
 * a backend provides the queue, the M-lock unless a kernel option
 * below chooses another (at most one).
 *
 * Every backend reduces waiting to "spin until *mplc_wait == mplc_want",
 * so the front end owns the spin loop and __mp_lock_held() is the same
 * test for all of them.
 */

/*
 * Padding unit of the per-CPU state.  Not CACHELINESIZE itself: MD
 * headers define that, some after this file may be included, and the
 * layout of the lock must not depend on include order (nor may this
 * file define CACHELINESIZE for the rest of the kernel).
 * <machine/mplock.h> sets it where lines are not 64 bytes.
 */
#ifndef __MPL_CACHELINE
#define __MPL_CACHELINE	64
#endif

#if defined(MPLOCK_TICKET)
#if defined(MPLOCK_MLOCK) || defined(MPLOCK_MCS) || defined(MPLOCK_ANDERSON)
#error "mplock: more than one backend option"
#endif

/* option MPLOCK_TICKET: the ticket lock, the historical algorithm. */

struct __mp_lock_cpu_be {
	u_int			 mcb_spare;	/* the ticket is mplc_want */
};

struct __mp_lock_be {
	volatile u_int		 mlb_serving;	/* ticket now served */
	volatile u_int		 mlb_next;	/* last ticket taken */
} __aligned(__MPL_CACHELINE);

#elif defined(MPLOCK_MCS)
#if defined(MPLOCK_MLOCK) || defined(MPLOCK_ANDERSON)
#error "mplock: more than one backend option"
#endif

/*
 * option MPLOCK_MCS: the MCS queue lock.
 * A CPU's queue node is in its own padded per-CPU cell, not in a line of
 * its own: a CPU spins on its own node, which only its predecessor (the
 * hand-off) and its successor (the link) write, once each.
 */
struct __mp_lock_mcs_node {
	/* The successor, once it has linked. */
	struct __mp_lock_mcs_node *volatile mmn_next;
	volatile u_int		 mmn_locked;	/* 1 until our turn comes */
};

struct __mp_lock_cpu_be {
	struct __mp_lock_mcs_node	 mcb_node;
};

struct __mp_lock_be {
	/* The last node queued, NULL when the lock is free. */
	struct __mp_lock_mcs_node *volatile mlb_tail;
} __aligned(__MPL_CACHELINE);

#elif defined(MPLOCK_ANDERSON)
#if defined(MPLOCK_MLOCK)
#error "mplock: more than one backend option"
#endif

/*
 * option MPLOCK_ANDERSON: Anderson's array lock.
 * One slot per ticket modulo the slot count, a power of two of at least
 * MAXCPUS so that every CPU in the queue spins on a line of its own.
 */
#define MPL_ANDERSON_NSLOTS						\
	(MAXCPUS <= 8 ? 8 : MAXCPUS <= 16 ? 16 : MAXCPUS <= 32 ? 32 :	\
	MAXCPUS <= 64 ? 64 : MAXCPUS <= 128 ? 128 : MAXCPUS <= 256 ? 256 : \
	MAXCPUS <= 512 ? 512 : 1024)

struct __mp_lock_slot {
	volatile u_int		 mas_ticket;	/* last ticket let in here */
} __aligned(__MPL_CACHELINE);

struct __mp_lock_cpu_be {
	u_int			 mcb_spare;	/* the ticket is mplc_want */
};

struct __mp_lock_be {
	volatile u_int		 mlb_next;	/* last ticket taken */
	struct __mp_lock_slot mlb_slot[MPL_ANDERSON_NSLOTS];
} __aligned(__MPL_CACHELINE);

#else	/* MPLOCK_MLOCK, the default */

/*
 * The M-lock (option MPLOCK_MLOCK, or no backend option).
 * Two lock variables per CPU, used alternately, in the CPU's own cell
 * (struct __mp_lock_cpu), in a cache line of their own: a waiter spins
 * on its predecessor's, which that CPU writes only to queue and to hand
 * off, never while it holds the lock (its depth is in the cell's first
 * line).  The lock takes two lines per CPU and one more.  In guest mode
 * (kern_mplock_mlock.h) a waiter that halts marks the variable it waits
 * on; the halt and its kick are counted in the halted CPU's line.
 */
struct __mp_lock_cpu_be {
	volatile u_int		 mcb_busy[2];	/* our lock variables */
	volatile u_int		*mcb_mine;	/* variable we release */
	u_int			 mcb_next;	/* index of our next variable */
	volatile u_int		 mcb_halts;	/* guest mode: waits halted */
	volatile u_int		 mcb_kicks;	/* ... and kicks received */
} __aligned(__MPL_CACHELINE);

struct __mp_lock_be {
	volatile u_int		*volatile mlb_tail; /* last variable queued */
	volatile u_int		 mlb_free;	/* first tail, never armed */
} __aligned(__MPL_CACHELINE);

#endif

#ifdef MPLOCK_DEBUG
/*
 * option MPLOCK_DEBUG: ownership record, event ring, misuse checks and
 * statistics (kern_mplock_debug.c, mplock_debug(9)).  Static storage
 * only: the kernel lock is initialised before the VM system runs.
 */
#ifndef MPLOCK_DEBUG_NEVENTS
#define MPLOCK_DEBUG_NEVENTS	64	/* events kept, a power of 2 */
#endif
#ifndef MPLOCK_DEBUG_MAXDEPTH
#define MPLOCK_DEBUG_MAXDEPTH	64	/* deeper recursion is reported */
#endif

struct __mp_lock_dbg_stats {
	u_long			 mds_acquire;	/* __mp_lock() calls */
	u_long			 mds_recursive;	/* ... holding it already */
	u_long			 mds_contended;	/* ... that had to spin */
	u_long			 mds_spins;	/* spin iterations */
	u_long			 mds_misuse;	/* misuses reported */
	u_long			 mds_owned;	/* turns begun (waits) */
	u_long			 mds_handoffs;	/* turns ended (holds) */
	uint64_t		 mds_waitmax;	/* longest wait, ns */
	uint64_t		 mds_waitsum;
	uint64_t		 mds_holdmax;	/* longest hold, ns */
	uint64_t		 mds_holdsum;
};

struct __mp_lock_dbg_cpu {
	uint64_t		 mdc_queued;	/* when we queued, ns */
	struct __mp_lock_dbg_stats	 mdc_stats;	/* this CPU's share */
};

struct __mp_lock_dbg_event {
	void			*mde_pc;	/* caller */
	uint64_t		 mde_time;	/* ns since boot */
	volatile u_int		 mde_seq;	/* 0 while being written */
	u_short			 mde_cpu;
	u_char			 mde_type;
	u_char			 mde_depth;	/* clamped to 255 */
};

struct __mp_lock_dbg {
	volatile int		 mld_owner;	/* CPU holding it, or -1 */
	void			*mld_pc;	/* where the owner took it */
	uint64_t		 mld_since;	/* when, ns */
	volatile u_int		 mld_seq;	/* events recorded */
	struct __mp_lock_dbg_event	 mld_ring[MPLOCK_DEBUG_NEVENTS];
};
#endif /* MPLOCK_DEBUG */

/*
 * Per-CPU state.  Written only by its own CPU with interrupts disabled;
 * other CPUs only read it (__mp_lock_held()), except that the MCS node
 * in mplc_be is written by its neighbours in the queue.  Padded so no
 * two CPUs' cells share a cache line.
 */
struct __mp_lock_cpu {
	volatile u_int		 mplc_depth;	/* recursion depth, 0: idle */
	volatile u_int		 mplc_want;	/* *mplc_wait == want: ours */
	volatile u_int		*volatile mplc_wait; /* word we wait on */
	struct __mp_lock_cpu_be	 mplc_be;	/* backend's private state */
#ifdef MPLOCK_DEBUG
	struct __mp_lock_dbg_cpu	 mplc_dbg;
#endif
} __aligned(__MPL_CACHELINE);

struct __mp_lock {
	struct __mp_lock_cpu	mpl_cpus[MAXCPUS];
	struct __mp_lock_be	mpl_be;
#ifdef WITNESS
	struct lock_object	mpl_lock_obj;
#endif
#ifdef MPLOCK_DEBUG
	struct __mp_lock_dbg	 mpl_dbg;
#endif
};

struct cpu_info;

void	___mp_lock_init(struct __mp_lock *, const struct lock_type *);
void	__mp_lock(struct __mp_lock *);
void	__mp_unlock(struct __mp_lock *);
int	__mp_release_all(struct __mp_lock *);
void	__mp_acquire_count(struct __mp_lock *, int);
int	__mp_lock_held(struct __mp_lock *, struct cpu_info *);

#ifdef MPLOCK_DEBUG
void	mplock_print(struct __mp_lock *);
void	mplock_stats_reset(struct __mp_lock *);
#endif

#ifdef WITNESS

#define __mp_lock_init(mpl) do {					\
	static const struct lock_type __lock_type = { .lt_name = #mpl };\
	___mp_lock_init((mpl), &__lock_type);				\
} while (0)

#else /* WITNESS */

#define __mp_lock_init(mpl)	___mp_lock_init((mpl), NULL)

#endif /* WITNESS */

#endif /* __USE_MI_MPLOCK */

extern struct __mp_lock kernel_lock;

#ifdef MPLOCK_TORTURE
/* option MPLOCK_TORTURE: main() runs it once every CPU is started. */
void	mplock_torture_start(void);
#endif

#endif /* !_MPLOCK_H */
