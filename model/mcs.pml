/*
 * MCS backend, sys/kern/kern_mplock_mcs.h, with the MI front end.  A
 * node pointer is the index of its mmn_next word (&node ==
 * &node.mmn_next in C); NIL is 0.
 *
 *@ model    sc loop tso pso rmo alpha pso3
 *@ mutant   handoff-no-link-wait MUT_NO_LINK_WAIT    sc loop   hand-off returns when the CAS fails instead of waiting for the link
 *@ mutant   release-by-store     MUT_RELEASE_STORE   sc   empty queue released by a plain store of NULL, not the CAS
 *@ mutant   arm-after-link       MUT_ARM_AFTER_LINK  sc   locked = 1 after the link: the predecessor's hand-off is overwritten
 *@ mutant   clear-next-after-swap MUT_NEXT_AFTER_SWAP sc  next = NULL after the swap: the successor's link is overwritten
 *@ mutant   stale-next           MUT_STALE_NEXT      sc   enqueue does not clear next: hand-off to the CPU that followed last time
 *@ mutant   held-before-enqueue  MUT_DEPTH_FIRST     sc   depth 1 before enqueue re-arms the node: held() true on the old locked = 0
 *@ mutant   nested-enqueue       MUT_NESTED_ENQUEUE  sc   nested lock while waiting takes a second place
 *@ mutant   nested-handoff       MUT_NESTED_HANDOFF  sc   hand-off on a nested unlock
 *@ mutant   arm-after-swap       MUT_ARM_AFTER_SWAP  pso   locked = 1 after the swap, nothing orders it before the link store
 *@ holds    arm-after-swap       MUT_ARM_AFTER_SWAP  tso   the predecessor writes locked only after it read our link, a later store
 *@ mutant   arm64-llsc-plain-link MUT_LLSC_PLAIN_LINK pso  arm64 LL/SC swap (one-way halves), link by a plain store: it lands before locked = 1, the hand-off is overwritten
 *@ holds    arm64-llsc           ARM64_LLSC          pso rmo  arm64 LL/SC swap, link by a release store (stlr): locked = 1 lands first
 *@ holds    arm64-llsc-dmb       ARM64_LLSC_DMB      pso rmo  arm64 LL/SC swap, dmb ish after it, plain link store: the barrier orders locked = 1 before the link
 *@ mutant   no-swap-release      MUT_NO_SWAP_REL     pso  no membar_exit before the swap
 *@ holds    no-swap-release      MUT_NO_SWAP_REL     tso  x86: the locked swap is a full barrier
 *@ holds    no-swap-acquire      MUT_NO_SWAP_ACQ     rmo alpha  nothing after the swap loads through it; the wait ends with mpl_acquire()
 *@ mutant   no-cas-release       MUT_NO_CAS_REL      pso  no membar_exit before the CAS that empties the queue
 *@ holds    no-cas-release       MUT_NO_CAS_REL      tso  x86: the locked cmpxchg is a full barrier
 *@ mutant   no-handoff-release   MUT_NO_STORE_REL    pso  no membar_exit before the hand-off store
 *@ holds    no-handoff-release   MUT_NO_STORE_REL    tso  TSO keeps stores in order
 *@ mutant   no-acquire           MUT_NO_ACQUIRE      rmo alpha  no mpl_acquire() after the wait
 *@ holds    no-acquire           MUT_NO_ACQUIRE      pso  loads are not reordered there
 *@ cover    three-queued         COVER_QUEUE_FULL    all three CPUs queued at once
 *@ cover    link-window          COVER_LINK_WAIT     a hand-off finds a successor swapped but not linked and waits
 *@ cover    reuse-after-link     COVER_REUSE         a node is re-armed after a successor linked into it
 */

/* arm64 without LSE: the one-way ldaxr/stlxr swap (lib/mem.pml). */
#if defined(ARM64_LLSC) || defined(ARM64_LLSC_DMB) || \
    defined(MUT_LLSC_PLAIN_LINK)
