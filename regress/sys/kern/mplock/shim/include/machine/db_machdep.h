/* Userland shim: the bits of <machine/db_machdep.h> ddb's show uses. */
#ifndef _SHIM_MACHINE_DB_MACHDEP_H_
#define _SHIM_MACHINE_DB_MACHDEP_H_

typedef long	db_expr_t;

#endif /* _SHIM_MACHINE_DB_MACHDEP_H_ */
