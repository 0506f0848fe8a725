/*
 * Userland shim: what the kernel lock uses of ddb, for each ddb header
 * (they include this one).  db_printf() is recorded and db_printsym()
 * names the addresses given to shim_sym_add() (shim.c).
 */
#ifndef _SHIM_MACHINE_DB_MACHDEP_H_
#define _SHIM_MACHINE_DB_MACHDEP_H_

typedef long	db_expr_t;
typedef int	db_strategy_t;
#define DB_STGY_ANY	0
#define DB_STGY_PROC	2

int	db_printf(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));
void	db_printsym(db_expr_t, db_strategy_t, int (*)(const char *, ...));
void	db_show_mplock(db_expr_t, int, db_expr_t, char *);

#endif /* _SHIM_MACHINE_DB_MACHDEP_H_ */
