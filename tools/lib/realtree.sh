# Compile kernel files of a real OpenBSD tree, patched with
# tools/mplock-patch, the way the tree's own kernel Makefile does, for
# every backend and option combination.  The tree is the vendored
# snapshot (../shared/vendor/openbsd-src.tar.xz, amd64 and i386 only);
# tools/lib/kcompile.sh compiles for the architectures it lacks.
# Sourced after common.sh, vendor.sh, config8.sh and kcompile.sh
# (kernel_machine_info).
#
# realtree_setup DIR
#	Extract the snapshot (vendor_tree), copy it to DIR/src, patch the
#	copy with "tools/mplock-patch apply" and list the C files the
#	patch added or changed in DIR/patched (from the list in its record);
#	build the snapshot's config(8) (tools/lib/config8.sh), linked as
#	DIR/config.  DIR/base is the unpatched snapshot.  Returns 77 with
#	a note when the tarball, bmake, byacc, flex or clang's OpenBSD
#	targets are missing.
#
# realtree_arch DIR ARCH
#	Start ARCH (amd64, i386) afresh in DIR/ARCH.  DIR/ARCH/ours: the
#	options only the patch's own lines of sys/conf/files name (an
#	option of ours that selects a file of ours), which every
#	combination turns on, so that those files are compiled.
#
# realtree_combos [mp | up]
#	The combinations, one a line: a backend, then the options turned
#	on, comma-separated, e.g. "mlock,MULTIPROCESSOR,WITNESS,DDB".
#	Every backend times MULTIPROCESSOR on and off times every subset of
#	WITNESS, MP_LOCKDEBUG, MPLOCK_DEBUG, DDB but those with
#	MP_LOCKDEBUG or WITNESS and no DDB, which the tree refuses (#error
#	in kern_lock.c and subr_witness.c): 80 (40 with mp or up).
#
# realtree_jobs DIR ARCH MODE FILELIST COMBO...
#	Print one job a line for realtree_run: every file of FILELIST (a
#	file of paths relative to sys/) that a kernel with COMBO compiles
#	(its generated Makefile's CFILES, and its own rules' sources such
#	as conf/param.c), for every COMBO.  MODE is obj (code generation
#	too: -Wframe-larger-than and the inline assembly are only checked
#	there) or syntax (-fsyntax-only).
#
# realtree_run DIR NAME < JOBS
#	Compile the jobs in the patched tree, $KCOMPILE_JOBS (default 2)
#	at a time.  A job that fails is compiled again in the snapshot
#	with the same flags: if it compiles there (or the file is new),
#	the patch broke it: a line in DIR/fail/NAME/list and a log
#	DIR/fail/NAME/*.log (the command, then the compiler's messages);
#	if not, it is no fault of the patch, and only noted in
#	DIR/fail/NAME/unpatched-too.  Prints "NAME: N compiles, N failed,
#	N failed unpatched too, Ns".  Returns 1 if the patch broke one, if
#	there was nothing to compile, or if not every job ran.
#
# realtree_includers DIR ARCH
#	Compile every source the patch does not change that a kernel
#	compiles, in the snapshot, with -fsyntax-only and -MD, once with
#	MULTIPROCESSOR and once without, both with GENERIC's options and
#	WITNESS, MP_LOCKDEBUG and DDB on (the most headers), and write
#	the files whose dependencies name sys/mplock.h or machine/mplock.h
#	and which compiled to DIR/ARCH/includers-mp and
#	DIR/ARCH/includers-up.  A file that does not compile unpatched (the
#	snapshot lacks a header it includes, an isapnp driver on amd64)
#	cannot be checked; it goes to DIR/ARCH/unbuildable-{mp,up} with
#	its first error.
#
# realtree_sample DIR ARCH
#	A sample of the includers for the quick run, in DIR/ARCH/sample,
#	without compiling the whole tree: the sources (not patched) a
#	MULTIPROCESSOR kernel compiles that use what the patched
#	<sys/mplock.h> declares (a function, a macro taking arguments or
#	kernel_lock, by name) or include <sys/mplock.h> or <machine/mplock.h>
#	themselves, where a mismatch between our declarations and the
#	tree's use shows; then, for each top-level directory of sys/ none
#	of those is in, the first source by name whose dependencies (clang
#	-M, patched tree) name sys/mplock.h: the header as the rest of the
#	kernel (net, uvm, file systems, drivers) includes it.
#
# realtree_cc DIR ARCH COMBO FILE OUT [CFLAGS ...]
#	Compile sys/FILE of the patched tree to the object OUT with
#	COMBO's flags; CFLAGS come first (say -I of a directory whose
#	headers are to be found before the tree's).
#
# Each combination is a kernel config: "include" of GENERIC.MP (GENERIC
# without MULTIPROCESSOR), "option MPLOCK_<BACKEND>", the matrix's
# options turned off ("rmoption": DDB is GENERIC's), then those on, the
# patch's own on.  config(8) makes its compile directory, in the patched
# tree and in the snapshot, DIR/ARCH/conf/{src,base}.COMBO: the
# Makefile, the needs-count headers, the machine links.  The files are
# its CFILES that the snapshot has; the flags its CFLAGS and CPPFLAGS
# (bmake, with stand-ins for bsd.own.mk and sys.mk), for clang's
# <arch>-unknown-openbsd target, less these, each for its reason:
#	-msave-args	OpenBSD's clang only (amd64 with DDB: saves the
#			arguments on the stack for ddb's traces); upstream
#			clang has no such option.
#	-fret-clean	OpenBSD's clang only (amd64: clears the return
#			address after use); upstream clang has no such option.
#	-MD -MP		dependency files for make: nothing is rebuilt here,
#			and next to an object written to /dev/null they
#			could not be written (realtree_includers adds -MD
#			back, with -MF, to read the dependencies).
# config(8)'s generated sources (ioconf.c, vers.c, swapgeneric) are not
# compiled: nothing in them comes from the patch.

