# The stock notices (doc/testing.md): every file the patch replaces or
# edits keeps the stock file's header block (its first comment with
# "Copyright" or "public domain", and what comes before it) unchanged;
# a public-domain file gets no licence; a new file that takes a
# function out of a stock file carries that file's notice.  Sourced
# after common.sh by tools/lint.sh and the suite series.
#
# notices_check TREE: notices_diff on "mplock-patch diff" for TREE (a
#	stock src); fails, too, when that diff is empty or not made.
# notices_diff TREE DIFF: DIFF (a file, - for stdin) applies to TREE
#	(patch -p0); fails naming the file and line of each notice it
#	breaks.

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
	_ncd=$(sh "$ROOT/tools/mplock-patch" diff -q "$1") && [ -n "$_ncd" ] ||
	    { echo "notices: no diff for $1"; return 1; }
	printf '%s\n' "$_ncd" | notices_diff "$1" -
}

notices_diff() {
	_nt=$1 _ndf=$2
	_nd=$(mktemp -d "${TMPDIR:-/tmp}/notices.XXXXXXXX") || return 1
	# R PATH LINE: a line the diff removes from PATH; A PATH TEXT: a
	# line it adds; F PATH NAME: a function definition it removes, N
	# PATH NAME one it adds to a new file (PATH the new file's).
	awk -v rem="$_nd/removed" -v add="$_nd/added" -v fn="$_nd/fn" '
	/^--- / {
		path = substr($0, 5); sub(/\t.*/, "", path)
		new = path == "/dev/null"
		next
	}
	/^\+\+\+ / {
		to = substr($0, 5); sub(/\t.*/, "", to)
		if (new) path = ""
		next
	}
	/^@@ / {
		split($2, a, ","); old = substr(a[1], 2) + 0
		next
	}
	/^-/ {
		if (path == "")
			next
		print path, old > rem
		old++
		if ($0 ~ /^-[A-Za-z_][A-Za-z0-9_]*\(/) {
			n = substr($0, 2); sub(/\(.*/, "", n)
			print "F", path, n > fn
		}
		next
	}
	/^\+/ {
		print to "\t" substr($0, 2) > add
		if (new && $0 ~ /^\+[A-Za-z_][A-Za-z0-9_]*\(/) {
			n = substr($0, 2); sub(/\(.*/, "", n)
			print "N", to, n > fn
		}
		next
	}
	/^ / && path != "" { old++ }' "$_ndf"
	touch "$_nd/removed" "$_nd/added" "$_nd/fn"
	_nrc=0 _nn=0
	for _np in $( { awk '{ print $1 }' "$_nd/removed"
	    awk -F'\t' '{ print $1 }' "$_nd/added"; } | sort -u); do
		[ -f "$_nt/$_np" ] || continue
		_nh=$(notices_header "$_nt/$_np")
		[ "$_nh" -gt 0 ] || continue
		_nn=$((_nn + 1))
		for _nl in $(awk -v p="$_np" -v h="$_nh" '$1 == p &&
		    $2 <= h { print $2 }' "$_nd/removed"); do
			echo "$_np:$_nl: stock notice line removed or" \
			    "changed: $(sed -n "${_nl}p" "$_nt/$_np")"
			_nrc=1
		done
		# Public domain: no licence block comes in.
		if sed -n "1,${_nh}p" "$_nt/$_np" |
		    grep -qi 'public domain'; then
			awk -F'\t' -v p="$_np" '$1 == p && ($2 ~ /Copyright/ ||
			    $2 ~ /Permission to use/) { print p ": licence" \
			    " line added to a public domain file: " $2 }' \
			    "$_nd/added" | grep . && _nrc=1
		fi
		# Its functions that move to a new file take the notice.
		awk -v p="$_np" '$1 == "F" && $2 == p { f[$3] }
		    $1 == "N" { n[$3] = n[$3] " " $2 }
		    END { for (x in f) if (x in n) print n[x] }' "$_nd/fn" |
		    tr ' ' '\n' | sort -u | grep . | while read -r _nw; do
			_nbad=$(sed -n "1,${_nh}p" "$_nt/$_np" |
			    grep -v '\$OpenBSD' | grep -v '^[ \t]*$' |
			    awk -F'\t' -v w="$_nw" -v add="$_nd/added" '
			    BEGIN {
				while ((getline l < add) > 0) {
					split(l, x, "\t")
					if (x[1] == w)
						have[substr(l,
						    length(w) + 2)] = 1
				}
			    }
			    !($0 in have) { print; exit }')
			[ -z "$_nbad" ] && continue
			echo "$_nw: takes code from $_np without its" \
			    "notice; missing: $_nbad"
		done | grep . && _nrc=1
	done
	[ "$_nrc" -eq 0 ] && echo "notices: kept in the $_nn stock files" \
	    "the diff changes"
	rm -rf "$_nd"
	return $_nrc
}
