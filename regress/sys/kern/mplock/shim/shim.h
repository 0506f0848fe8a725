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
 * The harness side of the userland kernel (shim.c): CPUs as threads,
 * interrupts, and what the kernel code printed or told ddb and WITNESS.
 */

#ifndef _SHIM_H_
#define _SHIM_H_

#include <sys/param.h>
#include <sys/_lock.h>
#include <sys/mplock.h>

#include <machine/cpu.h>

#include <pthread.h>

extern struct cpu_info shim_cpus[MAXCPUS];
extern unsigned int shim_yield_ns;	/* if set: mean ns spun per yield */
extern volatile unsigned long shim_progress;

int	shim_ncpu_online(void);
void	shim_cpu_attach(int);

/* Start fn(cpu) on CPUs 0..n-1, one thread each; join waits. */
void	shim_start_cpus(int, void (*)(int));
void	shim_join_cpus(void);

/* Interrupts: a signal whose handler runs the current interrupt body. */
void	shim_intr_init(void (*)(void));
void	shim_intr_raise(pthread_t);
pthread_t shim_cpu_thread(int);

/*
 * Halted waits: shim_guest is mpl_hypervisor(); shim_halts[i] counts
 * CPU i's halts.  The CPU shim_halt_hold waits, interrupts disabled,
 * between its mark and its halt (shim_halt_holding[i] set) until the
 * test sets shim_halt_hold to -1.
 */
extern int shim_guest;
extern volatile unsigned long shim_halts[MAXCPUS];
extern volatile int shim_halt_hold;
extern volatile int shim_halt_holding[MAXCPUS];

/* db_printf() and db_enter() are recorded. */
void	shim_db_reset(void);
const char *shim_db_output(void);
unsigned long shim_db_enters(void);

/* WITNESS checker: counters, held lists, lock order. */
struct shim_witness_stats {
	unsigned long	checkorders;
	unsigned long	locks;
	unsigned long	unlocks;
	unsigned long	errors;
	unsigned long	lors;		/* lock-order reversals (errors too) */
	unsigned long	unchecked;	/* locked from not held, no check */
	unsigned long	held;		/* levels still held, all lists */
	unsigned long	pending;	/* checked, not yet locked */
};
void	shim_witness_reset(void);
void	shim_witness_stats(struct shim_witness_stats *);
const char *shim_witness_log(void);	/* every error, one a line */

/* Processes: WITNESS keeps sleepable locks per process. */
void	shim_proc_switch(int);		/* this thread runs process pid */

/* A test mutex: a spin lock of the mutex class, with WITNESS calls. */
struct shim_mtx {
	volatile int		mtx_lock;
	struct lock_object	mtx_lo;
};
void	shim_mtx_init(struct shim_mtx *, const struct lock_type *);
void	shim_mtx_enter(struct shim_mtx *);
void	shim_mtx_leave(struct shim_mtx *);

/* ddb's symbol printer: names for addresses (db_printsym()). */
void	shim_sym_add(const char *, const void *);

/* Deadlock watchdog: exits when shim_progress stops moving. */
void	shim_watchdog_start(unsigned int);
#define shim_tick()	__atomic_add_fetch(&shim_progress, 1, __ATOMIC_RELAXED)

/*
 * The kernel services of the torture test (kern_mplock_torture.c):
 * kernel threads, sleep, a clock at 1000 Hz and timeouts.  CPU_INFO_FOREACH
 * sees CPUs 0..shim_ncpus-1 (set by the test).
 */
void	shim_clock_start(void);
void	shim_clock_stop(void);
unsigned long shim_timeouts_run(void);	/* timeout functions called */
unsigned long shim_kthreads_created(void);
void	shim_kthread_join(void);	/* wait until every one exited */

/* What the program prints to stdout meanwhile (printf(9) included). */
void	shim_capture_start(void);
char	*shim_capture_end(void);	/* malloc(3)ed */

double	shim_now(void);
unsigned int shim_rand(unsigned int *);
void	shim_shuffle(int *, int, unsigned int *);

/* The backend the kernel sources were built for (MPL_BE_NAME). */
#if defined(MPLOCK_TICKET)
#define SHIM_BE_NAME	"ticket"
#elif defined(MPLOCK_MCS)
#define SHIM_BE_NAME	"mcs"
#elif defined(MPLOCK_ANDERSON)
#define SHIM_BE_NAME	"anderson"
#else
#define SHIM_BE_NAME	"mlock"
#endif

#endif /* _SHIM_H_ */
