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

unsigned int shim_yield_every = 256;
unsigned int shim_yield_ns;
volatile unsigned long shim_progress;

/* Defined by kern_lock.c in the kernel, which the harness does not build. */
long __mp_lock_spinout = 1L * INT_MAX;
struct __mp_lock kernel_lock;

/* Defined elsewhere in the kernel; the tests set them. */
const char *panicstr;
int db_active;
int cold;

uint64_t
nsecuptime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec);
}

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

/*
 * When to yield next, drawn uniformly from 1 .. 2 * mean - 1 with a
 * per-thread xorshift: spin steps (shim_yield_every) or, when set,
 * nanoseconds of spinning (shim_yield_ns).  A hypervisor deschedules a spinning vCPU
 * after a while, but not after the same number of steps each time; with
 * a fixed count the threads of an oversubscribed run lock into one of
 * several phase patterns, chosen by start-up timing, whose throughputs
 * differ by a fifth, so two locks compared differ by luck.
 */
static unsigned int
shim_spin_draw(unsigned int mean)
{
	unsigned int x = shim_rng;

	if (x == 0)
		x = 0x9e3779b9u ^ (unsigned int)(uintptr_t)&shim_rng;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	shim_rng = x;
	return (1 + x % (2 * mean - 1));
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
    "pop %\\r\n"								\
    ".endr\n"								\
    "leave; ret\n"							\
    ".popsection\n")
KEEPREGS(shim_busy_cycle);
KEEPREGS(shim_intr_deliver);
#endif

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
	/*
	 * More CPU threads than cores: let a preempted owner run.  Every
	 * spin step ends here, the MD ones (mpl_spin_wait()) too, since
	 * kern_mplock.h has them end with CPU_BUSY_CYCLE().
	 */
	if (shim_yield_ns != 0) {
		/*
		 * By time, as a hypervisor's pause-loop exit counts cycles,
		 * not steps: a lock whose spin step is quicker must not
		 * yield sooner for that.  A long gap since the last step (a
		 * hand-off, a critical section, a yield) is not spinning.
		 */
		now = nsecuptime();
		step = now - shim_spin_last < 1000 ? now - shim_spin_last : 0;
		shim_spin_last = now;
		mean = shim_yield_ns;
	} else if ((mean = shim_yield_every) == 0)
		return;
	if (shim_spin_limit == 0)
		shim_spin_limit = shim_spin_draw(mean);
	if ((shim_spins += step) >= shim_spin_limit) {
		shim_spins = 0;
		shim_spin_limit = shim_spin_draw(mean);
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

/*
 * Halted waits (the M-lock's guest mode, <machine/mplock.h>).  A CPU
 * halts in sigsuspend(), which a signal ends: SIGUSR1 (an interrupt,
 * whose body then runs, as in a hlt) or SIGUSR2, the kick.  A kick
 * that comes while the CPU has interrupts disabled is pending, as an
 * IPI is, and ends the next halt at once; one that comes with them
 * enabled is taken then and there, a no-op (intr_restore() drops a
 * pending one).  The kick goes to the thread that is the CPU when it
 * began to halt.
 */
int shim_guest;
__thread volatile int shim_kick_pending;
volatile int shim_halted[MAXCPUS];	/* in sigsuspend() */
volatile unsigned long shim_halts[MAXCPUS];	/* sigsuspend() calls */
volatile int shim_halt_hold = -1;	/* this CPU waits before halting */
volatile int shim_halt_holding[MAXCPUS];
static pthread_t halt_thread[MAXCPUS];
static pthread_once_t kick_once = PTHREAD_ONCE_INIT;

unsigned long long
shim_cycles(void)
{
	return (nsecuptime());
}

static void
kick_signal(int sig)
{
	(void)sig;
	if (shim_intr_off)
		shim_kick_pending = 1;
}

static void
kick_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kick_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGUSR2, &sa, NULL) == -1) {
		perror("sigaction");
		exit(2);
	}
}

