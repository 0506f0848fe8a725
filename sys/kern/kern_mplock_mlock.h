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
 * M-lock backend (option MPLOCK_MLOCK, the default): Machanick's
 * minimal-contention lock, a queue lock of the CLH family.
 *
 * Every CPU has two lock variables in its own cache line, mcb_busy[0]
 * and [1], and uses them alternately: acquisition k of a CPU uses
 * variable k mod 2.  The only shared word is mlb_tail, the variable of
 * the last CPU queued.  To queue, a CPU marks its variable busy, swaps
 * a pointer to it into mlb_tail and waits until the variable it got back
 * (its predecessor's) reads 0.  To hand off it stores 0 into its own
 * variable: a single store, seen only by its one successor, which has
 * been spinning on that line in its own cache.
 *
 * Invariants:
 *  1. mlb_tail always points at a variable; the lock is free when that
 *     variable reads 0.  mlb_free is the first tail and is never armed.
 *  2. Each value of mlb_tail is returned by exactly one swap, so every
 *     variable has at most one waiter: the CPU that queued right after
 *     its owner.  Waiters form a chain, hence the order is FIFO.
 *  3. A CPU's variable stays 1 from its enqueue until its hand-off, so
 *     *mplc_wait == 0 (the front end's "ours") holds exactly from the
 *     predecessor's hand-off until our own.
 *  4. Re-arming: when CPU A marks variable v busy for acquisition k+2,
 *     the waiter B of A's acquisition k (the one use of v before) has
 *     already read v == 0.  B swapped after A's swap k and before A's
 *     swap k+1 (else the swap k+1 would have returned v to A itself), so
 *     B is ahead of A's acquisition k+1 in the queue.  A gets the lock
 *     for k+1 only after B has handed off, which B does only after it
 *     read v == 0 and left __mp_lock() (an interrupt that took the lock
 *     while B waited returns to B's wait before B can reach depth 0).
 *     A then releases k+1 and only then enqueues k+2.  If nobody swapped
 *     between A's k and k+1, A itself read v in the wait of k+1.
 *     A single variable per CPU would not do: A could re-arm v before B
 *     saw it free, and B (and A behind B) would wait forever.
 *
 * Ordering (barrier pairs):
 *  - enqueue: the store of 1 into our variable is ordered before the
 *    store half of the swap (release side of mpl_swap_ptr).  It pairs
 *    with the successor's swap, whose acquire side orders its reads of
 *    our variable after it found our pointer in mlb_tail: it cannot see
 *    a 0 from before our enqueue.  (Where the hardware orders a load
 *    after the load of its address, the dependency gives that too; the
 *    MI swap does not assume it.)
 *  - handoff: the release before storing 0 pairs with mpl_acquire()
 *    after the successor's wait in __mp_lock(): our critical section
 *    happens before its critical section.
 */

#ifndef _KERN_MPLOCK_MLOCK_H_
#define _KERN_MPLOCK_MLOCK_H_
#define MPL_BE_NAME		"mlock"

static inline void
mpl_be_init(struct __mp_lock *mpl)
{
	struct __mp_lock_cpu_be *cb;
	int i;

	for (i = 0; i < MAXCPUS; i++) {
		cb = &mpl->mpl_cpus[i].mplc_be;
		cb->mcb_busy[0] = 0;
		cb->mcb_busy[1] = 0;
		cb->mcb_mine = &cb->mcb_busy[0];
		cb->mcb_next = 0;
	}
	mpl->mpl_be.mlb_free = 0;
	mpl->mpl_be.mlb_tail = &mpl->mpl_be.mlb_free;
}

static inline void
mpl_be_enqueue(struct __mp_lock *mpl, struct __mp_lock_cpu *c)
{
	struct __mp_lock_cpu_be *cb = &c->mplc_be;
	volatile u_int *mine;

	mine = &cb->mcb_busy[cb->mcb_next];
	cb->mcb_next ^= 1;
	cb->mcb_mine = mine;

	*mine = 1;
	c->mplc_want = 0;
	c->mplc_wait = mpl_swap_ptr(&mpl->mpl_be.mlb_tail, (void *)mine);
}

static inline void
mpl_be_handoff(struct __mp_lock *mpl, struct __mp_lock_cpu *c)
{
	mpl_store_release(c->mplc_be.mcb_mine, 0);
}

#ifdef MPLOCK_DEBUG
static inline int
mpl_be_behind(struct __mp_lock *mpl, struct __mp_lock_cpu *c,
    struct __mp_lock_cpu *n)
{
	/* The next CPU spins on the variable c releases. */
	return (n->mplc_wait == c->mplc_be.mcb_mine);
}
#endif

#endif /* !_KERN_MPLOCK_MLOCK_H_ */
