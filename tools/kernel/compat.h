/*
 * Forced-include header for building OpenBSD's config(8) from
 * usr.sbin/config on Linux with glibc and libbsd (tools/lib/config8.sh).
 * The sources stay as they are; this supplies what OpenBSD's libc
 * headers would: major()/minor(), strlcpy and friends, err(3),
 * __dead, and pledge(2), which has no counterpart here (a no-op).
 * _GNU_SOURCE: glibc declares asprintf(3) only with it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sys/types.h>
#include <sys/sysmacros.h>
#include <bsd/string.h>
#include <bsd/stdlib.h>
#include <bsd/err.h>

#ifndef __dead
#define __dead	__attribute__((__noreturn__))
#endif

static inline int
pledge(const char *promises, const char *execpromises)
{
	(void)promises;
	(void)execpromises;
	return 0;
}
