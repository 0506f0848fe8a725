/*
 * Shared memory: mem[NLOC] (the model defines NCPU and NLOC; a pointer
 * is a word index) under one memory model:
 *
 *  (default)	sequential consistency, each access one atomic step
 *  MM_TSO	per-CPU FIFO store buffer, own stores forwarded; a
 *		read-modify-write first drains it (x86 locked ops)
 *  MM_PSO	as TSO, but stores to different words drain in any order
 *		unless a release fence separates them; a read-modify-write
 *		waits only for its own word
 *  MM_RMO	as PSO, and a load may be stale: each CPU reads through a
 *		view that catches up when a load chooses to, a spin
 *		re-reads, or a full fence; but not for a load through the
 *		pointer a swap returned (address dependency: arm64,
 *		riscv64, powerpc)
 *  MM_ALPHA	as MM_RMO without the address dependency
 *
 * SWAP_ONEWAY: arm64's ldaxr/stlxr swap, an acquire read and a buffered
 * release write that waits for earlier stores, not later ones; no other
 * CPU writes the word while it is buffered (the stlxr would fail).
 * REL_FENCE, membar_exit(): no later store drains before the buffered
 * ones (loads run in order here).  FULL_FENCE, membar_enter() and
 * membar_sync(): the buffer drains, then the view catches up.
 */

#if defined(MM_TSO) || defined(MM_PSO) || defined(MM_RMO) || defined(MM_ALPHA)
#define WEAK_STORES
#endif
#if defined(MM_RMO) || defined(MM_ALPHA)
#define STALE_LOADS
#endif

#define SBSIZE	3		/* SBHAS, SBVAL, DRAIN_CPU assume 3 */

/* A counter wraps at WORDMOD: 8 values are enough for LOOP's 2 CPUs. */
#if defined(LOOP) && !defined(WORDMOD)
#define WORDMOD	8
#elif !defined(WORDMOD)
#define WORDMOD	256
#endif

byte mem[NLOC];

#ifdef WEAK_STORES
typedef sbuf {
	byte	loc[SBSIZE];
	byte	val[SBSIZE];
	bit	bar[SBSIZE];	/* a release fence precedes this entry */
	bit	rel[SBSIZE];	/* a release store (SWAP_ONEWAY) */
	byte	n;		/* entries in use, oldest first */
	bit	pend;		/* release fence issued, no store since */
};
sbuf sb[NCPU];

/* Is word l in c's buffer, and its newest buffered value (SBSIZE <= 3). */
#define SBHAS(c, l)	((sb[c].n > 0 && sb[c].loc[0] == (l)) ||	\
			 (sb[c].n > 1 && sb[c].loc[1] == (l)) ||	\
			 (sb[c].n > 2 && sb[c].loc[2] == (l)))
#define SBVAL(c, l)	((sb[c].n > 2 && sb[c].loc[2] == (l)) -> sb[c].val[2] : \
			 ((sb[c].n > 1 && sb[c].loc[1] == (l)) -> sb[c].val[1] : \
			  sb[c].val[0]))
#endif

#ifdef STALE_LOADS
typedef view_t {
	byte	at[NLOC];
};
view_t view[NCPU];
#define MEMVIEW(c, l)	view[c].at[l]
#define VIEW_SET(c, l, v)	view[c].at[l] = v
/* c's view catches up with memory. */
#define VIEW_SYNC(c)	i = 0;						\
	do								\
	:: i < NLOC -> view[c].at[i] = mem[i]; i++			\
	:: else -> break						\
	od
#else
#define MEMVIEW(c, l)	mem[l]
#define VIEW_SET(c, l, v)	skip
#define VIEW_SYNC(c)	skip
#endif

/* The value a load by c of word l may return now (one choice). */
#ifdef WEAK_STORES
#define CUR(c, l)	(SBHAS(c, l) -> SBVAL(c, l) : MEMVIEW(c, l))
#else
#define CUR(c, l)	mem[l]
#endif

/* Copy the initial memory into the views; called once at start. */
inline mem_init_views()
{
#ifdef STALE_LOADS
	j = 0;
	do
	:: j < NCPU -> VIEW_SYNC(j); j++
	:: else -> break
	od
#else
	skip
#endif
}

