# herd7 built from the vendored herdtools7 under $OBJ/herd7, once per
# tarball (keyed by its SHA-256).  Sourced after common.sh, vendor.sh.
#
# herd_build: build herd.exe unless built from this tarball; set HERD
#	and HERD_LIB (its .cat models).  Returns 77 when the tarball or
#	OCaml/dune/menhir are missing, 1 when the build fails.
# herd_prebuild LOG: the same in the background, niced; herd_build
#	waits for it.

HERD_PKG=herdtools7-7.56.3
HERD_DIR=$OBJ/herd7

herd_build() {
	herd_wait
	_hsrc=$(vendor_tree "$HERD_PKG") || return $?
	_hsum=$(cat "$_hsrc/.extracted")
	HERD=$HERD_DIR/bin/herd.exe
	HERD_LIB=$_hsrc/herd/libdir
	if [ -x "$HERD" ] && [ -f "$HERD_DIR/bin/.built" ] &&
	    [ "$(cat "$HERD_DIR/bin/.built")" = "$_hsum" ]; then
		return 0
	fi
	for _ht in ocamlfind dune menhir; do
		command -v "$_ht" >/dev/null 2>&1 || {
			echo "herd_build: $_ht not installed (Debian: ocaml-nox" \
			    "ocaml-dune menhir libmenhir-ocaml-dev" \
			    "ocaml-findlib)" >&2
			return 77
		}
	done
	mkdir -p "$HERD_DIR" || return 1
	_hlog=$HERD_DIR/build.log
	echo "herd_build: building herd7 from $HERD_PKG (a few minutes," \
	    "once) ..." >&2
	# A copy of the sources: version-gen.sh and dune write into the
	# tree, and the extracted one stays as extracted.
	rm -rf "$HERD_DIR/src" "$HERD_DIR/bin"
	if ! (cp -R "$_hsrc" "$HERD_DIR/src" && cd "$HERD_DIR/src" &&
	    sh version-gen.sh /usr/local &&
	    nice dune build --profile release herd/herd.exe) >"$_hlog" 2>&1
	then
		echo "herd_build: build failed, see $_hlog" >&2
		return 1
	fi
	mkdir -p "$HERD_DIR/bin" &&
	    cp "$HERD_DIR/src/_build/default/herd/herd.exe" "$HERD" &&
	    chmod +x "$HERD" || return 1
	# The binary is all that is needed: drop dune's build tree.
	rm -rf "$HERD_DIR/src"
	echo "$_hsum" >"$HERD_DIR/bin/.built"
}

# $HERD_DIR.lock holds the background build's process id.
herd_prebuild() {
	mkdir -p "$OBJ" && mkdir "$HERD_DIR.lock" 2>/dev/null || return 0
	(
		trap 'rm -rf "$HERD_DIR.lock"' EXIT
		HERD_PREBUILD=1
		herd_build
	) >"$1" 2>&1 </dev/null &
	echo $! >"$HERD_DIR.lock/pid"
}

# herd_wait: until a background herd_build has ended (or is gone).
herd_wait() {
	# Not the background build itself, which holds the lock.
	[ -z "${HERD_PREBUILD:-}" ] || return 0
	while [ -d "$HERD_DIR.lock" ]; do
		_hp=$(cat "$HERD_DIR.lock/pid" 2>/dev/null)
		if [ -n "$_hp" ] && ! kill -0 "$_hp" 2>/dev/null; then
			rm -rf "$HERD_DIR.lock"
		else
			sleep 2
		fi
	done
}

# herd_run MODEL FILE: herd7 on one test (-archcheck false: herd's
# X86_64 front end for i386's tests too).
herd_run() {
	"$HERD" -archcheck false -set-libdir "$HERD_LIB" -model "$1" "$2"
}
