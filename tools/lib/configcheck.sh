# Every kernel config "mplock-patch config" can write, run through a
# config(8) binary.  Sourced after common.sh.
#
# config_variants: one config a line, the options of "mplock-patch
#	config": each backend with each subset of -w, -l and -d, and each
#	MPLOCK_* option of the tool's table this checkout has the file of
#	(64 where it takes a number).
# config_check_all CONFIG8 SRC ARCH...: in SRC, patched, for each ARCH
#	and variant, the config written (CK.MP), the same from the
#	arguments reversed, and config(8) on it: a line each.  Fails if
#	one fails, or none ran.

CC_TOOL=$ROOT/tools/mplock-patch

config_variants() {
	for _cv_b in $BACKENDS; do
		for _cv_s in "" -w -l -d "-w -l" "-w -d" "-l -d" "-w -l -d"; do
			echo "-b $_cv_b $_cv_s"
		done
	done
	sed -n "/^MPLOCK_OPTIONS='/,/^'/p" "$CC_TOOL" |
	    awk -v root="$ROOT" 'NF == 2 {
		o = $1
		if (o ~ /=$/)
			o = o "64"
		if ((getline l < (root "/" $2)) > 0)
			print (o ~ /^MPLOCK_DEBUG_/ ? "-d " : "") "-o " o
		close(root "/" $2)
	    }'
}

config_check_all() {
	_ck_c8=$1 _ck_src=$2
	shift 2
	_ck_rc=0 _ck_n=0
	_ck_b=${TMPDIR:-/tmp}/configcheck.$$
	config_variants >"$_ck_b.variants"
	for _ck_a; do
		# mplock-patch config needs one (the snapshot has no i386's).
		[ -f "$_ck_src/sys/arch/$_ck_a/compile/Makefile.inc" ] ||
		    continue
		while read -r _ck_v; do
			_ck_n=$((_ck_n + 1))
			_ck_f=$_ck_src/sys/arch/$_ck_a/conf/CK.MP
			sh "$CC_TOOL" config -n CK.MP -s "$_ck_src" \
			    $_ck_v "$_ck_a" >/dev/null 2>"$_ck_b.err" || {
				echo "FAIL $_ck_a $_ck_v: mplock-patch:" \
				    "$(cat "$_ck_b.err")"
				_ck_rc=1
				continue
			}
			cp "$_ck_f" "$_ck_b.first"
			sh "$CC_TOOL" config -n CK.MP -s "$_ck_src" \
			    $(echo "$_ck_v" | awk '{
				for (i = 1; i <= NF; i++) {
					u[++n] = $i
					if ($i ~ /^-[bnos]$/)
						u[n] = u[n] " " $(++i)
				}
				for (i = n; i >= 1; i--)
					printf "%s ", u[i]
			    }') "$_ck_a" \
			    >/dev/null 2>&1 &&
			    cmp -s "$_ck_f" "$_ck_b.first" || {
				echo "FAIL $_ck_a $_ck_v: not the same file" \
				    "for the same choices"
				_ck_rc=1
			}
			rm -rf "$_ck_b.build"
			if "$_ck_c8" -b "$_ck_b.build" -s "$_ck_src/sys" "$_ck_f" \
			    >"$_ck_b.out" 2>&1; then
				echo "ok   $_ck_a $_ck_v"
			else
				echo "FAIL $_ck_a $_ck_v: config(8):" \
				    "$(tr '\n' ' ' <"$_ck_b.out")"
				_ck_rc=1
			fi
		done <"$_ck_b.variants"
	done
	rm -rf "$_ck_b".*
	echo "$_ck_n configs"
	[ "$_ck_n" -gt 0 ] || return 1
	return $_ck_rc
}
