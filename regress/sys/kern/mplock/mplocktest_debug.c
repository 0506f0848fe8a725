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
 * Tests of the debug layer (option MPLOCK_DEBUG, kern_mplock_debug.c)
 * and of the lock calls as the shim's WITNESS checker sees them.
 * Included by mplocktest.c, whose CPU server and checks they use.
 *
 *	lockorder	WITNESS: the checker catches what it claims to; the
 *			calls balance across mi_switch() and interrupts; a
 *			lock-order reversal kernel_lock/test mutex is
 *			reported in both orders.
 *	misuse		every misuse prints its line and enters ddb once;
 *			the lock and WITNESS are left as they were.
 *	report		the spin-out report names the owner, where it took
 *			the lock, and the waiters in queue order.
 *	stats		statistics equal what the test counts itself.
 *	events		the event ring holds the calls made, in order.
 */

#include <sys/time.h>

#include <limits.h>

#if defined(WITNESS) || defined(MPLOCK_DEBUG)
static long
srv_callfn(int cpu, long (*fn)(int), int arg)
{
	srv[cpu].fn = fn;
	return (srv_call(cpu, OP_CALL, arg));
}
#endif

#ifdef MPLOCK_DEBUG
/*
 * Call sites the reports must name.  Not inlined, and the call is not
 * the last thing they do, so the caller PC lies inside them.
 */
#define SITE(name, call)						\
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

SITE(site_lock, (__mp_lock(srv_lock), 0))
SITE(site_unlock, (__mp_unlock(srv_lock), 0))
SITE(site_release_all, __mp_release_all(srv_lock))
SITE(site_acquire_count, (__mp_acquire_count(srv_lock, arg), 0))

static void
dbg_syms(void)
{
	shim_sym_add("L", &L);
	shim_sym_add("kernel_lock", &kernel_lock);
	shim_sym_add("site_lock", (void *)site_lock);
	shim_sym_add("site_unlock", (void *)site_unlock);
	shim_sym_add("site_release_all", (void *)site_release_all);
	shim_sym_add("site_acquire_count", (void *)site_acquire_count);
	shim_sym_add("srv_cpu", (void *)srv_cpu);
	shim_sym_add("__mp_acquire_count", (void *)__mp_acquire_count);
}
#endif /* MPLOCK_DEBUG */

/*
 * lockorder: the WITNESS checker, then the front end under it.
 */
#ifdef WITNESS
static struct shim_mtx lo_mtx;
static const struct lock_type lo_mtx_type = { .lt_name = "test_mtx" };
static volatile int lo_intr_done;

static long
lo_switch(int pid)
{
	shim_proc_switch(shim_proc(pid));
	return (0);
}

static long
lo_kernel_then_mtx(int arg)
{
	(void)arg;
	__mp_lock(&kernel_lock);
	shim_mtx_enter(&lo_mtx);
	shim_mtx_leave(&lo_mtx);
	__mp_unlock(&kernel_lock);
	return (0);
}

static long
lo_mtx_then_kernel(int arg)
{
	(void)arg;
	shim_mtx_enter(&lo_mtx);
	__mp_lock(&kernel_lock);
	__mp_unlock(&kernel_lock);
	shim_mtx_leave(&lo_mtx);
	return (0);
}

static void
lo_intr(void)
{
	__mp_lock(&kernel_lock);
	__mp_unlock(&kernel_lock);
	lo_intr_done = lo_intr_done + 1;
}

static void
lo_expect(const char *what, unsigned long errors, const char *text)
{
	struct shim_witness_stats w;

	shim_witness_stats(&w);
	if (w.errors != errors || (text != NULL &&
	    strstr(shim_witness_log(), text) == NULL)) {
		printf("lockorder: %s: %lu errors, log:\n%s", what, w.errors,
		    shim_witness_log());
		VIOLATION("the WITNESS checker missed or invented an error");
	}
}