int
shim_halt_begin(void)
{
	if (shim_intr_off)
		return (0);
	pthread_once(&kick_once, kick_init);
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

	/* The tests' window between the mark and the halt. */
	while (shim_halt_hold == me) {
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
		shim_halted[me] = 1;
		__atomic_add_fetch(&shim_halts[me], 1, __ATOMIC_SEQ_CST);
		sigsuspend(&old);
		shim_halted[me] = 0;
	}
	shim_kick_pending = 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (shim_intr_pending)
		shim_intr_deliver();
}

void
shim_halt_cancel(void)
{
	intr_restore(0);
}

void
shim_kick(unsigned int i)
{
	pthread_kill(halt_thread[i], SIGUSR2);
}

/*
 * ddb: db_printf() output goes to a buffer the tests read back.
 */
static char db_buf[65536];
static size_t db_len;
static volatile int db_lk;
static unsigned long db_nenter;

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

/*
 * db_printsym() stand-in: the nearest symbol at or below the address,
 * from the names the tests registered, as ddb prints it.
 */
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
	int i;

	for (i = 0; i < nsyms; i++)
		if (syms[i].addr == (unsigned long)addr)
			return;
	if (nsyms < SYM_MAX) {
		syms[nsyms].name = name;
		syms[nsyms].addr = (unsigned long)addr;
		nsyms++;
	}
}

void
db_printsym(db_expr_t off, db_strategy_t strategy,
    int (*pr)(const char *, ...))
{
	unsigned long a = (unsigned long)off, best = 0;
	int i, found = -1;

	(void)strategy;
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
 * WITNESS checker: a small witness(4) for the harness.  It counts every
 * call and keeps what WITNESS keeps: held-lock lists with recursion
 * counts, per process for sleepable locks (the kernel lock; a process
 * carries it through mi_switch(), from one CPU to another) and per CPU
 * for spin locks (the test mutex class), and a lock-order graph between
 * lock types.  It reports, as errors:
 *  - an unlock of a lock not held, a lock or unlock not exclusive;
 *  - an order check of a lock already held that is not LO_RECURSABLE;
 *  - the kernel lock's own rules: it is sleepable and alone in its
 *    class (checked at init); its order is checked when it is not held,
 *    never when it is: recursion comes only through the front end's
 *    held path, a lock call without an order check; a spin mutex may
 *    not recurse at all;
 *  - a lock-order reversal between lock types, with both orders named.
 * It counts, without reporting, acquisitions of a lock not held that no
 * order check announced ("unchecked").  A front end that never checks
 * makes every acquisition one; the kernel lock's makes one only when an
 * interrupt slips in between the moment the lock became this CPU's (or
 * stopped being held for WITNESS) and the WITNESS call, and takes it
 * through the held path; witness(4) accepts that, so the tests expect
 * none only where no interrupt can come.
 * Calls are serialised by one lock taken with the "interrupts" of the
 * calling CPU thread held back, as witness(4) runs with interrupts
 * disabled.
 */
#define WIT_NLOCKS	32	/* entries per held-lock list */
#define WIT_NTYPES	16	/* nodes of the order graph */

struct wit_held {
	const struct lock_object *lo;
	int			  n;		/* levels held */
	int			  pending;	/* checked, not yet locked */
};

struct shim_proc {
	int			  p_pid;
	struct wit_held		  p_held[WIT_NLOCKS];
};

static struct shim_proc shim_procs[MAXCPUS];
static __thread struct shim_proc *shim_curproc;
static struct wit_held wit_cpu_held[MAXCPUS][WIT_NLOCKS];
static const struct lock_type *wit_types[WIT_NTYPES];
static const char *wit_type_names[WIT_NTYPES];
static unsigned char wit_order[WIT_NTYPES][WIT_NTYPES]; /* [a][b]: a, b */
static const struct lock_object *wit_kernel_class;
static struct shim_witness_stats wit;
static char wit_lasterr[256];
static char wit_log[4096];
static size_t wit_loglen;
static volatile int wit_lk;

