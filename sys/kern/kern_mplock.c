/*	$OpenBSD$	*/

/*
 * Copyright (c) 2017 Visa Hankala
 * Copyright (c) 2014 David Gwynne <dlg@openbsd.org>
 * Copyright (c) 2004 Artur Grabowski <art@openbsd.org>
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
 * MI front end of the kernel lock (__mp_lock).
 *
 * It owns every semantic the rest of the kernel relies on and leaves the
 * queue to a backend (kern_mplock.h):
 *
 *  - Recursion is per CPU: mplc_depth counts the levels held (or being
 *    waited for) by this CPU.  Only 0->1 takes a place in the queue and
 *    only 1->0 hands the lock on, each with local interrupts disabled so
 *    an interrupt never sees the depth and the queue disagree.
 *  - The wait runs with interrupts enabled at the caller's IPL.  A
 *    non-MPSAFE interrupt handler that takes the lock on a CPU which is
 *    still waiting finds depth != 0, adds a level and waits on the same
 *    place; when that place comes it owns the lock, runs, drops back to
 *    depth 1 without handing off, and the interrupted wait then finds
 *    the lock already its own.  A CPU never queues twice.
 *  - The lock is c's while depth > 0 and *mplc_wait == mplc_want; this
 *    is __mp_lock_held() for any CPU, false while only waiting.  The
 *    backend keeps *mplc_wait unchanged until c hands off.
 *  - Spinning is accounted in spc_spinning and calls CPU_BUSY_CYCLE()
 *    (through mpl_spin_wait()); with MP_LOCKDEBUG a wait longer than
 *    __mp_lock_spinout iterations is reported and ddb entered.  A
 *    backend may wait its own way, a step at a time (mpl_be_wait(),
 *    where a waiter may halt); a step that halted counts for as many
 *    iterations as spinning would have taken.
 *  - The MPLD_* lines are the hooks of the debug layer (option
 *    MPLOCK_DEBUG, kern_mplock_debug.c); without it they are empty.
 */

#include <sys/param.h>
#include <sys/systm.h>
#include <sys/atomic.h>
#include <sys/witness.h>
#include <sys/mplock.h>

#include <machine/cpu.h>

#ifdef MP_LOCKDEBUG
#include <ddb/db_output.h>
#endif

#ifdef __USE_MI_MPLOCK

#include "kern_mplock.h"

#ifdef MPL_BE_HALT
/*
 * Guest mode (kern_mplock_mlock.h): waiters halt after spinning for
 * mplock_guest_spin cycles.  On when the CPU reports a hypervisor;
 * option MPLOCK_GUEST forces it on, MPLOCK_NOGUEST leaves it out of the
 * kernel.  Set when a lock is initialised, kernel_lock first, early in
 * main() before a second CPU runs, always to the same value: a releaser
 * that stored where a waiter had halted would not kick it.
 *
 * The bound is above most turns in a guest whose vCPUs all run (tens of
 * us), which a halt and its kick would only lengthen; a longer turn
 * waits for a vCPU the host does not run.  400000 cycles: 100 to 200 us.
 */
#ifndef MPLOCK_GUEST_SPIN
#define MPLOCK_GUEST_SPIN	400000
#endif
int mplock_guest;
u_int mplock_guest_spin = MPLOCK_GUEST_SPIN;
#endif

#ifdef MPL_BE_KICK
/*
 * The end of an unlock whose hand-off found a CPU halted waiting for
 * it: kick that CPU, then enable interrupts again (s).  Kicked before
 * they are on: an interrupt handler that took the lock here would
 * queue behind the CPU not yet kicked.  Out of line, so that the unlock
 * reaches it by a jump as its last step and keeps nothing for it on
 * the path that does not kick.
 */
static void	__mp_lock_kick(struct __mp_lock *, int,
		    u_long) __attribute__((__noinline__));

static void
__mp_lock_kick(struct __mp_lock *mpl, int k, u_long s)
{
	mpl_be_kick(mpl, k);
	intr_restore(s);
}

#define mpl_unlock_done(mpl, k, s) do {					\
	if (__predict_false((k) != -1))					\
		__mp_lock_kick((mpl), (k), (s));			\
	else								\
		intr_restore(s);					\
} while (0)
#else
#define mpl_unlock_done(mpl, k, s)	((void)(k), intr_restore(s))
#endif

void
___mp_lock_init(struct __mp_lock *mpl, const struct lock_type *type)
{
	struct __mp_lock_cpu *c;
	int i;

	for (i = 0; i < MAXCPUS; i++) {
		c = &mpl->mpl_cpus[i];
		c->mplc_depth = 0;
		c->mplc_want = 0;
		c->mplc_wait = &c->mplc_depth;
	}
	mpl_be_init(mpl);
	MPLD_INIT(mpl);
#ifdef MPL_BE_HALT
	/* The same value every time: the CPU's answer does not change. */
#ifdef MPLOCK_GUEST
	mplock_guest = 1;
#else
	mplock_guest = mpl_hypervisor();
#endif
#endif

#ifdef WITNESS
	mpl->mpl_lock_obj.lo_name = type->lt_name;
	mpl->mpl_lock_obj.lo_type = type;
	if (mpl == &kernel_lock)
		mpl->mpl_lock_obj.lo_flags = LO_WITNESS | LO_INITIALIZED |
		    LO_SLEEPABLE | (LO_CLASS_KERNEL_LOCK << LO_CLASSSHIFT);
	WITNESS_INIT(&mpl->mpl_lock_obj, type);
#endif
}