/* Loads.  r = *l */
inline LOAD(c, l, r)
{
#ifdef STALE_LOADS
	atomic {
		if
		:: SBHAS(c, l) -> r = SBVAL(c, l)
		:: else ->
			if
			:: view[c].at[l] = mem[l]	/* the load is late ... */
			:: skip				/* ... or early */
			fi;
			r = view[c].at[l]
		fi
	}
#else
	r = CUR(c, l)
#endif
}

/* A spin's re-read: its view of l catches up. */
#define REREAD(c, l)	:: atomic { !SBHAS(c, l) && view[c].at[l] != mem[l] -> \
				view[c].at[l] = mem[l] }

/* The front end's spin: wait until a load of l returns v. */
inline SPIN_UNTIL(c, l, v)
{
#ifdef STALE_LOADS
	do
	:: atomic { CUR(c, l) == (v) -> break }
	REREAD(c, l)
	od
#else
	(CUR(c, l) == (v))
#endif
}

/* A backend's wait: until a load of l returns r != v. */
inline SPIN_WHILE(c, l, v, r)
{
#ifdef STALE_LOADS
	do
	:: atomic { CUR(c, l) != (v) -> r = CUR(c, l); break }
	REREAD(c, l)
	od
#else
	atomic { CUR(c, l) != (v) -> r = CUR(c, l) }
#endif
}

#if defined(SWAP_ONEWAY) && defined(WEAK_STORES)
/* xcl: the CPU whose one-way swap of xloc is still buffered, or XNONE. */
#define XNONE	255
byte xcl = XNONE, xloc;
#define XFREE(c, l)	(xcl == XNONE || xcl == (c) || xloc != (l))
#else
#define XFREE(c, l)	true
#endif

/* *l = v into c's buffer; r: a release store (SWAP_ONEWAY). */
#define SB_PUSH(c, l, v, r)						\
	sb[c].loc[sb[c].n] = l;						\
	sb[c].val[sb[c].n] = v;						\
	sb[c].bar[sb[c].n] = sb[c].pend;				\
	sb[c].rel[sb[c].n] = r;						\
	sb[c].pend = 0;							\
	sb[c].n++

/*
 * *l = v; isrel: a release store (arm64 stlr, SWAP_ONEWAY), after every
 * earlier load and store, not before later ones: it drains only as the
 * oldest entry.
 */
inline SB_STORE(c, l, v, isrel)
{
#ifdef WEAK_STORES
	atomic { sb[c].n < SBSIZE -> SB_PUSH(c, l, v, isrel) }
#else
	mem[l] = v
#endif
}
#define STORE(c, l, v)		SB_STORE(c, l, v, 0)
#define STORE_REL(c, l, v)	SB_STORE(c, l, v, 1)

/* Atomic read-modify-write: the read half, the write half. */
#if defined(MM_TSO)
#define RMW_READY(c, l)	(sb[c].n == 0)
#elif defined(WEAK_STORES)
/* Not before stores to the same word, nor before a release fence. */
#define RMW_READY(c, l)	(!SBHAS(c, l) && !sb[c].pend &&			\
			 !sb[c].bar[1] && !sb[c].bar[2] && XFREE(c, l))
#else
#define RMW_READY(c, l)	true
#endif

/* Atomic read-modify-writes, no ordering of their own. */
#define RMW(c, l, op)							\
	atomic { RMW_READY(c, l) -> op; VIEW_SET(c, l, mem[l]) }
/* atomic_swap_ptr(): old = *l, *l = v */
#define RMW_SWAP(c, l, v, old)	RMW(c, l, old = mem[l]; mem[l] = v)
/* atomic_cas_ptr(): old = *l, if (old == o) *l = nv */
#define RMW_CAS(c, l, o, nv, old)					\
	RMW(c, l, old = mem[l];					\
	    if :: old == (o) -> mem[l] = nv :: else -> skip fi)
/* atomic_inc_int_nv(): r = ++*l */
#define RMW_INC(c, l, r)						\
	RMW(c, l, mem[l] = (mem[l] + 1) % WORDMOD; r = mem[l])