struct shim_proc *
shim_proc(int pid)
{
	if (pid < 0 || pid >= MAXCPUS) {
		fprintf(stderr, "shim: proc %d out of range\n", pid);
		abort();
	}
	shim_procs[pid].p_pid = pid;
	return (&shim_procs[pid]);
}

void
shim_proc_switch(struct shim_proc *p)
{
	shim_curproc = p;
}

struct shim_proc *
shim_curproc_get(void)
{
	return (shim_curproc);
}

static unsigned long
wit_enter(void)
{
	unsigned long s = intr_disable();

	while (__atomic_test_and_set(&wit_lk, __ATOMIC_ACQUIRE))
		sched_yield();
	return (s);
}

static void
wit_leave(unsigned long s)
{
	__atomic_clear(&wit_lk, __ATOMIC_RELEASE);
	intr_restore(s);
}

static int
wit_class(const struct lock_object *lo)
{
	return ((lo->lo_flags & LO_CLASSMASK) >> LO_CLASSSHIFT);
}

static struct wit_held *
wit_cpu_list(void)
{
	return (wit_cpu_held[shim_curcpu ? shim_curcpu->ci_cpuid : 0]);
}

/* A CPU thread runs the process of its number until told otherwise. */
static struct wit_held *
wit_proc_list(void)
{
	if (shim_curproc == NULL)
		shim_curproc = shim_proc(shim_curcpu ?
		    (int)shim_curcpu->ci_cpuid : 0);
	return (shim_curproc->p_held);
}

/* Spin locks are held by the CPU, sleepable ones by the process. */
static struct wit_held *
wit_list(const struct lock_object *lo)
{
	if ((lo->lo_flags & LO_WITNESS) && wit_class(lo) == LO_CLASS_MUTEX)
		return (wit_cpu_list());
	return (wit_proc_list());
}

static struct wit_held *
wit_find(struct wit_held *list, const struct lock_object *lo, int create)
{
	int i, free = -1;

	for (i = 0; i < WIT_NLOCKS; i++) {
		if (list[i].lo == lo)
			return (&list[i]);
		if (list[i].lo == NULL && free == -1)
			free = i;
	}
	if (!create || free == -1)
		return (NULL);
	list[free].lo = lo;
	list[free].n = 0;
	list[free].pending = 0;
	return (&list[free]);
}

static void
wit_error(const char *what, const struct lock_object *lo, const char *more)
{
	int n;

	wit.errors++;
	n = snprintf(wit_lasterr, sizeof(wit_lasterr), "%s: %s%s (cpu %u)",
	    what, lo->lo_name ? lo->lo_name : "?", more ? more : "",
	    shim_curcpu ? shim_curcpu->ci_cpuid : 0);
	if (n > 0 && wit_loglen + n + 1 < sizeof(wit_log)) {
		memcpy(wit_log + wit_loglen, wit_lasterr, n);
		wit_loglen += n;
		wit_log[wit_loglen++] = '\n';
		wit_log[wit_loglen] = '\0';
	}
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
	wit_type_names[i] = lo->lo_name;
	return (i);
}

static int
wit_reaches(int from, int to)
{
	unsigned char seen[WIT_NTYPES] = { 0 };
	int stack[WIT_NTYPES], sp = 0, a, b;

	stack[sp++] = from;
	seen[from] = 1;
	while (sp > 0) {
		a = stack[--sp];
		if (a == to)
			return (1);
		for (b = 0; b < WIT_NTYPES; b++)
			if (wit_order[a][b] && !seen[b]) {
				seen[b] = 1;
				stack[sp++] = b;
			}
	}
	return (0);
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
		if (wit_reaches(to, from)) {
			wit.lors++;
			snprintf(more, sizeof(more), " after %s, but %s -> %s "
			    "was seen before", wit_type_names[from],
			    wit_type_names[to], wit_type_names[from]);
			wit_error("lock order reversal", lo, more);
		} else
			wit_order[from][to] = 1;
	}
}

