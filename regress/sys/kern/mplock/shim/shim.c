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
#include <sys/kthread.h>
#include <sys/mplock.h>
#include <sys/sched.h>
#include <sys/time.h>
#include <sys/timeout.h>
#include <sys/witness.h>

#include <machine/cpu.h>
#include <machine/db_machdep.h>
#include <ddb/db_sym.h>

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
static __thread unsigned int shim_spin_limit;	/* yield at this count */
static __thread unsigned int shim_rng;
static __thread uint64_t shim_spin_last;	/* nsecuptime() of last step */
#define YIELD_EVERY	256			/* mean spin steps per yield */

unsigned int shim_yield_ns;
volatile unsigned long shim_progress;

/* Defined by kern_lock.c in the kernel, which the harness does not build. */
long __mp_lock_spinout = 1L * INT_MAX;
struct __mp_lock kernel_lock;

/* Defined elsewhere in the kernel; the tests set them. */
const char *panicstr;
int db_active;
int cold;

static __attribute__((__noreturn__)) void
fatal(const char *what)
{
	perror(what);
	exit(2);
}

static void
thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	if ((errno = pthread_create(t, NULL, fn, arg)) != 0)
		fatal("pthread_create");
}

static void
sig_handle(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (sigaction(sig, &sa, NULL) == -1)
		fatal("sigaction");
}

/* A spin lock of the shim's, taken with the CPU's interrupts held back. */
static unsigned long
spin_enter(volatile int *lk)
{
	unsigned long s = intr_disable();

	while (__atomic_test_and_set(lk, __ATOMIC_ACQUIRE))
		sched_yield();
	return (s);
}

static void
spin_leave(volatile int *lk, unsigned long s)
{
	__atomic_clear(lk, __ATOMIC_RELEASE);
	intr_restore(s);
}

uint64_t
nsecuptime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec);
}

double
shim_now(void)
{
	return (nsecuptime() / 1e9);
}

int
shim_ncpu_online(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return (n < 1 ? 1 : n > MAXCPUS ? MAXCPUS : (int)n);
}

/* A kick (SIGUSR2, shim_kick()) to a CPU with interrupts on is a no-op. */
static void
kick_signal(int sig)
{
	if (shim_intr_off)
		shim_kick_pending = 1;
}

void
shim_cpu_attach(int id)
{
	shim_cpus[id].ci_cpuid = id;
	shim_curcpu = &shim_cpus[id];
	shim_intr_off = 0;
	shim_intr_pending = 0;
	sig_handle(SIGUSR2, kick_signal);
}

/*
 * The next yield, uniform in 1 .. 2 * mean - 1 spin steps or ns: a
 * hypervisor deschedules a spinning vCPU after a varying while, and a
 * fixed count locks oversubscribed runs into phase patterns whose
 * throughputs differ by a fifth.
 */
static unsigned int
shim_spin_draw(unsigned int mean)
{
	if (shim_rng == 0)
		shim_rng = 0x9e3779b9u ^ (unsigned int)(uintptr_t)&shim_rng;
	return (1 + shim_rand(&shim_rng) % (2 * mean - 1));
}

#if defined(__x86_64__)
/*
 * fn_keepregs: fn() with the registers a call may change saved and the
 * stack aligned, for SHIM_CALL(fn) (<machine/cpu.h>).
 */
#define KEEPREGS(fn)							\
__asm(".pushsection .text\n"						\
    ".globl " #fn "_keepregs\n"						\
    #fn "_keepregs:\n"							\
    "push %rbp; mov %rsp, %rbp; and $-16, %rsp\n"			\
    ".irp r, rax, rcx, rdx, rsi, rdi, r8, r9, r10, r11\n"		\
    "push %\\r\n"							\
    ".endr\n"								\
    "sub $264, %rsp\n"							\
    ".irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15\n"	\
    "movaps %xmm\\i, 16 * \\i(%rsp)\n"					\
    ".endr\n"								\
    "call " #fn "\n"							\
    ".irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15\n"	\
    "movaps 16 * \\i(%rsp), %xmm\\i\n"					\
    ".endr\n"								\
    "add $264, %rsp\n"							\
    ".irp r, r11, r10, r9, r8, rdi, rsi, rdx, rcx, rax\n"		\
    "pop %\\r\n"							\
    ".endr\n"								\
    "leave; ret\n"							\
    ".popsection\n")
KEEPREGS(shim_busy_cycle);
KEEPREGS(shim_intr_deliver);
#endif

