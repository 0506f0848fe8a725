/*
 * Anderson backend, sys/kern/kern_mplock_anderson.h, with the MI front
 * end.  NSLOTS 4 (the kernel's is at least 8): a power of two of at least
 * NCPU, small enough that the scenarios reuse every slot.  Tickets count
 * modulo WORDMOD (256; 8 in LOOP), a multiple of NSLOTS as 2^32 is; the
 * first is NSLOTS below the wrap, as in the C code, so every run crosses
 * it.
 *
 *@ model    sc loop tso pso rmo alpha pso3
 *@ mutant   handoff-wrong-slot   MUT_HANDOFF_OWN_SLOT sc loop   hand-off stores the next ticket into the owner's slot
 *@ mutant   duplicate-ticket     MUT_TICKET_DUP      sc   ticket read and incremented in two steps
 *@ mutant   init-all-go          MUT_INIT_ALL_GO     sc   every slot starts out letting its first ticket in
 *@ mutant   held-before-enqueue  MUT_DEPTH_FIRST     sc   depth 1 before the new ticket is set: the old slot still holds the old ticket
 *@ mutant   nested-enqueue       MUT_NESTED_ENQUEUE  sc   nested lock while waiting takes a second place
 *@ mutant   nested-handoff       MUT_NESTED_HANDOFF  sc   hand-off on a nested unlock
 *@ mutant   no-handoff-release   MUT_NO_STORE_REL    pso  no membar_exit before the slot store
 *@ holds    no-handoff-release   MUT_NO_STORE_REL    tso  TSO keeps stores in order
 *@ mutant   no-acquire           MUT_NO_ACQUIRE      rmo alpha  no mpl_acquire() after the wait
 *@ holds    no-acquire           MUT_NO_ACQUIRE      pso  loads are not reordered there
 *@ cover    three-queued         COVER_QUEUE_FULL    all three CPUs queued at once
 *@ cover    slot-reuse           COVER_SLOT_REUSE    a CPU waits on a slot that still holds the ticket NSLOTS before its own
 */

#ifndef NSLOTS
#define NSLOTS	4				/* MPL_ANDERSON_NSLOTS */
#endif
#define FIRST		(WORDMOD - NSLOTS)	/* MPL_ANDERSON_FIRST */
#define LOC_INIT	0			/* &mplc_depth: reads 1 */
#define SLOT(t)		(1 + (t) % NSLOTS)	/* MPL_SLOT(mpl, t) */
#define LOC_NEXT	(1 + NSLOTS)		/* mlb_next */
#define LOC_X		(LOC_NEXT + 1)
#define NLOC		(LOC_X + 1)

#include "lib/prims.pml"

/* mpl_be_init() */
inline be_init()
{
	mem[LOC_NEXT] = (FIRST + WORDMOD - 1) % WORDMOD; /* [anderson.init.next] */
	i = 0;
	do
	:: i < NSLOTS ->
#ifndef MUT_INIT_ALL_GO
		mem[SLOT(FIRST + i)] = (i == 0 -> FIRST :
		    (FIRST + i + WORDMOD - NSLOTS) % WORDMOD); /* [anderson.init.slot] */
#else
		mem[SLOT(FIRST + i)] = (FIRST + i) % WORDMOD;
#endif
		i++
	:: else -> break
	od
}

/* mpl_be_enqueue() */
inline be_enqueue(c)
{
	TICKET_INC(c, LOC_NEXT, t);			/* [anderson.enqueue.inc] */
	d_step {
		want[c] = t;				/* [anderson.enqueue.want] */
		wait[c] = SLOT(t);			/* [anderson.enqueue.wait] */
		t = 0
	}
#ifdef COVER_SLOT_REUSE
	;
	/* ticket t - NSLOTS was let in by a hand-off, not by be_init() */
	assert(!(want[c] >= 1 && want[c] < NSLOTS &&
	    mem[wait[c]] == (want[c] + WORDMOD - NSLOTS) % WORDMOD))
#endif
}

/* mpl_be_handoff() */
inline be_handoff(c)
{
	t = (want[c] + 1) % WORDMOD;			/* [anderson.handoff.t] */
#ifndef MUT_HANDOFF_OWN_SLOT
	MPL_STORE_RELEASE_HANDOFF(c, SLOT(t), t);	/* [anderson.handoff.store] */
#else
	MPL_STORE_RELEASE_HANDOFF(c, SLOT(want[c]), t);
#endif
	t = 0
}

#include "lib/frontend.pml"
