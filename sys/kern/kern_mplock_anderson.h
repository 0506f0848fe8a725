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
 * Anderson backend (option MPLOCK_ANDERSON): Anderson's array lock
 * (1990), a ticket lock in which every waiter spins on a slot of its own.
 *
 * A CPU takes ticket t with an atomic increment of mlb_next and spins on
 * slot t mod MPL_ANDERSON_NSLOTS until that slot holds t; the owner of t
 * hands off by storing t + 1 into slot t + 1.  Each slot has a cache line
 * to itself, so a hand-off touches the line of the one CPU it lets in,
 * where the ticket lock's touches the line every waiter polls.
 *
 * The slots hold tickets, not go/wait flags.  A flag must be reset to
 * "wait" before the slot's next ticket, t + NSLOTS, looks at it, and
 * the CPU holding that ticket must see the reset and not the old "go":
 * that costs a second store per hand-off and an acquire barrier between
 * taking the ticket and the first look at the slot.  A ticket cannot be
 * mistaken that way: an old value is an older ticket.
 *
 * Invariants:
 *  1. Tickets are let in in the order they were taken (FIFO): the owner
 *     of t - 1, and nobody else, stores t, into slot t mod NSLOTS.
 *  2. So the stores into a slot come one after the other and its value
 *     moves forward only, NSLOTS tickets at a time.  A CPU waiting for t
 *     sees t only once the owner of t - 1 has handed off; any value from
 *     before is an older ticket (t itself comes back after 2^32 tickets,
 *     while at most MAXCPUS CPUs queue at a time).
 *  3. Slot t mod NSLOTS keeps the value t until the owner of
 *     t + NSLOTS - 1 hands off, which is queued behind us and so hands
 *     off after we did.  Hence *mplc_wait == mplc_want holds from our
 *     turn until our own hand-off, as the front end requires.  Only the
 *     1->0 step hands off: an interrupt that takes the lock while we
 *     wait neither takes a ticket nor stores into a slot.
 *  4. Correctness does not depend on the slot count: with one slot this
 *     is the ticket lock.  The count decides whether waiters share a
 *     line.  The CPUs in the queue hold consecutive tickets, at most
 *     MAXCPUS of them; with NSLOTS >= MAXCPUS, a power of two, they fall
 *     in distinct slots, also across the wrap of the 32-bit ticket,
 *     since a power of two divides 2^32 (tickets 2^32 - 1 and 0 land in
 *     adjacent slots).  With another count tickets near the wrap could
 *     share a slot, and t mod NSLOTS would need a division.
 *  5. The first ticket is just below the wrap, so that every boot
 *     crosses it within its first acquisitions, not after 2^32 of them.
 *
 * Ordering (barrier pairs):
 *  - enqueue: none is needed.  The increment only has to be atomic;
 *    whatever the spin reads before our turn is an older ticket.
 *  - handoff: the release before storing t + 1 pairs with mpl_acquire()
 *    after the next owner's wait in __mp_lock().
 */

#ifndef _KERN_MPLOCK_ANDERSON_H_
#define _KERN_MPLOCK_ANDERSON_H_
#if MAXCPUS > MPL_ANDERSON_NSLOTS
#error "mplock: fewer Anderson slots than CPUs"
#endif

#define MPL_ANDERSON_FIRST	(0U - MPL_ANDERSON_NSLOTS)
#define MPL_SLOT(mpl, t)						\
	(&(mpl)->mpl_be.mlb_slot[(t) & (MPL_ANDERSON_NSLOTS - 1)].mas_ticket)

#define MPL_BE_NAME		"anderson"

static inline void
mpl_be_init(struct __mp_lock *mpl)
{
	u_int i, t;

	/* As if every ticket before the first had been served. */
	mpl->mpl_be.mlb_next = MPL_ANDERSON_FIRST - 1;
	for (i = 0; i < MPL_ANDERSON_NSLOTS; i++) {
		t = MPL_ANDERSON_FIRST + i;
		*MPL_SLOT(mpl, t) = i == 0 ? t : t - MPL_ANDERSON_NSLOTS;
	}
}

static inline void
mpl_be_enqueue(struct __mp_lock *mpl, struct __mp_lock_cpu *c)
{
	u_int t;

	t = atomic_inc_int_nv(&mpl->mpl_be.mlb_next);
	c->mplc_want = t;
	c->mplc_wait = MPL_SLOT(mpl, t);
}

static inline void
mpl_be_handoff(struct __mp_lock *mpl, struct __mp_lock_cpu *c)
{
	u_int t = c->mplc_want + 1;

	mpl_store_release(MPL_SLOT(mpl, t), t);
}

#ifdef MPLOCK_DEBUG
static inline int
mpl_be_behind(struct __mp_lock *mpl, struct __mp_lock_cpu *c,
    struct __mp_lock_cpu *n)
{
	/* Tickets are drawn one by one: c's + 1 is next. */
	return (n->mplc_want == c->mplc_want + 1);
}
#endif

#endif /* !_KERN_MPLOCK_ANDERSON_H_ */
