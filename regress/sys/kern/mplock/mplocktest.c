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
 * Regress for the MI kernel lock: the shipped sys/kern sources, built
 * against the userland shim, one binary per backend.  Every test checks
 * an invariant and counts what breaks it; a hang is caught by the shim's
 * watchdog.  What each test checks: doc/testing.md.
 */

#include <sys/param.h>
#include <sys/systm.h>
#include <sys/atomic.h>
#include <sys/mplock.h>
#include <sys/time.h>
#include <sys/witness.h>

#include <machine/cpu.h>

#include <err.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shim.h"

/*
 * The queue's primitives as the kernel build has them (the MI fallbacks
 * or <machine/mplock.h>'s), for the swap test.  Not with a lock from
 * elsewhere (MPLT_FOREIGN_LOCK: the series' steps), which has none.
 */
#ifndef MPLT_FOREIGN_LOCK
#include "../../../../sys/kern/kern_mplock.h"
#define MPLT_SWAP	1
#endif

/* The debug layer's tests read its reports in ddb's output. */
#if defined(MPLOCK_DEBUG) && defined(DDB)
#define MPLT_DEBUG
#endif

#ifndef nitems
#define nitems(a)	(sizeof((a)) / sizeof((a)[0]))
#endif

static struct __mp_lock L;		/* the lock under test */
static int ncpus;			/* the host's, at least 2 */
static long count;			/* -n, 0: the test's default */
static int quick;			/* -q: defaults divided by 20 */

#define DEFAULT(n)	(count ? count : quick ? (n) / 20 : (n))
static unsigned long violations;
static const char *first_violation;

#define VIOLATION(what) do {						\
	if (__atomic_add_fetch(&violations, 1, __ATOMIC_SEQ_CST) == 1)	\
		first_violation = (what);				\
} while (0)

static void
witness_balanced(void)
{
#ifdef WITNESS
	struct shim_witness_stats w;

	shim_witness_stats(&w);
	if (w.errors || w.locks != w.unlocks) {
		printf("witness: %lu errors, %lu locks, %lu unlocks:\n%s",
		    w.errors, w.locks, w.unlocks, shim_witness_log());
		VIOLATION("WITNESS saw a wrong call, or calls do not balance");
	}
#endif
}

/* The test's figures, then PASS, or FAIL with its violations. */
static int __attribute__((__format__(__printf__, 2, 3)))
report(const char *test, const char *fmt, ...)
{
	va_list ap;

	witness_balanced();
	printf("%s/%s: ", SHIM_BE_NAME, test);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (violations) {
		printf("%s/%s: FAIL: %lu violations, first: %s\n",
		    SHIM_BE_NAME, test, violations, first_violation);
		return (1);
	}
	printf("%s/%s: PASS\n", SHIM_BE_NAME, test);
	return (0);
}

static void
check_idle(struct __mp_lock *l)
{
	int i;

	for (i = 0; i < MAXCPUS; i++) {
		if (l->mpl_cpus[i].mplc_depth != 0)
			VIOLATION("a CPU kept a depth after the test");
		if (shim_cpus[i].ci_schedstate.spc_spinning != 0)
			VIOLATION("spc_spinning not back to 0");
		if (__mp_lock_held(l, &shim_cpus[i]))
			VIOLATION("a CPU still holds the lock after the test");
	}
}

/*
 * Critical section bookkeeping shared by the stress tests: who is
 * inside, how deep (the test's own count, not the lock's), and some
 * plain shared words that a second CPU inside would tear.
 */
static volatile int cs_owner = -1;
static volatile int cs_depth[MAXCPUS];
static volatile unsigned long cs_words[4];
static volatile unsigned long cs_count;

static void
cs_enter(int me)
{
	if (cs_depth[me]++ == 0) {
		if (cs_owner != -1)
			VIOLATION("two CPUs inside the critical section");
		cs_owner = me;
	} else if (cs_owner != me)
		VIOLATION("nested acquisition without ownership");
}

static void
cs_work(int me, unsigned int *seed)
{
	unsigned long v = cs_words[0];
	int i;

	for (i = 1; i < 4; i++)
		if (cs_words[i] != v)
			VIOLATION("shared words torn");
	if ((shim_rand(seed) & 15) == 0)
		for (i = 0; i < 20; i++)
			__asm volatile("" ::: "memory");
	for (i = 0; i < 4; i++)
		cs_words[i] = v + 1;
	cs_count = cs_count + 1;
	if (cs_owner != me)
		VIOLATION("critical section entered by another CPU");
}

static void
cs_exit(int me)
{
	if (cs_owner != me)
		VIOLATION("lost ownership inside the critical section");
	if (--cs_depth[me] == 0)
		cs_owner = -1;
}

static void
cs_reset(void)
{
	cs_owner = -1;
	memset((void *)cs_depth, 0, sizeof(cs_depth));
	memset((void *)cs_words, 0, sizeof(cs_words));
	cs_count = 0;
}

/* mutex */
static long mutex_iters;

static void
mutex_cpu(int me)
{
	struct cpu_info *ci = curcpu();
	unsigned int seed = me * 7919 + 1;
	long i;

	for (i = 0; i < mutex_iters; i++) {
		__mp_lock(&L);
		cs_enter(me);
		if ((i & 63) == 0) {
			if (!__mp_lock_held(&L, ci))
				VIOLATION("holder not held()");
			__mp_lock(&L);
			cs_enter(me);
			if (L.mpl_cpus[me].mplc_depth != 2)
				VIOLATION("recursion depth is not 2");
			cs_work(me, &seed);
			cs_exit(me);
			__mp_unlock(&L);
			if (!__mp_lock_held(&L, ci))
				VIOLATION("nested unlock released the lock");
		}
		cs_work(me, &seed);
		cs_exit(me);
		__mp_unlock(&L);
		if ((i & 255) == 0)
			shim_tick();
	}
}

static int
t_mutex(void)
{
	long total = DEFAULT(10000000L);
	unsigned long expect;
	double t0, t;

	mutex_iters = total / ncpus;
	total = mutex_iters * ncpus;
	expect = total + (unsigned long)ncpus * ((mutex_iters + 63) / 64);
	cs_reset();
	t0 = shim_now();
	shim_start_cpus(ncpus, mutex_cpu);
	shim_join_cpus();
	t = shim_now() - t0;
	if (cs_count != expect)
		VIOLATION("lost updates to the shared counter");
	check_idle(&L);
	return (report("mutex", "%d cpus x %ld = %ld acquisitions in %.2f s "
	    "(%.0f ns each), counter %lu/%lu", ncpus, mutex_iters, total, t,
	    t * 1e9 / total, cs_count, expect));
}

/*
 * A CPU server: each CPU thread runs the operations the test posts to
 * it, so a test can script exactly who holds, who waits, who is idle.
 * An operation is a function of one argument; NULL ends the thread.
 */
typedef long	(*op_t)(int);

struct srv {
	volatile int	seq;
	volatile int	done;
	op_t volatile	fn;
	volatile int	arg;
	volatile long	ret;
} __aligned(64);

static struct srv srv[MAXCPUS];
static struct __mp_lock *srv_lock = &L;
static volatile int recorded[MAXCPUS * 4];
static volatile int nrecorded;

/*
 * The lock calls as operations.  Not inlined, and the call is not the
 * last thing they do, so the caller PC the debug layer reports lies
 * inside them.
 */
#define OP(name, call)							\
static __attribute__((__noinline__)) long				\
name(int arg)								\
{									\
	long rv;							\
									\
	(void)arg;							\
	rv = (call);							\
	__asm volatile("" ::: "memory");				\
	return (rv);							\
}

OP(op_lock, (__mp_lock(srv_lock), 0))
OP(op_unlock, (__mp_unlock(srv_lock), 0))
OP(op_release_all, __mp_release_all(srv_lock))
OP(op_acquire_count, (__mp_acquire_count(srv_lock, arg), 0))

/* Lock and unlock, noting the order the CPUs got the lock in. */
static long
op_lock_record(int arg)
{
	(void)arg;
	__mp_lock(srv_lock);
	recorded[nrecorded] = cpu_number();	/* under the lock */
	nrecorded = nrecorded + 1;
	__mp_unlock(srv_lock);
	return (0);
}

static void
srv_cpu(int me)
{
	struct srv *s = &srv[me];
	int seen = 0;
	op_t fn;

	do {
		while (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) == seen)
			sched_yield();
		seen = s->seq;
		fn = s->fn;
		s->ret = fn != NULL ? fn(s->arg) : 0;
		shim_tick();
		__atomic_store_n(&s->done, seen, __ATOMIC_RELEASE);
	} while (fn != NULL);
}

static void
srv_post(int cpu, op_t fn, int arg)
{
	struct srv *s = &srv[cpu];

	s->fn = fn;
	s->arg = arg;
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELEASE);
}

static int
srv_isdone(int cpu)
{
	return (__atomic_load_n(&srv[cpu].done, __ATOMIC_ACQUIRE) ==
	    srv[cpu].seq);
}

static long
srv_wait(int cpu)
{
	while (!srv_isdone(cpu))
		sched_yield();
	return (srv[cpu].ret);
}

static long
srv_call(int cpu, op_t fn, int arg)
{
	srv_post(cpu, fn, arg);
	return (srv_wait(cpu));
}

/* cpu makes k calls of fn (a lock or an unlock). */
static void
srv_calls(int cpu, op_t fn, int k)
{
	while (k-- > 0)
		srv_call(cpu, fn, 0);
}

/* Post fn (a lock) to cpu and wait until it is queued behind the owner. */
static void
srv_queue(int cpu, op_t fn)
{
	srv_post(cpu, fn, 0);
	while (shim_cpus[cpu].ci_schedstate.spc_spinning == 0) {
		if (srv_isdone(cpu)) {
			VIOLATION("a CPU got a lock that another CPU holds");
			return;
		}
		sched_yield();
	}
}

static void
srv_start(int n)
{
	memset(srv, 0, sizeof(srv));
	shim_start_cpus(n, srv_cpu);
}

/* Stop the CPU server; the lock it served must be left idle. */
static void
srv_stop(int n)
{
	int i;

	for (i = 0; i < n; i++)
		srv_call(i, NULL, 0);
	shim_join_cpus();
	check_idle(srv_lock);
}

