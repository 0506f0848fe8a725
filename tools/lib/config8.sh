# config8_build TREE: the path of a config(8) built from
# TREE/usr.sbin/config on this host (byacc -d, flex, libbsd,
# MAKE_BOOTSTRAP: no kernel editor, which needs libkvm; the
# compatibility header tools/kernel/compat.h), once per set of sources
# in $OBJ/config8.  Fails with the build's messages; 77 when byacc or
# flex is missing.  Sourced after common.sh.

config8_build() {
	_c8s=$1/usr.sbin/config
	[ -f "$_c8s/gram.y" ] || {
		echo "config8: $1: no usr.sbin/config" >&2
		return 1
	}
	for _c8t in byacc flex; do
		command -v $_c8t >/dev/null 2>&1 || {
			echo "config8: $_c8t not installed (builds config(8))" >&2
			return 77
		}
	done
	_c8k=$(cat "$_c8s"/*.[chyl] "$ROOT/tools/kernel/compat.h" | cksum |
	    awk '{ print $1 "-" $2 }')
	_c8=$OBJ/config8/config-$_c8k
	if [ ! -x "$_c8" ]; then
		echo "config8: building config(8) from $_c8s" >&2
		_c8b=$OBJ/config8/build.$$
		rm -rf "$_c8b" && mkdir -p "$_c8b" || return 1
		( cd "$_c8b" && byacc -d -o gram.c "$_c8s/gram.y" &&
		    flex -o scan.c "$_c8s/scan.l" &&
		    cc -O2 -Werror=implicit-function-declaration \
		    -DMAKE_BOOTSTRAP -include "$ROOT/tools/kernel/compat.h" \
		    -I"$_c8s" -I. -o config "$_c8s/files.c" gram.c \
		    "$_c8s/hash.c" "$_c8s/main.c" "$_c8s/mkheaders.c" \
		    "$_c8s/mkioconf.c" "$_c8s/mkmakefile.c" "$_c8s/mkswap.c" \
		    "$_c8s/pack.c" scan.c "$_c8s/sem.c" "$_c8s/util.c" -lbsd ) \
		    >"$_c8b.log" 2>&1 || {
			cat "$_c8b.log" >&2
			echo "config8: config(8) does not build from $_c8s" >&2
			rm -rf "$_c8b"
			return 1
		}
		mv "$_c8b/config" "$_c8" && rm -rf "$_c8b" "$_c8b.log" ||
		    return 1
	fi
	echo "$_c8"
}
