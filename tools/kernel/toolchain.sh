# toolchain_setup DIR: the stand-ins under DIR (bin/, mk/) with which a
# Linux host's clang, ld.lld and bmake build an OpenBSD/amd64 kernel and
# pxeboot from an unedited tree (its Makefiles, -Werror and all); sets
# KMAKE, the make command line, and KPATH, the PATH to run it with.
# Each stand-in says why it is there.  DEBUG= (no -g): a -g build runs
# ctfconv, which Linux lacks; the link's -S keeps the symbol table.
# Sourced by tools/kernel.sh and the kernelbench suite.

toolchain_setup() {
	_tc=$1
	rm -rf "$_tc.tmp"
	mkdir -p "$_tc.tmp/bin" "$_tc.tmp/mk" || return 1

	cat >"$_tc.tmp/bin/cc" <<'EOF'
#!/bin/sh
# clang for the kernel's own target, less what only OpenBSD's clang
# knows (-msave-args: ddb's frames; the others return-address
# hardening); -Wno-pointer-sign is OpenBSD clang's default (libsa).
for a do
	shift
	case $a in
	-msave-args|-fret-clean|-fno-ret-protector)	;;
	*)	set -- "$@" "$a" ;;
	esac
done
exec clang --target=x86_64-unknown-openbsd -Wno-pointer-sign "$@"
EOF
	cat >"$_tc.tmp/bin/ld" <<'EOF'
#!/bin/sh
# kernel ld: ld.lld; "-nopie" is OpenBSD's ld.lld's spelling.
for a do
	shift
	case $a in
	-nopie)	set -- "$@" --no-pie ;;
	*)	set -- "$@" "$a" ;;
	esac
done
exec ld.lld "$@"
EOF
	cat >"$_tc.tmp/bin/sysctl" <<'EOF'
#!/bin/sh
# makegap.sh asks only for the page size.
case "$*" in
"-n hw.pagesize")	echo 4096 ;;
*)	echo "sysctl stand-in: $*: not supported" >&2; exit 1 ;;
esac
EOF
	cat >"$_tc.tmp/bin/jot" <<'EOF'
#!/bin/sh
# makegap.sh: "jot -r 1 LO HI", one random number in [LO, HI].
[ "$1" = -r ] && [ "$2" = 1 ] && [ $# -eq 4 ] || {
	echo "jot stand-in: $*: not supported" >&2; exit 1; }
awk -v lo="$3" -v hi="$4" 'BEGIN { srand(); print lo + int(rand() * (hi - lo + 1)) }'
EOF
	# OpenBSD's sh is ksh: locore.o's rule and makegap.sh use "[[".
	ln -s "$(command -v bash)" "$_tc.tmp/bin/sh"
	chmod 755 "$_tc.tmp/bin/cc" "$_tc.tmp/bin/ld" "$_tc.tmp/bin/sysctl" \
	    "$_tc.tmp/bin/jot"

	cat >"$_tc.tmp/mk/sys.mk" <<EOF
# Stand-in for OpenBSD's sys.mk: its shell is ksh; bash is the nearest.
.SHELL: name=sh path=$(command -v bash)
EOF
	cat >"$_tc.tmp/mk/bsd.own.mk" <<EOF
# Stand-in for OpenBSD's bsd.own.mk: what the kernel Makefile reads.
# (share/mk is not in the tree.)
COMPILER_VERSION=clang
CC=$_tc/bin/cc
HOSTCC=cc
LD=$_tc/bin/ld
OBJCOPY=llvm-objcopy
NOPIE_FLAGS=-fno-pie
MACHINE=amd64
MACHINE_ARCH=amd64
EOF
	cat >"$_tc.tmp/mk/bsd.prog.mk" <<'EOF'
# Stand-in for OpenBSD's bsd.prog.mk: enough to build a boot program
# (../Makefile.inc, the objects from SRCS, the suffix rules).
.if exists(${.CURDIR}/../Makefile.inc)
.include "${.CURDIR}/../Makefile.inc"
.endif
OBJS+=	${SRCS:N*.h:R:S/$/.o/}
all: ${PROG}
${PROG}: ${OBJS}
.SUFFIXES: .o .c .S
.c.o:
	${CC} ${CFLAGS} ${CPPFLAGS} -c ${.IMPSRC} -o ${.TARGET}
.S.o:
	${CC} ${AFLAGS} ${CPPFLAGS} -c ${.IMPSRC} -o ${.TARGET}
EOF
	rm -rf "$_tc" && mv "$_tc.tmp" "$_tc" || return 1
	KPATH=$_tc/bin:$PATH
	KMAKE="bmake -m $_tc/mk DEBUG="
}

# bare_build NAME DIR [FLAG...]: tools/kernel/NAME.c, static and without
# libc (bare.h), linked as DIR/NAME.
bare_build() {
	_bn=$1 _bd=$2
	shift 2
	clang --target=x86_64-unknown-openbsd -std=c99 -O2 -Wall -Werror \
	    -ffreestanding -fno-builtin -fno-stack-protector -fno-pie \
	    -fcf-protection=none -fno-asynchronous-unwind-tables -nostdinc \
	    -I"$ROOT/tools/kernel" "$@" -c "$ROOT/tools/kernel/$_bn.c" \
	    -o "$_bd/$_bn.o" &&
	    ld.lld -static --no-pie -nostdlib -T "$ROOT/tools/kernel/init.ld" \
	    -o "$_bd/$_bn" "$_bd/$_bn.o"
}