static int
depth(int cpu)
{
	return (srv_lock->mpl_cpus[cpu].mplc_depth);
}

static int
held(int cpu)
{
	return (__mp_lock_held(srv_lock, &shim_cpus[cpu]));
}

/* The lock still works from every CPU. */
static void
srv_usable(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		srv_call(i, op_lock, 0);
		if (!held(i))
			VIOLATION("lock unusable afterwards");
		srv_call(i, op_unlock, 0);
	}
}

#if defined(MP_LOCKDEBUG) || defined(WITNESS) || defined(MPLT_DEBUG)
/*
 * An interrupt on CPU 1 while it waits behind CPU 0 (iw_begin()):
 * iw_raise() runs fn in it and returns once fn returned or spins on
 * the lock (up to 5 s); iw_end() lets CPU 1 have the lock.
 */
static op_t volatile iw_fn;
static volatile int iw_done;

static void
iw_intr(void)
{
	iw_fn(0);
	iw_done = iw_done + 1;
}

static void
iw_begin(void)
{
	srv_call(0, op_lock, 0);
	srv_queue(1, op_lock);
	shim_intr_init(iw_intr);
}

static int
iw_raise(op_t fn)
{
	double t0 = shim_now();

	iw_fn = fn;
	iw_done = 0;
	shim_intr_raise(shim_cpu_thread(1));
	while (iw_done == 0 && shim_cpus[1].ci_schedstate.spc_spinning < 2 &&
	    shim_now() - t0 < 5) {
		shim_tick();
		sched_yield();
	}
	return (iw_done);
}

static void
iw_end(void)
{
	srv_call(0, op_unlock, 0);
	srv_wait(1);
	shim_intr_init(NULL);
	if (!held(1) || depth(1) != 1)
		VIOLATION("the waiter did not get the lock after the "
		    "interrupt");
	srv_call(1, op_unlock, 0);
}
#endif

static int
t_fifo(void)
{
	int n = ncpus < 3 ? 3 : ncpus;
	long rounds = DEFAULT(1000), r;
	int queue[MAXCPUS], i, k, holder, nq;
	unsigned int seed = 4242;

	srv_start(n);
	for (r = 0; r < rounds; r++) {
		holder = r % n;
		srv_call(holder, op_lock, 0);
		for (i = 0, nq = 0; i < n; i++)
			if (i != holder)
				queue[nq++] = i;
		shim_shuffle(queue, nq, &seed);
		nrecorded = 0;
		for (i = 0; i < nq; i++) {
			srv_queue(queue[i], op_lock_record);
			/* Queued CPUs wait, the others idle: none holds. */
			for (k = 0; k < n; k++)
				if (k != holder && held(k))
					VIOLATION("a waiting or idle CPU "
					    "is held()");
			if (!held(holder))
				VIOLATION("the owner is not held()");
		}
		srv_call(holder, op_unlock, 0);
		for (i = 0; i < nq; i++)
			srv_wait(queue[i]);
		if (nrecorded != nq)
			VIOLATION("not every queued CPU got the lock");
		for (i = 0; i < nq && i < nrecorded; i++)
			if (recorded[i] != queue[i]) {
				VIOLATION("lock granted out of queue order");
				break;
			}
	}
	srv_stop(n);
	return (report("fifo", "%ld rounds, %d cpus queued behind an owner "
	    "in random order", rounds, n));
}

/*
 * releaseidle: CPU 1 and then CPU 0 take and drop the lock first, so
 * that CPU 1's last turn is stale: handing on the lock's next turn
 * (stock) and republishing CPU 1's old one (our ticket) both show.
 */
static int
t_releaseidle(void)
{
	int n = 3, i, spins;

	srv_start(n);
	for (i = 1; i >= 0; i--) {
		srv_call(i, op_lock, 0);
		srv_call(i, op_unlock, 0);
	}
	srv_call(0, op_lock, 0);
	srv_queue(2, op_lock);
	if (srv_call(1, op_release_all, 0) != 0)
		VIOLATION("__mp_release_all of a lock not held returned "
		    "non-zero");
	if (!held(0))
		VIOLATION("__mp_release_all of a lock not held released it");
	/* Give a waiter let in by mistake the time to show it. */
	for (spins = 0; spins < 1000 && !srv_isdone(2); spins++)
		sched_yield();
	if (srv_isdone(2))
		VIOLATION("__mp_release_all of a lock not held let the "
		    "waiter in");
	if (violations == 0) {
		srv_call(0, op_unlock, 0);
		srv_wait(2);
		if (!held(2) || held(0) || held(1))
			VIOLATION("the waiter did not get the lock after");
		srv_call(2, op_unlock, 0);
		srv_usable(n);
	} else {
		/* Let every CPU thread go: the lock may admit anyone. */
		if (!srv_isdone(2))
			srv_call(0, op_unlock, 0);
		srv_wait(2);
	}
	srv_stop(n);
	return (report("releaseidle", "release_all at depth 0 beside a "
	    "holder and a waiter"));
}

static int
t_recurse(void)
{
	int n = 3, d, maxd = 16;
	long rv;

	srv_start(n);
	for (d = 1; d <= maxd; d++) {
		srv_call(0, op_lock, 0);
		if (depth(0) != d)
			VIOLATION("depth does not follow recursion");
		if (!held(0) || held(1) || held(2))
			VIOLATION("held() wrong while recursing");
	}
	rv = srv_call(0, op_release_all, 0);
	if (rv != maxd)
		VIOLATION("__mp_release_all did not return the depth");
	if (held(0) || depth(0) != 0)
		VIOLATION("still held after __mp_release_all");

	/* Resume on another CPU, as after a context switch. */
	srv_call(1, op_acquire_count, (int)rv);
	if (!held(1) || depth(1) != maxd || held(0))
		VIOLATION("__mp_acquire_count on another CPU");

	/* CPU 2 waits: not held; CPU 0 idles: not held. */
	srv_queue(2, op_lock);
	if (held(2) || held(0) || !held(1))
		VIOLATION("held() wrong with a waiter");
	srv_calls(1, op_unlock, maxd - 1);
	if (!held(1) || held(2) || srv_isdone(2))
		VIOLATION("lock handed off before depth 0");
	rv = srv_call(1, op_release_all, 0);
	if (rv != 1)
		VIOLATION("__mp_release_all at depth 1 did not return 1");
	srv_wait(2);
	if (!held(2) || held(1) || depth(2) != 1)
		VIOLATION("waiter did not get the lock");
	srv_call(2, op_unlock, 0);
	srv_call(0, op_acquire_count, 0);
	if (held(0) || depth(0) != 0)
		VIOLATION("__mp_acquire_count(0) took the lock");
	/* Counting down from -3 would take it some 4 billion times. */
	srv_call(0, op_acquire_count, -3);
	if (held(0) || depth(0) != 0)
		VIOLATION("__mp_acquire_count(-3) took the lock");
	srv_usable(n);
	srv_stop(n);
	return (report("recurse", "depth %d, release_all/acquire_count across "
	    "CPUs, held() of holder, waiter and idle CPUs", maxd));
}

/*
 * intr: a CPU holding the lock interrupts another, preferably one
 * queued behind it, whose handler takes the lock as a non-MPSAFE device
 * interrupt can.
 */
static volatile int intr_stop;
static unsigned long intr_nested, intr_sent;

static void
intr_handler(void)
{
	struct cpu_info *ci = curcpu();
	int me = ci->ci_cpuid;
	unsigned int seed = me + 1;

	if (L.mpl_cpus[me].mplc_depth > 0 && !__mp_lock_held(&L, ci))
		ci->ci_intr_waiting++;
	__mp_lock(&L);
	cs_enter(me);
	cs_work(me, &seed);
	cs_exit(me);
	__mp_unlock(&L);
	__atomic_add_fetch(&intr_nested, 1, __ATOMIC_RELAXED);
	shim_tick();
}

/*
 * Called with the lock held.  Most times the target is a CPU queued
 * behind us: we wait a little (200 us) for one to spin, since a thread
 * may be off its CPU for a while (a loaded host, an emulator); the rest
 * of the time any other CPU, whatever it does.
 */
static void
intr_raise_other(int me, unsigned int *seed)
{
	int i, t = shim_rand(seed) % ncpus, queued = shim_rand(seed) & 7;
	unsigned long seen;
	double t0;

	t0 = shim_now();
	do {
		for (i = 0; i < ncpus; i++)
			if ((t + i) % ncpus != me &&
			    *(volatile u_int *)&shim_cpus[(t + i) % ncpus].
			    ci_schedstate.spc_spinning) {
				t = (t + i) % ncpus;
				queued = 0;
				break;
			}
	} while (queued && shim_now() - t0 < 200e-6);
	if (t == me)
		t = (t + 1) % ncpus;
	/* Hold on until the handler runs, so it finds its CPU queued. */
	seen = shim_cpus[t].ci_intr_count;
	shim_intr_raise(shim_cpu_thread(t));
	__atomic_add_fetch(&intr_sent, 1, __ATOMIC_RELAXED);
	t0 = shim_now();
	while (*(volatile unsigned long *)&shim_cpus[t].ci_intr_count == seen &&
	    shim_now() - t0 < 200e-6)
		CPU_BUSY_CYCLE();
}

/*
 * The bookkeeping of the interrupted thread must look atomic to the
 * handler, so it runs with interrupts disabled; the lock calls do not.
 */
static void
intr_cpu(int me)
{
	unsigned int seed = me * 31 + 7;
	unsigned long s;
	double t0;
	long i;
	int raised;

	for (i = 0; !intr_stop; i++) {
		__mp_lock(&L);
		s = intr_disable();
		cs_enter(me);
		cs_work(me, &seed);
		cs_exit(me);
		intr_restore(s);
		raised = (shim_rand(&seed) & 3) == 0;
		if (raised)
			intr_raise_other(me, &seed);
		__mp_unlock(&L);
		/*
		 * Now and then stay away, so that the CPU whose handler
		 * nested hands off to an empty queue.
		 */
		if (raised && (i & 4) == 0) {
			t0 = shim_now();
			while (shim_now() - t0 < 20e-6)
				CPU_BUSY_CYCLE();
		}
		if ((i & 255) == 0)
			shim_tick();
	}
}

