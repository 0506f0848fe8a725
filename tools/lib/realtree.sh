# Compile kernel files of a real OpenBSD tree, patched with
# tools/mplock-patch, the way the tree's own kernel Makefile does, for
# every backend and option combination.  The tree is the vendored
# snapshot (../shared/vendor/openbsd-src.tar.xz, amd64 and i386 only);
# tools/kenv stands in for the architectures it lacks.  Sourced after
# common.sh, vendor.sh and kcompile.sh (kernel_machine_info).
#
# realtree_setup DIR
#	Extract the snapshot (vendor_tree), copy it to DIR/src, patch the
#	copy with "tools/mplock-patch apply" and list the C files the
#	patch added or changed in DIR/patched (from the list in its record).
#	DIR/base is the unpatched snapshot.  Returns 77 with a note when
#	the tarball or clang's OpenBSD targets are missing.
#
# realtree_arch DIR ARCH
#	For ARCH (amd64, i386), what config(8) and Makefile.ARCH would
#	give a GENERIC.MP build, without config(8) itself:
#	DIR/ARCH/sources: every C file named by a "file" line of
#	sys/conf/files and sys/arch/ARCH/conf/files.ARCH (and the files
#	they include) that the snapshot has, plus the C files
#	Makefile.ARCH compiles by its own rules (conf/param.c);
#	DIR/ARCH/gen-TREE: the compile directory's generated headers for
#	TREE (src or base): one <attr>.h per "needs-count"/"needs-flag"
#	file line, defining N<ATTR> 1 for every attribute its expression
#	names (as if every device were configured), and the "machine" and
#	ARCH links to sys/arch/ARCH/include;
#	DIR/ARCH/ident: the options GENERIC.MP (and the GENERIC files it
#	includes) sets, as -D flags, less those the matrix varies; and any
#	option only the patch's own lines in sys/conf/files name (none
#	yet: an option that selects a file of ours), so that its files are
#	compiled in every combination.
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
#	(realtree_select), for every COMBO.  MODE is obj (code generation
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
#	Compile every source of DIR/ARCH/sources the patch does not
#	change, in the snapshot, as a kernel selects it (realtree_select),
#	with -fsyntax-only and -MD, once with MULTIPROCESSOR and once
#	without, both with GENERIC's options and WITNESS, MP_LOCKDEBUG and
#	DDB on (the most headers), and write the files whose dependencies
#	name sys/mplock.h or machine/mplock.h and which compiled to
#	DIR/ARCH/includers-mp and DIR/ARCH/includers-up.  A file that does
#	not compile unpatched (the snapshot lacks a header it includes, an
#	isapnp driver on amd64) cannot be checked; it goes to
#	DIR/ARCH/unbuildable-{mp,up} with its first error.
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
# The compiler flags are Makefile.ARCH's own: bmake reads the tree's
# Makefile (its config(8) "%" lines taken out) and prints CFLAGS and
# CPPFLAGS for the combination's IDENT; the target is clang's
# <arch>-unknown-openbsd.  Dropped, each with its reason:
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
		echo "realtree: bmake not installed (reads Makefile.ARCH)"
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
	rm -rf "$_rd"
	mkdir -p "$_rd" || return 1
	ln -s "$_base" "$_rd/base"
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
	# A stand-in bsd.own.mk and sys.mk: what Makefile.ARCH reads from
	# them is the compiler's name and the no-PIE flag.
	mkdir -p "$_rd/mk"
	printf 'COMPILER_VERSION=clang\nNOPIE_FLAGS=-fno-pie\n' \
	    >"$_rd/mk/bsd.own.mk"
	: >"$_rd/mk/sys.mk"
}

