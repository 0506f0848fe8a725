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
 * Peers for the benchmark: the ticket, MCS, CLH and Anderson spin locks
 * of Concurrency Kit (libck, <ck_spinlock.h>), used through their public
 * interface, measured by the same core (bench.c) as our backends.  They
 * are bare locks: no recursion, no interrupt masking, no spin accounting
 * as our front end does, and their waiters never yield.  Built by
 * tools/bench.sh when the headers are installed:
 *
 *	cc -O2 -pthread -o ckbench ckbench.c bench.c
 *	ckbench -l ck-mcs [-c cs_ns] [-d seconds] [-p ncs_ns] [-t threads]
 *	    uncontended | contended
 */

/*
 * Debian's ck_md.h is generated for the build machine (x86, total store
 * order).  On any other machine its fences would be too weak.
 */
#if !defined(__x86_64__) && !defined(__i386__)
#error "libck's installed configuration is for x86 only"
#endif

#include <ck_spinlock.h>

#include <stdlib.h>

#include "bench.h"

#define CACHELINE	64

static ck_spinlock_ticket_t ticket __attribute__((__aligned__(CACHELINE)));
static ck_spinlock_mcs_t mcs __attribute__((__aligned__(CACHELINE)));
static ck_spinlock_clh_t *clh __attribute__((__aligned__(CACHELINE)));
static ck_spinlock_anderson_t anderson __attribute__((__aligned__(CACHELINE)));

/* Per-thread state, each on its own cache line. */
struct ck_ctx {
	ck_spinlock_mcs_context_t	 mcs;
	ck_spinlock_clh_t		*clh;	/* the node we enqueue next */
	ck_spinlock_anderson_thread_t	*slot;	/* held Anderson slot */
} __attribute__((__aligned__(CACHELINE)));

struct clh_node {
	ck_spinlock_clh_t	 n;
} __attribute__((__aligned__(CACHELINE)));

static struct ck_ctx ctx[BENCH_MAXTHREADS];
static struct clh_node clh_nodes[BENCH_MAXTHREADS + 1];
/* CK's slots are one array of small structures, as its lock indexes. */
static ck_spinlock_anderson_thread_t *anderson_slots;

static void
ck_thread_init(struct bench_thread *bt)
{
	bt->bt_ctx = &ctx[bt->bt_id];
	ctx[bt->bt_id].clh = &clh_nodes[bt->bt_id + 1].n;
}

static int
ticket_init(int n)
{
	ck_spinlock_ticket_init(&ticket);
	return (0);
}

static void
ticket_lock(struct bench_thread *bt)
{
	ck_spinlock_ticket_lock(&ticket);
}

static void
ticket_unlock(struct bench_thread *bt)
{
	ck_spinlock_ticket_unlock(&ticket);
}

static int
mcs_init(int n)
{
	ck_spinlock_mcs_init(&mcs);
	return (0);
}

static void
mcs_lock(struct bench_thread *bt)
{
	struct ck_ctx *c = bt->bt_ctx;

	ck_spinlock_mcs_lock(&mcs, &c->mcs);
}

static void
mcs_unlock(struct bench_thread *bt)
{
	struct ck_ctx *c = bt->bt_ctx;

	ck_spinlock_mcs_unlock(&mcs, &c->mcs);
}

static int
clh_init(int n)
{
	/* Node 0 stands for the lock's free state; thread i starts at i+1. */
	ck_spinlock_clh_init(&clh, &clh_nodes[0].n);
	return (0);
}

static void
clh_lock(struct bench_thread *bt)
{
	struct ck_ctx *c = bt->bt_ctx;

	ck_spinlock_clh_lock(&clh, c->clh);
}

static void
clh_unlock(struct bench_thread *bt)
{
	struct ck_ctx *c = bt->bt_ctx;

	/* Leaves c->clh pointing at the predecessor's node, for reuse. */
	ck_spinlock_clh_unlock(&c->clh);
}

static int
anderson_init(int n)
{
	unsigned int slots = 2;

	/* One slot per thread at least, a power of two. */
	while (slots < (unsigned int)n)
		slots *= 2;
	anderson_slots = calloc(slots, sizeof(*anderson_slots));
	if (anderson_slots == NULL)
		return (-1);
	ck_spinlock_anderson_init(&anderson, anderson_slots, slots);
	return (0);
}

static void
anderson_lock(struct bench_thread *bt)
{
	struct ck_ctx *c = bt->bt_ctx;

	ck_spinlock_anderson_lock(&anderson, &c->slot);
}

static void
anderson_unlock(struct bench_thread *bt)
{
	struct ck_ctx *c = bt->bt_ctx;

	ck_spinlock_anderson_unlock(&anderson, c->slot);
}

static const struct bench_lock locks[] = {
	{ "ck-ticket", ticket_init, ck_thread_init, ticket_lock,
	    ticket_unlock },
	{ "ck-mcs", mcs_init, ck_thread_init, mcs_lock, mcs_unlock },
	{ "ck-clh", clh_init, ck_thread_init, clh_lock, clh_unlock },
	{ "ck-anderson", anderson_init, ck_thread_init, anderson_lock,
	    anderson_unlock },
};

int
main(int argc, char *argv[])
{
	return (bench_main(argc, argv, "ck", locks,
	    sizeof(locks) / sizeof(locks[0]), BENCH_MAXTHREADS));
}
