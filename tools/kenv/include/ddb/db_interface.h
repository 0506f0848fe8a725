/* kenv: the prototype a patched sys/ddb/db_interface.h declares. */
#ifndef _KENV_DDB_DB_INTERFACE_H_
#define _KENV_DDB_DB_INTERFACE_H_

void	db_show_mplock(db_expr_t, int, db_expr_t, char *);

#endif /* !_KENV_DDB_DB_INTERFACE_H_ */
