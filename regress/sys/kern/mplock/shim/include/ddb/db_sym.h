/*
 * Userland shim: ddb's symbol printer.  The harness's stand-in prints
 * the nearest symbol at or below the address from a table the tests
 * fill (shim_sym_add()), as "name+0x1c", or the bare address.
 */
#ifndef _SHIM_DDB_DB_SYM_H_
#define _SHIM_DDB_DB_SYM_H_

typedef int	db_strategy_t;
#define DB_STGY_ANY	0
#define DB_STGY_XTRN	1
#define DB_STGY_PROC	2

void	db_printsym(db_expr_t, db_strategy_t, int (*)(const char *, ...));

#endif /* _SHIM_DDB_DB_SYM_H_ */
