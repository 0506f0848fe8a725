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
 * option MPLOCK_TORTURE: a torture test of kernel_lock, run once at
 * boot when every CPU is up (mplock_torture(9)).
 *
 * One kernel thread per running CPU, pegged to it, takes and releases
 * kernel_lock for MPLOCK_TORTURE_SECS seconds, and at least once however
 * late it starts (a vCPU the host does not run may start after the
 * others are done; a CPU the lock starves keeps the test from ending):
 *  - recursion 1 to 3 levels deep, the inner levels checked to keep
 *    the lock;
 *  - __mp_release_all() and __mp_acquire_count() around a sleep (at
 *    most one a tick long every 100 ms) or a yield, and yield() with the
 *    lock held (mi_switch() does the same);
 *  - __mp_lock_held() of this CPU (true while holding, false after the
 *    last release) and of every other CPU (never true while this CPU
 *    holds the lock);
 *  - plain shared words inside the critical section: an owner, a pair
 *    written one after the other and a counter, each of which a second
 *    CPU inside would tear or lose;
 * while a timeout without TIMEOUT_MPSAFE, re-armed every tick, takes the
 * lock from soft interrupt context, often on a CPU whose thread waits
 * for it.  Every broken rule counts as a violation.  Then one line is
 * printed (see the manual for its fields) ending in PASS or FAIL.
 *
 * mplock_torture_start() returns when that line is printed, so boot
 * goes on only after the test.
 */

#include <sys/param.h>
#include <sys/systm.h>
#include <sys/atomic.h>
#include <sys/kthread.h>
#include <sys/sched.h>
#include <sys/time.h>
#include <sys/timeout.h>
#include <sys/mplock.h>

#include <machine/cpu.h>

#if defined(MULTIPROCESSOR) && defined(MPLOCK_TORTURE)

/* The lock's name, from the options that choose it (kern_mplock.h). */
#if !defined(__USE_MI_MPLOCK)
#define MPLT_NAME	"md"
#elif defined(MPLOCK_TICKET)
#define MPLT_NAME	"ticket"
#elif defined(MPLOCK_MCS)
#define MPLT_NAME	"mcs"
#elif defined(MPLOCK_ANDERSON)
#define MPLT_NAME	"anderson"
#else
#define MPLT_NAME	"mlock"
#endif
#if defined(__USE_MI_MPLOCK) && defined(MPLOCK_DEBUG)
#define MPLT_DEBUG	1	/* the debug layer's statistics */
#endif
#if defined(__USE_MI_MPLOCK) && !defined(MPLOCK_TICKET) && \
    !defined(MPLOCK_MCS) && !defined(MPLOCK_ANDERSON)
#define MPLT_MLOCK	1	/* the M-lock's count of halts and kicks */
#endif

#ifndef MPLOCK_TORTURE_SECS
#define MPLOCK_TORTURE_SECS	5
#endif

/* How long the threads hammer the lock, in ms. */
u_int mplock_torture_msecs = MPLOCK_TORTURE_SECS * 1000;

/*
 * Turn waits by length, in decades from 1us: a wait of a few us is a
 * hand-off between running CPUs, one of ms a hand-off that waited for
 * a CPU (or a vCPU the host had descheduled) to run again.
 */
#define MPLT_NHIST	8

#define MPLT_OUT	0		/* thread outside __mp_lock() */
#define MPLT_WAIT	1		/* ... inside, not holding yet */
#define MPLT_HOLD	2		/* ... holding */

/* One per CPU, written by that CPU's thread; a line each. */
struct mplt_cpu {
	struct cpu_info		*mc_ci;
	u_long			 mc_acq;	/* turns taken (depth 0->1) */
	u_long			 mc_levels;	/* every __mp_lock() call */
	u_long			 mc_incs;	/* counter increments */
	uint64_t		 mc_waitmax;	/* longest turn wait, ns */
	u_long			 mc_waitn[MPLT_NHIST];	/* turn waits */
	uint64_t		 mc_waitns[MPLT_NHIST];	/* ... their ns */
	uint64_t		 mc_slept;	/* last sleep, ns */
	uint64_t		 mc_began;	/* first turn, ns after start */
	volatile u_int		 mc_state;	/* MPLT_*, for the timeout */
	u_int			 mc_seed;
#ifdef MPLT_DEBUG
	u_long			 mc_dbg_acq;	/* debug layer's count */
#endif
} __aligned(64);

struct mplt_cpu mplt_cpus[MAXCPUS];

