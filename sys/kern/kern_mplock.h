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
 * Private to the kernel lock: the interface between the MI front end
 * (kern_mplock.c) and its backends (kern_mplock_<name>.h), and the few
 * ordering primitives the backends use.
 */

#ifndef _KERN_MPLOCK_H_
#define _KERN_MPLOCK_H_

/*
 * Backend interface: sys/kern/kern_mplock_<name>.h, the one the kernel
 * options select, included at the end of this file.  Its functions are
 * static inline, so the uncontended path of __mp_lock() and
 * __mp_unlock() makes no call.  The front end calls enqueue on the 0->1
 * depth transition and handoff on 1->0, both with local interrupts
 * disabled, so a CPU has at most one place in the queue at any time.
 *
 * MPL_BE_NAME			the backend's name, a string.
 * mpl_be_init(mpl)		no CPU queued, lock free.
 * mpl_be_enqueue(mpl, c)	take a place in the queue for cell c and set
 *				c->mplc_wait and c->mplc_want: the lock is c's
 *				from the moment *mplc_wait == mplc_want until
 *				c hands off.  The front end spins on that and
 *				issues mpl_acquire() once it holds.
 * mpl_be_handoff(mpl, c)	pass the lock on, with release ordering.
 * mpl_be_release(mpl, c)	with MPL_BE_KICK, in place of
 *				mpl_be_handoff(): the hand-off of a backend
 *				whose waiters may halt; returns the CPU
 *				that halted waiting for this turn, or -1.
 * mpl_be_kick(mpl, k)		with MPL_BE_KICK: interrupt CPU k, not -1,
 *				out of its halt.  The front end calls it
 *				with interrupts still disabled.
 * mpl_be_behind(mpl, c, n)	with option MPLOCK_DEBUG: did n queue right
 *				behind c?  Read-only; the debug layer lists
 *				the waiters in queue order with it.
 */
#define MPL_CPU_INDEX(mpl, c)	((int)((c) - (mpl)->mpl_cpus))

/*
 * Hooks of the debug layer (option MPLOCK_DEBUG, kern_mplock_debug.c).
 * Without the option they expand to nothing, so the front end compiles
 * to the same code as without the hook lines.
 *
 * MPLD_INIT		the lock is (re)initialised.
 * MPLD_LOCK_ENTER	__mp_lock() entered: misuse checks, note whether
 *			this CPU holds the lock already.
 * MPLD_LOCK_QUEUED	took a place in the queue (interrupts disabled).
 * MPLD_LOCK_SPIN	n more spin iterations (a local count); with
 *			MP_LOCKDEBUG a step that halted counts for the
 *			spinning it stood for, as in the spin-out.
 * MPLD_LOCK_SPUNOUT	the MP_LOCKDEBUG spin-out report.
 * MPLD_LOCK_DONE	the lock is ours: owner record, event, statistics.
 * MPLD_UNLOCK_BAD	__mp_unlock() by a CPU that does not own the lock:
 *			reported; true when the unlock must not go on.
 * MPLD_RELEASE_ALL_BAD	the same for __mp_release_all().
 * MPLD_RELEASE		a level (or all) is released, before the depth
 *			drops and with interrupts disabled.
 * MPLD_ACQUIRE_COUNT	__mp_acquire_count() entered.
 */
#ifdef MPLOCK_DEBUG
struct mpld_lock {
	u_long		dl_spins;	/* spin iterations of this call */
	void		*dl_pc;		/* caller of __mp_lock() */
	int		dl_held;	/* CPU held the lock on entry */
};

#define MPLD_EV_ACQUIRE		1
#define MPLD_EV_RELEASE		2
#define MPLD_EV_RELEASE_ALL	3
#define MPLD_EV_ACQUIRE_COUNT	4
#define MPLD_EV_MISUSE		0x80	/* or-ed in: misuse reported */

void	mpld_init(struct __mp_lock *);
void	mpld_lock_enter(struct __mp_lock *, struct __mp_lock_cpu *,
	    struct mpld_lock *, void *);
void	mpld_lock_queued(struct __mp_lock *, struct __mp_lock_cpu *);
void	mpld_lock_spunout(struct __mp_lock *, struct __mp_lock_cpu *,
	    struct mpld_lock *);
void	mpld_lock_done(struct __mp_lock *, struct __mp_lock_cpu *,
	    struct mpld_lock *);
int	mpld_unlock_bad(struct __mp_lock *, struct __mp_lock_cpu *, int,
	    void *);
