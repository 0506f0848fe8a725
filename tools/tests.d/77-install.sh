# install: "make install" (tools/install.sh) into a temporary PREFIX,
# then the installed tools run from there and through symlinks in other
# directories as from the checkout: mplock-patch check, apply, status
# and revert on a fixture tree (tools/lib/fixture-tree.sh), revert byte
# for byte; buildtime help; the manual pages where man(1) finds them; a
# prefix moved elsewhere still finds its own payload; DESTDIR under BSD
# make; make uninstall.  The maintainers' tools (tools/series, which
# writes the patch series) are not installed.

. "$ROOT/tools/lib/fixture-tree.sh"

IT=$OBJ/install
chmod -R u+w "$IT" 2>/dev/null
rm -rf "$IT"
mkdir -p "$IT/tmp"
TMPDIR=$IT/tmp
export TMPDIR
unset MPLOCK_ROOT
IP=$IT/prefix
MAKE_=${MAKE:-make}

fixture_tree "$IT/pristine"

it_install() {
	(cd "$ROOT" && $MAKE_ install PREFIX="$IP") || return 1
	for _f in bin/mplock-patch bin/buildtime share/mplock/VERSION \
	    share/mplock/sys/sys/mplock.h; do
		[ -f "$IP/$_f" ] || { echo "no $_f"; return 1; }
	done
	for _t in mplock-patch buildtime; do
		[ -x "$IP/bin/$_t" ] || { echo "$_t not executable"; return 1; }
		cmp "$ROOT/tools/$_t" "$IP/bin/$_t" || return 1
	done
	for _m in "$ROOT"/share/man/man1/*.1 "$ROOT"/share/man/man8/*.8; do
		[ -f "$_m" ] || continue
		_s=${_m%/*}
		cmp "$_m" "$IP/man/${_s##*/}/${_m##*/}" || return 1
	done
	[ -f "$IP/man/man1/buildtime.1" ] || return 1
	_v=$(cd "$ROOT" && git describe --always --dirty 2>/dev/null) ||
	    _v=unknown
	[ "$(cat "$IP/share/mplock/VERSION")" = "$_v" ] ||
	    { echo "VERSION: $(cat "$IP/share/mplock/VERSION"), not $_v"; \
	    return 1; }
	# The payload: what apply puts into a tree.  Applied from the
	# installed tool and from the checkout, a tree gets the same files
	# with the same sums (the records' lists), and every file installed
	# is one of them, the checkout's bytes.
	(cd "$IP/share/mplock" && find . -type f ! -name VERSION |
	    sed 's|^\./||' | sort) >"$IT/have.list"
	for _w in installed checkout; do
		rm -rf "$IT/payload-$_w"
		cp -Rp "$IT/pristine" "$IT/payload-$_w" || return 1
	done
	"$IP/bin/mplock-patch" apply "$IT/payload-installed" >/dev/null &&
	    sh "$ROOT/tools/mplock-patch" apply "$IT/payload-checkout" \
	    >/dev/null || return 1
	diff "$IT/payload-checkout/.mplock-patch/files" \
	    "$IT/payload-installed/.mplock-patch/files" || return 1
	awk '$1 != "D" { print $2 }' "$IT/payload-installed/.mplock-patch/files" |
	    sort | comm -13 - "$IT/have.list" >"$IT/extra.list"
	[ ! -s "$IT/extra.list" ] || { echo "installed, not put in a tree:"
	    cat "$IT/extra.list"; return 1; }
	# No maintainer's tool: no tools/ there, no series command.
	[ ! -e "$IP/share/mplock/tools" ] || { echo "tools/ installed"
	    return 1; }
	if "$IP/bin/mplock-patch" help | grep -q series; then
		echo "the installed mplock-patch has a series command"
		return 1
	fi
	while read -r _f; do
		cmp "$ROOT/$_f" "$IP/share/mplock/$_f" || return 1
	done <"$IT/have.list"
}
t_check "install/make-install" it_install

# it_patch NAME TOOL ...: check, apply and revert a copy of the fixture
# with TOOL (a command, run from /), the applied tree holding the
# payload's files, the reverted one the same as the fixture.
it_patch() {
	_t=$IT/$1
	shift
	rm -rf "$_t"
	cp -Rp "$IT/pristine" "$_t"
	(cd / && "$@" check "$_t") || return 1
	(cd / && "$@" apply "$_t") || return 1
	for _f in sys/kern/kern_mplock.c share/man/man9/mplock.9; do
		cmp "$ROOT/$_f" "$_t/$_f" || return 1
	done
	# status names the installed version (its VERSION file).
	(cd / && "$@" status "$_t") >"$_t.status" || return 1
	grep -qx "version: $(cat "$IP/share/mplock/VERSION")" "$_t.status" ||
	    { cat "$_t.status"; return 1; }
	(cd / && "$@" revert "$_t") || return 1
	diff -r "$IT/pristine" "$_t"
}