/*
 * Only ever touched with kernel_lock held, so not atomic on purpose:
 * a second CPU inside tears or loses them.  volatile only makes the
 * compiler do every access.
 */
struct {
	volatile int		 owner;		/* CPU inside, or -1 */
	volatile u_long		 a, b;		/* equal outside */
	volatile u_long		 count;		/* one per section */
	u_long			 intr;		/* timeout calls */
	u_long			 intr_waiting;	/* ... while waiting */
	u_long			 intr_incs;	/* ... that added */
} mplt_cs = { .owner = -1 };

struct timeout mplt_to;
volatile u_int mplt_ready, mplt_done, mplt_go, mplt_stop;
volatile u_int mplt_finished;
uint64_t mplt_start;
struct cpu_info *mplt_ci[MAXCPUS];	/* every CPU, running or not */
int mplt_ncpu;
u_int mplt_nviol;
const char *mplt_first;
int mplt_first_cpu;

void	mplt_main(void *);
void	mplt_worker(void *);
void	mplt_tick(void *);

static void
mplt_violation_on(const char *what, int cpu)
{
	if (atomic_inc_int_nv(&mplt_nviol) == 1) {
		mplt_first = what;
		mplt_first_cpu = cpu;
	}
}

static void
mplt_violation(const char *what)
{
	mplt_violation_on(what, CPU_INFO_UNIT(curcpu()));
}

static u_int
mplt_rand(u_int *seed)
{
	u_int x = *seed;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*seed = x;
	return (x);
}

/* This CPU holds the lock; no other CPU may look as if it did. */
static void
mplt_check_held(struct cpu_info *self)
{
	int i;

	if (!__mp_lock_held(&kernel_lock, self))
		mplt_violation("holder not __mp_lock_held()");
	for (i = 0; i < mplt_ncpu; i++)
		if (mplt_ci[i] != self && __mp_lock_held(&kernel_lock,
		    mplt_ci[i]))
			mplt_violation("another CPU held while we hold");
}

/* List the CPUs; true when every one of them runs. */
static int
mplt_scan(void)
{
	CPU_INFO_ITERATOR cii;
	struct cpu_info *ci;
	int all = 1, n = 0;

	CPU_INFO_FOREACH(cii, ci) {
		if (n < MAXCPUS)
			mplt_ci[n++] = ci;
		if (!CPU_IS_RUNNING(ci))
			all = 0;
	}
	(void)cii;		/* some ports only ever set it */
	mplt_ncpu = n;
	return (all);
}

static void
mplt_cs_enter(int me)
{
	if (mplt_cs.owner != -1)
		mplt_violation("two CPUs in the critical section");
	mplt_cs.owner = me;
}

/* The pair is written in two steps: only a second CPU sees it torn. */
static void
mplt_cs_work(int me, u_int r)
{
	u_long v = mplt_cs.a;
	int i;

	if (mplt_cs.b != v)
		mplt_violation("shared pair torn");
	mplt_cs.a = v + 1;
	for (i = r & 31; i > 0; i--)
		CPU_BUSY_CYCLE();
	mplt_cs.b = v + 1;
	mplt_cs.count = mplt_cs.count + 1;
	if (mplt_cs.owner != me)
		mplt_violation("critical section entered by another CPU");
}

static void
mplt_cs_leave(int me)
{
	if (mplt_cs.owner != me)
		mplt_violation("lost the critical section");
	mplt_cs.owner = -1;
}

/* Take the first level, timing the wait for our turn. */
static void
mplt_lock(struct mplt_cpu *mc, int count)
{
	uint64_t t0, dt, lim;
	int h;

	mc->mc_state = MPLT_WAIT;
	t0 = nsecuptime();
	if (count == 0)
		__mp_lock(&kernel_lock);
	else
		__mp_acquire_count(&kernel_lock, count);
	dt = nsecuptime() - t0;
	mc->mc_state = MPLT_HOLD;
	if (dt > mc->mc_waitmax)
		mc->mc_waitmax = dt;
	for (h = 0, lim = 1000; h < MPLT_NHIST - 1 && dt >= lim; h++)
		lim *= 10;
	mc->mc_waitn[h]++;
	mc->mc_waitns[h] += dt;
	mc->mc_acq++;
	mc->mc_levels += count == 0 ? 1 : count;
}

