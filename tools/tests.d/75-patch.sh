# patch: tools/mplock-patch on fixture trees (tools/lib/fixture-tree.sh)
# and the vendored OpenBSD tree, under sh and mksh.  Faults: suite
# patchfault; the patched kernel compiled: suite kcompile.

. "$ROOT/tools/lib/fixture-tree.sh"
PT=$OBJ/patch
chmod -R u+w "$PT" 2>/dev/null
rm -rf "$PT"
fixture_setup "$PT" patch || return 0
KL=sys/kern/kern_lock.c IM=sys/kern/init_main.c

# p0 DIR DIFF [ARGS]: patch -p0 ARGS in DIR.
p0() {
	_pd=$1 _pf=$2
	shift 2
	(cd "$_pd" && patch -p0 -s "$@" <"$_pf")
}

# The files apply must install, apart from the tool's own list.
expected_files() {
	if (cd "$ROOT" && git rev-parse --git-dir) >/dev/null 2>&1; then
		(cd "$ROOT" && git ls-files -co --exclude-standard sys \
		    share/man/man9 regress/sys/kern)
	else
		(cd "$ROOT" && find sys share/man/man9 regress/sys/kern -type f)
	fi | LC_ALL=C sort
}

# make_var DIR VAR: bmake's view of a variable, OpenBSD's .mk stubbed.
mkdir -p "$PT/mk"
cp "$ROOT/tools/fixtures/mk/sys.mk" "$PT/mk/"
: >"$PT/mk/bsd.prog.mk"
: >"$PT/mk/bsd.subdir.mk"
make_var() {
	bmake -m "$PT/mk" -C "$1" -V "$2"
}

# verify_applied TREE: everything apply should have done.
verify_applied() {
	_t=$1 _rc=0
	expected_files >"$PT/expected"
	while read -r _f; do
		case $_f in
		sys/arch/*)
			_a=${_f#sys/arch/}
			[ -d "$_t/sys/arch/${_a%%/*}" ] || continue ;;
		esac
		if ! installed "$_f" "$_t"; then
			bad "$_f: not installed as in this checkout"
		elif [ "$(ls -l "$_t/$_f" | cut -c1-10)" != -rw-r--r-- ]; then
			bad "$_f: mode $(ls -l "$_t/$_f" | cut -c1-10)"
		fi
	done <"$PT/expected"
	[ ! -e "$_t/share/man/man8/mplock-patch.8" ] ||
	    bad "share/man/man8/mplock-patch.8: the tool's own page installed"
	grep '^regress/sys/kern/mplock/' "$PT/expected" >"$PT/expected-regress"
	(cd "$_t" && find regress/sys/kern/mplock -type f) | LC_ALL=C sort |
	    diff "$PT/expected-regress" - ||
	    bad "regress/sys/kern/mplock: other files than expected"
	# The ticket lock block and the blank line after removed, no more.
	awk '/^#ifdef __USE_MI_MPLOCK$/ { s = 1 }
	    s { if ($0 == "#endif /* __USE_MI_MPLOCK */") { s = 0; b = 1 }
		next }
	    b && $0 == "" { b = 0; next }
	    { b = 0; print }' "$PT/pristine/$KL" | cmp -s - "$_t/$KL" ||
	    bad "kern_lock.c: not the ticket block removed"
	for _f in "$ROOT"/sys/kern/kern_mplock*.c; do
		_k=kern/${_f##*/}
		case $_k in
		*_torture.c)	_cond=mplock_torture ;;
		*_debug.c)	_cond='multiprocessor & mplock_debug' ;;
		*)		_cond=multiprocessor ;;
		esac
		grep -Eq "^file[[:space:]]+$_k[[:space:]]+$_cond\$" \
		    "$_t/sys/conf/files" ||
		    bad "sys/conf/files: no line \"file $_k $_cond\""
	done
	[ "$(sed -n '/kern_lock\.c/{n;p;}' "$_t/sys/conf/files" |
	    cut -d' ' -f2 | cut -f1)" = kern/kern_mplock.c ] ||
	    bad "sys/conf/files: kern_mplock.c does not follow kern_lock.c"
	# The torture test starts in main()'s MULTIPROCESSOR block (the
	# vendored file's), right after the secondary CPUs.
	[ ! -f "$ROOT/sys/kern/kern_mplock_torture.c" ] || {
		hook_want "$PT/pristine/$IM" | cmp -s - "$_t/$IM" &&
		    grep -A4 'cpu_boot_secondary_processors();' "$_t/$IM" |
		    tail -n 1 | grep -qx '#endif' &&
		    grep -B2 'cpu_boot_secondary_processors();' "$_t/$IM" |
		    head -n 1 | grep -qx '#if defined(MULTIPROCESSOR)'
	} || bad "init_main.c: not the three-line hook after the CPUs start"
	# The Makefiles, as make reads them.
	_man=$(make_var "$_t/share/man/man9" MAN)
	for _p in "$ROOT"/share/man/man9/*.9; do
		case " $_man " in
		*" ${_p##*/} "*) ;;
		*)	bad "man9 MAN lacks ${_p##*/}: $_man" ;;
		esac
	done
	echo "$_man" | tr ' ' '\n' | awk 'NF' | awk '
	    /^mplock/ { if (prev != "" && tolower(prev) > tolower($0)) bad = 1
		ours = 1; prev = $0; next }
	    ours && !done { if (tolower($0) < tolower(prev)) bad = 1; done = 1 }
	    { prev = $0 }
	    END { exit bad || !ours }' ||
	    bad "man9 MAN: our pages not sorted in: $_man"
	grep 'MLINKS' "$_t/share/man/man9/Makefile" | grep -q mplock &&
	    bad "man9 Makefile: MLINKS for our pages"
	_sd=$(make_var "$_t/regress/sys/kern" SUBDIR)
	case " $_sd " in
	*" extent "*" fork-exit "*" mplock ") ;;
	*)	bad "regress SUBDIR: $_sd" ;;
	esac
	# ddb's show command in its table, guarded, before its end; its
	# prototype with the others'.
	awk '/db_show_cmds\[\] = \{/ { t = 1 }
	    t && /"mplock",[ \t]*db_show_mplock,/ { e = NR }
	    t && /^#if defined\(MULTIPROCESSOR\) && defined\(MPLOCK_DEBUG\)$/ {
		g = NR }
	    t && /\{ NULL,/ { end = NR; t = 0 }
	    END { exit !(e && g == e - 1 && end == e + 2) }' \
	    "$_t/sys/ddb/db_command.c" || bad "db_command.c: no show mplock"
	grep -qx 'void db_show_mplock(db_expr_t, int, db_expr_t, char \*);' \
	    "$_t/sys/ddb/db_interface.h" || bad "db_interface.h: no prototype"
	return $_rc
}
bad() {
	echo "$*"
	_rc=1
}
# installed FILE TREE: TREE's FILE is this checkout's, but for the
# tree's RCS ID line, which apply keeps.
installed() {
	cmp -s "$ROOT/$1" "$2/$1" && return 0
	head -n 1 "$ROOT/$1" | grep -q '^/\*[[:space:]]*\$OpenBSD\$' &&
	    [ "$(head -n 1 "$2/$1")" = "$(head -n 1 "$PT/pristine/$1")" ] &&
	    [ "$(sed 1d "$ROOT/$1" | cksum)" = "$(sed 1d "$2/$1" | cksum)" ]
}
# hook_want INIT_MAIN: the file with the torture test's start.
hook_want() {
	sed '/cpu_boot_secondary_processors();/a\
#ifdef MPLOCK_TORTURE\
	mplock_torture_start();\
#endif' "$1"
}

