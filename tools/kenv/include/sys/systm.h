/* kenv: the parts of <sys/systm.h> kernel lock code may use. */
#ifndef _KENV_SYS_SYSTM_H_
#define _KENV_SYS_SYSTM_H_

extern const char *panicstr;
extern int db_active;
extern long __mp_lock_spinout;

int	printf(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));
void	panic(const char *, ...)
	    __attribute__((__noreturn__, __format__(__printf__, 1, 2)));
void	db_enter(void);

#define INFSLP		0xffffffffffffffffULL
int	tsleep_nsec(const volatile void *, int, const char *, uint64_t);
void	wakeup(const volatile void *);
void	yield(void);
void	__assert(const char *, const char *, int, const char *)
	    __attribute__((__noreturn__));

#ifdef DIAGNOSTIC
#define KASSERT(e)	((e) ? (void)0 :				\
	__assert("diagnostic ", __FILE__, __LINE__, #e))
#else
#define KASSERT(e)	((void)0)
#endif
#define KDASSERT(e)	((void)0)

#endif /* !_KENV_SYS_SYSTM_H_ */