#define SWAP_ONEWAY
#endif
#ifdef ARM64_LLSC_DMB
#define SWAP_TRAILING_FENCE
#endif
#if defined(ARM64_LLSC)
#define LINK_STORE(c, l, v)	STORE_REL(c, l, v)
#else
#define LINK_STORE(c, l, v)	STORE(c, l, v)
#endif

#define NIL		0
#define LOC_INIT	0			/* &mplc_depth: reads 1 */
#define NODE(c)		(1 + 2 * (c))		/* mcb_node, its mmn_next */
#define NEXT(p)		(p)			/* p->mmn_next */
#define LOCKED(p)	((p) + 1)		/* p->mmn_locked */
#define LOC_TAIL	(1 + 2 * NCPU)		/* mlb_tail */
#define LOC_X		(LOC_TAIL + 1)
#define NLOC		(LOC_X + 1)

#include "lib/prims.pml"

/* mpl_be_init() */
inline be_init()
{
	i = 0;
	do
	:: i < NCPU ->
		mem[NEXT(NODE(i))] = NIL;		/* [mcs.init.next] */
		mem[LOCKED(NODE(i))] = 0;		/* [mcs.init.locked] */
		i++
	:: else -> break
	od;
	mem[LOC_TAIL] = NIL				/* [mcs.init.tail] */
}

/* mpl_be_enqueue(); t is pred. */
inline be_enqueue(c)
{
#ifdef COVER_REUSE
	assert(CUR(c, NEXT(NODE(c))) == NIL);
#endif
#if !defined(MUT_NEXT_AFTER_SWAP) && !defined(MUT_STALE_NEXT)
	STORE(c, NEXT(NODE(c)), NIL);			/* [mcs.enqueue.next] */
#endif
#if !defined(MUT_ARM_AFTER_LINK) && !defined(MUT_ARM_AFTER_SWAP)
	STORE(c, LOCKED(NODE(c)), 1);			/* [mcs.enqueue.locked] */
#endif
	d_step {
		want[c] = 0;				/* [mcs.enqueue.want] */
		wait[c] = LOCKED(NODE(c))		/* [mcs.enqueue.wait] */
	};
	MPL_SWAP_PTR(c, LOC_TAIL, NODE(c), t);		/* [mcs.enqueue.swap] */
#ifdef MUT_NEXT_AFTER_SWAP
	STORE(c, NEXT(NODE(c)), NIL);
#endif
#ifdef MUT_ARM_AFTER_SWAP
	STORE(c, LOCKED(NODE(c)), 1);
#endif
	if
	:: t != NIL ->					/* [mcs.enqueue.pred] */
		LINK_STORE(c, NEXT(t), NODE(c))		/* [mcs.enqueue.link] */
#ifdef MUT_ARM_AFTER_LINK
		;
		STORE(c, LOCKED(NODE(c)), 1)
#endif
	:: else ->
		STORE(c, LOCKED(NODE(c)), 0)		/* [mcs.enqueue.own] */
	fi;
	t = 0
}

/* mpl_be_handoff(); t is next. */
inline be_handoff(c)
{
	LOAD(c, NEXT(NODE(c)), t);			/* [mcs.handoff.next] */
	if
	:: t == NIL ->
#ifndef MUT_RELEASE_STORE
		MPL_CAS_PTR_RELEASE_HANDOFF(c, LOC_TAIL,
		    NODE(c), NIL, t);			/* [mcs.handoff.cas] */
#else
		atomic { STORE(c, LOC_TAIL, NIL); t = NODE(c); GHOST_HANDOFF(c) };
#endif
		if
		:: t == NODE(c) -> skip			/* [mcs.handoff.empty] */
		:: else ->
#ifdef COVER_LINK_WAIT
			assert(false);
#endif
#ifndef MUT_NO_LINK_WAIT
			SPIN_WHILE(c, NEXT(NODE(c)), NIL, t); /* [mcs.handoff.linkwait] */
			MPL_STORE_RELEASE_HANDOFF(c, LOCKED(t), 0)
#else
			skip
#endif
		fi
	:: else ->
		MPL_STORE_RELEASE_HANDOFF(c, LOCKED(t), 0) /* [mcs.handoff.store] */
	fi;
	t = 0
}

#include "lib/frontend.pml"
