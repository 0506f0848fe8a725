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
 * Debug layer of the kernel lock (option MPLOCK_DEBUG): called from the
 * MPLD_* hooks of the front end (kern_mplock.h), compiled to nothing
 * without the option.  See mplock_debug(9).
 *
 * What it keeps, in the lock itself (static storage, no allocation):
 *  - an ownership record (mpl_dbg): the CPU that owns the lock, where
 *    and when it took it.  Written only by the owner: set on the first
 *    acquisition that finds the lock its own, cleared before the lock
 *    is passed on, so the hand-off's release orders the clear before
 *    the next owner's write.  Other CPUs and ddb read it unlocked; a
 *    report may show a record one hand-off old.
 *  - a ring of the last MPLOCK_DEBUG_NEVENTS events.  A slot is claimed
 *    with an atomic increment of mld_seq; its mde_seq is zeroed while
 *    it is written and set last (membar_producer() in between), so a
 *    reader skips slots being rewritten.
 *  - statistics, in each CPU's cell of the lock: written only by that
 *    CPU with interrupts disabled (an interrupt taking the lock must not
 *    lose an increment), summed when printed.
 *
 * Times come from nsecuptime(): nanoseconds since boot, read from the
 * timecounter without taking a lock, so usable at any IPL, in ddb and
 * before the clocks are attached (the boot timecounter runs from the
 * start).
 *
 * Misuse (release by a CPU that does not own the lock, recursion
 * deeper than MPLOCK_DEBUG_MAXDEPTH, __mp_acquire_count() of less than
 * one level) prints one line and enters ddb; a kernel without DDB
 * goes on after the line, as there is nothing to stop in.  A refused
 * release leaves the lock as it was.  After a
 * panic or inside ddb, where _kernel_lock_held() claims the lock for
 * everyone, misuse is only counted.
 */

#include <sys/param.h>
#include <sys/systm.h>
#include <sys/atomic.h>
#include <sys/mplock.h>

#include <machine/cpu.h>

#if defined(__USE_MI_MPLOCK) && defined(MPLOCK_DEBUG)

#include <sys/time.h>

#ifdef DDB
#include <machine/db_machdep.h>
#include <ddb/db_sym.h>
#include <ddb/db_output.h>
#include <ddb/db_interface.h>

#define mpld_pr		db_printf
#else
#define mpld_pr		printf
#endif

#include "kern_mplock.h"

#if (MPLOCK_DEBUG_NEVENTS & (MPLOCK_DEBUG_NEVENTS - 1)) != 0
#error "MPLOCK_DEBUG_NEVENTS must be a power of 2"
#endif

#define MPLD_NOW()	nsecuptime()

#define MPLD_PR_EVENTS	0x01
#define MPLD_PR_CPUS	0x02

static int
mpld_owner(struct __mp_lock *mpl)
{
	int i;

	for (i = 0; i < MAXCPUS; i++)
		if (mpl_owned(&mpl->mpl_cpus[i]))
			return (i);
	return (-1);
}

static void
mpld_prsym(const void *p, int proc)
{
#ifdef DDB
	db_printsym((db_expr_t)p, proc ? DB_STGY_PROC : DB_STGY_ANY,
	    db_printf);
#else
	printf("%p", p);
#endif
}

static void
mpld_prtime(uint64_t ns)
{
	mpld_pr("%llu.%06llus", (unsigned long long)(ns / 1000000000ULL),
	    (unsigned long long)(ns % 1000000000ULL / 1000));
}

static void
mpld_event(struct __mp_lock *mpl, int type, int cpu, u_int depth,
    void *pc, uint64_t now)
{
	struct __mp_lock_dbg *d = &mpl->mpl_dbg;
	struct __mp_lock_dbg_event *e;
	u_int seq;

	do {
		seq = atomic_inc_int_nv(&d->mld_seq);
	} while (seq == 0);	/* 0 marks a slot being written */
	e = &d->mld_ring[(seq - 1) & (MPLOCK_DEBUG_NEVENTS - 1)];
	e->mde_seq = 0;
	membar_producer();
	e->mde_pc = pc;
	e->mde_time = now;
	e->mde_cpu = cpu;
	e->mde_type = type;
	e->mde_depth = depth > 255 ? 255 : depth;
	membar_producer();
	e->mde_seq = seq;
}

