/* kenv: freestanding kernel types. */
#ifndef _KENV_SYS_TYPES_H_
#define _KENV_SYS_TYPES_H_

typedef unsigned char		u_char;
typedef unsigned short		u_short;
typedef unsigned int		u_int;
typedef unsigned long		u_long;
typedef __INT8_TYPE__		int8_t;
typedef __UINT8_TYPE__		uint8_t;
typedef __INT16_TYPE__		int16_t;
typedef __UINT16_TYPE__		uint16_t;
typedef __INT32_TYPE__		int32_t;
typedef __UINT32_TYPE__		uint32_t;
typedef __INT64_TYPE__		int64_t;
typedef __UINT64_TYPE__		uint64_t;
typedef uint8_t			u_int8_t;
typedef uint16_t		u_int16_t;
typedef uint32_t		u_int32_t;
typedef uint64_t		u_int64_t;
typedef __SIZE_TYPE__		size_t;
typedef long			ssize_t;
typedef __INTPTR_TYPE__		intptr_t;
typedef __UINTPTR_TYPE__	uintptr_t;
typedef unsigned long		vaddr_t;
typedef unsigned long		paddr_t;
typedef long			register_t;

#endif /* !_KENV_SYS_TYPES_H_ */
