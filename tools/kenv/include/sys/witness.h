/* kenv: the WITNESS hooks; calls to the checker, or nothing. */
#ifndef _KENV_SYS_WITNESS_H_
#define _KENV_SYS_WITNESS_H_

#include <sys/_lock.h>

#define LOP_NEWORDER		0x00000001
#define LOP_QUIET		0x00000002
#define LOP_TRYLOCK		0x00000004
#define LOP_EXCLUSIVE		0x00000008
#define LOP_DUPOK		0x00000010

#ifdef WITNESS
void	witness_init(struct lock_object *, const struct lock_type *);
void	witness_checkorder(struct lock_object *, int, struct lock_object *);
void	witness_lock(struct lock_object *, int);
void	witness_unlock(struct lock_object *, int);

#define WITNESS_INIT(lock, type)	witness_init((lock), (type))
#define WITNESS_CHECKORDER(lock, flags, interlock)			\
	witness_checkorder((lock), (flags), (interlock))
#define WITNESS_LOCK(lock, flags)	witness_lock((lock), (flags))
#define WITNESS_UNLOCK(lock, flags)	witness_unlock((lock), (flags))
#else
#define WITNESS_INIT(lock, type)			(void)0
#define WITNESS_CHECKORDER(lock, flags, interlock)	(void)0
#define WITNESS_LOCK(lock, flags)			(void)0
#define WITNESS_UNLOCK(lock, flags)			(void)0
#endif

#endif /* !_KENV_SYS_WITNESS_H_ */
