/*
 * Copyright (c) 2026 The mplock authors
 *
 * Permission to use, copy, modify, and distribute this software for any
 * purpose with or without fee is hereby granted, provided that the above
 * copyright notice and this permission notice appear in all copies.
 *
 * THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
 * WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
 * MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
 * ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
 * WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
 * ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
 * OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
 */

/*
 * What init.c and worker.c, static programs without libc, share
 * (doc/kernel.md): the syscall, the ELF note, PT_OPENBSD_SYSCALLS,
 * _start and a few helpers.  Each defines prog_main(long *sp), sp
 * pointing at argc, argv[], 0, envp[].
 */

/* OpenBSD system call numbers (sys/kern/syscalls.master). */
#define SYS_exit		1
#define SYS_fork		2
#define SYS_read		3
#define SYS_write		4
#define SYS_open		5
#define SYS_close		6
#define SYS_unlink		10
#define SYS_wait4		11
#define SYS_mount		21
#define SYS_reboot		55
#define SYS_execve		59
#define SYS_clock_gettime	87
#define SYS_nanosleep		91
#define SYS_sysctl		202

#define O_RDONLY	0x0000
#define O_WRONLY	0x0001
#define O_RDWR		0x0002
#define O_CREAT		0x0200
#define O_EXCL		0x0800
#define CTL_KERN	1
#define KERN_MSGBUF	48
#define CTL_HW		6
#define HW_NCPU		3
#define RB_NOSYNC	0x0004
#define RB_HALT		0x0008
#define RB_POWERDOWN	0x1000
#define CLOCK_MONOTONIC	3
#define MNT_FORCE	0x00080000
#define MNT_UPDATE	0x00010000

#define WORKER_FILES	8	/* each job of the worker's */

/* Helpers one program uses and the other not: no unused warnings. */
#define BARE_FN		static __attribute__((__unused__))

typedef unsigned long size_t;

struct timespec {
	long	tv_sec;
	long	tv_nsec;
};

/*
 * long sc(number, a1, ..., a6): the one syscall instruction.  The
 * kernel sets the carry flag on an error and returns the errno in
 * %rax; here that becomes -errno.  The 4th argument goes in %r10.
 * _start passes the initial stack pointer (argc, argv, envp) on: the
 * kernel's setregs() leaves %rdi zero.
 */
long	sc(long, long, long, long, long, long, long);
void	prog_main(long *);
__asm__(
	".text\n"
	".globl sc\n"
	".type sc,@function\n"
	"sc:\n"
	"	movq %rdi, %rax\n"
	"	movq %rsi, %rdi\n"
	"	movq %rdx, %rsi\n"
	"	movq %rcx, %rdx\n"
	"	movq %r8, %r10\n"
	"	movq %r9, %r8\n"
	"	movq 8(%rsp), %r9\n"
	".globl sc_insn\n"
	"sc_insn:\n"
	"	syscall\n"
	"	jnc 1f\n"
	"	negq %rax\n"
	"1:	ret\n"
	/* PT_OPENBSD_SYSCALLS: {address of syscall, number} pairs. */
	".section .openbsd.syscalls,\"a\"\n"
	".p2align 2\n"
	".long sc_insn, 1, sc_insn, 2, sc_insn, 3, sc_insn, 4\n"
	".long sc_insn, 5, sc_insn, 6, sc_insn, 10, sc_insn, 11\n"
	".long sc_insn, 21, sc_insn, 55, sc_insn, 59, sc_insn, 87\n"
	".long sc_insn, 91, sc_insn, 202\n"
	/* The OpenBSD ELF note: name "OpenBSD", type 1, a zero word. */
	".section .note.openbsd.ident,\"a\",@note\n"
	".p2align 2\n"
	".long 8, 4, 1\n"
	".asciz \"OpenBSD\"\n"
	".long 0\n"
	".text\n"
	".globl _start\n"
	"_start:\n"
	"	xorl %ebp, %ebp\n"
	"	movq %rsp, %rdi\n"
	"	andq $-16, %rsp\n"
	"	call prog_main\n"
	"	hlt\n");

#define SC0(n)			sc((n), 0, 0, 0, 0, 0, 0)
#define SC1(n, a)		sc((n), (long)(a), 0, 0, 0, 0, 0)
#define SC2(n, a, b)		sc((n), (long)(a), (long)(b), 0, 0, 0, 0)
#define SC3(n, a, b, c)		sc((n), (long)(a), (long)(b), (long)(c), \
				    0, 0, 0)
#define SC4(n, a, b, c, d)	sc((n), (long)(a), (long)(b), (long)(c), \
				    (long)(d), 0, 0)
#define SC6(n, a, b, c, d, e, f) sc((n), (long)(a), (long)(b), (long)(c), \
				    (long)(d), (long)(e), (long)(f))

static int	cons = -1;

BARE_FN size_t
slen(const char *s)
{
	size_t n = 0;

	while (s[n] != '\0')
		n++;
	return (n);
}

BARE_FN void
out(const char *s)
{
	if (cons >= 0)
		SC3(SYS_write, cons, s, slen(s));
}

/* Append the decimal of v to the string in buf (room assumed). */
BARE_FN void
addnum(char *buf, long v)
{
	char d[24];
	int i = 0;

	buf += slen(buf);
	if (v < 0) {
		*buf++ = '-';
		v = -v;
	}
	do {
		d[i++] = '0' + v % 10;
		v /= 10;
	} while (v != 0);
	while (i > 0)
		*buf++ = d[--i];
	*buf = '\0';
}

BARE_FN void
addstr(char *buf, const char *s)
{
	buf += slen(buf);
	while ((*buf++ = *s++) != '\0')
		;
}

/* Append fmt to buf, with %d an int, %ld a long, %s a string. */
BARE_FN void
addf(char *buf, const char *fmt, ...)
{
	__builtin_va_list ap;
	char c[2] = { '\0', '\0' };

	__builtin_va_start(ap, fmt);
	for (; *fmt != '\0'; fmt++) {
		if (*fmt != '%') {
			c[0] = *fmt;
			addstr(buf, c);
		} else if (*++fmt == 's')
			addstr(buf, __builtin_va_arg(ap, const char *));
		else if (*fmt == 'd')
			addnum(buf, __builtin_va_arg(ap, int));
		else if (*fmt == 'l' && *++fmt == 'd')
			addnum(buf, __builtin_va_arg(ap, long));
	}
	__builtin_va_end(ap);
}

BARE_FN long
now_ms(void)
{
	struct timespec ts;

	if (SC2(SYS_clock_gettime, CLOCK_MONOTONIC, &ts) != 0)
		return (0);
	return (ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

BARE_FN void
sleep_ms(long ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000;
	SC2(SYS_nanosleep, &ts, 0);
}
