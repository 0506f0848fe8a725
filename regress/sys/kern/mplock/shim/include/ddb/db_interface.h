/* Userland shim: as a patched kernel's sys/ddb/db_interface.h. */
#ifndef _SHIM_DDB_DB_INTERFACE_H_
#define _SHIM_DDB_DB_INTERFACE_H_

/* kern/kern_mplock_debug.c */
void	db_show_mplock(db_expr_t, int, db_expr_t, char *);

#endif /* _SHIM_DDB_DB_INTERFACE_H_ */
