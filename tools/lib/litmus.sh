# The herd7 litmus tests of the lock's orderings (litmus/README.md).
# Sourced after common.sh and testlib.sh by tools/verify.sh,
# tools/lint.sh and tools/tests.d/70-verify.sh.  The tests are not
# kept in the checkout: gen.awk writes them at build time, under
# $LTESTS.
#
#	litmus_gen DIR [MUT]	write every test (with mutant MUT) under
#				DIR/ARCH/PATTERN.litmus
#	litmus_print_hashes	the hashes of the mapped source lines, in
#				lines.sha256's format
#	litmus_check_map	MAPPING names every pattern and architecture,
#				and each mapped range still hashes as
#				recorded (make lint)
#	verify_litmus		herd7 on every test (Never) and every
#				mutant (caught, or recorded redundant)

LITMUS=$ROOT/litmus
LOBJ=$OBJ/verify/litmus
LTESTS=$LOBJ/tests

_l_sha256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum | cut -d' ' -f1
	elif command -v sha256 >/dev/null 2>&1; then
		sha256 -q
	else
		openssl dgst -sha256 -r | cut -d' ' -f1
	fi
}

litmus_archs() {
	sed -e 's/#.*//' "$LITMUS/archs" | awk 'NF >= 2 { print $1 }'
}

# litmus_arch_field ARCH N: field N of ARCH's line in archs.
litmus_arch_field() {
	sed -e 's/#.*//' "$LITMUS/archs" | awk -v a="$1" -v n="$2" '
	    $1 == a { s = $n; for (i = n + 1; n > 2 && i <= NF; i++)
	    s = s " " $i; print s }'
}

# litmus_patterns [ARCH]: the patterns, or those for ARCH (a pattern
# with an "archs" line is for those architectures only).
litmus_patterns() {
	awk -v a="${1:-}" '
	    $1 == "pattern" { if (p != "" && ok) print p; p = $2; ok = 1 }
	    $1 == "archs" && a != "" {
		ok = 0
		for (i = 2; i <= NF; i++)
			if ($i == a)
				ok = 1
	    }
	    END { if (p != "" && ok) print p }' "$LITMUS/patterns"
}

litmus_gen() {
	_ld=$1 _lm=${2:-}
	for _la in $(litmus_archs); do
		mkdir -p "$_ld/$_la" || return 1
		for _lp in $(litmus_patterns "$_la"); do
			awk -v ARCH="$_la" -v PAT="$_lp" -v MUT="$_lm" \
			    -f "$LITMUS/gen.awk" "$LITMUS/patterns" \
			    >"$_ld/$_la/$_lp.litmus" || return 1
		done
	done
}

# litmus_tests: write every test under $LTESTS, as gen.awk writes it
# from this checkout's patterns; each must state the outcome it forbids.
litmus_tests() {
	rm -rf "$LTESTS"
	litmus_gen "$LTESTS" || { echo "gen.awk failed"; return 1; }
	for _lt in "$LTESTS"/*/*.litmus; do
		grep -q '^exists' "$_lt" ||
		    { echo "gen.awk wrote $_lt without an exists line"
		    return 1; }
	done
}

# MAPPING: NAME FILE FIRST-LAST; NAME a pattern or arch:ARCH.
_l_map() {
	sed -e 's/#.*//' "$LITMUS/MAPPING" | awk 'NF >= 3'
}

