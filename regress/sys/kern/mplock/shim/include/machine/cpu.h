/*
 * Userland shim: a CPU is a thread pointing shim_curcpu at its struct
 * cpu_info.  An interrupt is a signal that the thread's "interrupt
 * enable" flag (shim_intr_off) holds back until intr_restore().
 */
#ifndef _SHIM_MACHINE_CPU_H_
#define _SHIM_MACHINE_CPU_H_

struct schedstate_percpu {
	volatile unsigned int	spc_spinning;	/* spinning on a lock */
	volatile unsigned int	spc_schedflags;	/* SPCF_*, <sys/sched.h> */
};

struct cpu_info {
	unsigned int		 ci_cpuid;
	volatile unsigned int	 ci_flags;	/* CPUF_RUNNING */
	struct schedstate_percpu ci_schedstate;
	unsigned long		 ci_intr_count;	/* interrupts delivered */
	unsigned long		 ci_intr_waiting; /* ... while waiting */
} __attribute__((__aligned__(64)));

extern __thread struct cpu_info *shim_curcpu;
extern struct cpu_info shim_cpus[];
extern int shim_ncpus;		/* CPUs 0..shim_ncpus-1 are the machine's */

#define CPUF_RUNNING		0x2000
#define CPU_IS_RUNNING(ci)	((ci)->ci_flags & CPUF_RUNNING)
#define CPU_INFO_ITERATOR	int
#define CPU_INFO_FOREACH(cii, ci)					\
	for ((cii) = 0, (ci) = &shim_cpus[0]; (cii) < shim_ncpus;	\
	    (cii)++, (ci) = &shim_cpus[(cii)])
extern __thread volatile int shim_intr_off;
extern __thread volatile int shim_intr_pending;
extern __thread volatile int shim_kick_pending;

void	shim_busy_cycle(void);
void	shim_intr_deliver(void);
void	shim_delay(unsigned int);

#define curcpu()		(shim_curcpu)
#define cpu_number()		(shim_curcpu->ci_cpuid)
#define CPU_INFO_UNIT(ci)	((ci)->ci_cpuid)
/*
 * A kernel's CPU_BUSY_CYCLE() and intr_restore() call nothing; the
 * shim's call C.  On amd64 through a stub that keeps every register
 * (shim.c), so that the lock code around them compiles as in a kernel.
 */
#if defined(__x86_64__)
#define SHIM_CALL(fn)							\
	__asm volatile("lea -128(%%rsp), %%rsp\n\tcall " #fn "_keepregs\n\t" \
	    "lea 128(%%rsp), %%rsp" : : : "memory", "cc")
#else
#define SHIM_CALL(fn)		fn()
#endif
/*
 * A kernel compile's is the port's: yield on arm64, the Zihintpause
 * pause on riscv64, a compiler barrier elsewhere (powerpc's without a
 * memory clobber; sparc64's real one is patched at boot).
 */
#if defined(KC_ARM64)
#define CPU_BUSY_CYCLE()	__asm volatile("yield" : : : "memory")
#elif defined(KC_RISCV64)
#define CPU_BUSY_CYCLE()	__asm volatile(".4byte 0x0100000f" : : : "memory")
#elif defined(KC_POWERPC64) || defined(KC_MACPPC)
#define CPU_BUSY_CYCLE()	__asm volatile("")
#elif defined(_KERNEL)
#define CPU_BUSY_CYCLE()	__asm volatile("" : : : "memory")
#else
#define CPU_BUSY_CYCLE()	SHIM_CALL(shim_busy_cycle)
#endif
#define delay(us)		shim_delay(us)	/* mutants widen races */

static inline unsigned long
intr_disable(void)
{
	unsigned long s = shim_intr_off;

	shim_intr_off = 1;
	__asm volatile("" ::: "memory");
	return (s);
}

static inline void
intr_restore(unsigned long s)
{
	__asm volatile("" ::: "memory");
	shim_intr_off = (int)s;
	__asm volatile("" ::: "memory");
	if (s == 0) {
		shim_kick_pending = 0;	/* a kick is taken: a no-op */
		if (shim_intr_pending)
			SHIM_CALL(shim_intr_deliver);
	}
}

/*
 * Halted waits (the M-lock's guest mode), here so that builds with a
 * port's <machine/mplock.h> have them too; a kernel compile (_KERNEL)
 * takes that header's.  A halt waits for a signal, a kick sends one;
 * the cycle count is in ns.
 */
#ifndef _KERNEL
#define MPL_HALT

extern int shim_guest;
unsigned long long shim_cycles(void);
int	shim_halt_begin(void);
void	shim_halt(void);
void	shim_kick(unsigned int);

#define mpl_hypervisor()	shim_guest
#define mpl_cycles()		shim_cycles()
#define mpl_halt_begin()	shim_halt_begin()
#define mpl_halt()		shim_halt()
#define mpl_halt_cancel()	intr_restore(0)
#define mpl_kick(i)		shim_kick(i)
#endif /* !_KERNEL */

#endif /* _SHIM_MACHINE_CPU_H_ */
