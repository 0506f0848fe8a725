/* kenv: the parts of <ddb/db_sym.h> kernel lock code may use. */
#ifndef _KENV_DDB_DB_SYM_H_
#define _KENV_DDB_DB_SYM_H_

typedef int	db_strategy_t;		/* how to look a symbol up */
#define DB_STGY_ANY	0
#define DB_STGY_XTRN	1
#define DB_STGY_PROC	2

void	db_printsym(db_expr_t, db_strategy_t, int (*)(const char *, ...));

#endif /* !_KENV_DDB_DB_SYM_H_ */
