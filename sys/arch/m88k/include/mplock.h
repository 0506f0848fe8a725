/*	$OpenBSD$	*/

/* public domain */

#ifndef _MACHINE_MPLOCK_H_
#define _MACHINE_MPLOCK_H_

/* m88k uses the MI kernel lock (sys/sys/mplock.h). */
#define __USE_MI_MPLOCK

#endif /* !_MACHINE_MPLOCK_H */

/*
 * No ordering primitives of our own: the MI fallbacks in
 * sys/kern/kern_mplock.h are used.  They rest on the port's atomic(9)
 * and membar_sync(9), whose contracts are all the lock needs; luna88k
 * machines have at most four processors, where a tuned sequence would
 * buy little.
 */