/* Wait until *w == want: out of line, its frame off the lock's fast path. */
static void	__mp_lock_spin(struct __mp_lock *, struct __mp_lock_cpu *,
		    volatile u_int *, u_int, u_int,
		    struct mpld_lock *) __attribute__((__noinline__));

static void
__mp_lock_spin(struct __mp_lock *mpl, struct __mp_lock_cpu *c,
    volatile u_int *w, u_int want, u_int v, struct mpld_lock *dl)
{
	struct mpl_wait mw;
#ifdef MP_LOCKDEBUG
	long n, nticks = __mp_lock_spinout;
#endif

	mpl_be_wait_start(&mw);
	curcpu()->ci_schedstate.spc_spinning++;
	do {
#ifdef MP_LOCKDEBUG
		/* A step that halted counts for the spins it stood for. */
		if ((n = mpl_be_wait(mpl, c, &mw, w, v)) > nticks)
			n = nticks;
		nticks -= n;
		MPLD_LOCK_SPIN(dl, n);
		if (nticks <= 0) {
			db_printf("%s: %p lock spun out\n", __func__, mpl);
			MPLD_LOCK_SPUNOUT(mpl, c, dl);
			db_enter();
			nticks = __mp_lock_spinout;
		}
#else
		(void)mpl_be_wait(mpl, c, &mw, w, v);
		MPLD_LOCK_SPIN(dl, 1);
#endif
	} while ((v = mpl_load(w)) != want);
	curcpu()->ci_schedstate.spc_spinning--;
}

void
__mp_lock(struct __mp_lock *mpl)
{
	struct __mp_lock_cpu *c = &mpl->mpl_cpus[cpu_number()];
	volatile u_int *w;
	u_int v, want;
	u_long s;
	struct mpld_lock dl;

#ifdef WITNESS
	if (!mpl_owned(c))
		WITNESS_CHECKORDER(&mpl->mpl_lock_obj,
		    LOP_EXCLUSIVE | LOP_NEWORDER, NULL);
#endif
	MPLD_LOCK_ENTER(mpl, c, &dl);

	s = intr_disable();
	/* Queue first: held() trusts mplc_wait once the depth is not 0. */
	if (c->mplc_depth == 0) {
		mpl_be_enqueue(mpl, c);
		MPLD_LOCK_QUEUED(mpl, c);
	}
	c->mplc_depth++;
	intr_restore(s);

	/* Nested interrupts leave mplc_wait and mplc_want as they are. */
	w = c->mplc_wait;
	want = c->mplc_want;
	if ((v = mpl_load(w)) != want)
		__mp_lock_spin(mpl, c, w, want, v, &dl);
	/* Pairs with the release in the previous holder's mpl_be_handoff. */
	mpl_acquire();
	MPLD_LOCK_DONE(mpl, c, &dl);

	WITNESS_LOCK(&mpl->mpl_lock_obj, LOP_EXCLUSIVE);
}

void
__mp_unlock(struct __mp_lock *mpl)
{
	struct __mp_lock_cpu *c = &mpl->mpl_cpus[cpu_number()];
	u_long s;
	int k = -1;

	if (MPLD_UNLOCK_BAD(mpl, c))
		return;
#ifdef MP_LOCKDEBUG
	/* Not the owner: idle, or only waiting (an interrupt handler). */
	if (!__mp_lock_held(mpl, curcpu())) {
		db_printf("__mp_unlock(%p): not held lock\n", mpl);
		db_enter();
		return;
	}
#endif

	WITNESS_UNLOCK(&mpl->mpl_lock_obj, LOP_EXCLUSIVE);

	s = intr_disable();
	MPLD_RELEASE(mpl, c, MPLD_EV_RELEASE);
	if (--c->mplc_depth == 0)
		k = mpl_be_release(mpl, c);
	mpl_unlock_done(mpl, k, s);
}

int
__mp_release_all(struct __mp_lock *mpl)
{
	struct __mp_lock_cpu *c = &mpl->mpl_cpus[cpu_number()];
	u_long s;
	int k = -1, rv;
#ifdef WITNESS
	int i;
#endif

	if (MPLD_RELEASE_ALL_BAD(mpl, c))
		return (0);
	s = intr_disable();
	rv = c->mplc_depth;
#ifdef WITNESS
	for (i = 0; i < rv; i++)
		WITNESS_UNLOCK(&mpl->mpl_lock_obj, LOP_EXCLUSIVE);
#endif
	/* Nothing to hand on if this CPU had no place in the queue. */
	if (rv > 0) {
		MPLD_RELEASE(mpl, c, MPLD_EV_RELEASE_ALL);
		c->mplc_depth = 0;
		k = mpl_be_release(mpl, c);
	}
	mpl_unlock_done(mpl, k, s);

	return (rv);
}

void
__mp_acquire_count(struct __mp_lock *mpl, int count)
{
	MPLD_ACQUIRE_COUNT(mpl, count);
	while (count-- > 0)
		__mp_lock(mpl);
}

int
__mp_lock_held(struct __mp_lock *mpl, struct cpu_info *ci)
{
	return (mpl_owned(&mpl->mpl_cpus[CPU_INFO_UNIT(ci)]));
}

#endif /* __USE_MI_MPLOCK */