/*
 * Every spin step, the MD ones too (kern_mplock.h ends them with
 * CPU_BUSY_CYCLE()), may yield, to let a preempted owner run.
 */
void
shim_busy_cycle(void)
{
	uint64_t now;
	unsigned int mean, step = 1;

#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm volatile("yield" ::: "memory");
#else
	barrier();
#endif
	mean = YIELD_EVERY;
	if (shim_yield_ns != 0) {
		/*
		 * By time, as a pause-loop exit counts cycles: a quicker
		 * spin step must not yield sooner.  A long gap since the
		 * last step (a hand-off, a yield) is not spinning.
		 */
		now = nsecuptime();
		step = now - shim_spin_last < 1000 ? now - shim_spin_last : 0;
		shim_spin_last = now;
		mean = shim_yield_ns;
	}
	if (shim_spin_limit == 0)
		shim_spin_limit = shim_spin_draw(mean);
	if ((shim_spins += step) >= shim_spin_limit) {
		shim_spins = 0;
		shim_spin_limit = shim_spin_draw(mean);
		sched_yield();
	}
}

/* CPU threads, started together once every thread id is known. */
static void (*cpu_fn)(int);
static pthread_t cpu_threads[MAXCPUS];
static int cpu_nthreads;
static volatile int cpu_go;

static void *
cpu_main(void *v)
{
	int id = (int)(intptr_t)v;

	shim_cpu_attach(id);
	while (!__atomic_load_n(&cpu_go, __ATOMIC_ACQUIRE))
		sched_yield();
	cpu_fn(id);
	return (NULL);
}