static void
lo_expect_clean(const char *what)
{
	struct shim_witness_stats w;

	shim_witness_stats(&w);
	if (w.errors || w.held || w.pending || w.unchecked ||
	    w.locks != w.unlocks) {
		printf("lockorder: %s: errors %lu held %lu pending %lu "
		    "unchecked %lu locks %lu unlocks %lu\n%s", what, w.errors,
		    w.held, w.pending, w.unchecked, w.locks, w.unlocks,
		    shim_witness_log());
		VIOLATION("lock calls unbalanced or unchecked");
	}
}

static int
t_lockorder(void)
{
	static const struct lock_type fake_type = { .lt_name = "fake" };
	struct lock_object fake, *klo = &kernel_lock.mpl_lock_obj;
	struct shim_witness_stats w;
	int n = 3;

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

	/* A process carries the kernel lock from CPU 0 to CPU 1. */
	shim_witness_reset();
	__mp_lock_init(&kernel_lock);
	shim_mtx_init(&lo_mtx, &lo_mtx_type);
	srv_lock = &kernel_lock;
	srv_start(n);
	srv_callfn(0, lo_switch, 10);
	srv_call(0, OP_LOCK, 0);
	srv_call(0, OP_LOCK, 0);
	srv_call(0, OP_LOCK, 0);
	if (srv_call(0, OP_RELEASE_ALL, 0) != 3)
		VIOLATION("release_all returned the wrong depth");
	srv_callfn(0, lo_switch, 0);
	srv_callfn(1, lo_switch, 10);
	srv_call(1, OP_ACQUIRE_COUNT, 3);
	srv_call(1, OP_UNLOCK, 0);
	srv_call(1, OP_UNLOCK, 0);
	srv_call(1, OP_UNLOCK, 0);
	shim_witness_stats(&w);
	if (w.checkorders != 2 || w.locks != 6 || w.unlocks != 6)
		VIOLATION("mi_switch: checkorder/lock/unlock counts wrong");
	lo_expect_clean("mi_switch");

	/* An interrupt takes the lock while its CPU waits for it. */
	shim_witness_reset();
	lo_intr_done = 0;
	shim_intr_init(lo_intr);
	srv_call(0, OP_LOCK, 0);
	srv_post(1, OP_LOCK, 0);
	srv_wait_spinning(1);
	shim_intr_raise(shim_cpu_thread(1));
	while (shim_cpus[1].ci_schedstate.spc_spinning < 2 &&
	    lo_intr_done == 0)
		sched_yield();
	srv_call(0, OP_UNLOCK, 0);
	srv_wait(1);
	if (lo_intr_done != 1)
		VIOLATION("the interrupt did not take the lock");
	srv_call(1, OP_UNLOCK, 0);
	shim_intr_init(NULL);
	shim_witness_stats(&w);
	if (w.checkorders != 3 || w.locks != 3)
		VIOLATION("interrupt while waiting: counts wrong");
	lo_expect_clean("interrupt while waiting");

	/* The same order twice is fine; the other order is a reversal. */
	srv_callfn(0, lo_kernel_then_mtx, 0);
	srv_callfn(1, lo_kernel_then_mtx, 0);
	lo_expect("kernel_lock, test_mtx", 0, NULL);
	srv_callfn(1, lo_mtx_then_kernel, 0);
	lo_expect("test_mtx, kernel_lock", 1, "lock order reversal: "
	    "&kernel_lock after test_mtx, but &kernel_lock -> test_mtx");
	printf("lockorder: %s", shim_witness_log());
	shim_witness_reset();
	srv_callfn(1, lo_mtx_then_kernel, 0);
	lo_expect("test_mtx, kernel_lock", 0, NULL);
	srv_callfn(0, lo_kernel_then_mtx, 0);
	lo_expect("kernel_lock, test_mtx", 1, "lock order reversal: "
	    "test_mtx after &kernel_lock, but test_mtx -> &kernel_lock");
	printf("lockorder: %s", shim_witness_log());
	shim_witness_stats(&w);
	if (w.lors != 1 || w.held || w.pending)
		VIOLATION("reversal not counted, or calls unbalanced");

	srv_stop(n);
	srv_lock = &L;
	check_idle(n);
	shim_witness_reset();
	return (report("lockorder", "checker self-test, mi_switch, interrupt "
	    "while waiting, reversal in both orders, %lu violations",
	    violations));
}
#else
static int
t_lockorder(void)
{
	printf("%s/lockorder: SKIP (built without WITNESS)\n", mpl_be_name);
	return (SKIP);
}
#endif /* WITNESS */

