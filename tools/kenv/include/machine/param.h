/*
 * kenv: MAXCPUS and CACHELINESIZE of the machine kernel_compile builds
 * for (-DKENV_<MACHINE>).  The values of arm64, sparc64, powerpc64,
 * riscv64, octeon and macppc are OpenBSD's; those of alpha, armv7,
 * loongson and luna88k are this check's choice.
 */
#ifndef _KENV_MACHINE_PARAM_H_
#define _KENV_MACHINE_PARAM_H_

#if defined(KENV_ARM64) || defined(KENV_SPARC64)
#define MAXCPUS		256
#elif defined(KENV_POWERPC64)
#define MAXCPUS		48
#elif defined(KENV_RISCV64) || defined(KENV_ALPHA)
#define MAXCPUS		32
#elif defined(KENV_OCTEON) || defined(KENV_LOONGSON)
#define MAXCPUS		16
#elif defined(KENV_MACPPC) || defined(KENV_ARMV7) || defined(KENV_LUNA88K)
#define MAXCPUS		4
#else
#error "kenv: no KENV_<MACHINE> defined"
#endif

#if defined(KENV_MACPPC)
#define CACHELINESIZE	32
#elif defined(KENV_OCTEON)
#define CACHELINESIZE	128
#else
#define CACHELINESIZE	64
#endif

#endif /* !_KENV_MACHINE_PARAM_H_ */