_l_range_hash() {
	_lf=${2%-*} _ll=${2#*-}
	sed -n "${_lf},${_ll}p" "$ROOT/$1" | _l_sha256
}

litmus_print_hashes() {
	_l_map | while read -r _ln _lfile _lr; do
		echo "$(_l_range_hash "$_lfile" "$_lr")  $_lfile $_lr"
	done | sort -u -k2
}

litmus_check_map() {
	_lbad=0
	for _lp in $(litmus_patterns); do
		_l_map | awk -v p="$_lp" '$1 == p { f = 1 } END { exit !f }' ||
		    { echo "litmus: pattern $_lp has no line in MAPPING"
		    _lbad=1; }
	done
	for _la in $(litmus_archs); do
		_l_map | awk -v p="arch:$_la" '$1 == p { f = 1 } END {
		    exit !f }' ||
		    { echo "litmus: architecture $_la has no line in MAPPING"
		    _lbad=1; }
	done
	_ltmp=$(mktemp "${TMPDIR:-/tmp}/litmus.XXXXXX") || return 1
	_l_map >"$_ltmp"
	while read -r _ln _lfile _lr; do
		case $_lr in
		[0-9]*-[0-9]*) ;;
		*)	echo "litmus: MAPPING: $_ln: bad range $_lr"
			_lbad=1; continue ;;
		esac
		if [ ! -f "$ROOT/$_lfile" ]; then
			echo "litmus: MAPPING: $_ln: no file $_lfile"
			_lbad=1
			continue
		fi
		_lwant=$(awk -v f="$_lfile" -v r="$_lr" '$2 == f && $3 == r {
		    print $1 }' "$LITMUS/lines.sha256")
		_lhave=$(_l_range_hash "$_lfile" "$_lr")
		if [ -z "$_lwant" ]; then
			echo "litmus: $_lfile:$_lr ($_ln): no hash in" \
			    "lines.sha256"
			_lbad=1
		elif [ "$_lwant" != "$_lhave" ]; then
			echo "litmus: $_lfile:$_lr changed since the litmus" \
			    "test $_ln was last checked against it"
			_lbad=1
		fi
	done <"$_ltmp"
	rm -f "$_ltmp"
	if [ $_lbad -ne 0 ]; then
		cat <<EOF
Re-read the changed lines against the tests MAPPING ties them to
(litmus/README.md): change the sequence table in gen.awk or the
pattern where the code changed, fix MAPPING's ranges, run
sh tools/verify.sh litmus, then record the hashes:
	sh tools/verify.sh litmus-hashes >litmus/lines.sha256
EOF
	fi
	return $_lbad
}

# _l_verdict FILE MODEL: herd's verdict (Never, Sometimes, Always) or
# "error"; the output is kept in FILE.out.
_l_verdict() {
	"$HERD" -archcheck false -set-libdir "$HERD_LIB" -model "$2" "$1" \
	    >"$1.out" 2>&1
	_lv=$(awk '$1 == "Observation" { print $3 }' "$1.out")
	echo "${_lv:-error}"
}

