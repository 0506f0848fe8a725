# herd7, the memory-model simulator of herdtools7, built from the
# vendored tarball (tools/lib/vendor.sh) under $OBJ/herd7.  The build is
# keyed by the tarball's SHA-256: a second run, or a CI cache of
# build/herd7, reuses the binary.  Sourced after common.sh and vendor.sh.
#
# herd_build
#	Build herd.exe if not built from this tarball yet; set HERD (the
#	binary) and HERD_LIB (the models it ships: aarch64.cat, ...).
#	Returns 77 (skip) when the tarball or OCaml/dune/menhir are
#	missing, 1 when the build fails (log in $OBJ/herd7/build.log).
# herd_prebuild LOG, herd_wait
#	The same build in the background, and waiting for it.
# herd_run MODEL FILE
#	herd7 with that model on one litmus test; prints its output.

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

# herd_prebuild LOG: herd_build in the background, niced, so that the
# build overlaps the suites before the litmus tests (tools/test.sh);
# herd_build waits for it.  $HERD_DIR.lock holds its process id.
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
	[ -z "${HERD_PREBUILD:-}" ] && [ -d "$HERD_DIR.lock" ] || return 0
	_hp=$(cat "$HERD_DIR.lock/pid" 2>/dev/null)
	while [ -d "$HERD_DIR.lock" ]; do
		if [ -n "$_hp" ] && ! kill -0 "$_hp" 2>/dev/null; then
			rm -rf "$HERD_DIR.lock"
			break
		fi
		sleep 2
		[ -n "$_hp" ] || _hp=$(cat "$HERD_DIR.lock/pid" 2>/dev/null)
	done
}

herd_run() {
	"$HERD" -set-libdir "$HERD_LIB" -model "$1" "$2"
}
