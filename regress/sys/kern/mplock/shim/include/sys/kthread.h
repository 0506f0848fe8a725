/*
 * Userland shim: kernel threads (shim.c), which start with the kernel
 * lock held, as in the kernel.
 */
#ifndef _SHIM_SYS_KTHREAD_H_
#define _SHIM_SYS_KTHREAD_H_

struct proc;

int	kthread_create(void (*)(void *), void *, struct proc **,
	    const char *);
void	kthread_exit(int) __attribute__((__noreturn__));

#endif /* _SHIM_SYS_KTHREAD_H_ */