#if defined(SWAP_ONEWAY) && defined(WEAK_STORES)
/*
 * old = *l, *l = v as ldaxr/stlxr: the read now, later loads no staler
 * than memory (acquire); the write buffered, exclusive until it drains.
 */
inline ONEWAY_SWAP(c, l, v, old, relw)
{
	atomic {
		!SBHAS(c, l) && sb[c].n < SBSIZE && XFREE(c, l) ->
		old = mem[l];
		VIEW_SYNC(c);
		SB_PUSH(c, l, v, relw);
		xcl = c;
		xloc = l
	}
}
#endif

/*
 * A later load through the pointer p just read: on MM_RMO it cannot be
 * satisfied before the read of p, so its view is at least that fresh.
 */
inline DEP_LOAD_ORDER(c, p)
{
#ifdef MM_RMO
	if
	:: !SBHAS(c, p) -> view[c].at[p] = mem[p]
	:: else -> skip
	fi
#else
	skip
#endif
}

/* membar_exit() */
inline REL_FENCE(c)
{
#if defined(WEAK_STORES) && !defined(MM_TSO)
	d_step {
		if
		:: sb[c].n > 0 -> sb[c].pend = 1
		:: else -> skip
		fi
	}
#else
	skip
#endif
}

/* membar_enter(), membar_sync() */
inline FULL_FENCE(c)
{
#ifdef WEAK_STORES
	atomic {
		sb[c].n == 0 ->
		sb[c].pend = 0;
		VIEW_SYNC(c)
	}
#else
	skip
#endif
}

#ifdef WEAK_STORES
/*
 * Entry i of c's buffer may reach memory now: it is the oldest, or
 * (PSO and weaker) no release fence lies between it and the oldest and
 * no older entry is for the same word.
 */
#ifdef MM_TSO
#define DRAINABLE(c, i)	((i) == 0 && sb[c].n > 0 && XFREE(c, sb[c].loc[0]))
#else
#define DRAINABLE(c, i)	(sb[c].n > (i) && XFREE(c, sb[c].loc[i]) &&	\
	((i) == 0 ||							\
	 ((i) == 1 && !sb[c].bar[1] && !sb[c].rel[1] &&			\
	  sb[c].loc[0] != sb[c].loc[1]) ||				\
	 ((i) == 2 && !sb[c].bar[1] && !sb[c].bar[2] && !sb[c].rel[2] &&	\
	  sb[c].loc[0] != sb[c].loc[2] && sb[c].loc[1] != sb[c].loc[2])))
#endif

#ifdef SWAP_ONEWAY
/* The exclusive write half reaches memory: others may write the word. */
#define DRAIN_XCL(c, i)							\
	if								\
	:: xcl == (c) && xloc == sb[c].loc[i] -> xcl = XNONE		\
	:: else -> skip							\
	fi
#else
#define DRAIN_XCL(c, i)	skip
#endif

#define DRAIN(c, i)							\
	:: d_step {							\
		DRAINABLE(c, i) ->					\
		mem[sb[c].loc[i]] = sb[c].val[i];			\
		VIEW_SET(c, sb[c].loc[i], sb[c].val[i]);		\
		DRAIN_XCL(c, i);					\
		k = i;							\
		do							\
		:: k + 1 < sb[c].n ->					\
			sb[c].loc[k] = sb[c].loc[k + 1];		\
			sb[c].val[k] = sb[c].val[k + 1];		\
			sb[c].bar[k] = sb[c].bar[k + 1];		\
			sb[c].rel[k] = sb[c].rel[k + 1];		\
			k++						\
		:: else -> break					\
		od;							\
		sb[c].loc[k] = 0;					\
		sb[c].val[k] = 0;					\
		sb[c].bar[k] = 0;					\
		sb[c].rel[k] = 0;					\
		sb[c].bar[0] = 0;					\
		sb[c].rel[0] = 0;					\
		sb[c].n--;						\
		if							\
		:: sb[c].n == 0 -> sb[c].pend = 0			\
		:: else -> skip						\
		fi;							\
		k = 0							\
	}

#define DRAIN_CPU(c)	DRAIN(c, 0) DRAIN(c, 1) DRAIN(c, 2)
#endif /* WEAK_STORES */
