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
 * Userland kernel environment for the kernel lock regress: threads as
 * CPUs, a signal as the interrupt, and recorders for ddb and WITNESS.
 */

#include <sys/param.h>
#include <sys/systm.h>
#include <sys/mplock.h>
#include <sys/witness.h>

#include <machine/cpu.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shim.h"

#define barrier()	__asm volatile("" ::: "memory")

struct cpu_info shim_cpus[MAXCPUS];
__thread struct cpu_info *shim_curcpu;
__thread volatile int shim_intr_off;
__thread volatile int shim_intr_pending;
static __thread volatile int shim_in_intr;
static __thread unsigned int shim_spins;

unsigned int shim_yield_every = 256;
volatile unsigned long shim_progress;

/* Defined by kern_lock.c in the kernel, which the harness does not build. */
long __mp_lock_spinout = 1L * INT_MAX;
struct __mp_lock kernel_lock;

int
shim_ncpu_online(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		n = 1;
	if (n > MAXCPUS)
		n = MAXCPUS;
	return ((int)n);
}

void
shim_cpu_attach(int id)
{
	if (id < 0 || id >= MAXCPUS) {
		fprintf(stderr, "shim: cpu %d out of range\n", id);
		abort();
	}
	shim_cpus[id].ci_cpuid = id;
	shim_curcpu = &shim_cpus[id];
	shim_intr_off = 0;
	shim_intr_pending = 0;
}

void
shim_busy_cycle(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm volatile("yield" ::: "memory");
#else
	barrier();
#endif
	/* More CPU threads than cores: let a preempted owner run. */
	if (shim_yield_every != 0 && ++shim_spins >= shim_yield_every) {
		shim_spins = 0;
		sched_yield();
	}
}

/*
 * CPU threads.
 */
struct cpu_start {
	void		(*fn)(void *, int);
	void		*arg;
	int		 id;
};

static pthread_t cpu_threads[MAXCPUS];
static struct cpu_start cpu_starts[MAXCPUS];
static int cpu_nthreads;
static volatile int cpu_go;

static void *
cpu_main(void *v)
{
	struct cpu_start *cs = v;

	shim_cpu_attach(cs->id);
	/* Start together, once every CPU's thread id is known. */
	while (!__atomic_load_n(&cpu_go, __ATOMIC_ACQUIRE))
		sched_yield();
	cs->fn(cs->arg, cs->id);
	return (NULL);
}

void
shim_start_cpus(int n, void (*fn)(void *, int), void *arg)
{
	int i;

	if (n < 1 || n > MAXCPUS) {
		fprintf(stderr, "shim: %d cpus out of range 1..%d\n", n,
		    MAXCPUS);
		exit(2);
	}
	cpu_nthreads = n;
	cpu_go = 0;
	for (i = 0; i < n; i++) {
		shim_cpus[i].ci_cpuid = i;
		cpu_starts[i].fn = fn;
		cpu_starts[i].arg = arg;
		cpu_starts[i].id = i;
		if ((errno = pthread_create(&cpu_threads[i], NULL, cpu_main,
		    &cpu_starts[i])) != 0) {
			perror("pthread_create");
			exit(2);
		}
	}
	__atomic_store_n(&cpu_go, 1, __ATOMIC_RELEASE);
}

void
shim_join_cpus(void)
{
	int i;

	for (i = 0; i < cpu_nthreads; i++)
		pthread_join(cpu_threads[i], NULL);
	cpu_nthreads = 0;
}

void
shim_run_cpus(int n, void (*fn)(void *, int), void *arg)
{
	shim_start_cpus(n, fn, arg);
	shim_join_cpus();
}

pthread_t
shim_cpu_thread(int id)
{
	return (cpu_threads[id]);
}

/*
 * Interrupts.  SIGUSR1 stands for a device interrupt.  While the thread
 * has interrupts disabled, or is already running the interrupt body, it
 * is only marked pending and delivered by intr_restore() (or when the
 * running body returns), as a pending hardware interrupt would be.
 */
static void (*intr_body)(void);

static void
intr_run(void)
{
	shim_in_intr = 1;
	do {
		shim_intr_pending = 0;
		barrier();
		shim_curcpu->ci_intr_count++;
		intr_body();
		barrier();
	} while (shim_intr_pending);
	shim_in_intr = 0;
}

static void
intr_signal(int sig)
{
	int saved = errno;

	(void)sig;
	if (shim_curcpu != NULL && intr_body != NULL) {
		if (shim_intr_off || shim_in_intr)
			shim_intr_pending = 1;
		else
			intr_run();
	}
	errno = saved;
}

