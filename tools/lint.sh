#!/bin/sh
#
# Lint (make lint): the manual pages, style(9) of the kernel sources, the
# backend registry, the litmus mapping, the figures of the documentation
# and the README, the stock notices (doc/testing.md).  Prints every
# problem; exit status 1 if there was any.

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"

rc=0

# report TEXT: a problem (TEXT, unless empty): print it, fail at exit.
report() {
	[ -n "$*" ] || return 0
	echo "$*"
	rc=1
}

lint_man() {
	command -v mandoc >/dev/null 2>&1 ||
	    { report "mandoc not installed (.ci/run installs it)"; return; }
	for m in "$ROOT"/share/man/man*/*.[1-9]; do
		# The pages we refer to (witness(4), mutex(9), ...) are
		# OpenBSD's; off OpenBSD they are not on this machine, or
		# (time(1), make(1)) not in a mandoc.db of its own.
		out=$(mandoc -Tlint "$m" 2>&1 | grep -v \
		    -e 'STYLE: referenced manual not found' \
		    -e 'outdated mandoc.db lacks .* entry')
		report "$out"
	done
}

# style(9) as far as awk can tell.
lint_style() {
	for f in "$ROOT"/sys/sys/mplock.h "$ROOT"/sys/kern/kern_mplock*.[ch] \
	    $(ls "$ROOT"/sys/arch/*/include/mplock.h 2>/dev/null); do
		awk -v f="${f#$ROOT/}" '
		function col(s,    i, c, n) {
			n = 0
			for (i = 1; i <= length(s); i++) {
				c = substr(s, i, 1)
				n = (c == "\t") ? n + 8 - n % 8 : n + 1
			}
			return n
		}
		function bad(msg) {
			printf "%s:%d: %s\n", f, FNR, msg
			err = 1
		}
		col($0) > 80		{ bad("longer than 80 columns") }
		/[ \t]$/		{ bad("trailing white space") }
		/^        /		{ bad("indented with spaces") }
		/^[^"]*\/\//		{ bad("C++ comment") }
		/Permission to use, copy, modify, and distribute/ { isc = 1 }
		# A stock file that says so stays public domain.
		FNR <= 5 && /^\/\* public domain \*\/$/ { isc = 1 }
		/^[a-z_][a-z_0-9 \t*]*[ \t*][a-z_][a-z_0-9]*\(/ && !/[;,][ \t]*$/ \
		    && !/^(typedef|struct|extern|#)/ {
			bad("function type and name on one line")
		}
		END {
			if (!isc) {
				printf "%s: no ISC licence (nor public domain)\n", f
				err = 1
			}
			exit err
		}' "$f" || rc=1
	done
}

# One registration (BACKENDS= in Makefile.backends) is what the regress,
# the mutants and the benchmark go by; this makes it also require what a
# reader needs: the file, the option and the manual's entries.
lint_backends() {
	case " $BACKENDS " in
	*" $DEFAULT_BACKEND "*) ;;
	*)	report "Makefile.backends: default $DEFAULT_BACKEND not in" \
		    "BACKENDS" ;;
	esac
	for _be in $BACKENDS; do
		_f=sys/kern/kern_mplock_$_be.h
		_opt=MPLOCK_$(upper "$_be")
		_m=share/man/man9/mplock.9
		[ -f "$ROOT/$_f" ] ||
		    report "$_be: registered but there is no $_f"
		# FILE|grep's option|RE|what is missing; what names $_f
		# only when $_f is there.
		while IFS='|' read -r _in _o _re _why; do
			case $_why in
			*"$_f"*) [ -f "$ROOT/$_f" ] || continue ;;
			esac
			grep -q$_o -e "$_re" "$ROOT/$_in" 2>/dev/null ||
			    report "$_be: $_why"
		done <<EOT
$_f|E|^#define[[:space:]]+MPL_BE_NAME[[:space:]]+"$_be"|$_f does not name it (MPL_BE_NAME)
sys/kern/kern_mplock.h|F|"kern_mplock_$_be.h"|kern_mplock.h does not include $_f
sys/sys/mplock.h|F|defined($_opt)|sys/sys/mplock.h does not know $_opt
$_m|Fx|.Cd "option $_opt"|$_m lacks the line: .Cd "option $_opt"
$_m|Fx|.It Dv $_opt|$_m lacks the line: .It Dv $_opt
$_m|G|^\.It Sy $_be Ta |mplock.9 lacks its rows (.It Sy $_be Ta ...) in the backend comparison
EOT
	done
	for _f in "$ROOT"/sys/kern/kern_mplock_*.h; do
		# A backend file is one that names its backend.
		grep -q '^#define MPL_BE_NAME' "$_f" 2>/dev/null || continue
		_be=${_f##*/kern_mplock_}
		case " $BACKENDS " in
		*" ${_be%.h} "*) ;;
		*)	report "${_f#$ROOT/}: backend not in" \
			    "Makefile.backends, so never tested" ;;
		esac
	done
}

# The litmus tests' MAPPING and the hashes of the lines it maps.
lint_litmus() {
	. "$ROOT/tools/lib/litmus.sh"
	litmus_check_map || rc=1
}

# The stock notices of the files the patch replaces or edits, against
# the vendored tree (or SRC=).
lint_notices() {
	. "$ROOT/tools/lib/notices.sh"
	. "$ROOT/tools/lib/vendor.sh"
	_lt=${SRC:-$(vendor_tree openbsd-src)} && notices_check "$_lt" || rc=1
}

