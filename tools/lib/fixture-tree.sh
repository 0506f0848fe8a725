# A small stand-in for an OpenBSD source tree, for the tests of
# tools/mplock-patch, written from the brief's facts (not copied from
# OpenBSD): each file has what apply touches or checks and a little
# around it.  Sourced; the suites' helpers follow.
#
# fixture_tree DIR [current | old]
#	Make DIR (which must not exist) a tree.  "old" is OpenBSD 7.5 and
#	earlier: sched_lock a second __mp_lock, __mp_release_all_but_one.

fixture_tree() {
	_ft=$1
	_fl=${2:-current}
	mkdir -p "$_ft" || return 1
	(
	cd "$_ft" || exit 1
	umask 022
	mkdir -p sys/sys sys/kern sys/conf sys/ddb share/man/man9 \
	    regress/sys/kern/extent
	# ft FILE: stdin to FILE, its lines "@old ..." only in an old tree,
	# "@new ..." only in a current one.
	ft() {
		if [ "$_fl" = old ]; then
			sed -e '/^@new/d' -e 's/^@old \{0,1\}//'
		else
			sed -e '/^@old/d' -e 's/^@new \{0,1\}//'
		fi >"$1"
	}

	echo 'A fixture tree for the tests of tools/mplock-patch; not OpenBSD.' \
	    >README

	ft sys/sys/mplock.h <<'EOF'
/*	fixture	*/

#ifndef _MPLOCK_H_
#define _MPLOCK_H_

#include <machine/mplock.h>

#ifdef __USE_MI_MPLOCK

#include <sys/_lock.h>

struct __mpl_cpu {
	volatile u_int		mplc_ticket;
	volatile u_int		mplc_depth;
};

struct __mp_lock {
	struct __mpl_cpu	mpl_cpus[MAXCPUS];
	volatile u_int		mpl_ticket;	/* now serving */
	u_int			mpl_users;	/* next ticket */
#ifdef WITNESS
	struct lock_object	mpl_lock_obj;
#endif
};

void	___mp_lock_init(struct __mp_lock *, const struct lock_type *);
void	__mp_lock(struct __mp_lock *);
void	__mp_unlock(struct __mp_lock *);
int	__mp_release_all(struct __mp_lock *);
@old int	__mp_release_all_but_one(struct __mp_lock *);
void	__mp_acquire_count(struct __mp_lock *, int);
int	__mp_lock_held(struct __mp_lock *, struct cpu_info *);

#define __mp_lock_init(mpl)	___mp_lock_init((mpl), NULL)

#endif /* __USE_MI_MPLOCK */

extern struct __mp_lock kernel_lock;

#endif /* !_MPLOCK_H_ */
EOF

	ft sys/sys/sched.h <<'EOF'
/*	fixture	*/

@new extern struct mutex sched_lock;
@old extern struct __mp_lock sched_lock;
@old
@old #define SCHED_LOCK(s) do {						\
@old 	(s) = splsched();						\
@old 	__mp_lock(&sched_lock);						\
@old } while (0)
EOF

	# The kernel lock glue, the ticket lock block with its markers,
	# then (in the real file) the mutex code.
	ft sys/kern/kern_lock.c <<'EOF'
/*	fixture	*/

#include <sys/param.h>
#include <sys/systm.h>
#include <sys/atomic.h>
#include <sys/witness.h>
#include <sys/mplock.h>

#include <machine/cpu.h>

#ifdef MP_LOCKDEBUG
/* Spins before a waiter reports a spun-out lock; settable from ddb. */
long __mp_lock_spinout = 0x7fffffffL;
#endif /* MP_LOCKDEBUG */

#ifdef MULTIPROCESSOR

struct __mp_lock kernel_lock;

void
_kernel_lock_init(void)
{
	__mp_lock_init(&kernel_lock);
}

void
_kernel_lock(void)
{
	__mp_lock(&kernel_lock);
}

void
_kernel_unlock(void)
{
	__mp_unlock(&kernel_lock);
}

int
_kernel_lock_held(void)
{
	return (__mp_lock_held(&kernel_lock, curcpu()));
}

#ifdef __USE_MI_MPLOCK

/* Ticket lock implementation */

void
___mp_lock_init(struct __mp_lock *mpl, const struct lock_type *type)
{
	memset(mpl->mpl_cpus, 0, sizeof(mpl->mpl_cpus));
	mpl->mpl_users = 0;
	mpl->mpl_ticket = 1;
#ifdef WITNESS
	if (mpl == &kernel_lock)
		mpl->mpl_lock_obj.lo_flags = LO_WITNESS | LO_INITIALIZED |
		    LO_SLEEPABLE | (LO_CLASS_KERNEL_LOCK << LO_CLASSSHIFT);
@old 	else if (mpl == &sched_lock)
@old 		mpl->mpl_lock_obj.lo_flags = LO_WITNESS | LO_INITIALIZED |
@old 		    LO_RECURSABLE | (LO_CLASS_SCHED_LOCK << LO_CLASSSHIFT);
	WITNESS_INIT(&mpl->mpl_lock_obj, type);
#endif
}

void
__mp_lock(struct __mp_lock *mpl)
{
	struct __mpl_cpu *c = &mpl->mpl_cpus[cpu_number()];

	if (c->mplc_depth++ == 0)
		c->mplc_ticket = atomic_inc_int_nv(&mpl->mpl_users);
	while (mpl->mpl_ticket != c->mplc_ticket)
		CPU_BUSY_CYCLE();
	membar_enter_after_atomic();
}

void
__mp_unlock(struct __mp_lock *mpl)
{
	struct __mpl_cpu *c = &mpl->mpl_cpus[cpu_number()];

	if (--c->mplc_depth == 0) {
		membar_exit();
		mpl->mpl_ticket++;
	}
}

#endif /* __USE_MI_MPLOCK */

#endif /* MULTIPROCESSOR */
EOF

	# main(), where the secondary CPUs are started.
	ft sys/kern/init_main.c <<'EOF'
/*	fixture	*/

#include <sys/param.h>
#include <sys/systm.h>

void	cpu_boot_secondary_processors(void);
void	start_init(void *);

void
main(void *framep)
{
#if defined(MULTIPROCESSOR)
	/* Boot the secondary processors. */
	cpu_boot_secondary_processors();
#endif

	start_init(framep);
}
EOF

	ft sys/conf/files <<'EOF'
#	fixture

file ddb/db_command.c			ddb
file kern/init_main.c
file kern/kern_lock.c
file kern/kern_malloc.c
file kern/subr_witness.c		witness
EOF
	chmod 640 sys/conf/files

	# ddb's "show" command table, and the prototypes of its commands
	# defined elsewhere.
	ft sys/ddb/db_command.c <<'EOF'
/*	fixture	*/

#include <sys/param.h>

typedef long	db_expr_t;

#include <ddb/db_interface.h>

struct db_command {
	const char	*name;
	void		(*fcn)(db_expr_t, int, db_expr_t, char *);
	int		flag;
	const struct db_command *more;
};

void	db_show_regs(db_expr_t, int, db_expr_t, char *);
void	db_mount_print_cmd(db_expr_t, int, db_expr_t, char *);

const struct db_command db_show_cmds[] = {
	{ "mount",	db_mount_print_cmd,	0,	NULL },
	{ "registers",	db_show_regs,		0,	NULL },
	{ NULL,		NULL,			0,	NULL }
};
EOF
	ft sys/ddb/db_interface.h <<'EOF'
/*	fixture	*/

#ifndef _DDB_DB_INTERFACE_H_
#define _DDB_DB_INTERFACE_H_

/* kern/kern_timeout.c */
void db_show_callout(db_expr_t, int, db_expr_t, char *);

#endif /* _DDB_DB_INTERFACE_H_ */
EOF

	# The MD headers: most opt in to the MI lock, the machine
	# directories of shared CPU archs include their CPU's, hppa has its
	# own lock.
	for _a in alpha amd64 arm arm64 i386 m88k mips64 powerpc powerpc64 \
	    riscv64 sparc64; do
		mkdir -p "sys/arch/$_a/include"
		printf '%s\n' '/*	fixture	*/' '' '#ifndef _MACHINE_MPLOCK_H_' \
		    '#define _MACHINE_MPLOCK_H_' '' '#define __USE_MI_MPLOCK' '' \
		    '#endif /* !_MACHINE_MPLOCK_H_ */' \
		    >"sys/arch/$_a/include/mplock.h"
	done
	for _m in armv7:arm luna88k:m88k loongson:mips64 octeon:mips64 \
	    macppc:powerpc; do
		mkdir -p "sys/arch/${_m%:*}/include"
		printf '/*\tfixture\t*/\n\n#include <%s/mplock.h>\n' \
		    "${_m#*:}" >"sys/arch/${_m%:*}/include/mplock.h"
	done
	mkdir -p sys/arch/hppa/include
	printf '/*\tfixture\t*/\n\nstruct __mp_lock {\n\tvolatile u_int\tmpl_lock;\n};\n' \
	    >sys/arch/hppa/include/mplock.h

	# Kernel configs and compile directories.
	for _a in amd64 arm64 i386 hppa; do
		mkdir -p "sys/arch/$_a/conf" "sys/arch/$_a/compile/GENERIC.MP"
		printf '#\tfixture\n\nmachine\t%s\noption\tDDB\n' "$_a" \
		    >"sys/arch/$_a/conf/GENERIC"
		printf '%s\n' '#	fixture' '' "include \"arch/$_a/conf/GENERIC\"" \
		    '' 'option	MULTIPROCESSOR' '#option	MP_LOCKDEBUG' \
		    '#option	WITNESS' '' 'cpu*		at mainbus?' \
		    >"sys/arch/$_a/conf/GENERIC.MP"
		printf '#\tfixture: config(8) and make for ${.CURDIR:T}\n' \
		    >"sys/arch/$_a/compile/Makefile.inc"
		echo '.include "../Makefile.inc"' \
		    >"sys/arch/$_a/compile/GENERIC.MP/Makefile"
	done

	ft share/man/man9/Makefile <<'EOF'
#	fixture

MAN=	atomic_add_int.9 membar_sync.9 mutex.9 rwlock.9 spl.9
MLINKS+=mutex.9 mtx_enter.9 mutex.9 mtx_leave.9 \
	rwlock.9 rw_enter.9
MLINKS+=membar_sync.9 membar_enter.9 membar_sync.9 membar_exit.9

.include <bsd.prog.mk>
EOF
	for _p in atomic_add_int membar_sync mutex rwlock spl; do
		printf '.\\" fixture\n.Dd $Mdocdate$\n.Dt %s 9\n.Os\n' \
		    "$(echo "$_p" | tr a-z A-Z)" >"share/man/man9/$_p.9"
	done

	printf '%s\n' '#	fixture' '' 'SUBDIR+= extent' 'SUBDIR+= fork-exit' '' \
	    '.include <bsd.subdir.mk>' >regress/sys/kern/Makefile
	printf '#\tfixture\n\nPROG=\textenttest\n\n.include <bsd.regress.mk>\n' \
	    >regress/sys/kern/extent/Makefile
	# A file with an unusual mode, to see modes kept.
	printf '#!/bin/sh\necho fixture\n' >regress/sys/kern/extent/run.sh
	chmod 755 regress/sys/kern/extent/run.sh
	)
}