#ifdef MPLOCK_DEBUG
/*
 * misuse: each misuse prints one line naming it, the CPU, its depth,
 * the owner and the caller, and enters ddb once; the call is refused.
 */
#ifdef DDB
static volatile int mis_intr_op, mis_intr_done;

static void
mis_intr(void)
{
	if (mis_intr_op == OP_UNLOCK)
		site_unlock(0);
	else
		site_release_all(0);
	mis_intr_done = mis_intr_done + 1;
}

static unsigned long mis_seen;	/* ddb entries so far */

static int
mis_expect(const char *what, const char *line)
{
	const char *out = shim_db_output(), *p;
	unsigned long enters = shim_db_enters();

	if ((p = strstr(out, line)) == NULL || strchr(p, '\n') == NULL) {
		printf("misuse: %s: no line \"%s\" in:\n%s", what, line, out);
		VIOLATION("misuse not reported, or in other words");
		return (0);
	}
	if (enters != mis_seen + 1) {
		printf("misuse: %s: ddb entered %lu times\n", what,
		    enters - mis_seen);
		VIOLATION("misuse did not enter ddb exactly once");
	}
	mis_seen = enters;
	return (1);
}

/* A CPU's statistics in the debug layer. */
#define ST(cpu)		(L.mpl_cpus[cpu].mplc_dbg.mdc_stats)

