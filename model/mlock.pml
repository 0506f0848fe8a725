/*
 * M-lock backend, sys/kern/kern_mplock_mlock.h, with the MI front end.
 *
 *@ model    sc loop tso pso rmo alpha pso3 guest guestloop guesttso
 *@ mutant   publish-before-busy  MUT_PUBLISH_EARLY   sc   swap publishes the variable before *mine = 1
 *@ mutant   reuse-too-early      MUT_ONE_VAR         sc loop   one variable per CPU: re-armed before its waiter saw it free
 *@ mutant   held-before-enqueue  MUT_DEPTH_FIRST     sc   depth 1 before mplc_wait is set: held() true on a stale word
 *@ mutant   nested-enqueue       MUT_NESTED_ENQUEUE  sc   nested lock while waiting takes a second place
 *@ mutant   nested-handoff       MUT_NESTED_HANDOFF  sc   hand-off on a nested unlock
 *@ mutant   no-swap-release      MUT_NO_SWAP_REL     pso  no membar_exit before the swap
 *@ holds    no-swap-release      MUT_NO_SWAP_REL     tso  x86: the locked swap is a full barrier
 *@ mutant   no-swap-acquire      MUT_NO_SWAP_ACQ     alpha   no membar_enter after the swap
 *@ holds    no-swap-acquire      MUT_NO_SWAP_ACQ     rmo  the load through the swapped pointer is ordered by its address dependency
 *@ holds    arm64-llsc           ARM64_LLSC          pso rmo  arm64 LL/SC swap (one-way halves): no store follows it, the spin reads through what it returned
 *@ mutant   no-handoff-release   MUT_NO_STORE_REL    pso  no membar_exit before the hand-off store
 *@ holds    no-handoff-release   MUT_NO_STORE_REL    tso  TSO keeps stores in order
 *@ mutant   no-acquire           MUT_NO_ACQUIRE      rmo alpha  no mpl_acquire() after the wait
 *@ holds    no-acquire           MUT_NO_ACQUIRE      pso  loads are not reordered there
 *@ mutant   guest-split-swap     MUT_GUEST_SPLIT_SWAP guest guestloop   in guest mode, the hand-off reads the variable, then stores 0: a mark made in between gets no kick
 *@ mutant   guest-sti-early      MUT_GUEST_STI_EARLY guest guestloop   in guest mode, interrupts enabled before the halt instead of by it: a kick taken in between is lost
 *@ mutant   guest-mark-store     MUT_GUEST_MARK_STORE guest   in guest mode, the mark a load and a store, not a compare-and-swap: it can land on the hand-off's 0
 *@ mutant   guest-kick-late      MUT_GUEST_KICK_LATE guest   in guest mode, the unlock kicks after it enables interrupts: a handler that takes the lock in between queues behind the CPU not yet kicked
 *@ cover    three-queued         COVER_QUEUE_FULL    all three CPUs queued at once
 *@ cover    reuse-after-waiter   COVER_REUSE         a variable is re-armed after a CPU waited on it
 *@ cover    halt-kicked          COVER_KICK          guest mode: a hand-off kicks a CPU out of its halt
 *@ cover    nested-halt          COVER_NESTED_HALT   guest mode: an interrupt handler halts on the mark its own CPU made
 */

/* Guest mode (the modes guest*): a waiter may halt. */
#if (defined(COVER_KICK) || defined(COVER_NESTED_HALT)) && !defined(GUEST)
#define GUEST
#endif

/* arm64 without LSE: the ldaxr/stlxr swap (lib/mem.pml). */
#ifdef ARM64_LLSC
#define SWAP_ONEWAY
#endif

#define LOC_FREE	0			/* mlb_free */
#define LOC_INIT	1			/* &mplc_depth: reads 1 */
#define VAR(c, k)	(2 + 2 * (c) + (k))	/* mpl_cpus[c].mplc_be.mcb_busy[k] */
#define LOC_TAIL	(2 + 2 * NCPU)		/* mlb_tail */
#define LOC_X		(LOC_TAIL + 1)
#define NLOC		(LOC_X + 1)

#include "lib/prims.pml"

byte mine[NCPU];			/* mcb_mine */
bit nxt[NCPU];				/* mcb_next */
#ifdef COVER_REUSE
bit gwaiter[NLOC];
#endif

/* mpl_be_init() */
inline be_init()
{
	i = 0;
	do
	:: i < NCPU ->
		mem[VAR(i, 0)] = 0;			/* [mlock.init.var] */
		mem[VAR(i, 1)] = 0;
		mine[i] = VAR(i, 0);
		nxt[i] = 0;				/* [mlock.init.next] */
		i++
	:: else -> break
	od;
	mem[LOC_FREE] = 0;				/* [mlock.init.free] */
	mem[LOC_TAIL] = LOC_FREE			/* [mlock.init.tail] */
}

