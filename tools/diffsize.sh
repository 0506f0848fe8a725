#!/bin/sh
#
# The size of the change mplock-patch makes to the vendored OpenBSD tree
# (../shared/vendor/openbsd-src.tar.xz): for each form of
# "mplock-patch diff", its lines, files, and lines added and removed.
# Prints a results file for doc/results/ (see doc/results/README):
#
#	sh tools/diffsize.sh >doc/results/diffsize-DATE.txt
#
# With -s, the same for the patch series (tools/series/series.sh): each
# diff's lines (its mail header included) and diffstat summary, the
# tech@ series then the optional one.
#
#	sh tools/diffsize.sh -s >doc/results/series-DATE.txt

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"
. "$ROOT/tools/lib/vendor.sh"

PROG=diffsize
USAGE='usage: tools/diffsize.sh [-s]'
series=
case $*, in
-s,)	series=1 ;;
,)	;;
*)	usage "$*: not -s" ;;
esac

tree=$(vendor_tree openbsd-src) || die "no vendored OpenBSD tree"
tmp=$OBJ/diffsize
mkdir -p "$tmp"

if [ -n "$series" ]; then
	results_header "sh tools/diffsize.sh -s"
	echo "# vendored: openbsd-src.tar.xz" \
	    "$(sha256sum <"$VENDOR/openbsd-src.tar.xz" | cut -c1-12)"
	echo "# columns: diff, lines of the diff file (mail header" \
	    "included), diffstat summary"
	rm -rf "$tmp/series"
	sh "$ROOT/tools/series/series.sh" "$tree" "$tmp/series" \
	    >/dev/null || die "tools/series/series.sh failed"
	for f in "$tmp/series"/tech/*.diff "$tmp/series"/optional/*.diff; do
		d=${f%/*}
		printf '%s\t%s\t%s\n' "${d##*/}/${f##*/}" \
		    "$(wc -l <"$f" | tr -d ' ')" \
		    "$(grep -E -m 1 '^ [0-9]+ files? changed' "$f" | sed 's/^ //')"
	done
	exit 0
fi

results_header "sh tools/diffsize.sh"
echo "# vendored: openbsd-src.tar.xz" \
    "$(sha256sum <"$VENDOR/openbsd-src.tar.xz" | cut -c1-12)"
echo "# columns: options of mplock-patch diff, lines of the diff, files," \
    "lines added, lines removed"
for opts in "" "-k" "-r"; do
	# shellcheck disable=SC2086
	sh "$ROOT/tools/mplock-patch" diff $opts -q "$tree" >"$tmp/d" ||
	    die "mplock-patch diff $opts failed"
	awk -v o="${opts:-(all)}" '
	/^Index: /			{ files++ }
	/^\+/ && !/^\+\+\+ /		{ add++ }
	/^-/ && !/^--- /		{ del++ }
	END { printf "%s\t%d\t%d\t+%d\t-%d\n", o, NR, files, add, del }
	' "$tmp/d"
done
