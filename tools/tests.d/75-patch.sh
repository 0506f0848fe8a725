# patch: tools/mplock-patch against fixture trees built from the
# brief's facts (tools/lib/fixture-tree.sh): apply, the expected result,
# revert to the same bytes, modes and files; every refusal leaves the
# tree as it was; failures and interruptions in the middle of apply;
# diff | patch -p0 gives what apply gives; older trees; ddb hook and MD
# headers; config; the Makefile targets; a second shell (mksh, a
# pdksh like OpenBSD's ksh); the patched kernel files compiled for
# OpenBSD amd64 and i386.

. "$ROOT/tools/lib/fixture-tree.sh"

PT=$OBJ/patch
chmod -R u+w "$PT" 2>/dev/null
rm -rf "$PT"
mkdir -p "$PT/tmp"
# Where an interrupted apply leaves its work directory.
TMPDIR=$PT/tmp
export TMPDIR
TOOL=$ROOT/tools/mplock-patch
unset MPLOCK_ROOT

fixture_tree "$PT/pristine" && tree_sig "$PT/pristine" >"$PT/pristine.sig"
fixture_tree "$PT/pristine-old" old

# fresh NAME [FROM]: a copy of the pristine fixture (or of FROM).
fresh() {
	rm -rf "$PT/$1"
	cp -Rp "$PT/${2:-pristine}" "$PT/$1"
	echo "$PT/$1"
}

# same_as SIGFILE DIR: DIR's signature is SIGFILE's.
same_as() {
	tree_sig "$2" >"$2.sig.now"
	if ! cmp -s "$1" "$2.sig.now"; then
		echo "tree $2 differs from $1:"
		diff "$1" "$2.sig.now" | head -n 20
		return 1
	fi
}

# The files apply must install: what git tracks (or would) under the
# installed paths, found independently of the tool's own listing: sys/,
# the section 9 pages, the regress directory.
expected_files() {
	if (cd "$ROOT" && git rev-parse --git-dir) >/dev/null 2>&1; then
		(cd "$ROOT" && git ls-files -co --exclude-standard sys \
		    share/man/man9 regress/sys/kern)
	else
		(cd "$ROOT" && find sys share/man/man9 regress/sys/kern -type f)
	fi | LC_ALL=C sort
}

# bmake's view of a Makefile's variable, with OpenBSD's .mk files
# stubbed.
MKSTUB=$PT/mk
mkdir -p "$MKSTUB"
cp "$ROOT/tools/fixtures/mk/sys.mk" "$MKSTUB/"
: >"$MKSTUB/bsd.prog.mk"
: >"$MKSTUB/bsd.subdir.mk"
make_var() {	# dir var
	bmake -m "$MKSTUB" -C "$1" -V "$2"
}

# verify_applied TREE: everything apply should have done.
verify_applied() {
	_t=$1 _r=$ROOT
	_rc=0
	expected_files >"$PT/expected"
	while read -r _f; do
		case $_f in
		sys/arch/*)
			_a=${_f#sys/arch/}
			[ -d "$_t/sys/arch/${_a%%/*}" ] || continue ;;
		esac
		if ! cmp -s "$_r/$_f" "$_t/$_f"; then
			echo "$_f: not installed as in this checkout"
			_rc=1
		elif [ "$(ls -l "$_t/$_f" | cut -c1-10)" != -rw-r--r-- ]; then
			echo "$_f: mode $(ls -l "$_t/$_f" | cut -c1-10)"
			_rc=1
		fi
	done <"$PT/expected"
	# The regress directory holds exactly the tracked files.
	grep '^regress/sys/kern/mplock/' "$PT/expected" >"$PT/expected-regress"
	(cd "$_t" && find regress/sys/kern/mplock -type f) | LC_ALL=C sort |
	    diff "$PT/expected-regress" - || {
		echo "regress/sys/kern/mplock: other files than expected"
		_rc=1
	}

	# kern_lock.c: the ticket lock block removed, from its #ifdef to
	# its #endif and the blank line after, nothing else.
	diff "$PT/pristine/sys/kern/kern_lock.c" "$_t/sys/kern/kern_lock.c" \
	    >"$PT/kl.diff"
	if grep -q '^>' "$PT/kl.diff" ||
	    [ "$(grep -c '^[0-9]' "$PT/kl.diff")" -ne 1 ] ||
	    [ "$(sed -n 2p "$PT/kl.diff")" != "< #ifdef __USE_MI_MPLOCK" ] ||
	    ! grep -qx '< /\* Ticket lock implementation \*/' "$PT/kl.diff" ||
	    [ "$(tail -n 2 "$PT/kl.diff" | head -n 1)" != \
	    "< #endif /* __USE_MI_MPLOCK */" ] ||
	    [ "$(tail -n 1 "$PT/kl.diff")" != "< " ]; then
		echo "kern_lock.c: not the ticket block removed:"
		cat "$PT/kl.diff"
		_rc=1
	fi
	# sys/conf/files: every new kernel C file, after kern_lock.c;
	# the debug layer and the torture test only with their options.
	for _f in "$_r"/sys/kern/kern_mplock*.c; do
		_k=kern/$(basename "$_f")
		_cond=multiprocessor
		[ "$_k" = kern/kern_mplock_torture.c ] && _cond=mplock_torture
		[ "$_k" = kern/kern_mplock_debug.c ] &&
		    _cond='multiprocessor & mplock_debug'
		grep -Eq "^file[[:space:]]+$_k[[:space:]]+$_cond\$" \
		    "$_t/sys/conf/files" || {
			echo "sys/conf/files: no line \"file $_k $_cond\""
			_rc=1
		}
	done
	# init_main.c: the torture test's start, the three lines right
	# after "cpu_boot_secondary_processors();", nothing else.
	if [ -f "$_r/sys/kern/kern_mplock_torture.c" ]; then
		diff "$PT/pristine/sys/kern/init_main.c" \
		    "$_t/sys/kern/init_main.c" >"$PT/im.diff"
		printf '%s\n' '> #ifdef MPLOCK_TORTURE' \
		    '> 	mplock_torture_start();' '> #endif' >"$PT/im.want"
		_at=$(grep -n 'cpu_boot_secondary_processors();' \
		    "$PT/pristine/sys/kern/init_main.c" | cut -d: -f1)
		if [ "$(head -n 1 "$PT/im.diff")" != "${_at}a$((_at + 1)),$((_at + 3))" ] ||
		    ! sed 1d "$PT/im.diff" | cmp -s - "$PT/im.want"; then
			echo "init_main.c: not the three-line hook:"
			cat "$PT/im.diff"
			_rc=1
		fi
	fi
	[ "$(sed -n '/kern_lock\.c/{n;p;}' "$_t/sys/conf/files" |
	    cut -d' ' -f2 | cut -f1)" = kern/kern_mplock.c ] || {
		echo "sys/conf/files: kern_mplock.c does not follow kern_lock.c"
		_rc=1
	}
	# The Makefiles, as make reads them.
	_man=$(make_var "$_t/share/man/man9" MAN)
	for _p in "$_r"/share/man/man9/*.9; do
		_p=$(basename "$_p")
		case " $_man " in
		*" $_p "*) ;;
		*)	echo "man9 MAN lacks $_p: $_man"; _rc=1 ;;
		esac
	done
	# Sorted in: the names around ours sort before and after them, and
	# no MLINKS (makewhatis indexes the NAME section).
	echo "$_man" | tr ' ' '\n' | awk 'NF' | awk '
	    /^mplock/ { if (prev != "" && tolower(prev) > tolower($0)) bad = 1
		ours = 1; prev = $0; next }
	    ours && !done { if (tolower($0) < tolower(prev)) bad = 1; done = 1 }
	    { prev = $0 }
	    END { exit bad || !ours }' || {
		echo "man9 MAN: our pages not sorted in: $_man"
		_rc=1
	}
	if grep -q 'mplock' "$_t/share/man/man9/Makefile" &&
	    grep 'MLINKS' "$_t/share/man/man9/Makefile" | grep -q mplock; then
		echo "man9 Makefile: MLINKS for our pages"
		_rc=1
	fi
	case " $(make_var "$_t/regress/sys/kern" SUBDIR) " in
	*" extent fork-exit mplock "*) ;;
	*)	echo "regress SUBDIR: $(make_var "$_t/regress/sys/kern" \
		    SUBDIR)"; _rc=1 ;;
	esac
	return $_rc
}

# roundtrip SHELL: apply, check the result, revert, same tree.
roundtrip() {
	_t=$(fresh "rt-$1")
	"$1" "$TOOL" check "$_t" || return 1
	"$1" "$TOOL" apply "$_t" || return 1
	verify_applied "$_t" || return 1
	"$1" "$TOOL" check "$_t" 2>"$PT/err" && {
		echo "check passes a patched tree"
		return 1
	}
	grep -q 'already patched by mplock-patch' "$PT/err" || return 1
	"$1" "$TOOL" revert "$_t" || return 1
	same_as "$PT/pristine.sig" "$_t"
}
t_check patch/roundtrip/sh roundtrip sh
if command -v mksh >/dev/null 2>&1; then
	t_check patch/roundtrip/mksh roundtrip mksh
else
	t_fail patch/roundtrip/mksh "mksh not installed (.ci/run installs it)"
fi

# The regress directory, as installed, builds in the patched tree and
# its programs run (bmake, the regress Makefile's own paths).
installed_regress() {
	_t=$(fresh regress-tree)
	sh "$TOOL" apply "$_t" || return 1
	mkdir -p "$PT/regress-obj"
	MAKEOBJDIR=$PT/regress-obj bmake -m "$ROOT/tools/fixtures/mk" \
	    -C "$_t/regress/sys/kern/mplock" \
	    $(for _b in $BACKENDS; do echo "mplocktest-$_b"; done) || return 1
	for _b in $BACKENDS; do
		"$PT/regress-obj/mplocktest-$_b" -q recurse || return 1
	done
	sh "$TOOL" revert "$_t"
}
if command -v bmake >/dev/null 2>&1; then
	t_check patch/installed-regress-builds installed_regress
else
	t_fail patch/installed-regress-builds "bmake not installed"
fi

# refuse NAME EXPECTED MUTATOR [ARGS]: a copy of the fixture changed by
# MUTATOR DIR ARGS; check and apply (and diff, with $R_DIFF set) must
# fail saying EXPECTED and leave it exactly as it was.  $R_ROOT, when set, is the checkout the
# tool installs from.
R_ROOT= R_DIFF=
run_tool() {
	if [ -n "$R_ROOT" ]; then
		MPLOCK_ROOT=$R_ROOT sh "$TOOL" "$@"
	else
		sh "$TOOL" "$@"
	fi
}
refuse_case() {
	_rn=$1 _exp=$2 _mut=$3
	shift 3
	_t=$(fresh "refuse-$_rn")
	"$_mut" "$_t" "$@" || { echo "mutator failed"; return 1; }
	tree_sig "$_t" >"$_t.sig"
	for _c in check apply ${R_DIFF:+diff}; do
		if run_tool $_c "$_t" >"$PT/out" 2>"$PT/err"; then
			echo "$_c succeeded"
			return 1
		fi
		cat "$PT/err"
		grep -qF -- "$_exp" "$PT/err" || {
			echo "$_c: no \"$_exp\" in the message"
			return 1
		}
		[ "$_c" != diff ] || [ ! -s "$PT/out" ] || {
			echo "diff printed a diff"
			return 1
		}
		same_as "$_t.sig" "$_t" || return 1
	done
}
refuse() {
	t_check "patch/refuse/$1" refuse_case "$@"
}
# The same, and diff refuses too (it shares the checks; a few suffice).
refuse_diff() {
	R_DIFF=1
	refuse "$@"
	R_DIFF=
}

# Mutators.
m_rm() {		# dir path
	rm -rf "${1:?}/$2"
}
m_sed() {		# dir path sed-script
	sed "$3" "$1/$2" >"$1/$2.new" && cat "$1/$2.new" >"$1/$2" &&
	    rm "$1/$2.new"
}
m_chmod() {		# dir mode path
	chmod "$2" "$1/$3"
}
m_copy() {		# dir path: put our file there
	cp "$ROOT/$2" "$1/$2"
}
m_state() {		# dir: a stray record directory
	mkdir "$1/.mplock-patch"
}
m_patched() {		# dir: patched with patch(1), so no record
	sh "$TOOL" diff "$1" >"$PT/m.diff" && (cd "$1" && patch -p0 -s \
	    <"$PT/m.diff")
}
m_empty() {		# dir: nothing in it
	rm -rf "${1:?}"/* "$1"/.[!.]*
}

KL=sys/kern/kern_lock.c
refuse_diff empty-dir "not an OpenBSD source tree" m_empty
refuse no-kern_lock "sys/kern/kern_lock.c: missing" m_rm "$KL"
refuse no-files "sys/conf/files: missing" m_rm sys/conf/files
refuse no-mplock.h "sys/sys/mplock.h: missing" m_rm sys/sys/mplock.h
refuse no-man9-makefile "share/man/man9/Makefile: missing" \
    m_rm share/man/man9/Makefile
refuse no-regress-makefile "regress/sys/kern/Makefile: missing" \
    m_rm regress/sys/kern/Makefile
refuse_diff ticket-comment-moved \
    'no "#ifdef __USE_MI_MPLOCK" followed by "/* Ticket lock implementation */"' \
    m_sed "$KL" '/^\/\* Ticket lock implementation \*\//i\
int mplock_moved;'
refuse ticket-comment-reworded 'no "#ifdef __USE_MI_MPLOCK" followed by' \
    m_sed "$KL" 's|Ticket lock implementation|Ticket lock|'