static int
t_misuse(void)
{
	char line[160];
	int n = 3, i, reports = 0;
	long rv;

	dbg_syms();
	__mp_lock_init(&L);
	shim_db_reset();
	mis_seen = 0;
	srv_start(n);

	srv_callfn(0, site_unlock, 0);
	reports += mis_expect("unlock, lock free", "mplock L: __mp_unlock "
	    "of a lock not held: cpu 0 depth 0 owner none at site_unlock+");

	srv_callfn(1, site_lock, 0);
	srv_callfn(0, site_unlock, 0);
	reports += mis_expect("unlock, held elsewhere", "mplock L: "
	    "__mp_unlock on a CPU that is not the owner: cpu 0 depth 0 "
	    "owner cpu 1 at site_unlock+");
	if ((rv = srv_callfn(0, site_release_all, 0)) != 0)
		VIOLATION("refused release_all returned non-zero");
	reports += mis_expect("release_all, held elsewhere", "mplock L: "
	    "__mp_release_all on a CPU that is not the owner: cpu 0 depth 0 "
	    "owner cpu 1 at site_release_all+");
	if (!held(1) || depth(1) != 1 || depth(0) != 0)
		VIOLATION("a refused release changed the lock");
	srv_callfn(1, site_unlock, 0);
	srv_callfn(0, site_release_all, 0);
	reports += mis_expect("release_all, lock free", "mplock L: "
	    "__mp_release_all of a lock not held: cpu 0 depth 0 owner none "
	    "at site_release_all+");

	srv_callfn(2, site_acquire_count, 0);
	reports += mis_expect("acquire_count 0", "mplock L: "
	    "__mp_acquire_count with count 0: cpu 2 depth 0 owner none at "
	    "site_acquire_count+");
	srv_callfn(2, site_acquire_count, -3);
	reports += mis_expect("acquire_count -3", "mplock L: "
	    "__mp_acquire_count with count -3: cpu 2 depth 0 owner none at "
	    "site_acquire_count+");
	if (depth(2) != 0 || held(2))
		VIOLATION("acquire_count < 1 took the lock");

	/* Recursion: reported when it crosses the limit, once. */
	for (i = 0; i < MPLOCK_DEBUG_MAXDEPTH; i++)
		srv_call(2, OP_LOCK, 0);
	if (shim_db_enters() != (unsigned long)reports)
		VIOLATION("recursion reported below the limit");
	srv_callfn(2, site_lock, 0);
	snprintf(line, sizeof(line), "mplock L: recursion deeper than %d: "
	    "cpu 2 depth %d owner cpu 2 at site_lock+",
	    MPLOCK_DEBUG_MAXDEPTH, MPLOCK_DEBUG_MAXDEPTH);
	reports += mis_expect("recursion", line);
	srv_call(2, OP_LOCK, 0);
	if (srv_call(2, OP_RELEASE_ALL, 0) != MPLOCK_DEBUG_MAXDEPTH + 2)
		VIOLATION("release_all after deep recursion");
	if (shim_db_enters() != (unsigned long)reports)
		VIOLATION("recursion reported more than once");

	/* From an interrupt on a CPU that waits: not the owner either. */
	shim_intr_init(mis_intr);
	srv_callfn(0, site_lock, 0);
	srv_post(1, OP_LOCK, 0);
	srv_wait_spinning(1);
	for (i = 0; i < 2; i++) {
		mis_intr_op = i == 0 ? OP_UNLOCK : OP_RELEASE_ALL;
		mis_intr_done = 0;
		shim_intr_raise(shim_cpu_thread(1));
		while (mis_intr_done == 0)
			sched_yield();
		if (held(1) || srv_isdone(1) || depth(1) != 1 || !held(0))
			VIOLATION("a release from an interrupt on a waiting "
			    "CPU changed the lock");
		reports += mis_expect(i == 0 ? "unlock while waiting" :
		    "release_all while waiting", i == 0 ? "mplock L: "
		    "__mp_unlock on a CPU that is not the owner: cpu 1 depth 1 "
		    "owner cpu 0 at site_unlock+" : "mplock L: "
		    "__mp_release_all on a CPU that is not the owner: cpu 1 "
		    "depth 1 owner cpu 0 at site_release_all+");
	}
	shim_intr_init(NULL);
	srv_callfn(0, site_unlock, 0);
	srv_wait(1);
	if (!held(1))
		VIOLATION("the waiter did not get the lock afterwards");
	srv_call(1, OP_UNLOCK, 0);

	/* After a panic or inside ddb: counted, not reported. */
	panicstr = "test";
	srv_callfn(0, site_unlock, 0);
	panicstr = NULL;
	db_active = 1;
	srv_callfn(0, site_release_all, 0);
	db_active = 0;
	if (shim_db_enters() != (unsigned long)reports)
		VIOLATION("misuse reported after a panic or in ddb");

	if (ST(0).mds_misuse != 6 || ST(1).mds_misuse != 2 ||
	    ST(2).mds_misuse != 3) {
		printf("misuse: counted %lu %lu %lu, want 6 2 3\n",
		    ST(0).mds_misuse, ST(1).mds_misuse, ST(2).mds_misuse);
		VIOLATION("misuse statistics wrong");
	}
	for (i = 0; i < n; i++) {
		srv_callfn(i, site_lock, 0);
		if (!held(i))
			VIOLATION("lock unusable after the misuse");
		srv_callfn(i, site_unlock, 0);
	}
	printf("misuse: ddb output:\n%s", shim_db_output());
	srv_stop(n);
	check_idle(n);
	witness_balanced();
	return (report("misuse", "%d reports, ddb entered %lu times, "
	    "%lu violations", reports, shim_db_enters(), violations));
}
#else
static int
t_misuse(void)
{
	/* Without DDB a misuse panics. */
	printf("%s/misuse: SKIP (built without DDB)\n", mpl_be_name);
	return (SKIP);
}
#endif /* DDB */

