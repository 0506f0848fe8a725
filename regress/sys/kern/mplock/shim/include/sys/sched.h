/*
 * Userland shim: the scheduler's calls the torture test uses (shim.c).
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
