# The stock notices: every file the patch replaces or edits keeps the
# copyright notice and licence of the stock file, unchanged.  Sourced
# after common.sh by tools/lint.sh.
#
# notices_check TREE
#	TREE is a stock OpenBSD tree (src, as the patch tool takes it).
#	Takes the diff "mplock-patch diff" makes for TREE and, for every
#	file it changes that TREE has, the stock file's header block: its
#	first comment that holds "Copyright" or "public domain" and what
#	comes before it.  Fails, naming the file and the line, when the
#	diff removes or changes a line of that block, the $OpenBSD: ...$
#	ID line included (mplock-patch keeps the tree's).  Also fails when
#	the diff is empty or cannot be made: that proves nothing.

# notices_header FILE: the last line number of FILE's header block, or
# 0 when it has no notice.
notices_header() {
	awk '
	/Copyright|COPYRIGHT|[Pp]ublic [Dd]omain/	{ seen = 1 }
	/^#/ && !incom {
		if (seen) last = NR
		next
	}
	/\/\*/		{ incom = 1 }
	incom && /\*\//	{
		incom = 0
		if (seen) { print NR; found = 1; exit }
		next
	}
	incom		{ next }
	/^[ \t]*$/	{ next }
			{ if (seen) { print last; found = 1 }; exit }
	END		{ if (!found) print (seen ? last : 0) }' "$1"
}

notices_check() {
	_nt=$1
	_nd=$(mktemp -d "${TMPDIR:-/tmp}/notices.XXXXXXXX") || return 1
	if ! sh "${MPLOCK_PATCH:-$ROOT/tools/mplock-patch}" diff -q "$_nt" \
	    >"$_nd/diff" || [ ! -s "$_nd/diff" ]; then
		echo "notices: no diff for $_nt"
		rm -rf "$_nd"
		return 1
	fi
	# PATH LINE for every line the diff removes from a stock file.
	awk '
	/^--- / {
		path = substr($0, 5); sub(/\t.*/, "", path)
		if (path == "/dev/null") path = ""
		next
	}
	/^\+\+\+ /	{ next }
	/^@@ / {
		split($2, a, ","); old = substr(a[1], 2) + 0
		next
	}
	path != "" && /^-/	{ print path, old; old++; next }
	path != "" && /^ /	{ old++ }' "$_nd/diff" >"$_nd/removed"
	_nrc=0 _nn=0
	for _np in $(awk '{ print $1 }' "$_nd/removed" | sort -u); do
		[ -f "$_nt/$_np" ] || continue
		_nh=$(notices_header "$_nt/$_np")
		[ "$_nh" -gt 0 ] || continue
		_nn=$((_nn + 1))
		_nbad=$(awk -v p="$_np" -v h="$_nh" '$1 == p && $2 <= h {
			print $2 }' "$_nd/removed")
		for _nl in $_nbad; do
			_ntext=$(sed -n "${_nl}p" "$_nt/$_np")
			echo "$_np:$_nl: stock notice line removed or changed:" \
			    "$_ntext"
			_nrc=1
		done
	done
	[ "$_nrc" -eq 0 ] && echo "notices: kept in the $_nn stock files" \
	    "with a notice the diff removes lines from"
	rm -rf "$_nd"
	return $_nrc
}