/* mpl_be_enqueue() */
inline be_enqueue(c)
{
	d_step {
		mine[c] = VAR(c, nxt[c]);		/* [mlock.enqueue.mine] */
#ifndef MUT_ONE_VAR
		nxt[c] = 1 - nxt[c]			/* [mlock.enqueue.next] */
#else
		nxt[c] = 0
#endif
	};
#ifdef COVER_REUSE
	assert(!gwaiter[mine[c]]);
#endif
#ifndef MUT_PUBLISH_EARLY
	STORE(c, mine[c], 1);				/* [mlock.enqueue.arm] */
	want[c] = 0;					/* [mlock.enqueue.want] */
	MPL_SWAP_PTR(c, LOC_TAIL, mine[c], t);		/* [mlock.enqueue.swap] */
#else
	want[c] = 0;
	MPL_SWAP_PTR(c, LOC_TAIL, mine[c], t);
	STORE(c, mine[c], 1);
#endif
	d_step {
		wait[c] = t;				/* [mlock.enqueue.wait] */
#ifdef COVER_REUSE
		gwaiter[t] = 1;
#endif
		t = 0
	}
}

#ifndef GUEST
/* mpl_be_handoff() */
inline be_handoff(c)
{
	MPL_STORE_RELEASE_HANDOFF(c, mine[c], 0)	/* [mlock.handoff.store] */
}
#else
/*
 * Guest mode.  A variable holds 0, 1 or HALTED + c (busy; CPU c halted
 * or halting on it).  A waiter may stop spinning at any step (spinning
 * changes nothing: a CPU that spins is one that takes no step).
 */
#define HALTED	2
#define HAVE_BE_WAIT

/* mpl_be_wait(), the steps after the spin bound, until *w == wt. */
inline BE_WAIT(c, w, wt)
{
	do
	:: atomic { CUR(c, w) == wt -> break }		/* spun and saw it */
	:: atomic { ien[c] -> ien[c] = 0 };		/* [mlock.wait.cli] */
#ifndef MUT_GUEST_MARK_STORE
		RMW_CAS(c, w, 1, HALTED + c, t);	/* [mlock.wait.mark] */
#else
		LOAD(c, w, t);
		if
		:: t == 1 -> STORE(c, w, HALTED + c)
		:: else -> skip
		fi;
#endif
		if
		:: t == 1 || t == HALTED + c ->
#ifndef MUT_GUEST_STI_EARLY
			d_step {			/* [mlock.wait.halt] */
				ien[c] = 1;
				if
				:: kp[c] -> kp[c] = 0
				:: else -> hlt[c] = 1
				fi
			};
#else
			INTR_RESTORE(c, 1);
			hlt[c] = 1;
#endif
#ifdef COVER_NESTED_HALT
			/* The handler halts on the mark its CPU made. */
			assert(!(inintr[c] && t == HALTED + c));
#endif
			!hlt[c]
		:: else ->
			/* Not busy: 0.  The front end reads it and is done. */
			INTR_RESTORE(c, 1);		/* [mlock.wait.cancel] */
			t = 0;
			atomic { CUR(c, w) == wt -> break }
		fi;
		t = 0
	od
}

/*
 * mpl_be_release(): a swap; t is left holding what it returned, for
 * be_kick(), which the front end runs before it enables interrupts.
 */
#define HAVE_BE_KICK
inline be_handoff(c)
{
#ifndef MUT_GUEST_SPLIT_SWAP
	REL_FENCE(c);					/* [mlock.handoff.rel] */
	atomic {
		RMW_SWAP(c, mine[c], 0, t);		/* [mlock.handoff.swap] */
		GHOST_HANDOFF(c)
	}
#else
	/* The swap as a load of the old value and a releasing store. */
	LOAD(c, mine[c], t);
	MPL_STORE_RELEASE_HANDOFF(c, mine[c], 0)
#endif
}

/* mpl_unlock_done(), mpl_be_kick(): a CPU halted on the variable. */
inline be_kick(c)
{
	if
	:: t >= HALTED ->				/* [mlock.handoff.kicked] */
#ifdef COVER_KICK
		assert(!hlt[t - HALTED]);
#endif
		KICK(t - HALTED)			/* [mlock.handoff.kick] */
	:: else -> skip
	fi;
	t = 0
}
#endif /* GUEST */

#include "lib/frontend.pml"