void
mplt_worker(void *arg)
{
	struct mplt_cpu *mc = arg;
	struct cpu_info *self;
	uint64_t end;
	u_int r;
	int base, d, i, me, n;

	sched_peg_curproc(mc->mc_ci);
	self = curcpu();
	me = CPU_INFO_UNIT(self);
	if (self != mc->mc_ci)
		mplt_violation("thread not on the CPU it was pegged to");
	/* Kernel threads start with the lock held: start from none. */
	base = __mp_release_all(&kernel_lock);
	atomic_inc_int(&mplt_ready);
	while (mplt_go == 0)
		tsleep_nsec(&mplt_go, PWAIT, "mpltgo", MSEC_TO_NSEC(10));
	membar_consumer();
#ifdef MPLT_DEBUG
	mc->mc_dbg_acq =
	    kernel_lock.mpl_cpus[me].mplc_dbg.mdc_stats.mds_acquire;
#endif
	end = mplt_start + MSEC_TO_NSEC(mplock_torture_msecs);
	mc->mc_began = nsecuptime() - mplt_start;

	do {
		r = mplt_rand(&mc->mc_seed);
		d = 1 + r % 3;

		mplt_lock(mc, 0);
		mplt_cs_enter(me);
		mplt_check_held(self);
		for (i = 1; i < d; i++) {
			__mp_lock(&kernel_lock);
			mc->mc_levels++;
		}
		mplt_cs_work(me, r >> 8);
		mc->mc_incs++;

		switch ((r >> 16) & 63) {
		case 0:
		case 1:
			/* Let go of every level across a sleep or a yield. */
			mplt_cs_leave(me);
			mc->mc_state = MPLT_OUT;
			n = __mp_release_all(&kernel_lock);
			if (n != d)
				mplt_violation("release_all: wrong depth");
			if (__mp_lock_held(&kernel_lock, self))
				mplt_violation("held after release_all");
			/* A sleep lasts a tick: rarely, or we mostly sleep. */
			if (nsecuptime() - mc->mc_slept > MSEC_TO_NSEC(100)) {
				tsleep_nsec(mc, PWAIT, "mpltslp",
				    MSEC_TO_NSEC(1));
				mc->mc_slept = nsecuptime();
			} else
				yield();
			mplt_lock(mc, n);
			mplt_cs_enter(me);
			mplt_check_held(self);
			mplt_cs_work(me, r >> 24);
			mc->mc_incs++;
			break;
		case 2:
			/* Switch away holding it: mi_switch() lets go. */
			mplt_cs_leave(me);
			yield();
			mplt_cs_enter(me);
			mplt_check_held(self);
			mplt_cs_work(me, r >> 24);
			mc->mc_incs++;
			break;
		}

		mplt_cs_leave(me);
		for (i = 1; i < d; i++) {
			__mp_unlock(&kernel_lock);
			if (!__mp_lock_held(&kernel_lock, self))
				mplt_violation("inner unlock released");
		}
		__mp_unlock(&kernel_lock);
		mc->mc_state = MPLT_OUT;
		if (__mp_lock_held(&kernel_lock, self))
			mplt_violation("held after the last unlock");
		sched_pause(yield);
	} while (nsecuptime() < end);

#ifdef MPLT_DEBUG
	/* The debug layer counted at least our calls on this CPU. */
	if (kernel_lock.mpl_cpus[me].mplc_dbg.mdc_stats.mds_acquire -
	    mc->mc_dbg_acq < mc->mc_levels)
		mplt_violation("debug layer counted fewer acquisitions");
#endif
	__mp_acquire_count(&kernel_lock, base);
	sched_unpeg_curproc();
	atomic_inc_int(&mplt_done);
	wakeup(&mplt_done);
	kthread_exit(0);
}

/*
 * Soft interrupt context, under kernel_lock: the softclock runs
 * timeouts without TIMEOUT_MPSAFE with it held, taking it on top of
 * whatever the interrupted thread was doing, waiting included.
 */
void
mplt_tick(void *arg)
{
	struct cpu_info *self = curcpu();
	int me = CPU_INFO_UNIT(self);
	int o;

	mplt_cs.intr++;
	mplt_check_held(self);
	if (me < MAXCPUS && mplt_cpus[me].mc_state == MPLT_WAIT)
		mplt_cs.intr_waiting++;
	/* Our own thread may be inside, half way through the pair. */
	o = mplt_cs.owner;
	if (o == -1) {
		mplt_cs_enter(me);
		mplt_cs_work(me, mplt_cs.intr);
		mplt_cs.intr_incs++;
		mplt_cs_leave(me);
	} else if (o != me)
		mplt_violation("interrupt found another CPU inside");
	if (!mplt_stop)
		timeout_add(&mplt_to, 1);
}

