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
 * rdroot KERNEL IMAGE: load an FFS image made by makefs into an
 * OpenBSD/amd64 kernel's ramdisk (doc/kernel.md).  makefs writes no
 * disklabel: one goes into sector 1 for root on rd0a (in the kernel's
 * copy).  Nothing is written unless all is found and the image fits.
 */

#include <sys/mman.h>
#include <sys/stat.h>

#include <elf.h>
#include <fcntl.h>
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

static unsigned char	*k;
static long		 klen;

static void
die(const char *m)
{
	fprintf(stderr, "rdroot: %s\n", m);
	exit(1);
}

/* PATH mapped: with rw, the file itself; without, a private copy. */
static unsigned char *
map(const char *path, long *len, int rw)
{
	struct stat st;
	void *p = MAP_FAILED;
	int fd;

	if ((fd = open(path, rw ? O_RDWR : O_RDONLY)) != -1 &&
	    fstat(fd, &st) != -1)
		p = mmap(NULL, st.st_size > 0 ? st.st_size : 1,
		    PROT_READ | PROT_WRITE, rw ? MAP_SHARED : MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		perror(path);
		exit(1);
	}
	*len = st.st_size;
	return p;
}

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

/* Partition i of label l: all nsec sectors, from sector 0. */
static void
partition(unsigned char *l, int i, uint32_t nsec, uint8_t fstype)
{
	unsigned char *p = l + PART_OFF + i * PART_SIZE;

	put32(p, nsec);		/* p_size */
	put32(p + 4, 0);	/* p_offset */
	p[12] = fstype;		/* p_fstype */
}

static void
label(unsigned char *l, uint32_t nsec)
{
	uint16_t sum = 0;
	int i;

	memset(l, 0, SECSIZE);
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
	put32(l + 84, nsec);			/* d_bend */
	put16(l + 114, 1);			/* d_version */
	put32(l + 132, DISKMAGIC);		/* d_magic2 */
	put16(l + 138, NPART);			/* d_npartitions */
	partition(l, 0, nsec, FS_BSDFFS);
	partition(l, 2, nsec, FS_UNUSED);
	/* d_checksum: xor of the 16-bit words up to the partitions' end. */
	for (i = 0; i < PART_OFF + NPART * PART_SIZE; i += 2)
		sum ^= l[i] | l[i + 1] << 8;
	put16(l + 136, sum);
}

static Elf64_Shdr *
shdr(int i)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)k;

	if (eh->e_shoff + (uint64_t)(i + 1) * sizeof(Elf64_Shdr) >
	    (uint64_t)klen)
		die("section headers past the end of the file");
	return (Elf64_Shdr *)(k + eh->e_shoff) + i;
}

/* The symbol NAME: its file offset and size. */
static void
lookup(const char *name, long *off, uint64_t *size)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)k;
	Elf64_Shdr *sh, *st, *s;
	Elf64_Sym *sym;
	uint64_t n, j;
	int i;

	for (i = 0; i < eh->e_shnum; i++) {
		sh = shdr(i);
		if (sh->sh_type != SHT_SYMTAB)
			continue;
		st = shdr(sh->sh_link);
		if (sh->sh_offset + sh->sh_size > (uint64_t)klen ||
		    st->sh_offset + st->sh_size > (uint64_t)klen)
			die("symbol table past the end of the file");
		n = sh->sh_size / sizeof(Elf64_Sym);
		for (j = 0; j < n; j++) {
			sym = (Elf64_Sym *)(k + sh->sh_offset) + j;
			if (sym->st_name >= st->sh_size ||
			    strcmp((char *)k + st->sh_offset + sym->st_name,
			    name) != 0)
				continue;
			if (sym->st_shndx == SHN_UNDEF ||
			    sym->st_shndx >= eh->e_shnum)
				die("symbol in no section");
			s = shdr(sym->st_shndx);
			if (s->sh_type != SHT_PROGBITS ||
			    sym->st_value < s->sh_addr ||
			    sym->st_value + sym->st_size >
			    s->sh_addr + s->sh_size)
				die("symbol not in its section's file data");
			*off = s->sh_offset + (sym->st_value - s->sh_addr);
			*size = sym->st_size;
			return;
		}
	}
	fprintf(stderr, "rdroot: %s: not in the symbol table\n", name);
	exit(1);
}

int
main(int argc, char *argv[])
{
	Elf64_Ehdr *eh;
	unsigned char *img;
	long ilen, ioff, soff;
	uint64_t isize, ssize;
	uint32_t v;

	if (argc != 3) {
		fprintf(stderr, "usage: rdroot kernel image\n");
		return 1;
	}
	k = map(argv[1], &klen, 1);
	img = map(argv[2], &ilen, 0);
	eh = (Elf64_Ehdr *)k;
	if (klen < (long)sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_machine != EM_X86_64)
		die("not a little-endian x86_64 ELF64 kernel");
	lookup("rd_root_image", &ioff, &isize);
	lookup("rd_root_size", &soff, &ssize);
	if (ssize != 4)
		die("rd_root_size is not 4 bytes");
	if (ilen % SECSIZE != 0 || ilen < 16 * SECSIZE) {
		fprintf(stderr, "rdroot: %s: size %ld is not a whole number"
		    " of sectors (16 at least)\n", argv[2], ilen);
		return 1;
	}
	if ((uint64_t)ilen > isize) {
		fprintf(stderr, "rdroot: %s: %ld bytes, rd_root_image holds "
		    "%llu (MINIROOTSIZE)\n", argv[2], ilen,
		    (unsigned long long)isize);
		return 1;
	}
	label(img + LABELSECTOR * SECSIZE, ilen / SECSIZE);
	memcpy(k + ioff, img, ilen);
	v = (uint32_t)ilen;
	memcpy(k + soff, &v, 4);
	return 0;
}
