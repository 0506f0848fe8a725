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
 * MCS backend (option MPLOCK_MCS): the queue lock of Mellor-Crummey and
 * Scott (1991).
 *
 * Every CPU has a queue node, {mmn_next, mmn_locked}, in its padded
 * per-CPU cell of the lock.  The only shared word is mlb_tail, the node
 * of the last CPU queued, or NULL when nobody holds or waits.  To queue,
 * a CPU arms its node (next NULL, locked 1), swaps it into mlb_tail and,
 * if it got a predecessor back, links itself in with pred->mmn_next = me;
 * then it spins on its own mmn_locked.  To hand off, the owner clears
 * its successor's mmn_locked; without a successor it empties the queue
 * with a compare-and-swap of mlb_tail from its own node to NULL.
 *
 * Invariants:
 *  1. Each value of mlb_tail is returned by exactly one swap, so a node
 *     has at most one successor, the CPU that queued right after it,
 *     and waiters form a chain in the order of their swaps (FIFO).
 *  2. Our mmn_locked is written by us in enqueue, then at most once by
 *     our predecessor (the hand-off) and by nobody else until our next
 *     enqueue; if the swap returned NULL we clear it ourselves.  So
 *     *mplc_wait == 0 (the front end's "ours") holds from our turn
 *     until our next enqueue, which comes after our own hand-off.
 *  3. Our mmn_next is written by us in enqueue and then once by our
 *     successor (the link).
 *  4. The link window: a successor has swapped but not yet linked when
 *     the owner finds mmn_next NULL but mlb_tail no longer its node.
 *     The owner must then wait for the link, or the successor would
 *     wait forever.  The successor runs that window (swap to link, a
 *     few instructions) with its interrupts disabled, so the wait is
 *     that short unless the successor's CPU itself is stopped, as a
 *     preempted virtual CPU can be.  So an unlock can wait, with
 *     interrupts disabled; MP_LOCKDEBUG reports a long wait there as
 *     it does any other spin on the lock.
 *  5. Reuse: when mpl_be_handoff() returns nobody touches our node any
 *     more.  The predecessor's last access was its store of 0, which
 *     we read before we owned the lock; the successor's was its link,
 *     which we read before storing into its node.  If the CAS succeeded
 *     there is no successor, and since mlb_tail no longer points at our
 *     node no later swap returns it.  So the next enqueue may re-arm the
 *     node at once; one node per CPU is enough (the M-lock needs two, as
 *     there the successor reads the owner's variable, not its own).
 *     Recursion and interrupts nesting while we wait do not enqueue, so
 *     they never touch the node.
 *
 * Ordering (barrier pairs):
 *  - enqueue: next = NULL and locked = 1 are ordered before the swap
 *    that publishes the node by the release half of mpl_swap_ptr, and
 *    before our link store by that store's own release: the swap is not
 *    a fence, so its release half alone lets the link be seen before
 *    locked = 1.  The predecessor stores 0 into our mmn_locked only
 *    after reading our link, so its 0 comes after our 1 and is never
 *    overwritten.  Our successor's link store comes after its swap's
 *    load found our node in mlb_tail (the acquire half; the link's
 *    address is also what that load returned), which came after our
 *    swap's store, which came after our NULL: the NULL cannot land on
 *    top of its link.
 *  - empty queue: the release of the CAS by which the last owner
 *    emptied the queue pairs with the acquire half of the swap that
 *    then returned NULL (and with mpl_acquire() after that CPU's wait,
 *    which on every port so far orders the swap's load too).
 *  - handoff: the release before storing 0 into the successor's
 *    mmn_locked pairs with mpl_acquire() after the successor's wait in
 *    __mp_lock().  It also keeps our read of mmn_next before that store.
 *    The CAS needs no acquire side: when it fails we only read our own
 *    mmn_next again, and store into the node it names.
 *  - mmn_next is written by the successor while its owner may read it:
 *    the link is mpl_store_ptr_release() (above), the reads are
 *    mpl_load_ptr(), which adds no ordering to the pairs above.
 */

#ifndef _KERN_MPLOCK_MCS_H_
#define _KERN_MPLOCK_MCS_H_

#ifdef MP_LOCKDEBUG
#include <ddb/db_output.h>
#endif
#define MPL_BE_NAME		"mcs"

static inline void
mpl_be_init(struct __mp_lock *mpl)
{
	struct __mp_lock_mcs_node *n;
	int i;

	for (i = 0; i < MAXCPUS; i++) {
		n = &mpl->mpl_cpus[i].mplc_be.mcb_node;
		n->mmn_next = NULL;
		n->mmn_locked = 0;
	}
	mpl->mpl_be.mlb_tail = NULL;
}

static inline void
mpl_be_enqueue(struct __mp_lock *mpl, struct __mp_lock_cpu *c)
{
	struct __mp_lock_mcs_node *me = &c->mplc_be.mcb_node, *pred;

	me->mmn_next = NULL;
	me->mmn_locked = 1;
	c->mplc_want = 0;
	c->mplc_wait = &me->mmn_locked;
	pred = mpl_swap_ptr(&mpl->mpl_be.mlb_tail, me);
	if (pred != NULL)
		mpl_store_ptr_release(&pred->mmn_next, me);
	else
		me->mmn_locked = 0;
}

static inline void
mpl_be_handoff(struct __mp_lock *mpl, struct __mp_lock_cpu *c)
{
	struct __mp_lock_mcs_node *me = &c->mplc_be.mcb_node, *next;
#ifdef MP_LOCKDEBUG
	long nticks = __mp_lock_spinout;
#endif

	if ((next = mpl_load_ptr(&me->mmn_next)) == NULL) {
		if (mpl_cas_ptr_release(&mpl->mpl_be.mlb_tail, me, NULL) == me)
			return;
		/*
		 * A successor has swapped but not linked yet (invariant 4).
		 * This wait runs with interrupts disabled, as the front end
		 * hands off; with MP_LOCKDEBUG a long one is reported and
		 * ddb entered, as the front end does for its own wait.
		 */
		while ((next = mpl_load_ptr(&me->mmn_next)) == NULL) {
			CPU_BUSY_CYCLE();
#ifdef MP_LOCKDEBUG
			if (--nticks <= 0) {
				db_printf("%s: %p lock spun out waiting for "
				    "the successor's link\n", __func__, mpl);
				db_enter();
				nticks = __mp_lock_spinout;
			}
#endif
		}
	}
	mpl_store_release(&next->mmn_locked, 0);
}

#ifdef MPLOCK_DEBUG
static inline int
mpl_be_behind(struct __mp_lock *mpl, struct __mp_lock_cpu *c,
    struct __mp_lock_cpu *n)
{
	/* c's node links to the next one, once that one has linked. */
	return (c->mplc_be.mcb_node.mmn_next == &n->mplc_be.mcb_node);
}
#endif

#endif /* !_KERN_MPLOCK_MCS_H_ */