static void
mpld_misuse(struct __mp_lock *mpl, struct __mp_lock_cpu *c, int ev,
    const char *what, int count, void *pc)
{
	int cpu = MPL_CPU_INDEX(mpl, c), owner;
	u_int depth = c->mplc_depth;
	u_long s;

	s = intr_disable();
	c->mplc_dbg.mdc_stats.mds_misuse++;
	mpld_event(mpl, ev | MPLD_EV_MISUSE, cpu,
	    ev == MPLD_EV_ACQUIRE_COUNT ? 0 : depth, pc, MPLD_NOW());
	intr_restore(s);
	if (panicstr != NULL || db_active)
		return;

	owner = mpld_owner(mpl);
	mpld_pr("mplock ");
	mpld_prsym(mpl, 0);
	mpld_pr(": %s", what);
	if (ev == MPLD_EV_ACQUIRE || ev == MPLD_EV_ACQUIRE_COUNT)
		mpld_pr(" %d", count);
	mpld_pr(": cpu %d depth %u owner ", cpu, depth);
	if (owner == -1)
		mpld_pr("none");
	else
		mpld_pr("cpu %d", owner);
	mpld_pr(" at ");
	mpld_prsym(pc, 1);
	mpld_pr("\n");
#ifdef DDB
	db_enter();
#endif
}

static void
mpld_stats_clear(struct __mp_lock_dbg_stats *st)
{
	st->mds_acquire = st->mds_recursive = st->mds_contended = 0;
	st->mds_spins = st->mds_misuse = 0;
	st->mds_owned = st->mds_handoffs = 0;
	st->mds_waitmax = st->mds_waitsum = 0;
	st->mds_holdmax = st->mds_holdsum = 0;
}

void
mpld_init(struct __mp_lock *mpl)
{
	struct __mp_lock_dbg *d = &mpl->mpl_dbg;
	int i;

	d->mld_owner = -1;
	d->mld_pc = NULL;
	d->mld_since = 0;
	d->mld_seq = 0;
	for (i = 0; i < MPLOCK_DEBUG_NEVENTS; i++)
		d->mld_ring[i].mde_seq = 0;
	for (i = 0; i < MAXCPUS; i++) {
		mpl->mpl_cpus[i].mplc_dbg.mdc_queued = 0;
		mpld_stats_clear(&mpl->mpl_cpus[i].mplc_dbg.mdc_stats);
	}
}

void
mpld_lock_enter(struct __mp_lock *mpl, struct __mp_lock_cpu *c,
    struct mpld_lock *dl, void *pc)
{
	dl->dl_spins = 0;
	dl->dl_pc = pc;
	dl->dl_held = mpl_owned(c);
	/* Report the crossing only, not every level of a runaway loop. */
	if (c->mplc_depth == MPLOCK_DEBUG_MAXDEPTH)
		mpld_misuse(mpl, c, MPLD_EV_ACQUIRE, "recursion deeper than",
		    MPLOCK_DEBUG_MAXDEPTH, pc);
}

void
mpld_lock_queued(struct __mp_lock *mpl, struct __mp_lock_cpu *c)
{
	c->mplc_dbg.mdc_queued = MPLD_NOW();
}

void
mpld_lock_done(struct __mp_lock *mpl, struct __mp_lock_cpu *c,
    struct mpld_lock *dl)
{
	struct __mp_lock_dbg *d = &mpl->mpl_dbg;
	struct __mp_lock_dbg_stats *st = &c->mplc_dbg.mdc_stats;
	int cpu = MPL_CPU_INDEX(mpl, c);
	uint64_t now = MPLD_NOW(), wait;
	u_long s;

	s = intr_disable();
	st->mds_acquire++;
	if (dl->dl_held)
		st->mds_recursive++;
	if (dl->dl_spins > 0) {
		st->mds_contended++;
		st->mds_spins += dl->dl_spins;
	}
	if (d->mld_owner != cpu) {
		/* First acquisition of this turn: a new owner. */
		wait = now - c->mplc_dbg.mdc_queued;
		st->mds_owned++;
		st->mds_waitsum += wait;
		if (wait > st->mds_waitmax)
			st->mds_waitmax = wait;
		d->mld_pc = dl->dl_pc;
		d->mld_since = now;
		d->mld_owner = cpu;
	}
	mpld_event(mpl, MPLD_EV_ACQUIRE, cpu, c->mplc_depth, dl->dl_pc, now);
	intr_restore(s);
}

