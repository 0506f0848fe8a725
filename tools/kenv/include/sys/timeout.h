/* kenv: the parts of <sys/timeout.h> kernel lock code may use. */
#ifndef _KENV_SYS_TIMEOUT_H_
#define _KENV_SYS_TIMEOUT_H_

struct timeout {
	void			*to_list[2];
	void			(*to_func)(void *);
	void			*to_arg;
	int			 to_time;
	int			 to_flags;
};

#define TIMEOUT_MPSAFE		0x10

void	timeout_set(struct timeout *, void (*)(void *), void *);
int	timeout_add(struct timeout *, int);
int	timeout_del(struct timeout *);
int	timeout_del_barrier(struct timeout *);

#endif /* !_KENV_SYS_TIMEOUT_H_ */
