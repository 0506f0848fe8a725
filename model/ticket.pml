/*
 * Ticket backend, sys/kern/kern_mplock_ticket.h, with the MI front end.
 * Tickets count modulo WORDMOD (256; 8 in LOOP, enough for 2 CPUs).
 *
 *@ model    sc loop tso pso rmo alpha pso3
 *@ mutant   duplicate-ticket     MUT_TICKET_DUP      sc   ticket read and incremented in two steps
 *@ mutant   skip-ticket          MUT_TICKET_SKIP     sc loop   the hand-off serves the ticket after next
 *@ mutant   nested-enqueue       MUT_NESTED_ENQUEUE  sc   nested lock while waiting takes a second place
 *@ mutant   nested-handoff       MUT_NESTED_HANDOFF  sc   hand-off on a nested unlock
 *@ mutant   no-handoff-release   MUT_NO_STORE_REL    pso  no membar_exit before the hand-off store
 *@ holds    no-handoff-release   MUT_NO_STORE_REL    tso  TSO keeps stores in order
 *@ mutant   no-acquire           MUT_NO_ACQUIRE      rmo alpha  no mpl_acquire() after the wait
 *@ holds    no-acquire           MUT_NO_ACQUIRE      pso  loads are not reordered there
 *@ holds    held-before-enqueue  MUT_DEPTH_FIRST     sc   harmless here: the stale ticket is never served again
 *@ cover    three-queued         COVER_QUEUE_FULL    all three CPUs queued at once
 */

#define LOC_INIT	0			/* &mplc_depth: reads 1 */
#define LOC_NEXT	1			/* mlb_next */
#define LOC_SERVING	2			/* mlb_serving */
#define LOC_X		3
#define NLOC		4

#include "lib/prims.pml"

/* mpl_be_init() */
inline be_init()
{
	mem[LOC_NEXT] = 0;				/* [ticket.init.next] */
	mem[LOC_SERVING] = 1				/* [ticket.init.serving] */
}

/* mpl_be_enqueue() */
inline be_enqueue(c)
{
	wait[c] = LOC_SERVING;				/* [ticket.enqueue.wait] */
	TICKET_INC(c, LOC_NEXT, t);			/* [ticket.enqueue.inc] */
	d_step { want[c] = t; t = 0 }			/* [ticket.enqueue.want] */
}

/* mpl_be_handoff() */
inline be_handoff(c)
{
#ifndef MUT_TICKET_SKIP
	MPL_STORE_RELEASE_HANDOFF(c, LOC_SERVING,
	    (want[c] + 1) % WORDMOD)			/* [ticket.handoff.store] */
#else
	MPL_STORE_RELEASE_HANDOFF(c, LOC_SERVING, (want[c] + 2) % WORDMOD)
#endif
}

#include "lib/frontend.pml"
