/* Userland shim: the bits of <sys/param.h> the kernel lock uses. */
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

#define PWAIT		32	/* tsleep_nsec(9) priority */

/* The harness's kernel options; a kernel compile (_KERNEL) sets its own. */
#ifndef _KERNEL
#ifndef MULTIPROCESSOR
#define MULTIPROCESSOR	1
#endif
#ifndef MPLOCK_TORTURE
#define MPLOCK_TORTURE	1
#endif
#endif

#endif /* _SHIM_SYS_PARAM_H_ */
