/*
 * Userland shim: a port that opts in to the MI lock with no primitives
 * of its own (the MI fallbacks); a port's header goes first instead.
 */
#ifndef _MACHINE_MPLOCK_H_
#define _MACHINE_MPLOCK_H_

#define __USE_MI_MPLOCK

#endif /* _MACHINE_MPLOCK_H_ */
