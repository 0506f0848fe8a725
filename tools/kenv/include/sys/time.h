/* kenv: the parts of <sys/time.h> kernel lock code may use. */
#ifndef _KENV_SYS_TIME_H_
#define _KENV_SYS_TIME_H_

uint64_t	nsecuptime(void);

#endif /* !_KENV_SYS_TIME_H_ */