refuse ticket-block-twice '/* Ticket lock implementation */" found 2 times' \
    m_sed "$KL" '/^\/\* Ticket lock implementation \*\//{
a\
#ifdef __USE_MI_MPLOCK\
/* Ticket lock implementation */\
#endif /* __USE_MI_MPLOCK */
}'
refuse endif-comment-changed 'not "#endif /* __USE_MI_MPLOCK */"' \
    m_sed "$KL" 's|^#endif /\* __USE_MI_MPLOCK \*/|#endif|'
refuse block-end-removed 'with "#endif /* MULTIPROCESSOR */", not' \
    m_sed "$KL" '/^#endif \/\* __USE_MI_MPLOCK \*\//d'
refuse block-not-closed "is not closed" \
    m_sed "$KL" '/^#endif \/\* __USE_MI_MPLOCK \*\//,$d'
refuse spinout-inside-block \
    "__mp_lock_spinout is defined inside the ticket lock block" \
    m_sed "$KL" '/^\/\* Ticket lock implementation \*\//a\
long __mp_lock_spinout = 1;'
refuse kernel_lock_held-missing "no definition of _kernel_lock_held" \
    m_sed "$KL" 's/^_kernel_lock_held(/_kernel_lock_is_held(/'
refuse no-ticket-code "does not define ___mp_lock_init()" \
    m_sed "$KL" 's/^___mp_lock_init(/___mp_lock_setup(/'
refuse files-no-kern_lock '"file kern/kern_lock.c" found 0 times' \
    m_sed sys/conf/files '/kern_lock/d'
refuse files-kern_lock-twice '"file kern/kern_lock.c" found 2 times' \
    m_sed sys/conf/files '/kern_lock/p'
refuse man9-no-man-list 'share/man/man9/Makefile: no MAN= list' \
    m_sed share/man/man9/Makefile 's/^MAN=/MANPAGES=/'
refuse regress-no-include '".include <bsd.subdir.mk>" found 0 times' \
    m_sed regress/sys/kern/Makefile '/^\.include/d'
refuse mplock.h-not-mi "not the MI __mp_lock interface" \
    m_sed sys/sys/mplock.h 's/__USE_MI_MPLOCK/__USE_MD_LOCK/'
refuse_diff read-only-file "sys/kern/kern_lock.c: not writable" \
    m_chmod 444 "$KL"
refuse read-only-dir "sys/kern: directory not writable" \
    m_chmod 555 sys/kern
refuse read-only-top "directory not writable" m_chmod 555 .
refuse_diff stray-record "an earlier apply did not finish" m_state
m_state_file() {	# dir: a file where the record directory goes
	: >"$1/.mplock-patch"
}
m_state_link() {	# dir: a link there
	ln -s /tmp "$1/.mplock-patch"
}
refuse state-is-a-file ".mplock-patch is not a directory" m_state_file
refuse state-is-a-link ".mplock-patch is not a directory" m_state_link
refuse_diff partial-copy "sys/kern/kern_mplock.c: already exists" \
    m_copy sys/kern/kern_mplock.c
refuse partial-mplock.h "sys/sys/mplock.h: already ours" \
    m_copy sys/sys/mplock.h
refuse_diff patched-by-patch1 "no ticket lock block" m_patched
refuse man9-already "already mentions mplock.9" \
    m_sed share/man/man9/Makefile 's/^MAN=/MAN=	mplock.9/'
refuse regress-already "already mentions mplock" \
    m_sed regress/sys/kern/Makefile 's/extent/extent mplock/'
IM=sys/kern/init_main.c
refuse no-init_main "$IM: missing" m_rm "$IM"
refuse init_main-no-boot \
    '"cpu_boot_secondary_processors();" found 0 times' \
    m_sed "$IM" '/cpu_boot_secondary_processors();/d'
refuse init_main-boot-twice \
    '"cpu_boot_secondary_processors();" found 2 times' \
    m_sed "$IM" '/cpu_boot_secondary_processors();/p'
refuse_diff init_main-already "already mentions mplock_torture" \
    m_sed "$IM" '/cpu_boot_secondary_processors();/a\
	mplock_torture_start();'

# SRC that is no directory at all.
not_a_dir() {
	: >"$PT/plainfile"
	for _c in check apply revert diff; do
		sh "$TOOL" $_c "$PT/plainfile" 2>"$PT/err" && return 1
		grep -q "plainfile: not a directory" "$PT/err" || return 1
		sh "$TOOL" $_c "$PT/nonexistent" 2>"$PT/err" && return 1
		grep -q "nonexistent: no such directory" "$PT/err" || return 1
	done
	[ ! -e "$PT/nonexistent" ] && [ ! -s "$PT/plainfile" ]
}
t_check patch/refuse/not-a-directory not_a_dir

# Older trees: recognised and refused, with the reason.
old_tree_refused() {
	_t=$(fresh old pristine-old)
	tree_sig "$_t" >"$_t.sig"
	sh "$TOOL" check "$_t" 2>"$PT/err" && return 1
	cat "$PT/err"
	for _w in "OpenBSD 7.5 or older" "__mp_release_all_but_one" \
	    "gives sched_lock WITNESS flags" \
	    "declares sched_lock a struct __mp_lock" "not supported"; do
		grep -qF "$_w" "$PT/err" || { echo "missing: $_w"; return 1; }
	done
	sh "$TOOL" apply "$_t" 2>/dev/null && return 1
	same_as "$_t.sig" "$_t"
}
t_check patch/refuse/openbsd-7.5-tree old_tree_refused

# Failures, signals and kills at every step of apply, revert and
# config: suite patchfault (76-patchfault.sh).

