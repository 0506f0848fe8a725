/*	$OpenBSD$	*/

/* public domain */

#ifndef _MACHINE_MPLOCK_H_
#define _MACHINE_MPLOCK_H_

/* alpha uses the MI kernel lock (sys/sys/mplock.h). */
#define __USE_MI_MPLOCK

#endif /* !_MACHINE_MPLOCK_H */

/*
 * No ordering primitives of our own: the MI fallbacks in
 * sys/kern/kern_mplock.h are what alpha would use anyway.  Every
 * ordering alpha needs here takes an mb (wmb orders stores only, and a
 * release must also keep earlier loads before the store), so the
 * fallbacks' membar_exit(), membar_enter() and membar_sync() cannot be
 * traded for anything lighter, and the swap is an ldq_l/stq_c loop in
 * any case.  alpha may also reorder a load after a load it depends on;
 * the fallbacks do not rely on dependencies.
 */
