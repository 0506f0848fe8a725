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
# series: the patch series (tools/series/series.sh) on the vendored
# OpenBSD tree, each diff applied, its notices checked, compiled and
# (tech@ steps) run under the regress; refusals (doc/series.md,
# "Checks").

. "$ROOT/tools/lib/vendor.sh"
. "$ROOT/tools/lib/kcompile.sh"
. "$ROOT/tools/lib/config8.sh"
. "$ROOT/tools/lib/realtree.sh"
. "$ROOT/tools/lib/stock.sh"
. "$ROOT/tools/lib/notices.sh"

SE=$OBJ/series
SER=$ROOT/tools/series/series.sh
unset MPLOCK_ROOT
rm -rf "$SE"
mkdir -p "$SE"

# se_copy STOCK DIR: a fresh copy of sys and the man9 pages.
se_copy() {
	rm -rf "$2"
	mkdir -p "$2/share/man" &&
	    cp -R "$1/sys" "$2/" &&
	    cp -R "$1/share/man/man9" "$2/share/man/"
}

# se_patched FROM DIR [DIFF...]: a copy of tree FROM patched with
# DIFF... (patch(1), no fuzz), or else with mplock-patch apply.
se_patched() {
	_pt=$2
	se_copy "$1" "$_pt" || return 1
	shift 2
	[ $# -gt 0 ] || { sh "$ROOT/tools/mplock-patch" apply "$_pt" >/dev/null
	    return; }
	for _d; do
		(cd "$_pt" && patch -s -p0 -F0 <"$_d") ||
		    { echo "${_d##*/} does not apply"; return 1; }
	done
}

# se_layout DIR: a cover letter and N diffs named NNNN-word.diff, each
# "[PATCH k/N]" with a diffstat, and nothing else.
se_layout() {
	_d=$1
	_n=$(ls "$_d"/*.diff | wc -l | tr -d ' ')
	head -n 1 "$_d/0000-cover.txt" | grep -q "^Subject: \[PATCH 0/$_n\] " &&
	    [ "$(ls "$_d" | wc -l)" -eq $((_n + 1)) ] ||
	    { echo "$_d: no [PATCH 0/$_n] cover, or other files"; return 1; }
	_i=0
	for _f in "$_d"/*.diff; do
		_i=$((_i + 1))
		_k=$(printf %04d $_i)
		echo "${_f##*/}" | grep -qx "$_k-[a-z0-9-][a-z0-9-]*\.diff" &&
		    head -n 1 "$_f" | grep -q "^Subject: \[PATCH $_i/$_n\] " &&
		    grep -Eq '^ [0-9]+ files? changed' "$_f" || {
			echo "$_f: not $_k-word.diff, no" \
			    "\"Subject: [PATCH $_i/$_n]\", or no diffstat"
			return 1
		}
	done
	echo "${_d##*/}: $_n diffs"
}

# se_write: the series of the vendored tree with a port whose
# <machine/mplock.h> here sets a longer cache line (arm64: its stock
# header written as amd64's, public domain and __USE_MI_MPLOCK), so
# that the tech@ series gets the port's step.
se_write() {
	_t=$SE/arm
	se_copy "$SE/stock" "$_t" || return 1
	mkdir -p "$_t/sys/arch/arm64/include" &&
	    sed 's/mplock\.h,v [0-9.]* .* Exp/mplock.h,v 1.1 visa Exp/' \
	    "$SE/stock/sys/arch/amd64/include/mplock.h" \
	    >"$_t/sys/arch/arm64/include/mplock.h" &&
	    printf '#define MAXCPUS\t256\n' >"$_t/sys/arch/arm64/include/cpu.h" ||
	    return 1
	sh "$SER" "$_t" "$SE/out" || return 1
	cat "$SE/out"/*/*.diff "$SE/out"/*/0000-cover.txt |
	    sed -n 's/^Subject: //p'
	se_layout "$SE/out/tech" && se_layout "$SE/out/optional" || return 1
	[ "$(ls "$SE/out/tech" | sed -n 2,6p | tr '\n' ' ')" = \
	    "0001-release-all.diff 0002-mlock.diff 0003-acquire-count.diff 0004-not-held.diff 0005-arm64.diff " ] ||
	    { echo "tech: not the stock fix, the M-lock, its two changes," \
	    "the port's line"
	    return 1; }
}

# se_touches FILE FILES: the diff touches exactly FILES.
se_touches() {
	_ix=$(sed -n 's/^Index: //p' "$1" | tr '\n' ' ')
	[ "$_ix" = "$2 " ] || { echo "${1##*/} touches: $_ix"; return 1; }
}

