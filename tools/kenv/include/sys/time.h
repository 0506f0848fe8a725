/* kenv: the parts of <sys/time.h> kernel lock code may use. */
#ifndef _KENV_SYS_TIME_H_
#define _KENV_SYS_TIME_H_

uint64_t	nsecuptime(void);
uint64_t	getnsecuptime(void);

static inline uint64_t
MSEC_TO_NSEC(uint64_t ms)
{
	return (ms > 0xffffffffffffffffULL / 1000000ULL ?
	    0xffffffffffffffffULL : ms * 1000000ULL);
}

#endif /* !_KENV_SYS_TIME_H_ */