void	mpld_release(struct __mp_lock *, struct __mp_lock_cpu *, int,
	    void *);
void	mpld_acquire_count(struct __mp_lock *, int, void *);

#define MPLD_PC()			__builtin_return_address(0)
#define MPLD_INIT(mpl)			mpld_init(mpl)
#define MPLD_LOCK_ENTER(mpl, c, dl)	mpld_lock_enter(mpl, c, dl, MPLD_PC())
#define MPLD_LOCK_QUEUED(mpl, c)	mpld_lock_queued(mpl, c)
#define MPLD_LOCK_SPIN(dl, n)		((dl)->dl_spins += (n))
#define MPLD_LOCK_SPUNOUT(mpl, c, dl)	mpld_lock_spunout(mpl, c, dl)
#define MPLD_LOCK_DONE(mpl, c, dl)	mpld_lock_done(mpl, c, dl)
#define MPLD_UNLOCK_BAD(mpl, c)						\
	mpld_unlock_bad(mpl, c, MPLD_EV_RELEASE, MPLD_PC())
#define MPLD_RELEASE_ALL_BAD(mpl, c)					\
	mpld_unlock_bad(mpl, c, MPLD_EV_RELEASE_ALL, MPLD_PC())
#define MPLD_RELEASE(mpl, c, ev)	mpld_release(mpl, c, ev, MPLD_PC())
#define MPLD_ACQUIRE_COUNT(mpl, n)	mpld_acquire_count(mpl, n, MPLD_PC())
#else
/* Only its address is passed on, to hooks that expand to nothing. */
struct mpld_lock {
	int		dl_unused;
};

#define MPLD_INIT(mpl)
#define MPLD_LOCK_ENTER(mpl, c, dl)
#define MPLD_LOCK_QUEUED(mpl, c)
#define MPLD_LOCK_SPIN(dl, n)
#define MPLD_LOCK_SPUNOUT(mpl, c, dl)
#define MPLD_LOCK_DONE(mpl, c, dl)
#define MPLD_UNLOCK_BAD(mpl, c)		0
#define MPLD_RELEASE_ALL_BAD(mpl, c)	0
#define MPLD_RELEASE(mpl, c, ev)
#define MPLD_ACQUIRE_COUNT(mpl, n)
#endif /* MPLOCK_DEBUG */

/*
 * Ordering primitives.
 *
 * mpl_load(p)			read a lock word another CPU may write; no
 *				ordering, but read again on every use.
 * mpl_load_ptr(p)		the same for a pointer.
 * mpl_store_ptr(p, v)		*p = v for a pointer another CPU reads;
 *				no ordering of its own.
 * mpl_store_ptr_release(p, v)	the same, after every earlier load and
 *				store.
 * mpl_swap_ptr(p, v)		exchange *p and v atomically, return the old
 *				value.  Two one-way halves: every earlier
 *				load and store is ordered before its store
 *				(release), every later load and store after
 *				its load (acquire).  Not a fence: nothing
 *				orders an access before the swap with one
 *				after it, except through the swap itself.
 *				An earlier store may be seen after a later
 *				one (a load-linked/store-conditional swap
 *				with acquire on the load and release on the
 *				store does that, as some ports' swaps are);
 *				a caller that needs the two in order must
 *				order the later one itself.
 * mpl_cas_ptr_release(p, o, n)	if *p == o, *p = n, atomically; return the
 *				old *p.  The store, if any, is ordered after
 *				every earlier load and store (release); no
 *				acquire side.
 * mpl_store_release(p, v)	*p = v, after every earlier load and store.
 * mpl_acquire()		after plain loads saw the lock become ours:
 *				keeps later loads and stores after them.
 *				Runs after every wait, so it also undoes
 *				whatever an MD spin step changed.
 * mpl_spin_wait(p, v)		one step of waiting for *p to change from v.
 *				It may return with *p unchanged (the caller
 *				reads again); with MP_LOCKDEBUG it must not
 *				wait long, as the spin-out counts steps.
 *				It ends with CPU_BUSY_CYCLE(), so whatever a
 *				port keeps there still runs.
 *
 * Halted waits (the M-lock's guest mode, kern_mplock_mlock.h) need six
 * more, which <machine/mplock.h> provides with MPL_HALT defined.  They
 * have no MI fallback: without them a waiter only spins.
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
 *
 * <machine/mplock.h> is included again below with _KERN_MPLOCK_H_
 * defined; it may then define any of these macros with a tuned version.
 * The ordering argument of each is written next to it there, and the
 * header says which fallbacks it keeps and why.
 *
 * The MI fallbacks use only atomic(9) and membar_sync(9), following the
 * guarantees that manual page gives:
 *  - membar_exit() orders earlier loads and stores before later stores,
 *    so it makes a following store (or the store half of a swap or a
 *    compare-and-swap) a release;
 *  - membar_enter() orders an earlier store before later loads and
 *    stores; after a swap that covers its load half too, since the load
 *    of an atomic swap cannot come after its store.  It says nothing of
 *    plain loads, so a spin on plain loads ends with membar_sync().
 */
