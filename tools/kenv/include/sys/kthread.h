/* kenv: the parts of <sys/kthread.h> kernel lock code may use. */
#ifndef _KENV_SYS_KTHREAD_H_
#define _KENV_SYS_KTHREAD_H_

struct proc;
int	kthread_create(void (*)(void *), void *, struct proc **,
	    const char *);
void	kthread_exit(int) __attribute__((__noreturn__));

#endif /* !_KENV_SYS_KTHREAD_H_ */
