/* kenv: the parts of <machine/db_machdep.h> kernel lock code may use. */
#ifndef _KENV_MACHINE_DB_MACHDEP_H_
#define _KENV_MACHINE_DB_MACHDEP_H_

typedef long	db_expr_t;		/* an address or value in ddb */

#endif /* !_KENV_MACHINE_DB_MACHDEP_H_ */
