# The herd7 litmus tests' files (doc/verification.md): generating them,
# and the hashes of the source lines they stand for (make lint); the
# hashing is the models' too.  Sourced after common.sh by tools/lint.sh
# and tools/lib/verify.sh, which runs the tests.

LITMUS=$ROOT/litmus
LOBJ=$OBJ/verify/litmus
LTESTS=$LOBJ/tests

# _nc FILE: FILE without its comments and blank lines.
_nc() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"
}

litmus_archs() {
	_nc "$LITMUS/archs" | awk '{ print $1 }'
}

# litmus_patterns [ARCH]: the patterns, or those for ARCH (a pattern
# with an "archs" line is for those architectures only).
litmus_patterns() {
	awk -v a="${1:-}" '
	    $1 == "pattern" { if (p != "" && ok) print p; p = $2; ok = 1 }
	    $1 == "archs" && a != "" {
		ok = 0
		for (i = 2; i <= NF; i++)
			ok = ok || $i == a
	    }
	    END { if (p != "" && ok) print p }' "$LITMUS/patterns"
}

litmus_gen() {
	awk -v ARCH="$1" -v PAT="$2" -v MUT="${3:-}" -f "$LITMUS/gen.awk" \
	    "$LITMUS/patterns"
}

# litmus_tests: every test, each with the outcome it forbids.
litmus_tests() {
	rm -rf "$LTESTS"
	for _la in $(litmus_archs); do
		mkdir -p "$LTESTS/$_la" || return 1
		for _lp in $(litmus_patterns "$_la"); do
			_lt=$LTESTS/$_la/$_lp.litmus
			litmus_gen "$_la" "$_lp" >"$_lt" ||
			    { echo "gen.awk failed"; return 1; }
		done
	done
}

# src_hashes: for each line "FILE [FIRST-LAST]" of stdin, the line
# "HASH  FILE [FIRST-LAST]": the SHA-256 of the file, or of those lines.
src_hashes() {
	while read -r _hf _hr; do
		if [ -n "$_hr" ]; then
			sed -n "${_hr%-*},${_hr#*-}p" "$ROOT/$_hf"
		else
			cat "$ROOT/$_hf"
		fi | { sha256sum 2>/dev/null || sha256 -q 2>/dev/null ||
		    openssl dgst -sha256 -r; } |
		    awk -v s="  $_hf${_hr:+ $_hr}" '{ print $1 s }'
	done
}

# src_hash_check SUMS WHAT CMD: each line "FILE [FIRST-LAST]" of stdin
# hashes as recorded in SUMS, when WHAT were last checked against it;
# if not, how to re-check and re-record (tools/verify.sh CMD).
src_hash_check() {
	_hbad=0
	while read -r _hf _hr; do
		_hw=$_hf${_hr:+:$_hr}
		_hwant=$(awk -v f="$_hf" -v r="$_hr" \
		    '$2 == f && $3 == r { print $1 }' "$1")
		_hhave=$(echo "$_hf $_hr" | src_hashes)
		if [ ! -f "$ROOT/$_hf" ]; then
			echo "$_hw: no such file"
		elif [ -z "$_hwant" ]; then
			echo "$_hw: no hash recorded in ${1#"$ROOT"/}"
		elif [ "${_hhave%% *}" != "$_hwant" ]; then
			echo "$_hw changed since the $2 were last checked" \
			    "against it"
		else
			continue
		fi
		_hbad=1
	done
	[ $_hbad -eq 0 ] && return 0
	_hs=${1#"$ROOT"/}
	echo "Re-check the $2 against the change (doc/verification.md), then"
	echo "record: sh tools/verify.sh $3 >$_hs"
	return 1
}

# MAPPING: NAME FILE FIRST-LAST; NAME a pattern or arch:ARCH.
_l_ranges() {
	_nc "$LITMUS/MAPPING" | awk '{ print $2, $3 }' | sort -u
}

litmus_print_hashes() {
	_l_ranges | src_hashes
}

litmus_check_map() {
	_lbad=0
	{ litmus_patterns; litmus_archs | sed 's/^/arch:/'; } |
	    awk 'FILENAME == ARGV[1] { m[$1]; next }
	    !($1 in m) { w = sub(/^arch:/, "") ? "architecture" : "pattern"
		print "litmus: " w " " $1 " has no line in MAPPING"; bad = 1 }
	    END { exit bad }' "$LITMUS/MAPPING" - || _lbad=1
	_l_ranges | awk '$2 !~ /^[0-9]+-[0-9]+$/ {
	    print "litmus: MAPPING: bad range: " $0; bad = 1 }
	    END { exit bad }' || _lbad=1
	_l_ranges | src_hash_check "$LITMUS/lines.sha256" "litmus tests" \
	    litmus-hashes || _lbad=1
	return $_lbad
}
