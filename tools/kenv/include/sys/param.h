/* kenv: the parts of <sys/param.h> kernel lock code may use. */
#ifndef _KENV_SYS_PARAM_H_
#define _KENV_SYS_PARAM_H_

#include <sys/types.h>

#define __aligned(x)		__attribute__((__aligned__(x)))
#define __packed		__attribute__((__packed__))
#define __dead			__attribute__((__noreturn__))
#define __predict_true(e)	__builtin_expect(((e) != 0), 1)
#define __predict_false(e)	__builtin_expect(((e) != 0), 0)
#define __unused		__attribute__((__unused__))

#define NULL			((void *)0)
#define PWAIT			32
#define nitems(a)		(sizeof((a)) / sizeof((a)[0]))

#include <machine/param.h>

#endif /* !_KENV_SYS_PARAM_H_ */
