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
 * mplock_worker JOB: one job of init's build-like load (doc/kernel.md).
 * Exit 0, or 1 after a console line naming the step.
 */

#include "bare.h"

#define BLOCK		2048

static char	in[BLOCK], blk[BLOCK], back[BLOCK];
static long	job = -1;

static __attribute__((__noreturn__)) void
bail(const char *step, long err)
{
	char line[160];

	cons = SC2(SYS_open, "/dev/console", O_WRONLY);
	line[0] = '\0';
	addf(line, "mplock_worker: job %ld: %s failed, errno %ld\n", job, step,
	    -err);
	out(line);
	SC1(SYS_exit, 1);
	for (;;)
		;
}

void
prog_main(long *sp)
{
	char **argv = (char **)(sp + 1);
	char name[64], *s;
	long fd, n, inlen, i, j;

	if (sp[0] != 2)
		bail("usage: mplock_worker JOB", 0);
	for (s = argv[1], job = 0; *s >= '0' && *s <= '9'; s++)
		job = job * 10 + *s - '0';
	fd = SC2(SYS_open, "/sbin/mplock_worker", O_RDONLY);
	if (fd < 0)
		bail("open of the input", fd);
	if ((inlen = SC3(SYS_read, fd, in, sizeof(in))) <= 0)
		bail("read of the input", inlen);
	SC1(SYS_close, fd);

	for (i = 0; i < WORKER_FILES; i++) {
		name[0] = '\0';
		addf(name, "/tmp/j%ld.%ld", job, i);
		/* Each file's own bytes: a mix-up between jobs shows. */
		for (j = 0; j < BLOCK; j++)
			blk[j] = in[j % inlen] ^ (char)(job * 31 + i * 7 + j);
		fd = SC3(SYS_open, name, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			bail("create", fd);
		if ((n = SC3(SYS_write, fd, blk, BLOCK)) != BLOCK)
			bail("write", n < 0 ? n : 0);
		if ((n = SC1(SYS_close, fd)) != 0)
			bail("close after write", n);
		fd = SC2(SYS_open, name, O_RDONLY);
		if (fd < 0)
			bail("open for reading", fd);
		if ((n = SC3(SYS_read, fd, back, BLOCK)) != BLOCK)
			bail("read back", n < 0 ? n : 0);
		for (j = 0; j < BLOCK; j++)
			if (back[j] != blk[j])
				bail("compare of what was read back", 0);
		if ((n = SC1(SYS_close, fd)) != 0)
			bail("close after read", n);
		if ((n = SC1(SYS_unlink, name)) != 0)
			bail("unlink", n);
	}
	SC1(SYS_exit, 0);
}
