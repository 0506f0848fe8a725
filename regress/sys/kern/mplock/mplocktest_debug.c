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
 */

#include <sys/time.h>

#include <limits.h>

/* The debug layer's tests read its reports in ddb's output. */
#if defined(MPLOCK_DEBUG) && defined(DDB)
#define MPLT_DEBUG
#endif

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
 * lockorder: kernel_lock's WITNESS name and flags and the front end's
 * calls on one CPU, the WITNESS checker, then the front end under it
 * across CPUs.
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

static void
lo_intr(void)
{
	__mp_lock(&kernel_lock);
	__mp_unlock(&kernel_lock);
	lo_intr_done = lo_intr_done + 1;
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

	/* An order check only when not held; one unlock per level. */
	__mp_lock_init(&kernel_lock);
	if (strcmp(kernel_lock.mpl_lock_obj.lo_name, "&kernel_lock") != 0)
		VIOLATION("kernel_lock has the wrong WITNESS name");
	if (kernel_lock.mpl_lock_obj.lo_flags != kflags)
		VIOLATION("kernel_lock has the wrong WITNESS flags");
	if (L.mpl_lock_obj.lo_flags & LO_WITNESS)
		VIOLATION("an ordinary __mp_lock got kernel_lock's flags");
	__mp_lock(&kernel_lock);
	__mp_lock(&kernel_lock);
	__mp_lock(&kernel_lock);
	shim_witness_stats(&w);
	if (w.checkorders != 1 || w.locks != 3)
		VIOLATION("checkorder/lock counts wrong when recursing");
	__mp_unlock(&kernel_lock);
	if (__mp_release_all(&kernel_lock) != 2)
		VIOLATION("release_all returned the wrong depth");
	shim_witness_stats(&w);
	if (w.unlocks != 3 || w.errors)
		VIOLATION("release_all did not unlock each level");
	check_idle(&kernel_lock);

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
	lo_intr_done = 0;
	shim_intr_init(lo_intr);
	srv_call(0, op_lock, 0);
	srv_queue(1, op_lock);
	shim_intr_raise(shim_cpu_thread(1));
	while (shim_cpus[1].ci_schedstate.spc_spinning < 2 &&
	    lo_intr_done == 0)
		sched_yield();
	srv_call(0, op_unlock, 0);
	srv_wait(1);
	if (lo_intr_done != 1)
		VIOLATION("the interrupt did not take the lock");
	srv_call(1, op_unlock, 0);
	shim_intr_init(NULL);
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
static op_t volatile mis_intr_fn;
static volatile int mis_intr_done;

static void
mis_intr(void)
{
	mis_intr_fn(0);
	mis_intr_done = mis_intr_done + 1;
}

static unsigned long mis_seen;	/* ddb entries so far */

static int
mis_expect(const char *line)
{
	const char *out = shim_db_output(), *p;
	unsigned long enters = shim_db_enters();
	char want[160];

	snprintf(want, sizeof(want), "mplock L: %s", line);
	if ((p = strstr(out, want)) == NULL || strchr(p, '\n') == NULL) {
		printf("misuse: no line \"%s\" in:\n%s", want, out);
		VIOLATION("misuse not reported, or in other words");
		return (0);
	}
	if (enters != mis_seen + 1) {
		printf("misuse: %s: ddb entered %lu times\n", line,
		    enters - mis_seen);
		VIOLATION("misuse did not enter ddb exactly once");
	}
	mis_seen = enters;
	return (1);
}

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
	mis_seen = 0;
	srv_start(n);
	for (i = 0; i < (int)MIS_NDIRECT; i++) {
		before = mis_state();
		rv = srv_call(mis_script[i].cpu, mis_script[i].fn,
		    mis_script[i].arg);
		if (mis_script[i].line == NULL)
			continue;
		reports += mis_expect(mis_script[i].line);
		if (rv != 0 || mis_state() != before)
			VIOLATION("a refused call changed the lock");
	}

	/* Recursion: reported when it crosses the limit, once. */
	srv_calls(2, op_lock, MPLOCK_DEBUG_MAXDEPTH);
	if (shim_db_enters() != (unsigned long)reports)
		VIOLATION("recursion reported below the limit");
	srv_call(2, op_lock, 0);
	snprintf(line, sizeof(line), "recursion deeper than %d: cpu 2 depth "
	    "%d owner cpu 2 at op_lock+", MPLOCK_DEBUG_MAXDEPTH,
	    MPLOCK_DEBUG_MAXDEPTH);
	reports += mis_expect(line);
	srv_call(2, op_lock, 0);
	if (srv_call(2, op_release_all, 0) != MPLOCK_DEBUG_MAXDEPTH + 2)
		VIOLATION("release_all after deep recursion");
	if (shim_db_enters() != (unsigned long)reports)
		VIOLATION("recursion reported more than once");

	shim_intr_init(mis_intr);
	srv_call(0, op_lock, 0);
	srv_queue(1, op_lock);
	for (i = MIS_NDIRECT; i < (int)nitems(mis_script); i++) {
		before = mis_state();
		mis_intr_fn = mis_script[i].fn;
		mis_intr_done = 0;
		shim_intr_raise(shim_cpu_thread(mis_script[i].cpu));
		while (mis_intr_done == 0)
			sched_yield();
		if (srv_isdone(1) || mis_state() != before)
			VIOLATION("a release from an interrupt on a waiting "
			    "CPU changed the lock");
		reports += mis_expect(mis_script[i].line);
	}
	shim_intr_init(NULL);
	srv_call(0, op_unlock, 0);
	srv_wait(1);
	if (!held(1))
		VIOLATION("the waiter did not get the lock afterwards");
	srv_call(1, op_unlock, 0);

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
		db_wait(1, -1, queue[nq - 1]);
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

/* The sums of n CPUs' statistics (but the times' maxima: the wait's). */
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
		t->mds_holdsum += s->mds_holdsum;
		if (s->mds_waitmax > t->mds_waitmax)
			t->mds_waitmax = s->mds_waitmax;
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