#ifdef MPLT_MLOCK
/*
 * Guest mode: every wait that halted must have been kicked, but for the
 * one a CPU may be halted in right now (kern_mplock_mlock.h).  A kick
 * lost would show only as a wait that lasted until the CPU's next
 * clock interrupt.
 */
static void
mplt_kicks(void)
{
	struct __mp_lock_cpu_be *cb;
	int i, u;

	for (i = 0; i < mplt_ncpu; i++) {
		u = CPU_INFO_UNIT(mplt_ci[i]);
		cb = &kernel_lock.mpl_cpus[u < MAXCPUS ? u : 0].mplc_be;
		if (u < MAXCPUS && (int)(cb->mcb_halts - cb->mcb_kicks) > 1)
			mplt_violation("a halted wait was never kicked");
	}
}

/* The counts, CPU by CPU: "halts 3/0/5/2 kicks 3/0/5/2". */
static void
mplt_kicks_print(void)
{
	struct __mp_lock_cpu_be *cb;
	int i, k, u;

	printf("mplock_torture:");
	for (k = 0; k < 2; k++) {
		printf(" %s", k == 0 ? "halts" : "kicks");
		for (i = 0; i < mplt_ncpu; i++) {
			u = CPU_INFO_UNIT(mplt_ci[i]);
			cb = &kernel_lock.mpl_cpus[u < MAXCPUS ? u : 0].mplc_be;
			printf("%c%u", i == 0 ? ' ' : '/', u >= MAXCPUS ? 0 :
			    k == 0 ? cb->mcb_halts : cb->mcb_kicks);
		}
	}
	printf("\n");
}
#endif

static void
mplt_report(int nrun, uint64_t ns)
{
	struct mplt_cpu *mc;
	u_long acq = 0, incs = 0, turns = 0, waitn[MPLT_NHIST];
	uint64_t waitmax = 0, waitns[MPLT_NHIST], late = 0;
	int h, i, u, lateu = -1;

	for (h = 0; h < MPLT_NHIST; h++) {
		waitn[h] = 0;
		waitns[h] = 0;
	}

	for (i = 0; i < mplt_ncpu; i++) {
		u = CPU_INFO_UNIT(mplt_ci[i]);
		if (u >= MAXCPUS)
			continue;
		mc = &mplt_cpus[u];
		acq += mc->mc_acq;
		incs += mc->mc_incs;
		if (mc->mc_waitmax > waitmax)
			waitmax = mc->mc_waitmax;
		for (h = 0; h < MPLT_NHIST; h++) {
			waitn[h] += mc->mc_waitn[h];
			waitns[h] += mc->mc_waitns[h];
			turns += mc->mc_waitn[h];
		}
		if (mc->mc_acq == 0 && mc->mc_ci != NULL)
			mplt_violation_on("a CPU never took the lock", u);
		if (mc->mc_ci != NULL && mc->mc_began > late) {
			late = mc->mc_began;
			lateu = u;
		}
	}
	if (nrun < mplt_ncpu)
		mplt_violation("not every CPU ran the test");
	if (mplt_cs.count != incs + mplt_cs.intr_incs)
		mplt_violation("lost updates of the shared counter");
	if (mplt_cs.intr == 0)
		mplt_violation("the timeout never ran");
	if (turns != acq)
		mplt_violation("turn waits miscounted");
#ifdef MPLT_MLOCK
	mplt_kicks();
#endif
	if (mplt_nviol != 0)
		printf("mplock_torture: first violation: %s (cpu%d)\n",
		    mplt_first, mplt_first_cpu);

	printf("mplock_torture: %s %d cpus %u.%03us acq", MPLT_NAME,
	    mplt_ncpu, mplock_torture_msecs / 1000,
	    mplock_torture_msecs % 1000);
	for (i = 0; i < mplt_ncpu; i++) {
		u = CPU_INFO_UNIT(mplt_ci[i]);
		printf("%c%lu", i == 0 ? ' ' : '/',
		    u < MAXCPUS ? mplt_cpus[u].mc_acq : 0);
	}
	printf(" intr %lu (%lu waiting) violations=%u maxwait %lluus "
	    "%lluns/acq %s\n", mplt_cs.intr, mplt_cs.intr_waiting,
	    mplt_nviol, (unsigned long long)waitmax / 1000,
	    (unsigned long long)(acq ? ns / acq : 0),
	    mplt_nviol == 0 ? "PASS" : "FAIL");

	/* Where the waiting went: how many turns, and their ms. */
	printf("mplock_torture: waits <1us <10us <100us <1ms <10ms <100ms "
	    "<1s >=1s: turns");
	for (h = 0; h < MPLT_NHIST; h++)
		printf("%c%lu", h == 0 ? ' ' : '/', waitn[h]);
	printf(" ms");
	for (h = 0; h < MPLT_NHIST; h++)
		printf("%c%llu", h == 0 ? ' ' : '/',
		    (unsigned long long)waitns[h] / 1000000);
	printf("\n");
#ifdef MPLT_MLOCK
	mplt_kicks_print();
#endif

	if (late >= MSEC_TO_NSEC(mplock_torture_msecs))
		printf("mplock_torture: cpu%d began %llu ms after the start,"
		    " after the test's end: it did not run in time\n", lateu,
		    (unsigned long long)late / 1000000);
}

