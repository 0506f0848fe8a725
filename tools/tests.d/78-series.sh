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
# series: "mplock-patch series" on the vendored OpenBSD tree.  Each diff
# applies with patch -p0 (no fuzz) on top of the ones before, on a fresh
# stock copy, and the files it touched compile in the real-tree matrix
# for amd64 and i386 (tools/lib/realtree.sh): 0001, the M-lock in place,
# and 0002-0004, its three changes to stock behaviour, kern_lock.c with
# MULTIPROCESSOR and with MULTIPROCESSOR, WITNESS, MP_LOCKDEBUG and DDB,
# and its M-lock under the regress harness after 0001 and after 0004;
# the backends under every backend; the later ones with their options
# off and on.  0001 keeps within its budget (300 lines),
# adds no file and drops no notice; a lowered budget
# (MPLOCK_SERIES_BUDGET) makes series fail and write nothing; a patched
# tree, a changed ticket lock and misuse are refused; -b offers one
# backend; the last tree is what apply makes.

. "$ROOT/tools/lib/vendor.sh"
. "$ROOT/tools/lib/kcompile.sh"
. "$ROOT/tools/lib/realtree.sh"

SE=$OBJ/series
TOOL=$ROOT/tools/mplock-patch
unset MPLOCK_ROOT MPLOCK_SERIES_BUDGET
rm -rf "$SE"
mkdir -p "$SE"

# se_copy STOCK DIR: the parts of a tree the series changes (sys, the
# man9 pages), as a fresh copy.
se_copy() {
	rm -rf "$2"
	mkdir -p "$2/share/man" &&
	    cp -R "$1/sys" "$2/" &&
	    cp -R "$1/share/man/man9" "$2/share/man/"
}

se_write() {
	sh "$TOOL" series "$SE/stock" "$SE/out" || return 1
	cat "$SE/out"/*.diff | sed -n 's/^Subject: //p' 
	_n=$(ls "$SE/out" | wc -l | tr -d ' ')
	[ "$_n" -ge 6 ] || { echo "only $_n diffs"; return 1; }
	ls "$SE/out" | awk '{
		if ($0 !~ /^[0-9][0-9][0-9][0-9]-[a-z0-9-]+\.diff$/ ||
		    substr($0, 1, 4) + 0 != NR) {
			print "bad name: " $0
			exit 1
		}
	}' || return 1
	_i=0
	for _f in "$SE/out"/*.diff; do
		_i=$((_i + 1))
		head -n 1 "$_f" | grep -q "^Subject: \[PATCH $_i/$_n\] " || {
			echo "$_f: no \"Subject: [PATCH $_i/$_n]\" line"
			return 1
		}
		grep -q '^ [0-9]* files changed' "$_f" || {
			echo "$_f: no diffstat"
			return 1
		}
	done
	ls "$SE/out/0001-mlock.diff" >/dev/null
}

# 0002 to 0004: each of the front end's changes to stock behaviour on
# its own, in kern_lock.c alone, naming the seeded bug (a mutant that
# exists) its regress test catches.
se_parity() {
	for _w in release-all acquire-count not-held; do
		_f=$(ls "$SE/out/"*-$_w.diff 2>/dev/null)
		[ -f "$_f" ] || { echo "no $_w diff"; return 1; }
		_ix=$(sed -n 's/^Index: //p' "$_f" | tr '\n' ' ')
		[ "$_ix" = "sys/kern/kern_lock.c " ] || {
			echo "${_f##*/} touches: $_ix"
			return 1
		}
		_m=$(sed '/^Index: /q' "$_f" | tr '\n' ' ' |
		    sed -n 's/.*seeded bug \([a-z0-9-]*[a-z0-9]\).*/\1/p')
		[ -n "$_m" ] && [ -f "$REGRESS/mutants/$_m.sed" ] || {
			echo "${_f##*/}: names no seeded bug of" \
			    "$REGRESS/mutants (\"$_m\")"
			return 1
		}
		echo "${_f##*/}: $(grep -c '^[-+][^-+]' "$_f") lines" \
		    "changed; seeded bug $_m"
	done
}