# revert: refuses what it cannot restore without losing changes.
revert_cases() {
	_t=$(fresh revert)
	sh "$TOOL" revert "$_t" 2>"$PT/err" && return 1
	grep -q "not patched by mplock-patch" "$PT/err" || return 1
	same_as "$PT/pristine.sig" "$_t" || return 1

	sh "$TOOL" apply "$_t" >/dev/null || return 1
	echo "/* local change */" >>"$_t/$KL"
	: >"$_t/regress/sys/kern/mplock/mplocktest-mlock"
	tree_sig "$_t" >"$_t.sig"
	sh "$TOOL" revert "$_t" 2>"$PT/err" && return 1
	cat "$PT/err"
	grep -q "$KL: changed since apply" "$PT/err" || return 1
	grep -q "regress/sys/kern/mplock: holds files apply did not add" \
	    "$PT/err" || return 1
	same_as "$_t.sig" "$_t" || return 1
	sh "$TOOL" revert -f "$_t" || return 1
	same_as "$PT/pristine.sig" "$_t" || return 1

	# make obj's links in directories we made are the build's.
	sh "$TOOL" apply "$_t" >/dev/null || return 1
	ln -s /nonexistent/obj "$_t/regress/sys/kern/mplock/obj"
	sh "$TOOL" revert "$_t" || return 1
	same_as "$PT/pristine.sig" "$_t"
}
t_check patch/revert/refusals-and-force revert_cases

# diff: what apply does, as a patch(1) input for "cd SRC && patch -p0".
diff_patch() {
	_a=$(fresh diff-apply)
	_p=$(fresh diff-patch)
	sh "$TOOL" diff "$_a" >"$PT/mplock.diff" || return 1
	same_as "$PT/pristine.sig" "$_a" || return 1
	sh "$TOOL" apply "$_a" >/dev/null || return 1
	mv "$_a/.mplock-patch" "$PT/diff-apply-record"
	tree_sig "$_a" >"$_a.sig"
	(cd "$_p" && patch -p0 -s <"$PT/mplock.diff") || return 1
	same_as "$_a.sig" "$_p" || return 1
	(cd "$_p" && patch -p0 -R -s <"$PT/mplock.diff") || return 1
	same_as "$PT/pristine.sig" "$_p"
}
t_check patch/diff/patch-p0-equals-apply diff_patch

# The top-level Makefile targets, with GNU make and BSD make.
make_targets() {	# make
	_t=$(fresh "make-$1")
	(cd "$ROOT" && $1 -s patch SRC="$_t") >"$PT/make.diff" || return 1
	sh "$TOOL" diff "$_t" 2>/dev/null | cmp -s - "$PT/make.diff" || {
		echo "make patch differs from mplock-patch diff"
		return 1
	}
	for _m in kernel:-k regress:-r; do
		(cd "$ROOT" && $1 -s "patch-${_m%:*}" SRC="$_t") \
		    >"$PT/make.diff" 2>/dev/null || return 1
		sh "$TOOL" diff "${_m#*:}" "$_t" 2>/dev/null |
		    cmp -s - "$PT/make.diff" || {
			echo "make patch-${_m%:*} differs from diff ${_m#*:}"
			return 1
		}
	done
	(cd "$ROOT" && $1 -s apply SRC="$_t") || return 1
	verify_applied "$_t" || return 1
	(cd "$ROOT" && $1 -s revert SRC="$_t") || return 1
	same_as "$PT/pristine.sig" "$_t"
}
for mk in make bmake; do
	if command -v $mk >/dev/null 2>&1; then
		t_check "patch/make-targets/$mk" make_targets $mk
	else
		t_fail "patch/make-targets/$mk" "$mk not installed"
	fi
done

# A checkout with more in it: an MD header for an arch the tree has and
# for one it lacks, and the debug layer's ddb command.  Built from this
# checkout, adding what it lacks.
EXT=$PT/root-ext
rm -rf "$EXT"
mkdir -p "$EXT"
cp -R "$ROOT/sys" "$ROOT/share" "$ROOT/regress" "$ROOT/tools" "$EXT/"
mkdir -p "$EXT/sys/arch/amd64/include" "$EXT/sys/arch/nosuch/include"
[ -f "$EXT/sys/arch/amd64/include/mplock.h" ] ||
    printf '/* test */\n#define __USE_MI_MPLOCK\n' \
    >"$EXT/sys/arch/amd64/include/mplock.h"
printf '/* test */\n#define __USE_MI_MPLOCK\n' \
    >"$EXT/sys/arch/nosuch/include/mplock.h"
if ! grep -q '^db_show_mplock(' "$EXT"/sys/kern/kern_mplock*.c; then
	cat >"$EXT/sys/kern/kern_mplock_dbtest.c" <<'EOF'
/* test: stands in for the debug layer's ddb command */
#if defined(MULTIPROCESSOR) && defined(MPLOCK_DEBUG)
typedef long db_expr_t;
void	db_show_mplock(db_expr_t, int, db_expr_t, char *);

void
db_show_mplock(db_expr_t addr, int have_addr, db_expr_t count, char *modif)
{
}
#endif
EOF
fi

ext_roundtrip() {
	_t=$(fresh ext)
	MPLOCK_ROOT=$EXT sh "$TOOL" apply "$_t" || return 1
	cmp "$EXT/sys/arch/amd64/include/mplock.h" \
	    "$_t/sys/arch/amd64/include/mplock.h" || return 1
	[ ! -e "$_t/sys/arch/nosuch" ] || { echo "made arch nosuch"; return 1; }
	for _f in "$EXT"/sys/kern/kern_mplock*.c; do
		grep -q "^file kern/${_f##*/}" "$_t/sys/conf/files" || return 1
	done
	_db=$_t/sys/ddb/db_command.c
	# The entry sits in the show table, guarded, before its end.
	awk '/db_show_cmds\[\] = \{/ { t = 1 }
	    t && /"mplock",[ \t]*db_show_mplock,/ { e = NR }
	    t && /^#if defined\(MULTIPROCESSOR\) && defined\(MPLOCK_DEBUG\)$/ {
		g = NR }
	    t && /\{ NULL,/ { end = NR; t = 0 }
	    END { exit !(e && g == e - 1 && end == e + 2) }' "$_db" || {
		echo "db_command.c:"
		cat "$_db"
		return 1
	}
	# The prototype sits with ddb's other commands from elsewhere.
	grep -qx 'void db_show_mplock(db_expr_t, int, db_expr_t, char \*);' \
	    "$_t/sys/ddb/db_interface.h" || {
		echo "db_interface.h:"
		cat "$_t/sys/ddb/db_interface.h"
		return 1
	}
	MPLOCK_ROOT=$EXT sh "$TOOL" revert "$_t" || return 1
	same_as "$PT/pristine.sig" "$_t" || return 1
	# And as a diff.
	MPLOCK_ROOT=$EXT sh "$TOOL" diff "$_t" >"$PT/ext.diff" || return 1
	(cd "$_t" && patch -p0 -s <"$PT/ext.diff") || return 1
	grep -q db_show_mplock "$_db"
}
t_check patch/ext/md-headers-and-ddb-roundtrip ext_roundtrip

refuse_ext() {	# name expected mutator args
	R_ROOT=$EXT
	t_check "patch/refuse/ext/$1" refuse_case "$@"
	R_ROOT=
}
refuse_ext md-lock-header "does not use the MI lock" \
    m_sed sys/arch/amd64/include/mplock.h 's/__USE_MI_MPLOCK/__HPPA_LIKE/'
refuse_ext md-header-missing "sys/arch/amd64/include/mplock.h: missing" \
    m_rm sys/arch/amd64/include/mplock.h
refuse_ext ddb-no-table '"db_show_cmds[] = {" table found 0 times' \
    m_sed sys/ddb/db_command.c 's/db_show_cmds\[\]/db_show_table[]/'
refuse_ext ddb-no-terminator "has no { NULL, ... } terminator" \
    m_sed sys/ddb/db_command.c '/^	{ NULL,		NULL,			0,	NULL }/d'
refuse_ext ddb-missing "sys/ddb/db_command.c: missing" \
    m_rm sys/ddb/db_command.c