int
mpld_unlock_bad(struct __mp_lock *mpl, struct __mp_lock_cpu *c, int ev,
    void *pc)
{
	const char *what;

	if (mpl_owned(c))
		return (0);
	if (c->mplc_depth == 0 && mpld_owner(mpl) == -1)
		what = ev == MPLD_EV_RELEASE ?
		    "__mp_unlock of a lock not held" :
		    "__mp_release_all of a lock not held";
	else
		what = ev == MPLD_EV_RELEASE ?
		    "__mp_unlock on a CPU that is not the owner" :
		    "__mp_release_all on a CPU that is not the owner";
	mpld_misuse(mpl, c, ev, what, 0, pc);
	return (1);
}

/* Interrupts are disabled; the depth drops after this. */
void
mpld_release(struct __mp_lock *mpl, struct __mp_lock_cpu *c, int ev,
    void *pc)
{
	struct __mp_lock_dbg *d = &mpl->mpl_dbg;
	struct __mp_lock_dbg_stats *st = &c->mplc_dbg.mdc_stats;
	int cpu = MPL_CPU_INDEX(mpl, c);
	u_int depth = c->mplc_depth;
	uint64_t now = MPLD_NOW(), hold;

	mpld_event(mpl, ev, cpu, ev == MPLD_EV_RELEASE ? depth - 1 : depth,
	    pc, now);
	if (ev == MPLD_EV_RELEASE && depth > 1)
		return;
	if (d->mld_owner == cpu) {
		hold = now - d->mld_since;
		st->mds_handoffs++;
		st->mds_holdsum += hold;
		if (hold > st->mds_holdmax)
			st->mds_holdmax = hold;
	}
	d->mld_owner = -1;
}

void
mpld_acquire_count(struct __mp_lock *mpl, int count, void *pc)
{
	struct __mp_lock_cpu *c = &mpl->mpl_cpus[cpu_number()];
	u_long s;

	if (count < 1) {
		mpld_misuse(mpl, c, MPLD_EV_ACQUIRE_COUNT,
		    "__mp_acquire_count with count", count, pc);
		return;
	}
	s = intr_disable();
	mpld_event(mpl, MPLD_EV_ACQUIRE_COUNT, MPL_CPU_INDEX(mpl, c), count,
	    pc, MPLD_NOW());
	intr_restore(s);
}

/*
 * Queue order.  The front end knows which CPUs wait (depth > 0, the
 * lock not theirs) but not in which order; mpld_next() asks the
 * backend which CPU queued right behind c.
 */
static struct __mp_lock_cpu *
mpld_next(struct __mp_lock *mpl, struct __mp_lock_cpu *c)
{
	struct __mp_lock_cpu *n;
	int i;

	for (i = 0; i < MAXCPUS; i++) {
		n = &mpl->mpl_cpus[i];
		if (n != c && n->mplc_depth > 0 && mpl_be_behind(mpl, c, n))
			return (n);
	}
	return (NULL);
}

static int
mpld_waiting(struct __mp_lock_cpu *c)
{
	return (c->mplc_depth > 0 && !mpl_owned(c));
}

static void
mpld_print_waiter(struct __mp_lock *mpl, struct __mp_lock_cpu *c,
    uint64_t now)
{
	mpld_pr("cpu %d depth %u waiting ", MPL_CPU_INDEX(mpl, c),
	    c->mplc_depth);
	mpld_prtime(now - c->mplc_dbg.mdc_queued);
	mpld_pr("\n");
}

/* Is waiter c in the chain that starts behind the owner o? */
static int
mpld_in_order(struct __mp_lock *mpl, struct __mp_lock_cpu *o,
    struct __mp_lock_cpu *c)
{
	int i;

	for (i = 0; o != NULL && i < MAXCPUS; i++) {
		if ((o = mpld_next(mpl, o)) == c)
			return (1);
		if (o == NULL || !mpld_waiting(o))
			break;
	}
	return (0);
}

