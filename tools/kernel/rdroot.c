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
 * rdroot KERNEL IMAGE: put a file system image into an OpenBSD/amd64
 * kernel's ramdisk: copy IMAGE over the array rd_root_image[] and set
 * rd_root_size to its length.  Both are found through the kernel's ELF
 * symbol table; a symbol's file offset is its address's offset in the
 * section holding it.  The kernel is changed only when everything is
 * found and the image fits.  Host tool (little-endian ELF64).
 */

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char	*k;
static long		 klen;

static void
die(const char *m)
{
	fprintf(stderr, "rdroot: %s\n", m);
	exit(1);
}

static unsigned char *
slurp(const char *path, long *len)
{
	unsigned char *b;
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL || fseek(f, 0, SEEK_END) != 0 ||
	    (*len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		perror(path);
		exit(1);
	}
	if ((b = malloc(*len ? *len : 1)) == NULL)
		die("out of memory");
	if (fread(b, 1, *len, f) != (size_t)*len) {
		perror(path);
		exit(1);
	}
	fclose(f);
	return b;
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
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: rdroot kernel image\n");
		return 2;
	}
	k = slurp(argv[1], &klen);
	img = slurp(argv[2], &ilen);
	eh = (Elf64_Ehdr *)k;
	if (klen < (long)sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_machine != EM_X86_64)
		die("not a little-endian x86_64 ELF64 kernel");
	lookup("rd_root_image", &ioff, &isize);
	lookup("rd_root_size", &soff, &ssize);
	if (ssize != 4)
		die("rd_root_size is not 4 bytes");
	if ((uint64_t)ilen > isize) {
		fprintf(stderr, "rdroot: %s: %ld bytes, rd_root_image holds "
		    "%llu (MINIROOTSIZE)\n", argv[2], ilen,
		    (unsigned long long)isize);
		return 1;
	}
	memcpy(k + ioff, img, ilen);
	v = (uint32_t)ilen;
	memcpy(k + soff, &v, 4);
	if ((f = fopen(argv[1], "r+b")) == NULL ||
	    fwrite(k, 1, klen, f) != (size_t)klen || fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
