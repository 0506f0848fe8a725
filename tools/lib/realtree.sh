# The real OpenBSD tree (the vendored amd64 and i386 snapshot), patched
# and compiled as its kernel build compiles it (doc/architectures.md,
# suite kcompile).  Sourced after common.sh, vendor.sh, config8.sh and
# kcompile.sh.
#
# realtree_setup DIR: DIR/src patched, DIR/base the snapshot, DIR/config
#	its config(8), DIR/patched the C files the patch adds or changes;
#	77 when a tool or the tarball is missing.
# realtree_arch DIR ARCH: DIR/ARCH afresh; DIR/ARCH/ours the options
#	the patch's lines of sys/conf/files name (on in every kernel).
# realtree_combos [pair]: "BACKEND,OPTION,..." (80 in all);
#	with no argument, make test's slice (all with MPLOCK_FULL=1).
# realtree_jobs DIR ARCH obj|syntax FILELIST COMBO...: a job per file
#	of FILELIST (under sys/) that COMBO's kernel compiles.
# realtree_run DIR NAME < JOBS: $KCOMPILE_JOBS (2) at a time; the
#	patch's failures in DIR/fail/NAME/list, the others' in
#	DIR/fail/NAME/unpatched-too; 1 if the patch broke one, or there
#	was nothing to compile, or a job did not run.
# realtree_cc DIR ARCH COMBO FILE OUT [CFLAGS ...]: sys/FILE of the
#	patched tree to OUT, CFLAGS first.
# realtree_sizeof OUT CC [CFLAGS ...]: sizeof(struct __mp_lock) in
#	bytes, as CC CFLAGS compile it (OUT.c, OUT.o, read by $NM or nm).

REALTREE_OPTS="WITNESS MP_LOCKDEBUG MPLOCK_DEBUG DDB"
REALTREE_DROP="-msave-args -fret-clean -MD -MP"

realtree_setup() {
	_rd=$1
	for _t in bmake "${CLANG:-clang}"; do
		command -v "$_t" >/dev/null 2>&1 ||
		    { echo "realtree: $_t not installed"; return 77; }
	done
	for _m in amd64 i386; do
		_t=$(kernel_machine_info $_m | cut -d' ' -f2)
		echo 'int x;' | "${CLANG:-clang}" -target "$_t" -ffreestanding \
		    -nostdinc -fsyntax-only -x c - >/dev/null 2>&1 ||
		    { echo "realtree: ${CLANG:-clang} has no $_t target"; return 77; }
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
	mkdir -p "$_rd/mk" || return 1
	ln -s "$_base" "$_rd/base"
	ln -s "$_c8" "$_rd/config"
	cp -R "$_base" "$_rd/src" || return 1
	sh "$ROOT/tools/mplock-patch" apply "$_rd/src" >"$_rd/apply.log" 2>&1 || {
		cat "$_rd/apply.log"
		echo "realtree: mplock-patch apply failed on the snapshot"
		return 1
	}
	# Entries are "A|M PATH SUM" (mplock-patch(8), FILES).
	awk '($1 == "A" || $1 == "M") && $2 ~ /^sys\/.*\.c$/ {
	    print substr($2, 5) }' "$_rd/src/.mplock-patch/files" |
	    sort -u >"$_rd/patched"
	[ -s "$_rd/patched" ] ||
	    { echo "realtree: the patch record names no C file"; return 1; }
	# What the kernel Makefile reads from them: the compiler, no PIE.
	printf 'COMPILER_VERSION=clang\nNOPIE_FLAGS=-fno-pie\n' \
	    >"$_rd/mk/bsd.own.mk"
	: >"$_rd/mk/sys.mk"
}

realtree_arch() {
	_ad=$1/$2
	rm -rf "$_ad"
	mkdir -p "$_ad/flags" "$_ad/conf" || return 1
	[ -f "$1/src/sys/arch/$2/conf/GENERIC.MP" ] ||
	    { echo "realtree: the snapshot has no $2"; return 1; }
	grep -vxF -f "$1/base/sys/conf/files" "$1/src/sys/conf/files" |
	    sed -n 's/^file[[:space:]]\{1,\}[^[:space:]]*//p' |
	    sed 's/needs-[a-z]*.*//' | tr -c '_A-Za-z0-9\n' ' ' | tr ' ' '\n' |
	    tr '[:lower:]' '[:upper:]' | sort -u | grep -vxE \
	    "(MULTIPROCESSOR|$(echo $REALTREE_OPTS | tr ' ' '|'))?" >"$_ad/ours"
	echo "$2: options of the patch's own, on in every kernel:" \
	    $(cat "$_ad/ours")
}