void
shim_intr_deliver(void)
{
	if (shim_in_intr || shim_intr_off || intr_body == NULL)
		return;
	intr_run();
}

void
shim_intr_init(void (*body)(void))
{
	struct sigaction sa;

	intr_body = body;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = intr_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGUSR1, &sa, NULL) == -1) {
		perror("sigaction");
		exit(2);
	}
}

void
shim_intr_raise(pthread_t t)
{
	pthread_kill(t, SIGUSR1);
}

static pthread_t storm_thread;
static pthread_t storm_targets[MAXCPUS];
static int storm_ntargets;
static unsigned int storm_usec;
static volatile int storm_stop;
static unsigned long storm_sent;

static void *
storm_main(void *v)
{
	unsigned int seed = 12345;
	int i, t;

	(void)v;
	while (!storm_stop) {
		/* Prefer a CPU that is spinning: nesting while queued. */
		t = shim_rand(&seed) % storm_ntargets;
		for (i = 0; i < storm_ntargets; i++)
			if (shim_cpus[(t + i) % storm_ntargets].
			    ci_schedstate.spc_spinning) {
				t = (t + i) % storm_ntargets;
				break;
			}
		shim_intr_raise(storm_targets[t]);
		storm_sent++;
		if (storm_usec)
			shim_delay(storm_usec);
	}
	return (NULL);
}

void
shim_intr_storm_start(const pthread_t *targets, int n, unsigned int usec)
{
	memcpy(storm_targets, targets, n * sizeof(*targets));
	storm_ntargets = n;
	storm_usec = usec;
	storm_stop = 0;
	storm_sent = 0;
	if ((errno = pthread_create(&storm_thread, NULL, storm_main,
	    NULL)) != 0) {
		perror("pthread_create");
		exit(2);
	}
}

unsigned long
shim_intr_storm_stop(void)
{
	storm_stop = 1;
	pthread_join(storm_thread, NULL);
	return (storm_sent);
}

/*
 * ddb: db_printf() output goes to a buffer the tests read back.
 */
static char db_buf[65536];
static size_t db_len;
static volatile int db_lk;
static unsigned long db_nenter;
static int db_quiet = 1;

int
db_printf(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return (n);
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;

	while (__atomic_test_and_set(&db_lk, __ATOMIC_ACQUIRE))
		;
	if (db_len + n < sizeof(db_buf)) {
		memcpy(db_buf + db_len, line, n);
		db_len += n;
		db_buf[db_len] = '\0';
	}
	__atomic_clear(&db_lk, __ATOMIC_RELEASE);
	if (!db_quiet)
		fputs(line, stderr);
	return (n);
}

void
db_enter(void)
{
	__atomic_add_fetch(&db_nenter, 1, __ATOMIC_SEQ_CST);
}

void
shim_db_reset(void)
{
	while (__atomic_test_and_set(&db_lk, __ATOMIC_ACQUIRE))
		;
	db_len = 0;
	db_buf[0] = '\0';
	__atomic_clear(&db_lk, __ATOMIC_RELEASE);
	__atomic_store_n(&db_nenter, 0, __ATOMIC_SEQ_CST);
}

const char *
shim_db_output(void)
{
	return (db_buf);
}

unsigned long
shim_db_enters(void)
{
	return (__atomic_load_n(&db_nenter, __ATOMIC_SEQ_CST));
}

void
shim_db_quiet(int q)
{
	db_quiet = q;
}

