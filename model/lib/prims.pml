/*
 * Included by each backend model after it defines NLOC, LOC_INIT (a
 * word that always reads 1) and LOC_X (the WM scenario's data), before
 * its own state, be_init(), be_enqueue(c), be_handoff(c) and
 * lib/frontend.pml: memory (lib/mem.pml), the front end's per-CPU
 * state, the ghost state the properties are stated over, and the
 * ordering primitives of kern_mplock.h.  be_enqueue runs GHOST_ENQ(c)
 * with the atomic operation that gives c its place in the queue; the
 * store that passes the lock on runs GHOST_HANDOFF(c)
 * (MPL_STORE_RELEASE_HANDOFF does both).
 *
 * Scenario (lib/frontend.pml): SC by default; LOOP (liveness); WM (a
 * memory model of lib/mem.pml).  MUT_* are mutants (the models' "*@"
 * lines); SWAP_ONEWAY is arm64's ldaxr/stlxr swap, SWAP_TRAILING_FENCE
 * with a dmb ish after it.
 */

#ifndef NCPU
#define NCPU	3
#endif

#include "mem.pml"
#define NONE	255

#if defined(WM) && !defined(NACQ)
#define NACQ	2
#endif

/* Front-end per-CPU state (struct __mp_lock_cpu). */
byte depth[NCPU];		/* mplc_depth */
byte wait[NCPU];		/* mplc_wait: a word index */
byte want[NCPU];		/* mplc_want */
bit ien[NCPU];			/* local interrupts enabled */
bit inintr[NCPU];		/* the interrupt handler runs on this CPU */
bit go;				/* initialised */

#ifdef GUEST
/*
 * Guest mode: hlt[c], CPU c is halted ("sti; hlt") until an interrupt;
 * kp[c], a kick (IPI) arrived while c had interrupts disabled: it ends
 * the halt that enables them, and is a no-op anywhere else.
 */
bit hlt[NCPU];
bit kp[NCPU];

/* Interrupts back to s: a pending kick is taken (a no-op) if s is 1. */
#define INTR_RESTORE(c, s)	d_step { ien[c] = s; kp[c] = kp[c] && !ien[c] }

/* An IPI to CPU i: ends its halt, or waits while i has interrupts off. */
#define KICK(i)	d_step {						\
	if								\
	:: hlt[i] -> hlt[i] = 0						\
	:: !hlt[i] && !ien[i] -> kp[i] = 1				\
	:: else -> skip							\
	fi								\
}
#else
#define INTR_RESTORE(c, s)	ien[c] = s
#endif

/* __mp_lock_held(), its three words read at one instant. */
#define HELD(c)		(depth[c] > 0 && mem[wait[c]] == want[c]) /* [fe.held] */

/*
 * Ghost state.  gpos[c]: c's place in the queue, taken at the
 * enqueue's atomic operation; ghead: the place the lock belongs to,
 * advanced at each hand-off store; gq[c]: c has a place; owner: the CPU
 * between the return of its outermost __mp_lock() and depth 0.
 */
#if !defined(WM) && !defined(LOOP)
byte gpos[NCPU];
bit gq[NCPU];
byte gnext, ghead;
byte owner = NONE;
byte migrated;			/* release_all count moved to CPU 0 */

#ifdef COVER_QUEUE_FULL
#define COVER_Q		assert(gnext - ghead < NCPU - 1)
#else
#define COVER_Q		skip
#endif
#define GHOST_ENQ(c)	assert(!gq[c]); COVER_Q; gq[c] = 1; gpos[c] = gnext; gnext++
#define GHOST_HANDOFF(c) assert(gq[c] && gpos[c] == ghead); gq[c] = 0; ghead++
#define HELD_OK(c)	(!HELD(c) || (gq[c] && gpos[c] == ghead))
#define INVARIANT	(HELD_OK(0) && HELD_OK(1) && HELD_OK(2) &&	\
			 (owner == NONE || HELD(owner)))
#else
#define GHOST_ENQ(c)	skip
#define GHOST_HANDOFF(c) skip
#endif

#ifdef LOOP
bit trying[NCPU];
byte owner = NONE;
#endif

#ifdef WM
bit inside;			/* a CPU is in the critical section */
byte done;			/* critical sections completed */
#endif

/*
 * The ordering primitives as the MI fallbacks implement them (an MD
 * version plays the same role).  mpl_swap_ptr(): membar_exit();
 * atomic_swap_ptr(); membar_enter(); or, SWAP_ONEWAY, arm64's one-way
 * swap, whose write MUT_NO_SWAP_REL makes plain.
 */
inline MPL_SWAP_PTR(c, l, v, old)
{
#if defined(SWAP_ONEWAY) && defined(WEAK_STORES)
	atomic {
#ifndef MUT_NO_SWAP_REL
		ONEWAY_SWAP(c, l, v, old, 1)
#else
		ONEWAY_SWAP(c, l, v, old, 0)
#endif
		;
		GHOST_ENQ(c)
	}
#ifdef SWAP_TRAILING_FENCE
	FULL_FENCE(c)
#endif
#else
#ifndef MUT_NO_SWAP_REL
	REL_FENCE(c);					/* [prim.swap.rel] */
#endif
	atomic {
		RMW_SWAP(c, l, v, old);			/* [prim.swap.rmw] */
		GHOST_ENQ(c);
		DEP_LOAD_ORDER(c, old)
	}
#ifndef MUT_NO_SWAP_ACQ
	FULL_FENCE(c)					/* [prim.swap.acq] */
#endif
#endif /* SWAP_ONEWAY && WEAK_STORES */
}

/* mpl_cas_ptr_release(): membar_exit(); atomic_cas_ptr(); success
 * passes the lock on (to nobody: the queue is empty). */
inline MPL_CAS_PTR_RELEASE_HANDOFF(c, l, o, nv, old)
{
#ifndef MUT_NO_CAS_REL
	REL_FENCE(c);					/* [prim.cas.rel] */
#endif
	atomic {
		RMW_CAS(c, l, o, nv, old);		/* [prim.cas.rmw] */
		if
		:: old == (o) -> GHOST_HANDOFF(c)
		:: else -> skip
		fi
	}
}

/* mpl_store_release() that passes the lock: membar_exit(); *l = v. */
inline MPL_STORE_RELEASE_HANDOFF(c, l, v)
{
#ifndef MUT_NO_STORE_REL
	REL_FENCE(c);					/* [prim.store.rel] */
#endif
	atomic {
		STORE(c, l, v);				/* [prim.store.st] */
		GHOST_HANDOFF(c)
	}
}

/* t = atomic_inc_int_nv(l), c's place in the queue (ticket, Anderson). */
inline TICKET_INC(c, l, t)
{
#ifndef MUT_TICKET_DUP
	atomic { RMW_INC(c, l, t); GHOST_ENQ(c) }
#else
	LOAD(c, l, t);
	t = (t + 1) % WORDMOD;
	atomic { STORE(c, l, t); GHOST_ENQ(c) }
#endif
}

/* mpl_acquire(): membar_sync(). */
inline MPL_ACQUIRE(c)
{
#ifndef MUT_NO_ACQUIRE
	FULL_FENCE(c)					/* [prim.acquire] */
#else
	skip
#endif
}

