# The vendored third-party inputs (../shared/vendor beside the checkout,
# read only): extracted under $OBJ/vendor once per tarball, keyed by the
# tarball's SHA-256, so a second run (or a CI cache of build/vendor)
# skips the extraction.  Sourced after common.sh.
#
# vendor_tree NAME
#	Extract $VENDOR/NAME.tar.xz (openbsd-src, herdtools7-7.56.3) if
#	not done for this tarball yet and print the directory holding its
#	top-level folder's contents, e.g. $OBJ/vendor/openbsd-src.
#	Returns 77 (the suites' "skip") when the tarball is not there.

VENDOR=${MPLOCK_VENDOR:-$(cd "$ROOT/.." && pwd)/shared/vendor}

vendor_tree() {
	_vt=$VENDOR/$1.tar.xz
	if [ ! -r "$_vt" ]; then
		echo "vendor_tree: $_vt: not found" >&2
		return 77
	fi
	_vd=$OBJ/vendor/$1
	_vsum=$(sha256sum <"$_vt" 2>/dev/null || sha256 -q "$_vt")
	_vsum=${_vsum%% *}
	if [ ! -f "$_vd/.extracted" ] ||
	    [ "$(cat "$_vd/.extracted")" != "$_vsum" ]; then
		rm -rf "$_vd" "$_vd.tmp"
		mkdir -p "$_vd.tmp" &&
		    xz -dc "$_vt" | tar -xf - -C "$_vd.tmp" || {
			echo "vendor_tree: cannot extract $_vt" >&2
			rm -rf "$_vd.tmp"
			return 1
		}
		# The tarball holds one top-level folder; $_vd is its contents.
		_vtop=$(ls "$_vd.tmp")
		mv "$_vd.tmp/$_vtop" "$_vd" && rmdir "$_vd.tmp" &&
		    echo "$_vsum" >"$_vd/.extracted" || return 1
	fi
	echo "$_vd"
}
