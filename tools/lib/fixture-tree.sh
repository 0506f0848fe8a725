# The suites of tools/mplock-patch: their fixture tree and helpers.
# Sourced.

. "$ROOT/tools/lib/vendor.sh"

FIXTURE_FILES='sys/sys/mplock.h sys/sys/sched.h sys/kern/kern_lock.c
sys/kern/init_main.c sys/conf/files sys/conf/GENERIC sys/ddb/db_command.c
sys/ddb/db_interface.h sys/arch/amd64/include/mplock.h
sys/arch/i386/include/mplock.h sys/arch/amd64/conf/GENERIC
sys/arch/amd64/conf/GENERIC.MP sys/arch/amd64/compile/Makefile.inc
share/man/man9/Makefile regress/sys/kern/Makefile'

# fixture_tree DIR: a small source tree in DIR: the files apply reads,
# edits or configures, from the vendored tree, and what that lacks: the
# other archs' MD headers (hppa's its own lock), arm64's and hppa's
# configs, an executable file (modes kept); 77 without the vendored tree.
fixture_tree() {
	_fv=$(vendor_tree openbsd-src) || return
	mkdir -p "$1" || return 1
	(
	cd "$1" || exit 1
	umask 022
	for _f in $FIXTURE_FILES; do
		mkdir -p "${_f%/*}" && cp "$_fv/$_f" "$_f" || exit 1
	done
	chmod 640 sys/conf/files
	for _a in alpha arm arm64 m88k mips64 powerpc powerpc64 riscv64 \
	    sparc64; do
		mkdir -p "sys/arch/$_a/include"
		printf '/*\tfixture\t*/\n\n#define __USE_MI_MPLOCK\n' \
		    >"sys/arch/$_a/include/mplock.h"
	done
	# The machine directories of shared CPU archs include their CPU's.
	for _m in armv7:arm luna88k:m88k loongson:mips64 octeon:mips64 \
	    macppc:powerpc; do
		mkdir -p "sys/arch/${_m%:*}/include"
		printf '/*\tfixture\t*/\n\n#include <%s/mplock.h>\n' \
		    "${_m#*:}" >"sys/arch/${_m%:*}/include/mplock.h"
	done
	mkdir -p sys/arch/hppa/include
	printf '/*\tfixture\t*/\n\nstruct __mp_lock {\n\tvolatile u_int\tmpl_lock;\n};\n' \
	    >sys/arch/hppa/include/mplock.h
	for _a in arm64 hppa; do
		_c=sys/arch/$_a/conf
		mkdir -p "$_c" "sys/arch/$_a/compile"
		printf '#\tfixture\n\noption\tDDB\n' >"$_c/GENERIC"
		printf '#\tfixture\ninclude "arch/%s/conf/GENERIC"\n%s\n' \
		    "$_a" 'option	MULTIPROCESSOR' >"$_c/GENERIC.MP"
		printf '#\tfixture\n' >"sys/arch/$_a/compile/Makefile.inc"
	done
	mkdir -p regress/sys/kern/extent
	printf '#!/bin/sh\necho fixture\n' >regress/sys/kern/extent/run.sh
	chmod 755 regress/sys/kern/extent/run.sh
	)
}

# small_root DIR [FILE...]: DIR a checkout to install from (MPLOCK_ROOT)
# of a few of this one's files, FILEs too: each kind of change apply
# makes, for a fraction of the forks.
small_root() {
	_sr=$1
	shift
	for _f in sys/sys/mplock.h sys/kern/kern_mplock.c \
	    sys/kern/kern_mplock.h sys/kern/kern_mplock_mlock.h \
	    sys/kern/kern_mplock_debug.c sys/arch/amd64/include/mplock.h \
	    share/man/man9/mplock.9 regress/sys/kern/mplock/Makefile \
	    regress/sys/kern/mplock/Makefile.backends "$@"; do
		mkdir -p "$_sr/${_f%/*}" && cp "$ROOT/$_f" "$_sr/$_f" || return
	done
}

