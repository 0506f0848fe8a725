/*	$OpenBSD$	*/

/* public domain */

#ifndef _MACHINE_MPLOCK_H_
#define _MACHINE_MPLOCK_H_

/* mips64 uses the MI kernel lock (sys/sys/mplock.h). */
#define __USE_MI_MPLOCK
#define __MPL_CACHELINE	128	/* octeon's line; loongson's is shorter */

#endif /* !_MACHINE_MPLOCK_H */

/*
 * No ordering primitives of our own: the MI fallbacks in
 * sys/kern/kern_mplock.h are used, by octeon and loongson alike.  The
 * ll/sc instructions carry no ordering, and the one barrier that can be
 * assumed on every CPU the two ports support is sync (the lighter sync
 * types of later MIPS64 releases cannot), so a tuned swap, releasing
 * store and acquire would be the same sync, ll/sc, sync sequence the
 * fallbacks produce.
 */