# config: a kernel config and compile directory in a patched tree.
config_cases() {
	_t=$(fresh config)
	_err=$PT/err
	sh "$TOOL" config -s "$_t" amd64 2>"$_err" && return 1
	grep -q "not patched by mplock-patch" "$_err" || return 1
	MPLOCK_ROOT=$EXT sh "$TOOL" apply "$_t" >/dev/null || return 1
	tree_sig "$_t" >"$_t.sig"
	for _bad in "vax:not a multiprocessor arch" \
	    "hppa:hppa keeps its own MD kernel lock" \
	    "sparc64:no sys/arch/sparc64/conf/GENERIC.MP" \
	    "-b clh amd64:clh: no such backend" \
	    "-o MPLOCK_TICKET amd64:choose the backend with -b" \
	    "-o lower amd64:not a kernel option name" \
	    "-n GENERIC.MP amd64:the stock configs are not ours to write"; do
		sh "$TOOL" config -s "$_t" ${_bad%%:*} 2>"$_err" && {
			echo "config ${_bad%%:*} succeeded"
			return 1
		}
		grep -qF "${_bad#*:}" "$_err" || {
			echo "config ${_bad%%:*}: $(cat "$_err")"
			return 1
		}
		same_as "$_t.sig" "$_t" || return 1
	done
	# Not ours: refused.
	cp "$_t/sys/arch/amd64/conf/GENERIC" "$_t/sys/arch/amd64/conf/MINE.MP"
	sh "$TOOL" config -n MINE.MP -s "$_t" amd64 2>"$_err" && return 1
	grep -q "MINE.MP exists and is not ours" "$_err" || return 1
	rm "$_t/sys/arch/amd64/conf/MINE.MP"

	sh "$TOOL" config -s "$_t" amd64 >"$PT/out" || return 1
	cat "$PT/out"
	_c=$_t/sys/arch/amd64/conf/MLOCK.MP
	grep -qx 'include "arch/amd64/conf/GENERIC.MP"' "$_c" || return 1
	grep -Eqx "option[[:space:]]+MPLOCK_$(upper "$DEFAULT_BACKEND")" \
	    "$_c" || return 1
	[ "$(grep -c '^option' "$_c")" -eq 1 ] || return 1
	grep -qx '.include "../Makefile.inc"' \
	    "$_t/sys/arch/amd64/compile/MLOCK.MP/Makefile" || return 1
	grep -qF "cd $_t/sys/arch/amd64/compile/MLOCK.MP && make obj && make config && make && make install" \
	    "$PT/out" || return 1
	# Again, other options: ours, so rewritten.
	MPLOCK_ROOT=$EXT sh "$TOOL" config -b ticket -w -l -d \
	    -o MPLOCK_DEBUG_NEVENTS=64 -s "$_t" amd64 >/dev/null || return 1
	for _o in MPLOCK_TICKET WITNESS MP_LOCKDEBUG MPLOCK_DEBUG \
	    MPLOCK_DEBUG_NEVENTS=64
	do
		grep -Eqx "option[[:space:]]+$_o" "$_c" || {
			echo "no option $_o"
			cat "$_c"
			return 1
		}
	done
	sh "$TOOL" config -n MLOCK-TICKET.MP -b ticket -s "$_t" arm64 \
	    >/dev/null || return 1
	grep -qx 'include "arch/arm64/conf/GENERIC.MP"' \
	    "$_t/sys/arch/arm64/conf/MLOCK-TICKET.MP" || return 1
	# After a build: make obj's link in the compile directory.
	ln -s /usr/obj/x "$_t/sys/arch/amd64/compile/MLOCK.MP/obj"
	MPLOCK_ROOT=$EXT sh "$TOOL" revert "$_t" || return 1
	same_as "$PT/pristine.sig" "$_t"
}
t_check patch/config config_cases

# config -d needs a checkout with the debug layer.
config_no_debug() {
	_t=$(fresh config-nd)
	_r=$PT/root-nodebug
	rm -rf "$_r"
	mkdir -p "$_r"
	cp -R "$ROOT/sys" "$ROOT/regress" "$ROOT/tools" "$ROOT/share" "$_r/"
	rm -f "$_r/sys/kern/kern_mplock_debug.c"
	for _f in "$_r"/sys/sys/mplock.h "$_r"/sys/kern/kern_mplock*.c; do
		sed 's/MPLOCK_DEBUG/MPLOCK_XDEBUG/g' "$_f" >"$_f.new" &&
		    mv "$_f.new" "$_f"
	done
	MPLOCK_ROOT=$_r sh "$TOOL" apply "$_t" >/dev/null || return 1
	tree_sig "$_t" >"$_t.sig"
	MPLOCK_ROOT=$_r sh "$TOOL" config -d -s "$_t" amd64 2>"$PT/err" &&
	    return 1
	grep -q "has no sys/kern/kern_mplock_debug.c" "$PT/err" || return 1
	same_as "$_t.sig" "$_t"
}
t_check patch/config/debug-needs-debug-layer config_no_debug

# Item 3, the new and changed kernel C files of a patched tree compiled
# for OpenBSD amd64 and i386, is suite kcompile's: it patches the
# vendored OpenBSD tree with this tool and compiles every file the
# patch adds or changes with the tree's own headers and Makefile flags,
# under every backend and option combination (tools/lib/realtree.sh).

# The real tree: a scratch copy of the vendored OpenBSD snapshot
# (tools/lib/vendor.sh) patched and reverted.  The torture test's start
# lands in its main(), inside the MULTIPROCESSOR block, right after the
# secondary CPUs are started; sys/conf/files lists the torture file
# under its option; revert gives back the same bytes and modes.
. "$ROOT/tools/lib/vendor.sh"
real_roundtrip() {	# vendored tree
	_v=$1 _t=$PT/realtree
	rm -rf "$_t"
	cp -Rp "$_v" "$_t" && rm -f "$_t/.extracted" || return 1
	tree_sig "$_t" >"$_t.sig"
	sh "$TOOL" check "$_t" >/dev/null || return 1
	sh "$TOOL" apply "$_t" || return 1
	awk '
	    /^#if defined\(MULTIPROCESSOR\)$/ { mp = NR }
	    /^[ \t]*cpu_boot_secondary_processors\(\);$/ { b = NR }
	    b && NR == b + 1 && $0 == "#ifdef MPLOCK_TORTURE" { n++ }
	    b && NR == b + 2 && $0 == "\tmplock_torture_start();" { n++ }
	    b && NR == b + 3 && $0 == "#endif" { n++ }
	    b && NR == b + 4 && /^#endif/ { n++ }
	    /mplock_torture/ { m++ }
	    END { exit !(n == 4 && m == 1 && mp && b - mp <= 3) }' \
	    "$_t/sys/kern/init_main.c" || {
		echo "init_main.c: no hook after the secondary CPUs start:"
		diff "$_v/sys/kern/init_main.c" "$_t/sys/kern/init_main.c"
		return 1
	}
	[ "$(diff "$_v/sys/kern/init_main.c" "$_t/sys/kern/init_main.c" |
	    grep -c '^[<>]')" -eq 3 ] || return 1
	grep -Eq '^file[[:space:]]+kern/kern_mplock_torture\.c[[:space:]]+mplock_torture$' \
	    "$_t/sys/conf/files" || {
		echo "sys/conf/files: no torture line"
		return 1
	}
	sh "$TOOL" revert "$_t" || return 1
	same_as "$_t.sig" "$_t"
}
_v=$(vendor_tree openbsd-src 2>"$PT/vendor.err")
case $? in
0)	t_check patch/realtree/roundtrip real_roundtrip "$_v" ;;
77)	t_skip patch/realtree "$(cat "$PT/vendor.err")" ;;
*)	t_fail patch/realtree "cannot extract the vendored tree" \
	    "$PT/vendor.err" ;;
esac

# ---------------------------------------------------------------------
# config -n with glob, blank, quote or leading-dash characters is
# refused in one line and changes nothing; a record naming such a path
# is refused by revert and revert -f, which delete nothing.
unsafe_names() {
	_t=$(fresh unsafe-names)
	sh "$TOOL" apply "$_t" >/dev/null || return 1
	tree_sig "$_t" >"$_t.sig"
	for _n in '*' 'a b' 'X"Y' '-x' "it's" 'a?' '[A]' 'a;b' '$(x)' \
	    '..' '.hidden' 'a/b' ''; do
		sh "$TOOL" config -n "$_n" -s "$_t" amd64 >"$PT/out" \
		    2>"$PT/err" && {
			echo "config -n '$_n' accepted"
			return 1
		}
		[ "$(wc -l <"$PT/err")" -eq 1 ] || {
			echo "config -n '$_n': not one line:"
			cat "$PT/err"
			return 1
		}
		same_as "$_t.sig" "$_t" || return 1
	done
	# A record naming a glob (hand-made): nothing deleted.
	echo "A sys/arch/amd64/conf/* 1-1" >>"$_t/.mplock-patch/config"
	tree_sig "$_t" >"$_t.sig"
	for _f in "" -f; do
		sh "$TOOL" revert $_f "$_t" 2>"$PT/err" && return 1
		cat "$PT/err"
		[ "$(wc -l <"$PT/err")" -eq 1 ] &&
		    grep -q "the record was changed by hand" "$PT/err" || return 1
		same_as "$_t.sig" "$_t" || return 1
	done
}
t_check patch/config/unsafe-names-refused unsafe_names

# Failed and interrupted writes of the record are suite patchfault's: a
# full disk at every size, and every step of apply, config and revert
# killed, torn, failed and signalled.

# A list of the record whose last line is cut (the tool writes each
# whole, so by a disk error, or by hand): status says damaged, revert
# and revert -f refuse in one line saying what to do and delete
# nothing; never a path glued from two lines.  With the list whole
# again, revert restores the tree.
torn_record() {
	_t=$(fresh torn-record)
	sh "$TOOL" apply "$_t" >/dev/null &&
	    sh "$TOOL" config -s "$_t" amd64 >/dev/null || return 1
	for _f in files config; do
		_r=$_t/.mplock-patch/$_f
		cp "$_r" "$PT/torn.$_f"
		_sz=$(wc -c <"$_r")
		_cut=$((_sz - $(tail -n 1 "$_r" | wc -c) + 1))
		while [ "$_cut" -lt "$_sz" ]; do
			head -c "$_cut" "$PT/torn.$_f" >"$_r"
			tree_sig "$_t" >"$_t.sig"
			sh "$TOOL" status "$_t" >/dev/null 2>&1
			[ $? -eq 2 ] || { echo "$_f cut: status not 2"; return 1; }
			for _o in "" -f; do
				sh "$TOOL" revert $_o "$_t" 2>"$PT/err" && return 1
				[ "$(wc -l <"$PT/err")" -eq 1 ] &&
				    grep -q "$_f: its last line is cut" "$PT/err" ||
				    { cat "$PT/err"; return 1; }
				same_as "$_t.sig" "$_t" || return 1
			done
			_cut=$((_cut + 5))
		done
		cat "$PT/err"
		cp "$PT/torn.$_f" "$_r"
	done
	sh "$TOOL" revert "$_t" >/dev/null || return 1
	same_as "$PT/pristine.sig" "$_t"
}
t_check patch/revert/torn-record torn_record