/* The owner, then the waiters in the order they will get the lock. */
static void
mpld_print_queue(struct __mp_lock *mpl, uint64_t now)
{
	struct __mp_lock_dbg *d = &mpl->mpl_dbg;
	struct __mp_lock_cpu *c, *o = NULL;
	int i, n, nwait, owner;

	if ((owner = mpld_owner(mpl)) == -1)
		mpld_pr(" owner none\n");
	else {
		o = &mpl->mpl_cpus[owner];
		mpld_pr(" owner cpu %d depth %u", owner, o->mplc_depth);
		if (d->mld_owner == owner) {
			mpld_pr(" held ");
			mpld_prtime(now - d->mld_since);
			mpld_pr(" acquired at ");
			mpld_prsym(d->mld_pc, 1);
		} else
			mpld_pr(" (turn just begun, not yet recorded)");
		mpld_pr("\n");
		for (i = owner + 1; i < MAXCPUS; i++)
			if (mpl_owned(&mpl->mpl_cpus[i]))
				mpld_pr(" BROKEN: cpu %d owns it too\n", i);
	}

	for (i = 0, nwait = 0; i < MAXCPUS; i++)
		if (mpld_waiting(&mpl->mpl_cpus[i]))
			nwait++;
	if (nwait == 0) {
		mpld_pr(" no waiters\n");
		return;
	}
	mpld_pr(" %d waiter%s in queue order:\n", nwait, nwait == 1 ? "" : "s");
	for (c = o, n = 0; c != NULL && n < nwait; n++) {
		c = mpld_next(mpl, c);
		if (c == NULL || !mpld_waiting(c))
			break;
		mpld_pr("  %2d ", n + 1);
		mpld_print_waiter(mpl, c, now);
	}
	if (n == nwait)
		return;

	/* Not behind the owner: a queue in transition, or a broken one. */
	mpld_pr(" waiting, order unknown:\n");
	for (i = 0; i < MAXCPUS; i++) {
		c = &mpl->mpl_cpus[i];
		if (mpld_waiting(c) && !mpld_in_order(mpl, o, c)) {
			mpld_pr("   - ");
			mpld_print_waiter(mpl, c, now);
		}
	}
}

void
mpld_lock_spunout(struct __mp_lock *mpl, struct __mp_lock_cpu *c,
    struct mpld_lock *dl)
{
	uint64_t now = MPLD_NOW();

	mpld_pr("mplock ");
	mpld_prsym(mpl, 0);
	mpld_pr(": cpu %d spun out after %lu spins, waiting ",
	    MPL_CPU_INDEX(mpl, c), dl->dl_spins);
	mpld_prtime(now - c->mplc_dbg.mdc_queued);
	mpld_pr(", called from ");
	mpld_prsym(dl->dl_pc, 1);
	mpld_pr("\n");
	mpld_print_queue(mpl, now);
}

static void
mpld_print_stats(const char *who, int cpu, struct __mp_lock_dbg_stats *st)
{
	if (cpu >= 0)
		mpld_pr("  %s%-3d", who, cpu);
	else
		mpld_pr("  %-6s", who);
	mpld_pr(" %10lu %9lu %9lu %11lu %6lu ", st->mds_acquire,
	    st->mds_recursive, st->mds_contended, st->mds_spins,
	    st->mds_misuse);
	mpld_prtime(st->mds_waitmax);
	mpld_pr(" ");
	mpld_prtime(st->mds_owned ? st->mds_waitsum / st->mds_owned : 0);
	mpld_pr(" ");
	mpld_prtime(st->mds_holdmax);
	mpld_pr(" ");
	mpld_prtime(st->mds_handoffs ? st->mds_holdsum / st->mds_handoffs : 0);
	mpld_pr("\n");
}

static void
mpld_stats_add(struct __mp_lock_dbg_stats *t,
    const struct __mp_lock_dbg_stats *s)
{
	t->mds_acquire += s->mds_acquire;
	t->mds_recursive += s->mds_recursive;
	t->mds_contended += s->mds_contended;
	t->mds_spins += s->mds_spins;
	t->mds_misuse += s->mds_misuse;
	t->mds_owned += s->mds_owned;
	t->mds_handoffs += s->mds_handoffs;
	t->mds_waitsum += s->mds_waitsum;
	t->mds_holdsum += s->mds_holdsum;
	if (s->mds_waitmax > t->mds_waitmax)
		t->mds_waitmax = s->mds_waitmax;
	if (s->mds_holdmax > t->mds_holdmax)
		t->mds_holdmax = s->mds_holdmax;
}

static const char *
mpld_evname(int type)
{
	switch (type & ~MPLD_EV_MISUSE) {
	case MPLD_EV_ACQUIRE:
		return ("acquire");
	case MPLD_EV_RELEASE:
		return ("release");
	case MPLD_EV_RELEASE_ALL:
		return ("release_all");
	case MPLD_EV_ACQUIRE_COUNT:
		return ("acquire_count");
	}
	return ("?");
}