REALTREE_OPTS="WITNESS MP_LOCKDEBUG MPLOCK_DEBUG DDB"
REALTREE_DROP="-msave-args -fret-clean -MD -MP"

realtree_setup() {
	_rd=$1
	command -v bmake >/dev/null 2>&1 || {
		echo "realtree: bmake not installed (reads the kernel Makefile)"
		return 77
	}
	command -v "${CLANG:-clang}" >/dev/null 2>&1 || {
		echo "realtree: ${CLANG:-clang} not installed"
		return 77
	}
	for _m in amd64 i386; do
		_t=$(kernel_machine_info $_m | cut -d' ' -f2)
		echo 'int x;' | "${CLANG:-clang}" -target "$_t" -ffreestanding \
		    -nostdinc -fsyntax-only -x c - >/dev/null 2>&1 || {
			echo "realtree: ${CLANG:-clang} has no $_t target"
			return 77
		}
	done
	_base=$(vendor_tree openbsd-src) || {
		_rc=$?
		echo "realtree: no vendored OpenBSD tree" \
		    "($VENDOR/openbsd-src.tar.xz)"
		return $_rc
	}
	_c8=$(config8_build "$_base") || {
		_rc=$?
		echo "realtree: no config(8) from the snapshot"
		return $_rc
	}
	rm -rf "$_rd"
	mkdir -p "$_rd" || return 1
	ln -s "$_base" "$_rd/base"
	ln -s "$_c8" "$_rd/config"
	cp -R "$_base" "$_rd/src" || return 1
	sh "$ROOT/tools/mplock-patch" apply "$_rd/src" >"$_rd/apply.log" \
	    2>&1 || {
		cat "$_rd/apply.log"
		echo "realtree: mplock-patch apply failed on the snapshot"
		return 1
	}
	# Entries are "A|M PATH SUM" (mplock-patch(8), FILES).
	awk '($1 == "A" || $1 == "M") && $2 ~ /^sys\/.*\.c$/ {
	    print substr($2, 5) }' "$_rd/src/.mplock-patch/files" |
	    sort -u >"$_rd/patched"
	[ -s "$_rd/patched" ] || {
		echo "realtree: the patch record names no C file"
		return 1
	}
	# A stand-in bsd.own.mk and sys.mk: what the kernel Makefile reads
	# from them is the compiler's name and the no-PIE flag.
	mkdir -p "$_rd/mk"
	printf 'COMPILER_VERSION=clang\nNOPIE_FLAGS=-fno-pie\n' \
	    >"$_rd/mk/bsd.own.mk"
	: >"$_rd/mk/sys.mk"
}