static int
t_intr(void)
{
	unsigned long want = DEFAULT(100000), waiting = 0;
	double t0, t;
	int i;

	cs_reset();
	intr_stop = 0;
	intr_nested = intr_sent = 0;
	for (i = 0; i < ncpus; i++)
		shim_cpus[i].ci_intr_count = shim_cpus[i].ci_intr_waiting = 0;
	shim_intr_init(intr_handler);
	t0 = shim_now();
	shim_start_cpus(ncpus, intr_cpu);
	/*
	 * Until enough handlers nested, a tenth of them on a waiting CPU
	 * (a hundredth with the waiters halting, where one seldom is), or
	 * for up to a minute on a slow host.
	 */
	for (;;) {
		usleep(10000);
		for (waiting = 0, i = 0; i < ncpus; i++)
			waiting += *(volatile unsigned long *)
			    &shim_cpus[i].ci_intr_waiting;
		if ((__atomic_load_n(&intr_nested, __ATOMIC_RELAXED) >= want &&
		    waiting >= want / (shim_guest ? 100 : 10)) ||
		    shim_now() - t0 > 60)
			break;
	}
	intr_stop = 1;
	shim_join_cpus();
	t = shim_now() - t0;
	shim_intr_init(NULL);
	for (waiting = 0, i = 0; i < ncpus; i++)
		waiting += shim_cpus[i].ci_intr_waiting;
	if (waiting == 0)
		VIOLATION("no interrupt landed while waiting: nesting not "
		    "exercised");
	check_idle(&L);
	return (report("intr", "%d cpus, %lu interrupts raised, %lu nested "
	    "acquisitions from interrupts (%lu while queued) in %.2f s",
	    ncpus, intr_sent, intr_nested, waiting, t));
}

/* multi */
#define NLOCKS	4
static struct __mp_lock ML[NLOCKS];
static volatile int ml_owner[NLOCKS];
static volatile unsigned long ml_count[NLOCKS];
static long multi_iters;

static void
multi_cpu(int me)
{
	struct cpu_info *ci = curcpu();
	unsigned int seed = me * 131 + 3, mask;
	long i;
	int k;

	for (i = 0; i < multi_iters; i++) {
		mask = shim_rand(&seed) % (1 << NLOCKS);
		for (k = 0; k < NLOCKS; k++) {
			if ((mask & (1 << k)) == 0)
				continue;
			__mp_lock(&ML[k]);
			if (ml_owner[k] != -1)
				VIOLATION("two CPUs hold one instance");
			ml_owner[k] = me;
		}
		for (k = 0; k < NLOCKS; k++) {
			if (__mp_lock_held(&ML[k], ci) != !!(mask & (1 << k)))
				VIOLATION("held() mixes up instances");
			if (mask & (1 << k)) {
				if ((i & 7) == 0) {
					__mp_lock(&ML[k]);
					__mp_unlock(&ML[k]);
				}
				ml_count[k] = ml_count[k] + 1;
			}
		}
		for (k = NLOCKS - 1; k >= 0; k--) {
			if ((mask & (1 << k)) == 0)
				continue;
			if (ml_owner[k] != me)
				VIOLATION("instance lost its owner");
			ml_owner[k] = -1;
			__mp_unlock(&ML[k]);
		}
		if ((i & 255) == 0)
			shim_tick();
	}
}

static int
t_multi(void)
{
	long total = DEFAULT(400000);
	int k;

	multi_iters = total / ncpus;
	for (k = 0; k < NLOCKS; k++) {
		__mp_lock_init(&ML[k]);
		ml_owner[k] = -1;
		ml_count[k] = 0;
	}
	shim_start_cpus(ncpus, multi_cpu);
	shim_join_cpus();
	for (k = 0; k < NLOCKS; k++)
		check_idle(&ML[k]);
	return (report("multi", "%d instances, %d cpus x %ld rounds, "
	    "counts %lu/%lu/%lu/%lu", NLOCKS, ncpus, multi_iters, ml_count[0],
	    ml_count[1], ml_count[2], ml_count[3]));
}

/* spinout */
#if defined(MP_LOCKDEBUG) || defined(MPLT_DEBUG)
/*
 * A refused call reported line (the debug layer's, after "mplock L: ";
 * without it, MP_LOCKDEBUG's for an unlock), ddb entered n times so far.
 */
static void
reported(const char *line, unsigned long n)
{
	const char *out = shim_db_output(), *p;
	char want[160];

#ifdef MPLOCK_DEBUG
	snprintf(want, sizeof(want), "mplock L: %s", line);
#else
	snprintf(want, sizeof(want), "__mp_unlock(%p): not held lock\n",
	    (void *)&L);
#endif
	if ((p = strstr(out, want)) == NULL || strchr(p, '\n') == NULL) {
		printf("no line \"%s\" in:\n%s", want, out);
		VIOLATION("a refused call not reported, or in other words");
	} else if (shim_db_enters() != n) {
		printf("%s: ddb entered %lu times, not %lu\n", want,
		    shim_db_enters(), n);
		VIOLATION("a refused call did not enter ddb exactly once");
	}
}
#endif

#ifdef MP_LOCKDEBUG
/*
 * With -g a waiter that halts counts the time of each halt for the
 * spin-out once an interrupt ends the halt: the kernel's clock does,
 * here an empty interrupt on the waiter each ms db_wait() polls.
 */
static void
guest_tick_intr(void)
{
}

