# install: "make install" (tools/install.sh) into a temporary PREFIX:
# the tools work from there, through symlinks, and from a prefix moved
# elsewhere; man(1) finds the pages; DESTDIR under BSD make; uninstall.

. "$ROOT/tools/lib/fixture-tree.sh"

IT=$OBJ/install
chmod -R u+w "$IT" 2>/dev/null
rm -rf "$IT"
fixture_setup "$IT" install || return 0
IP=$IT/prefix
MAKE_=${MAKE:-make}

# The tools, their pages, and the payload (what apply puts into a tree,
# the same from the installed tool as from the checkout), no more.
it_install() {
	(cd "$ROOT" && $MAKE_ install PREFIX="$IP") || return 1
	for _t in mplock-patch buildtime; do
		[ -x "$IP/bin/$_t" ] && cmp "$ROOT/tools/$_t" "$IP/bin/$_t" ||
		    return 1
	done
	for _m in "$ROOT"/share/man/man1/*.1 "$ROOT"/share/man/man8/*.8; do
		cmp "$_m" "$IP/man/${_m#*/share/man/}" || return 1
	done
	_v=$(cd "$ROOT" && git describe --always --dirty 2>/dev/null) ||
	    _v=unknown
	[ "$(cat "$IP/share/mplock/VERSION")" = "$_v" ] ||
	    { echo "VERSION: $(cat "$IP/share/mplock/VERSION"), not $_v"
	    return 1; }
	(cd "$IP/share/mplock" && find . -type f ! -name VERSION |
	    sed 's|^\./||' | sort) >"$IT/have.list"
	_i=$(fresh payload-installed) _c=$(fresh payload-checkout)
	"$IP/bin/mplock-patch" apply "$_i" >/dev/null &&
	    pt apply "$_c" >/dev/null &&
	    diff "$_c/.mplock-patch/files" "$_i/.mplock-patch/files" ||
	    return 1
	awk '$1 != "D" { print $2 }' "$_i/.mplock-patch/files" | sort |
	    comm -13 - "$IT/have.list" >"$IT/extra.list"
	[ ! -s "$IT/extra.list" ] || { echo "installed, not put in a tree:"
	    cat "$IT/extra.list"; return 1; }
	while read -r _f; do
		cmp "$ROOT/$_f" "$IP/share/mplock/$_f" || return 1
	done <"$IT/have.list"
}
t_check "install/make-install" it_install

# it_patch NAME PREFIX TOOL ...: check, apply (PREFIX's payload), status
# (PREFIX's version) and revert a fixture with TOOL, run from /.
it_patch() {
	_t=$(fresh "$1") _p=$2/share/mplock
	shift 2
	(cd / && "$@" check "$_t" && "$@" apply "$_t") || return 1
	for _f in sys/kern/kern_mplock.c share/man/man9/mplock.9; do
		cmp "$_p/$_f" "$_t/$_f" || return 1
	done
	(cd / && "$@" status "$_t") >"$_t.status" &&
	    grep -qx "version: $(cat "$_p/VERSION")" "$_t.status" ||
	    { cat "$_t.status"; return 1; }
	(cd / && "$@" revert "$_t") && pristine "$_t"
}

# Symlinks to the installed tools: absolute, and relative to those.
mkdir -p "$IT/elsewhere" "$IT/other"
for _t in mplock-patch buildtime; do
	ln -s "$IP/bin/$_t" "$IT/elsewhere/$_t"
	ln -s "../elsewhere/$_t" "$IT/other/$_t"
done
t_check "install/mplock-patch/symlink" it_patch t2 "$IP" \
    "$IT/elsewhere/mplock-patch"
t_check "install/mplock-patch/symlink-to-symlink-in-PATH" it_patch t3 \
    "$IP" env PATH="$IT/other:$PATH" mplock-patch
t_need mksh "install/mplock-patch/symlink-mksh" it_patch t4 "$IP" mksh \
    "$IT/other/mplock-patch"
# A copy of the prefix elsewhere, its payload marked, installs the mark
# (and is the tool run by its own path, not a link).
it_moved() {
	rm -rf "$IT/moved"
	cp -Rp "$IP" "$IT/moved" &&
	    echo '.\" moved' >>"$IT/moved/share/mplock/share/man/man9/mplock.9" &&
	    it_patch t5 "$IT/moved" "$IT/moved/bin/mplock-patch"
}
t_check "install/mplock-patch/moved-prefix" it_moved

it_buildtime() {
	for _b in "$IP/bin/buildtime help" "$IT/other/buildtime help" \
	    "env PATH=$IT/other:$PATH buildtime -h"; do
		(cd / && $_b) >"$IT/bt.out" &&
		    grep -q '^usage: buildtime run ' "$IT/bt.out" &&
		    grep -q '^       buildtime compare ' "$IT/bt.out" ||
		    { echo "$_b:"; cat "$IT/bt.out"; return 1; }
	done
}
t_check "install/buildtime-help" it_buildtime

# The pages, read by man -l and found through a user's MANPATH.
it_man() {
	for _p in 1:buildtime 8:mplock-patch; do
		_s=${_p%:*} _n=${_p#*:}
		man -l "$IP/man/man$_s/$_n.$_s" >"$IT/man.out" &&
		    grep -q "$_n" "$IT/man.out" || return 1
		_w=$(MANPATH=$IP/man man -w "$_s" "$_n") &&
		    [ "$_w" = "$IP/man/man$_s/$_n.$_s" ] ||
		    { echo "man -w: $_w"; return 1; }
	done
}
t_need man "install/man" it_man

# BSD make, with DESTDIR: the same files under DESTDIR/PREFIX.
it_destdir() {
	rm -rf "$IT/dest"
	(cd "$ROOT" && bmake install DESTDIR="$IT/dest" PREFIX=/usr/local) &&
	    diff -r "$IP" "$IT/dest/usr/local"
}
t_need bmake "install/bsd-make-destdir" it_destdir

it_uninstall() {
	(cd "$ROOT" && $MAKE_ uninstall PREFIX="$IP") || return 1
	_left=$(cd "$IP" && find . -type f)
	[ -z "$_left" ] || { echo "left: $_left"; return 1; }
}
t_check "install/make-uninstall" it_uninstall
