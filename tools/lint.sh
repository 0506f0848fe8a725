#!/bin/sh
#
# Lint: man pages with mandoc -Tlint, kernel sources against the parts of
# style(9) a script can check.  Prints every problem; exit status 1 if
# there was any.
#
#	tools/lint.sh [man | style]

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"

rc=0

lint_man() {
	command -v mandoc >/dev/null 2>&1 || {
		echo "mandoc not installed" >&2
		return 1
	}
	for m in "$ROOT"/share/man/man*/*.[1-9]; do
		# The pages we refer to (witness(4), mutex(9), ...) are
		# OpenBSD's; off OpenBSD they are not on this machine.
		out=$(mandoc -Tlint "$m" 2>&1 |
		    grep -v 'STYLE: referenced manual not found')
		if [ -n "$out" ]; then
			echo "$out"
			rc=1
		fi
	done
}

# KNF as far as awk can tell: lines of at most 80 columns with tabs of
# 8, indentation by tabs, no trailing blanks, no C++ comments, the ISC
# licence, function types on their own line.
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
		/^[a-z_][a-z_0-9 \t*]*[ \t*][a-z_][a-z_0-9]*\(/ && !/[;,][ \t]*$/ \
		    && !/^(typedef|struct|extern|#)/ {
			bad("function type and name on one line")
		}
		END {
			if (!isc) {
				printf "%s: no ISC licence\n", f
				err = 1
			}
			exit err
		}' "$f" || rc=1
	done
}

case ${1:-all} in
man)	lint_man ;;
style)	lint_style ;;
all)	lint_man; lint_style ;;
*)	echo "usage: $0 [man | style]" >&2; exit 2 ;;
esac
exit $rc