/*
 * report: an owner and four waiters queued in a random order; the last
 * one spins out.  Its report must name the owner, where the owner took
 * the lock, and the waiters in queue order, longest wait first.
 */
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
	if ((q = strstr(p, " acquired at site_lock+0x")) == NULL ||
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
	double t0;

	dbg_syms();
	__mp_lock_init(&L);
	srv_start(n);
	for (r = 0; r < rounds; r++) {
		owner = (r * 2) % n;
		srv_callfn(owner, site_lock, 0);
		for (i = 0, nq = 0; i < n; i++)
			if (i != owner)
				queue[nq++] = i;
		shim_shuffle(queue, nq, &seed);
		__mp_lock_spinout = LONG_MAX;
		for (i = 0; i < nq - 1; i++) {
			srv_post(queue[i], OP_LOCK, 0);
			srv_wait_spinning(queue[i]);
			usleep(3000);
		}
		shim_db_reset();
		__mp_lock_spinout = 20000;
		srv_post(queue[nq - 1], OP_LOCK, 0);
		guest_clock(1);
		t0 = shim_now();
		while (shim_db_enters() == 0 && shim_now() - t0 < 20) {
			shim_tick();
			usleep(1000);
			guest_tick(queue[nq - 1]);
		}
		guest_clock(0);
		__mp_lock_spinout = LONG_MAX;
		/* rep_check() reports a missing spin-out. */
		rep_check(shim_db_output(), owner, queue, nq);
		if (r == 0)
			printf("report: ddb output:\n%s", shim_db_output());
		srv_callfn(owner, site_unlock, 0);
		for (i = 0; i < nq; i++) {
			srv_wait(queue[i]);
			if (!held(queue[i]))
				VIOLATION("waiters served out of order");
			srv_call(queue[i], OP_UNLOCK, 0);
		}
	}
	__mp_lock_spinout = saved;
	srv_stop(n);
	check_idle(n);
	witness_balanced();
	return (report("report", "%d rounds, owner and %d waiters named in "
	    "queue order, %lu violations", rounds, n - 1, violations));
}
#else
static int
t_report(void)
{
	printf("%s/report: SKIP (built without MP_LOCKDEBUG)\n", mpl_be_name);
	return (SKIP);
}
#endif /* MP_LOCKDEBUG */

/*
 * stats: a scripted run whose every figure is known, then a stress run
 * with interrupts in which the test counts for itself.
 */
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
st_cpu(void *arg, int me)
{
	unsigned int seed = me * 17 + 5;
	unsigned long i;
	int other;

	(void)arg;
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

static void
st_total(struct __mp_lock_dbg_stats *t, int n)
{
	struct __mp_lock_dbg_stats *s;
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
		t->mds_handoffs += s->mds_handoffs;
		t->mds_holdsum += s->mds_holdsum;
		if (s->mds_waitmax > t->mds_waitmax)
			t->mds_waitmax = s->mds_waitmax;
		if (s->mds_holdmax > t->mds_holdmax)
			t->mds_holdmax = s->mds_holdmax;
	}
}

