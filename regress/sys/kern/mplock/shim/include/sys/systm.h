/*
 * Userland shim: the bits of <sys/systm.h> the kernel lock uses.
 */
#ifndef _SHIM_SYS_SYSTM_H_
#define _SHIM_SYS_SYSTM_H_

void	db_enter(void);
void	panic(const char *, ...)
	    __attribute__((__noreturn__, __format__(__printf__, 1, 2)));

extern long __mp_lock_spinout;
extern const char *panicstr;	/* set by the tests: "after a panic" */
extern int db_active;		/* set by the tests: "inside ddb" */

int	printf(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));

#endif /* _SHIM_SYS_SYSTM_H_ */