# A record of an earlier version of the tool (a journal): every command
# refuses it in one line saying what to do, and changes nothing.
old_record() {
	_t=$(fresh old-record)
	sh "$TOOL" apply "$_t" >/dev/null || return 1
	_r=$_t/.mplock-patch
	{ cat "$_r/files"; echo "X $(cat "$_r/stamp")"; } >"$_r/journal"
	rm "$_r/files" "$_r/stamp"
	tree_sig "$_t" >"$_t.sig"
	for _c in check apply revert "revert -f" status diff "config -s"; do
		case $_c in
		config*)	sh "$TOOL" $_c "$_t" amd64 ;;
		*)		sh "$TOOL" $_c "$_t" ;;
		esac >"$PT/out" 2>&1
		_rc=$?
		cat "$PT/out"
		case $_c:$_rc in
		status:2|[!s]*:1)	;;
		*)	echo "$_c: exit $_rc"; return 1 ;;
		esac
		# (apply ends with "nothing changed", as on any refusal.)
		[ "$(grep -vc ': nothing changed$' "$PT/out")" -eq 1 ] &&
		    grep -q "recorded by an older mplock-patch: revert it with" \
		    "$PT/out" || return 1
		same_as "$_t.sig" "$_t" || return 1
	done
}
t_check patch/record/older-version-refused old_record

# config: options GENERIC.MP sets and repeated ones are not written
# twice (config(8) refuses them), unknown MPLOCK_* options are refused,
# and -o '*' is not a glob.
config_options() {
	_t=$(fresh config-opts)
	sh "$TOOL" apply "$_t" >/dev/null || return 1
	sh "$TOOL" config -s "$_t" -w -w -o DDB -o MULTIPROCESSOR \
	    -o WITNESS amd64 >/dev/null 2>"$PT/err" || return 1
	cat "$PT/err"
	_c=$_t/sys/arch/amd64/conf/MLOCK.MP
	cat "$_c"
	# Every option once over the config and what it includes.
	cat "$_c" "$_t/sys/arch/amd64/conf/GENERIC.MP" \
	    "$_t/sys/arch/amd64/conf/GENERIC" |
	    awk '$1 == "option" { print $2 }' | sort | uniq -d >"$PT/dups"
	[ ! -s "$PT/dups" ] || { echo "twice:"; cat "$PT/dups"; return 1; }
	grep -qx 'option[[:space:]]*WITNESS' "$_c" || return 1
	tree_sig "$_t" >"$_t.sig"
	mkdir -p "$PT/globdir"
	: >"$PT/globdir/WITNESS_GLOB"
	for _o in MPLOCK_FOO MPLOCK_DEBUGX '*' 'W*' 'A B' 'a'; do
		(cd "$PT/globdir" && sh "$TOOL" config -o "$_o" \
		    -s "$_t" amd64) >/dev/null 2>"$PT/err" && {
			echo "-o '$_o' accepted"
			return 1
		}
		[ "$(wc -l <"$PT/err")" -eq 1 ] || { cat "$PT/err"; return 1; }
		same_as "$_t.sig" "$_t" || return 1
	done
	sh "$TOOL" revert "$_t" >/dev/null || return 1
	same_as "$PT/pristine.sig" "$_t"
}
t_check patch/config/options-once-and-checked config_options

# ---------------------------------------------------------------------
# diff modes: -k (the kernel: sys/ and the manual pages), -r (the
# regress directory), -b (one backend's file); the diffstat on stderr.

# diffstat_ok DIFF STAT: STAT's totals are DIFF's, file for file.
diffstat_ok() {
	awk '/^Index: / { n++; next } /^(\+\+\+|---) / { next }
	    /^\+/ { a++ } /^-/ { d++ }
	    END { printf " %d files changed, %d insertions(+), %d deletions(-)\n",
		n, a, d }' "$1" | diff - "$(tail -n 1 "$2" >"$2.last"; echo "$2.last")"
}

diff_modes() {
	_a=$(fresh dm-apply)
	sh "$TOOL" apply "$_a" >/dev/null || return 1
	_p=$(fresh dm-patch)
	sh "$TOOL" diff -k "$_p" >"$PT/k.diff" 2>"$PT/k.stat" || return 1
	sh "$TOOL" diff -r "$_p" >"$PT/r.diff" 2>"$PT/r.stat" ||
	    return 1
	sh "$TOOL" diff -q -k "$_p" >"$PT/kq.diff" 2>"$PT/kq.stat" ||
	    return 1
	[ ! -s "$PT/kq.stat" ] || { echo "-q printed a diffstat"; return 1; }
	cmp "$PT/k.diff" "$PT/kq.diff" || return 1
	same_as "$PT/pristine.sig" "$_p" || return 1
	cat "$PT/k.stat"
	diffstat_ok "$PT/k.diff" "$PT/k.stat" || return 1
	diffstat_ok "$PT/r.diff" "$PT/r.stat" || return 1
	[ "$(head -n 1 "$PT/k.diff" | cut -c1-7)" = "Index: " ] || return 1
	grep '^Index: ' "$PT/k.diff" | grep -v '^Index: \(sys\|share/man\)/' &&
	    { echo "-k has more than sys/ and share/man/"; return 1; }
	grep '^Index: ' "$PT/r.diff" | grep -v '^Index: regress/' &&
	    { echo "-r has more than regress/"; return 1; }
	# The kernel diff removes the ticket lock block; no #if 0.
	grep -q '^+#if 0' "$PT/k.diff" && return 1
	grep -q '^-/\* Ticket lock implementation \*/' "$PT/k.diff" ||
	    return 1
	# Kernel, then regress: what apply makes.
	(cd "$_p" && patch -p0 -s <"$PT/k.diff") || return 1
	for _f in $(sed -n 's/^Index: //p' "$PT/k.diff"); do
		cmp "$_a/$_f" "$_p/$_f" || return 1
	done
	(cd "$_p" && patch -p0 -s <"$PT/r.diff") || return 1
	mv "$_a/.mplock-patch" "$PT/dm-record"
	tree_sig "$_a" >"$_a.sig"
	same_as "$_a.sig" "$_p" || return 1
	# -b (one backend) is the series' (tools/series), not the tool's.
	sh "$TOOL" diff -b mlock "$_p" 2>"$PT/err" && return 1
	grep -q "unknown option -- b" "$PT/err"
}
t_check patch/diff/modes-kernel-regress diff_modes

# The vendored OpenBSD tree: apply and revert (byte for byte), and the
# kernel diff applied with patch -p0 to a pristine copy gives the files
# apply gives.  Its size is printed (README).
. "$ROOT/tools/lib/vendor.sh"
real_tree() {	# vendored-tree
	_v=$1
	_r=$PT/real
	rm -rf "$_r" "$PT/real-applied"
	cp -Rp "$_v" "$_r"
	tree_sig "$_r" >"$PT/real.sig"
	sh "$TOOL" apply "$_r" || return 1
	grep -q '__USE_MI_MPLOCK' "$_r/sys/kern/kern_lock.c" &&
	    { echo "kern_lock.c keeps the ticket block"; return 1; }
	mkdir -p "$PT/real-applied"
	(cd "$_r" && tar -cf - sys share) | (cd "$PT/real-applied" &&
	    tar -xf -) || return 1
	sh "$TOOL" revert "$_r" || return 1
	same_as "$PT/real.sig" "$_r" || return 1
	sh "$TOOL" diff -k "$_r" >"$PT/real-k.diff" 2>"$PT/real-k.stat" ||
	    return 1
	sh "$TOOL" diff "$_r" >"$PT/real-all.diff" 2>/dev/null || return 1
	sh "$TOOL" diff -r "$_r" >"$PT/real-r.diff" 2>/dev/null || return 1
	(cd "$_r" && patch -p0 -s <"$PT/real-k.diff") || return 1
	for _f in $(sed -n 's/^Index: //p' "$PT/real-k.diff"); do
		cmp "$PT/real-applied/$_f" "$_r/$_f" || return 1
	done
	(cd "$_r" && patch -R -p0 -s <"$PT/real-k.diff") || return 1
	same_as "$PT/real.sig" "$_r" || return 1
	cat "$PT/real-k.stat"
	echo "lines: diff $(wc -l <"$PT/real-all.diff"), -k" \
	    "$(wc -l <"$PT/real-k.diff"), -r $(wc -l <"$PT/real-r.diff")"
}
if _v=$(vendor_tree openbsd-src 2>"$PT/vendor.err"); then
	t_check patch/real-tree/apply-revert-diff-kernel real_tree "$_v"
else
	t_skip patch/real-tree "no vendored openbsd-src: $(cat "$PT/vendor.err")"
fi

# Every config "mplock-patch config" can write (tools/lib/configcheck.sh):
# written, the same file for the same choices in another order; with
# MPLOCK_CONFIG8 set to a config(8) binary, run through it on the
# patched vendored tree.
. "$ROOT/tools/lib/configcheck.sh"
config_every() {	# config8 tree arch
	config_check_all "$@" >"$PT/configcheck.out"
	_rc=$?
	cat "$PT/configcheck.out"
	[ "$_rc" -eq 0 ] && ! grep -q '^FAIL' "$PT/configcheck.out"
}
_t=$(fresh config-every)
sh "$TOOL" apply "$_t" >/dev/null &&
    t_check patch/config/every-variant-deterministic config_every true \
    "$_t" amd64
if [ -z "${MPLOCK_CONFIG8:-}" ]; then
	t_skip patch/config/config8 "MPLOCK_CONFIG8 not set (a config(8)" \
	    "binary, as the kernel build makes)"
elif ! _v=$(vendor_tree openbsd-src 2>/dev/null); then
	t_skip patch/config/config8 "no vendored openbsd-src"
