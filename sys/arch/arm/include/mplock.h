/*	$OpenBSD$	*/

/* public domain */

#ifndef _MACHINE_MPLOCK_H_
#define _MACHINE_MPLOCK_H_

/* arm uses the MI kernel lock (sys/sys/mplock.h). */
#define __USE_MI_MPLOCK

#endif /* !_MACHINE_MPLOCK_H */

/*
 * No ordering primitives of our own: the MI fallbacks in
 * sys/kern/kern_mplock.h are used.  ARMv7 has no load-acquire or
 * store-release instructions (they came with ARMv8), so a tuned
 * version would be the fallbacks' own sequence, dmb around an
 * ldrex/strex swap, with the barrier's domain narrowed from the full
 * system to the inner shareable one: too little to gain for assembly of
 * our own.
 */