/* The "total" line of mplock_print() shows the sums. */
static void
st_check_printed(const struct __mp_lock_dbg_stats *t)
{
	char line[160];

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

	dbg_syms();
	__mp_lock_init(&L);

	/* Scripted: CPU 0 recurses, CPU 1 waits 30 ms, holds 10 ms. */
	srv_start(n);
	mplock_stats_reset(&L);
	first = nsecuptime();
	srv_callfn(0, site_lock, 0);
	srv_callfn(0, site_lock, 0);
	srv_callfn(0, site_lock, 0);
	srv_callfn(0, site_unlock, 0);
	srv_callfn(0, site_unlock, 0);
	post = nsecuptime();
	srv_post(1, OP_LOCK, 0);
	srv_wait_spinning(1);
	spinning = nsecuptime();
	usleep(30000);
	unlock = nsecuptime();
	srv_callfn(0, site_unlock, 0);
	srv_wait(1);
	done = nsecuptime();
	usleep(10000);
	srv_call(1, OP_UNLOCK, 0);
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
	st_check_printed(&t);
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
	srv_callfn(1, site_lock, 0);
	srv_callfn(1, site_unlock, 0);
	srv_callfn(1, site_lock, 0);
	srv_callfn(1, site_unlock, 0);
	if (ST(1).mds_acquire != 2 || ST(1).mds_owned != 2 ||
	    ST(1).mds_handoffs != 2) {
		printf("stats: relock: acquire %lu turns %lu handoffs %lu, "
		    "want 2 2 2\n", ST(1).mds_acquire, ST(1).mds_owned,
		    ST(1).mds_handoffs);
		VIOLATION("a second turn of the same CPU not counted");
	}
	mplock_stats_reset(&L);
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
	shim_run_cpus(ncpus, st_cpu, NULL);
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
	st_check_printed(&t);
	check_idle(ncpus);
	witness_balanced();
	return (report("stats", "scripted: wait %llu ms, hold %llu ms; "
	    "stress: %lu acquisitions, %lu recursive, %lu contended, %lu "
	    "turns, %lu interrupts while queued, held %.0f%% of %.2f s; "
	    "%lu violations",
	    (unsigned long long)ST(1).mds_waitmax / 1000000,
	    (unsigned long long)ST(0).mds_holdmax / 1000000, t.mds_acquire,
	    t.mds_recursive, t.mds_contended, t.mds_owned, waited,
	    100.0 * t.mds_holdsum / (t1 - t0), (t1 - t0) / 1e9, violations));
}

/*
 * events: the ring holds each call in order with its CPU, depth and
 * caller, and the last MPLOCK_DEBUG_NEVENTS after it wraps.
 */
struct ev_want {
	const char	*type;
	int		 cpu;
	int		 depth;
	const char	*site;
	const char	*site2;		/* or this one */
};

static const struct ev_want ev_script[] = {
	{ "acquire",		0, 1, "site_lock+", NULL },
	{ "acquire",		0, 2, "site_lock+", NULL },
	{ "release",		0, 1, "site_unlock+", NULL },
	{ "release_all",	0, 1, "site_release_all+", NULL },
	{ "acquire_count",	1, 2, "site_acquire_count+", NULL },
	{ "acquire",		1, 1, "__mp_acquire_count+",
	    "site_acquire_count+" },
	{ "acquire",		1, 2, "__mp_acquire_count+",
	    "site_acquire_count+" },
	{ "release",		1, 1, "site_unlock+", NULL },
	{ "release",		1, 0, "site_unlock+", NULL },
	{ "release MISUSE",	2, 0, "site_unlock+", NULL },
};
#define EV_NSCRIPT	(sizeof(ev_script) / sizeof(ev_script[0]))

