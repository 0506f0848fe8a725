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

#if defined(MPL_HALT) && !defined(MPLOCK_NOGUEST)
/*
 * Guest mode (MPL_HALT from <machine/mplock.h>, and no option
 * MPLOCK_NOGUEST; on while mplock_guest is set, see kern_mplock.c).
 * Under a hypervisor that runs more virtual CPUs than it has CPUs, the
 * next CPU in the queue is often not running, and spinning waiters
 * burn the CPUs that the holder and that next CPU need.  So a waiter
 * that has spun for mplock_guest_spin cycles marks its predecessor's
 * variable with MPL_HALTED + its own CPU index and halts; the hand-off
 * swaps 0 in instead of storing it, and kicks the CPU named by the old
 * value out of its halt with an interrupt.  The queue stays FIFO.
 *
 * Invariants 1-4 above hold, and:
 *  5. A variable holds 0 (free), 1 (busy) or MPL_HALTED + i (busy, and
 *     CPU i, its only waiter by 2., halted or about to halt on it).
 *     Only that waiter turns 1 into its mark (compare-and-swap), only
 *     the owner turns either into 0 (the swap).  The mark is gone when
 *     the waiter leaves its wait, so the re-arm of 4. still finds 0.
 *  6. No lost kick.  "I halt; is it still busy?" against "it is free;
 *     did anyone halt?" is the store-load (Dekker) pattern, which two
 *     words would need a fence on each side for.  Here each side is a
 *     single read-modify-write of the same word, so one of the two
 *     comes first.  If the mark does, the swap returns it and the owner
 *     kicks, before it enables its own interrupts again (an interrupt
 *     handler there that took the lock would queue behind the CPU it
 *     has not kicked yet).  The waiter made its mark with interrupts
 *     disabled and enables them only as it halts (mpl_halt(): the
 *     enable takes effect after the halt instruction that follows),
 *     so the kick ends the halt instead of going before it.  If the
 *     swap does, the compare-and-swap finds 0 and the waiter does not
 *     halt.
 *  7. A waiter halts only if it came in with interrupts enabled (no
 *     kick could end the halt otherwise: the front end's wait runs at
 *     the caller's interrupt state), and never in ddb, after a panic or
 *     while cold.  Otherwise it spins, as without guest mode.
 *  8. An interrupt taken in the halt may wait for the lock again on
 *     this CPU (the front end's nesting): that wait finds its own mark
 *     and halts as well; the kick ends whichever halt is current, and
 *     the outer wait, once the handler returns, finds 0.
 *  9. mplock_guest does not change once a second CPU runs: a hand-off
 *     by plain store never meets a mark.
 * Each mark and each kick is counted (mcb_halts, mcb_kicks of the
 * halted CPU): the two differ by at most one per CPU at any time, the
 * halt in progress.
 *
 * Ordering: the swap is the release that the plain store was
 * (membar_exit() before it, a compiler barrier where the swap is a
 * full barrier).  The mark needs none: a waiter that finds 0 ends its
 * wait with mpl_acquire(), as it does after spinning.
 *
 * The mode needs six more hooks, which <machine/mplock.h> provides with
 * MPL_HALT defined (kern_mplock.h lists the others).  They have no MI
 * fallback: without them a waiter only spins.
 *
 * mpl_hypervisor()		true when the CPU says that it is a virtual
 *				CPU under a hypervisor.
 * mpl_cycles()			a cycle count of this CPU, for the spin bound.
 * mpl_halt_begin()		if interrupts are enabled, disable them and
 *				return true; else return false.
 * mpl_halt()			enable interrupts and halt until the next
 *				interrupt, so that an interrupt arriving
 *				after mpl_halt_begin() ends the halt
 *				rather than being taken before it (the
 *				enable takes effect after the halt
 *				instruction).  Returns with interrupts
 *				enabled.
 * mpl_halt_cancel()		enable interrupts without halting.
 * mpl_kick(i)			interrupt CPU i (its cpu_number()), which
 *				ends its halt; a no-op interrupt, taken
 *				whatever the IPL the lock was waited for at.
 */
#define MPL_BE_HALT
#define MPL_BE_WAIT
#define MPL_HALTED		2	/* + CPU index: it halted on this */
#define MPL_HALT_MAXSTEPS	0x40000000L	/* the most a halt counts for */

extern int mplock_guest;
extern u_int mplock_guest_spin;

struct mpl_wait {
	uint64_t		mw_t0;		/* mpl_cycles() at first step */
	u_int			mw_spins;	/* steps spun */
	u_int			mw_cps;		/* cycles per step, measured */
};

static inline void
mpl_be_wait_start(struct mpl_wait *mw)
{
	mw->mw_spins = 0;
	mw->mw_cps = 0;
}

/*
 * One step of waiting on w, our predecessor's variable: spin, or once
 * we spun for mplock_guest_spin cycles, mark it and halt.
 */
static inline long
mpl_be_wait(struct __mp_lock *mpl, struct __mp_lock_cpu *c,
    struct mpl_wait *mw, volatile u_int *w, u_int v)
{
	uint64_t t;
	u_int me, o;

	if (mplock_guest) {
		t = mpl_cycles();
		if (mw->mw_spins > 0 && t - mw->mw_t0 >= mplock_guest_spin &&
		    !cold && panicstr == NULL && !db_active &&
		    mpl_halt_begin()) {
			me = MPL_HALTED + cpu_number();	/* c's index */
			if ((o = atomic_cas_uint(w, 1, me)) == 1)
				c->mplc_be.mcb_halts++;
			if (o != 1 && o != me) {
				/* Free: the turn is ours. */
				mpl_halt_cancel();
				return (1);
			}
			mpl_halt();
			/* The steps spinning would have taken meanwhile. */
			if (mw->mw_cps == 0)
				mw->mw_cps = (t - mw->mw_t0) / mw->mw_spins + 1;
			t = (mpl_cycles() - t) / mw->mw_cps;
			if (t >= MPL_HALT_MAXSTEPS)
				return (MPL_HALT_MAXSTEPS);
			return (1 + t);
		}
		if (mw->mw_spins++ == 0)
			mw->mw_t0 = t;
	}
	mpl_spin_wait(w, v);
	return (1);
}
#endif /* MPL_HALT && !MPLOCK_NOGUEST */

static inline void
mpl_be_handoff(struct __mp_lock *mpl, struct __mp_lock_cpu *c)
{
	mpl_store_release(c->mplc_be.mcb_mine, 0);
}

#ifdef MPL_BE_HALT
#define MPL_BE_KICK

/* The hand-off; in guest mode, which CPU halted waiting for it, or -1. */
static inline int
mpl_be_release(struct __mp_lock *mpl, struct __mp_lock_cpu *c)
{
	u_int o;

	if (__predict_false(mplock_guest)) {
		membar_exit();
		o = atomic_swap_uint(c->mplc_be.mcb_mine, 0);
		return (o >= MPL_HALTED ? (int)(o - MPL_HALTED) : -1);
	}
	mpl_be_handoff(mpl, c);
	return (-1);
}

/* CPU k halted on the variable we handed off: count the kick, kick. */
static inline void
mpl_be_kick(struct __mp_lock *mpl, int k)
{
	atomic_inc_int(&mpl->mpl_cpus[k].mplc_be.mcb_kicks);
	mpl_kick(k);
}
#endif /* MPL_BE_HALT */

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
