#!/bin/sh
#
# The size of the change to the vendored OpenBSD tree, a results file for
# doc/results/ (doc/results/README): for each form of "mplock-patch
# diff", its lines and diffstat.
#
#	sh tools/diffsize.sh >doc/results/diffsize-DATE.txt

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"
. "$ROOT/tools/lib/vendor.sh"

PROG=diffsize
USAGE='usage: tools/diffsize.sh'
[ $# -eq 0 ] || usage "$*: no operand"

tree=$(vendor_tree openbsd-src) || die "no vendored OpenBSD tree"
tmp=$OBJ/diffsize
mkdir -p "$tmp"
results_header "sh tools/diffsize.sh"
echo "# vendored: openbsd-src.tar.xz" \
    "$(sha256sum <"$VENDOR/openbsd-src.tar.xz" | cut -c1-12)"
echo "# columns: diff, lines of the diff file, diffstat summary"

for opts in "" "-k" "-r"; do
	# shellcheck disable=SC2086
	sh "$ROOT/tools/mplock-patch" diff $opts "$tree" >"$tmp/d" \
	    2>"$tmp/stat" || die "mplock-patch diff $opts failed"
	lines=$(wc -l <"$tmp/d" | tr -d ' ')
	stat=$(grep -E -m 1 '^ [0-9]+ files? changed' "$tmp/stat")
	printf '%s\t%s\t%s\n' "${opts:-(all)}" "$lines" "${stat# }"
done