void
panic(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "panic: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}

/*
 * WITNESS recorder.  Counts every call and keeps, per CPU thread, how
 * many levels of each lock WITNESS has been told this CPU holds.  It
 * flags the calls WITNESS itself would reject for the kernel lock: an
 * unlock of a lock not held, an order check of a lock already held
 * (the kernel lock is not LO_RECURSABLE), use before WITNESS_INIT.
 */
#define WIT_NLOCKS	32

struct wit_held {
	const struct lock_object *lo;
	int			  n;
};

static __thread struct wit_held wit_held[WIT_NLOCKS];
static struct shim_witness_stats wit;
static char wit_lasterr[256];

static struct wit_held *
wit_find(const struct lock_object *lo, int create)
{
	int i, free = -1;

	for (i = 0; i < WIT_NLOCKS; i++) {
		if (wit_held[i].lo == lo)
			return (&wit_held[i]);
		if (wit_held[i].lo == NULL && free == -1)
			free = i;
	}
	if (!create || free == -1)
		return (NULL);
	wit_held[free].lo = lo;
	wit_held[free].n = 0;
	return (&wit_held[free]);
}

static void
wit_error(const char *what, const struct lock_object *lo)
{
	__atomic_add_fetch(&wit.errors, 1, __ATOMIC_SEQ_CST);
	snprintf(wit_lasterr, sizeof(wit_lasterr), "%s: %s (cpu %u)", what,
	    lo->lo_name ? lo->lo_name : "?",
	    shim_curcpu ? shim_curcpu->ci_cpuid : 0);
}

void
shim_witness_init(struct lock_object *lo, const struct lock_type *type)
{
	__atomic_add_fetch(&wit.inits, 1, __ATOMIC_SEQ_CST);
	if (type == NULL || lo->lo_name == NULL)
		wit_error("init without a lock type", lo);
	lo->lo_flags |= LO_INITIALIZED;
}

void
shim_witness_checkorder(struct lock_object *lo, int flags,
    struct lock_object *interlock)
{
	struct wit_held *h;

	(void)interlock;
	__atomic_add_fetch(&wit.checkorders, 1, __ATOMIC_SEQ_CST);
	if ((lo->lo_flags & LO_INITIALIZED) == 0)
		wit_error("checkorder before init", lo);
	if ((flags & LOP_EXCLUSIVE) == 0)
		wit_error("checkorder not exclusive", lo);
	h = wit_find(lo, 0);
	if (h != NULL && h->n > 0 && (lo->lo_flags & LO_RECURSABLE) == 0)
		wit_error("recursed on non-recursive lock", lo);
}

void
shim_witness_lock(struct lock_object *lo, int flags)
{
	struct wit_held *h;

	__atomic_add_fetch(&wit.locks, 1, __ATOMIC_SEQ_CST);
	if ((flags & LOP_EXCLUSIVE) == 0)
		wit_error("lock not exclusive", lo);
	if ((h = wit_find(lo, 1)) == NULL) {
		wit_error("too many locks", lo);
		return;
	}
	h->n++;
}

void
shim_witness_unlock(struct lock_object *lo, int flags)
{
	struct wit_held *h;

	__atomic_add_fetch(&wit.unlocks, 1, __ATOMIC_SEQ_CST);
	if ((flags & LOP_EXCLUSIVE) == 0)
		wit_error("unlock not exclusive", lo);
	h = wit_find(lo, 0);
	if (h == NULL || h->n == 0) {
		wit_error("unlock of a lock not held", lo);
		return;
	}
	h->n--;
}

void
shim_witness_reset(void)
{
	memset(&wit, 0, sizeof(wit));
	wit_lasterr[0] = '\0';
}

void
shim_witness_stats(struct shim_witness_stats *s)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	*s = wit;
}

int
shim_witness_held(const struct lock_object *lo)
{
	struct wit_held *h = wit_find(lo, 0);

	return (h ? h->n : 0);
}

const char *
shim_witness_lasterror(void)
{
	return (wit_lasterr);
}

/*
 * Watchdog: a lock bug usually shows as a hang.  Exit with a report
 * when the tests' progress counter has not moved for a while.
 */
static unsigned int wd_limit;

static void *
watchdog_main(void *v)
{
	unsigned long last = ~0UL, now;
	double since = shim_now();
	int i;

	(void)v;
	for (;;) {
		usleep(100 * 1000);
		now = __atomic_load_n(&shim_progress, __ATOMIC_RELAXED);
		if (now != last) {
			last = now;
			since = shim_now();
			continue;
		}
		if (shim_now() - since < wd_limit)
			continue;
		fprintf(stderr, "FAIL: watchdog: no progress for %u s "
		    "(deadlock or lost hand-off)\n", wd_limit);
		for (i = 0; i < MAXCPUS; i++)
			if (shim_cpus[i].ci_schedstate.spc_spinning)
				fprintf(stderr, "  cpu%d spinning (%u)\n", i,
				    shim_cpus[i].ci_schedstate.spc_spinning);
		fflush(stderr);
		_exit(3);
	}
	return (NULL);
}

void
shim_watchdog_start(unsigned int seconds)
{
	pthread_t t;

	wd_limit = seconds;
	if ((errno = pthread_create(&t, NULL, watchdog_main, NULL)) != 0) {
		perror("pthread_create");
		exit(2);
	}
	pthread_detach(t);
}

double
shim_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

unsigned int
shim_rand(unsigned int *seed)
{
	/* xorshift32: cheap, per thread, good enough to vary timing. */
	unsigned int x = *seed ? *seed : 2463534242U;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*seed = x;
	return (x);
}

void
shim_delay(unsigned int usec)
{
	double end = shim_now() + usec / 1e6;

	while (shim_now() < end)
		barrier();
}