# roundtrip SHELL: check, apply, the result (an arch the tree lacks
# gets no header), check refuses, revert.
roundtrip() {
	_t=$(fresh "rt-$1")
	rm -r "$_t/sys/arch/sparc64"
	sig "$_t"
	"$1" "$TOOL" check "$_t" && "$1" "$TOOL" apply "$_t" &&
	    verify_applied "$_t" && [ ! -e "$_t/sys/arch/sparc64" ] &&
	    fails 'already patched by mplock-patch' "$1" "$TOOL" check "$_t" &&
	    "$1" "$TOOL" revert "$_t" && unchanged "$_t"
}
for _sh in sh mksh; do
	t_need $_sh "patch/roundtrip/$_sh" roundtrip $_sh
done

# The installed regress directory builds with its Makefile and runs.
installed_regress() {
	_t=$(fresh regress-tree)
	pt apply "$_t" || return 1
	mkdir -p "$PT/regress-obj"
	MAKEOBJDIR=$PT/regress-obj bmake -m "$ROOT/tools/fixtures/mk" \
	    -C "$_t/regress/sys/kern/mplock" \
	    $(for _b in $BACKENDS; do echo "mplocktest-$_b"; done) || return 1
	for _b in $BACKENDS; do
		"$PT/regress-obj/mplocktest-$_b" -q recurse || return 1
	done
	pt revert "$_t"
}
t_need bmake patch/installed-regress-builds installed_regress

# fixture_old: the tree here as OpenBSD 7.5 and older.
fixture_old() {
	ft_sed sys/sys/mplock.h '/^int.*__mp_release_all(/a\
int	__mp_release_all_but_one(struct __mp_lock *);' &&
	    ft_sed sys/sys/sched.h 's/mutex sched_lock/__mp_lock sched_lock/' &&
	    ft_sed sys/kern/kern_lock.c '/LO_CLASS_KERNEL_LOCK << /a\
	else if (mpl == &sched_lock)\
		mpl->mpl_lock_obj.lo_flags = LO_RECURSABLE |\
		    (LO_CLASS_SCHED_LOCK << LO_CLASSSHIFT);'
}

# refusals: for each line "NAME|WANT|FILE|SED", a fixture with FILE
# edited by SED (FILE "-": SED a command run in it): check, apply (and
# with NAME+ diff) refuse saying WANT, changing nothing.  From a small
# checkout: what is refused is the tree.
refuse_case() {
	_t=$(fresh "refuse-${1##*/}")
	if [ "$3" = - ]; then
		(cd "$_t" && eval "$4")
	else
		(cd "$_t" && ft_sed "$3" "$4")
	fi || { echo "mutator failed"; return 1; }
	sig "$_t"
	for _c in check apply $5; do
		fails "$2" pt $_c "$_t" || return 1
		[ "$_c" != diff ] || [ ! -s "$FX/out" ] ||
		    { echo "diff printed a diff"; return 1; }
		unchanged "$_t" || return 1
	done
}
PT_ROOT=$PT/small-root
small_root "$PT_ROOT" sys/kern/kern_mplock_torture.c
while IFS='|' read -r _n _w _f _s; do
	_d=
	case $_n in
	*+)	_d=diff _n=${_n%+} ;;
	esac
	t_check "patch/refuse/$_n" refuse_case "$_n" "$_w" "$_f" "$_s" $_d \
	    </dev/null
