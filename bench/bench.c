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
 * The measuring core of the lock benchmark: one run measures one lock
 * in one mode (uncontended, contended, or pingpong, no lock) and prints
 * one line of key=value pairs; tools/bench.sh interleaves the runs and
 * makes the tables.  What each figure is, and how: doc/bench.md.
 */

#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE		/* cpu_set_t, pthread_setaffinity_np() */
#endif

#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static const struct bench_lock *lk;
static double duration = 0.5;
static int nthreads = 2, ncpu;
static struct bench_thread *threads;
static double body_secs;		/* of a body that times itself */

static volatile int ready, go, started, stop;

/*
 * What the lock protects, in one cache line that moves with the lock
 * as the data under a kernel lock does: a counter that checks mutual
 * exclusion.
 */
static struct {
	unsigned long	 count;
} __attribute__((__aligned__(64))) prot;

/* Ping-pong: whose turn it is. */
static struct {
	volatile unsigned int turn;
} __attribute__((__aligned__(64))) pp;

static double
bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

/* One step of a spin of our own; yields when threads outnumber CPUs. */
static void
relax(unsigned int *spins)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm volatile("yield" ::: "memory");
#else
	__asm volatile("" ::: "memory");
#endif
	if (nthreads > ncpu && ++*spins % 256 == 0)
		sched_yield();
}

static void
uncontended_body(struct bench_thread *bt)
{
	unsigned long i, n = 0;
	double t0 = bench_now();

	/*
	 * One batch at least: on a busy machine the thread may first run
	 * after the run's end; it times itself, so the figure holds.
	 */
	do {
		for (i = 0; i < 1000; i++) {
			lk->bl_lock(bt);
			prot.count++;
			lk->bl_unlock(bt);
		}
		n += 1000;
	} while (!stop);
	body_secs = bench_now() - t0;
	bt->bt_acq = n;
}

static void
contended_body(struct bench_thread *bt)
{
	unsigned long n = 0;

	do {
		lk->bl_lock(bt);
		prot.count++;
		lk->bl_unlock(bt);
		n++;
	} while (!stop);
	bt->bt_acq = n;
}

static void
pingpong_body(struct bench_thread *bt)
{
	unsigned long n = 0;
	unsigned int me = bt->bt_id, spins = 0;

	do {
		while (__atomic_load_n(&pp.turn, __ATOMIC_ACQUIRE) != me) {
			if (stop)
				goto out;
			relax(&spins);
		}
		n++;
		__atomic_store_n(&pp.turn, 1 - me, __ATOMIC_RELEASE);
	} while (!stop);
out:
	bt->bt_acq = n;
}

static void (*body)(struct bench_thread *);

/*
 * On Linux thread i runs on the i-th CPU the process may use, modulo
 * their number; pin= says whether the run was pinned ("yes") or why not.
 */
#if defined(__linux__)
static const char *volatile pin_state = "yes";
#else
static const char *volatile pin_state = "no-unsupported";
#endif

static void
pin(struct bench_thread *bt)
{
#if defined(__linux__)
	cpu_set_t set;
	int c, i;

	/* A new thread has the set of main, which is never pinned. */
	if (sched_getaffinity(0, sizeof(set), &set) == -1 ||
	    CPU_COUNT(&set) == 0) {
		pin_state = "no-sched_getaffinity-failed";
		return;
	}
	i = bt->bt_id % CPU_COUNT(&set);
	for (c = 0; !CPU_ISSET(c, &set) || i-- > 0; c++)
		;
	CPU_ZERO(&set);
	CPU_SET(c, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) != 0)
		pin_state = "no-pthread_setaffinity_np-failed";
#endif
}

static void *
thread_main(void *v)
{
	struct bench_thread *bt = v;

	pin(bt);
	if (lk->bl_thread_init != NULL)
		lk->bl_thread_init(bt);
	__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		sched_yield();
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	body(bt);
	return (NULL);
}

/* Run body on n threads for the duration; return the seconds it ran. */
static double
run(int n)
{
	struct timespec ts;
	double t0, t1;
	int i;

	ready = go = started = stop = 0;
	body_secs = 0;
	for (i = 0; i < n; i++) {
		threads[i].bt_id = i;
		threads[i].bt_acq = 0;
		if ((errno = pthread_create(&threads[i].bt_thread, NULL,
		    thread_main, &threads[i])) != 0)
			err(2, "pthread_create");
	}
	while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) < n)
		usleep(100);
	t0 = bench_now();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	ts.tv_sec = (time_t)duration;
	ts.tv_nsec = (long)((duration - ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
	/*
	 * Not before every thread has begun: one the host first runs after
	 * the run's end (a busy machine) still takes its turns.
	 */
	while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < n)
		usleep(100);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	t1 = bench_now();
	for (i = 0; i < n; i++)
		pthread_join(threads[i].bt_thread, NULL);
	return (body_secs > 0 ? body_secs : t1 - t0);
}

/* Print the run's line; return the acquisitions of all threads. */
static unsigned long
report(const char *name, const char *src, const char *mode, int n,
    double secs)
{
	unsigned long total = 0;
	int i;

	for (i = 0; i < n; i++)
		total += threads[i].bt_acq;
	if (total == 0)
		errx(1, "%s: no acquisitions in %.3f s", name, secs);
	printf("backend=%s src=%s mode=%s threads=%d acq=%lu secs=%.3f "
	    "ns=%.2f pin=%s\n", name, src, mode, n, total, secs,
	    secs * 1e9 / total, pin_state);
	return (total);
}

extern char *__progname;		/* libc's, as err(3) uses */

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-d seconds] [-t threads]\n"
	    "           uncontended | contended | pingpong\n"
	    "       %s -i\n", __progname, __progname);
	exit(1);
}

int
bench_main(int argc, char *argv[], const char *src,
    const struct bench_lock *lock, int maxthreads)
{
	const char *mode;
	unsigned long total;
	char *ep;
	long v;
	int ch, info = 0;

	while ((ch = getopt(argc, argv, "d:it:")) != -1) {
		switch (ch) {
		case 'd':
			duration = strtod(optarg, &ep);
			if (*ep != '\0' || !(duration > 0 && duration < 3600))
				errx(1, "-d: seconds, more than 0: %s",
				    optarg);
			break;
		case 'i':
			info = 1;
			break;
		case 't':
			v = strtol(optarg, &ep, 10);
			if (*optarg == '\0' || *ep != '\0' || v < 1 ||
			    v > maxthreads)
				errx(1, "-t: 1 to %d threads: %s", maxthreads,
				    optarg);
			nthreads = (int)v;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	if (info) {
		printf("maxthreads=%d\n", maxthreads);
		return (0);
	}
	if (argc != 1)
		usage();
	mode = argv[0];
	lk = lock;

	ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	if (strcmp(mode, "uncontended") == 0) {
		body = uncontended_body;
		nthreads = 1;
	} else if (strcmp(mode, "pingpong") == 0) {
		body = pingpong_body;
		nthreads = 2;
	} else if (strcmp(mode, "contended") == 0)
		body = contended_body;
	else
		usage();
	if ((threads = calloc(nthreads, sizeof(*threads))) == NULL)
		err(2, NULL);

	if (body == pingpong_body) {
		report("pingpong", "floor", mode, 2, run(2));
		return (0);
	}
	lk->bl_init(nthreads);
	total = report(lk->bl_name, src, mode, nthreads, run(nthreads));
	if (prot.count != total)
		errx(1, "%s: mutual exclusion broken: %lu acquisitions, "
		    "counter %lu", lk->bl_name, total, prot.count);
	return (0);
}
