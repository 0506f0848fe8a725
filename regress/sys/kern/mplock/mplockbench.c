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
 * Benchmark of one kernel lock backend, built from the shipped sources
 * like the regress.  Prints one line of key=value figures per run; the
 * driver (tools/bench.sh) interleaves backends and makes the table.
 *
 *	mplockbench [-d seconds] [-c cs_ns] [-p ncs_ns] uncontended
 *	mplockbench [-d seconds] [-c cs_ns] [-p ncs_ns] -t threads contended
 */

#include <sys/param.h>
#include <sys/mplock.h>

#include <machine/cpu.h>

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim.h"

extern const char mpl_be_name[];

static struct __mp_lock L;
static double duration = 0.5;
static unsigned int cs_ns, ncs_ns;
static volatile int bench_stop;
static volatile int bench_ready;
static unsigned long acq[MAXCPUS];
static volatile unsigned long shared_words[8];

/* Busy work of about ns nanoseconds, calibrated at start. */
static double loops_per_ns;

static void
work(unsigned int ns)
{
	unsigned long i, n = (unsigned long)(ns * loops_per_ns);

	for (i = 0; i < n; i++)
		__asm volatile("" ::: "memory");
}

static void
calibrate(void)
{
	unsigned long i, n = 10000000;
	double t0 = shim_now(), t;

	for (i = 0; i < n; i++)
		__asm volatile("" ::: "memory");
	t = shim_now() - t0;
	loops_per_ns = n / (t * 1e9);
}

static void
contend_cpu(void *arg, int me)
{
	unsigned long n = 0;
	int nthreads = *(int *)arg;

	__atomic_add_fetch(&bench_ready, 1, __ATOMIC_SEQ_CST);
	while (bench_ready < nthreads)
		;
	while (!bench_stop) {
		__mp_lock(&L);
		shared_words[0]++;
		if (cs_ns)
			work(cs_ns);
		__mp_unlock(&L);
		if (ncs_ns)
			work(ncs_ns);
		n++;
	}
	acq[me] = n;
}

static void
contended(int nthreads)
{
	unsigned long total = 0, mx = 0, mn = ~0UL;
	double t0, t;
	int i;

	bench_stop = 0;
	bench_ready = 0;
	shim_start_cpus(nthreads, contend_cpu, &nthreads);
	while (bench_ready < nthreads)
		usleep(100);
	t0 = shim_now();
	usleep((useconds_t)(duration * 1e6));
	bench_stop = 1;
	shim_join_cpus();
	t = shim_now() - t0;
	for (i = 0; i < nthreads; i++) {
		total += acq[i];
		if (acq[i] > mx)
			mx = acq[i];
		if (acq[i] < mn)
			mn = acq[i];
	}
	printf("backend=%s mode=contended threads=%d cs=%u ncs=%u "
	    "acq=%lu secs=%.3f ns=%.2f mops=%.3f fair=%.3f\n", mpl_be_name,
	    nthreads, cs_ns, ncs_ns, total, t, t * 1e9 / total,
	    total / t / 1e6, mn ? (double)mx / mn : 0.0);
}

static void
uncontended_cpu(void *arg, int me)
{
	double *res = arg;
	unsigned long i, n = 0, batch = 100000;
	double t0 = shim_now(), t;

	(void)me;
	do {
		for (i = 0; i < batch; i++) {
			__mp_lock(&L);
			shared_words[0]++;
			__mp_unlock(&L);
		}
		n += batch;
		t = shim_now() - t0;
	} while (t < duration);
	res[0] = t * 1e9 / n;
	res[1] = n;
}

static void
uncontended(void)
{
	double res[2];

	shim_run_cpus(1, uncontended_cpu, res);
	printf("backend=%s mode=uncontended threads=1 cs=0 ncs=0 "
	    "acq=%.0f secs=%.3f ns=%.2f mops=%.3f fair=1.000\n", mpl_be_name,
	    res[1], duration, res[0], 1e3 / res[0]);
}

static void
usage(void)
{
	fprintf(stderr, "usage: mplockbench [-d seconds] [-c cs_ns] "
	    "[-p ncs_ns] [-t threads] uncontended | contended\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	int ch, nthreads = 2;
	char *ep;

	while ((ch = getopt(argc, argv, "c:d:p:t:")) != -1) {
		switch (ch) {
		case 'c':
			cs_ns = strtoul(optarg, &ep, 10);
			if (*ep != '\0')
				errx(2, "bad -c: %s", optarg);
			break;
		case 'd':
			duration = strtod(optarg, &ep);
			if (*ep != '\0' || duration <= 0)
				errx(2, "bad -d: %s", optarg);
			break;
		case 'p':
			ncs_ns = strtoul(optarg, &ep, 10);
			if (*ep != '\0')
				errx(2, "bad -p: %s", optarg);
			break;
		case 't':
			nthreads = strtol(optarg, &ep, 10);
			if (*ep != '\0' || nthreads < 1 || nthreads > MAXCPUS - 1)
				errx(2, "threads must be 1..%d", MAXCPUS - 1);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		usage();

	/* Yield only when oversubscribed; else spin as the kernel does. */
	shim_yield_every = nthreads > shim_ncpu_online() ? 256 : 0;
	shim_cpu_attach(MAXCPUS - 1);
	__mp_lock_init(&L);
	calibrate();
	if (strcmp(argv[0], "uncontended") == 0)
		uncontended();
	else if (strcmp(argv[0], "contended") == 0)
		contended(nthreads);
	else
		usage();
	return (0);
}
