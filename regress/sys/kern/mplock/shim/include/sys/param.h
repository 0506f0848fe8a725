/*
 * Userland shim: the bits of <sys/param.h> the kernel lock uses.
 * The kernel lock sources include this instead of the kernel's.
 */
#ifndef _SHIM_SYS_PARAM_H_
#define _SHIM_SYS_PARAM_H_

#ifdef _KERNEL		/* a kernel compile: freestanding */
typedef unsigned char	u_char;
typedef unsigned short	u_short;
typedef unsigned int	u_int;
typedef unsigned long	u_long;
#else
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE		/* glibc: u_int, u_long */
#endif
#include <sys/types.h>
#endif
#include <stddef.h>
#include <stdint.h>

#ifndef __aligned
#define __aligned(x)	__attribute__((__aligned__(x)))
#endif
#ifndef __predict_false
#define __predict_false(e)	__builtin_expect(((e) != 0), 0)
#endif
#ifndef __predict_true
#define __predict_true(e)	__builtin_expect(((e) != 0), 1)
#endif

#ifndef MAXCPUS
#define MAXCPUS		64
#endif

#ifndef NULL
#define NULL		((void *)0)
#endif

#define PWAIT		32	/* tsleep_nsec(9) priority */

/*
 * The harness is a MULTIPROCESSOR kernel built with option
 * MPLOCK_TORTURE: its "torture" test runs the kernel's torture test
 * (kern_mplock_torture.c) on the shim's CPUs.  A kernel compile
 * (_KERNEL) sets its options itself.
 */
#ifndef _KERNEL
#ifndef MULTIPROCESSOR
#define MULTIPROCESSOR	1
#endif
#ifndef MPLOCK_TORTURE
#define MPLOCK_TORTURE	1
#endif
#endif

#endif /* _SHIM_SYS_PARAM_H_ */