# Measured figures of README.md and doc/*.md, each held by a results
# file (doc/results/README; doc/testing.md says what a figure is).
# FIG_ALLOW: numbers that are definitions, not measurements.  The awk:
# -v f, the file's name in messages; -v res, the results files (one a
# line); -v what, those files in messages; -v allow.
FIG_ALLOW="1.00"
FIGCHECK='
		function norm(x) {
			gsub(/[,+-]/, "", x)
			return x
		}
		# Every number of a results line, whole and split at commas.
		function hold(line,    m, n, i, p) {
			while (match(line, /[0-9][0-9,]*(\.[0-9]+)?/)) {
				m = substr(line, RSTART, RLENGTH)
				line = substr(line, RSTART + RLENGTH)
				sub(/,+$/, "", m)
				held[norm(m)] = 1
				n = split(m, p, ",")
				for (i = 1; i <= n; i++)
					held[p[i]] = 1
			}
		}
		function check(text, start,    fig, num) {
			gsub(/`[^`]*`/, " ", text)
			gsub(/\]\([^)]*\)/, "]", text)
			gsub(/(OpenBSD|Linux|Debian|gcc|clang|herdtools7)[ ]+[0-9][0-9.]*/, " ", text)
			text = " " text " "
			while (match(text, /[^A-Za-z0-9_.\/-][+-]?[0-9][0-9,]*(\.[0-9]+)?( ?(ms|us|ns|s|min|seconds?|minutes?|hours?|KiB|MiB|GiB|kB|MB|GB|cycles)|%|x)?[^A-Za-z0-9_]/)) {
				fig = substr(text, RSTART + 1, RLENGTH - 2)
				text = substr(text, RSTART + RLENGTH - 1)
				num = fig
				sub(/[^0-9,.+-].*$/, "", num)
				sub(/[.,]$/, "", num)
				# Not a figure: a plain count or number, no unit.
				if (num == fig || num "." == fig || num "," == fig)
					if (num !~ /\./ && num !~ /,[0-9][0-9][0-9]/)
						continue
				if (num ~ /,/ && num !~ /^[+-]?[0-9][0-9]?[0-9]?(,[0-9][0-9][0-9])+(\.[0-9]+)?$/ && fig == num)
					continue
				if ((" " allow " ") ~ (" " norm(num) " "))
					continue
				if (!(norm(num) in held)) {
					printf "%s:%d: figure \"%s\" is in no file of %s\n", f, start, fig, what == "" ? "doc/results/" : what
					bad = 1
				}
			}
		}
		BEGIN {
			n = split(res, rf, "\n")
			for (i = 1; i <= n; i++)
				while ((getline line < rf[i]) > 0)
					hold(line)
		}
		/^[ \t]*```/ { fence = !fence; next }
		fence { next }
		/^[ \t]*$/ { if (para != "") check(para, pstart); para = ""; next }
		{ if (para == "") pstart = FNR; para = para " " $0 }
		END {
			if (para != "")
				check(para, pstart)
			exit bad
		}'

lint_figures() {
	_fr=$(ls "$ROOT"/doc/results/*.txt 2>/dev/null)
	for _ff in "$ROOT/README.md" "$ROOT"/doc/*.md; do
		[ -f "$_ff" ] || continue
		awk -v f="${_ff#$ROOT/}" -v res="$_fr" -v allow="$FIG_ALLOW" \
		    "$FIGCHECK" "$_ff" || rc=1
	done
}

# README.md: at most README_MAX lines; each row of its table of current
# figures links a file of doc/results/ that holds every figure of the
# row (FIGCHECK against that file alone); each make target the commands
# of its Hacking section name exists.
README_MAX=160
lint_readme() {
	_rm=$ROOT/README.md
	_rn=$(wc -l <"$_rm" | tr -d ' ')
	[ "$_rn" -le "$README_MAX" ] ||
	    report "README.md: $_rn lines, more than $README_MAX"
	_rows=$(awk '/^## Current figures/ { on = 1; next } /^## / { on = 0 }
	    on && /^\| / && !/^\|---/ && !/^\| what \|/' "$_rm")
	[ -n "$_rows" ] ||
	    report "README.md: no table under \"## Current figures\""
	while IFS= read -r _row; do
		[ -n "$_row" ] || continue
		_rl=$(echo "$_row" |
		    sed -n 's|.*](\(doc/results/[^)]*\.txt\)).*|\1|p')
		if [ -z "$_rl" ] || [ ! -f "$ROOT/$_rl" ]; then
			report "README.md: a figure without its results file:" \
			    "$_row"
			continue
		fi
		echo "$_row" | awk -v f="README.md" -v res="$ROOT/$_rl" \
		    -v what="$_rl" -v allow="$FIG_ALLOW" "$FIGCHECK" || rc=1
	done <<EOT
$_rows
EOT
	for _t in $(awk '/^## Hacking/ { on = 1; next } /^## / { on = 0 }
	    on && /^```/ { code = !code; next }
	    on && code && $1 == "make" { print $2 }' "$_rm"); do
		grep -q "^$_t:" "$ROOT/Makefile" ||
		    report "README.md: make $_t: no such target"
	done
}

case ${1:-all} in
man|style|backends|litmus|notices|figures|readme) lint_$1 ;;
all)	for c in man style backends litmus figures readme notices; do
		lint_$c
	done ;;
*)	PROG=lint
	USAGE='usage: tools/lint.sh [man | style | backends | litmus |
           figures | readme | notices]'
	usage "$1: no such check" ;;
esac
exit $rc
