/*
 * kenv: the parts of <machine/cpu.h> kernel lock code may use, for the
 * machine kernel_compile builds for (-DKENV_<MACHINE>).
 * CPU_BUSY_CYCLE() is each port's: yield on arm64, the Zihintpause
 * pause encoding on riscv64, a compiler barrier elsewhere (powerpc's
 * without a memory clobber; sparc64's real one is patched at boot,
 * which has no place here).
 */
#ifndef _KENV_MACHINE_CPU_H_
#define _KENV_MACHINE_CPU_H_

#include <machine/param.h>

struct schedstate_percpu {
	volatile u_int		spc_spinning;	/* spinning on a lock */
	volatile u_int		spc_schedflags;	/* SPCF_* */
};

struct device {
	int			dv_unit;
};

struct cpu_info {
	struct device		*ci_dev;
	struct cpu_info		*ci_self;
	struct cpu_info		*ci_next;
	u_int			 ci_cpuid;
	volatile u_int		 ci_flags;
	struct schedstate_percpu ci_schedstate;
};

#define CPUF_RUNNING		0x2000
#define CPU_IS_RUNNING(ci)	((ci)->ci_flags & CPUF_RUNNING)

/* As most ports: a list, the iterator only ever set. */
extern struct cpu_info *cpu_info_list;
#define CPU_INFO_ITERATOR	int
#define CPU_INFO_FOREACH(cii, ci)	for ((cii) = 0, (ci) = cpu_info_list; \
					    (ci) != NULL; (ci) = (ci)->ci_next)

struct cpu_info	*kenv_curcpu(void) __attribute__((__const__));
u_long	intr_disable(void);
void	intr_restore(u_long);

#define curcpu()		kenv_curcpu()
#define cpu_number()		(curcpu()->ci_cpuid)
#define CPU_INFO_UNIT(ci)	((ci)->ci_cpuid)

#if defined(KENV_ARM64)
#define CPU_BUSY_CYCLE()	__asm volatile("yield" : : : "memory")
#elif defined(KENV_RISCV64)
#define CPU_BUSY_CYCLE()	__asm volatile(".4byte 0x0100000f" : : : "memory")
#elif defined(KENV_POWERPC64) || defined(KENV_MACPPC)
#define CPU_BUSY_CYCLE()	__asm volatile("")
#else
#define CPU_BUSY_CYCLE()	__asm volatile("" : : : "memory")
#endif

#endif /* !_KENV_MACHINE_CPU_H_ */