realtree_arch() {
	_ad=$1/$2
	rm -rf "$_ad"
	mkdir -p "$_ad/flags" "$_ad/conf" || return 1
	[ -f "$1/src/sys/arch/$2/conf/GENERIC.MP" ] || {
		echo "realtree: the snapshot has no $2"
		return 1
	}
	grep -vxF -f "$1/base/sys/conf/files" "$1/src/sys/conf/files" |
	    sed -n 's/^file[[:space:]]\{1,\}[^[:space:]]*//p' |
	    sed 's/needs-[a-z]*.*//' | tr -c '_A-Za-z0-9\n' ' ' |
	    tr ' ' '\n' | tr 'abcdefghijklmnopqrstuvwxyz' \
	    'ABCDEFGHIJKLMNOPQRSTUVWXYZ' | sort -u |
	    grep -vxF -e '' $(for _o in $REALTREE_OPTS MULTIPROCESSOR; do
		echo "-e $_o"; done) >"$_ad/ours"
	echo "$2: options of the patch's own, on in every kernel:" \
	    $(cat "$_ad/ours")
}

realtree_combos() {
	for _be in $BACKENDS; do
		for _mp in MULTIPROCESSOR ""; do
			case ${1:-all}/$_mp in
			mp/ | up/MULTIPROCESSOR)	continue ;;
			esac
			for _w in WITNESS ""; do
			for _l in MP_LOCKDEBUG ""; do
			for _d in MPLOCK_DEBUG ""; do
			for _b in DDB ""; do
				# The tree refuses MP_LOCKDEBUG and WITNESS
				# without DDB (#error in kern_lock.c and
				# subr_witness.c).
				[ -n "$_l$_w" ] && [ -z "$_b" ] && continue
				echo "$_be,$_mp,$_w,$_l,$_d,$_b" |
				    sed 's/,,*/,/g; s/,$//'
			done
			done
			done
			done
		done
	done
}

# realtree_combos_header DIR ARCH: of the MULTIPROCESSOR combinations,
# one for each different <sys/mplock.h>: those that differ only in
# options the patched <sys/mplock.h> and <machine/mplock.h> do not test
# (#if, #ifdef, defined()) compile the same header.
# realtree_combos_slice: make test's share of realtree_combos: every
# combination for the default backend; for the others, the kernel with
# none of the options, with all of them, with MPLOCK_DEBUG alone (no
# DDB), and without MULTIPROCESSOR.  make kcompile-full takes them all.
realtree_combos_slice() {
	realtree_combos | awk -v def="$DEFAULT_BACKEND" '
	{
		be = $0; sub(/,.*/, "", be)
		opts = $0; sub(/^[^,]*,?/, "", opts)
	}
	be == def || opts == "MULTIPROCESSOR" || opts == "" ||
	    opts == "MULTIPROCESSOR,MPLOCK_DEBUG" ||
	    opts == "MULTIPROCESSOR,WITNESS,MP_LOCKDEBUG,MPLOCK_DEBUG,DDB"'
}

realtree_combos_header() {
	_hn=$(grep -hE '^#[[:space:]]*(if|ifdef|ifndef|elif)[[:space:]]' \
	    "$1/src/sys/sys/mplock.h" "$1/src/sys/arch/$2/include/mplock.h" |
	    tr -c '_A-Za-z0-9\n' ' ' | tr ' ' '\n' | sort -u | tr '\n' ' ')
	realtree_combos mp | awk -v names="$_hn" '
	    BEGIN {
		n = split(names, a, " ")
		for (i = 1; i <= n; i++)
			h[a[i]] = 1
	    }
	    {
		m = split($0, o, ",")
		k = o[1]
		for (i = 2; i <= m; i++)
			if (o[i] in h)
				k = k "," o[i]
		if (!(k in seen)) {
			seen[k] = 1
			print
		}
	    }'
}