# ft_sed FILE SCRIPT: FILE edited in place by sed SCRIPT.
ft_sed() {
	sed "$2" "$1" >"$1.new" && cat "$1.new" >"$1" && rm "$1.new"
}

# tree_sig DIR: each file's, directory's and link's path, permissions,
# and checksum and size or target: the same for the same trees.
tree_sig() {
	(cd "$1" && { find . -exec ls -ld {} + | awk '
	    /^l/ { print $(NF - 2), "P", substr($1, 1, 10), $NF; next }
	    { print $NF, "P", substr($1, 1, 10) }'
	find . -type f -exec cksum {} + | awk '{ print $3, "S", $1 "-" $2 }'
	} | LC_ALL=C sort)
}

# fixture_setup DIR SUITE: FX=DIR, DIR/tmp the TMPDIR, DIR/pristine a
# fixture tree and its .sig; else SUITE skipped or failed, and false.
fixture_setup() {
	FX=$1 TOOL=$ROOT/tools/mplock-patch
	mkdir -p "$FX/tmp" || return 1
	TMPDIR=$FX/tmp
	export TMPDIR
	unset MPLOCK_ROOT
	fixture_tree "$FX/pristine" 2>"$FX/fixture.err" &&
	    tree_sig "$FX/pristine" >"$FX/pristine.sig" && return 0
	if [ $? -eq 77 ]; then
		t_skip "$2" "$(cat "$FX/fixture.err")"
	else
		t_fail "$2" "cannot make a fixture tree" "$FX/fixture.err"
	fi
	return 1
}

# fresh NAME [FROM]: a copy of the pristine tree (or of FX/FROM).
fresh() {
	rm -rf "${FX:?}/$1"
	cp -Rp "$FX/${2:-pristine}" "$FX/$1"
	echo "$FX/$1"
}

# sig DIR: DIR's signature now, in DIR.sig, for unchanged.
sig() {
	tree_sig "$1" >"$1.sig"
}

# same_as SIGFILE DIR: DIR's signature is SIGFILE's; unchanged DIR: as
# at sig DIR; pristine DIR: the pristine tree's.
same_as() {
	tree_sig "$2" >"$2.sig.now"
	cmp -s "$1" "$2.sig.now" && return 0
	echo "tree $2 differs from $1:"
	diff "$1" "$2.sig.now" | head -n 20
	return 1
}
unchanged() {
	same_as "$1.sig" "$1"
}
pristine() {
	same_as "$FX/pristine.sig" "$1"
}

# pt ARGS: the tool, under $PTSH (sh), installing from $PT_ROOT if set.
pt() {
	MPLOCK_ROOT=${PT_ROOT:-${MPLOCK_ROOT:-}} ${PTSH:-sh} "$TOOL" "$@"
}

# fails WANT CMD...: CMD exits 1 saying WANT on stderr (in FX/err).
fails() {
	_want=$1
	shift
	"$@" >"$FX/out" 2>"$FX/err"
	_rc=$?
	[ "$_rc" -eq 1 ] || { echo "$*: exit $_rc, not 1"; return 1; }
	grep -qF -- "$_want" "$FX/err" && return 0
	echo "$*: no \"$_want\" in:"
	cat "$FX/err"
	return 1
}

# one_line FILE WORD: FILE is one line, and it says WORD.
one_line() {
	[ "$(wc -l <"$1")" -eq 1 ] && grep -q -- "$2" "$1" && return 0
	echo "not one line saying \"$2\":"
	cat "$1"
	return 1
}

# status_is N TREE: status of TREE exits N; its output in FX/out.
status_is() {
	pt status "$2" >"$FX/out" 2>"$FX/err"
	_rc=$?
	[ "$_rc" -eq "$1" ] && return 0
	echo "status $2: exit $_rc, not $1"
	cat "$FX/out" "$FX/err"
	return 1
}

# tmp_clean: the tool left nothing in TMPDIR.
tmp_clean() {
	[ -z "$(ls -A "$TMPDIR")" ] && return 0
	echo "left in TMPDIR: $(ls -A "$TMPDIR")"
	return 1
}
