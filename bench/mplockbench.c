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
 * like the regress: each thread is a CPU of the shim and takes the lock
 * with __mp_lock().  The measuring is bench.c's; tools/bench.sh runs it.
 */

#include <sys/param.h>
#include <sys/mplock.h>

#include <machine/cpu.h>

#include "bench.h"
#include "shim.h"

/* Where the lock comes from and its name, set for the peers (bench.sh). */
#ifndef MPL_BENCH_SRC
#define MPL_BENCH_SRC	"ours"
#endif
#ifndef MPL_BENCH_NAME
#define MPL_BENCH_NAME	SHIM_BE_NAME
#endif

static struct __mp_lock L;

static void
mpl_init(int nthreads)
{
	/*
	 * Spin as the kernel does, but when CPUs are threads short yield
	 * after about 5 us of spinning, as a hypervisor would deschedule a
	 * vCPU: by time, so that every lock's waiters yield alike.
	 */
	shim_yield_ns = nthreads > shim_ncpu_online() ? 5000 : 0;
	shim_cpu_attach(MAXCPUS - 1);
	__mp_lock_init(&L);
}

static void
mpl_thread_init(struct bench_thread *bt)
{
	shim_cpu_attach(bt->bt_id);
}

static void
mpl_lock(struct bench_thread *bt)
{
	__mp_lock(&L);
}

static void
mpl_unlock(struct bench_thread *bt)
{
	__mp_unlock(&L);
}

static const struct bench_lock mpl = {
	MPL_BENCH_NAME, mpl_init, mpl_thread_init, mpl_lock, mpl_unlock
};

int
main(int argc, char *argv[])
{
	/* The last CPU is main's. */
	return (bench_main(argc, argv, MPL_BENCH_SRC, &mpl, MAXCPUS - 1));
}