# _realtree_flags DIR ARCH COMBO: COMBO's kernel config, config(8) run
# on it in the patched tree and in the snapshot, and what its Makefiles
# say: the flags for the patched tree (DIR/ARCH/flags/src.COMBO) and
# the snapshot (DIR/ARCH/flags/base.COMBO), the files it compiles
# (DIR/ARCH/cfiles.COMBO); made once.
_realtree_flags() {
	_fd=$1 _fr=$2 _fc=$3
	_fa=$_fd/$_fr
	[ -f "$_fa/flags/src.$_fc" ] && return 0
	_fk=$(echo "$_fc" | tr , _)
	_fg=GENERIC
	case ,$_fc, in
	*,MULTIPROCESSOR,*)	_fg=GENERIC.MP ;;
	esac
	{
		echo "include \"arch/$_fr/conf/$_fg\""
		echo "option MPLOCK_$(upper "${_fc%%,*}")"
		# Off first: GENERIC has DDB, and config(8) refuses an
		# option twice.
		for _fo in $REALTREE_OPTS; do
			echo "rmoption $_fo"
			case ,$_fc, in
			*,$_fo,*)	echo "option $_fo" ;;
			esac
		done
		sed 's/^/option /' "$_fa/ours"
	} >"$_fa/conf/$_fk"
	for _ft in src base; do
		_fb=$_fa/conf/$_ft.$_fk
		rm -rf "$_fb"
		"$_fd/config" -b "$_fb" -s "$_fd/$_ft/sys" "$_fa/conf/$_fk" \
		    >"$_fb.log" 2>&1 || {
			cat "$_fb.log" >&2
			echo "realtree: config(8) failed on $_fa/conf/$_fk" \
			    "($_ft)" >&2
			return 1
		}
		_fv=$(cd "$_fb" && bmake -m "$_fd/mk" \
		    -V '${CFLAGS} ${CPPFLAGS}' 2>/dev/null)
		[ -n "$_fv" ] || {
			echo "realtree: bmake cannot read $_fb/Makefile" >&2
			return 1
		}
		# The shell's quote removal, as make's commands get it
		# (IDENT=-DHZ="0x32").
		eval "set -- $_fv"
		echo "-target $(kernel_machine_info "$_fr" | cut -d' ' -f2)" \
		    $(for _fw; do
			case " $REALTREE_DROP " in
			*" $_fw "*)	;;
			*)		echo "$_fw" ;;
			esac
		    done) >"$_fa/flags/$_ft.$_fc.tmp" || return 1
	done
	_fb=$_fa/conf/src.$_fk
	{
		(cd "$_fb" && bmake -m "$_fd/mk" -V '${S}' -V '${CFILES}' \
		    2>/dev/null) | awk 'NR == 1 { s = $1 "/"; next }
		    { for (i = 1; i <= NF; i++)
			if (index($i, s) == 1) print substr($i, length(s) + 1) }'
		# The Makefile's own rules: "param.c: $S/conf/param.c".
		sed -n 's/^[a-z_]*\.c:[[:space:]]*\$S\/\([^[:space:]]*\.c\).*/\1/p' \
		    "$_fb/Makefile"
	} | sort -u | while read -r _ff; do
		# Those the snapshot has (it has no drm).
		[ -f "$_fd/src/sys/$_ff" ] && echo "$_ff"
	done >"$_fa/cfiles.$_fc"
	[ -s "$_fa/cfiles.$_fc" ] || {
		echo "realtree: no CFILES in $_fb/Makefile" >&2
		return 1
	}
	mv "$_fa/flags/base.$_fc.tmp" "$_fa/flags/base.$_fc" &&
	    mv "$_fa/flags/src.$_fc.tmp" "$_fa/flags/src.$_fc"
}

