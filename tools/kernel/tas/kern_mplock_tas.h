/*	$OpenBSD$	*/

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
 * Test-and-set backend with exponential back-off, for measurement only
 * (make kernel-bench's "tas" peer; never part of the patch): the
 * unfair lock Linux falls back to in a guest without paravirtual
 * spinlocks (virt_spin_lock()), set beside our FIFO locks under vCPU
 * overcommit.  tools/kernel.sh -b tas copies it into the scratch tree
 * as sys/kern/kern_mplock_tas.h, has kern_mplock.h include it under
 * option MPLOCK_TAS, and builds with option MPLOCK_TICKET as well, for
 * the ticket backend's structures:
 *  - mlb_serving is the lock word: 0 free, else the owner's cell index
 *    plus 1; mlb_next is unused;
 *  - mcb_spare is the cell's back-off, in CPU_BUSY_CYCLE() steps.
 *
 * Invariants: only a CAS from 0 takes the lock, only the owner stores 0.
 * A cell owns the lock while the word holds its index + 1, which is
 * mpl_owned() with mplc_wait = &mlb_serving and mplc_want = index + 1.
 * There is no queue: whoever runs when the word is 0 may take it, so a
 * waiter whose vCPU the host does not run stops nobody, and a waiter
 * may wait forever (unfair).
 *
 * The front end's spin calls mpl_spin_wait() (redefined here) between
 * loads of the word: with the word seen 0 it tries the CAS; after a
 * failed CAS it backs off for mcb_spare steps, doubling up to
 * MPL_TAS_MAXDELAY.  A nested interrupt on a waiting CPU spins the same
 * way and may take the lock for the outer wait, which then finds the
 * word its own.
 *
 * Ordering: the CAS that takes the lock is a full barrier on amd64 and
 * i386 (lock cmpxchg), and the front end's mpl_acquire() follows the
 * spin; the hand-off is mpl_store_release(), which pairs with it.
 */

#ifndef _KERN_MPLOCK_TAS_H_
#define _KERN_MPLOCK_TAS_H_
#define MPL_BE_NAME		"tas"

#ifndef MPL_TAS_MAXDELAY
#define MPL_TAS_MAXDELAY	1024
#endif

static inline void
mpl_be_init(struct __mp_lock *mpl)
{
	mpl->mpl_be.mlb_serving = 0;
	mpl->mpl_be.mlb_next = 0;
}

static inline void
mpl_be_enqueue(struct __mp_lock *mpl, struct __mp_lock_cpu *c)
{
	c->mplc_wait = &mpl->mpl_be.mlb_serving;
	c->mplc_want = MPL_CPU_INDEX(mpl, c) + 1;
	c->mplc_be.mcb_spare = 1;
	(void)atomic_cas_uint(&mpl->mpl_be.mlb_serving, 0, c->mplc_want);
}

static inline void
mpl_be_handoff(struct __mp_lock *mpl, struct __mp_lock_cpu *c)
{
	mpl_store_release(&mpl->mpl_be.mlb_serving, 0);
}

/* One step of the front end's wait for the word p, last seen as v. */
static inline void
mpl_tas_spin(volatile u_int *p, u_int v)
{
	struct __mp_lock *mpl = (struct __mp_lock *)((char *)p -
	    __builtin_offsetof(struct __mp_lock, mpl_be.mlb_serving));
	struct __mp_lock_cpu *c = &mpl->mpl_cpus[cpu_number()];
	u_int i;

	if (v != 0) {
		CPU_BUSY_CYCLE();
		return;
	}
	if (atomic_cas_uint(p, 0, c->mplc_want) == 0)
		return;
	for (i = c->mplc_be.mcb_spare; i > 0; i--)
		CPU_BUSY_CYCLE();
	if (c->mplc_be.mcb_spare < MPL_TAS_MAXDELAY)
		c->mplc_be.mcb_spare <<= 1;
}

#undef mpl_spin_wait
#define mpl_spin_wait(p, v)	mpl_tas_spin((p), (v))

#ifdef MPLOCK_DEBUG
static inline int
mpl_be_behind(struct __mp_lock *mpl, struct __mp_lock_cpu *c,
    struct __mp_lock_cpu *n)
{
	return (0);	/* no queue */
}
#endif

#endif /* !_KERN_MPLOCK_TAS_H_ */