else
	_t=$PT/real-config8
	rm -rf "$_t"
	cp -Rp "$_v" "$_t"
	sh "$TOOL" apply "$_t" >/dev/null &&
	    t_check patch/config/config8 config_every "$MPLOCK_CONFIG8" "$_t"
fi

# ---------------------------------------------------------------------
# OpenBSD's conventions, status, config keeping hand edits, trees that
# hold only sys/ (or are sys itself).

# usage_ok FILE: FILE (stderr) is one or more "mplock-patch: " lines,
# then the usage: "usage: mplock-patch ..." and indented lines.
usage_ok() {
	awk 'u == 0 && /^mplock-patch: / { m++; next }
	    u == 0 && /^usage: mplock-patch [a-z]/ { u = 1; next }
	    u == 1 && /^        *(mplock-patch |\[)/ { next }
	    { bad = 1; print "stray line: " $0 }
	    END { exit !(u == 1 && !bad) }' "$1" && return 0
	cat "$1"
	return 1
}

# conv EXPECTED-FIRST-LINE ARGS...: exit 1, nothing on stdout, the
# message saying what was wrong (always one) and the usage on
# stderr.
conv() {
	_want=$1
	shift
	sh "$TOOL" "$@" >"$PT/out" 2>"$PT/err"
	_rc=$?
	[ "$_rc" -eq 1 ] || { echo "$*: exit $_rc, not 1"; return 1; }
	[ ! -s "$PT/out" ] || { echo "$*: wrote to stdout"; return 1; }
	usage_ok "$PT/err" || { echo "$*: not the usage"; return 1; }
	head -n 1 "$PT/err" | grep -q '^mplock-patch: ' ||
	    { echo "$*: no reason"; cat "$PT/err"; return 1; }
	[ -z "$_want" ] || [ "$(head -n 1 "$PT/err")" = "$_want" ] || {
		echo "$*: first line \"$(head -n 1 "$PT/err")\", not" \
		    "\"$_want\""
		return 1
	}
}

usage_conventions() {
	_t=$(fresh conv)
	tree_sig "$_t" >"$_t.sig"
	conv "" || return 1
	conv "mplock-patch: bogus: unknown command" bogus || return 1
	conv "mplock-patch: unknown option -- x" config -x amd64 || return 1
	conv "mplock-patch: unknown option -- h" config -h amd64 || return 1
	conv "mplock-patch: option requires an argument -- b" \
	    config -b || return 1
	conv "mplock-patch: option requires an argument -- s" \
	    config -w -s || return 1
	conv "mplock-patch: unknown option -- -" diff --kernel "$_t" ||
	    return 1
	conv "mplock-patch: unknown option -- -" diff --regress "$_t" ||
	    return 1
	conv "mplock-patch: unknown option -- z" apply -z "$_t" || return 1
	conv "mplock-patch: unknown option -- f" check -f "$_t" || return 1
	conv "mplock-patch: unknown option -- k" revert -k "$_t" || return 1
	conv "mplock-patch: unknown option -- q" status -q "$_t" || return 1
	conv "mplock-patch: unknown option -- r" revert -r "$_t" || return 1
	conv "" diff -k -r "$_t" || return 1
	# Operands before options, an operand missing or one too many.
	conv "" config amd64 -s "$_t" || return 1
	conv "" config -s "$_t" || return 1
	conv "" apply || return 1
	conv "" apply "$_t" "$_t" || return 1
	conv "" status || return 1
	conv "" revert "$_t" -f || return 1
	same_as "$_t.sig" "$_t" || return 1
	# help and -h: the synopsis on stdout, exit 0.
	for _h in help -h; do
		sh "$TOOL" $_h >"$PT/out" 2>"$PT/err" || {
			echo "$_h: exit $?"
			return 1
		}
		[ ! -s "$PT/err" ] || { echo "$_h: wrote to stderr"; return 1; }
		for _c in apply check config diff revert status; do
			grep -q " mplock-patch $_c " "$PT/out" || {
				echo "$_h: no synopsis of $_c"
				cat "$PT/out"
				return 1
			}
		done
	done
	# Errors past the usage: prefixed, exit 1.
	sh "$TOOL" config -b nosuch -s "$_t" amd64 2>"$PT/err"
	[ $? -eq 1 ] && grep -q '^mplock-patch: ' "$PT/err" || return 1
	sh "$TOOL" status "$PT/nonexistent" 2>"$PT/err"
	[ $? -eq 1 ] && grep -q '^mplock-patch: .*no such directory' \
	    "$PT/err" || return 1
	# The licence header.
	sed -n 3p "$TOOL" | grep -qx '# Copyright (c) 2026 The mplock authors' &&
	    grep -q '^# Permission to use, copy, modify, and distribute' "$TOOL"
}
t_check patch/usage/conventions usage_conventions

# status: 1 unpatched, 0 patched and intact, 2 damaged.
status_cases() {
	_t=$(fresh status)
	sh "$TOOL" status "$_t" >"$PT/out" 2>"$PT/err"
	[ $? -eq 1 ] || { echo "unpatched: not 1"; return 1; }
	grep -q 'not patched' "$PT/out" || return 1
	sh "$TOOL" apply "$_t" >/dev/null || return 1
	sh "$TOOL" status "$_t" >"$PT/out" 2>"$PT/err" || {
		echo "patched: exit $?"
		cat "$PT/out" "$PT/err"
		return 1
	}
	cat "$PT/out"
	_v=unknown
	if [ -e "$ROOT/.git" ]; then
		_v=$(git -C "$ROOT" rev-parse --short HEAD)
	fi
	grep -qx "version: $_v" "$PT/out" || return 1
	grep -qx "default backend: $DEFAULT_BACKEND" "$PT/out" || return 1
	grep -Eq '^applied: [0-9]{4}-[0-9]{2}-[0-9]{2}T' "$PT/out" || return 1
	grep -qx "	changed $KL" "$PT/out" || return 1
	grep -qx "	added sys/kern/kern_mplock.c" "$PT/out" || return 1
	grep -q 'since' "$PT/out" && return 1
	# The version of an installed copy: its VERSION file.
	_r=$PT/root-version
	rm -rf "$_r"
	mkdir -p "$_r"
	cp -R "$ROOT/sys" "$ROOT/share" "$ROOT/regress" "$_r/"
	echo "1.2.3" >"$_r/VERSION"
	_t2=$(fresh status-version)
	MPLOCK_ROOT=$_r sh "$TOOL" apply "$_t2" >/dev/null || return 1
	sh "$TOOL" status "$_t2" | grep -qx 'version: 1.2.3' || return 1
	MPLOCK_ROOT=$_r sh "$TOOL" revert "$_t2" >/dev/null || return 1
	# A config: listed with its backend; edited: damaged.
	sh "$TOOL" config -b ticket -s "$_t" amd64 >/dev/null || return 1
	sh "$TOOL" status "$_t" >"$PT/out" || return 1
	grep -q 'added sys/arch/amd64/conf/MLOCK.MP (config, backend ticket)' \
	    "$PT/out" || { cat "$PT/out"; return 1; }
	# A changed file: 2, and which.
	cp "$_t/$KL" "$PT/kl.save"
	echo "/* local */" >>"$_t/$KL"
	sh "$TOOL" status "$_t" >"$PT/out" 2>"$PT/err"
	[ $? -eq 2 ] || { echo "changed file: not 2"; return 1; }
	grep -qx "	changed $KL (changed since)" "$PT/out" || return 1
	cat "$PT/kl.save" >"$_t/$KL"
	# A removed file: 2.
	mv "$_t/sys/kern/kern_mplock.c" "$PT/km.save"
	sh "$TOOL" status "$_t" >"$PT/out" 2>"$PT/err"
	[ $? -eq 2 ] || { echo "removed file: not 2"; return 1; }
	grep -q 'kern_mplock.c (removed since)' "$PT/out" || return 1
	mv "$PT/km.save" "$_t/sys/kern/kern_mplock.c"
	sh "$TOOL" status "$_t" >/dev/null || return 1
	# An apply that did not finish: 2.
	_t3=$(fresh status-torn)
	mkdir "$_t3/.mplock-patch"
	sh "$TOOL" status "$_t3" >"$PT/out" 2>"$PT/err"
	[ $? -eq 2 ] || { echo "stray record: not 2"; return 1; }
	grep -q 'did not finish' "$PT/out" || return 1
	# A record changed by hand: 2.
	sh "$TOOL" revert "$_t" >/dev/null || return 1
	sh "$TOOL" apply "$_t" >/dev/null || return 1
	echo "Q bogus" >>"$_t/.mplock-patch/files"
	sh "$TOOL" status "$_t" >"$PT/out" 2>"$PT/err"
	[ $? -eq 2 ] || { echo "hand-edited record: not 2"; return 1; }
	sh "$TOOL" revert -f "$_t" 2>/dev/null && return 1
	rm -rf "$_t"
	# A plain file where the record goes: 2.
	: >"$_t3/.mplock-patch.f"
	rmdir "$_t3/.mplock-patch" && mv "$_t3/.mplock-patch.f" \
	    "$_t3/.mplock-patch"
	sh "$TOOL" status "$_t3" >/dev/null 2>&1
	[ $? -eq 2 ]
}
t_check patch/status/exit-codes status_cases

# config keeps a hand edit of a config it wrote, unless -f.
config_hand_edit() {
	_t=$(fresh config-edit)
	sh "$TOOL" apply "$_t" >/dev/null || return 1
	sh "$TOOL" config -s "$_t" amd64 >/dev/null || return 1
	_c=$_t/sys/arch/amd64/conf/MLOCK.MP
	# The same config again: not edited, so written again.
	sh "$TOOL" config -w -s "$_t" amd64 >/dev/null || return 1
	echo "option		MY_OWN_OPTION" >>"$_c"
	tree_sig "$_t" >"$_t.sig"
	sh "$TOOL" config -s "$_t" amd64 >"$PT/out" 2>"$PT/err"
	[ $? -eq 1 ] || { echo "hand edit overwritten"; return 1; }
	cat "$PT/err"
	[ "$(wc -l <"$PT/err")" -eq 1 ] || return 1
	grep -q '^mplock-patch: .*sys/arch/amd64/conf/MLOCK.MP: changed since' \
	    "$PT/err" && grep -q -- '-f overwrites it' "$PT/err" || return 1
	same_as "$_t.sig" "$_t" || return 1
	grep -qx 'option		MY_OWN_OPTION' "$_c" || return 1
	# The compile directory's Makefile: the same.
	echo "# mine" >>"$_t/sys/arch/amd64/compile/MLOCK.MP/Makefile"
	sh "$TOOL" config -f -s "$_t" amd64 >/dev/null 2>"$PT/err" || {
		cat "$PT/err"
		return 1
	}
	grep -q MY_OWN_OPTION "$_c" && { echo "-f kept the edit"; return 1; }
	grep -q mine "$_t/sys/arch/amd64/compile/MLOCK.MP/Makefile" &&
	    return 1
	# Another name is another file: the edit there is not looked at.
	echo "# mine" >>"$_c"
	sh "$TOOL" config -n OTHER.MP -s "$_t" amd64 >/dev/null || return 1
	sh "$TOOL" revert -f "$_t" >/dev/null || return 1
	same_as "$PT/pristine.sig" "$_t"
}
t_check patch/config/keeps-hand-edits config_hand_edit

# The diff from a patched tree is the diff from the unpatched one.
diff_patched_tree() {
	_t=$(fresh diff-patched)
	for _o in "" -k -r -q; do
		sh "$TOOL" diff $_o "$_t" >"$PT/dp-pristine$_o" \
		    2>"$PT/dp-pristine$_o.stat" || return 1
	done
	sh "$TOOL" apply "$_t" >/dev/null || return 1
	sh "$TOOL" config -s "$_t" amd64 >/dev/null || return 1
	for _o in "" -k -r -q; do
		sh "$TOOL" diff $_o "$_t" >"$PT/dp-patched$_o" \
		    2>"$PT/dp-patched$_o.stat" || return 1
		cmp "$PT/dp-pristine$_o" "$PT/dp-patched$_o" || return 1
		cmp "$PT/dp-pristine$_o.stat" "$PT/dp-patched$_o.stat" ||
		    return 1
	done
	# A hand edit shows, and is said.
	echo "/* local */" >>"$_t/$KL"
	sh "$TOOL" diff -q "$_t" >"$PT/dp-edited" 2>"$PT/err" || return 1
	grep -q "$KL: changed since apply" "$PT/err" || return 1
	grep -qx '+/\* local \*/' "$PT/dp-edited" || return 1
	sh "$TOOL" revert -f "$_t" >/dev/null || return 1
	same_as "$PT/pristine.sig" "$_t"
}
t_check patch/diff/from-patched-tree diff_patched_tree

# What goes into a full tree: the man9 pages (not this tool's own
# page) and the regress directory, with the program and its shim
# (verify_applied: exactly what git tracks there).
installed_set() {
	_t=$(fresh installed-set)
	tree_sig "$_t" >"$_t.sig"
	sh "$TOOL" apply "$_t" >/dev/null || return 1
	[ ! -e "$_t/share/man/man8/mplock-patch.8" ] || return 1
	for _x in Makefile Makefile.backends mplocktest.c \
	    mplocktest_debug.c shim/shim.c shim/include/sys/mplock.h; do
		[ -f "$_t/regress/sys/kern/mplock/$_x" ] || {
			echo "no regress/sys/kern/mplock/$_x"
			return 1
		}
	done
	sh "$TOOL" revert "$_t" >/dev/null || return 1
	same_as "$_t.sig" "$_t" || return 1
	# No share/man/man9: the pages are left out, and said so.
	rm -rf "$_t/share/man/man9"
	tree_sig "$_t" >"$_t.sig"
	sh "$TOOL" apply "$_t" >"$PT/out" || return 1
	grep -q 'no share/man/man9: the manual pages left out' "$PT/out" ||
	    return 1
	[ ! -e "$_t/share/man/man9" ] || return 1
	[ -f "$_t/regress/sys/kern/mplock/Makefile" ] || return 1
	sh "$TOOL" revert "$_t" >/dev/null || return 1
	same_as "$_t.sig" "$_t"
}
t_check patch/apply/installed-set installed_set

# A tree that holds only sys/ (the vendored tree's sys/), and that sys
# directory given itself: check, apply, status, config, diff, revert,
# byte for byte and modes (diff -r and the signature).
sys_only() {	# vendored tree
	_v=$1
	for _how in top sys; do
		_t=$PT/sysonly-$_how
		chmod -R u+w "$_t" 2>/dev/null
		rm -rf "$_t" "$_t.orig"
		mkdir -p "$_t" && cp -Rp "$_v/sys" "$_t/" || return 1
		cp -Rp "$_t" "$_t.orig" || return 1
		tree_sig "$_t" >"$_t.sig"
		_s=$_t _l=sys/
		[ "$_how" = top ] || _s=$_t/sys _l=
		sh "$TOOL" status "$_s" >/dev/null
		[ $? -eq 1 ] || { echo "$_how: status not 1"; return 1; }
		sh "$TOOL" check "$_s" >"$PT/out" 2>"$PT/err" || {
			cat "$PT/err"
			return 1
		}
		[ "$(wc -l <"$PT/out")" -lt 40 ] && [ ! -s "$PT/err" ] ||
		    { cat "$PT/out" "$PT/err"; return 1; }
		grep -q "change ${_l}kern/kern_lock.c" "$PT/out" || return 1
		grep -q '^	.*regress/' "$PT/out" && return 1
		sh "$TOOL" check -r "$_s" 2>"$PT/err" && return 1
		grep -q 'regress/sys/kern: no such directory' "$PT/err" ||
		    return 1
		sh "$TOOL" apply -r "$_s" 2>/dev/null && return 1
		same_as "$_t.sig" "$_t" || return 1
		sh "$TOOL" diff -r "$_s" >/dev/null 2>&1 && return 1
		sh "$TOOL" diff -k "$_s" >"$PT/so.diff" 2>/dev/null || return 1
		sh "$TOOL" diff "$_s" 2>/dev/null | cmp -s - "$PT/so.diff" ||
		    return 1
		grep -q "^Index: ${_l}kern/kern_lock.c\$" "$PT/so.diff" ||
		    return 1
		grep '^Index: ' "$PT/so.diff" | grep -v "^Index: ${_l}" &&
		    return 1
		sh "$TOOL" apply "$_s" >"$PT/out" || return 1
		cat "$PT/out"
		[ -z "$(cd "$_t" && ls -A | grep -v '^sys$' |
		    grep -v '^\.mplock-patch$')" ] || {
			echo "$_how: apply made more than sys/: $(ls -A "$_t")"
			return 1
		}
		sh "$TOOL" status "$_s" >"$PT/out" || return 1
		grep -q "added ${_l}kern/kern_mplock.c" "$PT/out" || return 1
		sh "$TOOL" diff -k "$_s" 2>/dev/null | cmp - "$PT/so.diff" ||
		    return 1
		sh "$TOOL" config -s "$_s" amd64 >"$PT/out" || return 1
		[ -f "$_t/sys/arch/amd64/conf/MLOCK.MP" ] || return 1
		grep -qF "cd $_t/sys/arch/amd64/compile/MLOCK.MP &&" \
		    "$PT/out" || return 1
		sh "$TOOL" revert "$_s" || return 1
		diff -r "$_t.orig" "$_t" || return 1
		same_as "$_t.sig" "$_t" || return 1
		(cd "$_s" && patch -p0 -s <"$PT/so.diff") || return 1
		grep -q __USE_MI_MPLOCK "$_t/sys/kern/kern_lock.c" && return 1
		rm -rf "$_t" "$_t.orig"
	done
}
if _v=$(vendor_tree openbsd-src 2>"$PT/vendor.err"); then
	t_check patch/tree/sys-only sys_only "$_v"
