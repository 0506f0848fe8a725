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
 * of Concurrency Kit (<ck_spinlock.h>) through their public interface,
 * measured by the same core (bench.c) as our backends.  Bare locks: no
 * recursion, no interrupt masking, no spin accounting, and their
 * waiters never yield.  tools/bench.sh builds it where libck is.
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

/* Every lock, whichever the run takes. */
static int
ck_init(int n)
{
	ck_spinlock_anderson_thread_t *slots;
	unsigned int nslots = 2;
	int i;

	ck_spinlock_ticket_init(&ticket);
	ck_spinlock_mcs_init(&mcs);
	/* Node 0 stands for the lock's free state; thread i starts at i+1. */
	ck_spinlock_clh_init(&clh, &clh_nodes[0].n);
	for (i = 0; i < n; i++)
		ctx[i].clh = &clh_nodes[i + 1].n;
	/* Anderson: a slot per thread at least, a power of two of them. */
	while (nslots < (unsigned int)n)
		nslots *= 2;
	if ((slots = calloc(nslots, sizeof(*slots))) == NULL)
		return (-1);
	ck_spinlock_anderson_init(&anderson, slots, nslots);
	return (0);
}

/* NAME_lock() and NAME_unlock(), each one call of libck. */
#define CK_LOCK(name, lock, unlock)					\
static void								\
name##_lock(struct bench_thread *bt)					\
{									\
	lock;								\
}									\
static void								\
name##_unlock(struct bench_thread *bt)					\
{									\
	unlock;								\
}

CK_LOCK(ticket, ck_spinlock_ticket_lock(&ticket),
    ck_spinlock_ticket_unlock(&ticket))
CK_LOCK(mcs, ck_spinlock_mcs_lock(&mcs, &ctx[bt->bt_id].mcs),
    ck_spinlock_mcs_unlock(&mcs, &ctx[bt->bt_id].mcs))
/* The unlock leaves the thread's clh at the predecessor's node, for reuse. */
CK_LOCK(clh, ck_spinlock_clh_lock(&clh, ctx[bt->bt_id].clh),
    ck_spinlock_clh_unlock(&ctx[bt->bt_id].clh))
CK_LOCK(anderson, ck_spinlock_anderson_lock(&anderson, &ctx[bt->bt_id].slot),
    ck_spinlock_anderson_unlock(&anderson, ctx[bt->bt_id].slot))

static const struct bench_lock locks[] = {
	{ "ck-ticket", ck_init, NULL, ticket_lock, ticket_unlock },
	{ "ck-mcs", ck_init, NULL, mcs_lock, mcs_unlock },
	{ "ck-clh", ck_init, NULL, clh_lock, clh_unlock },
	{ "ck-anderson", ck_init, NULL, anderson_lock, anderson_unlock },
};

int
main(int argc, char *argv[])
{
	return (bench_main(argc, argv, "ck", locks,
	    sizeof(locks) / sizeof(locks[0]), BENCH_MAXTHREADS));
}
