# Building an OpenBSD/amd64 kernel with a Linux host's toolchain
# (clang, ld.lld, bmake): every substitution the kernel build needs, in
# this one place, with the reason for each.  Sourced by tools/kernel.sh
# after common.sh.  Nothing here edits the OpenBSD tree: the tree's
# generated Makefile and Makefile.amd64 run as they are, -Werror and
# all warning flags included.
#
# toolchain_setup DIR
#	Write the stand-ins under DIR (bin/ and mk/) and set KMAKE, the
#	make command line for a compile directory, and KPATH, the PATH
#	to run it with.
#
# The substitutions:
#  1. cc: clang with --target=x86_64-unknown-openbsd (the kernel's
#     own target: OpenBSD's defaults for the ABI and stack protector),
#     without the flags only OpenBSD's patched clang knows:
#     -msave-args (DDB kernels, a frame layout for ddb's traces),
#     -fret-clean and -fno-ret-protector (return-address hardening).
#     Dropping them changes no code path of the kernel lock.  And
#     -Wno-pointer-sign first: OpenBSD's clang has it off by default
#     (pxeboot's libsa relies on that; the kernel passes it anyway).
#  2. ld: ld.lld, with the Makefile's "-nopie" spelt "--no-pie" (the
#     spelling of OpenBSD's ld.lld only).
#  3. make's shell: bash, named sh, instead of dash: OpenBSD's sh is
#     ksh, and the locore.o rule's iretq check uses "[[".  A "sh" in
#     PATH does the same for the scripts the Makefile runs with "sh"
#     (makegap.sh uses "[[" and "local").
#  4. bsd.own.mk, sys.mk and bsd.prog.mk: OpenBSD's share/mk is not in
#     the tree; the stand-ins define what the kernel Makefile and
#     pxeboot's Makefile read from them (COMPILER_VERSION, the tools'
#     names, NOPIE_FLAGS, MACHINE; for pxeboot, OBJS from SRCS and the
#     .c/.S rules).  pxeboot's .S files go through GNU as, as its
#     Makefile asks (-no-integrated-as).
#  5. DEBUG= (no -g): a -g build runs ctfconv/ctfstrip, which Linux
#     lacks.  The link then uses -S, which drops debug sections only:
#     the symbol table the watchdog symbolizes RIPs with stays.
#  6. sysctl and jot for makegap.sh: "sysctl -n hw.pagesize" (4096 on
#     amd64) and "jot -r 1 LO HI" (one random number; the gap's size is
#     random on OpenBSD too).

toolchain_setup() {
	_tc=$1
	rm -rf "$_tc.tmp"
	mkdir -p "$_tc.tmp/bin" "$_tc.tmp/mk" || return 1

	cat >"$_tc.tmp/bin/cc" <<'EOF'
#!/bin/sh
# kernel cc: clang for OpenBSD/amd64 without OpenBSD-clang-only flags.
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
	ln -s "$(command -v bash)" "$_tc.tmp/bin/sh"
	chmod 755 "$_tc.tmp/bin/cc" "$_tc.tmp/bin/ld" "$_tc.tmp/bin/sysctl" \
	    "$_tc.tmp/bin/jot"

	cat >"$_tc.tmp/mk/sys.mk" <<EOF
# Stand-in for OpenBSD's sys.mk: its shell is ksh; bash is the nearest.
.SHELL: name=sh path=$(command -v bash)
EOF
	cat >"$_tc.tmp/mk/bsd.own.mk" <<EOF
# Stand-in for OpenBSD's bsd.own.mk: what the kernel Makefile reads.
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
