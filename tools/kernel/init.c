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
 * /sbin/init of the booted test kernel (tools/kernel.sh): OpenBSD/amd64,
 * static, without libc.  It puts a userland load on the kernel lock:
 * one process per CPU, each opening and closing /dev/null LOAD_ITERS
 * times (vn_open and vn_close take the kernel lock), and checks the
 * counts each process reports through a pipe.  With TORTURE_WAIT
 * (seconds) it then waits for the kernel torture's summary line in the
 * message buffer.  It prints one line,
 *	mplock_load: N procs x M open/close: c0/c1/... errors E TIME ms PASS
 * (or FAIL), a line saying whether the torture reported, and powers
 * the machine off.
 *
 * Built with clang --target=x86_64-unknown-openbsd -ffreestanding and
 * linked with init.ld, which gives the program the segments OpenBSD
 * wants: the OpenBSD ELF note and the PT_OPENBSD_SYSCALLS table that
 * pins each system call number to the one syscall instruction here.
 */

#ifndef LOAD_ITERS
#define LOAD_ITERS	300
#endif
#ifndef TORTURE_WAIT
#define TORTURE_WAIT	0
#endif
#define MAXPROCS	64

/* OpenBSD system call numbers (sys/kern/syscalls.master). */
#define SYS_exit		1
#define SYS_fork		2
#define SYS_read		3
#define SYS_write		4
#define SYS_open		5
#define SYS_close		6
#define SYS_wait4		11
#define SYS_reboot		55
#define SYS_clock_gettime	87
#define SYS_nanosleep		91
#define SYS_sysctl		202
#define SYS_pipe		263

#define O_RDONLY	0
#define O_RDWR		2
#define CTL_KERN	1
#define KERN_MSGBUF	48
#define CTL_HW		6
#define HW_NCPU		3
#define RB_NOSYNC	0x0004
#define RB_HALT		0x0008
#define RB_POWERDOWN	0x1000
#define CLOCK_MONOTONIC	3

typedef unsigned long size_t;

struct timespec {
	long	tv_sec;
	long	tv_nsec;
};

/*
 * long sc(number, a1, ..., a6): the one syscall instruction.  The
 * kernel sets the carry flag on an error and returns the errno in
 * %rax; here that becomes -errno.  The 4th argument goes in %r10.
 */
long	sc(long, long, long, long, long, long, long);
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
	".long sc_insn, 1\n"
	".long sc_insn, 2\n"
	".long sc_insn, 3\n"
	".long sc_insn, 4\n"
	".long sc_insn, 5\n"
	".long sc_insn, 6\n"
	".long sc_insn, 11\n"
	".long sc_insn, 55\n"
	".long sc_insn, 87\n"
	".long sc_insn, 91\n"
	".long sc_insn, 202\n"
	".long sc_insn, 263\n"
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
	"	andq $-16, %rsp\n"
	"	call init_main\n"
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

static size_t
slen(const char *s)
{
	size_t n = 0;

	while (s[n] != '\0')
		n++;
	return (n);
}

static void
out(const char *s)
{
	if (cons >= 0)
		SC3(SYS_write, cons, s, slen(s));
}

/* Append the decimal of v to the string in buf (room assumed). */
static void
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

static void
addstr(char *buf, const char *s)
{
	buf += slen(buf);
	while ((*buf++ = *s++) != '\0')
		;
}