/* The CPU time cpu's thread has run, in s; -1 if unknown. */
static double
cpu_secs(int cpu)
{
	clockid_t cid;
	struct timespec ts;

	if (pthread_getcpuclockid(shim_cpu_thread(cpu), &cid) != 0 ||
	    clock_gettime(cid, &ts) != 0)
		return (-1);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

/*
 * Wait for n entries into ddb, or for the waiter to finish its call,
 * while it spins out.  n spin-outs take the waiter some ms of its own
 * CPU time: once it has run 1 s, a spin-out that never comes is not
 * late, however the threads were scheduled.  A halting waiter (-g) runs
 * little: there the cap is 20 s.
 */
static void
db_wait(unsigned long n, int waiter)
{
	double t0 = shim_now(), c0 = shim_guest ? -1 : cpu_secs(waiter);

	if (shim_guest)
		shim_intr_init(guest_tick_intr);
	while (shim_db_enters() < n && shim_now() - t0 < 20 &&
	    (c0 < 0 || cpu_secs(waiter) - c0 < 1) &&
	    !srv_isdone(waiter)) {
		shim_tick();
		usleep(1000);
		if (shim_guest)
			shim_intr_raise(shim_cpu_thread(waiter));
	}
	if (shim_guest)
		shim_intr_init(NULL);
}

/*
 * cpu, waiting for the lock, spins out: its call goes on, with 3
 * reports or more, one of them fmt's line about L (in want).
 */
static void
spins_out(int cpu, const char *fmt, char *want, size_t len)
{
	db_wait(3, cpu);
	if (srv_isdone(cpu))
		VIOLATION("a waiting call returned while the lock was held");
	if (shim_db_enters() < 3)
		VIOLATION("no repeated spin-out report (not re-armed?)");
	snprintf(want, len, fmt, (void *)&L);
	if (strstr(shim_db_output(), want) == NULL)
		VIOLATION("spin-out report missing or malformed");
}

#ifdef MPLOCK_MCS
/*
 * MCS: CPU 2 queues as mpl_be_enqueue() does but does not link itself
 * behind its predecessor yet, as a CPU stopped between its swap and its
 * link would; the owner's hand-off then waits for the link.
 */
static long
so_mcs_swap_only(int cpu)
{
	struct __mp_lock_cpu *c = &L.mpl_cpus[cpu];
	struct __mp_lock_mcs_node *me = &c->mplc_be.mcb_node;

	/* WITNESS is told now what __mp_lock() would tell it. */
	WITNESS_CHECKORDER(&L.mpl_lock_obj, LOP_EXCLUSIVE | LOP_NEWORDER,
	    NULL);
	WITNESS_LOCK(&L.mpl_lock_obj, LOP_EXCLUSIVE);
	me->mmn_next = NULL;
	me->mmn_locked = 1;
	c->mplc_want = 0;
	c->mplc_wait = &me->mmn_locked;
	c->mplc_depth = 1;
	return ((long)__atomic_exchange_n(&L.mpl_be.mlb_tail, me,
	    __ATOMIC_SEQ_CST));
}

static void
so_mcs_link_wait(void)
{
	struct __mp_lock_mcs_node *n0 = &L.mpl_cpus[0].mplc_be.mcb_node;
	struct __mp_lock_mcs_node *n2 = &L.mpl_cpus[2].mplc_be.mcb_node;
	char want[128];

	shim_db_reset();
	srv_call(0, op_lock, 0);
	if (srv_call(2, so_mcs_swap_only, 2) != (long)n0)
		VIOLATION("stuck link: the swap did not return CPU 0's node");
	srv_post(0, op_unlock, 0);
	spins_out(0, "mpl_be_handoff: %p lock spun out waiting for the "
	    "successor's link\n", want, sizeof(want));
	__atomic_store_n(&n0->mmn_next, n2, __ATOMIC_RELEASE);
	srv_wait(0);
	if (!held(2) || held(0))
		VIOLATION("stuck link: no hand-off once the link came");
	srv_call(2, op_unlock, 0);
	printf("spinout: stuck link: %lu reports, ddb output:\n%s",
	    shim_db_enters(), shim_db_output());
}
#endif

static int
t_spinout(void)
{
	char want[128];
	const char *p;
	long saved = __mp_lock_spinout;
	unsigned long enters, reports;
	int n = 3;

	srv_start(n);
	shim_db_reset();
	__mp_lock_spinout = 20000;
	srv_call(0, op_lock, 0);
	srv_post(1, op_lock, 0);
	spins_out(1, "__mp_lock_spin: %p lock spun out\n", want,
	    sizeof(want));
	srv_call(0, op_unlock, 0);
	srv_wait(1);
	if (!held(1))
		VIOLATION("waiter did not carry on after the spin-out");
	/* Every report entered ddb once, and nothing else did. */
	enters = shim_db_enters();
	for (reports = 0, p = shim_db_output(); (p = strstr(p, want)) != NULL;
	    p++)
		reports++;
	if (reports != enters)
		VIOLATION("spin-out reports and ddb entries differ");
	srv_call(1, op_unlock, 0);
	__mp_lock_spinout = saved;
	printf("spinout: ddb output:\n%s", shim_db_output());

	/* Unlock of a lock this CPU does not hold. */
	shim_db_reset();
	srv_call(2, op_unlock, 0);
	reported("__mp_unlock of a lock not held: cpu 2 depth 0 owner none "
	    "at op_unlock+", 1);
	if (depth(2) != 0)
		VIOLATION("unlock of a lock not held changed the depth");
	srv_call(2, op_lock, 0);
	srv_call(2, op_unlock, 0);
	printf("spinout: ddb output:\n%s", shim_db_output());

#ifdef MPLOCK_MCS
	__mp_lock_spinout = 20000;
	so_mcs_link_wait();
	__mp_lock_spinout = saved;
#endif
	srv_stop(n);
	return (report("spinout", "%lu spin-out reports, ddb entered %lu "
	    "times", reports, enters));
}

/* intrunlock */
static int
t_intrunlock(void)
{
	int n = 3;

	srv_start(n);
	shim_db_reset();
	iw_begin();
	if (!iw_raise(op_unlock))
		VIOLATION("the interrupt handler did not run");
	reported("__mp_unlock on a CPU that is not the owner: cpu 1 depth 1 "
	    "owner cpu 0 at ", 1);
	if (depth(1) != 1 || held(1) || srv_isdone(1) || !held(0))
		VIOLATION("unlock from an interrupt on a waiting CPU changed "
		    "the lock");
	iw_end();
	printf("intrunlock: ddb output:\n%s", shim_db_output());
	srv_stop(n);
	return (report("intrunlock", "unlock from an interrupt on a waiting "
	    "CPU refused"));
}
#endif /* MP_LOCKDEBUG */

/*
 * torture: run as a kernel runs it: main() holds the kernel lock and
 * calls mplock_torture_start(); CPU 0 runs, the others come up 50 ms
 * later.  -n: run time in ms.
 */
extern u_int mplock_torture_msecs;

static void *
torture_cpus_up(void *arg)
{
	int i, n = *(int *)arg;

	usleep(50 * 1000);
	for (i = 1; i < n; i++)
		__atomic_or_fetch(&shim_cpus[i].ci_flags, CPUF_RUNNING,
		    __ATOMIC_RELEASE);
	return (NULL);
}

/* The summary line, field by field; 0 when it does not parse. */
static int
torture_parse(const char *line, int n, unsigned long *acq,
    unsigned long *intr, unsigned long *waiting, unsigned int *viol,
    char *verdict)
{
	char name[32];
	const char *p;
	unsigned long long maxwait, nsacq;
	unsigned int sec, ms;
	int cpus, off = 0, i;
	char *ep;

	if (sscanf(line, "mplock_torture: %31s %d cpus %u.%us acq %n", name,
	    &cpus, &sec, &ms, &off) != 4 || off == 0)
		return (0);
	if (strcmp(name, SHIM_BE_NAME) != 0 || cpus != n)
		return (0);
	p = line + off;
	for (i = 0; i < n; i++) {
		acq[i] = strtoul(p, &ep, 10);
		if (ep == p || (*ep != (i == n - 1 ? ' ' : '/')))
			return (0);
		p = ep + 1;
	}
	off = 0;
	if (sscanf(p, "intr %lu (%lu waiting) violations=%u maxwait %lluus "
	    "%lluns/acq %7s%n", intr, waiting, viol, &maxwait, &nsacq,
	    verdict, &off) != 6 || p[off] != '\n')
		return (0);
	return (1);
}

/* The waits line: *turns gets its turns' sum; 0 when it does not parse. */
static int
torture_waits(const char *line, unsigned long *turns)
{
	const char *p;
	char *ep;
	int h;

	if ((p = strstr(line, ": turns ")) == NULL)
		return (0);
	p += 8;
	*turns = 0;
	for (h = 0; h < 8; h++) {
		*turns += strtoul(p, &ep, 10);
		if (ep == p || *ep != (h == 7 ? ' ' : '/'))
			return (0);
		p = ep + 1;
	}
	return (strncmp(p, "ms ", 3) == 0);
}

/* One run: its time in s; *waiting: the timeout calls on a waiting CPU. */
static double
torture_run(int n, unsigned long *waiting)
{
	unsigned long acq[MAXCPUS], intr = 0, calls, turns = 0, sum;
	unsigned int viol = ~0U;
	char verdict[8] = "", *out, *line, *p;
	pthread_t up;
	int i, nlines = 0, nwaits = 0, ok = 0, wok = 0;
	double t0, t;

	*waiting = 0;
	shim_ncpus = n;
	for (i = 0; i < n; i++) {
		shim_cpus[i].ci_cpuid = i;
		shim_cpus[i].ci_flags = i == 0 ? CPUF_RUNNING : 0;
		shim_cpus[i].ci_schedstate.spc_schedflags = 0;
	}
	__mp_lock_init(&kernel_lock);
	shim_witness_reset();
	shim_clock_start();
	if (pthread_create(&up, NULL, torture_cpus_up, &n) != 0)
		err(2, "pthread_create");

	t0 = shim_now();
	shim_capture_start();
	__mp_lock(&kernel_lock);	/* main() runs with it held */
	mplock_torture_start();
	__mp_unlock(&kernel_lock);
	out = shim_capture_end();
	t = shim_now() - t0;
	fputs(out, stdout);

	pthread_join(up, NULL);
	shim_kthread_join();
	shim_clock_stop();
	calls = shim_timeouts_run();

	for (line = out; *line != '\0'; line = p + 1) {
		if ((p = strchr(line, '\n')) == NULL)
			break;
		if (strncmp(line, "mplock_torture: ", 16) != 0 ||
		    strncmp(line + 16, "first violation: ", 17) == 0 ||
		    strncmp(line + 16, "cpu", 3) == 0)	/* began late */
			continue;
		if (strncmp(line + 16, "waits ", 6) == 0) {
			nwaits++;
			wok = torture_waits(line, &turns);
			continue;
		}
		/* The M-lock's halts and kicks (guest mode). */
		if (strncmp(line + 16, "halts ", 6) == 0)
			continue;
		nlines++;
		ok = torture_parse(line, n, acq, &intr, waiting, &viol,
		    verdict);
	}
	if (nlines != 1)
		VIOLATION("not exactly one mplock_torture line");
	else if (!ok)
		VIOLATION("the summary line does not parse");
	else {
		if (strcmp(verdict, "PASS") != 0 || viol != 0)
			VIOLATION("the kernel's torture test reported FAIL");
		for (i = 0, sum = 0; i < n; i++) {
			if (acq[i] == 0)
				VIOLATION("a CPU took no part");
			sum += acq[i];
		}
		if (nwaits != 1 || !wok)
			VIOLATION("not exactly one waits line that parses");
		else if (turns != sum)
			VIOLATION("the waits line misses turns");
		if (intr == 0 || intr != calls)
			VIOLATION("timeout calls differ from the shim's count");
	}
	check_idle(&kernel_lock);
	witness_balanced();
	free(out);
	shim_ncpus = 0;
	return (t);
}

/*
 * swap: the lock tests rarely overlap two swaps, as the hand-off keeps
 * them apart; this runs until every CPU has made SWAP_OVERLAP (-n)
 * swaps while another CPU swapped (up to 30 s).
 */
#define SWAP_OVERLAP	5000	/* a torn swap shows within some 100 */
#define SW_BITS		((int)sizeof(unsigned long) * 8)
#ifdef MPLT_SWAP
static void *volatile sw_word;
static volatile unsigned long sw_count[MAXCPUS];
static unsigned long sw_overlap[MAXCPUS];
/* Sum and xor of the tokens in, less (xor) those out: the word's end. */
static unsigned long sw_sum[MAXCPUS], sw_xor[MAXCPUS];
static volatile int sw_stop;

static unsigned long
sw_others(int me)
{
	unsigned long n = 0;
	int i;

	for (i = 0; i < ncpus; i++)
		if (i != me)
			n += __atomic_load_n(&sw_count[i], __ATOMIC_RELAXED);
	return (n);
}

static void
swap_cpu(int me)
{
	unsigned long i, tok, o, before;

	/* Tokens: the CPU in the top byte, never 0 (the word's start). */
	for (i = 1; !sw_stop; i++) {
		tok = ((unsigned long)(me + 1) << (SW_BITS - 8)) |
		    (i & ((1UL << (SW_BITS - 8)) - 1));
		before = sw_others(me);
		o = (unsigned long)mpl_swap_ptr(&sw_word, (void *)tok);
		if (sw_others(me) != before)
			sw_overlap[me]++;
		sw_sum[me] += tok - o;
		sw_xor[me] ^= tok ^ o;
		__atomic_store_n(&sw_count[me], i, __ATOMIC_RELAXED);
		if ((i & 255) == 0)
			shim_tick();
	}
}

static int
t_swap(void)
{
	unsigned long sum = 0, xor = 0, least, o;
	double t0;
	int i;

	sw_word = NULL;
	sw_stop = 0;
	for (i = 0; i < ncpus; i++)
		sw_count[i] = sw_overlap[i] = sw_sum[i] = sw_xor[i] = 0;
	t0 = shim_now();
	shim_start_cpus(ncpus, swap_cpu);
	do {
		usleep(10000);
		least = ~0UL;
		for (i = 0; i < ncpus; i++)
			if ((o = __atomic_load_n(&sw_overlap[i],
			    __ATOMIC_RELAXED)) < least)
				least = o;
	} while (least < (unsigned long)DEFAULT(SWAP_OVERLAP) &&
	    shim_now() - t0 < 30);
	sw_stop = 1;
	shim_join_cpus();
	for (i = 0; i < ncpus; i++) {
		sum += sw_sum[i];
		xor ^= sw_xor[i];
	}
	if (sum != (unsigned long)sw_word || xor != (unsigned long)sw_word)
		VIOLATION("a value swapped in did not come out exactly once");
	if (least == 0)
		VIOLATION("no swap overlapped another CPU's: not tested");
	return (report("swap", "%d cpus, %lu overlapping swaps on the "
	    "least overlapped CPU in %.2f s", ncpus, least, shim_now() - t0));
}
#endif /* MPLT_SWAP */

/*
 * A slow or crowded machine (an emulator, more CPU threads than cores)
 * may let no timeout land on a waiting CPU in a short run: then run
 * again, twice as long, up to 4 runs; each run is checked in full.
 */
static int
t_torture(void)
{
	unsigned long waiting = 0, w;
	unsigned long kt = shim_kthreads_created();
	double t = 0;
	int runs;

	mplock_torture_msecs = DEFAULT(2000);
	for (runs = 1; ; runs++) {
		t += torture_run(ncpus, &w);
		waiting += w;
		if (waiting > 0 || violations != 0 || runs == 4)
			break;
		mplock_torture_msecs *= 2;
	}
	if (waiting == 0)
		VIOLATION("no timeout ran on a CPU waiting for the lock");
	if (shim_kthreads_created() - kt != (unsigned long)runs * (ncpus + 1))
		VIOLATION("not one kernel thread per CPU and a coordinator");
	return (report("torture", "%d cpus, %d run(s), last %u ms, %.2f s "
	    "in all, %lu timeout calls while waiting", ncpus, runs,
	    mplock_torture_msecs, t, waiting));
}

/* halt: each case scripted, so that it happens however the host runs. */
#define HALT_WAKE	2		/* s */
#define HALT_SPIN_MS	50

#ifdef MPL_BE_HALT
enum { H_HALTED, H_WINDOW, H_NESTED, H_INTROFF, H_DDB, H_PANIC, H_COLD,
    H_NCASES };
static const char *const h_names[] = { "halted", "window", "nested",
    "interrupts-off", "ddb", "panic", "cold" };
static volatile int h_case, h_locked, h_got, h_rescue;
static volatile int h_body_in, h_body_held, h_body_done;

static void
halt_intr(void)
{
	if (h_case != H_NESTED || h_body_in || h_rescue)
		return;
	h_body_in = 1;
	__mp_lock(&L);
	h_body_held = __mp_lock_held(&L, curcpu());
	__mp_unlock(&L);
	h_body_done = 1;
}

/* Up to s seconds for *p nonzero or, p NULL, for CPU 1's n-th halt. */
static int
halt_until(volatile int *p, unsigned long n, double s)
{
	double t0 = shim_now();

	while (p != NULL ? !*p :
	    __atomic_load_n(&shim_halts[1], __ATOMIC_SEQ_CST) < n) {
		if (shim_now() - t0 > s)
			return (0);
		shim_tick();
		sched_yield();
	}
	return (1);
}

static void
halt_cpu0(void)
{
	unsigned long h0 = shim_halts[1];
	unsigned long s;

	__mp_lock(&L);
	h_locked = 1;
	switch (h_case) {
	case H_HALTED:
		if (!halt_until(NULL, h0 + 1, 10))
			VIOLATION("CPU 1 never halted");
		break;
	case H_WINDOW:
		if (!halt_until(&shim_halt_holding[1], 0, 10))
			VIOLATION("CPU 1 never came to halt");
		break;
	case H_NESTED:
		if (!halt_until(NULL, h0 + 1, 10))
			VIOLATION("CPU 1 never halted");
		shim_intr_raise(shim_cpu_thread(1));
		if (!halt_until(NULL, h0 + 2, 10))
			VIOLATION("the interrupt's wait never halted");
		break;
	default:
		/* CPU 1 waits: it must spin, not halt. */
		if (!halt_until((volatile int *)
		    &shim_cpus[1].ci_schedstate.spc_spinning, 0, 10))
			VIOLATION("CPU 1 never waited");
		usleep(HALT_SPIN_MS * 1000);
		if (shim_halts[1] != h0)
			VIOLATION("a wait halted where it must spin");
		break;
	}
	__mp_unlock(&L);
	if (h_case == H_WINDOW)
		shim_halt_hold = -1;
	if (!halt_until(&h_got, 0, HALT_WAKE)) {
		VIOLATION("a kick was lost: the CPU stayed halted");
		/* End the halt, so that the test can go on. */
		h_rescue = 1;
		while (!h_got) {
			s = intr_disable();
			shim_intr_raise(shim_cpu_thread(1));
			intr_restore(s);
			usleep(1000);
			shim_tick();
		}
	}
}

static void
halt_cpu(int me)
{
	unsigned long s = 0;

	if (me == 0) {
		halt_cpu0();
		return;
	}
	while (!h_locked)
		sched_yield();
	switch (h_case) {
	case H_INTROFF:
		s = intr_disable();
		break;
	case H_DDB:
		db_active = 1;
		break;
	case H_PANIC:
		panicstr = "halt test";
		break;
	case H_COLD:
		cold = 1;
		break;
	}
	__mp_lock(&L);
	if (!__mp_lock_held(&L, curcpu()))
		VIOLATION("CPU 1 does not hold the lock it got");
	if (h_case == H_NESTED && !h_rescue &&
	    (!h_body_done || !h_body_held))
		VIOLATION("the interrupt did not hold the lock first");
	h_got = 1;
	__mp_unlock(&L);
	if (h_case == H_INTROFF)
		intr_restore(s);
	db_active = 0;
	panicstr = NULL;
	cold = 0;
}

static int
t_halt(void)
{
	struct __mp_lock_cpu_be *cb = &L.mpl_cpus[1].mplc_be;
	unsigned int spin = mplock_guest_spin;
	int guest = shim_guest;
	u_int h, k;
	double t0 = shim_now();

	shim_guest = 1;
	mplock_guest_spin = 1000;
	shim_intr_init(halt_intr);
	for (h_case = 0; h_case < H_NCASES; h_case++) {
		__mp_lock_init(&L);
		h_locked = h_got = h_rescue = 0;
		h_body_in = h_body_held = h_body_done = 0;
		shim_halt_hold = h_case == H_WINDOW ? 1 : -1;
		h = cb->mcb_halts;
		k = cb->mcb_kicks;
		shim_start_cpus(2, halt_cpu);
		shim_join_cpus();
		if (h_case <= H_NESTED && cb->mcb_halts != h + 1)
			VIOLATION("a halt the lock did not count");
		if (cb->mcb_halts - h != cb->mcb_kicks - k)
			VIOLATION("halts and kicks differ");
		printf("%s/halt: %s: %u halt(s), %u kick(s)%s\n", SHIM_BE_NAME,
		    h_names[h_case], cb->mcb_halts - h, cb->mcb_kicks - k,
		    h_rescue ? ", woken by the test" : "");
		if (violations)
			break;
	}
	shim_halt_hold = -1;
	shim_intr_init(NULL);
	check_idle(&L);
	shim_guest = guest;
	mplock_guest_spin = spin;
	__mp_lock_init(&L);
	return (report("halt", "%d cases in %.2f s",
	    h_case < H_NCASES ? h_case + 1 : H_NCASES, shim_now() - t0));
}
#endif /* MPL_BE_HALT */

/* The symbols ddb prints in the debug layer's reports. */
static void
dbg_syms(void)
{
	shim_sym_add("L", &L);
	shim_sym_add("kernel_lock", &kernel_lock);
	shim_sym_add("op_lock", (void *)op_lock);
	shim_sym_add("op_unlock", (void *)op_unlock);
	shim_sym_add("op_release_all", (void *)op_release_all);
	shim_sym_add("op_acquire_count", (void *)op_acquire_count);
	shim_sym_add("srv_cpu", (void *)srv_cpu);
	shim_sym_add("__mp_acquire_count", (void *)__mp_acquire_count);
}

/*
 * lockorder: kernel_lock's WITNESS name and flags, the WITNESS checker,
 * then the front end under it across CPUs.
 */
#ifdef WITNESS
static struct shim_mtx lo_mtx;
static const struct lock_type lo_mtx_type = { .lt_name = "test_mtx" };

OP(lo_relock, (__mp_lock(&kernel_lock), __mp_unlock(&kernel_lock), 0))

static long
lo_switch(int pid)
{
	shim_proc_switch(pid);
	return (0);
}

/* Both locks: kernel_lock first, or with mtx_first test_mtx first. */
static long
lo_both(int mtx_first)
{
	if (mtx_first)
		shim_mtx_enter(&lo_mtx);
	__mp_lock(&kernel_lock);
	if (!mtx_first)
		shim_mtx_enter(&lo_mtx);
	__mp_unlock(&kernel_lock);
	shim_mtx_leave(&lo_mtx);
	return (0);
}

/* The checker's errors so far, text among them; none: calls balanced. */
static void
lo_expect(const char *what, unsigned long errors, const char *text)
{
	struct shim_witness_stats w;

	shim_witness_stats(&w);
	if (w.errors != errors || (text != NULL &&
	    strstr(shim_witness_log(), text) == NULL) || (errors == 0 &&
	    (w.held || w.pending || w.unchecked || w.locks != w.unlocks))) {
		printf("lockorder: %s: errors %lu held %lu pending %lu "
		    "unchecked %lu locks %lu unlocks %lu\n%s", what, w.errors,
		    w.held, w.pending, w.unchecked, w.locks, w.unlocks,
		    shim_witness_log());
		VIOLATION("WITNESS errors missed or invented, or lock calls "
		    "unbalanced or unchecked");
	}
}

static int
t_lockorder(void)
{
	static const struct lock_type fake_type = { .lt_name = "fake" };
	static const char *lor[] = {
	    "lock order reversal: &kernel_lock after test_mtx, but "
	    "&kernel_lock -> test_mtx",
	    "lock order reversal: test_mtx after &kernel_lock, but "
	    "test_mtx -> &kernel_lock" };
	struct lock_object fake, *klo = &kernel_lock.mpl_lock_obj;
	struct shim_witness_stats w;
	unsigned int kflags = LO_WITNESS | LO_INITIALIZED | LO_SLEEPABLE |
	    (LO_CLASS_KERNEL_LOCK << LO_CLASSSHIFT);
	int n = 3, i;

	__mp_lock_init(&kernel_lock);
	if (strcmp(kernel_lock.mpl_lock_obj.lo_name, "&kernel_lock") != 0)
		VIOLATION("kernel_lock has the wrong WITNESS name");
	if (kernel_lock.mpl_lock_obj.lo_flags != kflags)
		VIOLATION("kernel_lock has the wrong WITNESS flags");
	if (L.mpl_lock_obj.lo_flags & LO_WITNESS)
		VIOLATION("an ordinary __mp_lock got kernel_lock's flags");

	/* The checker itself must catch each of these. */
	shim_witness_reset();
	__mp_lock_init(&kernel_lock);
	shim_mtx_init(&lo_mtx, &lo_mtx_type);
	memset(&fake, 0, sizeof(fake));
	fake.lo_name = "fake";
	fake.lo_flags = LO_WITNESS | LO_SLEEPABLE |
	    (LO_CLASS_KERNEL_LOCK << LO_CLASSSHIFT);
	shim_witness_init(&fake, &fake_type);
	lo_expect("second kernel lock", 1, "second lock in the kernel lock");
	fake.lo_flags &= ~LO_SLEEPABLE;
	shim_witness_init(&fake, &fake_type);
	lo_expect("not sleepable", 3, "kernel lock class not sleepable");
	shim_witness_unlock(klo, LOP_EXCLUSIVE);
	lo_expect("unlock not held", 4, "unlock of a lock not held");
	__mp_lock(&kernel_lock);
	shim_witness_checkorder(klo, LOP_EXCLUSIVE | LOP_NEWORDER, NULL);
	lo_expect("checked while held", 5, "recursed on non-recursive");
	__mp_unlock(&kernel_lock);
	shim_mtx_enter(&lo_mtx);
	shim_witness_lock(&lo_mtx.mtx_lo, LOP_EXCLUSIVE);
	lo_expect("mutex recursion", 6, "recursed on a mutex");
	shim_witness_unlock(&lo_mtx.mtx_lo, LOP_EXCLUSIVE);
	shim_mtx_leave(&lo_mtx);
	shim_witness_lock(&lo_mtx.mtx_lo, LOP_EXCLUSIVE);
	shim_witness_stats(&w);
	if (w.unchecked != 1)
		VIOLATION("a lock without an order check went unnoticed");
	shim_witness_unlock(&lo_mtx.mtx_lo, LOP_EXCLUSIVE);
	lo_expect("self-test", 6, NULL);

	/*
	 * A process carries the kernel lock from CPU 0 to CPU 1: an order
	 * check only when not held, one unlock per level.
	 */
	shim_witness_reset();
	__mp_lock_init(&kernel_lock);
	shim_mtx_init(&lo_mtx, &lo_mtx_type);
	srv_lock = &kernel_lock;
	srv_start(n);
	srv_call(0, lo_switch, 10);
	srv_calls(0, op_lock, 3);
	if (srv_call(0, op_release_all, 0) != 3)
		VIOLATION("release_all returned the wrong depth");
	srv_call(0, lo_switch, 0);
	srv_call(1, lo_switch, 10);
	srv_call(1, op_acquire_count, 3);
	srv_calls(1, op_unlock, 3);
	shim_witness_stats(&w);
	if (w.checkorders != 2 || w.locks != 6 || w.unlocks != 6)
		VIOLATION("mi_switch: checkorder/lock/unlock counts wrong");
	lo_expect("mi_switch", 0, NULL);

	/* An interrupt takes the lock while its CPU waits for it. */
	shim_witness_reset();
	iw_begin();
	iw_raise(lo_relock);
	iw_end();
	if (iw_done != 1)
		VIOLATION("the interrupt did not take the lock");
	shim_witness_stats(&w);
	if (w.checkorders != 3 || w.locks != 3)
		VIOLATION("interrupt while waiting: counts wrong");
	lo_expect("interrupt while waiting", 0, NULL);

	/* The same order twice is fine; the other order is a reversal. */
	for (i = 0; i < 2; i++) {
		shim_witness_reset();
		srv_call(i, lo_both, i);
		srv_call(1, lo_both, i);
		lo_expect("the same order twice", 0, NULL);
		srv_call(1 - i, lo_both, !i);
		lo_expect("the other order", 1, lor[i]);
		printf("lockorder: %s", shim_witness_log());
	}
	shim_witness_stats(&w);
	if (w.lors != 1 || w.held || w.pending)
		VIOLATION("reversal not counted, or calls unbalanced");

	srv_stop(n);
	srv_lock = &L;
	shim_witness_reset();
	return (report("lockorder", "recursion, checker self-test, "
	    "mi_switch, interrupt while waiting, reversal in both orders"));
}
#endif /* WITNESS */

#ifdef MPLT_DEBUG
/*
 * misuse: each with the report it must print after "mplock L: "; a row
 * without one sets up the next.  The last two are made from an
 * interrupt on CPU 1 while it waits behind CPU 0.
 */
static const struct {
	int		  cpu;
	long		(*fn)(int);
	int		  arg;
	const char	 *line;
} mis_script[] = {
	{ 0, op_unlock, 0, "__mp_unlock of a lock not held: cpu 0 "
	    "depth 0 owner none at op_unlock+" },
	{ 1, op_lock, 0, NULL },
	{ 0, op_unlock, 0, "__mp_unlock on a CPU that is not the owner: "
	    "cpu 0 depth 0 owner cpu 1 at op_unlock+" },
	{ 0, op_release_all, 0, "__mp_release_all on a CPU that is not "
	    "the owner: cpu 0 depth 0 owner cpu 1 at op_release_all+" },
	{ 1, op_unlock, 0, NULL },
	{ 0, op_release_all, 0, "__mp_release_all of a lock not held: "
	    "cpu 0 depth 0 owner none at op_release_all+" },
	{ 2, op_acquire_count, 0, "__mp_acquire_count with count 0: "
	    "cpu 2 depth 0 owner none at op_acquire_count+" },
	{ 2, op_acquire_count, -3, "__mp_acquire_count with count -3: "
	    "cpu 2 depth 0 owner none at op_acquire_count+" },
	{ 1, op_unlock, 0, "__mp_unlock on a CPU that is not the owner: "
	    "cpu 1 depth 1 owner cpu 0 at op_unlock+" },
	{ 1, op_release_all, 0, "__mp_release_all on a CPU that is not "
	    "the owner: cpu 1 depth 1 owner cpu 0 at op_release_all+" },
};
#define MIS_NDIRECT	(nitems(mis_script) - 2)
/* Every CPU's held() and depth, which a refused call must not change. */
static long
mis_state(void)
{
	long s = 0;
	int i;

	for (i = 0; i < 3; i++)
		s = s << 8 | (depth(i) & 0x7f) << 1 | held(i);
	return (s);
}

/* A CPU's statistics in the debug layer. */
#define ST(cpu)		(L.mpl_cpus[cpu].mplc_dbg.mdc_stats)

static int
t_misuse(void)
{
	char line[160];
	int n = 3, i, reports = 0;
	long rv, before;

	__mp_lock_init(&L);
	shim_db_reset();
	srv_start(n);
	for (i = 0; i < (int)MIS_NDIRECT; i++) {
		before = mis_state();
		rv = srv_call(mis_script[i].cpu, mis_script[i].fn,
		    mis_script[i].arg);
		if (mis_script[i].line == NULL)
			continue;
		reported(mis_script[i].line, ++reports);
		if (rv != 0 || mis_state() != before)
			VIOLATION("a refused call changed the lock");
	}

	/* Recursion: reported when it crosses the limit, once. */
	srv_calls(2, op_lock, MPLOCK_DEBUG_MAXDEPTH + 1);
	snprintf(line, sizeof(line), "recursion deeper than %d: cpu 2 depth "
	    "%d owner cpu 2 at op_lock+", MPLOCK_DEBUG_MAXDEPTH,
	    MPLOCK_DEBUG_MAXDEPTH);
	reported(line, ++reports);
	srv_call(2, op_lock, 0);
	if (srv_call(2, op_release_all, 0) != MPLOCK_DEBUG_MAXDEPTH + 2)
		VIOLATION("release_all after deep recursion");
	if (shim_db_enters() != (unsigned long)reports)
		VIOLATION("recursion reported more than once");

	iw_begin();
	for (i = MIS_NDIRECT; i < (int)nitems(mis_script); i++) {
		before = mis_state();
		iw_raise(mis_script[i].fn);
		if (srv_isdone(1) || mis_state() != before)
			VIOLATION("a release from an interrupt on a waiting "
			    "CPU changed the lock");
		reported(mis_script[i].line, ++reports);
	}
	iw_end();

	/* After a panic or inside ddb: counted, not reported. */
	panicstr = "test";
	srv_call(0, op_unlock, 0);
	panicstr = NULL;
	db_active = 1;
	srv_call(0, op_release_all, 0);
	db_active = 0;
	if (shim_db_enters() != (unsigned long)reports)
		VIOLATION("misuse reported after a panic or in ddb");

	if (ST(0).mds_misuse != 6 || ST(1).mds_misuse != 2 ||
	    ST(2).mds_misuse != 3) {
		printf("misuse: counted %lu %lu %lu, want 6 2 3\n",
		    ST(0).mds_misuse, ST(1).mds_misuse, ST(2).mds_misuse);
		VIOLATION("misuse statistics wrong");
	}
	srv_usable(n);
	printf("misuse: ddb output:\n%s", shim_db_output());
	srv_stop(n);
	return (report("misuse", "%d reports, ddb entered %lu times",
	    reports, shim_db_enters()));
}

/* report: an owner and four waiters queued at random; the last spins out. */
#ifdef MP_LOCKDEBUG
static double
rep_secs(const char *p)
{
	unsigned long s, us;

	if (sscanf(p, "%lu.%lus", &s, &us) != 2)
		return (-1);
	return (s + us / 1e6);
}

static void
rep_check(const char *out, int owner, const int *queue, int nq)
{
	static char first[16384];
	char want[128];
	const char *p, *q, *w;
	double held, wait, prev;
	int i, cpu, pos;

	/* One report: up to the next spin-out, if any. */
	if ((p = strstr(out, "lock spun out\n")) == NULL) {
		VIOLATION("no spin-out");
		return;
	}
	q = strstr(p + 1, "lock spun out\n");
	snprintf(first, sizeof(first), "%.*s",
	    q ? (int)(q - out) : (int)strlen(out), out);

	snprintf(want, sizeof(want), "mplock L: cpu %d spun out after 20000 "
	    "spins, waiting ", queue[nq - 1]);
	if (strstr(first, want) == NULL)
		VIOLATION("report does not name the CPU that spun out");
	snprintf(want, sizeof(want), " owner cpu %d depth 1 held ", owner);
	if ((p = strstr(first, want)) == NULL) {
		VIOLATION("report does not name the owner");
		return;
	}
	held = rep_secs(p + strlen(want));
	if ((q = strstr(p, " acquired at op_lock+0x")) == NULL ||
	    q > strchr(p + 1, '\n'))
		VIOLATION("report does not name where the owner took it");
	snprintf(want, sizeof(want), " %d waiters in queue order:\n", nq);
	if ((p = strstr(first, want)) == NULL) {
		VIOLATION("report does not count the waiters");
		return;
	}
	p += strlen(want);
	prev = held;
	for (i = 0; i < nq; i++) {
		if (sscanf(p, " %d cpu %d depth 1 waiting", &pos, &cpu) != 2 ||
		    (w = strstr(p, "waiting ")) == NULL) {
			VIOLATION("waiter line malformed");
			return;
		}
		if (pos != i + 1 || cpu != queue[i])
			VIOLATION("waiters not in queue order");
		wait = rep_secs(w + strlen("waiting "));
		if (wait < 0 || wait > prev)
			VIOLATION("a later waiter waited longer");
		prev = wait;
		p = strchr(p, '\n') + 1;
	}
	if (strstr(first, "order unknown") != NULL)
		VIOLATION("waiters outside the queue order");
}

static int
t_report(void)
{
	long saved = __mp_lock_spinout;
	int n = 5, rounds = 3, queue[MAXCPUS], r, i, owner, nq;
	unsigned int seed = 777;

	__mp_lock_init(&L);
	srv_start(n);
	for (r = 0; r < rounds; r++) {
		owner = (r * 2) % n;
		srv_call(owner, op_lock, 0);
		for (i = 0, nq = 0; i < n; i++)
			if (i != owner)
				queue[nq++] = i;
		shim_shuffle(queue, nq, &seed);
		__mp_lock_spinout = LONG_MAX;
		for (i = 0; i < nq - 1; i++) {
			srv_queue(queue[i], op_lock);
			usleep(3000);
		}
		shim_db_reset();
		__mp_lock_spinout = 20000;
		srv_post(queue[nq - 1], op_lock, 0);
		db_wait(1, queue[nq - 1]);
		__mp_lock_spinout = LONG_MAX;
		/* rep_check() reports a missing spin-out. */
		rep_check(shim_db_output(), owner, queue, nq);
		if (r == 0)
			printf("report: ddb output:\n%s", shim_db_output());
		srv_call(owner, op_unlock, 0);
		for (i = 0; i < nq; i++) {
			srv_wait(queue[i]);
			if (!held(queue[i]))
				VIOLATION("waiters served out of order");
			srv_call(queue[i], op_unlock, 0);
		}
	}
	__mp_lock_spinout = saved;
	srv_stop(n);
	return (report("report", "%d rounds, owner and %d waiters named in "
	    "queue order", rounds, n - 1));
}
#endif /* MP_LOCKDEBUG */

/* stats: a scripted run, then a stress run that counts for itself. */
static unsigned long st_iters;
static unsigned long st_acq[MAXCPUS], st_rec[MAXCPUS];
static volatile unsigned long st_intr_acq[MAXCPUS];
static volatile unsigned long st_intr_rec[MAXCPUS];	/* held */
static volatile unsigned long st_intr_wait[MAXCPUS];	/* queued */
static volatile unsigned long st_intr_fresh[MAXCPUS];	/* depth 0 */

/* An interrupt handler's acquisition, classified as it begins. */
static void
st_intr(void)
{
	struct cpu_info *ci = curcpu();
	int me = ci->ci_cpuid;

	if (__mp_lock_held(&L, ci))
		st_intr_rec[me]++;
	else if (L.mpl_cpus[me].mplc_depth > 0)
		st_intr_wait[me]++;
	else
		st_intr_fresh[me]++;
	__mp_lock(&L);
	__mp_unlock(&L);
	st_intr_acq[me]++;
}

static void
st_cpu(int me)
{
	unsigned int seed = me * 17 + 5;
	unsigned long i;
	int other;

	for (i = 0; i < st_iters; i++) {
		__mp_lock(&L);
		st_acq[me]++;
		if ((i & 7) == 0) {
			__mp_lock(&L);
			st_acq[me]++;
			st_rec[me]++;
			__mp_unlock(&L);
		}
		if ((shim_rand(&seed) & 15) == 0) {
			other = (me + 1 + shim_rand(&seed) % (ncpus - 1)) %
			    ncpus;
			shim_intr_raise(shim_cpu_thread(other));
		}
		__mp_unlock(&L);
		if ((i & 255) == 0)
			shim_tick();
	}
}

/*
 * The sums of n CPUs' statistics (but the times' maxima: the wait's),
 * which the "total" line of mplock_print() must show.
 */
static void
st_total(struct __mp_lock_dbg_stats *t, int n)
{
	struct __mp_lock_dbg_stats *s;
	char line[160];
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		s = &ST(i);
		t->mds_acquire += s->mds_acquire;
		t->mds_recursive += s->mds_recursive;
		t->mds_contended += s->mds_contended;
		t->mds_spins += s->mds_spins;
		t->mds_misuse += s->mds_misuse;
		t->mds_owned += s->mds_owned;
		t->mds_holdsum += s->mds_holdsum;
		if (s->mds_waitmax > t->mds_waitmax)
			t->mds_waitmax = s->mds_waitmax;
	}
	shim_db_reset();
	mplock_print(&L);
	snprintf(line, sizeof(line), "\n  %-6s %10lu %9lu %9lu %11lu %6lu ",
	    "total", t->mds_acquire, t->mds_recursive, t->mds_contended,
	    t->mds_spins, t->mds_misuse);
	if (strstr(shim_db_output(), line) == NULL) {
		printf("stats: no line \"%s\" in:\n%s", line + 1,
		    shim_db_output());
		VIOLATION("printed totals are not the sums");
	}
}

