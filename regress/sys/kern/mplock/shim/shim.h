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
 * The harness side of the userland kernel environment: what tests use
 * to run threads as CPUs, raise interrupts and read what the kernel
 * code printed or told WITNESS.
 */

#ifndef _SHIM_H_
#define _SHIM_H_

#include <sys/param.h>
#include <sys/mplock.h>

#include <machine/cpu.h>

#include <pthread.h>

extern struct cpu_info shim_cpus[MAXCPUS];
extern unsigned int shim_yield_every;	/* sched_yield() every N spins */
extern volatile unsigned long shim_progress;

int	shim_ncpu_online(void);
void	shim_cpu_attach(int);

/* Run fn(arg, cpu) on CPUs 0..n-1 (one thread each) and wait for all. */
void	shim_run_cpus(int, void (*)(void *, int), void *);
void	shim_start_cpus(int, void (*)(void *, int), void *);
void	shim_join_cpus(void);

/* Interrupts: a signal whose handler runs the current interrupt body. */
void	shim_intr_init(void (*)(void));
void	shim_intr_raise(pthread_t);
void	shim_intr_storm_start(const pthread_t *, int, unsigned int);
unsigned long shim_intr_storm_stop(void);
pthread_t shim_cpu_thread(int);

/* db_printf() and db_enter() are recorded. */
void	shim_db_reset(void);
const char *shim_db_output(void);
unsigned long shim_db_enters(void);
void	shim_db_quiet(int);

/* WITNESS recorder. */
struct shim_witness_stats {
	unsigned long	inits;
	unsigned long	checkorders;
	unsigned long	locks;
	unsigned long	unlocks;
	unsigned long	errors;
};
void	shim_witness_reset(void);
void	shim_witness_stats(struct shim_witness_stats *);
int	shim_witness_held(const struct lock_object *);
const char *shim_witness_lasterror(void);

/* Deadlock watchdog: exits when shim_progress stops moving. */
void	shim_watchdog_start(unsigned int);
#define shim_tick()	__atomic_add_fetch(&shim_progress, 1, __ATOMIC_RELAXED)

/* Small helpers. */
double	shim_now(void);
unsigned int shim_rand(unsigned int *);
void	shim_delay(unsigned int);

#endif /* _SHIM_H_ */
