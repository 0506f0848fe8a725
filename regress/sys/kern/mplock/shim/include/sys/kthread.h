/*
 * Userland shim: kernel threads (shim.c).  A kernel thread is a thread
 * of the harness with a CPU identity of its own until it pegs itself to
 * one of the machine's CPUs (<sys/sched.h>).  It starts with the kernel
 * lock held, as in the kernel.
 */
#ifndef _SHIM_SYS_KTHREAD_H_
#define _SHIM_SYS_KTHREAD_H_

struct proc;

int	kthread_create(void (*)(void *), void *, struct proc **,
	    const char *);
void	kthread_exit(int) __attribute__((__noreturn__));

#endif /* _SHIM_SYS_KTHREAD_H_ */