static int
t_stats(void)
{
	struct __mp_lock_dbg_stats t;
	uint64_t first, post, spinning, unlock, done, t0, t1;
	unsigned long a, r, turns, waited = 0;
	int i, n = 2;

	__mp_lock_init(&L);

	/* Scripted: CPU 0 recurses, CPU 1 waits 30 ms, holds 10 ms. */
	srv_start(n);
	mplock_stats_reset(&L);
	first = nsecuptime();
	srv_calls(0, op_lock, 3);
	srv_calls(0, op_unlock, 2);
	post = nsecuptime();
	srv_queue(1, op_lock);
	spinning = nsecuptime();
	usleep(30000);
	unlock = nsecuptime();
	srv_call(0, op_unlock, 0);
	srv_wait(1);
	done = nsecuptime();
	usleep(10000);
	srv_call(1, op_unlock, 0);
	if (ST(0).mds_acquire != 3 || ST(0).mds_recursive != 2 ||
	    ST(0).mds_contended != 0 || ST(0).mds_spins != 0 ||
	    ST(0).mds_owned != 1 || ST(0).mds_handoffs != 1)
		VIOLATION("owner's counts wrong");
	if (ST(1).mds_acquire != 1 || ST(1).mds_recursive != 0 ||
	    ST(1).mds_contended != 1 || ST(1).mds_spins < 1 ||
	    ST(1).mds_owned != 1 || ST(1).mds_handoffs != 1)
		VIOLATION("waiter's counts wrong");
	if (ST(1).mds_waitmax < unlock - spinning ||
	    ST(1).mds_waitmax > done - post ||
	    ST(1).mds_waitsum != ST(1).mds_waitmax) {
		printf("stats: wait %llu ns, want %llu..%llu\n",
		    (unsigned long long)ST(1).mds_waitmax,
		    (unsigned long long)(unlock - spinning),
		    (unsigned long long)(done - post));
		VIOLATION("wait time wrong");
	}
	if (ST(0).mds_holdmax < unlock - post ||
	    ST(0).mds_holdmax > done - first || ST(1).mds_holdmax < 10000000)
		VIOLATION("hold time wrong");
	st_total(&t, n);
	printf("stats: ddb output:\n%s", shim_db_output());
	mplock_stats_reset(&L);
	for (i = 0; i < n; i++)
		if (ST(i).mds_acquire || ST(i).mds_owned || ST(i).mds_holdmax)
			VIOLATION("reset left counts");

	/*
	 * Scripted: CPU 1 takes the lock twice in a row, nobody between.
	 * Each acquisition after a hand-off is a turn of its own, even
	 * when the next owner is the last one.
	 */
	srv_call(1, op_lock, 0);
	srv_call(1, op_unlock, 0);
	srv_call(1, op_lock, 0);
	srv_call(1, op_unlock, 0);
	if (ST(1).mds_acquire != 2 || ST(1).mds_owned != 2 ||
	    ST(1).mds_handoffs != 2) {
		printf("stats: relock: acquire %lu turns %lu handoffs %lu, "
		    "want 2 2 2\n", ST(1).mds_acquire, ST(1).mds_owned,
		    ST(1).mds_handoffs);
		VIOLATION("a second turn of the same CPU not counted");
	}
	srv_stop(n);

	/* Stress, with interrupts nesting while held and while queued. */
	st_iters = DEFAULT(400000) / ncpus;
	for (i = 0; i < ncpus; i++) {
		st_acq[i] = st_rec[i] = 0;
		st_intr_acq[i] = st_intr_rec[i] = 0;
		st_intr_wait[i] = st_intr_fresh[i] = 0;
	}
	mplock_stats_reset(&L);
	shim_intr_init(st_intr);
	t0 = nsecuptime();
	shim_start_cpus(ncpus, st_cpu);
	shim_join_cpus();
	t1 = nsecuptime();
	shim_intr_init(NULL);
	for (i = 0; i < ncpus; i++) {
		a = st_acq[i] + st_intr_acq[i];
		r = st_rec[i] + st_intr_rec[i];
		turns = st_iters + st_intr_fresh[i];
		waited += st_intr_wait[i];
		if (ST(i).mds_acquire != a)
			VIOLATION("acquisitions miscounted");
		/* A handler may see its turn come as it starts. */
		if (ST(i).mds_recursive < r ||
		    ST(i).mds_recursive > r + st_intr_wait[i])
			VIOLATION("recursive acquisitions miscounted");
		if (ST(i).mds_owned != turns || ST(i).mds_handoffs != turns)
			VIOLATION("turns (waits, holds) miscounted");
		if (ST(i).mds_contended > a - ST(i).mds_recursive ||
		    ST(i).mds_spins < ST(i).mds_contended)
			VIOLATION("contended acquisitions out of bounds");
		if (ST(i).mds_acquire != a || ST(i).mds_owned != turns)
			printf("stats: cpu %d: acquire %lu/%lu turns %lu/%lu\n",
			    i, ST(i).mds_acquire, a, ST(i).mds_owned, turns);
	}
	st_total(&t, ncpus);
	/* One holder at a time: the holds add up to less than the run. */
	if (t.mds_holdsum > t1 - t0 || t.mds_waitmax > t1 - t0)
		VIOLATION("hold or wait times longer than the run");
	check_idle(&L);
	return (report("stats", "stress: %lu acquisitions, %lu recursive, "
	    "%lu contended, %lu turns, %lu interrupts while queued, held "
	    "%.0f%% of %.2f s", t.mds_acquire, t.mds_recursive,
	    t.mds_contended, t.mds_owned, waited,
	    100.0 * t.mds_holdsum / (t1 - t0), (t1 - t0) / 1e9));
}