done <<'EOF'
no-kern_lock|sys/kern/kern_lock.c: missing|-|rm sys/kern/kern_lock.c
no-files|sys/conf/files: missing|-|rm sys/conf/files
no-mplock.h|sys/sys/mplock.h: missing|-|rm sys/sys/mplock.h
no-man9-makefile|share/man/man9/Makefile: missing|-|rm share/man/man9/Makefile
no-regress-makefile|regress/sys/kern/Makefile: missing|-|rm regress/sys/kern/Makefile
no-init_main|sys/kern/init_main.c: missing|-|rm sys/kern/init_main.c
read-only-file+|sys/kern/kern_lock.c: not writable|-|chmod 444 sys/kern/kern_lock.c
read-only-dir|sys/kern: directory not writable|-|chmod 555 sys/kern
read-only-top|directory not writable|-|chmod 555 .
stray-record+|an earlier apply did not finish|-|mkdir .mplock-patch
state-is-a-file|.mplock-patch is not a directory|-|: >.mplock-patch
state-is-a-link|.mplock-patch is not a directory|-|ln -s /tmp .mplock-patch
partial-copy+|sys/kern/kern_mplock.c: already exists|-|cp "$ROOT/sys/kern/kern_mplock.c" sys/kern/
partial-mplock.h|sys/sys/mplock.h: already ours|-|cp "$ROOT/sys/sys/mplock.h" sys/sys/
patched-by-patch1+|no ticket lock block|-|pt diff "$PWD" >../m.diff && patch -p0 -s <../m.diff
ticket-comment-moved+|no "#ifdef __USE_MI_MPLOCK" followed by "/* Ticket lock implementation */"|sys/kern/kern_lock.c|/^\/\* Ticket lock implementation \*\//i int mplock_moved;
ticket-comment-reworded|no "#ifdef __USE_MI_MPLOCK" followed by|sys/kern/kern_lock.c|s,Ticket lock implementation,Ticket lock,
ticket-block-twice|/* Ticket lock implementation */" found 2 times|sys/kern/kern_lock.c|/^\/\* Ticket lock implementation \*\//a #ifdef __USE_MI_MPLOCK\n/* Ticket lock implementation */\n#endif /* __USE_MI_MPLOCK */
endif-comment-changed|not "#endif /* __USE_MI_MPLOCK */"|sys/kern/kern_lock.c|s,^#endif /\* __USE_MI_MPLOCK \*/,#endif,
block-end-removed|with "#endif /* MULTIPROCESSOR */", not|sys/kern/kern_lock.c|/^#endif \/\* __USE_MI_MPLOCK \*\//d
block-not-closed|is not closed|sys/kern/kern_lock.c|/^#endif \/\* __USE_MI_MPLOCK \*\//,$d
spinout-inside-block|__mp_lock_spinout is defined inside the ticket lock block|sys/kern/kern_lock.c|/^\/\* Ticket lock implementation \*\//a long __mp_lock_spinout = 1;
kernel_lock_held-missing|no definition of _kernel_lock_held|sys/kern/kern_lock.c|s/^_kernel_lock_held(/_kernel_lock_is_held(/
no-ticket-code|does not define ___mp_lock_init()|sys/kern/kern_lock.c|s/^___mp_lock_init(/___mp_lock_setup(/
files-no-kern_lock|"file kern/kern_lock.c" found 0 times|sys/conf/files|/kern_lock/d
files-kern_lock-twice|"file kern/kern_lock.c" found 2 times|sys/conf/files|/kern_lock/p
man9-no-man-list|share/man/man9/Makefile: no MAN= list|share/man/man9/Makefile|s/^MAN=/MANPAGES=/
man9-already|already mentions mplock.9|share/man/man9/Makefile|s/^MAN=/MAN=	mplock.9/
regress-no-include|".include <bsd.subdir.mk>" found 0 times|regress/sys/kern/Makefile|/^\.include/d
regress-already|already mentions mplock|regress/sys/kern/Makefile|s/extent/extent mplock/
mplock.h-not-mi|does not use the MI lock|sys/sys/mplock.h|s/__USE_MI_MPLOCK/__USE_MD_LOCK/
init_main-no-boot|"cpu_boot_secondary_processors();" found 0 times|sys/kern/init_main.c|/cpu_boot_secondary_processors();/d
init_main-boot-twice|"cpu_boot_secondary_processors();" found 2 times|sys/kern/init_main.c|/cpu_boot_secondary_processors();/p
init_main-already+|already mentions mplock_torture|sys/kern/init_main.c|/cpu_boot_secondary_processors();/a \	mplock_torture_start();
ext/md-lock-header|does not use the MI lock|sys/arch/amd64/include/mplock.h|s/__USE_MI_MPLOCK/__HPPA_LIKE/
ext/md-header-missing|sys/arch/amd64/include/mplock.h: missing|-|rm sys/arch/amd64/include/mplock.h
ext/ddb-no-table|"db_show_cmds[] = {" table found 0 times|sys/ddb/db_command.c|s/db_show_cmds\[\]/db_show_table[]/
ext/ddb-no-terminator|has no { NULL, ... } terminator|sys/ddb/db_command.c|/^	{ NULL,		NULL,			0,	NULL }/d
ext/ddb-missing|sys/ddb/db_command.c: missing|-|rm sys/ddb/db_command.c
openbsd-7.5-tree|OpenBSD 7.5 or older (sys/sys/mplock.h declares __mp_release_all_but_one, sys/kern/kern_lock.c gives sched_lock WITNESS flags, sys/sys/sched.h declares sched_lock a struct __mp_lock): sched_lock is a second __mp_lock there; not supported|-|fixture_old
EOF
unset PT_ROOT

# revert: refuses what it cannot restore without losing changes.
revert_cases() {
	_t=$(fresh revert)
	fails "not patched by mplock-patch" pt revert "$_t" &&
	    pristine "$_t" && pt apply "$_t" >/dev/null || return 1
	echo "/* local change */" >>"$_t/$KL"
	: >"$_t/regress/sys/kern/mplock/mplocktest-mlock"
	sig "$_t"
	fails "$KL: changed since apply" pt revert "$_t" &&
	    grep -q "regress/sys/kern/mplock: holds files apply did not add" \
	    "$PT/err" && unchanged "$_t" && pt revert -f "$_t" &&
	    pristine "$_t" || return 1
	# make obj's links in directories we made are the build's.
	pt apply "$_t" >/dev/null &&
	    ln -s /nonexistent/obj "$_t/regress/sys/kern/mplock/obj" &&
	    pt revert "$_t" && pristine "$_t"
}
t_check patch/revert/refusals-and-force revert_cases

make_targets() {	# make
	_t=$(fresh "make-$1")
	for _m in : -kernel:-k -regress:-r; do
		(cd "$ROOT" && $1 -s "patch${_m%:*}" SRC="$_t") \
		    >"$PT/make.diff" 2>/dev/null &&
		    pt diff ${_m#*:} "$_t" 2>/dev/null |
		    cmp -s - "$PT/make.diff" || {
			echo "make patch${_m%:*} differs from diff ${_m#*:}"
			return 1
		}
	done
	(cd "$ROOT" && $1 -s apply SRC="$_t") && status_is 0 "$_t" &&
	    (cd "$ROOT" && $1 -s revert SRC="$_t") && pristine "$_t"
}
for _mk in make bmake; do
	t_need $_mk "patch/make-targets/$_mk" make_targets $_mk
done

# refused TREE WANT ARGS: "config -s TREE ARGS", run where a file could
# match a glob, refused in one line saying WANT; TREE as at sig TREE.
mkdir -p "$PT/globdir"
: >"$PT/globdir/WITNESS_GLOB"
refused() {
	_rt=$1 _rw=$2
	shift 2
	(cd "$PT/globdir" && fails "$_rw" pt config -s "$_rt" "$@") &&
	    one_line "$PT/err" "^mplock-patch: .*$_rw" && unchanged "$_rt" ||
	    { echo "config $*: not refused as it should be"; return 1; }
}

# config: a kernel config and compile directory in a patched tree;
# wrong arguments, -n with glob, blank, quote or leading-dash characters
# and unknown MPLOCK_* options refused, changing nothing (-o '*' is not
# a glob); no option written twice (config(8) refuses that); hand edits.
config_cases() {
	_t=$(fresh config)
	_c=$_t/sys/arch/amd64/conf/MLOCK.MP
	_mk=$_t/sys/arch/amd64/compile/MLOCK.MP/Makefile
	fails "not patched by mplock-patch" pt config -s "$_t" amd64 &&
	    pt apply "$_t" >/dev/null || return 1
	sig "$_t"
	for _bad in "vax:not a multiprocessor arch" \
	    "hppa:hppa keeps its own MD kernel lock" \
	    "sparc64:no sys/arch/sparc64/conf/GENERIC.MP" \
	    "-b clh amd64:clh: no such backend" \
	    "-o MPLOCK_TICKET amd64:choose the backend with -b" \
	    "-o lower amd64:not a kernel option name" \
	    "-n GENERIC.MP amd64:the stock configs are not ours to write"; do
		refused "$_t" "${_bad#*:}" ${_bad%%:*} || return 1
	done
	for _n in '*' 'a b' 'X"Y' '-x' "it's" 'a?' '[A]' 'a;b' '$(x)' \
	    '..' '.hidden' 'a/b' ''; do
		refused "$_t" '' -n "$_n" amd64 || return 1
	done
	for _o in MPLOCK_FOO MPLOCK_DEBUGX '*' 'W*' 'A B' 'a'; do
		refused "$_t" '' -o "$_o" amd64 || return 1
	done
	cp "$_t/sys/arch/amd64/conf/GENERIC" "$_t/sys/arch/amd64/conf/MINE.MP"
	sig "$_t"
	refused "$_t" "MINE.MP exists and is not ours" -n MINE.MP amd64 ||
	    return 1
	rm "$_t/sys/arch/amd64/conf/MINE.MP"
	pt config -s "$_t" amd64 >"$PT/out" || return 1
	cat "$PT/out"
	grep -qx 'include "arch/amd64/conf/GENERIC.MP"' "$_c" &&
	    grep -Eqx "option[[:space:]]+MPLOCK_$(upper "$DEFAULT_BACKEND")" \
	    "$_c" && [ "$(grep -c '^option' "$_c")" -eq 1 ] &&
	    grep -qx '.include "../Makefile.inc"' "$_mk" &&
	    grep -qF "cd $_t/sys/arch/amd64/compile/MLOCK.MP && make obj && make config && make && make install" \
	    "$PT/out" || return 1
	# Again, other options: ours, so rewritten.
	pt config -b ticket -w -w -l -d -o MPLOCK_DEBUG_NEVENTS=64 -o DDB \
	    -o MULTIPROCESSOR -o WITNESS -s "$_t" amd64 >/dev/null || return 1
	for _o in MPLOCK_TICKET WITNESS MP_LOCKDEBUG MPLOCK_DEBUG \
	    MPLOCK_DEBUG_NEVENTS=64; do
		grep -Eqx "option[[:space:]]+$_o" "$_c" ||
		    { echo "no option $_o"; cat "$_c"; return 1; }
	done
	cat "$_c" "$_t/sys/arch/amd64/conf/GENERIC.MP" \
	    "$_t/sys/arch/amd64/conf/GENERIC" "$_t/sys/conf/GENERIC" |
	    awk '$1 == "option" { print $2 }' | sort | uniq -d >"$PT/dups"
	[ ! -s "$PT/dups" ] || { echo "twice:"; cat "$PT/dups"; return 1; }
	# A hand edit of a config it wrote: kept unless -f (so the compile
	# directory's Makefile); another name is another file.
	echo "option		MY_OWN_OPTION" >>"$_c"
	sig "$_t"
	fails "" pt config -s "$_t" amd64 && one_line "$PT/err" \
	    '^mplock-patch: .*sys/arch/amd64/conf/MLOCK.MP: changed since' &&
	    grep -q -- '-f overwrites it' "$PT/err" && unchanged "$_t" &&
	    pt config -n OTHER.MP -s "$_t" amd64 >/dev/null || return 1
	echo "# mine" >>"$_mk"
	pt config -f -s "$_t" amd64 >/dev/null || return 1
	grep -q MY_OWN_OPTION "$_c" && { echo "-f kept the edit"; return 1; }
	grep -q mine "$_mk" && return 1
	pt config -n MLOCK-TICKET.MP -b ticket -s "$_t" arm64 >/dev/null &&
	    grep -qx 'include "arch/arm64/conf/GENERIC.MP"' \
	    "$_t/sys/arch/arm64/conf/MLOCK-TICKET.MP" || return 1
	# After a build: make obj's link in the compile directory.
	ln -s /usr/obj/x "$_t/sys/arch/amd64/compile/MLOCK.MP/obj"
	pt revert "$_t" && pristine "$_t"
}
t_check patch/config config_cases

# A checkout without the debug layer, to install from.
config_no_debug() {
	_t=$(fresh config-nd) _r=$PT/root-nodebug
	rm -rf "$_r"
	mkdir -p "$_r/share/man" "$_r/regress/sys/kern" &&
	    cp -R "$ROOT/sys" "$_r/" &&
	    cp -R "$ROOT/share/man/man9" "$_r/share/man/" &&
	    cp -R "$ROOT/regress/sys/kern/mplock" "$_r/regress/sys/kern/" ||
	    return 1
	rm -f "$_r/sys/kern/kern_mplock_debug.c"
	for _f in "$_r"/sys/sys/mplock.h "$_r"/sys/kern/kern_mplock*.c; do
		sed 's/MPLOCK_DEBUG/MPLOCK_XDEBUG/g' "$_f" >"$_f.new" &&
		    mv "$_f.new" "$_f"
	done
	MPLOCK_ROOT=$_r sh "$TOOL" apply "$_t" >/dev/null || return 1
	sig "$_t"
	fails "has no sys/kern/kern_mplock_debug.c" \
	    env MPLOCK_ROOT="$_r" sh "$TOOL" config -d -s "$_t" amd64 &&
	    unchanged "$_t"
}
t_check patch/config/debug-needs-debug-layer config_no_debug

# revert_refuses TREE WANT: revert and revert -f refuse in one line
# saying WANT, changing nothing (TREE as at sig TREE).
revert_refuses() {
	for _o in "" -f; do
		fails "" pt revert $_o "$1" && one_line "$PT/err" "$2" &&
		    unchanged "$1" || return 1
	done
}

# A list of the record with its last line cut: status says damaged,
# revert and revert -f refuse, deleting nothing (never a path glued
# from two lines); so with a record naming a config -n would refuse.
torn_record() {
	_t=$(fresh torn-record)
	pt apply "$_t" >/dev/null && pt config -s "$_t" amd64 >/dev/null ||
	    return 1
	for _f in files config; do
		_r=$_t/.mplock-patch/$_f
		cp "$_r" "$PT/torn.$_f"
		_sz=$(wc -c <"$_r")
		_cut=$((_sz - $(tail -n 1 "$_r" | wc -c) + 1))
		while [ "$_cut" -lt "$_sz" ]; do
			head -c "$_cut" "$PT/torn.$_f" >"$_r"
			sig "$_t"
			status_is 2 "$_t" && revert_refuses "$_t" \
			    "$_f: its last line is cut" || return 1
			_cut=$((_cut + 5))
		done
		cp "$PT/torn.$_f" "$_r"
	done
	echo "A sys/arch/amd64/conf/* 1-1" >>"$_r"
	sig "$_t"
	revert_refuses "$_t" "the record was changed by hand" || return 1
	cp "$PT/torn.config" "$_r"
	pt revert "$_t" >/dev/null && pristine "$_t"
}
t_check patch/revert/torn-record torn_record

# An earlier version's record (a journal): every command refuses it in
# one line saying what to do, and changes nothing.
old_record() {
	_t=$(fresh old-record)
	pt apply "$_t" >/dev/null || return 1
	_r=$_t/.mplock-patch
	{ cat "$_r/files"; echo "X $(cat "$_r/stamp")"; } >"$_r/journal"
	rm "$_r/files" "$_r/stamp"
	sig "$_t"
	for _c in check apply revert "revert -f" status diff "config -s"; do
		_x=
		[ "$_c" != "config -s" ] || _x=amd64
		pt $_c "$_t" $_x >"$PT/out" 2>&1
		_rc=$?
		cat "$PT/out"
		case $_c:$_rc in
		status:2|[!s]*:1)	;;
		*)	echo "$_c: exit $_rc"; return 1 ;;
		esac
		# (apply ends with "nothing changed", as on any refusal.)
		grep -v ': nothing changed$' "$PT/out" >"$PT/out1"
		one_line "$PT/out1" \
		    "recorded by an older mplock-patch: revert it with" &&
		    unchanged "$_t" || return 1
	done
}
t_check patch/record/older-version-refused old_record

# diff: what apply does, for patch -p0: -r's, then -k's, each with its
# diffstat on stderr (none with -q); the same from the tree patched
# (and configured), where a hand edit shows, and is said.
diffstat_ok() {	# diff stat
	tail -n 1 "$2" >"$2.last"
	awk '/^Index: / { n++; next } /^(\+\+\+|---) / { next }
	    /^\+/ { a++ } /^-/ { d++ }
	    END { printf " %d files changed, %d insertions(+), %d deletions(-)\n",
		n, a, d }' "$1" | diff - "$2.last"
}
# dm_diffs TREE X: TREE's diff, -k, -r and -q -k, with their diffstats,
# in PT/{all,k,r,kq}X.diff and .stat.
dm_diffs() {
	pt diff "$1" >"$PT/all$2.diff" 2>"$PT/all$2.stat" &&
	    pt diff -k "$1" >"$PT/k$2.diff" 2>"$PT/k$2.stat" &&
	    pt diff -r "$1" >"$PT/r$2.diff" 2>"$PT/r$2.stat" &&
	    pt diff -q -k "$1" >"$PT/kq$2.diff" 2>"$PT/kq$2.stat"
}
diff_modes() {
	_a=$(fresh dm-apply) _p=$(fresh dm-patch)
	dm_diffs "$_a" "" && pristine "$_a" && pt apply "$_a" >/dev/null ||
	    return 1
	[ ! -s "$PT/kq.stat" ] || { echo "-q printed a diffstat"; return 1; }
	cat "$PT/r.diff" "$PT/k.diff" | cmp - "$PT/all.diff" ||
	    { echo "the diff is not -r's then -k's"; return 1; }
	cmp "$PT/k.diff" "$PT/kq.diff" &&
	    diffstat_ok "$PT/k.diff" "$PT/k.stat" &&
	    diffstat_ok "$PT/r.diff" "$PT/r.stat" &&
	    [ "$(head -n 1 "$PT/k.diff" | cut -c1-7)" = "Index: " ] || return 1
	grep '^Index: ' "$PT/k.diff" | grep -v '^Index: \(sys\|share/man\)/' &&
	    { echo "-k has more than sys/ and share/man/"; return 1; }
	grep '^Index: ' "$PT/r.diff" | grep -v '^Index: regress/' &&
	    { echo "-r has more than regress/"; return 1; }
	# The kernel diff removes the ticket lock block; no #if 0.
	grep -q '^+#if 0' "$PT/k.diff" && return 1
	grep -q '^-/\* Ticket lock implementation \*/' "$PT/k.diff" &&
	    p0 "$_p" "$PT/k.diff" && p0 "$_p" "$PT/r.diff" || return 1
	mv "$_a/.mplock-patch" "$PT/dm-record"
	sig "$_a"
	mv "$PT/dm-record" "$_a/.mplock-patch"
	same_as "$_a.sig" "$_p" && p0 "$_p" "$PT/all.diff" -R &&
	    pristine "$_p" || return 1
	pt config -s "$_a" amd64 >/dev/null && dm_diffs "$_a" -patched ||
	    return 1
	for _n in all k r kq; do
		cmp "$PT/$_n.diff" "$PT/$_n-patched.diff" &&
		    cmp "$PT/$_n.stat" "$PT/$_n-patched.stat" || return 1
	done
	echo "/* local */" >>"$_a/$KL"
	pt diff -q "$_a" >"$PT/dm-edited" 2>"$PT/err" &&
	    grep -q "$KL: changed since apply" "$PT/err" &&
	    grep -qx '+/\* local \*/' "$PT/dm-edited" &&
	    pt revert -f "$_a" >/dev/null && pristine "$_a"
}
t_check patch/diff/modes-and-from-patched-tree diff_modes

# The vendored tree: diff -k | patch -p0 gives the files apply gives;
# revert gives the same bytes.  The diffs' sizes are printed (README).
real_roundtrip() {
	_t=$PT/real
	rm -rf "$_t"
	cp -Rp "$(vendor_tree openbsd-src)" "$_t" &&
	    rm -f "$_t/.extracted" || return 1
	sig "$_t"
	pt diff -k "$_t" >"$PT/real-k.diff" 2>"$PT/real-k.stat" &&
	    pt diff "$_t" >"$PT/real-all.diff" 2>/dev/null &&
	    pt diff -r "$_t" >"$PT/real-r.diff" 2>/dev/null || return 1
	_kf=$(sed -n 's/^Index: //p' "$PT/real-k.diff")
	p0 "$_t" "$PT/real-k.diff" && (cd "$_t" && cksum $_kf) >"$PT/real-p0" &&
	    p0 "$_t" "$PT/real-k.diff" -R && unchanged "$_t" &&
	    pt check "$_t" >/dev/null && pt apply "$_t" || return 1
	(cd "$_t" && cksum $_kf) | diff "$PT/real-p0" - ||
	    { echo "diff -k | patch -p0 is not what apply does"; return 1; }
	grep -q '__USE_MI_MPLOCK' "$_t/$KL" &&
	    { echo "kern_lock.c keeps the ticket block"; return 1; }
	pt revert "$_t" && unchanged "$_t" || return 1
	cat "$PT/real-k.stat"
	echo "lines: diff $(wc -l <"$PT/real-all.diff"), -k" \
	    "$(wc -l <"$PT/real-k.diff"), -r $(wc -l <"$PT/real-r.diff")"
}
t_check patch/realtree/roundtrip real_roundtrip

# conv WANT ARGS...: misuse: exit 1, nothing on stdout; on stderr
# "mplock-patch: WANT" then the usage (help's synopsis).
conv() {
	_cw=$1
	shift
	fails "" pt "$@" </dev/null && [ ! -s "$PT/out" ] &&
	    { echo "mplock-patch: $_cw"; pt help; } | diff - "$PT/err"
}
# usage: conv for each line "WANT|ARGS" (TREE: a tree), changing
# nothing; the licence header.
usage_cases() {
	_t=$(fresh usage)
	sig "$_t"
	while IFS='|' read -r _w _a; do
		conv "$_w" $(echo "$_a" | sed "s|TREE|$_t|g") || return 1
	done <<'EOF'
bogus: unknown command|bogus
unknown option -- x|config -x amd64
unknown option -- h|config -h amd64
option requires an argument -- b|config -b
option requires an argument -- s|config -w -s
unknown option -- -|diff --kernel TREE
unknown option -- -|diff --regress TREE
unknown option -- z|apply -z TREE
unknown option -- f|check -f TREE
unknown option -- k|revert -k TREE
unknown option -- q|status -q TREE
unknown option -- r|revert -r TREE
unknown option -- b|diff -b mlock TREE
no command|
-k and -r: one or the other|diff -k -r TREE
-s: options go before the operands|config amd64 -s TREE
config: no arch|config -s TREE
apply: no tree|apply
apply: too many operands (tree only)|apply TREE TREE
status: no tree|status
series: unknown command|series TREE
-f: options go before the operands|revert TREE -f
help: no operands|help x
EOF
	unchanged "$_t" &&
	    sed -n 3p "$TOOL" | grep -qx '# Copyright (c) 2026 The mplock authors' &&
	    grep -q '^# Permission to use, copy, modify, and distribute' "$TOOL"
}
t_check patch/usage/misuse usage_cases

# status: exit 1 unpatched, 0 patched and intact, 2 damaged; what is
# there, and its version (an installed copy's: suite install's).
status_cases() {
	_t=$(fresh status)
	status_is 1 "$_t" && grep -q 'not patched' "$PT/out" &&
	    pt apply "$_t" >/dev/null && status_is 0 "$_t" || return 1
	cat "$PT/out"
	_ver=unknown
	[ -e "$ROOT/.git" ] && _ver=$(git -C "$ROOT" rev-parse --short HEAD)
	for _l in "version: $_ver" "default backend: $DEFAULT_BACKEND" \
	    "	changed $KL" "	added sys/kern/kern_mplock.c"; do
		grep -qxF "$_l" "$PT/out" || { echo "no \"$_l\""; return 1; }
	done
	grep -Eq '^applied: [0-9]{4}-[0-9]{2}-[0-9]{2}T' "$PT/out" &&
	    ! grep -q 'since' "$PT/out" || return 1
	# A config: listed with its backend.
	pt config -b ticket -s "$_t" amd64 >/dev/null && status_is 0 "$_t" &&
	    grep -q 'added sys/arch/amd64/conf/MLOCK.MP (config, backend ticket)' \
	    "$PT/out" || return 1
	cp "$_t/$KL" "$PT/kl.save"
	echo "/* local */" >>"$_t/$KL"
	status_is 2 "$_t" && grep -qx "	changed $KL (changed since)" \
	    "$PT/out" && grep -q "revert $_t\" refuses to revert it; with -f" \
	    "$PT/out" || return 1
	cat "$PT/kl.save" >"$_t/$KL"
	mv "$_t/sys/kern/kern_mplock.c" "$PT/km.save"
	status_is 2 "$_t" && grep -q 'kern_mplock.c (removed since)' \
	    "$PT/out" || return 1
	mv "$PT/km.save" "$_t/sys/kern/kern_mplock.c"
	status_is 0 "$_t" || return 1
	_t3=$(fresh status-torn)
	mkdir "$_t3/.mplock-patch"
	status_is 2 "$_t3" && grep -q 'did not finish' "$PT/out" || return 1
	pt revert "$_t" >/dev/null && pt apply "$_t" >/dev/null || return 1
	echo "Q bogus" >>"$_t/.mplock-patch/files"
	status_is 2 "$_t" || return 1
	pt revert -f "$_t" 2>/dev/null && return 1
	rmdir "$_t3/.mplock-patch" && : >"$_t3/.mplock-patch" &&
	    status_is 2 "$_t3"
}
t_check patch/status/exit-codes status_cases

# With no share/man/man9, the pages left out, and said so.
installed_set() {
	_t=$(fresh installed-set)
	rm -rf "$_t/share/man/man9"
	sig "$_t"
	pt apply "$_t" >"$PT/out" &&
	    grep -q 'no share/man/man9: the manual pages left out' "$PT/out" &&
	    [ ! -e "$_t/share/man/man9" ] &&
	    [ -f "$_t/regress/sys/kern/mplock/Makefile" ] &&
	    pt revert "$_t" >/dev/null && unchanged "$_t"
}
t_check patch/apply/installed-set installed_set

# A tree of only sys/, and that sys directory named itself: every
# command, and revert byte for byte, modes and all.
sys_only() {
	for _how in top sys; do
		_t=$PT/sysonly-$_how _s=$PT/sysonly-$_how _l=sys/
		[ "$_how" = top ] || _s=$_t/sys _l=
		rm -rf "$_t"
		mkdir -p "$_t" && cp -Rp "$PT/pristine/sys" "$_t/" || return 1
		sig "$_t"
		status_is 1 "$_s" || return 1
		pt check "$_s" >"$PT/out" 2>"$PT/err" &&
		    [ "$(wc -l <"$PT/out")" -lt 40 ] && [ ! -s "$PT/err" ] &&
		    grep -q "change ${_l}kern/kern_lock.c" "$PT/out" ||
		    { cat "$PT/out" "$PT/err"; return 1; }
		grep -q '^	.*regress/' "$PT/out" && return 1
		fails 'regress/sys/kern: no such directory' pt check -r "$_s" ||
		    return 1
		pt apply -r "$_s" 2>/dev/null && return 1
		unchanged "$_t" || return 1
		pt diff -r "$_s" >/dev/null 2>&1 && return 1
		pt diff -k "$_s" >"$PT/so.diff" 2>/dev/null &&
		    pt diff "$_s" 2>/dev/null | cmp -s - "$PT/so.diff" &&
		    grep -q "^Index: ${_l}kern/kern_lock.c\$" "$PT/so.diff" ||
		    return 1
		grep '^Index: ' "$PT/so.diff" | grep -v "^Index: ${_l}" &&
		    return 1
		pt apply "$_s" || return 1
		[ "$(ls -A "$_t" | grep -vx '\.mplock-patch')" = sys ] ||
		    { echo "$_how: apply made more:"; ls -A "$_t"; return 1; }
		status_is 0 "$_s" &&
		    grep -q "added ${_l}kern/kern_mplock.c" "$PT/out" &&
		    pt diff -k "$_s" 2>/dev/null | cmp - "$PT/so.diff" &&
		    pt config -s "$_s" amd64 >"$PT/out" &&
		    [ -f "$_t/sys/arch/amd64/conf/MLOCK.MP" ] &&
		    grep -qF "cd $_t/sys/arch/amd64/compile/MLOCK.MP &&" \
		    "$PT/out" && pt revert "$_s" && unchanged "$_t" &&
		    p0 "$_s" "$PT/so.diff" || return 1
		! grep -q __USE_MI_MPLOCK "$_t/$KL" || return 1
	done
}
t_check patch/tree/sys-only sys_only

# /usr/src, /usr/src/sys and a /sys link to it are one tree, with one
# record: a fixture tree "src" and a link "syslink" to src/sys.
same_tree() {
	_d=$PT/same
	chmod -R u+w "$_d" 2>/dev/null
	rm -rf "$_d"
	mkdir -p "$_d/sysonly"
	cp -Rp "$PT/pristine" "$_d/src"
	ln -s src/sys "$_d/syslink"
	# The diffs of a tree of sys/ alone, of a sys directory, of the
	# tree: what the patched tree's, by each name, must be.
	cp -Rp "$PT/pristine/sys" "$_d/sysonly/"
	pt diff -q "$PT/pristine/sys" >"$_d/want-sys.diff" &&
	    pt diff -q "$_d/sysonly" >"$_d/want-top.diff" &&
	    pt diff -q "$PT/pristine" >"$_d/want-src.diff" || return 1
	# apply on src; config by the sys directory and by the link: in
	# the record; status, diff by every name; revert by the link.
	pt apply "$_d/src" >/dev/null || return 1
	for _n in src/sys syslink; do
		pt config -n "X$(echo $_n | tr -d /).MP" -s "$_d/$_n" amd64 \
		    >"$_d/out" 2>&1 && ! grep -q 'no record' "$_d/out" ||
		    { cat "$_d/out"; echo "config -s $_n: no record"; return 1; }
	done
	for _n in src src/sys syslink; do
		status_is 0 "$_d/$_n" &&
		    grep -q "^$_d/src: patched by mplock-patch" "$PT/out" &&
		    grep -q 'added sys/arch/amd64/conf/Xsyslink.MP' "$PT/out" ||
		    return 1
		pt check "$_d/$_n" 2>"$_d/err" && return 1
		grep -q 'patch -R' "$_d/err" && { cat "$_d/err"; return 1; }
	done
	pt diff -q "$_d/src" | cmp - "$_d/want-src.diff" &&
	    pt diff -q "$_d/src/sys" | cmp - "$_d/want-sys.diff" &&
	    pt diff -q "$_d/syslink" | cmp - "$_d/want-sys.diff" ||
	    { echo "diff by another name: not the unpatched tree's"
	    return 1; }
	pt revert "$_d/syslink" && pristine "$_d/src" || return 1
	# apply on the link (the sys directory): status, check, apply,
	# config and diff on src find its record; revert src.
	pt apply "$_d/syslink" >/dev/null && [ -d "$_d/src/sys/.mplock-patch" ] &&
	    status_is 0 "$_d/src" &&
	    grep -q "^$_d/src/sys: patched by mplock-patch" "$PT/out" ||
	    return 1
	tree_sig "$_d/src" >"$_d/patched.sig"
	for _c in apply check; do
		fails "the same tree as $_d/src/sys" pt $_c "$_d/src" || return 1
		grep -q 'patch -R' "$PT/err" && return 1
	done
	same_as "$_d/patched.sig" "$_d/src" &&
	    pt config -s "$_d/src" amd64 >"$_d/out" 2>&1 &&
	    ! grep -q 'no record' "$_d/out" &&
	    pt diff -q "$_d/src" | cmp - "$_d/want-top.diff" &&
	    pt revert "$_d/src" && pristine "$_d/src"
}
t_check patch/tree/one-tree-three-names same_tree
# Seeded: the record looked for only where the tree was named; links
# kept in the path.  (MPLOCK_ROOT: the seeded copies are elsewhere.)
MPLOCK_ROOT=$ROOT
export MPLOCK_ROOT
t_seeded_tool patch/tree/seeded/record-by-name-only TOOL \
    's/^	elif \[ "\${S##\*\/}" = sys \] && has_rec/	elif false \&\& has_rec/' \
    same_tree
t_seeded_tool patch/tree/seeded/links-not-resolved TOOL \
    's/_sd=\$(cd "\$_sd" \&\& pwd -P)/_sd=$(cd "$_sd" \&\& pwd)/' same_tree
unset MPLOCK_ROOT

# An operand that is no source tree (an empty directory), no directory,
# or nothing: every command says so in one line, exit 1; nothing made.
not_a_tree() {
	mkdir -p "$PT/notree"
	: >"$PT/plainfile"
	for _c in apply check "config -s" diff revert status; do
		for _d in "notree: not an OpenBSD source tree (no" \
		    "plainfile: not a directory" "nonexistent: no such directory"
		do
			_a=
			[ "$_c" != "config -s" ] || _a=amd64
			fails "" pt $_c "$PT/${_d%%:*}" $_a &&
			    [ ! -s "$PT/out" ] &&
			    one_line "$PT/err" "^mplock-patch: .*/$_d" || return 1
		done
	done
	[ ! -e "$PT/nonexistent" ] && [ ! -s "$PT/plainfile" ] &&
	    [ -z "$(ls -A "$PT/notree")" ] || return 1
	# config without -s: /usr/src, which here is no OpenBSD tree (or
	# is none at all).
	[ ! -f /usr/src/sys/kern/kern_lock.c ] || return 0
	fails "" pt config amd64 || return 1
	grep -qx 'mplock-patch: /usr/src: no such directory' "$PT/err" ||
	    grep -qx "mplock-patch: /usr/src: not an OpenBSD source tree (no\
 sys/kern/kern_lock.c, no sys/conf/files); -s names the tree" "$PT/err"
}
t_check patch/tree/not-a-source-tree not_a_tree

# In a tree whose path has a blank and a quote, the revert command apply
# prints and the cd config prints work as printed.
paste_commands() {
	_d="$PT/sp ace/it's"
	rm -rf "$PT/sp ace"
	mkdir -p "$PT/sp ace"
	cp -Rp "$PT/pristine" "$_d"
	pt apply "$_d" >"$PT/out" || return 1
	_undo=$(sed -n 's/.*undo with "\(.*\)"$/\1/p' "$PT/out")
	pt config -s "$_d" amd64 >"$PT/out" || return 1
	_cd=$(sed -n 's/^	\(cd .*\) && make obj .*/\1/p' "$PT/out")
	[ "$(sh -c "$_cd && pwd")" = "$_d/sys/arch/amd64/compile/MLOCK.MP" ] ||
	    { echo "printed cd does not paste: $_cd"; return 1; }
	case $_undo in
	"mplock-patch revert "*)	;;
	*)	echo "no revert command: $_undo"; return 1 ;;
	esac
	echo "$_undo" | sed "s|^mplock-patch |sh $TOOL |" >"$PT/undo.sh"
	sh "$PT/undo.sh" || { echo "printed revert does not paste"; return 1; }
	pristine "$_d"
}
t_check patch/printed-commands-paste paste_commands

# help and -h: the page's synopsis, word for word (mplock-patch(8),
# buildtime(1)); buildtime(1) names import's four time formats.
help_is_page() {
	for _p in tools/mplock-patch:share/man/man8/mplock-patch.8 \
	    tools/buildtime:share/man/man1/buildtime.1; do
		MANWIDTH=200 mandoc -Tascii "$ROOT/${_p#*:}" | col -b |
		    sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed '1d;$d' |
		    tr -s ' \n\t' '   ' | sed 's/^ *//; s/ *$//' >"$PT/man.syn"
		for _h in help -h; do
			sh "$ROOT/${_p%%:*}" $_h >"$PT/out" 2>"$PT/err" &&
			    [ ! -s "$PT/err" ] ||
			    { echo "${_p%%:*} $_h: exit $?, or stderr"; return 1; }
			sed -n '1,/^$/p' "$PT/out" | sed 's/^usage: //' |
			    tr -s ' \n\t' '   ' | sed 's/ *$//' >"$PT/help.syn"
			diff "$PT/man.syn" "$PT/help.syn" || { echo \
			    "${_p%%:*} $_h: help and page differ"; return 1; }
		done
	done
	# The report formats import reads are the page's to tell.
	_h=$(MANWIDTH=200 mandoc -Tascii "$ROOT/share/man/man1/buildtime.1" |
	    col -b | sed -n '/^ *import /,/^ *compare /p')
	for _f in 'time -p' 'time(1) without -p' "ksh(1)'s time" \
	    "bash(1)'s time"; do
		echo "$_h" | tr '\n\t' '  ' | tr -s ' ' | grep -qF "$_f" ||
		    { echo "import's page lacks $_f"; return 1; }
	done
}
t_need mandoc patch/usage/help-is-the-page help_is_page
