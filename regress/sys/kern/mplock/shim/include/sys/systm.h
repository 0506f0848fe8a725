/*
 * Userland shim: the bits of <sys/systm.h> the kernel lock uses.
 */
#ifndef _SHIM_SYS_SYSTM_H_
#define _SHIM_SYS_SYSTM_H_

#include <stdint.h>

void	db_enter(void);
void	panic(const char *, ...)
	    __attribute__((__noreturn__, __format__(__printf__, 1, 2)));

extern long __mp_lock_spinout;
extern const char *panicstr;	/* set by the tests: "after a panic" */
extern int db_active;		/* set by the tests: "inside ddb" */
extern int cold;		/* set by the tests: "autoconf" */

int	printf(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));

/* Each lets go of the kernel lock and takes it back, as mi_switch(). */
int	tsleep_nsec(const volatile void *, int, const char *, uint64_t);
void	wakeup(const volatile void *);
void	yield(void);

#endif /* _SHIM_SYS_SYSTM_H_ */