# tree_sig DIR: one line per file, directory and link of DIR: its
# permissions, then a file's checksum and size or a link's target, then
# its path.  Two trees are the same when their signatures are.  (Names
# have no blanks.)
tree_sig() {
	(cd "$1" && { find . -exec ls -ld {} + | awk '
	    /^l/ { print $(NF - 2), "P", substr($1, 1, 10), $NF; next }
	    { print $NF, "P", substr($1, 1, 10) }'
	find . -type f -exec cksum {} + | awk '{ print $3, "S", $1 "-" $2 }'
	} | LC_ALL=C sort)
}

# The suites' helpers.  fixture_setup DIR: FX=DIR (made), DIR/tmp the
# TMPDIR, DIR/pristine a fixture tree, DIR/pristine.sig its signature.
fixture_setup() {
	FX=$1 TOOL=$ROOT/tools/mplock-patch
	mkdir -p "$FX/tmp" || return 1
	TMPDIR=$FX/tmp
	export TMPDIR
	unset MPLOCK_ROOT
	fixture_tree "$FX/pristine" && tree_sig "$FX/pristine" >"$FX/pristine.sig"
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

# same_as SIGFILE DIR: DIR's signature is SIGFILE's.  unchanged DIR:
# the same as at sig DIR; pristine DIR: the pristine tree's.
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
	if [ -n "${PT_ROOT:-}" ]; then
		MPLOCK_ROOT=$PT_ROOT ${PTSH:-sh} "$TOOL" "$@"
	else
		${PTSH:-sh} "$TOOL" "$@"
	fi
}

# fails WANT CMD...: CMD exits non-zero saying WANT (a fixed string) on
# stderr; its output in FX/out and FX/err.
fails() {
	_want=$1
	shift
	if "$@" >"$FX/out" 2>"$FX/err"; then
		echo "$*: succeeded"
		return 1
	fi
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
