/*
 * Userland shim: timeout(9).  The shim's clock runs due timeouts from
 * CPU 0's interrupt, as the softclock does: under the kernel lock
 * unless TIMEOUT_MPSAFE.
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
#define TIMEOUT_MPSAFE		0x10

void	timeout_set(struct timeout *, void (*)(void *), void *);
int	timeout_add(struct timeout *, int);
int	timeout_del_barrier(struct timeout *);

#endif /* _SHIM_SYS_TIMEOUT_H_ */
