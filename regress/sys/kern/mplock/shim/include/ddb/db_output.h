/* Userland shim: db_printf() is recorded by the harness (shim.c). */
#ifndef _SHIM_DDB_DB_OUTPUT_H_
#define _SHIM_DDB_DB_OUTPUT_H_

int	db_printf(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));

#endif /* _SHIM_DDB_DB_OUTPUT_H_ */