static void
mpld_print_events(struct __mp_lock *mpl)
{
	struct __mp_lock_dbg *d = &mpl->mpl_dbg;
	struct __mp_lock_dbg_event *e;
	u_int seq, last = d->mld_seq;

	seq = last > MPLOCK_DEBUG_NEVENTS ? last - MPLOCK_DEBUG_NEVENTS + 1 : 1;
	mpld_pr(" events %u-%u, oldest first (depth after the event; "
	    "release_all: levels released; acquire_count: count):\n",
	    seq, last);
	for (; last != 0 && seq != last + 1; seq++) {
		e = &d->mld_ring[(seq - 1) & (MPLOCK_DEBUG_NEVENTS - 1)];
		if (e->mde_seq != seq)
			continue;	/* being rewritten */
		mpld_pr("  %8u cpu %-3u %-13s %3u ", seq, e->mde_cpu,
		    mpld_evname(e->mde_type), e->mde_depth);
		mpld_prtime(e->mde_time);
		mpld_pr(" ");
		mpld_prsym(e->mde_pc, 1);
		if (e->mde_type & MPLD_EV_MISUSE)
			mpld_pr(" MISUSE");
		mpld_pr("\n");
	}
}

static void
mpld_print(struct __mp_lock *mpl, int flags)
{
	struct __mp_lock_dbg_stats total, *st;
	uint64_t now = MPLD_NOW();
	int i;

	mpld_pr("mplock ");
	mpld_prsym(mpl, 0);
	mpld_pr(" (%p) backend %s, uptime ", mpl, MPL_BE_NAME);
	mpld_prtime(now);
	mpld_pr("\n");
	mpld_print_queue(mpl, now);

	mpld_pr(" statistics    acquire recursive contended       spins "
	    "misuse   wait max    wait avg    hold max    hold avg\n");
	mpld_stats_clear(&total);
	for (i = 0; i < MAXCPUS; i++)
		mpld_stats_add(&total, &mpl->mpl_cpus[i].mplc_dbg.mdc_stats);
	mpld_print_stats("total", -1, &total);
	for (i = 0; (flags & MPLD_PR_CPUS) && i < MAXCPUS; i++) {
		st = &mpl->mpl_cpus[i].mplc_dbg.mdc_stats;
		if (st->mds_acquire != 0 || st->mds_misuse != 0)
			mpld_print_stats("cpu", i, st);
	}
	if (flags & MPLD_PR_EVENTS)
		mpld_print_events(mpl);
}

/* For ddb's "call mplock_print(kernel_lock)": everything. */
void
mplock_print(struct __mp_lock *mpl)
{
	mpld_print(mpl, MPLD_PR_EVENTS | MPLD_PR_CPUS);
}

/* Counters are per CPU; clear them when no CPU uses the lock. */
void
mplock_stats_reset(struct __mp_lock *mpl)
{
	int i;

	for (i = 0; i < MAXCPUS; i++)
		mpld_stats_clear(&mpl->mpl_cpus[i].mplc_dbg.mdc_stats);
}

#ifdef DDB
/*
 * show mplock[/acez] [addr]: the lock at addr, kernel_lock by default.
 * Owner and waiters and total statistics always; /c per-CPU
 * statistics, /e the event ring, /a both, /z reset the statistics
 * after printing them.
 */
void
db_show_mplock(db_expr_t addr, int have_addr, db_expr_t count, char *modif)
{
	struct __mp_lock *mpl = &kernel_lock;
	int flags = 0, zero = 0;
	char *m;

	if (have_addr)
		mpl = (struct __mp_lock *)addr;
	for (m = modif; *m != '\0'; m++) {
		switch (*m) {
		case 'a':
			flags |= MPLD_PR_EVENTS | MPLD_PR_CPUS;
			break;
		case 'c':
			flags |= MPLD_PR_CPUS;
			break;
		case 'e':
			flags |= MPLD_PR_EVENTS;
			break;
		case 'z':
			zero = 1;
			break;
		default:
			db_printf("usage: show mplock[/acez] [addr]\n");
			return;
		}
	}
	mpld_print(mpl, flags);
	if (zero)
		mplock_stats_reset(mpl);
}
#endif /* DDB */

#endif /* __USE_MI_MPLOCK && MPLOCK_DEBUG */