static long
now_ms(void)
{
	struct timespec ts;

	if (SC2(SYS_clock_gettime, CLOCK_MONOTONIC, &ts) != 0)
		return (0);
	return (ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static void
sleep_ms(long ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000;
	SC2(SYS_nanosleep, &ts, 0);
}

static __attribute__((__noreturn__)) void
poweroff(void)
{
	SC1(SYS_reboot, RB_HALT | RB_POWERDOWN | RB_NOSYNC);
	for (;;)
		sleep_ms(1000);
}

/* What one load process reports to init. */
struct report {
	int	idx;
	int	ok;
	int	err;
};

static __attribute__((__noreturn__)) void
load(int idx, int wfd)
{
	struct report r;
	long fd;
	int i;

	r.idx = idx;
	r.ok = r.err = 0;
	for (i = 0; i < LOAD_ITERS; i++) {
		fd = SC2(SYS_open, "/dev/null", O_RDONLY);
		if (fd < 0) {
			r.err++;
			continue;
		}
		if (SC1(SYS_close, fd) == 0)
			r.ok++;
		else
			r.err++;
	}
	SC3(SYS_write, wfd, &r, sizeof(r));
	SC1(SYS_exit, r.err != 0);
	for (;;)
		;
}

static char	msgbuf[256 * 1024];

/*
 * Look for the torture's summary in the kernel message buffer; 1 when
 * a whole line beginning "mplock_torture: " is there.
 */
static int
torture_reported(void)
{
	int mib[2] = { CTL_KERN, KERN_MSGBUF };
	static const char key[] = "mplock_torture: ";
	size_t len = sizeof(msgbuf), i, j;

	if (SC6(SYS_sysctl, mib, 2, msgbuf, &len, 0, 0) != 0)
		return (0);
	for (i = 0; i + sizeof(key) - 1 <= len; i++) {
		for (j = 0; key[j] != '\0' && msgbuf[i + j] == key[j]; j++)
			;
		if (key[j] != '\0')
			continue;
		for (j = i; j < len; j++)
			if (msgbuf[j] == '\n')
				return (1);
	}
	return (0);
}

void
init_main(void)
{
	struct report r;
	int mib[2] = { CTL_HW, HW_NCPU };
	int ncpu = 0, fds[2], status, n, i, fail = 0;
	int ok[MAXPROCS], err[MAXPROCS], seen[MAXPROCS];
	size_t len = sizeof(ncpu);
	char line[1024];
	long t0, pid;

	cons = SC2(SYS_open, "/dev/console", O_RDWR);
	out("mplock_init: started\n");
	if (SC6(SYS_sysctl, mib, 2, &ncpu, &len, 0, 0) != 0 || ncpu < 1)
		ncpu = 1;
	if (ncpu > MAXPROCS)
		ncpu = MAXPROCS;
	if (SC1(SYS_pipe, fds) != 0) {
		out("mplock_load: pipe failed FAIL\n");
		poweroff();
	}
	for (i = 0; i < ncpu; i++)
		ok[i] = err[i] = seen[i] = 0;

	t0 = now_ms();
	for (i = 0; i < ncpu; i++) {
		pid = SC0(SYS_fork);
		if (pid == 0) {
			SC1(SYS_close, fds[0]);
			load(i, fds[1]);
		}
		if (pid < 0) {
			fail = 1;
			ncpu = i;
			break;
		}
	}
	SC1(SYS_close, fds[1]);
	for (n = 0; n < ncpu; n++) {
		if (SC3(SYS_read, fds[0], &r, sizeof(r)) != sizeof(r))
			break;
		if (r.idx < 0 || r.idx >= ncpu || seen[r.idx]) {
			fail = 1;
			continue;
		}
		seen[r.idx] = 1;
		ok[r.idx] = r.ok;
		err[r.idx] = r.err;
	}
	for (n = 0; n < ncpu; n++) {
		status = -1;
		if (SC4(SYS_wait4, -1, &status, 0, 0) < 0 || status != 0)
			fail = 1;
	}

	line[0] = '\0';
	addstr(line, "mplock_load: ");
	addnum(line, ncpu);
	addstr(line, " procs x ");
	addnum(line, LOAD_ITERS);
	addstr(line, " open/close: ");
	for (i = 0; i < ncpu; i++) {
		if (i > 0)
			addstr(line, "/");
		addnum(line, ok[i]);
		if (!seen[i] || ok[i] != LOAD_ITERS || err[i] != 0)
			fail = 1;
	}
	n = 0;
	for (i = 0; i < ncpu; i++)
		n += err[i];
	addstr(line, " errors ");
	addnum(line, n);
	addstr(line, " ");
	addnum(line, now_ms() - t0);
	addstr(line, fail ? " ms FAIL\n" : " ms PASS\n");
	out(line);

	if (TORTURE_WAIT > 0) {
		for (i = 0; i < TORTURE_WAIT * 4 && !torture_reported(); i++)
			sleep_ms(250);
		out(i < TORTURE_WAIT * 4 ? "mplock_init: torture reported\n" :
		    "mplock_init: no torture summary FAIL\n");
	}
	out("mplock_init: powering off\n");
	poweroff();
}
