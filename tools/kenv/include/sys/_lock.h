/* kenv: lock objects as WITNESS sees them. */
#ifndef _KENV_SYS__LOCK_H_
#define _KENV_SYS__LOCK_H_

#define LO_CLASSFLAGS		0x0000ffff
#define LO_INITIALIZED		0x00010000
#define LO_WITNESS		0x00020000
#define LO_QUIET		0x00040000
#define LO_RECURSABLE		0x00080000
#define LO_SLEEPABLE		0x00100000
#define LO_UPGRADABLE		0x00200000
#define LO_DUPOK		0x00400000
#define LO_IS_VNODE		0x00800000
#define LO_CLASSMASK		0x0f000000
#define LO_NOPROFILE		0x10000000
#define LO_NEW			0x20000000
#define LO_CLASSSHIFT		24

enum lock_class_index {
	LO_CLASS_KERNEL_LOCK,
	LO_CLASS_SCHED_LOCK,
	LO_CLASS_MUTEX,
	LO_CLASS_RWLOCK,
	LO_CLASS_RRWLOCK
};

struct lock_type {
	const char		*lt_name;
};

struct lock_object {
	const struct lock_type	*lo_type;
	const char		*lo_name;
	struct witness		*lo_witness;
	uint32_t		 lo_flags;
};

#endif /* !_KENV_SYS__LOCK_H_ */