/* events: each call in order, and the last ones after the ring wraps. */
struct ev_want {
	const char	*type;
	int		 cpu;
	int		 depth;
	const char	*site;
	const char	*site2;		/* or this one */
};

static const struct ev_want ev_script[] = {
	{ "acquire",		0, 1, "op_lock+", NULL },
	{ "acquire",		0, 2, "op_lock+", NULL },
	{ "release",		0, 1, "op_unlock+", NULL },
	{ "release_all",	0, 1, "op_release_all+", NULL },
	{ "acquire_count",	1, 2, "op_acquire_count+", NULL },
	{ "acquire",		1, 1, "__mp_acquire_count+",
	    "op_acquire_count+" },
	{ "acquire",		1, 2, "__mp_acquire_count+",
	    "op_acquire_count+" },
	{ "release",		1, 1, "op_unlock+", NULL },
	{ "release",		1, 0, "op_unlock+", NULL },
	{ "release MISUSE",	2, 0, "op_unlock+", NULL },
};
#define EV_NSCRIPT	nitems(ev_script)

static struct ev {
	unsigned int	 seq;
	int		 cpu;
	char		 type[32];
	int		 depth;
	char		 site[64];
} ev_got[MPLOCK_DEBUG_NEVENTS + 1];

/* The events mplock_print() prints, parsed into ev_got[]; how many. */
static int
ev_print(void)
{
	struct ev *e;
	const char *p;
	char tail[16];
	int n = 0, k;

	shim_db_reset();
	mplock_print(&L);
	if ((p = strstr(shim_db_output(), "release_all: levels released; "
	    "acquire_count: count):\n")) == NULL)
		return (-1);
	p = strchr(p, '\n') + 1;
	while (*p == ' ' && n < (int)nitems(ev_got)) {
		e = &ev_got[n];
		k = sscanf(p, "%u cpu %d %31s %d %*u.%*us %63s %15s", &e->seq,
		    &e->cpu, e->type, &e->depth, e->site, tail);
		if (k < 5)
			break;
		if (k == 6 && strcmp(tail, "MISUSE") == 0)
			strncat(e->type, " MISUSE",
			    sizeof(e->type) - strlen(e->type) - 1);
		n++;
		p = strchr(p, '\n') + 1;
	}
	return (n);
}