# The files.* parser: "F path expression" for each file line, "D name"
# for each device, pseudo-device, attribute and attachment declared,
# "H attr..." for each needs-count or needs-flag line (its header is
# named after the first attribute).
_realtree_files() {
	awk -v S="$1" -v A="$2" '
	function parse(f,   line, a, n, i, t, d, c) {
		while ((getline line < f) > 0) {
			sub(/#.*/, "", line)
			# An expression goes on across lines in parentheses
			# or after an operator.
			t = line
			d = gsub(/\(/, "(", t) - gsub(/\)/, ")", t)
			while ((d > 0 || line ~ /[|&!][ \t]*$/) &&
			    (getline c < f) > 0) {
				sub(/#.*/, "", c)
				line = line " " c
				t = c
				d += gsub(/\(/, "(", t) - gsub(/\)/, ")", t)
			}
			n = split(line, a, /[ \t]+/)
			i = (a[1] == "") ? 2 : 1
			if (a[i] == "include") {
				t = a[i + 1]
				gsub(/"/, "", t)
				parse(S "/" t)
			} else if (a[i] ~ /^(define|device|pseudo-device)$/) {
				t = a[i + 1]
				sub(/[:{].*/, "", t)
				print "D", t
			} else if (a[i] == "attach" &&
			    line ~ /[ \t]with[ \t]/) {
				t = line
				sub(/.*[ \t]with[ \t]+/, "", t)
				sub(/[ \t:].*/, "", t)
				print "D", t
			} else if (a[i] == "file") {
				t = line
				sub(/^[ \t]*file[ \t]+[^ \t]+[ \t]*/, "", t)
				sub(/needs-(count|flag).*/, "", t)
				print "F", a[i + 1], t
				if (line ~ /needs-(count|flag)/) {
					t = line
					sub(/^[ \t]*file[ \t]+[^ \t]+/, "", t)
					sub(/needs-(count|flag).*/, "", t)
					gsub(/[()!&|]/, " ", t)
					print "H", t
				}
			}
		}
		close(f)
	}
	BEGIN {
		parse(S "/conf/files")
		parse(S "/arch/" A "/conf/files." A)
	}'
}

realtree_arch() {
	_rd=$1 _ra=$2
	_ad=$_rd/$_ra
	rm -rf "$_ad"
	mkdir -p "$_ad" || return 1
	_s=$_rd/src/sys
	[ -f "$_s/arch/$_ra/conf/files.$_ra" ] || {
		echo "realtree: the snapshot has no $_ra"
		return 1
	}
	_realtree_files "$_s" "$_ra" >"$_ad/files" || return 1
	{
		awk '$1 == "F" && $2 ~ /\.c$/ { print $2 }' "$_ad/files"
		# Makefile.ARCH's own rules: "x.c: $S/path.c".
		sed -n \
		    's/^[a-z_]*\.c:[[:space:]]*\$S\/\([^[:space:]]*\.c\).*/\1/p' \
		    "$_s/arch/$_ra/conf/Makefile.$_ra"
	} | sort -u | while read -r _f; do
		[ -f "$_s/$_f" ] && echo "$_f"
	done >"$_ad/sources"
	for _tr in src base; do
		_g=$_ad/gen-$_tr
		mkdir -p "$_g"
		awk -v g="$_g" '$1 == "H" {
			h = g "/" $2 ".h"
			for (i = 2; i <= NF; i++)
				if (!((h, $i) in seen)) {
					seen[h, $i] = 1
					printf "#define\tN%s\t1\n", \
					    toupper($i) > h
				}
		}' "$_ad/files" || return 1
		ln -s "$_rd/$_tr/sys/arch/$_ra/include" "$_g/machine"
		ln -s machine "$_g/$_ra"
	done
	# GENERIC.MP's options (following its includes), less the ones the
	# matrix sets.
	_realtree_conf "$_s" "arch/$_ra/conf/GENERIC.MP" |
	    awk -v skip="$REALTREE_OPTS MULTIPROCESSOR" '
	    BEGIN {
		n = split(skip, s, " ")
		for (i = 1; i <= n; i++)
			no[s[i]] = 1
	    }
	    $1 == "option" {
		for (i = 2; i <= NF; i++) {
			o = $i
			sub(/,$/, "", o)
			k = o
			sub(/=.*/, "", k)
			if (k ~ /^MPLOCK_/ || (k in no))
				continue
			printf "-D%s ", o
		}
	    }
	    $1 == "maxusers" { mu = $2 }
	    END { if (mu) printf "-DMAXUSERS=%s", mu; print "" }' \
	    >"$_ad/ident"
	# Options only the patch's own lines of sys/conf/files name (an
	# option of ours that selects a file of ours) are on in every
	# combination, so that those files are compiled.
	_po=$(grep -vxF -f "$_rd/base/sys/conf/files" "$_s/conf/files" |
	    sed -n 's/^file[[:space:]]\{1,\}[^[:space:]]*//p' |
	    tr -c '_A-Za-z0-9\n' ' ' | tr ' ' '\n' | sort -u |
	    awk -v ff="$_ad/files" -v skip="$REALTREE_OPTS MULTIPROCESSOR" '
	    BEGIN {
		while ((getline l < ff) > 0) {
			split(l, a, " ")
			if (a[1] == "D")
				decl[a[2]] = 1
		}
		n = split(skip, s, " ")
		for (i = 1; i <= n; i++)
			no[s[i]] = 1
	    }
	    $1 != "" && !($1 in decl) && !(toupper($1) in no) {
		printf " -D%s", toupper($1)
	    }')
	[ -n "$_po" ] && echo "$(cat "$_ad/ident")$_po" >"$_ad/ident"
	mkdir -p "$_ad/flags"
	grep -v '^%' "$_s/arch/$_ra/conf/Makefile.$_ra" >"$_ad/Makefile"
}

# _realtree_conf SYS CONF: CONF's lines, includes expanded (a path is
# relative to sys/arch/ARCH/conf or sys/, as config(8) finds it),
# comments removed.
_realtree_conf() {
	awk -v S="$1" '
	function rd(f,   l, p) {
		if ((getline l < f) < 0) {
			print "realtree: cannot read " f > "/dev/stderr"
			exit 1
		}
		close(f)
		while ((getline l < f) > 0) {
			sub(/#.*/, "", l)
			if (l ~ /^include[ \t]/) {
				p = l
				sub(/^include[ \t]+"?/, "", p)
				sub(/"?[ \t]*$/, "", p)
				if (p ~ /^\.\.\/\.\.\/\.\.\//)
					p = substr(p, 10)
				rd(S "/" p)
			} else
				print l
		}
		close(f)
	}
	BEGIN { rd(S "/" ARGV[1]); ARGV[1] = "" }' "$2"
}

# realtree_combos_header DIR ARCH
#	Of the MULTIPROCESSOR combinations, one for each different
#	<sys/mplock.h>: options the patched headers do not test do not
#	change what an includer sees of them.
#
# realtree_select DIR ARCH COMBO < PATHS: the paths a kernel with
# GENERIC.MP's options and COMBO's compiles, as config(8) selects them:
# a file line's expression (| & ! and parentheses) holds when its
# names do; a declared device, attribute or attachment counts as
# configured (as the generated headers say), any other name is an
# option, on when GENERIC.MP or COMBO sets it.  A path with no file
# line (Makefile.ARCH's own rules) is always compiled.
realtree_select() {
	awk -v filesf="$1/$2/files" -v opts="$(sed 's/-D\([^= ]*\)[^ ]*/\1/g' \
	    "$1/$2/ident") $(echo "$3" | tr ',' ' ')" '
	function tok(   c) {
		while (substr(E, P, 1) ~ /[ \t]/)
			P++
		c = substr(E, P, 1)
		if (c ~ /[()|&!]/ || c == "")
			return c
		match(substr(E, P), /^[A-Za-z0-9_]+/)
		return substr(E, P, RLENGTH)
	}
	function eat(   t) {
		t = tok()
		P += length(t)
		return t
	}
	function prim(   v, t) {
		t = eat()
		if (t == "!")
			return !prim()
		if (t == "(") {
			v = or_()
			if (eat() != ")")
				bad = 1
			return v
		}
		if (t == "" || t ~ /[)|&]/) {
			bad = 1
			return 0
		}
		return (t in decl) || (toupper(t) in on)
	}
	function and_(   v) {
		v = prim()
		while (tok() == "&") {
			eat()
			v = prim() && v
		}
		return v
	}
	function or_(   v) {
		v = and_()
		while (tok() == "|") {
			eat()
			v = and_() || v
		}
		return v
	}
	BEGIN {
		n = split(opts, o, " ")
		for (i = 1; i <= n; i++)
			on[toupper(o[i])] = 1
		while ((getline l < filesf) > 0) {
			split(l, a, " ")
			if (a[1] == "D")
				decl[a[2]] = 1
			else if (a[1] == "F") {
				e = l
				sub(/^F[ \t]+[^ \t]+[ \t]*/, "", e)
				if (a[2] in expr)
					expr[a[2]] = expr[a[2]] "\n" e
				else
					expr[a[2]] = e
			}
		}
	}
	{
		if (!($1 in expr)) {
			print
			next
		}
		m = split(expr[$1], x, "\n")
		if (m == 0) {
			print
			next
		}
		for (i = 1; i <= m; i++) {
			E = x[i]
			P = 1
			bad = 0
			if (E ~ /^[ \t]*$/ || (or_() && !bad && tok() == "")) {
				print
				next
			}
			if (bad || tok() != "")
				printf "realtree: cannot read the expression" \
				    " of %s: %s\n", $1, E > "/dev/stderr"
		}
	}'
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

# _realtree_flags DIR ARCH COMBO: the flags files for COMBO, for the
# patched tree (DIR/ARCH/flags/src.COMBO) and the snapshot
# (DIR/ARCH/flags/base.COMBO), made once (bmake on Makefile.ARCH).
_realtree_flags() {
	_fa=$1/$2
	_fx=$_fa/flags/src.$3
	[ -f "$_fx" ] && return 0
	_fi=$(cat "$_fa/ident")
	_fb=${3%%,*}
	_fi="$_fi -DMPLOCK_$(upper "$_fb")"
	for _fo in $(echo "${3#*,}" | tr ',' ' '); do
		[ "$_fo" = "$_fb" ] || _fi="$_fi -D$_fo"
	done
	_ft=$(kernel_machine_info "$2" | cut -d' ' -f2)
	_fv=$(cd "$_fa/gen-src" && bmake -m "$1/mk" -f "$_fa/Makefile" \
	    S="$1/src/sys" IDENT="$_fi" PARAM= MACHINE="$2" \
	    -V '${CFLAGS} ${CPPFLAGS}' 2>/dev/null)
	[ -n "$_fv" ] || {
		echo "realtree: bmake cannot read Makefile.$2" >&2
		return 1
	}
	echo "-target $_ft" $(for _fw in $_fv; do
		case " $REALTREE_DROP " in
		*" $_fw "*)	;;
		*)		echo "$_fw" ;;
		esac
	done) >"$_fx.tmp" || return 1
	sed "s|$1/src/sys|$1/base/sys|g; s|/gen-src|/gen-base|g" "$_fx.tmp" \
	    >"$_fa/flags/base.$3" && mv "$_fx.tmp" "$_fx"
}

realtree_jobs() {
	_rd=$1 _ra=$2 _mo=$3 _fl=$4
	shift 4
	for _c; do
		_realtree_flags "$_rd" "$_ra" "$_c" || return 1
		realtree_select "$_rd" "$_ra" "$_c" <"$_fl" |
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
		grep -vxF -f "$_rd/patched" "$_ad/sources" |
		    realtree_select "$_rd" "$_ra" "$_c" |
		    sed "s|.*|& $_rd/base/sys/&|" |
		    DD=$_dd FF=$_ff xargs -P "${KCOMPILE_JOBS:-2}" -L 1 sh -c '
			d=$DD/$(echo "$1" | tr / _)
			${CLANG:-clang} $(cat "$FF") -fsyntax-only -MD \
			    -MF "$d.d" "$2" >"$d.err" 2>&1 ||
			    echo "$1" >"$d.bad"
		    ' sh || return 1
		: >"$_ad/includers-$_k"
		: >"$_ad/unbuildable-$_k"
		grep -vxF -f "$_rd/patched" "$_ad/sources" |
		    realtree_select "$_rd" "$_ra" "$_c" |
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
		    "$_ad/sources" | realtree_select "$_rd" "$_ra" "$_c" |
		    wc -l) sources of the snapshot," \
		    "$(wc -l <"$_ad/includers-$_k") include <sys/mplock.h>," \
		    "$(wc -l <"$_ad/unbuildable-$_k") do not build unpatched"
	done
}

realtree_sample() {
	_rd=$1 _ra=$2
	_ad=$_rd/$_ra
	_c=$DEFAULT_BACKEND,MULTIPROCESSOR,WITNESS,MP_LOCKDEBUG,MPLOCK_DEBUG,DDB
	_realtree_flags "$_rd" "$_ra" "$_c" || return 1
	grep -vxF -f "$_rd/patched" "$_ad/sources" |
	    realtree_select "$_rd" "$_ra" "$_c" >"$_ad/sample-from"
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