void
shim_start_cpus(int n, void (*fn)(int))
{
	int i;

	cpu_nthreads = n;
	cpu_fn = fn;
	cpu_go = 0;
	for (i = 0; i < n; i++) {
		shim_cpus[i].ci_cpuid = i;
		thread_start(&cpu_threads[i], cpu_main, (void *)(intptr_t)i);
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

pthread_t
shim_cpu_thread(int id)
{
	return (cpu_threads[id]);
}

/*
 * Interrupts: SIGUSR1.  With interrupts disabled, or in the body
 * already, it is marked pending and delivered by intr_restore() (or
 * when the body returns), as a pending hardware interrupt is.
 */
static void (*intr_body)(void);

static void
intr_signal(int sig)
{
	int saved = errno;

	if (shim_curcpu != NULL && intr_body != NULL) {
		shim_intr_pending = 1;
		shim_intr_deliver();
	}
	errno = saved;
}

void
shim_intr_deliver(void)
{
	if (shim_in_intr || shim_intr_off || intr_body == NULL)
		return;
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

void
shim_intr_init(void (*body)(void))
{
	intr_body = body;
	sig_handle(SIGUSR1, intr_signal);
}

void
shim_intr_raise(pthread_t t)
{
	pthread_kill(t, SIGUSR1);
}

/*
 * Halted waits (the M-lock's guest mode): a halt is sigsuspend(),
 * ended by an interrupt (SIGUSR1, whose body then runs) or a kick
 * (SIGUSR2).  A kick sent to a CPU with interrupts disabled is pending,
 * as an IPI is, and ends its next halt at once; with them enabled it
 * is a no-op (intr_restore() drops a pending one).  It goes to the
 * thread that was the CPU when it began to halt.
 */
int shim_guest;
__thread volatile int shim_kick_pending;
volatile unsigned long shim_halts[MAXCPUS];
volatile int shim_halt_hold = -1;
volatile int shim_halt_holding[MAXCPUS];
static pthread_t halt_thread[MAXCPUS];

/* Not nsecuptime() itself, which only the debug layer may call. */
unsigned long long
shim_cycles(void)
{
	return (nsecuptime());
}

int
shim_halt_begin(void)
{
	if (shim_intr_off)
		return (0);
	shim_intr_off = 1;
	barrier();
	halt_thread[shim_curcpu->ci_cpuid] = pthread_self();
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return (1);
}

/* Interrupts on and halt; called with them off by shim_halt_begin(). */
void
shim_halt(void)
{
	sigset_t block, old;
	int me = shim_curcpu->ci_cpuid;

	while (shim_halt_hold == me) {	/* the tests' window */
		shim_halt_holding[me] = 1;
		sched_yield();
	}
	shim_halt_holding[me] = 0;
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	/* "sti": no signal is taken before sigsuspend() waits for one. */
	shim_intr_off = 0;
	barrier();
	if (!shim_kick_pending && !shim_intr_pending) {
		__atomic_add_fetch(&shim_halts[me], 1, __ATOMIC_SEQ_CST);
		sigsuspend(&old);
	}
	shim_kick_pending = 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (shim_intr_pending)
		shim_intr_deliver();
}

void
shim_kick(unsigned int i)
{
	pthread_kill(halt_thread[i], SIGUSR2);
}

/* ddb: db_printf() output goes to a buffer the tests read back. */
static char db_buf[65536];
static size_t db_len;
static volatile int db_lk;
static unsigned long db_nenter;

int
db_printf(const char *fmt, ...)
{
	va_list ap;
	unsigned long s;
	int n;

	s = spin_enter(&db_lk);
	va_start(ap, fmt);
	n = vsnprintf(db_buf + db_len, sizeof(db_buf) - db_len, fmt, ap);
	va_end(ap);
	if (n > 0 && db_len + n < sizeof(db_buf))
		db_len += n;
	else
		db_buf[db_len] = '\0';	/* full: the line is dropped */
	spin_leave(&db_lk, s);
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
	unsigned long s = spin_enter(&db_lk);

	db_len = 0;
	db_buf[0] = '\0';
	spin_leave(&db_lk, s);
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

/* db_printsym(): the nearest registered name at or below the address. */
#define SYM_MAX		64
#define SYM_MAXOFF	0x10000

static struct {
	const char	*name;
	unsigned long	 addr;
} syms[SYM_MAX];
static int nsyms;

void
shim_sym_add(const char *name, const void *addr)
{
	if (nsyms < SYM_MAX) {
		syms[nsyms].name = name;
		syms[nsyms++].addr = (unsigned long)addr;
	}
}

void
db_printsym(db_expr_t off, db_strategy_t strategy,
    int (*pr)(const char *, ...))
{
	unsigned long a = (unsigned long)off, best = 0;
	int i, found = -1;

	for (i = 0; i < nsyms; i++)
		if (syms[i].addr <= a && a - syms[i].addr < SYM_MAXOFF &&
		    (found == -1 || syms[i].addr > best)) {
			found = i;
			best = syms[i].addr;
		}
	if (found == -1)
		(*pr)("%#lx", a);
	else if (a == best)
		(*pr)("%s", syms[found].name);
	else
		(*pr)("%s+%#lx", syms[found].name, a - best);
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
 * WITNESS checker: a small witness(4).  It counts every call and keeps
 * held-lock lists with recursion counts, per process for sleepable
 * locks (a process carries the kernel lock through mi_switch()) and per
 * CPU for spin locks (the test mutex), and the lock order between lock
 * types.  A lock of a lock not held that no check announced is only
 * counted ("unchecked"): the kernel lock makes one when an interrupt
 * comes between taking the lock and telling WITNESS, which witness(4)
 * accepts.
 */
#define WIT_NLOCKS	32	/* entries per held-lock list */
#define WIT_NTYPES	16	/* nodes of the order graph */
#define WIT_MUTEX(lo)	(((lo)->lo_flags & LO_WITNESS) &&		\
	    wit_class(lo) == LO_CLASS_MUTEX)

struct wit_held {
	const struct lock_object *lo;
	int			  n;		/* levels held */
	int			  pending;	/* checked, not yet locked */
};

static struct wit_held wit_proc_held[MAXCPUS][WIT_NLOCKS];
static __thread struct wit_held *wit_curproc;
static struct wit_held wit_cpu_held[MAXCPUS][WIT_NLOCKS];
static const struct lock_type *wit_types[WIT_NTYPES];
static unsigned char wit_order[WIT_NTYPES][WIT_NTYPES]; /* [a][b]: a, b */
static const struct lock_object *wit_kernel_class;
static struct shim_witness_stats wit;
static char wit_log[4096];
static size_t wit_loglen;
static volatile int wit_lk;

void
shim_proc_switch(int pid)
{
	wit_curproc = wit_proc_held[pid];
}

static int
wit_class(const struct lock_object *lo)
{
	return ((lo->lo_flags & LO_CLASSMASK) >> LO_CLASSSHIFT);
}

static int
wit_cpu(void)
{
	return (shim_curcpu ? shim_curcpu->ci_cpuid : 0);
}

/* A CPU thread runs the process of its number until told otherwise. */
static struct wit_held *
wit_proc_list(void)
{
	if (wit_curproc == NULL)
		shim_proc_switch(wit_cpu());
	return (wit_curproc);
}

static struct wit_held *
wit_list(const struct lock_object *lo)
{
	return (WIT_MUTEX(lo) ? wit_cpu_held[wit_cpu()] : wit_proc_list());
}

static void
wit_error(const char *what, const struct lock_object *lo, const char *more)
{
	int n;

	wit.errors++;
	n = snprintf(wit_log + wit_loglen, sizeof(wit_log) - wit_loglen,
	    "%s: %s%s (cpu %d)\n", what, lo->lo_name ? lo->lo_name : "?",
	    more ? more : "", wit_cpu());
	if (n > 0 && wit_loglen + n < sizeof(wit_log))
		wit_loglen += n;
	else
		wit_log[wit_loglen] = '\0';	/* full: the line is dropped */
}

/* lo's entry in its held list; a new one if create; NULL if none. */
static struct wit_held *
wit_find(const struct lock_object *lo, int create)
{
	struct wit_held *list = wit_list(lo);
	int i, free = -1;

	for (i = 0; i < WIT_NLOCKS; i++) {
		if (list[i].lo == lo)
			return (&list[i]);
		if (list[i].lo == NULL && free == -1)
			free = i;
	}
	if (!create)
		return (NULL);
	if (free == -1) {
		wit_error("too many locks", lo, NULL);
		return (NULL);
	}
	list[free].lo = lo;
	list[free].n = 0;
	list[free].pending = 0;
	return (&list[free]);
}

/* The order graph's node for the lock's type; -1 when not tracked. */
static int
wit_type(const struct lock_object *lo)
{
	const struct lock_type *t = lo->lo_type;
	int i;

	if ((lo->lo_flags & LO_WITNESS) == 0 || t == NULL)
		return (-1);
	for (i = 0; i < WIT_NTYPES && wit_types[i] != NULL; i++)
		if (wit_types[i] == t)
			return (i);
	if (i == WIT_NTYPES)
		return (-1);
	wit_types[i] = t;
	return (i);
}

/* Record "held, then lo" for every lock held; report a reversal. */
static void
wit_check_list(struct wit_held *list, const struct lock_object *lo, int to)
{
	char more[160];
	int i, from;

	for (i = 0; i < WIT_NLOCKS; i++) {
		if (list[i].lo == NULL || list[i].n == 0 || list[i].lo == lo)
			continue;
		if ((from = wit_type(list[i].lo)) == -1 || from == to)
			continue;
		if (wit_order[to][from]) {
			wit.lors++;
			snprintf(more, sizeof(more), " after %s, but %s -> %s "
			    "was seen before", wit_types[from]->lt_name,
			    wit_types[to]->lt_name, wit_types[from]->lt_name);
			wit_error("lock order reversal", lo, more);
		} else
			wit_order[from][to] = 1;
	}
}

void
shim_witness_init(struct lock_object *lo, const struct lock_type *type)
{
	unsigned long s = spin_enter(&wit_lk);

	if (type == NULL || lo->lo_name == NULL)
		wit_error("init without a lock type", lo, NULL);
	lo->lo_flags |= LO_INITIALIZED;
	if ((lo->lo_flags & LO_WITNESS) &&
	    wit_class(lo) == LO_CLASS_KERNEL_LOCK) {
		if ((lo->lo_flags & LO_SLEEPABLE) == 0)
			wit_error("kernel lock class not sleepable", lo, NULL);
		if (lo->lo_flags & LO_RECURSABLE)
			wit_error("kernel lock class recursable", lo, NULL);
		if (wit_kernel_class == NULL)
			wit_kernel_class = lo;
		else if (wit_kernel_class != lo)
			wit_error("second lock in the kernel lock class", lo,
			    NULL);
	}
	spin_leave(&wit_lk, s);
}

void
shim_witness_checkorder(struct lock_object *lo, int flags,
    struct lock_object *interlock)
{
	struct wit_held *h;
	unsigned long s = spin_enter(&wit_lk);
	int to;

	wit.checkorders++;
	if ((lo->lo_flags & LO_INITIALIZED) == 0)
		wit_error("checkorder before init", lo, NULL);
	if ((flags & LOP_EXCLUSIVE) == 0)
		wit_error("checkorder not exclusive", lo, NULL);
	if ((h = wit_find(lo, 1)) != NULL) {
		if (h->n > 0 && (lo->lo_flags & LO_RECURSABLE) == 0)
			wit_error("recursed on non-recursive lock", lo, NULL);
		h->pending++;
		if ((to = wit_type(lo)) != -1) {
			wit_check_list(wit_proc_list(), lo, to);
			wit_check_list(wit_cpu_held[wit_cpu()], lo, to);
		}
	}
	spin_leave(&wit_lk, s);
}

void
shim_witness_lock(struct lock_object *lo, int flags)
{
	struct wit_held *h;
	unsigned long s = spin_enter(&wit_lk);

	wit.locks++;
	if ((flags & LOP_EXCLUSIVE) == 0)
		wit_error("lock not exclusive", lo, NULL);
	if ((h = wit_find(lo, 1)) != NULL) {
		if (h->n > 0 && WIT_MUTEX(lo))
			wit_error("recursed on a mutex", lo, NULL);
		else if (h->n == 0 && h->pending == 0)
			wit.unchecked++;
		else if (h->n == 0)
			h->pending--;
		h->n++;
	}
	spin_leave(&wit_lk, s);
}

void
shim_witness_unlock(struct lock_object *lo, int flags)
{
	struct wit_held *h;
	unsigned long s = spin_enter(&wit_lk);

	wit.unlocks++;
	if ((flags & LOP_EXCLUSIVE) == 0)
		wit_error("unlock not exclusive", lo, NULL);
	if ((h = wit_find(lo, 0)) == NULL || h->n == 0)
		wit_error("unlock of a lock not held", lo, NULL);
	else if (--h->n == 0 && h->pending == 0)
		h->lo = NULL;		/* free the entry */
	spin_leave(&wit_lk, s);
}

/* Clears the counters, the held lists and the order graph. */
void
shim_witness_reset(void)
{
	unsigned long s = spin_enter(&wit_lk);

	memset(&wit, 0, sizeof(wit));
	memset(wit_proc_held, 0, sizeof(wit_proc_held));
	memset(wit_cpu_held, 0, sizeof(wit_cpu_held));
	memset(wit_types, 0, sizeof(wit_types));
	memset(wit_order, 0, sizeof(wit_order));
	wit_kernel_class = NULL;
	wit_log[0] = '\0';
	wit_loglen = 0;
	spin_leave(&wit_lk, s);
}

/* Totals, with what is still held or checked but not locked. */
void
shim_witness_stats(struct shim_witness_stats *st)
{
	unsigned long s = spin_enter(&wit_lk);
	int i, j;

	*st = wit;
	for (i = 0; i < MAXCPUS; i++)
		for (j = 0; j < WIT_NLOCKS; j++) {
			st->held += wit_proc_held[i][j].n +
			    wit_cpu_held[i][j].n;
			st->pending += wit_proc_held[i][j].pending +
			    wit_cpu_held[i][j].pending;
		}
	spin_leave(&wit_lk, s);
}

const char *
shim_witness_log(void)
{
	return (wit_log);
}

/* The test mutex: a spin lock told to WITNESS as mtx_enter(9) does. */
void
shim_mtx_init(struct shim_mtx *m, const struct lock_type *type)
{
	m->mtx_lock = 0;
	m->mtx_lo.lo_name = type->lt_name;
	m->mtx_lo.lo_type = type;
	m->mtx_lo.lo_flags = LO_WITNESS | LO_INITIALIZED |
	    (LO_CLASS_MUTEX << LO_CLASSSHIFT);
	WITNESS_INIT(&m->mtx_lo, type);
}

void
shim_mtx_enter(struct shim_mtx *m)
{
	WITNESS_CHECKORDER(&m->mtx_lo, LOP_EXCLUSIVE | LOP_NEWORDER, NULL);
	while (__atomic_test_and_set(&m->mtx_lock, __ATOMIC_ACQUIRE))
		CPU_BUSY_CYCLE();
	WITNESS_LOCK(&m->mtx_lo, LOP_EXCLUSIVE);
}

void
shim_mtx_leave(struct shim_mtx *m)
{
	WITNESS_UNLOCK(&m->mtx_lo, LOP_EXCLUSIVE);
	__atomic_clear(&m->mtx_lock, __ATOMIC_RELEASE);
}

/* Watchdog: a lock bug usually shows as a hang, tests' progress stops. */
static unsigned int wd_limit;

static void *
watchdog_main(void *v)
{
	unsigned long last = ~0UL, now;
	double since = shim_now();
	int i;

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
}

void
shim_watchdog_start(unsigned int seconds)
{
	pthread_t t;

	wd_limit = seconds;
	thread_start(&t, watchdog_main, NULL);
	pthread_detach(t);
}

/* xorshift32: cheap, per thread, good enough to vary timing. */
unsigned int
shim_rand(unsigned int *seed)
{
	unsigned int x = *seed ? *seed : 2463534242U;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return (*seed = x);
}

/* Fisher-Yates: put a[0..n-1] in a random order. */
void
shim_shuffle(int *a, int n, unsigned int *seed)
{
	int i, j, t;

	for (i = n - 1; i > 0; i--) {
		j = shim_rand(seed) % (i + 1);
		t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

void
shim_delay(unsigned int usec)
{
	uint64_t end = nsecuptime() + usec * 1000ULL;

	while (nsecuptime() < end)
		barrier();
}

/*
 * Kernel threads.  Each has a spare CPU identity (above the shim_ncpus
 * CPUs the kernel sees) until it pegs itself to one of the machine's
 * CPUs; then it is that CPU, which takes its interrupts, until it
 * unpegs.  Switching CPU, sleeping and yielding let go of the kernel
 * lock and take it back, as mi_switch() does.  The threads are joined
 * only by shim_kthread_join(), so the ids the clock signals stay valid.
 */
int shim_ncpus;
static volatile int kt_slot[MAXCPUS];		/* spare identity taken */
static pthread_t kt_threads[MAXCPUS];
static int kt_nthreads;
static unsigned long kt_created;
static pthread_mutex_t kt_mtx = PTHREAD_MUTEX_INITIALIZER;
static __thread int kt_home = -1;		/* own identity */
static pthread_t cpu_runner[MAXCPUS];		/* thread that is the CPU */
static volatile int cpu_has_runner[MAXCPUS];
static volatile unsigned long shim_wakeups;

static struct {
	void		(*fn)(void *);
	void		*arg;
} kt_start[MAXCPUS];				/* by spare identity */

static int
kt_slot_get(void)
{
	int i;

	for (i = shim_ncpus; i < MAXCPUS - 1; i++)
		if (__atomic_exchange_n(&kt_slot[i], 1, __ATOMIC_ACQ_REL) == 0)
			return (i);
	return (-1);
}

static void
kt_slot_put(int id)
{
	__atomic_store_n(&kt_slot[id], 0, __ATOMIC_RELEASE);
}

/* This thread takes spare identity id, and the process of its number. */
static void
kt_attach(int id)
{
	shim_cpu_attach(id);
	kt_home = id;
	shim_proc_switch(id);
}

/* mi_switch(): let go of the kernel lock if this CPU holds it. */
static int
kt_release(void)
{
	if (shim_curcpu == NULL || !__mp_lock_held(&kernel_lock, shim_curcpu))
		return (0);
	return (__mp_release_all(&kernel_lock));
}

/* Become CPU "to": the kernel lock is let go of and taken back. */
static void
kt_switch(struct cpu_info *to)
{
	unsigned long s;
	int n, from;

	n = kt_release();
	s = intr_disable();
	if ((from = shim_curcpu->ci_cpuid) < shim_ncpus)
		__atomic_store_n(&cpu_has_runner[from], 0, __ATOMIC_RELEASE);
	shim_curcpu = to;
	if ((int)to->ci_cpuid < shim_ncpus) {
		cpu_runner[to->ci_cpuid] = pthread_self();
		__atomic_store_n(&cpu_has_runner[to->ci_cpuid], 1,
		    __ATOMIC_RELEASE);
	}
	intr_restore(s);
	sched_yield();
	__mp_acquire_count(&kernel_lock, n);
}

static void *
kt_main(void *v)
{
	int id = (int)(intptr_t)v;

	kt_attach(id);
	__mp_lock(&kernel_lock);	/* a new thread starts holding it */
	kt_start[id].fn(kt_start[id].arg);
	kthread_exit(0);
}

int
kthread_create(void (*fn)(void *), void *arg, struct proc **pp,
    const char *name)
{
	unsigned long s;
	int id, rv = EAGAIN;

	if ((id = kt_slot_get()) == -1)
		return (EAGAIN);
	kt_start[id].fn = fn;
	kt_start[id].arg = arg;
	/* No interrupt may spin on the kernel lock while we hold kt_mtx. */
	s = intr_disable();
	pthread_mutex_lock(&kt_mtx);
	if (kt_nthreads < MAXCPUS &&
	    (rv = pthread_create(&kt_threads[kt_nthreads], NULL, kt_main,
	    (void *)(intptr_t)id)) == 0) {
		kt_nthreads++;
		kt_created++;
	}
	pthread_mutex_unlock(&kt_mtx);
	intr_restore(s);
	if (rv != 0)
		kt_slot_put(id);
	return (rv);
}

void
kthread_exit(int ecode)
{
	sigset_t set;

	kt_release();			/* exit1() lets go of it */
	sched_unpeg_curproc();
	/* No interrupt may use the identity once it is free. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	shim_curcpu = NULL;
	if (kt_home >= 0)
		kt_slot_put(kt_home);
	pthread_exit(NULL);
}

unsigned long
shim_kthreads_created(void)
{
	return (kt_created);
}

void
shim_kthread_join(void)
{
	int i;

	pthread_mutex_lock(&kt_mtx);
	for (i = 0; i < kt_nthreads; i++)
		pthread_join(kt_threads[i], NULL);
	kt_nthreads = 0;
	pthread_mutex_unlock(&kt_mtx);
}

void
sched_peg_curproc(struct cpu_info *ci)
{
	kt_switch(ci);
}

void
sched_unpeg_curproc(void)
{
	if (kt_home >= 0 && shim_curcpu != &shim_cpus[kt_home])
		kt_switch(&shim_cpus[kt_home]);
}

int
tsleep_nsec(const volatile void *ident, int prio, const char *wmesg,
    uint64_t nsecs)
{
	struct timespec ts = { 0, 100 * 1000 };
	unsigned long gen;
	uint64_t end;
	int n, rv = EWOULDBLOCK;

	gen = __atomic_load_n(&shim_wakeups, __ATOMIC_ACQUIRE);
	end = nsecuptime() + nsecs;
	n = kt_release();
	for (;;) {
		if (__atomic_load_n(&shim_wakeups, __ATOMIC_ACQUIRE) != gen) {
			rv = 0;
			break;
		}
		if (nsecuptime() >= end)
			break;
		nanosleep(&ts, NULL);
	}
	__mp_acquire_count(&kernel_lock, n);
	return (rv);
}

/* Every sleeper wakes and looks again: tsleep(9) callers loop. */
void
wakeup(const volatile void *ident)
{
	__atomic_add_fetch(&shim_wakeups, 1, __ATOMIC_RELEASE);
}

void
yield(void)
{
	int n;

	n = kt_release();
	__atomic_and_fetch(&shim_curcpu->ci_schedstate.spc_schedflags,
	    ~SPCF_SHOULDYIELD, __ATOMIC_RELAXED);
	sched_yield();
	shim_tick();
	__mp_acquire_count(&kernel_lock, n);
}

/* The clock and timeouts; tmo_lk guards the list, as timeout_mutex. */
#define TMO_MAX		16

static struct timeout *tmo_list[TMO_MAX];
static int tmo_n;
static volatile int tmo_lk;
static struct timeout *volatile tmo_running;
static volatile unsigned long tmo_calls;
static volatile int shim_ticks;
static volatile int clk_run;
static pthread_t clk_thread;
static int clk_id;

void
timeout_set(struct timeout *to, void (*fn)(void *), void *arg)
{
	unsigned long s;
	int i;

	to->to_func = fn;
	to->to_arg = arg;
	to->to_flags = 0;
	to->to_time = 0;
	s = spin_enter(&tmo_lk);
	for (i = 0; i < tmo_n && tmo_list[i] != to; i++)
		;
	if (i == tmo_n) {
		if (tmo_n == TMO_MAX) {
			spin_leave(&tmo_lk, s);
			panic("shim: more than %d timeouts", TMO_MAX);
		}
		tmo_list[tmo_n++] = to;
	}
	spin_leave(&tmo_lk, s);
}

int
timeout_add(struct timeout *to, int nticks)
{
	unsigned long s = spin_enter(&tmo_lk);
	int was = to->to_flags & TIMEOUT_ONQUEUE;

	to->to_time = shim_ticks + (nticks > 0 ? nticks : 1);
	to->to_flags |= TIMEOUT_ONQUEUE;
	spin_leave(&tmo_lk, s);
	return (!was);
}

/* The barrier sleeps in the kernel: the kernel lock is let go of. */
int
timeout_del_barrier(struct timeout *to)
{
	unsigned long s = spin_enter(&tmo_lk);
	int was = to->to_flags & TIMEOUT_ONQUEUE, n;

	to->to_flags &= ~TIMEOUT_ONQUEUE;
	spin_leave(&tmo_lk, s);
	n = kt_release();
	while (__atomic_load_n(&tmo_running, __ATOMIC_ACQUIRE) == to)
		sched_yield();
	__mp_acquire_count(&kernel_lock, n);
	return (was != 0);
}

/* A timeout that is due, or NULL; tmo_lk held. */
static struct timeout *
tmo_due(void)
{
	int i;

	for (i = 0; i < tmo_n; i++)
		if ((tmo_list[i]->to_flags & TIMEOUT_ONQUEUE) &&
		    tmo_list[i]->to_time - shim_ticks <= 0)
			return (tmo_list[i]);
	return (NULL);
}

/* The softclock: every due timeout, one at a time. */
static void
shim_softclock(void)
{
	struct timeout *to;
	unsigned long s;
	int mpsafe;

	for (;;) {
		s = spin_enter(&tmo_lk);
		if ((to = tmo_due()) != NULL) {
			to->to_flags &= ~TIMEOUT_ONQUEUE;
			__atomic_store_n(&tmo_running, to, __ATOMIC_RELEASE);
		}
		spin_leave(&tmo_lk, s);
		if (to == NULL)
			return;
		if (!(mpsafe = to->to_flags & TIMEOUT_MPSAFE))
			__mp_lock(&kernel_lock);
		to->to_func(to->to_arg);
		if (!mpsafe)
			__mp_unlock(&kernel_lock);
		__atomic_add_fetch(&tmo_calls, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&tmo_running, NULL, __ATOMIC_RELEASE);
	}
}

/* Ticks; every 10 the CPUs should yield; due timeouts run on CPU 0. */
static void *
clk_main(void *v)
{
	struct timespec ts = { 0, 1000000 };	/* 1000 Hz */
	unsigned long s;
	int i, due;

	kt_attach(clk_id);
	while (__atomic_load_n(&clk_run, __ATOMIC_ACQUIRE)) {
		nanosleep(&ts, NULL);
		if (__atomic_add_fetch(&shim_ticks, 1, __ATOMIC_RELEASE) %
		    10 == 0)
			for (i = 0; i < shim_ncpus; i++)
				__atomic_or_fetch(&shim_cpus[i].ci_schedstate.
				    spc_schedflags, SPCF_SHOULDYIELD,
				    __ATOMIC_RELAXED);
		s = spin_enter(&tmo_lk);
		due = tmo_due() != NULL;
		spin_leave(&tmo_lk, s);
		if (!due)
			continue;
		if (__atomic_load_n(&cpu_has_runner[0], __ATOMIC_ACQUIRE))
			pthread_kill(cpu_runner[0], SIGUSR1);
		else
			shim_softclock();	/* CPU 0 is idle */
	}
	return (NULL);
}

void
shim_clock_start(void)
{
	if ((clk_id = kt_slot_get()) == -1) {
		fprintf(stderr, "shim: no spare CPU for the clock\n");
		exit(2);
	}
	tmo_calls = 0;
	shim_intr_init(shim_softclock);
	__atomic_store_n(&clk_run, 1, __ATOMIC_RELEASE);
	thread_start(&clk_thread, clk_main, NULL);
}

void
shim_clock_stop(void)
{
	__atomic_store_n(&clk_run, 0, __ATOMIC_RELEASE);
	pthread_join(clk_thread, NULL);
	shim_intr_init(NULL);
	kt_slot_put(clk_id);
	tmo_n = 0;
}

unsigned long
shim_timeouts_run(void)
{
	return (__atomic_load_n(&tmo_calls, __ATOMIC_RELAXED));
}

/* Capture of stdout, where the kernel's printf(9) goes here. */
static FILE *cap_file;
static int cap_saved = -1;

void
shim_capture_start(void)
{
	fflush(stdout);
	if ((cap_file = tmpfile()) == NULL || (cap_saved = dup(1)) == -1 ||
	    dup2(fileno(cap_file), 1) == -1)
		fatal("shim: capture");
}

char *
shim_capture_end(void)
{
	char *buf;
	long n;

	fflush(stdout);
	dup2(cap_saved, 1);
	close(cap_saved);
	cap_saved = -1;
	n = lseek(fileno(cap_file), 0, SEEK_END);
	if (n < 0 || (buf = malloc(n + 1)) == NULL ||
	    lseek(fileno(cap_file), 0, SEEK_SET) != 0 ||
	    read(fileno(cap_file), buf, n) != n)
		fatal("shim: capture");
	buf[n] = '\0';
	fclose(cap_file);
	cap_file = NULL;
	return (buf);
}