# The M-lock: kern_lock.c and sys/mplock.h only, in budget (220 lines
# but for the per-port memory lines); a swap with the barriers
# membar_sync(9) allows next to it, no full fence.
se_mlock() {
	_f=$SE/out/tech/0002-mlock.diff
	_l=$(grep -cvE '^[a-z0-9]+: [0-9,]+ bytes \(stock: ' "$_f")
	echo "0002: $_l lines"
	[ "$_l" -le 220 ] || { echo "over the budget of 220 lines"; return 1; }
	se_touches "$_f" "sys/kern/kern_lock.c sys/sys/mplock.h" || return 1
	for _w in atomic_swap_ptr membar_exit membar_datadep_consumer \
	    membar_enter_after_atomic CACHELINE; do
		grep -q "^+.*$_w" "$_f" || { echo "no $_w"; return 1; }
	done
	if grep -nE '^\+.*(membar_enter\(\)|membar_sync\(\)|_before_atomic)' \
	    "$_f"; then
		echo "a full fence, or an _atomic barrier next to the swap"
		return 1
	fi
	if grep -nE '^\+.*[^_]64\)' "$_f"; then
		echo "a literal line size"
		return 1
	fi
}

# 0001, 0003 and 0004: kern_lock.c alone; the stock fix small.
se_kernlock() {
	for _w in release-all acquire-count not-held; do
		_f=$(ls "$SE/out/tech/"*-$_w.diff)
		se_touches "$_f" sys/kern/kern_lock.c || return 1
		_c=$(grep -c '^[-+][^-+]' "$_f")
		echo "${_f##*/}: $_c lines changed"
		[ $_w != release-all ] || [ "$_c" -le 10 ] || return 1
	done
}

# A patched tree, a changed ticket lock, a non-empty DIR and misuse:
# refused, nothing written, every message prefixed.
se_refuse() {
	for _t in whole dirty; do
		if [ $_t = dirty ]; then
			se_copy "$SE/stock" "$SE/dirty"
			sed 's/mpl->mpl_ticket = 1;/mpl->mpl_ticket = 2;/' \
			    "$SE/stock/sys/kern/kern_lock.c" \
			    >"$SE/dirty/sys/kern/kern_lock.c"
		fi
		if sh "$SER" "$SE/$_t" "$SE/no-$_t" 2>"$SE/$_t.err"; then
			echo "series of $_t passed"
			return 1
		fi
		tail -n 1 "$SE/$_t.err"
		grep -qv '^\(mplock-patch\|series\): ' "$SE/$_t.err" && return 1
		[ ! -e "$SE/no-$_t" ] || return 1
	done
	sh "$SER" "$SE/stock" "$SE/out" 2>/dev/null && return 1
	for _a in "" "$SE/stock" "-x $SE/stock $SE/x" "$SE/stock $SE/x y"; do
		sh "$SER" $_a >/dev/null 2>"$SE/usage.err"
		[ $? -eq 1 ] || { echo "series $_a: not exit 1"; return 1; }
		grep -q '^usage: series.sh ' "$SE/usage.err" || return 1
	done
}

# The port's step: its header alone, its line and memory.
se_line() {
	_f=$SE/out/tech/0005-arm64.diff
	se_touches "$_f" sys/arch/arm64/include/mplock.h || return 1
	grep -q '^+#define __MPL_CACHELINE' "$_f" &&
	    grep -q '^arm64: [0-9,]* bytes (stock: [0-9,]*), MAXCPUS' "$_f"
}

# se_apply FILE: patch the series tree with FILE, no fuzz, nothing left
# over; first its notices against the tree as it is.
se_apply() {
	notices_diff "$SE/rt/src" "$1" || return 1
	(cd "$SE/rt/src" && patch -p0 -F0 -s <"$1") || return 1
	_left=$(cd "$SE/rt/src" && find . -name '*.rej' -o -name '*.orig')
	[ -z "$_left" ] || { echo "left over: $_left"; return 1; }
}