static int
ev_site(const char *sym, const char *want)
{
	return (want != NULL && strncmp(sym, want, strlen(want)) == 0 &&
	    strncmp(sym + strlen(want), "0x", 2) == 0);
}

/* Is event e what w wants, on that cpu? */
static int
ev_is(const struct ev *e, const struct ev_want *w, int cpu)
{
	return (strcmp(e->type, w->type) == 0 && e->cpu == cpu &&
	    e->depth == w->depth && (ev_site(e->site, w->site) ||
	    ev_site(e->site, w->site2)));
}

static int
t_events(void)
{
	const struct ev_want *w;
	const struct ev *e;
	int n = 3, i, got, wraps = 100;
	unsigned int last;

	__mp_lock_init(&L);
	srv_start(n);
	srv_calls(0, op_lock, 2);
	srv_call(0, op_unlock, 0);
	srv_call(0, op_release_all, 0);
	srv_call(1, op_acquire_count, 2);
	srv_calls(1, op_unlock, 2);
	srv_call(2, op_unlock, 0);		/* refused */
	if ((got = ev_print()) != (int)EV_NSCRIPT) {
		printf("events: %d events, want %zu:\n%s", got, EV_NSCRIPT,
		    shim_db_output());
		VIOLATION("events missing or extra");
	}
	for (i = 0; i < got && i < (int)EV_NSCRIPT; i++) {
		w = &ev_script[i];
		e = &ev_got[i];
		if (e->seq != (unsigned int)i + 1 || !ev_is(e, w, w->cpu)) {
			printf("events: #%d is %u %s cpu %d depth %d %s, want "
			    "%s cpu %d depth %d %s\n", i, e->seq, e->type,
			    e->cpu, e->depth, e->site, w->type, w->cpu,
			    w->depth, w->site);
			VIOLATION("event recorded wrong");
		}
	}
	printf("events: ddb output:\n%s", shim_db_output());

	/* Wrap the ring: the last MPLOCK_DEBUG_NEVENTS, none missing. */
	for (i = 0; i < wraps; i++) {
		srv_call(0, op_lock, 0);
		srv_call(0, op_unlock, 0);
	}
	last = EV_NSCRIPT + 2 * wraps;
	if ((got = ev_print()) != MPLOCK_DEBUG_NEVENTS)
		VIOLATION("wrapped ring does not show its size in events");
	for (i = 0; i < got; i++) {
		e = &ev_got[i];
		if (e->seq != last - MPLOCK_DEBUG_NEVENTS + 1 + i)
			VIOLATION("wrapped ring out of order or with gaps");
		if (!ev_is(e, &ev_script[e->seq % 2 ? 0 : 8], 0))
			VIOLATION("wrapped ring holds the wrong events");
	}
	srv_stop(n);
	return (report("events", "%zu scripted events, %u after %d "
	    "lock/unlock pairs", EV_NSCRIPT, last, wraps));
}