else
	t_skip patch/tree/sys-only "no vendored openbsd-src"
fi

# ---------------------------------------------------------------------
# Trees mistaken; the first test also against seeded copies of the
# tool that must fail it.

# /usr/src, /usr/src/sys and a /sys link to it are one tree, with
# one record, whichever is named.  A fixture tree "src" and a link
# "syslink" to src/sys.
# same_diff A B: two diffs, their Index lines and hunks the same.
same_tree() {
	_d=$PT/same
	chmod -R u+w "$_d" 2>/dev/null
	rm -rf "$_d"
	mkdir -p "$_d"
	cp -Rp "$PT/pristine" "$_d/src"
	ln -s src/sys "$_d/syslink"
	# A tree of sys/ alone and a sys directory, unpatched: what the
	# diffs of the patched tree, by each name, must be.
	mkdir -p "$_d/sysonly" && cp -Rp "$PT/pristine/sys" "$_d/sysonly/"
	sh "$TOOL" diff -q "$PT/pristine/sys" >"$_d/want-sys.diff" &&
	    sh "$TOOL" diff -q "$_d/sysonly" >"$_d/want-top.diff" &&
	    sh "$TOOL" diff -q "$PT/pristine" >"$_d/want-src.diff" ||
	    return 1
	# apply on src; config by the sys directory and by the link: in
	# the record; status, diff by every name; revert by the link.
	sh "$TOOL" apply "$_d/src" >/dev/null || return 1
	for _n in src/sys syslink; do
		sh "$TOOL" config -n "X$(echo $_n | tr -d /).MP" \
		    -s "$_d/$_n" amd64 >"$_d/out" 2>&1 || { cat "$_d/out"
		    return 1; }
		cat "$_d/out"
		grep -q 'no record' "$_d/out" &&
		    { echo "config -s $_n: no record found"; return 1; }
	done
	for _n in src src/sys syslink; do
		sh "$TOOL" status "$_d/$_n" >"$_d/out" ||
		    { echo "status $_n: exit $?"; cat "$_d/out"; return 1; }
		grep -q "^$_d/src: patched by mplock-patch" "$_d/out" &&
		    grep -q 'added sys/arch/amd64/conf/Xsyslink.MP' \
		    "$_d/out" || { cat "$_d/out"; return 1; }
		sh "$TOOL" check "$_d/$_n" 2>"$_d/err" && return 1
		grep -q 'patch -R' "$_d/err" && { cat "$_d/err"; return 1; }
	done
	sh "$TOOL" diff -q "$_d/src" | cmp - "$_d/want-src.diff" &&
	    sh "$TOOL" diff -q "$_d/src/sys" | cmp - "$_d/want-sys.diff" &&
	    sh "$TOOL" diff -q "$_d/syslink" | cmp - "$_d/want-sys.diff" ||
	    { echo "diff by another name: not the unpatched tree's"
	    return 1; }
	sh "$TOOL" revert "$_d/syslink" || return 1
	same_as "$PT/pristine.sig" "$_d/src" || return 1
	# apply on the link (the sys directory): status, check, apply,
	# config and diff on src find its record; revert src.
	sh "$TOOL" apply "$_d/syslink" >/dev/null || return 1
	[ -d "$_d/src/sys/.mplock-patch" ] || return 1
	sh "$TOOL" status "$_d/src" >"$_d/out" ||
	    { echo "status src: exit $?"; cat "$_d/out"; return 1; }
	grep -q "^$_d/src/sys: patched by mplock-patch" "$_d/out" || return 1
	tree_sig "$_d/src" >"$_d/patched.sig"
	for _c in apply check; do
		sh "$TOOL" $_c "$_d/src" 2>"$_d/err" && return 1
		cat "$_d/err"
		grep -q 'patch -R' "$_d/err" && return 1
		grep -q "the same tree as $_d/src/sys" "$_d/err" || return 1
	done
	same_as "$_d/patched.sig" "$_d/src" || return 1
	sh "$TOOL" config -s "$_d/src" amd64 >"$_d/out" 2>&1 || return 1
	grep -q 'no record' "$_d/out" && return 1
	sh "$TOOL" diff -q "$_d/src" | cmp - "$_d/want-top.diff" ||
	    { echo "diff src: not the unpatched sys tree's"; return 1; }
	sh "$TOOL" revert "$_d/src" || return 1
	same_as "$PT/pristine.sig" "$_d/src"
}
t_check patch/tree/one-tree-three-names same_tree
# The record looked for only where the tree was named, as the tool did.
# (The seeded copies are not in a checkout: MPLOCK_ROOT names this one.)
MPLOCK_ROOT=$ROOT
export MPLOCK_ROOT
t_seeded_tool patch/tree/seeded/record-by-name-only TOOL \
    's/^	elif \[ "\${S##\*\/}" = sys \] && has_rec/	elif false \&\& has_rec/' \
    same_tree