realtree_jobs() {
	_rd=$1 _ra=$2 _mo=$3 _fl=$4
	shift 4
	for _c; do
		_realtree_flags "$_rd" "$_ra" "$_c" || return 1
		grep -xF -f "$_rd/$_ra/cfiles.$_c" "$_fl" |
		    sed "s|^|$_mo $_rd $_ra $_c |"
	done
}

# One job: MODE DIR ARCH COMBO FILE.  A failure is the patch's when the
# same file compiles with the same options in the snapshot (or is not
# there: a file the patch adds); otherwise it is noted, not counted.
_REALTREE_JOB='
	case $1 in
	obj)	m="-c -o /dev/null" ;;
	*)	m=-fsyntax-only ;;
	esac
	cc=${CLANG:-clang}
	o=$D/o.$$
	$cc $(cat "$2/$3/flags/src.$4") $m "$2/src/sys/$5" >"$o" 2>&1 && {
		rm -f "$o"
		printf . >>"$D/ok"
		exit 0
	}
	l=$D/$$.$3.$(echo "$5" | tr / _).log
	{ echo "$3 $4: $cc $m sys/$5"; cat "$o"; } >"$l"
	rm -f "$o"
	if [ ! -f "$2/base/sys/$5" ] ||
	    $cc $(cat "$2/$3/flags/base.$4") $m "$2/base/sys/$5" \
	    >/dev/null 2>&1; then
		echo "$3 $4 $5 $l" >>"$D/list"
	else
		echo "$3 $4 $5 $l" >>"$D/unpatched-too"
	fi'

realtree_run() {
	_rd=$1 _rn=$2
	D=$_rd/fail/$_rn
	rm -rf "$D"
	mkdir -p "$D" || return 1
	: >"$D/list"
	: >"$D/unpatched-too"
	: >"$D/ok"
	_t0=$(date +%s)
	_n=$(tee "$D/jobs" | wc -l | tr -d ' ')
	if [ "$_n" -eq 0 ]; then
		echo "$_rn: no file to compile"
		return 1
	fi
	D=$D xargs -P "${KCOMPILE_JOBS:-2}" -L 1 sh -c "$_REALTREE_JOB" sh \
	    <"$D/jobs"
	_nf=$(wc -l <"$D/list" | tr -d ' ')
	_nu=$(wc -l <"$D/unpatched-too" | tr -d ' ')
	_nok=$(wc -c <"$D/ok" | tr -d ' ')
	echo "$_rn: $_n compiles, $_nf failed, $_nu failed unpatched too," \
	    "$(($(date +%s) - _t0))s"
	# Every job accounted for: none lost to xargs or a killed shell.
	if [ $((_nok + _nf + _nu)) -ne "$_n" ]; then
		echo "$_rn: only $((_nok + _nf + _nu)) of $_n compiles ran"
		return 1
	fi
	[ "$_nu" -gt 0 ] && echo "(failing unpatched too: $D/unpatched-too)"
	[ "$_nf" -eq 0 ] && return 0
	head -n 5 "$D/list" | while read -r _a _c _src _log; do
		echo "FAIL $_a $_c $_src"
		sed -n '2,12p' "$_log" | sed 's/^/    /'
	done
	echo "(all failures: $D/list)"
	return 1
}