# The M-lock in place: kern_lock.c and sys/mplock.h only, in budget, no
# notice or ID line removed, no MD header.
se_first() {
	_f=$SE/out/0001-mlock.diff
	_l=$(wc -l <"$_f" | tr -d ' ')
	echo "0001: $_l lines"
	[ "$_l" -le 300 ] || { echo "over 300 lines"; return 1; }
	_ix=$(sed -n 's/^Index: //p' "$_f" | tr '\n' ' ')
	[ "$_ix" = "sys/kern/kern_lock.c sys/sys/mplock.h " ] || {
		echo "0001 touches: $_ix"
		return 1
	}
	if grep -n '^-.*\(Copyright\|\$OpenBSD\|SOFTWARE\)' "$_f"; then
		echo "0001 removes a notice line"
		return 1
	fi
	grep -q 'atomic_swap_ptr' "$_f" && grep -q 'membar_sync()' "$_f"
}

se_over_budget() {
	if MPLOCK_SERIES_BUDGET=50 sh "$TOOL" series "$SE/stock" \
	    "$SE/over" 2>"$SE/over.err"; then
		echo "series passed with a budget of 50 lines"
		return 1
	fi
	cat "$SE/over.err"
	grep -q \
	    '^mplock-patch: 0001-mlock.diff: [0-9]* lines, over the budget of 50' \
	    "$SE/over.err" || return 1
	[ ! -e "$SE/over" ] || { echo "wrote $SE/over"; return 1; }
}

# -b: one backend's front end in 0002, ending where diff -b does (which
# series checks itself).
se_one() {
	sh "$TOOL" series -b mcs "$SE/stock" "$SE/one" || return 1
	_ix=$(sed -n 's|^Index: sys/kern/kern_mplock_||p' \
	    "$SE/one/"*-backends.diff | tr '\n' ' ')
	[ "$_ix" = "mcs.h " ] || { echo "backends: adds $_ix"; return 1; }
}

# A patched tree, a dirty one, a non-empty DIR and misuse: refused,
# nothing written.
se_refuse() {
	se_copy "$SE/stock" "$SE/patched" &&
	    sh "$TOOL" apply "$SE/patched" >/dev/null || return 1
	for _t in patched dirty; do
		if [ $_t = dirty ]; then
			se_copy "$SE/stock" "$SE/dirty"
			sed 's/mpl->mpl_ticket = 1;/mpl->mpl_ticket = 2;/' \
			    "$SE/stock/sys/kern/kern_lock.c" \
			    >"$SE/dirty/sys/kern/kern_lock.c"
		fi
		if sh "$TOOL" series "$SE/$_t" "$SE/no-$_t" \
		    2>"$SE/$_t.err"; then
			echo "series of the $_t tree passed"
			return 1
		fi
		tail -n 1 "$SE/$_t.err"
		grep -qv '^mplock-patch: ' "$SE/$_t.err" && return 1
		[ ! -e "$SE/no-$_t" ] || return 1
	done
	sh "$TOOL" series "$SE/stock" "$SE/out" 2>/dev/null && return 1
	for _a in "" "$SE/stock" "-x $SE/stock $SE/x" "-b nosuch $SE/stock x"
	do
		sh "$TOOL" series $_a >/dev/null 2>"$SE/usage.err"
		[ $? -eq 1 ] || { echo "series $_a: not exit 1"; return 1; }
	done
	grep -q '^usage: mplock-patch ' "$SE/usage.err" ||
	    grep -q '^mplock-patch: nosuch: no such backend' "$SE/usage.err"
}

# se_apply K FILE: patch the series tree with step K, no fuzz, nothing
# left over.
se_apply() {
	(cd "$SE/rt/src" && patch -p0 -F0 -s <"$2") || return 1
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
	realtree_arch "$SE/rt" "$_a" || return 1
	realtree_jobs "$SE/rt" "$_a" obj "$SE/files-$_k" "$@" |
	    realtree_run "$SE/rt" "step$_k-$_a"
}