void
mplt_main(void *arg)
{
	struct cpu_info *ci;
	struct mplt_cpu *mc;
	uint64_t ns;
	int i, nrun, tries, u;

	/* Secondary CPUs come up on their own time: wait up to 10 s. */
	for (tries = 0; !mplt_scan() && tries < 1000; tries++)
		tsleep_nsec(&mplt_ready, PWAIT, "mpltcpu", MSEC_TO_NSEC(10));

	nrun = 0;
	for (i = 0; i < mplt_ncpu; i++) {
		ci = mplt_ci[i];
		u = CPU_INFO_UNIT(ci);
		if (!CPU_IS_RUNNING(ci) || u >= MAXCPUS)
			continue;
		mc = &mplt_cpus[u];
		mc->mc_ci = ci;
		mc->mc_seed = 0x9e3779b9U * (u + 1);
		if (kthread_create(mplt_worker, mc, NULL, "mpltorture") == 0)
			nrun++;
	}
	while (mplt_ready < nrun)
		tsleep_nsec(&mplt_ready, PWAIT, "mpltrdy", MSEC_TO_NSEC(10));

	timeout_set(&mplt_to, mplt_tick, NULL);
	timeout_add(&mplt_to, 1);
	mplt_start = nsecuptime();
	membar_producer();
	mplt_go = 1;
	wakeup(&mplt_go);

	while (mplt_done < nrun)
		tsleep_nsec(&mplt_done, PWAIT, "mpltrun", MSEC_TO_NSEC(100));
	ns = nsecuptime() - mplt_start;
	mplt_stop = 1;
	timeout_del_barrier(&mplt_to);

	mplt_report(nrun, ns);
	mplt_finished = 1;
	wakeup(&mplt_finished);
	kthread_exit(0);
}

/* A clean slate, so that the test can run more than once. */
static void
mplt_reset(void)
{
	struct mplt_cpu *mc;
	int h;

	for (mc = mplt_cpus; mc < &mplt_cpus[MAXCPUS]; mc++) {
		mc->mc_ci = NULL;
		mc->mc_acq = mc->mc_levels = mc->mc_incs = 0;
		mc->mc_waitmax = mc->mc_slept = mc->mc_began = 0;
		for (h = 0; h < MPLT_NHIST; h++) {
			mc->mc_waitn[h] = 0;
			mc->mc_waitns[h] = 0;
		}
		mc->mc_state = MPLT_OUT;
	}
	mplt_cs.owner = -1;
	mplt_cs.a = mplt_cs.b = mplt_cs.count = 0;
	mplt_cs.intr = mplt_cs.intr_waiting = mplt_cs.intr_incs = 0;
	mplt_ready = mplt_done = mplt_go = mplt_stop = mplt_finished = 0;
	mplt_nviol = 0;
	mplt_first = NULL;
	mplt_ncpu = 0;
}

void
mplock_torture_start(void)
{
	mplt_reset();
	if (kthread_create(mplt_main, NULL, NULL, "mplocktorture") != 0) {
		printf("mplock_torture: %s no thread violations=1 FAIL\n",
		    MPLT_NAME);
		return;
	}
	while (!mplt_finished)
		tsleep_nsec(&mplt_finished, PWAIT, "mpltwait",
		    MSEC_TO_NSEC(100));
}

#endif /* MULTIPROCESSOR && MPLOCK_TORTURE */