void
shim_witness_init(struct lock_object *lo, const struct lock_type *type)
{
	unsigned long s = wit_enter();

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
	wit_leave(s);
}

void
shim_witness_checkorder(struct lock_object *lo, int flags,
    struct lock_object *interlock)
{
	struct wit_held *list, *h;
	unsigned long s = wit_enter();
	int to;

	(void)interlock;
	wit.checkorders++;
	if ((lo->lo_flags & LO_INITIALIZED) == 0)
		wit_error("checkorder before init", lo, NULL);
	if ((flags & LOP_EXCLUSIVE) == 0)
		wit_error("checkorder not exclusive", lo, NULL);
	list = wit_list(lo);
	if ((h = wit_find(list, lo, 1)) == NULL) {
		wit_error("too many locks", lo, NULL);
		wit_leave(s);
		return;
	}
	if (h->n > 0 && (lo->lo_flags & LO_RECURSABLE) == 0)
		wit_error("recursed on non-recursive lock", lo, NULL);
	h->pending++;
	if ((to = wit_type(lo)) != -1) {
		wit_check_list(wit_proc_list(), lo, to);
		wit_check_list(wit_cpu_list(), lo, to);
	}
	wit_leave(s);
}

void
shim_witness_lock(struct lock_object *lo, int flags)
{
	struct wit_held *h;
	unsigned long s = wit_enter();

	wit.locks++;
	if ((flags & LOP_EXCLUSIVE) == 0)
		wit_error("lock not exclusive", lo, NULL);
	if ((h = wit_find(wit_list(lo), lo, 1)) == NULL) {
		wit_error("too many locks", lo, NULL);
		wit_leave(s);
		return;
	}
	if (h->n == 0) {
		if (h->pending == 0)
			wit.unchecked++;
		else
			h->pending--;
	} else if ((lo->lo_flags & LO_WITNESS) &&
	    wit_class(lo) == LO_CLASS_MUTEX)
		wit_error("recursed on a mutex", lo, NULL);
	h->n++;
	wit_leave(s);
}

void
shim_witness_unlock(struct lock_object *lo, int flags)
{
	struct wit_held *h;
	unsigned long s = wit_enter();

	wit.unlocks++;
	if ((flags & LOP_EXCLUSIVE) == 0)
		wit_error("unlock not exclusive", lo, NULL);
	h = wit_find(wit_list(lo), lo, 0);
	if (h == NULL || h->n == 0)
		wit_error("unlock of a lock not held", lo, NULL);
	else if (--h->n == 0 && h->pending == 0)
		h->lo = NULL;		/* free the entry */
	wit_leave(s);
}

/* Clears the counters, the held lists and the order graph. */
void
shim_witness_reset(void)
{
	unsigned long s = wit_enter();

	memset(&wit, 0, sizeof(wit));
	memset(shim_procs, 0, sizeof(shim_procs));
	memset(wit_cpu_held, 0, sizeof(wit_cpu_held));
	memset(wit_types, 0, sizeof(wit_types));
	memset(wit_order, 0, sizeof(wit_order));
	wit_kernel_class = NULL;
	wit_lasterr[0] = '\0';
	wit_log[0] = '\0';
	wit_loglen = 0;
	wit_leave(s);
}

/* Totals, with what is still held or checked but not locked. */
void
shim_witness_stats(struct shim_witness_stats *st)
{
	unsigned long s = wit_enter();
	int i, j;

	*st = wit;
	for (i = 0; i < MAXCPUS; i++)
		for (j = 0; j < WIT_NLOCKS; j++) {
			st->held += shim_procs[i].p_held[j].n +
			    wit_cpu_held[i][j].n;
			st->pending += shim_procs[i].p_held[j].pending +
			    wit_cpu_held[i][j].pending;
		}
	wit_leave(s);
}

