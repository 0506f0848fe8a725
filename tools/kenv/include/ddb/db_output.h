/* kenv: ddb's printf. */
#ifndef _KENV_DDB_DB_OUTPUT_H_
#define _KENV_DDB_DB_OUTPUT_H_

int	db_printf(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));

#endif /* !_KENV_DDB_DB_OUTPUT_H_ */
