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
 * /sbin/init of the booted test kernel: its loads, their lines and the
 * power-off are doc/kernel.md's, "What it does", step 5.
 */

#include "bare.h"

/* LOAD_ITERS, BUILD_*, TORTURE_WAIT: -D flags from tools/kernel.sh. */
#define MAXPROCS	64
#define MAXROUNDS	64

static __attribute__((__noreturn__)) void
poweroff(void)
{
	SC1(SYS_reboot, RB_HALT | RB_POWERDOWN | RB_NOSYNC);
	for (;;)
		sleep_ms(1000);
}

/* One load process: exits with the count of its failed opens and closes. */
static __attribute__((__noreturn__)) void
load(void)
{
	long fd;
	int i, err = 0;

	for (i = 0; i < LOAD_ITERS; i++) {
		fd = SC2(SYS_open, "/dev/null", O_RDONLY);
		if (fd < 0 || SC1(SYS_close, fd) != 0)
			err++;
	}
	SC1(SYS_exit, err < 255 ? err : 255);
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

/*
 * One round of the build-like load: jobs jobs at a time, BUILD_TASKS
 * in all, each a fork and an exec of the worker, as make -j runs cc.
 * The workers are numbered from first on, so that no two rounds share
 * a file name.  Adds to *ok and *bad; returns the round's ms.
 */
static long
build_round(int jobs, int first, int *ok, int *bad)
{
	char num[24], *argv[3], *envp[1];
	long t0, pid;
	int started = 0, running = 0, status;

	t0 = now_ms();
	for (;;) {
		while (running < jobs && started < BUILD_TASKS) {
			num[0] = '\0';
			addnum(num, first + started);
			started++;
			pid = SC0(SYS_fork);
			if (pid == 0) {
				argv[0] = "mplock_worker";
				argv[1] = num;
				argv[2] = 0;
				envp[0] = 0;
				SC3(SYS_execve, "/sbin/mplock_worker", argv,
				    envp);
				SC1(SYS_exit, 127);
			}
			if (pid < 0)
				(*bad)++;
			else
				running++;
		}
		if (running == 0)
			break;
		status = -1;
		if (SC4(SYS_wait4, -1, &status, 0, 0) < 0) {
			*bad += running;
			break;
		}
		running--;
		if (status == 0)
			(*ok)++;
		else
			(*bad)++;
	}
	return (now_ms() - t0);
}

/*
 * The build-like load and its line.  The ramdisk root is mounted
 * read-only: an update mount makes it writable, as rc's "mount -uw /".
 * Without the device's name FFS takes the update for an NFS export
 * request (ENOTSUP without NFSSERVER); MNT_FORCE only if the root is not
 * marked clean.
 */
static void
build_load(int jobs, char *line)
{
	static struct {
		const char	*fspec;		/* struct ufs_args */
		char		 export[248];	/* zero: no export change */
	} ufsargs = { "/dev/rd0a", { 0 } };
	long ms[MAXROUNDS], m, r;
	int ok = 0, bad = 0, i, j, nr = BUILD_ROUNDS;

	line[0] = '\0';
	if (nr > MAXROUNDS)
		nr = MAXROUNDS;
	addf(line, "mplock_build: %d jobs x %d execs of mplock_worker"
	    " (%d files each)", jobs, BUILD_TASKS, WORKER_FILES);
	if (BUILD_WARMUP > 0 || nr > 1)
		addf(line, ", %d warm-up and %d rounds", BUILD_WARMUP, nr);
	addstr(line, ": ");
	r = SC4(SYS_mount, "ffs", "/", MNT_UPDATE, &ufsargs);
	if (r != 0)
		r = SC4(SYS_mount, "ffs", "/", MNT_UPDATE | MNT_FORCE,
		    &ufsargs);
	if (r != 0) {
		addf(line, "mount of / read-write failed, errno %ld FAIL\n",
		    -r);
		return;
	}

	for (i = 0; i < BUILD_WARMUP; i++)
		(void)build_round(jobs, i * BUILD_TASKS, &ok, &bad);
	for (i = 0; i < nr; i++)
		ms[i] = build_round(jobs, (BUILD_WARMUP + i) * BUILD_TASKS,
		    &ok, &bad);

	addf(line, "ok %d errors %d ", ok, bad);
	if (BUILD_WARMUP > 0 || nr > 1) {
		addstr(line, "rounds ");
		for (i = 0; i < nr; i++)
			addf(line, i > 0 ? "/%ld" : "%ld", ms[i]);
		addstr(line, " ms median ");
	}
	/* The median: sorted, the middle one or the mean of the two. */
	for (i = 1; i < nr; i++)
		for (j = i; j > 0 && ms[j - 1] > ms[j]; j--) {
			m = ms[j];
			ms[j] = ms[j - 1];
			ms[j - 1] = m;
		}
	addnum(line, nr % 2 ? ms[nr / 2] : (ms[nr / 2 - 1] + ms[nr / 2]) / 2);
	addstr(line, ok == (BUILD_WARMUP + nr) * BUILD_TASKS && bad == 0 ?
	    " ms PASS\n" : " ms FAIL\n");
}

void
prog_main(long *sp)
{
	int mib[2] = { CTL_HW, HW_NCPU };
	int ncpu = 0, procs, status, i, err = 0, fail = 0;
	size_t len = sizeof(ncpu);
	char line[1024];
	long t0, pid;

	(void)sp;

	cons = SC2(SYS_open, "/dev/console", O_RDWR);
	out("mplock_init: started\n");
	if (SC6(SYS_sysctl, mib, 2, &ncpu, &len, 0, 0) != 0 || ncpu < 1)
		ncpu = 1;
	if (ncpu > MAXPROCS)
		ncpu = MAXPROCS;

	/* One load process per CPU; a signal or a failed wait fails it. */
	t0 = now_ms();
	for (procs = 0; procs < ncpu; procs++) {
		if ((pid = SC0(SYS_fork)) == 0)
			load();
		if (pid < 0)
			break;
	}
	for (i = 0; i < procs; i++) {
		status = -1;
		if (SC4(SYS_wait4, -1, &status, 0, 0) < 0 ||
		    (status & 0x7f) != 0)
			fail = 1;
		else
			err += status >> 8 & 0xff;
	}
	line[0] = '\0';
	addf(line, "mplock_load: %d procs x %d open/close: errors %d %ld ms"
	    " %s\n", procs, LOAD_ITERS, err, now_ms() - t0,
	    fail || err != 0 || procs != ncpu ? "FAIL" : "PASS");
	out(line);

	build_load(ncpu > 0 ? ncpu : 1, line);
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