const char *
shim_witness_lasterror(void)
{
	return (wit_lasterr);
}

const char *
shim_witness_log(void)
{
	return (wit_log);
}

/*
 * The test mutex: a spin lock in the mutex class, told to WITNESS as
 * mtx_enter()/mtx_leave() do.
 */
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
	double end = shim_now() + usec / 1e6;

	while (shim_now() < end)
		barrier();
}

/*
 * Kernel threads.  Each is a thread with a spare CPU identity of its own
 * (a struct cpu_info above the shim_ncpus CPUs the kernel sees) until it
 * pegs itself to one of the machine's CPUs; then it is that CPU, and
 * that CPU's interrupts go to it, until it unpegs.  Switching CPU,
 * sleeping and yielding let go of the kernel lock and take it back, as
 * mi_switch() does.  The threads are joined by shim_kthread_join(), so
 * a thread id the clock signals stays valid until then.
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

struct kt_start {
	void		(*fn)(void *);
	void		*arg;
	int		 id;
};

static int
kt_slot_get(void)
{
	int i;

	for (i = shim_ncpus; i < MAXCPUS - 1; i++)
		if (__atomic_exchange_n(&kt_slot[i], 1, __ATOMIC_ACQ_REL) == 0)
			return (i);
	return (-1);
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
	unsigned int from;
	int n;

	n = kt_release();
	s = intr_disable();
	from = shim_curcpu->ci_cpuid;
	if ((int)from < shim_ncpus)
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
	struct kt_start ks = *(struct kt_start *)v;

	free(v);
	shim_cpu_attach(ks.id);
	kt_home = ks.id;
	shim_proc_switch(shim_proc(ks.id));
	__mp_lock(&kernel_lock);	/* a new thread starts holding it */
	ks.fn(ks.arg);
	kthread_exit(0);
}

int
kthread_create(void (*fn)(void *), void *arg, struct proc **pp,
    const char *name)
{
	struct kt_start *ks;
	unsigned long s;
	int id, rv;

	(void)name;
	if (pp != NULL)
		*pp = NULL;
	if ((id = kt_slot_get()) == -1)
		return (EAGAIN);
	if ((ks = malloc(sizeof(*ks))) == NULL) {
		__atomic_store_n(&kt_slot[id], 0, __ATOMIC_RELEASE);
		return (ENOMEM);
	}
	ks->fn = fn;
	ks->arg = arg;
	ks->id = id;
	/* No interrupt may spin on the kernel lock while we hold kt_mtx. */
	s = intr_disable();
	pthread_mutex_lock(&kt_mtx);
	rv = EAGAIN;
	if (kt_nthreads < MAXCPUS &&
	    (rv = pthread_create(&kt_threads[kt_nthreads], NULL, kt_main,
	    ks)) == 0) {
		kt_nthreads++;
		kt_created++;
	}
	pthread_mutex_unlock(&kt_mtx);
	intr_restore(s);
	if (rv != 0) {
		free(ks);
		__atomic_store_n(&kt_slot[id], 0, __ATOMIC_RELEASE);
	}
	return (rv);
}