/* Parse the event lines of mplock_print(); returns how many. */
static int
ev_parse(const char *out, unsigned int *seq, int *cpu, char (*type)[32],
    int *depth, char (*site)[64], int max)
{
	const char *p;
	char sym[64], tail[16];
	int n = 0, k;

	if ((p = strstr(out, "release_all: levels released; acquire_count: "
	    "count):\n")) == NULL)
		return (-1);
	p = strchr(p, '\n') + 1;
	while (*p == ' ' && n < max) {
		k = sscanf(p, "%u cpu %d %31s %d %*u.%*us %63s %15s",
		    &seq[n], &cpu[n], type[n], &depth[n], sym, tail);
		if (k < 5)
			break;
		if (k == 6 && strcmp(tail, "MISUSE") == 0)
			strncat(type[n], " MISUSE",
			    sizeof(type[n]) - strlen(type[n]) - 1);
		snprintf(site[n], sizeof(site[n]), "%s", sym);
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

static int
t_events(void)
{
	static unsigned int seq[MPLOCK_DEBUG_NEVENTS + 1];
	static int cpu[MPLOCK_DEBUG_NEVENTS + 1];
	static int dep[MPLOCK_DEBUG_NEVENTS + 1];
	static char type[MPLOCK_DEBUG_NEVENTS + 1][32];
	static char site[MPLOCK_DEBUG_NEVENTS + 1][64];
	const struct ev_want *w;
	int n = 3, i, got, wraps = 100;
	unsigned int last;

	dbg_syms();
	__mp_lock_init(&L);
	srv_start(n);
	srv_callfn(0, site_lock, 0);
	srv_callfn(0, site_lock, 0);
	srv_callfn(0, site_unlock, 0);
	srv_callfn(0, site_release_all, 0);
	srv_callfn(1, site_acquire_count, 2);
	srv_callfn(1, site_unlock, 0);
	srv_callfn(1, site_unlock, 0);
	srv_callfn(2, site_unlock, 0);		/* refused */

	shim_db_reset();
	mplock_print(&L);
	got = ev_parse(shim_db_output(), seq, cpu, type, dep, site,
	    MPLOCK_DEBUG_NEVENTS + 1);
	if (got != (int)EV_NSCRIPT) {
		printf("events: %d events, want %zu:\n%s", got, EV_NSCRIPT,
		    shim_db_output());
		VIOLATION("events missing or extra");
	}
	for (i = 0; i < got && i < (int)EV_NSCRIPT; i++) {
		w = &ev_script[i];
		if (seq[i] != (unsigned int)i + 1 || strcmp(type[i],
		    w->type) != 0 || cpu[i] != w->cpu || dep[i] != w->depth ||
		    (!ev_site(site[i], w->site) &&
		    !ev_site(site[i], w->site2))) {
			printf("events: #%d is %u %s cpu %d depth %d %s, want "
			    "%s cpu %d depth %d %s\n", i, seq[i], type[i],
			    cpu[i], dep[i], site[i], w->type, w->cpu,
			    w->depth, w->site);
			VIOLATION("event recorded wrong");
		}
	}
	printf("events: ddb output:\n%s", shim_db_output());

	/* Wrap the ring: the last MPLOCK_DEBUG_NEVENTS, none missing. */
	for (i = 0; i < wraps; i++) {
		srv_callfn(0, site_lock, 0);
		srv_callfn(0, site_unlock, 0);
	}
	last = EV_NSCRIPT + 2 * wraps;
	shim_db_reset();
	mplock_print(&L);
	got = ev_parse(shim_db_output(), seq, cpu, type, dep, site,
	    MPLOCK_DEBUG_NEVENTS + 1);
	if (got != MPLOCK_DEBUG_NEVENTS)
		VIOLATION("wrapped ring does not show its size in events");
	for (i = 0; i < got; i++) {
		if (seq[i] != last - MPLOCK_DEBUG_NEVENTS + 1 + i)
			VIOLATION("wrapped ring out of order or with gaps");
		w = seq[i] % 2 ? &ev_script[0] : &ev_script[8];
		if (strcmp(type[i], w->type) != 0 || cpu[i] != 0 ||
		    dep[i] != w->depth || !ev_site(site[i], w->site))
			VIOLATION("wrapped ring holds the wrong events");
	}
	srv_stop(n);
	check_idle(n);
	witness_balanced();
	return (report("events", "%zu scripted events, %u after %d "
	    "lock/unlock pairs, %lu violations", EV_NSCRIPT, last, wraps,
	    violations));
}

#endif /* MPLOCK_DEBUG */