#endif /* MPLT_DEBUG */

/*
 * Every test the build has; "all" runs them all, "stress" those with
 * many CPUs at the lock at once, worth running again in other builds.
 */
static const struct {
	const char	*name;
	int		(*fn)(void);
	int		 stress;
} tests[] = {
	{ "mutex",	t_mutex,	1 },
	{ "fifo",	t_fifo,		1 },
	{ "recurse",	t_recurse,	1 },
	{ "releaseidle",	t_releaseidle,	0 },
	{ "intr",	t_intr,		1 },
	{ "multi",	t_multi,	1 },
#ifdef MP_LOCKDEBUG
	{ "spinout",	t_spinout,	0 },
	{ "intrunlock",	t_intrunlock,	0 },
#endif
#ifdef WITNESS
	{ "lockorder",	t_lockorder,	0 },
#endif
#ifdef MPLT_SWAP
	{ "swap",	t_swap,		0 },
#endif
	{ "torture",	t_torture,	1 },
#ifdef MPL_BE_HALT
	{ "halt",	t_halt,		0 },
#endif
#ifdef MPLT_DEBUG
	{ "misuse",	t_misuse,	0 },
#ifdef MP_LOCKDEBUG
	{ "report",	t_report,	0 },
#endif
	{ "stats",	t_stats,	0 },
	{ "events",	t_events,	0 },
#endif
};
#define NTESTS	nitems(tests)

/* Is test i named by s: its name, "stress" (its group) or "all"? */
static int
named(size_t i, const char *s)
{
	return (strcmp(s, "all") == 0 || strcmp(s, tests[i].name) == 0 ||
	    (strcmp(s, "stress") == 0 && tests[i].stress));
}

static void
usage(void)
{
	fprintf(stderr, "usage: mplocktest [-gq] [-n count] [-w seconds] "
	    "test ...\n       mplocktest -l [test ...]\n");
	exit(1);
}

int
main(int argc, char *argv[])
{
	unsigned int wd = 10;
	int ch, list = 0, rv = 0, r, ran;
	size_t i;
	char *ep;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ncpus = shim_ncpu_online();
	if (ncpus < 2)
		ncpus = 2;
	while ((ch = getopt(argc, argv, "gln:qw:")) != -1) {
		switch (ch) {
		case 'g':
			/* The M-lock's guest mode on, as under a hypervisor. */
			shim_guest = 1;
#ifdef MPL_BE_HALT
			mplock_guest_spin = 2000;
#endif
			break;
		case 'l':
			list = 1;
			break;
		case 'q':
			quick = 1;
			break;
		case 'n':
			count = strtol(optarg, &ep, 10);
			if (*ep != '\0' || count < 1)
				errx(1, "bad count: %s", optarg);
			break;
		case 'w':
			wd = strtol(optarg, &ep, 10);
			if (*ep != '\0' || wd < 1)
				errx(1, "bad watchdog: %s", optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (list) {
		/* The names, one a line: of every test, or those named. */
		for (i = 0; i < NTESTS; i++) {
			for (r = 0; r < argc && !named(i, argv[r]); r++)
				;
			if (argc == 0 || r < argc)
				printf("%s\n", tests[i].name);
		}
		return (0);
	}
	if (argc == 0)
		usage();

	shim_cpu_attach(MAXCPUS - 1);	/* main thread: a CPU of its own */
	__mp_lock_init(&L);
	dbg_syms();
	shim_watchdog_start(wd);
	for (; argc > 0; argc--, argv++) {
		ran = 0;
		for (i = 0; i < NTESTS; i++) {
			if (!named(i, argv[0]))
				continue;
			violations = 0;
			first_violation = NULL;
			shim_witness_reset();
			if (tests[i].fn() != 0)
				rv = 1;
			ran = 1;
		}
		if (!ran)
			usage();
	}
	return (rv);
}