# config on a tree patched with patch(1) (0001 alone): written, with no
# record; again, another backend, an option whose file the tree lacks:
# refused, nothing written.
se_config() {
	_t=$SE/cfg
	rm -rf "$_t" && mkdir -p "$_t" && cp -R "$SE/stock/sys" "$_t/" &&
	    (cd "$_t" && patch -s -p0 -F0 <"$SE/out/0001-mlock.diff") ||
	    return 1
	sh "$TOOL" config -p qemu -n Q -s "$_t" amd64 >"$SE/cfg.out" 2>&1 || {
		cat "$SE/cfg.out"
		return 1
	}
	grep -q '^mplock-patch: no record of mplock-patch' "$SE/cfg.out" &&
	    [ -f "$_t/sys/arch/amd64/conf/Q" ] &&
	    [ -f "$_t/sys/arch/amd64/compile/Q/Makefile" ] &&
	    [ ! -e "$_t/.mplock-patch" ] || { echo "not as expected"; return 1; }
	_sum=$(cksum <"$_t/sys/arch/amd64/conf/Q")
	for _a in "-n Q" "-b ticket -n R" "-o MPLOCK_TORTURE -n R"; do
		if sh "$TOOL" config $_a -s "$_t" amd64 2>"$SE/cfg.err"; then
			echo "config $_a passed"
			return 1
		fi
		head -n 1 "$SE/cfg.err"
	done
	[ ! -e "$_t/sys/arch/amd64/conf/R" ] &&
	    [ ! -e "$_t/sys/arch/amd64/compile/R" ] &&
	    [ "$(cksum <"$_t/sys/arch/amd64/conf/Q")" = "$_sum" ]
}

