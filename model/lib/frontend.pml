/* The MI front end, sys/kern/kern_mplock.c, and the scenarios. */

/* The lock became c's: ghost checks of mutual exclusion and FIFO. */
inline acquired(c)
{
#if !defined(WM) && !defined(LOOP)
	d_step {
		assert(owner == NONE || owner == c);	/* mutual exclusion */
		assert(gq[c] && gpos[c] == ghead);	/* FIFO, no 2nd place */
		assert(HELD(c));
		owner = c
	}
#elif defined(LOOP)
	d_step { trying[c] = 0; owner = c }
#else
	skip
#endif
}

inline released(c)
{
#if !defined(WM)
	owner = NONE
#else
	skip
#endif
}

/* __mp_lock() */
inline mp_lock(c)
{
#ifdef LOOP
	trying[c] = 1;
#endif
	d_step { s = ien[c]; ien[c] = 0 };		/* [fe.lock.intr_disable] */
#ifdef MUT_DEPTH_FIRST
	if
	:: depth[c] == 0 -> depth[c]++; be_enqueue(c)
	:: else -> depth[c]++
	fi;
#else
	if
#ifdef MUT_NESTED_ENQUEUE
	:: depth[c] == 0 || !HELD(c) ->			/* [fe.lock.first] */
#else
	:: depth[c] == 0 ->				/* [fe.lock.first] */
#endif
		be_enqueue(c)				/* [fe.lock.enqueue] */
	:: else -> skip
	fi;
	depth[c]++;					/* [fe.lock.depth] */
#endif
	INTR_RESTORE(c, s);				/* [fe.lock.intr_restore] */
	d_step { w = wait[c]; wt = want[c] };		/* [fe.lock.w] */
#ifdef HAVE_BE_WAIT
	BE_WAIT(c, w, wt);				/* [fe.lock.spin] */
#else
	SPIN_UNTIL(c, w, wt);				/* [fe.lock.spin] */
#endif
	MPL_ACQUIRE(c);					/* [fe.lock.acquire] */
	d_step { w = 0; wt = 0 };			/* dead: keep states few */
	acquired(c)
}

/* __mp_unlock() */
inline mp_unlock(c)
{
	d_step { s = ien[c]; ien[c] = 0 };		/* [fe.unlock.intr_disable] */
	d_step {
		depth[c]--;				/* [fe.unlock.depth] */
		if
		:: depth[c] == 0 -> released(c)
		:: else -> skip
		fi
	};
	if
#ifdef MUT_NESTED_HANDOFF
	:: true ->
#else
	:: depth[c] == 0 ->
#endif
		be_handoff(c)				/* [fe.unlock.handoff] */
	:: else -> skip
	fi;
#if defined(HAVE_BE_KICK) && !defined(MUT_GUEST_KICK_LATE)
	be_kick(c);					/* [fe.unlock.kick] */
#endif
	INTR_RESTORE(c, s)				/* [fe.unlock.intr_restore] */
#if defined(HAVE_BE_KICK) && defined(MUT_GUEST_KICK_LATE)
	;
	be_kick(c)
#endif
}

/* n = __mp_release_all() */
inline mp_release_all(c, n)
{
	d_step { s = ien[c]; ien[c] = 0 };		/* [fe.relall.intr_disable] */
	n = depth[c];					/* [fe.relall.rv] */
	if
	:: n > 0 ->
		d_step { depth[c] = 0; released(c) };	/* [fe.relall.depth] */
		be_handoff(c)				/* [fe.relall.handoff] */
	:: else -> skip
	fi;
#ifdef HAVE_BE_KICK
	be_kick(c);					/* [fe.relall.kick] */
#endif
	INTR_RESTORE(c, s)
}

/* __mp_acquire_count(mpl, n) */
inline mp_acquire_count(c, n)
{
	do						/* [fe.acqcnt.loop] */
	:: n > 0 -> n--; mp_lock(c)
	:: else -> break
	od
}

/* ___mp_lock_init() */
inline mp_lock_init()
{
	d_step {
		i = 0;
		do
		:: i < NCPU ->
			depth[i] = 0;			/* [fe.init.depth] */
			want[i] = 0;			/* [fe.init.want] */
			wait[i] = LOC_INIT;		/* [fe.init.wait] */
			ien[i] = 1;
			i++
		:: else -> break
		od;
		mem[LOC_INIT] = 1;
		be_init();
		mem_init_views();
		go = 1
	}
}

/* CPU 0 initialises the lock, the others wait for it. */
inline start(c)
{
	if
	:: c == 0 -> mp_lock_init()
	:: else -> go
	fi
}

#if !defined(WM) && !defined(LOOP)
/* The SC scenario (doc/verification.md): CPU 2's thread moves to CPU 0. */
active [NCPU] proctype cpu() provided (!inintr[_pid])
{
	byte c = _pid, s, w, wt, n, r, t, i, j;

	start(c);
	if
	:: c == 0 ->
		mp_lock(c); mp_lock(c); mp_unlock(c); mp_unlock(c);
		mp_lock(c); mp_unlock(c);
		migrated > 0;
		n = migrated;
		mp_acquire_count(c, n);
		mp_unlock(c); mp_unlock(c)
	:: c == 1 ->
		mp_lock(c); mp_unlock(c);
		mp_lock(c); mp_unlock(c)
	:: c == 2 ->
		mp_lock(c); mp_lock(c);
		mp_release_all(c, n);
		assert(n == 2);
		mp_acquire_count(c, n);
		mp_release_all(c, n);
		assert(n == 2);
		migrated = n
	fi
}

/* A non-MPSAFE interrupt handler on CPU 1. */
active proctype intr()
{
	byte c = 1, s, w, wt, t, i, j;

#ifdef GUEST
	/* Taken in a halt, it ends the halt. */
end:	atomic { go && ien[c] && !inintr[c] -> inintr[c] = 1; hlt[c] = 0 };
#else
end:	atomic { go && ien[c] && !inintr[c] -> inintr[c] = 1 };
#endif
	mp_lock(c);
	mp_unlock(c);
	inintr[c] = 0
}

/* __mp_lock_held() is true exactly for the CPU the lock belongs to. */
active proctype monitor()
{
end:	atomic { go && !(INVARIANT) -> assert(INVARIANT) }
}
#endif /* SC */

#ifdef LOOP
active [NCPU] proctype cpu()
{
	byte c = _pid, s, w, wt, t, i, j;

	start(c);
	do
	:: mp_lock(c); mp_unlock(c)
	od
}

/* The CPUs run the same loop; CPU 1 stands for each of them. */
ltl nostarve { [] (trying[1] -> <> !trying[1]) }
#endif /* LOOP */

#ifdef WM
/* Every CPU: NACQ times lock, x = x + 1, unlock. */
active [NCPU] proctype cpu()
{
	byte c = _pid, s, w, wt, r, n, t, i, j;

	start(c);
	n = 0;
	do
	:: n < NACQ ->
		mp_lock(c);
		d_step { assert(!inside); inside = 1 };	/* mutual exclusion */
		LOAD(c, LOC_X, r);
		assert(r == done);			/* saw every earlier CS */
		STORE(c, LOC_X, r + 1);
		d_step { done++; inside = 0 };
		mp_unlock(c);
		n++
	:: else -> break
	od
}

#ifdef WEAK_STORES
active proctype drainer()
{
	byte k;

end:	do
	DRAIN_CPU(0)
	DRAIN_CPU(1)				/* WM has 2 or 3 CPUs */
#if NCPU > 2
	DRAIN_CPU(2)
#endif
	od
}
#endif
#endif /* WM */
