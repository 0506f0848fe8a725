/*
 * Userland shim: WITNESS hooks, passed to the harness's checker
 * (shim.c) with WITNESS defined, gone without, as in the kernel.
 */
#ifndef _SHIM_SYS_WITNESS_H_
#define _SHIM_SYS_WITNESS_H_

#include <sys/_lock.h>

#define LOP_NEWORDER		0x00000001
#define LOP_EXCLUSIVE		0x00000008

#ifdef WITNESS

void	shim_witness_init(struct lock_object *, const struct lock_type *);
void	shim_witness_checkorder(struct lock_object *, int,
	    struct lock_object *);
void	shim_witness_lock(struct lock_object *, int);
void	shim_witness_unlock(struct lock_object *, int);

#define WITNESS_INIT(lock, type)	shim_witness_init((lock), (type))
#define WITNESS_CHECKORDER(lock, flags, interlock)			\
	shim_witness_checkorder((lock), (flags), (interlock))
#define WITNESS_LOCK(lock, flags)	shim_witness_lock((lock), (flags))
#define WITNESS_UNLOCK(lock, flags)	shim_witness_unlock((lock), (flags))

#else /* WITNESS */

#define WITNESS_INIT(lock, type)			(void)0
#define WITNESS_CHECKORDER(lock, flags, interlock)	(void)0
#define WITNESS_LOCK(lock, flags)			(void)0
#define WITNESS_UNLOCK(lock, flags)			(void)0

#endif /* WITNESS */

#endif /* _SHIM_SYS_WITNESS_H_ */
