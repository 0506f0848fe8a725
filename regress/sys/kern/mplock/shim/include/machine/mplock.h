/*
 * Userland shim: an architecture that opts in to the MI lock and
 * supplies no ordering primitives of its own, so the MI fallbacks are
 * used.
 * Builds that test an architecture's header put that directory first
 * on the include path instead.
 */
#ifndef _MACHINE_MPLOCK_H_
#define _MACHINE_MPLOCK_H_

#define __USE_MI_MPLOCK

/*
 * Halted waits (the M-lock's guest mode), as shim.c stands in for them:
 * a halt waits for a signal, a kick is one.  mpl_hypervisor() is
 * shim_guest, which the tests set; the cycle count is in ns.
 */
#define MPL_HALT

extern int shim_guest;
unsigned long long shim_cycles(void);
int	shim_halt_begin(void);
void	shim_halt(void);
void	shim_halt_cancel(void);
void	shim_kick(unsigned int);

#define mpl_hypervisor()	shim_guest
#define mpl_cycles()		shim_cycles()
#define mpl_halt_begin()	shim_halt_begin()
#define mpl_halt()		shim_halt()
#define mpl_halt_cancel()	shim_halt_cancel()
#define mpl_kick(i)		shim_kick(i)

#endif /* _MACHINE_MPLOCK_H_ */