# Every backend with and without MULTIPROCESSOR times every subset of
# REALTREE_OPTS but MP_LOCKDEBUG or WITNESS without DDB (the tree's
# #error); the slice and pair: as doc/testing.md says (kcompile).
realtree_combos() {
	_k=${1:-slice}
	[ "${MPLOCK_FULL:-0}" = 1 ] && [ $# -eq 0 ] && _k=all
	echo $BACKENDS | awk -v k="$_k" -v def="$DEFAULT_BACKEND" \
	    -v opts="MULTIPROCESSOR $REALTREE_OPTS" \
	    -v all=",$(echo $REALTREE_OPTS | tr ' ' ,)" '{
	    n = split(opts, o)
	    for (b = 1; b <= NF; b++)
		for (i = 0; i < 2 ^ n; i++) {
			c = ""
			for (j = 1; j <= n; j++)
				if (int(i / 2 ^ (n - j)) % 2 == 0)
					c = c "," o[j]
			mp = c ~ /^,MULTIPROCESSOR/
			if (c ~ /WITNESS|MP_LOCKDEBUG/ && c !~ /DDB/)
				continue
			u = c
			sub(/^,MULTIPROCESSOR/, "", u)
			if (k == "slice" && $b == def)
				keep = u == "" || u == ",MPLOCK_DEBUG" ||
				    u == all || mp && (u == ",WITNESS,DDB" ||
				    u == ",MP_LOCKDEBUG,DDB")
			else if (k == "slice")
				keep = u == "" && !mp || u == all && mp
			else if (k == "pair")
				keep = b % 2 ? u == "" && !mp : u == all && mp
			else
				keep = 1
			if (!keep)
				continue
			print $b c
		}
	}'
}

# realtree_combos_header DIR ARCH: of realtree_combos' MULTIPROCESSOR
# combinations, one for each set of the options the patched
# <sys/mplock.h> and <machine/mplock.h> test.
realtree_combos_header() {
	realtree_combos | grep ,MULTIPROCESSOR | awk -v names="$(grep -hE \
	    '^#[[:space:]]*(if|ifdef|ifndef|elif)[[:space:]]' \
	    "$1/src/sys/sys/mplock.h" "$1/src/sys/arch/$2/include/mplock.h" |
	    tr -c '_A-Za-z0-9' ' ')" '
	BEGIN { n = split(names, a, " "); for (i = 1; i <= n; i++) h[a[i]] = 1 }
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