void
kthread_exit(int ecode)
{
	sigset_t set;

	(void)ecode;
	kt_release();			/* exit1() lets go of it */
	if (kt_home >= 0 && shim_curcpu != &shim_cpus[kt_home])
		kt_switch(&shim_cpus[kt_home]);
	/* No interrupt may use the identity once it is free. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	shim_curcpu = NULL;
	if (kt_home >= 0)
		__atomic_store_n(&kt_slot[kt_home], 0, __ATOMIC_RELEASE);
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

	(void)ident;
	(void)prio;
	(void)wmesg;
	gen = __atomic_load_n(&shim_wakeups, __ATOMIC_ACQUIRE);
	end = nsecs == INFSLP ? 0 : nsecuptime() + nsecs;
	n = kt_release();
	for (;;) {
		if (__atomic_load_n(&shim_wakeups, __ATOMIC_ACQUIRE) != gen) {
			rv = 0;
			break;
		}
		if (nsecs != INFSLP && nsecuptime() >= end)
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
	(void)ident;
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

/*
 * The clock and timeouts.  A spin lock taken with interrupts held back
 * guards the list, as timeout_mutex does at IPL_HIGH.
 */
#define TMO_MAX		16

static struct timeout *tmo_list[TMO_MAX];
static int tmo_n;
static volatile int tmo_lk;
static struct timeout *volatile tmo_running;
static volatile unsigned long tmo_calls;
static volatile int shim_ticks;
static volatile int clk_run;
static unsigned int clk_hz;
static pthread_t clk_thread;
static int clk_id = -1;

static unsigned long
tmo_enter(void)
{
	unsigned long s = intr_disable();

	while (__atomic_test_and_set(&tmo_lk, __ATOMIC_ACQUIRE))
		;
	return (s);
}

static void
tmo_leave(unsigned long s)
{
	__atomic_clear(&tmo_lk, __ATOMIC_RELEASE);
	intr_restore(s);
}

void
timeout_set(struct timeout *to, void (*fn)(void *), void *arg)
{
	unsigned long s;
	int i;

	to->to_func = fn;
	to->to_arg = arg;
	to->to_flags = TIMEOUT_INITIALIZED;
	to->to_time = 0;
	s = tmo_enter();
	for (i = 0; i < tmo_n && tmo_list[i] != to; i++)
		;
	if (i == tmo_n) {
		if (tmo_n == TMO_MAX) {
			tmo_leave(s);
			panic("shim: more than %d timeouts", TMO_MAX);
		}
		tmo_list[tmo_n++] = to;
	}
	tmo_leave(s);
}

int
timeout_add(struct timeout *to, int nticks)
{
	unsigned long s;
	int was;

	s = tmo_enter();
	was = to->to_flags & TIMEOUT_ONQUEUE;
	to->to_time = shim_ticks + (nticks > 0 ? nticks : 1);
	to->to_flags |= TIMEOUT_ONQUEUE;
	tmo_leave(s);
	return (!was);
}

int
timeout_del(struct timeout *to)
{
	unsigned long s;
	int was;

	s = tmo_enter();
	was = to->to_flags & TIMEOUT_ONQUEUE;
	to->to_flags &= ~TIMEOUT_ONQUEUE;
	tmo_leave(s);
	return (was != 0);
}

/* The barrier sleeps in the kernel: the kernel lock is let go of. */
int
timeout_del_barrier(struct timeout *to)
{
	int n, rv;

	rv = timeout_del(to);
	n = kt_release();
	while (__atomic_load_n(&tmo_running, __ATOMIC_ACQUIRE) == to)
		sched_yield();
	__mp_acquire_count(&kernel_lock, n);
	return (rv);
}

/* The softclock: every due timeout, one at a time. */
static void
shim_softclock(void)
{
	struct timeout *to;
	unsigned long s;
	int i, mpsafe;

	for (;;) {
		s = tmo_enter();
		to = NULL;
		for (i = 0; i < tmo_n; i++)
			if ((tmo_list[i]->to_flags & TIMEOUT_ONQUEUE) &&
			    tmo_list[i]->to_time - shim_ticks <= 0) {
				to = tmo_list[i];
				break;
			}
		if (to != NULL) {
			to->to_flags &= ~TIMEOUT_ONQUEUE;
			to->to_flags |= TIMEOUT_TRIGGERED;
			__atomic_store_n(&tmo_running, to, __ATOMIC_RELEASE);
		}
		tmo_leave(s);
		if (to == NULL)
			return;
		mpsafe = to->to_flags & TIMEOUT_MPSAFE;
		if (!mpsafe)
			__mp_lock(&kernel_lock);
		to->to_func(to->to_arg);
		if (!mpsafe)
			__mp_unlock(&kernel_lock);
		__atomic_add_fetch(&tmo_calls, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&tmo_running, NULL, __ATOMIC_RELEASE);
	}
}

static int
tmo_due(void)
{
	int i;

	for (i = 0; i < tmo_n; i++)
		if ((tmo_list[i]->to_flags & TIMEOUT_ONQUEUE) &&
		    tmo_list[i]->to_time - shim_ticks <= 0)
			return (1);
	return (0);
}

static void *
clk_main(void *v)
{
	struct timespec ts;
	int i, t;

	(void)v;
	shim_cpu_attach(clk_id);
	kt_home = clk_id;
	shim_proc_switch(shim_proc(clk_id));
	ts.tv_sec = 0;
	ts.tv_nsec = 1000000000L / clk_hz;
	while (__atomic_load_n(&clk_run, __ATOMIC_ACQUIRE)) {
		nanosleep(&ts, NULL);
		t = __atomic_add_fetch(&shim_ticks, 1, __ATOMIC_RELEASE);
		if (t % 10 == 0)
			for (i = 0; i < shim_ncpus; i++)
				__atomic_or_fetch(&shim_cpus[i].ci_schedstate.
				    spc_schedflags, SPCF_SHOULDYIELD,
				    __ATOMIC_RELAXED);
		if (!tmo_due())
			continue;
		if (__atomic_load_n(&cpu_has_runner[0], __ATOMIC_ACQUIRE))
			pthread_kill(cpu_runner[0], SIGUSR1);
		else
			shim_softclock();	/* CPU 0 is idle */
	}
	return (NULL);
}

void
shim_clock_start(unsigned int hz)
{
	if (hz < 1 || hz > 10000 || (clk_id = kt_slot_get()) == -1) {
		fprintf(stderr, "shim: cannot start a clock at %u Hz\n", hz);
		exit(2);
	}
	clk_hz = hz;
	tmo_calls = 0;
	shim_intr_init(shim_softclock);
	__atomic_store_n(&clk_run, 1, __ATOMIC_RELEASE);
	if ((errno = pthread_create(&clk_thread, NULL, clk_main, NULL)) != 0) {
		perror("pthread_create");
		exit(2);
	}
}

void
shim_clock_stop(void)
{
	__atomic_store_n(&clk_run, 0, __ATOMIC_RELEASE);
	pthread_join(clk_thread, NULL);
	shim_intr_init(NULL);
	__atomic_store_n(&kt_slot[clk_id], 0, __ATOMIC_RELEASE);
	clk_id = -1;
	tmo_n = 0;
}

unsigned long
shim_timeouts_run(void)
{
	return (__atomic_load_n(&tmo_calls, __ATOMIC_RELAXED));
}

/*
 * Capture of stdout: the kernel's printf(9) is the program's printf(3)
 * here, so a test reads back what the kernel code printed.
 */
static FILE *cap_file;
static int cap_saved = -1;

void
shim_capture_start(void)
{
	fflush(stdout);
	if ((cap_file = tmpfile()) == NULL || (cap_saved = dup(1)) == -1 ||
	    dup2(fileno(cap_file), 1) == -1) {
		perror("shim: capture");
		exit(2);
	}
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
	if (n < 0 || (buf = malloc(n + 1)) == NULL) {
		perror("shim: capture");
		exit(2);
	}
	lseek(fileno(cap_file), 0, SEEK_SET);
	if (read(fileno(cap_file), buf, n) != n) {
		perror("shim: capture");
		exit(2);
	}
	buf[n] = '\0';
	fclose(cap_file);
	cap_file = NULL;
	return (buf);
}
