/*
 * Userland shim: lock objects as WITNESS sees them.  The values are the
 * shim's own; only the names matter to the kernel lock.
 */
#ifndef _SHIM_SYS__LOCK_H_
#define _SHIM_SYS__LOCK_H_

#define LO_INITIALIZED		0x00010000
#define LO_WITNESS		0x00020000
#define LO_RECURSABLE		0x00080000
#define LO_SLEEPABLE		0x00100000
#define LO_CLASSMASK		0x0f000000
#define LO_CLASSSHIFT		24

enum lock_class_index {
	LO_CLASS_KERNEL_LOCK,
	LO_CLASS_SCHED_LOCK,
	LO_CLASS_MUTEX
};

struct lock_type {
	const char		*lt_name;
};

struct lock_object {
	const struct lock_type	*lo_type;
	const char		*lo_name;
	unsigned int		 lo_flags;
};

#endif /* _SHIM_SYS__LOCK_H_ */
