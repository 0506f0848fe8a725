#!/bin/sh
#
# The size of the change mplock-patch makes to the vendored OpenBSD tree
# (../shared/vendor/openbsd-src.tar.xz): for each form of
# "mplock-patch diff", its lines, files, and lines added and removed.
# Prints a results file for doc/results/ (see doc/results/README):
#
#	sh tools/diffsize.sh >doc/results/diffsize-DATE.txt

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"
. "$ROOT/tools/lib/vendor.sh"

tree=$(vendor_tree openbsd-src) || die "no vendored OpenBSD tree"
tmp=$OBJ/diffsize
mkdir -p "$tmp"

echo "# date: $(date -u +%Y-%m-%dT%H:%MZ)"
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null |
    sed q)
[ -n "$model" ] || model=$(sysctl -n hw.model 2>/dev/null)
echo "# machine: $(uname -srm), $(ncpu_online) CPUs, ${model:-unknown CPU}"
echo "# command: sh tools/diffsize.sh"
echo "# source: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null ||
    echo unknown), vendored openbsd-src.tar.xz" \
    "$(sha256sum <"$VENDOR/openbsd-src.tar.xz" | cut -c1-12)"
echo "# columns: options of mplock-patch diff, lines of the diff, files," \
    "lines added, lines removed"
for opts in "" "-k" "-k -b mlock" "-r"; do
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
