/* Userland shim: the system's <sys/time.h> and the kernel's uptime. */
#ifndef _SHIM_SYS_TIME_H_
#define _SHIM_SYS_TIME_H_

#ifndef _KERNEL
#include_next <sys/time.h>
#endif
#include <stdint.h>

uint64_t	nsecuptime(void);

static inline uint64_t
MSEC_TO_NSEC(uint64_t ms)
{
	return (ms > UINT64_MAX / 1000000ULL ? UINT64_MAX : ms * 1000000ULL);
}

#endif /* _SHIM_SYS_TIME_H_ */