# se_compile K FILE ARCH COMBO...: compile what step K touched in the
# tree as it is now: its C files, and with a header the files that
# include the lock's (kern_lock.c, kern_mplock.c where there).
se_compile() {
	_k=$1 _f=$2 _a=$3
	shift 3
	sed -n 's|^Index: sys/||p' "$_f" >"$SE/touched-$_k"
	{
		grep '\.c$' "$SE/touched-$_k"
		if grep -q '\.h$' "$SE/touched-$_k"; then
			echo kern/kern_lock.c
			[ ! -f "$SE/rt/src/sys/kern/kern_mplock.c" ] ||
			    echo kern/kern_mplock.c
		fi
	} | sort -u >"$SE/files-$_k"
	# config(8) anew only when the step changed what it reads.
	if [ ! -d "$SE/rt/$_a" ] || grep -q 'conf/' "$SE/touched-$_k"; then
		realtree_arch "$SE/rt" "$_a" || return 1
	fi
	realtree_jobs "$SE/rt" "$_a" obj "$SE/files-$_k" "$@" |
	    realtree_run "$SE/rt" "step$_k-$_a"
}

# se_sizeof ARCH: the memory line of 0002 for ARCH is what the compiler
# finds, for the stock tree and after the step.
se_sizeof() {
	_a=$1 _c=$DEFAULT_BACKEND,MULTIPROCESSOR
	_d=$SE/sizeof-$_a _fl=$SE/rt/$_a/flags
	rm -rf "$_d"
	mkdir -p "$_d"
	_realtree_flags "$SE/rt" "$_a" "$_c" &&
	    _base=$(realtree_sizeof "$_d/base" ${CLANG:-clang} \
	    $(cat "$_fl/base.$_c")) &&
	    _src=$(realtree_sizeof "$_d/src" ${CLANG:-clang} \
	    $(cat "$_fl/src.$_c")) || return 1
	_want=$(printf '%s: %s bytes (stock: %s)' "$_a" "$_src" "$_base" |
	    sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\([ ,)]\)/\1,\2\3/' -e 'ta')
	echo "compiler: $_want"
	grep -q "^$_want, MAXCPUS" "$SE/out/tech/0002-mlock.diff" || {
		grep "^$_a: " "$SE/out/tech/0002-mlock.diff"
		echo "0002 does not say so"
		return 1
	}
}

# config on a tree patched with patch(1) (0001 and 0002): written, with
# no record; again, another backend, an option whose file the tree
# lacks: refused, nothing written.
se_config() {
	_t=$SE/cfg
	se_patched "$SE/stock" "$_t" "$SE/out/tech/0001-release-all.diff" \
	    "$SE/out/tech/0002-mlock.diff" || return 1
	sh "$ROOT/tools/mplock-patch" config -n Q -s "$_t" amd64 \
	    >"$SE/cfg.out" 2>&1 || {
		cat "$SE/cfg.out"
		return 1
	}
	grep -q '^mplock-patch: no record of mplock-patch' "$SE/cfg.out" &&
	    [ -f "$_t/sys/arch/amd64/conf/Q" ] &&
	    [ -f "$_t/sys/arch/amd64/compile/Q/Makefile" ] &&
	    [ ! -e "$_t/.mplock-patch" ] || { echo "not as expected"; return 1; }
	_sum=$(cksum <"$_t/sys/arch/amd64/conf/Q")
	for _a in "-n Q" "-b ticket -n R" "-o MPLOCK_TORTURE -n R"; do
		if sh "$ROOT/tools/mplock-patch" config $_a -s "$_t" amd64 \
		    2>"$SE/cfg.err"; then
			echo "config $_a passed"
			return 1
		fi
		head -n 1 "$SE/cfg.err"
	done
	[ ! -e "$_t/sys/arch/amd64/conf/R" ] &&
	    [ ! -e "$_t/sys/arch/amd64/compile/R" ] &&
	    [ "$(cksum <"$_t/sys/arch/amd64/conf/Q")" = "$_sum" ]
}

# se_regress NAME TREE PASS|FAIL TEST...: mplocktest built with the lock
# of TREE's kern_lock.c (tools/lib/stock.sh) passes, or fails, TEST...
# (Not "intr": its 200-microsecond windows need an idle host; the
# torture's timeouts nest on waiting CPUs too.)
se_regress() {
	_n=$1 _t=$2 _want=$3
	shift 3
	_d=$SE/regress-$_n
	stock_build "$_d" "$_t" "$_n" mplocktest || {
		cat "$_d/build.log"
		return 1
	}
	"$_d/mplocktest" -w 10 "$@" >"$_d/out" 2>&1
	_rc=$?
	grep -E '(PASS|FAIL|SKIP)' "$_d/out" | grep -v '^ '
	if [ "$_want" = FAIL ]; then
		[ "$_rc" -ne 0 ] && grep -q 'FAIL' "$_d/out"
	else
		[ "$_rc" -eq 0 ] && ! grep -q 'FAIL' "$_d/out"
	fi
}

