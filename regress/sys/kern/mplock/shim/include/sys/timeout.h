/*
 * Userland shim: timeout(9) (shim.c).  The shim's clock (started by a
 * test) ticks and runs the timeouts that are due from the interrupt of
 * CPU 0, as the softclock does: without TIMEOUT_MPSAFE under the kernel
 * lock, taken on top of whatever CPU 0's thread was doing.
 */
#ifndef _SHIM_SYS_TIMEOUT_H_
#define _SHIM_SYS_TIMEOUT_H_

struct timeout {
	void			(*to_func)(void *);
	void			*to_arg;
	volatile int		 to_flags;
	int			 to_time;	/* tick it is due */
};

#define TIMEOUT_ONQUEUE		0x02
#define TIMEOUT_INITIALIZED	0x04
#define TIMEOUT_TRIGGERED	0x08
#define TIMEOUT_MPSAFE		0x10

void	timeout_set(struct timeout *, void (*)(void *), void *);
int	timeout_add(struct timeout *, int);
int	timeout_del(struct timeout *);
int	timeout_del_barrier(struct timeout *);

#endif /* _SHIM_SYS_TIMEOUT_H_ */
