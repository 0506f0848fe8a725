/*
 * Userland shim: the bits of <machine/db_machdep.h> the kernel lock's
 * debug layer uses.
 */
#ifndef _SHIM_MACHINE_DB_MACHDEP_H_
#define _SHIM_MACHINE_DB_MACHDEP_H_

typedef long	db_expr_t;

#endif /* _SHIM_MACHINE_DB_MACHDEP_H_ */