# Links kept in the path: the link and the sys directory two trees.
t_seeded_tool patch/tree/seeded/links-not-resolved TOOL \
    's/_sd=\$(cd "\$_sd" \&\& pwd -P)/_sd=$(cd "$_sd" \&\& pwd)/' same_tree
unset MPLOCK_ROOT

# A directory that is not a source tree: said so, not "not patched".
not_a_tree() {
	mkdir -p "$PT/notree"
	for _c in "config -s $PT/notree amd64" "status $PT/notree" \
	    "revert $PT/notree" "diff $PT/notree" "apply $PT/notree"; do
		sh "$TOOL" $_c >"$PT/out" 2>"$PT/err"
		_rc=$?
		echo "$_c: exit $_rc: $(cat "$PT/out" "$PT/err")"
		[ "$_rc" -eq 1 ] || return 1
		grep -q 'not an OpenBSD source tree' "$PT/err" || return 1
		grep -q 'not patched' "$PT/out" "$PT/err" && return 1
	done
	sh "$TOOL" config -s "$PT/nosuch" amd64 2>"$PT/err" && return 1
	grep -qx "mplock-patch: $PT/nosuch: no such directory" "$PT/err" ||
	    return 1
	# config without -s: /usr/src, which here is no OpenBSD tree (or
	# is none at all).
	[ ! -f /usr/src/sys/kern/kern_lock.c ] || return 0
	sh "$TOOL" config amd64 2>"$PT/err" && return 1
	cat "$PT/err"
	grep -qx 'mplock-patch: /usr/src: no such directory' "$PT/err" ||
	    grep -qx "mplock-patch: /usr/src: not an OpenBSD source tree (no\
 sys/kern/kern_lock.c, no sys/conf/files); -s names the tree" "$PT/err"
}
t_check patch/tree/not-a-source-tree not_a_tree

# Printed commands paste: a tree whose path has a blank and a quote;
# the revert command apply prints, and the cd config prints, run as
# printed.
paste_commands() {
	_d="$PT/sp ace/it's"
	chmod -R u+w "$PT/sp ace" 2>/dev/null
	rm -rf "$PT/sp ace"
	mkdir -p "$PT/sp ace"
	cp -Rp "$PT/pristine" "$_d"
	sh "$TOOL" apply "$_d" >"$PT/out" || return 1
	cat "$PT/out"
	_undo=$(sed -n 's/.*undo with "\(.*\)"$/\1/p' "$PT/out")
	sh "$TOOL" config -s "$_d" amd64 >"$PT/out" || return 1
	cat "$PT/out"
	_cd=$(sed -n 's/^	\(cd .*\) && make obj .*/\1/p' "$PT/out")
	[ "$(sh -c "$_cd && pwd")" = "$_d/sys/arch/amd64/compile/MLOCK.MP" ] ||
	    { echo "printed cd does not paste: $_cd"; return 1; }
	echo "$_undo" | sed "s|^mplock-patch |sh $TOOL |" >"$PT/undo.sh"
	case $_undo in
	"mplock-patch revert "*)	;;
	*)	echo "no revert command: $_undo"; return 1 ;;
	esac
	sh "$PT/undo.sh" || { echo "printed revert does not paste"; return 1; }
	same_as "$PT/pristine.sig" "$_d"
}
t_check patch/printed-commands-paste paste_commands

# Misuse says what was wrong before the usage.
usage_reasons() {
	_t=$PT/pristine
	conv "mplock-patch: no command" || return 1
	conv "mplock-patch: -k and -r: one or the other" diff -k -r "$_t" ||
	    return 1
	conv "mplock-patch: -s: options go before the operands" \
	    config amd64 -s "$_t" || return 1
	conv "mplock-patch: config: no arch" config -s "$_t" || return 1
	conv "mplock-patch: apply: no tree" apply || return 1
	conv "mplock-patch: apply: too many operands (tree only)" \
	    apply "$_t" "$_t" || return 1
	conv "mplock-patch: status: no tree" status || return 1
	conv "mplock-patch: series: unknown command" series "$_t" || return 1
	conv "mplock-patch: -f: options go before the operands" \
	    revert "$_t" -f || return 1
	conv "mplock-patch: help: no operands" help x
}
t_check patch/usage/says-why usage_reasons

# The short help matches the manual pages: the synopsis, word for word,
# of mplock-patch(8) (its help is that alone) and buildtime(1); all
# four time formats of import.
help_is_page() {
	command -v mandoc >/dev/null 2>&1 || { echo "no mandoc"; return 1; }
	for _p in tools/mplock-patch:share/man/man8/mplock-patch.8 \
	    tools/buildtime:share/man/man1/buildtime.1; do
		_tool=$ROOT/${_p%%:*} _man=$ROOT/${_p#*:}
		sh "$_tool" help | sed -n '1,/^$/p' | sed 's/^usage: //' |
		    tr -s ' \n\t' '   ' | sed 's/ *$//' >"$PT/help.syn"
		MANWIDTH=200 mandoc -Tascii "$_man" | col -b |
		    sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed '1d;$d' |
		    tr -s ' \n\t' '   ' | sed 's/^ *//; s/ *$//' >"$PT/man.syn"
		diff "$PT/man.syn" "$PT/help.syn" ||
		    { echo "${_p%%:*}: help and page differ"; return 1; }
	done
	_h=$(sh "$ROOT/tools/buildtime" help | sed -n '/^import/,/^compare/p')
	for _f in 'time -p' 'time(1) without -p' "ksh's time" "bash's"; do
		echo "$_h" | tr '\n\t' '  ' | grep -qF "$_f" ||
		    { echo "import's help lacks $_f"; return 1; }
	done
}
t_check patch/usage/help-is-the-page help_is_page

# status: exit 2 for a hand edit too, which it says revert keeps
# unless -f; revert refuses, revert -f reverts.
status_hand_edit() {
	_t=$(fresh status-edit)
	sh "$TOOL" apply "$_t" >/dev/null || return 1
	echo "/* mine */" >>"$_t/$KL"
	sh "$TOOL" status "$_t" >"$PT/out"
	[ $? -eq 2 ] || return 1
	cat "$PT/out"
	grep -q "revert $_t\" refuses to revert it; with -f it does" \
	    "$PT/out" || return 1
	sh "$TOOL" revert "$_t" 2>/dev/null && return 1
	sh "$TOOL" revert -f "$_t" >/dev/null || return 1
	same_as "$PT/pristine.sig" "$_t"
}
t_check patch/status/hand-edit status_hand_edit
