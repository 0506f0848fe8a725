/*
 * Userland shim: the scheduler's calls the kernel lock's torture test
 * uses (shim.c).  Pegging makes the calling thread that CPU (its
 * interrupts go to the thread) until it unpegs; both switch CPU as
 * mi_switch() does, letting go of the kernel lock and taking it back.
 * The shim's clock sets SPCF_SHOULDYIELD every 10 ticks.
 */
#ifndef _SHIM_SYS_SCHED_H_
#define _SHIM_SYS_SCHED_H_

#define SPCF_SHOULDYIELD	0x0002

struct cpu_info;

void	sched_peg_curproc(struct cpu_info *);
void	sched_unpeg_curproc(void);

#define sched_pause(func) do {						\
	if (curcpu()->ci_schedstate.spc_schedflags & SPCF_SHOULDYIELD)	\
		func();							\
} while (0)

#endif /* _SHIM_SYS_SCHED_H_ */
