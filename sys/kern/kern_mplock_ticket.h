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
 * Ticket backend: the historical MI kernel lock algorithm, kept as the
 * baseline and as a fallback (option MPLOCK_TICKET).
 *
 * Invariants:
 *  - mlb_next is the last ticket taken; mlb_serving the ticket that owns
 *    the lock.  Tickets are served in the order they were taken (FIFO).
 *  - Only the owner writes mlb_serving, so the hand-off is a plain
 *    increment; every waiter polls that one word, so each hand-off
 *    invalidates the line in every waiting CPU.
 *  - A CPU holds the lock while mlb_serving equals its ticket; the value
 *    cannot move on before the CPU itself hands off.
 *
 * Ordering:
 *  - The ticket is taken with an atomic increment; no barrier is needed
 *    there, a stale mlb_serving is only ever an older ticket.
 *  - mpl_be_handoff: the release before the store of mlb_serving pairs
 *    with mpl_acquire() after the next owner's wait in __mp_lock().
 */

#ifndef _KERN_MPLOCK_TICKET_H_
#define _KERN_MPLOCK_TICKET_H_
#define MPL_BE_NAME		"ticket"

static inline void
mpl_be_init(struct __mp_lock *mpl)
{
	mpl->mpl_be.mlb_next = 0;
	mpl->mpl_be.mlb_serving = 1;
}

static inline void
mpl_be_enqueue(struct __mp_lock *mpl, struct __mp_lock_cpu *c)
{
	c->mplc_wait = &mpl->mpl_be.mlb_serving;
	c->mplc_want = atomic_inc_int_nv(&mpl->mpl_be.mlb_next);
}

static inline void
mpl_be_handoff(struct __mp_lock *mpl, struct __mp_lock_cpu *c)
{
	mpl_store_release(&mpl->mpl_be.mlb_serving, c->mplc_want + 1);
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

#endif /* !_KERN_MPLOCK_TICKET_H_ */
