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
 * The measuring core of the lock benchmark (bench.c).  An adapter
 * (mplockbench.c) describes its lock with struct bench_lock and hands
 * over to bench_main().
 */

#ifndef _BENCH_H_
#define _BENCH_H_

#include <pthread.h>

struct bench_thread {
	int		 bt_id;		/* 0 .. threads - 1 */
	unsigned long	 bt_acq;	/* acquisitions in the run */
	pthread_t	 bt_thread;
} __attribute__((__aligned__(64)));

struct bench_lock {
	const char	*bl_name;
	/* Before the run: set up for this many threads. */
	void		(*bl_init)(int);
	/* In each thread, before it takes the lock. */
	void		(*bl_thread_init)(struct bench_thread *);
	void		(*bl_lock)(struct bench_thread *);
	void		(*bl_unlock)(struct bench_thread *);
};

/*
 * Parse the command line, run one measurement of the lock, print it as
 * one line of key=value pairs.  src says where the lock comes from
 * ("ours", "openbsd"); maxthreads is the most threads the adapter
 * handles.
 */
int	bench_main(int, char *[], const char *, const struct bench_lock *,
	    int);

#endif /* _BENCH_H_ */
