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
 * disklabel IMAGE: write an OpenBSD/amd64 disklabel into sector 1 of an
 * FFS image made by makefs (which writes none), with partition "a"
 * (FFS) and "c" (the whole unit) both covering the image.  The kernel's
 * ramdisk reads its partitions from there when it mounts root on rd0a.
 * Sector 1 lies in the FFS boot area, which the file system leaves
 * unused.  Host tool; the layout is little-endian, as on amd64.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SECSIZE		512
#define LABELSECTOR	1
#define DISKMAGIC	0x82564557U
#define DTYPE_RDROOT	15
#define FS_UNUSED	0
#define FS_BSDFFS	7
#define NPART		16	/* MAXPARTITIONS on amd64 */
#define PART_OFF	148	/* offset of d_partitions in the label */
#define PART_SIZE	16

static void
put16(unsigned char *p, uint16_t v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

static void
put32(unsigned char *p, uint32_t v)
{
	put16(p, v & 0xffff);
	put16(p + 2, v >> 16);
}

static void
partition(unsigned char *l, int i, uint32_t size, uint8_t fstype)
{
	unsigned char *p = l + PART_OFF + i * PART_SIZE;

	put32(p, size);		/* p_size */
	put32(p + 4, 0);	/* p_offset */
	p[12] = fstype;		/* p_fstype */
}

int
main(int argc, char *argv[])
{
	unsigned char l[SECSIZE];
	uint16_t sum = 0;
	uint32_t nsec;
	FILE *f;
	long sz;
	int i, len;

	if (argc != 2) {
		fprintf(stderr, "usage: disklabel image\n");
		return 2;
	}
	if ((f = fopen(argv[1], "r+b")) == NULL) {
		perror(argv[1]);
		return 1;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (sz = ftell(f)) < 0) {
		perror(argv[1]);
		return 1;
	}
	if (sz % SECSIZE != 0 || sz < 16 * SECSIZE) {
		fprintf(stderr, "disklabel: %s: size %ld is not a whole number"
		    " of sectors (16 at least)\n", argv[1], sz);
		return 1;
	}
	nsec = sz / SECSIZE;

	memset(l, 0, sizeof(l));
	put32(l, DISKMAGIC);			/* d_magic */
	put16(l + 4, DTYPE_RDROOT);		/* d_type */
	memcpy(l + 8, "rdroot", 6);		/* d_typename */
	memcpy(l + 24, "mplock", 6);		/* d_packname */
	put32(l + 40, SECSIZE);			/* d_secsize */
	put32(l + 44, nsec);			/* d_nsectors */
	put32(l + 48, 1);			/* d_ntracks */
	put32(l + 52, 1);			/* d_ncylinders */
	put32(l + 56, nsec);			/* d_secpercyl */
	put32(l + 60, nsec);			/* d_secperunit */
	put32(l + 80, 0);			/* d_bstart */
	put32(l + 84, nsec);			/* d_bend */
	put16(l + 114, 1);			/* d_version */
	put32(l + 132, DISKMAGIC);		/* d_magic2 */
	put16(l + 138, NPART);			/* d_npartitions */
	partition(l, 0, nsec, FS_BSDFFS);
	partition(l, 2, nsec, FS_UNUSED);

	/* d_checksum: the xor of the label's 16-bit words up to the end
	 * of the partition table, computed with the field zero. */
	len = PART_OFF + NPART * PART_SIZE;
	for (i = 0; i < len; i += 2)
		sum ^= l[i] | l[i + 1] << 8;
	put16(l + 136, sum);

	if (fseek(f, LABELSECTOR * SECSIZE, SEEK_SET) != 0 ||
	    fwrite(l, 1, sizeof(l), f) != sizeof(l) || fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