# The series' end is apply's (the port's header, absent from the stock
# tree, aside): ours under the tree's ID line.
se_final() {
	rm -rf "$SE/whole/.mplock-patch"
	for _d in sys share/man/man9; do
		diff -r -x arm64 "$SE/whole/$_d" "$SE/rt/src/$_d" | head -n 20
		diff -r -x arm64 "$SE/whole/$_d" "$SE/rt/src/$_d" >/dev/null ||
		    return 1
	done
	tail -n +2 "$ROOT/sys/arch/arm64/include/mplock.h" >"$SE/arm-ours"
	tail -n +2 "$SE/rt/src/sys/arch/arm64/include/mplock.h" |
	    cmp - "$SE/arm-ours"
}

stock=$(vendor_tree openbsd-src)
rc=$?
if [ $rc -eq 77 ]; then
	t_skip "series" "no vendored OpenBSD tree"
elif [ $rc -ne 0 ]; then
	t_fail "series" "cannot extract the vendored tree"
elif ! command -v unifdef >/dev/null 2>&1; then
	t_skip "series" "unifdef not installed"
else
	ln -s "$stock" "$SE/stock"
	t_check "series/write" se_write
	t_check "series/tech/kern_lock-alone" se_kernlock
	t_check "series/tech/0002-budget-and-barriers" se_mlock
	t_check "series/port-line-step" se_line
	t_check "series/config-patched-by-patch" se_config
	# The stock fix's test fails on the stock lock.
	t_check "series/tech/0001-regress-fails-on-stock" se_regress stock \
	    "$stock" FAIL releaseidle
	# tools/lib/realtree.sh: rt/src patched step by step, rt/base stock;
	# the tree realtree_setup patched with apply is whole.
	cc_ok=1
	realtree_setup "$SE/rt" >"$SE/rt.log" 2>&1
	case $? in
	0)	mv "$SE/rt/src" "$SE/whole" ;;
	77)	cc_ok=
		t_skip "series/compile" "$(tail -n 1 "$SE/rt.log")" ;;
	*)	cc_ok=
		t_fail "series/compile" "realtree_setup failed" "$SE/rt.log" ;;
	esac
	[ -n "$cc_ok" ] || se_patched "$stock" "$SE/whole"
	t_check "series/refuse" se_refuse
	rm -rf "$SE/rt/src"
	se_copy "$SE/arm" "$SE/rt/src"
	NM=$(command -v llvm-nm || command -v llvm-nm-14)
	d=$DEFAULT_BACKEND
	all=WITNESS,MP_LOCKDEBUG,MPLOCK_DEBUG,DDB
	k=0
	for f in "$SE/out"/tech/*.diff "$SE/out"/optional/*.diff; do
		[ -f "$f" ] || break
		k=$((k + 1))
		s=${f%/*}
		n=${s##*/}/$(basename "$f" .diff)
		t_check "series/$n/apply" se_apply "$f"
		# The later steps need this one.
		grep -q "^FAIL series/$n/apply\$" "$RESULTS" && break
		# tech@'s lock under the regress: the tests stock passes,
		# then all.
		rt="releaseidle mutex fifo multi lockorder torture"
		case $n in
		tech/*-not-held) rt="$rt recurse spinout intrunlock" ;;
		tech/0001-*|tech/0002-*) ;;
		*)	rt= ;;
		esac
		[ -z "$rt" ] || t_check "series/$n/regress" se_regress \
		    "${n#*/}" "$SE/rt/src" PASS $rt
		[ -n "$cc_ok" ] || continue
		case $n in
		*-man|*-arm64)	continue ;;
		tech/*)	combos="$d,MULTIPROCESSOR
			    $d,MULTIPROCESSOR,WITNESS,MP_LOCKDEBUG,DDB" ;;
		*-backends)
			combos="$(printf '%s,MULTIPROCESSOR ' $BACKENDS)"
			combos="$combos $d,MULTIPROCESSOR,$all" ;;
		*)	combos="$d,MULTIPROCESSOR $d,MULTIPROCESSOR,$all" ;;
		esac
		for a in amd64 i386; do
			t_check "series/$n/compile-$a" se_compile "$k" "$f" \
			    "$a" $combos
		done
		case $n in
		tech/0002-*) [ -z "$NM" ] || for a in amd64 i386; do
			t_check "series/$n/sizeof-$a" se_sizeof "$a"
		done ;;
		esac
	done
	t_check "series/final-is-apply" se_final
fi
