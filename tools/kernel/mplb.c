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

/* The counters of <sys/mplb.h>: sys/kern/kern_mplb.c of instrument.sh. */

#include <sys/param.h>
#include <sys/systm.h>
#include <sys/sched.h>
#include <sys/sysctl.h>
#include <sys/mplb.h>

#include <machine/cpu.h>

struct mplb_cpu mplb_cpus[MAXCPUS];

CTASSERT(CPUSTATES == MPLB_NCP);

/* statclock(): one interrupt, charging count periods to cp_time. */
void
mplb_statclock(struct cpu_info *ci, int cp_time, uint64_t count)
{
	struct mplb_cpu *mb = &mplb_cpus[CPU_INFO_UNIT(ci)];
	u_int d = mb->mb_depth, s;

	if (d > 0)
		s = mb->mb_kind[d > MPLB_DEPTH ? MPLB_DEPTH - 1 : d - 1];
	else {
		switch (cp_time) {
		case CP_USER:
		case CP_NICE:
			s = MPLB_USER;
			break;
		case CP_INTR:
			s = MPLB_INTR;
			break;
		case CP_IDLE:
			s = MPLB_IDLE;
			break;
		case CP_SPIN:
			s = MPLB_SPIN;
			break;
		default:
			s = MPLB_SYS;
			break;
		}
	}
	mb->mb_samples[s]++;
	mb->mb_ticks[s] += count;
}

/* kern.cp_time2 asked with room for the breakdown. */
int
mplb_sysctl(struct cpu_info *ci, uint64_t *cp_time, void *oldp,
    size_t *oldlenp, void *newp)
{
	struct mplb_cpu *mb = &mplb_cpus[CPU_INFO_UNIT(ci)];
	struct mplb_cptime r;
	int i;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < MPLB_NCP; i++)
		r.mc_cp_time[i] = cp_time[i];
	for (i = 0; i < MPLB_NSTATES; i++) {
		r.mc_samples[i] = mb->mb_samples[i];
		r.mc_ticks[i] = mb->mb_ticks[i];
	}
	return (sysctl_rdstruct(oldp, oldlenp, newp, &r, sizeof(r)));
}