#include <machine/mplock.h>

static inline void *
mpl_mi_swap_ptr(volatile void *p, void *v)
{
	void *o;

	membar_exit();
	o = atomic_swap_ptr(p, v);
	membar_enter();
	return (o);
}

static inline void *
mpl_mi_cas_ptr_release(volatile void *p, void *o, void *n)
{
	membar_exit();
	return (atomic_cas_ptr(p, o, n));
}

static inline void
mpl_mi_store_release(volatile u_int *p, u_int v)
{
	membar_exit();
	*p = v;
}

#ifndef mpl_load
#define mpl_load(p)			(*(volatile u_int *)(p))
#endif
#ifndef mpl_load_ptr
#define mpl_load_ptr(p)			(*(__typeof__(*(p)) volatile *)(p))
#endif
#ifndef mpl_store_ptr
#define mpl_store_ptr(p, v)		\
	(*(__typeof__(*(p)) volatile *)(p) = (v))
#endif
#ifndef mpl_store_ptr_release
#define mpl_store_ptr_release(p, v)	do {				\
	membar_exit();							\
	mpl_store_ptr((p), (v));					\
} while (0)
#endif
#ifndef mpl_swap_ptr
#define mpl_swap_ptr(p, v)		mpl_mi_swap_ptr((p), (v))
#endif
#ifndef mpl_cas_ptr_release
#define mpl_cas_ptr_release(p, o, n)	mpl_mi_cas_ptr_release((p), (o), (n))
#endif
#ifndef mpl_store_release
#define mpl_store_release(p, v)		mpl_mi_store_release((p), (v))
#endif
#ifndef mpl_acquire
#define mpl_acquire()			membar_sync()
#endif
#ifndef mpl_spin_wait
#define mpl_spin_wait(p, v)		CPU_BUSY_CYCLE()
#endif

/*
 * Does cell c own the lock?  Only while its depth is not 0 (mplc_wait
 * is stale otherwise) and the word it waits on says its turn has come;
 * a CPU that merely waits, in the queue or nested in an interrupt, does
 * not.  The front end's __mp_lock_held() and the debug layer use it.
 */
static inline int
mpl_owned(struct __mp_lock_cpu *c)
{
	return (c->mplc_depth > 0 && mpl_load(c->mplc_wait) == c->mplc_want);
}

#if defined(MPLOCK_TICKET)
#include "kern_mplock_ticket.h"
#elif defined(MPLOCK_MCS)
#include "kern_mplock_mcs.h"
#elif defined(MPLOCK_ANDERSON)
#include "kern_mplock_anderson.h"
#else
#include "kern_mplock_mlock.h"
#endif

/*
 * The front end's wait, one step at a time.  A backend that waits in
 * its own way defines MPL_BE_WAIT and provides
 *
 * struct mpl_wait		its state for one wait, on the stack;
 * mpl_be_wait_start(mw)	before the first step;
 * mpl_be_wait(mpl, c, mw, w, v) one step of waiting for *w to change
 *				from v, like mpl_spin_wait(), and the
 *				number of spin steps it stood for (a step
 *				that halted stands for more than one), which
 *				the MP_LOCKDEBUG spin-out counts.
 *
 * Otherwise every step is one mpl_spin_wait().
 */
/* A backend whose waiters never halt has nobody to kick. */
#ifndef MPL_BE_KICK
#define mpl_be_release(mpl, c)		(mpl_be_handoff((mpl), (c)), -1)
#endif

#ifndef MPL_BE_WAIT
struct mpl_wait {
	int		mw_unused;
};

static inline long
mpl_wait_spin(volatile u_int *w, u_int v)
{
	mpl_spin_wait(w, v);
	return (1);
}

#define mpl_be_wait_start(mw)		((void)(mw))
#define mpl_be_wait(mpl, c, mw, w, v)	mpl_wait_spin((w), (v))
#endif

#endif /* _KERN_MPLOCK_H_ */