# _realtree_flags DIR ARCH COMBO: config(8) on COMBO's config in the
# patched tree and the snapshot: DIR/ARCH/flags/src.COMBO and
# base.COMBO, the files in DIR/ARCH/cfiles.COMBO.
_realtree_flags() {
	_fd=$1 _fr=$2 _fc=$3
	_fa=$_fd/$_fr
	[ -f "$_fa/flags/src.$_fc" ] && return 0
	_fk=$(echo "$_fc" | tr , _) _fn=$(printf ':N%s' $REALTREE_DROP)
	_fg=GENERIC
	case ,$_fc, in
	*,MULTIPROCESSOR,*)	_fg=GENERIC.MP ;;
	esac
	{
		echo "include \"arch/$_fr/conf/$_fg\""
		echo "option MPLOCK_$(upper "${_fc%%,*}")"
		for _fo in $REALTREE_OPTS; do
			echo "rmoption $_fo"	# config(8) refuses one twice
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
		_fv=$(cd "$_fb" && bmake -m "$_fd/mk" -V \
		    "\${CFLAGS$_fn} \${CPPFLAGS$_fn}" 2>/dev/null)
		[ -n "$_fv" ] || {
			echo "realtree: bmake cannot read $_fb/Makefile" >&2
			return 1
		}
		# The shell's quote removal, as make's commands get it
		# (IDENT=-DHZ="0x32").
		eval "set -- $_fv"
		echo "-target $(kernel_machine_info "$_fr" | cut -d' ' -f2)" \
		    "$@" >"$_fa/flags/$_ft.$_fc.tmp" || return 1
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
	[ -s "$_fa/cfiles.$_fc" ] ||
	    { echo "realtree: no CFILES in $_fb/Makefile" >&2; return 1; }
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

# One job: MODE DIR ARCH COMBO FILE.
_REALTREE_JOB='
	m=-fsyntax-only
	[ $1 = obj ] && m="-c -o /dev/null"
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
	mkdir -p "$D" && touch "$D/list" "$D/unpatched-too" "$D/ok" || return 1
	_t0=$(date +%s)
	_n=$(tee "$D/jobs" | wc -l | tr -d ' ')
	[ "$_n" -gt 0 ] || { echo "$_rn: no file to compile"; return 1; }
	D=$D xargs -P "${KCOMPILE_JOBS:-2}" -L 1 sh -c "$_REALTREE_JOB" sh \
	    <"$D/jobs"
	_nf=$(wc -l <"$D/list" | tr -d ' ')
	_nu=$(wc -l <"$D/unpatched-too" | tr -d ' ')
	_nok=$(wc -c <"$D/ok" | tr -d ' ')
	echo "$_rn: $_n compiles, $_nf failed, $_nu failed unpatched too," \
	    "$(($(date +%s) - _t0))s"
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

# realtree_sample DIR ARCH: make test's sample of the includers: in
# DIR/ARCH/sample the files that use a name the patched <sys/mplock.h>
# declares or include it or <machine/mplock.h>; in DIR/ARCH/sample-tops
# the first of each other top-level directory of sys/ whose
# dependencies name it.
realtree_sample() {
	_ad=$1/$2
	_c=$DEFAULT_BACKEND,MULTIPROCESSOR,WITNESS,MP_LOCKDEBUG,MPLOCK_DEBUG,DDB
	_realtree_flags "$1" "$2" "$_c" || return 1
	grep -vxF -f "$1/patched" "$_ad/cfiles.$_c" >"$_ad/sample-from"
	_h=$1/src/sys/sys/mplock.h
	_id='[_a-zA-Z][_a-zA-Z0-9]*'
	_names=$(sed -n -e "s/^[a-z][a-z_ ]*[[:space:]*]\\($_id\\)(.*/\\1/p" \
	    -e "s/^#define[[:space:]]\\{1,\\}\\($_id\\)(.*/\\1/p" \
	    -e "s/^extern[^;]*[[:space:]*]\\($_id\\);.*/\\1/p" "$_h" |
	    sort -u | tr '\n' '|')
	[ -n "$_names" ] || { echo "realtree: no names declared in $_h"; return 1; }
	_use="(^|[^_a-zA-Z0-9])(${_names%|})([^_a-zA-Z0-9]|\$)"
	_inc='#[[:space:]]*include[[:space:]]*<(sys|machine)/mplock\.h>'
	(cd "$1/src/sys" && grep -lE "$_use|$_inc" \
	    $(cat "$_ad/sample-from")) >"$_ad/sample"
	echo "$2: $(wc -l <"$_ad/sample") sources use the names of" \
	    "<sys/mplock.h> (${_names%|})"
	: >"$_ad/sample-tops"
	for _top in $(cut -d/ -f1 "$_ad/sample-from" | sort -u); do
		! grep -q "^$_top/" "$_ad/sample" || continue
		for _f in $(grep "^$_top/" "$_ad/sample-from"); do
			${CLANG:-clang} $(cat "$_ad/flags/src.$_c") -M \
			    "$1/src/sys/$_f" 2>/dev/null |
			    grep -Eq '/(sys|machine)/mplock\.h' || continue
			echo "$_f" >>"$_ad/sample-tops"
			echo "$2: $_top: $_f"
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

realtree_sizeof() {
	_so=$1
	shift
	printf '%s\n' '#include <sys/param.h>' '#include <sys/systm.h>' \
	    '#include <sys/mplock.h>' 'struct __mp_lock mpl_sizeof;' >"$_so.c"
	"$@" -c "$_so.c" -o "$_so.o" || return 1
	_sz=$(${NM:-nm} -S "$_so.o" | awk '$4 == "mpl_sizeof" { print $2 }')
	[ -n "$_sz" ] || { echo "no mpl_sizeof in $_so.o" >&2; return 1; }
	printf '%d\n' "0x$_sz"
}
