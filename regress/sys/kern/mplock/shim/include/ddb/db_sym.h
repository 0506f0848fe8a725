/* Userland shim: ddb's symbol printer, names from shim_sym_add(). */
#ifndef _SHIM_DDB_DB_SYM_H_
#define _SHIM_DDB_DB_SYM_H_

typedef int	db_strategy_t;
#define DB_STGY_ANY	0
#define DB_STGY_PROC	2

void	db_printsym(db_expr_t, db_strategy_t, int (*)(const char *, ...));

#endif /* _SHIM_DDB_DB_SYM_H_ */