# _l_arch ARCH MODEL: run ARCH's tests and mutants; write one line per
# check to $LOBJ/res.ARCH: KIND|NAME|DETAIL|LOG, KIND pass or fail.
_l_arch() {
	_la=$1 _lmodel=$2
	_lres=$LOBJ/res.$_la
	: >"$_lres"
	_lt0=$(date +%s)
	mkdir -p "$LOBJ/run/$_la"
	for _lp in $(litmus_patterns "$_la"); do
		_lf=$LOBJ/run/$_la/$_lp.litmus
		cp "$LTESTS/$_la/$_lp.litmus" "$_lf"
		_lv=$(_l_verdict "$_lf" "$_lmodel")
		# Not vacuous: with coherence alone (uniproc.cat, no
		# ordering between locations, no atomicity) the outcome
		# must be reachable.
		cp "$_lf" "$_lf.u"
		_lu=$(_l_verdict "$_lf.u" uniproc.cat)
		if [ "$_lv" = Never ] && [ "$_lu" != Sometimes ]; then
			echo "fail|verify/litmus/$_la/$_lp|Never, but also\
 $_lu without ordering (uniproc.cat): the test is vacuous|$_lf.u.out" \
			    >>"$_lres"
		elif [ "$_lv" = Never ]; then
			echo "pass|verify/litmus/$_la/$_lp|Never (uniproc.cat:\
 $_lu)|" >>"$_lres"
		else
			echo "fail|verify/litmus/$_la/$_lp|$_lv (must be\
 Never)|$_lf.out" >>"$_lres"
		fi
	done
	for _lm in $(litmus_arch_field "$_la" 3); do
		_ld=$LOBJ/mut/$_lm
		rm -rf "$_ld/$_la"
		mkdir -p "$_ld/$_la"
		_lcaught=
		for _lp in $(litmus_patterns "$_la"); do
			_lf=$_ld/$_la/$_lp.litmus
			awk -v ARCH="$_la" -v PAT="$_lp" -v MUT="$_lm" \
			    -f "$LITMUS/gen.awk" "$LITMUS/patterns" \
			    >"$_lf" || { _lcaught="$_lcaught gen-error"
			    continue; }
			_lv=$(_l_verdict "$_lf" "$_lmodel")
			case $_lv in
			Sometimes|Always) _lcaught="$_lcaught $_lp" ;;
			Never)	;;
			*)	_lcaught="$_lcaught error:$_lp" ;;
			esac
		done
		_lred=$(awk -v a="$_la" -v m="$_lm" '$1 == a && $2 == m {
		    $1 = $2 = ""; print substr($0, 3) }' "$LITMUS/redundant")
		_lname=verify/litmus-mutant/$_la/$_lm
		case $_lcaught in
		*error*)
			echo "fail|$_lname|herd failed:$_lcaught|" ;;
		"")
			if [ -n "$_lred" ]; then
				echo "pass|$_lname|redundant: $_lred|"
			else
				echo "fail|$_lname|not caught by any test, and\
 not recorded in litmus/redundant|"
			fi ;;
		*)
			if [ -n "$_lred" ]; then
				echo "fail|$_lname|recorded redundant, but\
 caught by$_lcaught: drop the record|"
			else
				echo "pass|$_lname|caught by$_lcaught|"
			fi ;;
		esac >>"$_lres"
	done
	echo "$(($(date +%s) - _lt0))" >"$LOBJ/time.$_la"
}

verify_litmus() {
	mkdir -p "$LOBJ"
	t_check "verify/litmus/generated" litmus_tests
	t_check "verify/litmus/mapping" litmus_check_map
	herd_build
	case $? in
	0)	;;
	77)	t_skip "verify/litmus" "herd7 cannot be built here (tarball\
 or OCaml/dune/menhir missing)"
		return ;;
	*)	t_fail "verify/litmus/herd" "herd7 build failed" \
		    "$HERD_DIR/build.log"
		return ;;
	esac
	# The architectures run VERIFY_JOBS at a time (verify.sh); their
	# results are recorded in order.
	_lpids=
	_ln=0
	for _la in $(litmus_archs); do
		_lmodel=$(litmus_arch_field "$_la" 2)
		[ "$_lmodel" = - ] && continue
		_l_arch "$_la" "$_lmodel" &
		_lpids="$_lpids $!"
		_ln=$((_ln + 1))
		if [ "$_ln" -ge "${VERIFY_JOBS:-1}" ]; then
			wait $_lpids
			_lpids=
			_ln=0
		fi
	done
	wait $_lpids
	for _la in $(litmus_archs); do
		if [ "$(litmus_arch_field "$_la" 2)" = - ]; then
			t_skip "verify/litmus/$_la" "herd7 7.56.3 cannot run\
 $_la tests (litmus/README.md)"
			continue
		fi
		if [ ! -f "$LOBJ/res.$_la" ]; then
			t_fail "verify/litmus/$_la" "no results"
			continue
		fi
		while IFS='|' read -r _lk _lname _ldet _llog; do
			if [ "$_lk" = pass ]; then
				t_pass "$_lname" "$_ldet"
			else
				t_fail "$_lname" "$_ldet" $_llog
			fi
		done <"$LOBJ/res.$_la"
		printf '%s|%s|%s|%s\n' "litmus/$_la" "-" \
		    "$(cat "$LOBJ/time.$_la" 2>/dev/null)" \
		    "$(grep -c . "$LOBJ/res.$_la") tests and mutants" \
		    >>"$VERIFY_TABLE"
	done
}