realtree_includers() {
	_rd=$1 _ra=$2
	_ad=$_rd/$_ra
	_be=$DEFAULT_BACKEND
	for _k in mp up; do
		if [ $_k = mp ]; then
			_c=$_be,MULTIPROCESSOR,WITNESS,MP_LOCKDEBUG,DDB
		else
			_c=$_be,WITNESS,MP_LOCKDEBUG,DDB
		fi
		_realtree_flags "$_rd" "$_ra" "$_c" || return 1
		_ff=$_ad/flags/base.$_c
		_dd=$_ad/deps-$_k
		rm -rf "$_dd"
		mkdir -p "$_dd"
		grep -vxF -f "$_rd/patched" "$_ad/cfiles.$_c" |
		    sed "s|.*|& $_rd/base/sys/&|" |
		    DD=$_dd FF=$_ff xargs -P "${KCOMPILE_JOBS:-2}" -L 1 sh -c '
			d=$DD/$(echo "$1" | tr / _)
			${CLANG:-clang} $(cat "$FF") -fsyntax-only -MD \
			    -MF "$d.d" "$2" >"$d.err" 2>&1 ||
			    echo "$1" >"$d.bad"
		    ' sh || return 1
		: >"$_ad/includers-$_k"
		: >"$_ad/unbuildable-$_k"
		grep -vxF -f "$_rd/patched" "$_ad/cfiles.$_c" |
		while read -r _f; do
			_d=$_dd/$(echo "$_f" | tr / _)
			if [ -f "$_d.bad" ]; then
				echo "$_f: $(grep -m1 'error:' "$_d.err")" \
				    >>"$_ad/unbuildable-$_k"
			elif grep -Eq '/(sys|machine)/mplock\.h' "$_d.d"; then
				echo "$_f" >>"$_ad/includers-$_k"
			fi
		done
		echo "$_ra $_k: $(grep -vxF -f "$_rd/patched" \
		    "$_ad/cfiles.$_c" | wc -l) sources of the snapshot," \
		    "$(wc -l <"$_ad/includers-$_k") include <sys/mplock.h>," \
		    "$(wc -l <"$_ad/unbuildable-$_k") do not build unpatched"
	done
}

realtree_sample() {
	_rd=$1 _ra=$2
	_ad=$_rd/$_ra
	_c=$DEFAULT_BACKEND,MULTIPROCESSOR,WITNESS,MP_LOCKDEBUG,MPLOCK_DEBUG,DDB
	_realtree_flags "$_rd" "$_ra" "$_c" || return 1
	grep -vxF -f "$_rd/patched" "$_ad/cfiles.$_c" >"$_ad/sample-from"
	_h=$_rd/src/sys/sys/mplock.h
	_names=$({
		_id='[_a-zA-Z][_a-zA-Z0-9]*'
		sed -n "s/^[a-z][a-z_ ]*[[:space:]*]\\($_id\\)(.*/\\1/p" "$_h"
		sed -n "s/^#define[[:space:]]\\{1,\\}\\($_id\\)(.*/\\1/p" "$_h"
		sed -n "s/^extern[^;]*[[:space:]*]\\($_id\\);.*/\\1/p" "$_h"
	} | sort -u | tr '\n' '|')
	[ -n "$_names" ] || {
		echo "realtree: no names declared in $_h"
		return 1
	}
	_use="(^|[^_a-zA-Z0-9])(${_names%|})([^_a-zA-Z0-9]|\$)"
	_inc='#[[:space:]]*include[[:space:]]*<(sys|machine)/mplock\.h>'
	(cd "$_rd/src/sys" && grep -lE "$_use|$_inc" \
	    $(cat "$_ad/sample-from")) >"$_ad/sample"
	echo "$_ra: $(wc -l <"$_ad/sample") sources use the names of" \
	    "<sys/mplock.h> (${_names%|})"
	_have=$(cut -d/ -f1 "$_ad/sample" | sort -u)
	for _top in $(cut -d/ -f1 "$_ad/sample-from" | sort -u); do
		case " $(echo $_have) " in
		*" $_top "*)	continue ;;
		esac
		for _f in $(grep "^$_top/" "$_ad/sample-from"); do
			${CLANG:-clang} $(cat "$_ad/flags/src.$_c") -M \
			    "$_rd/src/sys/$_f" 2>/dev/null |
			    grep -Eq '/(sys|machine)/mplock\.h' || continue
			echo "$_f" >>"$_ad/sample"
			echo "$_ra: $_top: $_f"
			break
		done
	done
}

realtree_cc() {
	_rd=$1 _ra=$2 _rc=$3 _rf=$4 _ro=$5
	shift 5
	_realtree_flags "$_rd" "$_ra" "$_rc" || return 1
	echo "$_ra $_rc: ${CLANG:-clang} $* -c sys/$_rf"
	${CLANG:-clang} "$@" $(cat "$_rd/$_ra/flags/src.$_rc") -c \
	    "$_rd/src/sys/$_rf" -o "$_ro"
}
