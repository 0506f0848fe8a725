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
 * Where a test kernel's CPU time goes: <sys/mplb.h> of tools/kernel.sh
 * -i, measurement only (doc/kernel.md, "Where the cycles go").
 * kern.cp_time2 asked with room for struct mplb_cptime returns one.
 */

#ifndef _SYS_MPLB_H_
#define _SYS_MPLB_H_

#define MPLB_USER	0	/* user mode (and nice) */
#define MPLB_SYS	1	/* kernel, not spinning */
#define MPLB_INTR	2	/* interrupt handlers */
#define MPLB_IDLE	3	/* the idle loop */
#define MPLB_KLOCK	4	/* waiting for the kernel lock's turn */
#define MPLB_SCHED	5	/* spinning for sched_lock */
#define MPLB_MUTEX	6	/* spinning for another mutex */
#define MPLB_RWLOCK	7	/* spinning for an rwlock */
#define MPLB_TLB	8	/* waiting for a TLB shootdown */
#define MPLB_SPIN	9	/* other spinning (spc_spinning) */
#define MPLB_NSTATES	10
#define MPLB_NAMES	"user/sys/intr/idle/klock/sched/mutex/rwlock/tlb/spin"
#define MPLB_NCP	6	/* CPUSTATES of sys/sched.h */

struct mplb_cptime {
	unsigned long long	mc_cp_time[MPLB_NCP];	/* stock cp_time */
	unsigned long long	mc_samples[MPLB_NSTATES];
	unsigned long long	mc_ticks[MPLB_NSTATES];
};

#ifdef _KERNEL
#define MPLB_DEPTH	16

struct mplb_cpu {
	volatile u_int		mb_depth;		/* spins nested */
	volatile u_char		mb_kind[MPLB_DEPTH];	/* MPLB_* each */
	uint64_t		mb_samples[MPLB_NSTATES];
	uint64_t		mb_ticks[MPLB_NSTATES];
} __aligned(64);

extern struct mplb_cpu mplb_cpus[];

/*
 * Macros, so that this header may come before <machine/cpu.h>.  The
 * depth goes up before the slot is written: an interrupt between the
 * two pushes and pops above it and leaves ours alone.
 */
#define mplb_push(kind) do {						\
	struct mplb_cpu *_mb = &mplb_cpus[CPU_INFO_UNIT(curcpu())];	\
	u_int _d = _mb->mb_depth;					\
									\
	_mb->mb_depth = _d + 1;						\
	if (_d < MPLB_DEPTH)						\
		_mb->mb_kind[_d] = (kind);				\
} while (0)
#define mplb_pop()	(mplb_cpus[CPU_INFO_UNIT(curcpu())].mb_depth--)

struct mutex;
extern struct mutex sched_lock;
#define MPLB_MTX_KIND(m)						\
	((void *)(m) == (void *)&sched_lock ? MPLB_SCHED : MPLB_MUTEX)

struct cpu_info;
void	mplb_statclock(struct cpu_info *, int, uint64_t);
int	mplb_sysctl(struct cpu_info *, uint64_t *, void *, size_t *, void *);
#endif /* _KERNEL */

#endif /* !_SYS_MPLB_H_ */
