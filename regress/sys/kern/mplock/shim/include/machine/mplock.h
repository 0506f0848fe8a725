/*
 * Userland shim: an architecture that opts in to the MI lock and
 * supplies no primitives of its own, so the MI fallbacks are used.
 * Builds that test an architecture's header put that directory first
 * on the include path instead.
 */
#ifndef _MACHINE_MPLOCK_H_
#define _MACHINE_MPLOCK_H_

#define __USE_MI_MPLOCK

#endif /* _MACHINE_MPLOCK_H_ */