# se_regress NAME TEST...: the regress harness (mplocktest) run against
# the M-lock as the tree after step NAME has it in kern_lock.c, in
# place of our front end and backends: the tree's sys/mplock.h, its
# kern_lock.c's __USE_MI_MPLOCK block, and our torture, with WITNESS,
# MP_LOCKDEBUG and DDB.  (Not "intr": its 200-microsecond windows need
# an idle host; the torture's timeouts nest on waiting CPUs too.)
se_regress() {
	_n=$1
	shift
	_d=$SE/regress-$_n
	_shim=$REGRESS/shim
	rm -rf "$_d"
	mkdir -p "$_d/o" "$_d/inc/sys" || return 1
	printf '%s\n' "struct cpu_info;" \
	    "#include \"$SE/rt/src/sys/sys/mplock.h\"" \
	    "void mplock_torture_start(void);" >"$_d/inc/sys/mplock.h"
	{
		for _h in param systm sched atomic witness mplock; do
			echo "#include <sys/$_h.h>"
		done
		echo "#include <ddb/db_output.h>"
		echo "#include <string.h>"
		awk '/^#ifdef[ \t]+__USE_MI_MPLOCK[ \t]*$/ { on = 1; b = "" }
		    on { b = b $0 "\n" }
		    on && /^#endif[ \t]+\/\* __USE_MI_MPLOCK \*\// {
			on = 0
			if (b ~ /\n___mp_lock_init\(/) { printf "%s", b; n++ }
		    }
		    END { exit n != 1 }' "$SE/rt/src/sys/kern/kern_lock.c"
	} >"$_d/lock.c" || { echo "no M-lock block in kern_lock.c"; return 1; }
	_f="$HARNESS_CFLAGS -I$_d/inc -I$_shim/include -I$_shim"
	_f="$_f -DMPLOCK_MLOCK -DWITNESS -DMP_LOCKDEBUG -DDDB -DMPLOCK_TORTURE"
	_f="$_f -DMPLT_FOREIGN_LOCK"
	for _c in "$_d/lock.c" "$_shim/shim.c" \
	    "$ROOT/sys/kern/kern_mplock_torture.c" "$REGRESS/mplocktest.c"; do
		$CC $_f -c "$_c" -o "$_d/o/$(basename "$_c" .c).o" ||
		    return 1
	done
	$CC $_f -o "$_d/mplocktest" "$_d"/o/*.o || return 1
	"$_d/mplocktest" -w 10 "$@" >"$_d/out" 2>&1
	_rc=$?
	grep -E '(PASS|FAIL|SKIP)' "$_d/out" | grep -v '^ '
	[ "$_rc" -eq 0 ] && ! grep -q 'FAIL' "$_d/out"
}

se_final() {
	se_copy "$SE/stock" "$SE/whole" &&
	    sh "$TOOL" apply "$SE/whole" >/dev/null || return 1
	rm -rf "$SE/whole/.mplock-patch"
	diff -r "$SE/whole" "$SE/rt/src" | head -n 20
	diff -r "$SE/whole" "$SE/rt/src" >/dev/null
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
	t_check "series/0001-budget" se_first
	t_check "series/parity" se_parity
	t_check "series/seeded/over-budget" se_over_budget
	t_check "series/refuse" se_refuse
	t_check "series/one-backend" se_one
	t_check "series/config-patched-by-patch" se_config
	# The real-tree matrix: the tree patched step by step is rt/src,
	# the stock one rt/base.
	cc_ok=1
	command -v bmake >/dev/null 2>&1 &&
	    command -v "${CLANG:-clang}" >/dev/null 2>&1 || cc_ok=
	for a in amd64 i386; do
		[ -n "$cc_ok" ] || break
		echo 'int x;' | "${CLANG:-clang}" -target \
		    "$(kernel_machine_info $a | cut -d' ' -f2)" \
		    -ffreestanding -nostdinc -fsyntax-only -x c - \
		    >/dev/null 2>&1 || cc_ok=
	done
	mkdir -p "$SE/rt/mk"
	ln -s "$stock" "$SE/rt/base"
	printf 'COMPILER_VERSION=clang\nNOPIE_FLAGS=-fno-pie\n' \
	    >"$SE/rt/mk/bsd.own.mk"
	: >"$SE/rt/mk/sys.mk"
	se_copy "$stock" "$SE/rt/src"
	[ -n "$cc_ok" ] || t_skip "series/compile" \
	    "bmake or clang's OpenBSD targets missing"
	d=$DEFAULT_BACKEND
	all=WITNESS,MP_LOCKDEBUG,MPLOCK_DEBUG,DDB
	k=0
	for f in "$SE/out"/*.diff; do
		[ -f "$f" ] || break
		k=$((k + 1))
		n=$(basename "$f" .diff)
		t_check "series/$n/apply" se_apply "$k" "$f"
		# The later steps need this one.
		grep -q "^FAIL series/$n/apply\$" "$RESULTS" && break
		# The M-lock of the first steps, in kern_lock.c, under the
		# regress tests: after 0001 those the stock behaviour it keeps
		# passes, after the three changes to it all.
		case $n in
		0001-*)	t_check "series/$n/regress" se_regress "$n" \
			    mutex fifo multi witness lockorder torture ;;
		*-not-held)
			t_check "series/$n/regress" se_regress "$n" \
			    mutex fifo recurse multi spinout intrunlock \
			    witness lockorder torture ;;
		esac
		[ -n "$cc_ok" ] || continue
		case $n in
		0001-*|*-release-all|*-acquire-count|*-not-held)
			combos="$d,MULTIPROCESSOR"
			combos="$combos $d,MULTIPROCESSOR,WITNESS"
			combos="$combos,MP_LOCKDEBUG,DDB" ;;
		*-backends)
			combos=$(for b in $BACKENDS; do
				echo "$b,MULTIPROCESSOR"; done)
			combos="$combos $d,MULTIPROCESSOR,$all" ;;
		*-man)	continue ;;
		*)	combos="$d,MULTIPROCESSOR $d,MULTIPROCESSOR,$all" ;;
		esac
		for a in amd64 i386; do
			t_check "series/$n/compile-$a" se_compile "$k" "$f" \
			    "$a" $combos
		done
	done
	t_check "series/final-is-apply" se_final
fi
