#!/bin/sh
#
# Copyright (c) 2026 The mplock authors
#
# Permission to use, copy, modify, and distribute this software for any
# purpose with or without fee is hereby granted, provided that the above
# copyright notice and this permission notice appear in all copies.
#
# THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
# WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
# MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
# ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
# WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
# ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
# OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
#
# make install (make uninstall: -u): under DESTDIR (-D) PREFIX (-p;
# /usr/local): bin/ the tools, man/ their pages, share/mplock/ what
# mplock-patch installs into a tree, and VERSION.  POSIX sh.

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"
PROG=install.sh
USAGE="usage: $PROG [-u] [-D destdir] [-p prefix]"
umask 022

uninstall=0
PREFIX=/usr/local
DESTDIR=
while getopts :D:p:u ch; do
	case $ch in
	D)	DESTDIR=$OPTARG ;;
	p)	PREFIX=$OPTARG ;;
	u)	uninstall=1 ;;
	*)	badopt "$ch" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage "$1: no operands"
case $PREFIX in
/*)	;;
*)	die "PREFIX $PREFIX: not an absolute path" ;;
esac
case $DESTDIR in
''|/*)	;;
*)	die "DESTDIR $DESTDIR: not an absolute path" ;;
esac
P=$DESTDIR$PREFIX
TOOLS="mplock-patch buildtime"

pages() {
	(cd "$ROOT/share/man" && ls man1/*.1 man8/*.8 2>/dev/null)
}

# The payload: what mplock-patch installs into a tree, by its list.
payload() {
	ROOT=$ROOT sh -c "$(sed -n '/^our_files()/,/^}/p' \
	    "$ROOT/tools/mplock-patch")
our_files"
}

if [ "$uninstall" -eq 1 ]; then
	for t in $TOOLS; do
		rm -f "$P/bin/$t" || exit 1
	done
	for m in $(pages); do
		rm -f "$P/man/$m" || exit 1
	done
	rm -rf "$P/share/mplock" || exit 1
	echo "$PROG: removed mplock-patch, buildtime, their manual pages and" \
	    "$PREFIX/share/mplock${DESTDIR:+ (under $DESTDIR)}"
	exit 0
fi

[ -f "$ROOT/sys/sys/mplock.h" ] || die "$ROOT: not an mplock checkout"
version=$(cd "$ROOT" && git describe --always --dirty 2>/dev/null) ||
    version=unknown

# The payload replaces the old one once it is complete.
new=$P/share/mplock.new.$$
trap 'rm -rf "$new"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$P/bin" "$new" || exit 1
payload >"$new/.list" || die "cannot list the files of $ROOT"
while read -r f; do
	d=$(dirname "$f")
	mkdir -p "$new/$d" && cp "$ROOT/$f" "$new/$f" ||
	    die "cannot copy $f to $new"
done <"$new/.list"
rm -f "$new/.list"
echo "$version" >"$new/VERSION" || die "cannot write $new/VERSION"
rm -rf "$P/share/mplock" && mv "$new" "$P/share/mplock" ||
    die "cannot install $P/share/mplock"
for t in $TOOLS; do
	cp "$ROOT/tools/$t" "$P/bin/$t.new" &&
	    chmod 755 "$P/bin/$t.new" &&
	    mv -f "$P/bin/$t.new" "$P/bin/$t" ||
	    die "cannot install $P/bin/$t"
done
for m in $(pages); do
	mkdir -p "$P/man/${m%/*}" &&
	    cp "$ROOT/share/man/$m" "$P/man/$m" && chmod 644 "$P/man/$m" ||
	    die "cannot install $P/man/$m"
done
echo "$PROG: installed mplock-patch and buildtime in $PREFIX/bin, their" \
    "manual pages in $PREFIX/man, mplock $version in" \
    "$PREFIX/share/mplock${DESTDIR:+ (under $DESTDIR)}"