# A directory elsewhere with symlinks to the installed tools: an
# absolute one, and a relative one to that.
mkdir -p "$IT/elsewhere" "$IT/other"
ln -s "$IP/bin/mplock-patch" "$IT/elsewhere/mplock-patch"
ln -s "$IP/bin/buildtime" "$IT/elsewhere/buildtime"
ln -s ../elsewhere/mplock-patch "$IT/other/mplock-patch"
ln -s ../elsewhere/buildtime "$IT/other/buildtime"

t_check "install/mplock-patch/installed" it_patch t1 "$IP/bin/mplock-patch"
t_check "install/mplock-patch/symlink" it_patch t2 \
    "$IT/elsewhere/mplock-patch"
t_check "install/mplock-patch/symlink-to-symlink-in-PATH" it_patch t3 \
    env PATH="$IT/other:$PATH" mplock-patch
if command -v mksh >/dev/null 2>&1; then
	t_check "install/mplock-patch/symlink-mksh" it_patch t4 \
	    mksh "$IT/other/mplock-patch"
else
	t_skip "install/mplock-patch/symlink-mksh" "no mksh"
fi

# The installed tool uses the installed payload, not the checkout: a
# copy of the prefix elsewhere, its payload marked, installs the mark.
it_moved() {
	rm -rf "$IT/moved"
	cp -Rp "$IP" "$IT/moved" || return 1
	echo '.\" moved' >>"$IT/moved/share/mplock/share/man/man9/mplock.9"
	_t=$IT/t5
	rm -rf "$_t"
	cp -Rp "$IT/pristine" "$_t"
	(cd / && "$IT/moved/bin/mplock-patch" apply "$_t") || return 1
	cmp "$IT/moved/share/mplock/share/man/man9/mplock.9" \
	    "$_t/share/man/man9/mplock.9" || return 1
	(cd / && "$IT/moved/bin/mplock-patch" revert "$_t") || return 1
	diff -r "$IT/pristine" "$_t"
}
t_check "install/mplock-patch/moved-prefix" it_moved

it_buildtime() {
	for _b in "$IP/bin/buildtime" "$IT/other/buildtime"; do
		(cd / && "$_b" help) >"$IT/bt.out" || return 1
		grep -q '^usage: buildtime run ' "$IT/bt.out" || return 1
	done
	(cd / && env PATH="$IT/other:$PATH" buildtime -h) >"$IT/bt.out" ||
	    return 1
	grep -q '^       buildtime compare ' "$IT/bt.out"
}
t_check "install/buildtime-help" it_buildtime

it_man() {
	man -l "$IP/man/man1/buildtime.1" >"$IT/man.out" || return 1
	grep -q 'buildtime' "$IT/man.out" || return 1
	# Where a user's MANPATH finds it.
	_w=$(MANPATH=$IP/man man -w buildtime) || return 1
	[ "$_w" = "$IP/man/man1/buildtime.1" ] ||
	    { echo "man -w: $_w"; return 1; }
	[ ! -f "$ROOT/share/man/man8/mplock-patch.8" ] && return 0
	man -l "$IP/man/man8/mplock-patch.8" | grep -q 'mplock-patch' ||
	    return 1
	_w=$(MANPATH=$IP/man man -w 8 mplock-patch) || return 1
	[ "$_w" = "$IP/man/man8/mplock-patch.8" ] ||
	    { echo "man -w: $_w"; return 1; }
}
if command -v man >/dev/null 2>&1; then
	t_check "install/man" it_man
else
	t_skip "install/man" "no man(1)"
fi

# BSD make, with DESTDIR: the same files under DESTDIR/PREFIX.
it_destdir() {
	rm -rf "$IT/dest"
	(cd "$ROOT" && bmake install DESTDIR="$IT/dest" PREFIX=/usr/local) ||
	    return 1
	diff -r "$IP" "$IT/dest/usr/local"
}
if command -v bmake >/dev/null 2>&1; then
	t_check "install/bsd-make-destdir" it_destdir
else
	t_skip "install/bsd-make-destdir" "no bmake"
fi

it_uninstall() {
	(cd "$ROOT" && $MAKE_ uninstall PREFIX="$IP") || return 1
	_left=$(cd "$IP" && find . -type f)
	[ -z "$_left" ] || { echo "left: $_left"; return 1; }
}
t_check "install/make-uninstall" it_uninstall
