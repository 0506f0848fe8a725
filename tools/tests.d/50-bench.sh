# bench: a short run of the benchmark (no timing asserted) must have
# every row, figure, ratio, interval and verdict; the statistics must be
# right on canned runs; stock must be the vendored tree's block or stop
# the benchmark; the measuring core must notice a lock that does not
# exclude.

. "$ROOT/tools/lib/vendor.sh"
. "$ROOT/tools/lib/stock.sh"

BENCH_OUT=$OBJ/bench-smoke

# The vendored OpenBSD tree, when it is there.
BENCH_VTREE=$(vendor_tree openbsd-src 2>/dev/null) || BENCH_VTREE=

# The rows the run must have: our backends, the default one without its
# guest mode, stock and the tech@ steps with the vendored tree, the
# floor with two CPUs.
bench_rows() {
	echo $BACKENDS $DEFAULT_BACKEND-noguest
	[ -n "$BENCH_VTREE" ] && echo stock stock-fix mlock-diff
	[ "$(ncpu_online)" -ge 2 ] && echo pingpong
}

bench_smoke() {
	rm -rf "$BENCH_OUT"
	sh "$ROOT/tools/bench.sh" -r 6 -d 0.05 -t "1 2" -o "$BENCH_OUT" \
	    >"$BENCH_OUT.stdout" || return 1
	cat "$BENCH_OUT.stdout"
	_raw=$BENCH_OUT/raw.txt
	_txt=$BENCH_OUT/bench.txt
	for _l in $(bench_rows); do
		case $_l in
		pingpong) _want="pingpong,2" ;;
		*) _want="uncontended,1 contended,1 contended,2" ;;
		esac
		for _w in $_want; do
			_k="mode=${_w%,*} threads=${_w#*,}"
			_n=$(grep -c " backend=$_l src=[^ ]* $_k " "$_raw")
			[ "$_n" -eq 6 ] ||
			    { echo "$_l $_w: $_n runs in raw.txt, not 6"; return 1; }
		done
		# The uncontended and contended tables; the floor is in the
		# second only.
		_n=$(grep -c "^$_l " "$_txt")
		[ "$_l" = pingpong ] && _n=$((_n + 1))
		[ "$_n" -eq 2 ] ||
		    { echo "$_l: in $_n tables of bench.txt, not 2"; return 1; }
	done
	# Every figure a number; the verdict tables, one per base, a line
	# for every lock but the base and the floor in every measure
	# (uncontended, 1 and 2 threads), each with its interval (six runs:
	# six pairs, the fewest that have one; the figures themselves are
	# bench/statistics').
	_bases=ticket
	[ -n "$BENCH_VTREE" ] && _bases="stock ticket"
	_nl=$(bench_rows | wc -w)
	[ "$(ncpu_online)" -ge 2 ] && _nl=$((_nl - 1))
	awk -v rows="$(bench_rows)" -v bases="$_bases" \
	    -v want=$(((_nl - 1) * 3)) '
	BEGIN { split(rows, r, " "); for (i in r) R[r[i]] = 1
		num = "^[0-9]+(\\.[0-9]+)?$"
		vl = "^(uncontended|[12] thr[*]?) +[a-z-]+ +([0-9.]+|>999) +" \
		    "[[][0-9.]+, ([0-9.]+|>999)[]] +" \
		    "(faster|slower|no difference proven)$" }
	function bad(why) { print why ": " $0; err = 1 }
	/^Uncontended/ { k = "u"; next }
	/^Contended/ { k = "c"; next }
	/^Verdicts against / { k = "v"; b = $3; next }
	/^$/ { k = ""; next }
	k == "v" && $0 ~ vl {
		n[b]++
		next
	}
	{ sub(/ \(floor\)/, "") }
	!($1 in R) { next }
	k == "u" && $2 !~ num ||
	    k == "c" && ($(NF - 1) !~ num || $1 != "pingpong" && $2 !~ num) {
		bad("not a number")
	}
	END {
		for (i = split(bases, B, " "); i > 0; i--)
			if (n[B[i]] != want) {
				print "against " B[i] ": " n[B[i]] + 0 \
				    " verdict lines, not " want
				err = 1
			}
		exit err
	}' "$_txt" || return 1
	# Pinned, or said that it is not.
	grep -Eq '^(threads pinned|pinning: UNAVAILABLE)' "$_txt" ||
	    { echo "no word on pinning"; return 1; }
	# The results file: the table, which opens with its header.
	cmp "$_txt" "$BENCH_OUT"/results-*.txt || return 1
	for _h in date machine command load; do
		grep -q "^# $_h: ." "$_txt" ||
		    { echo "no # $_h: line"; return 1; }
	done
	if [ -n "$BENCH_VTREE" ]; then
		grep -q ' backend=stock src=openbsd ' "$_raw" ||
		    { echo "stock does not say it is OpenBSD's"; return 1; }
		grep -q '^stock: the ticket lock block of OpenBSD' "$_txt" ||
		    { echo "no word on where stock comes from"; return 1; }
	fi
}
t_check "bench/smoke" bench_smoke

# The statistics on canned runs, worked out independently: ns of
# repetitions 1, 2, ... ("-": none), their lines shuffled (pairs go by
# rep=).  The sign test's interval is order statistics 2 and 8 of 9;
# six pairs are the fewest with an interval, five have none and so no
# verdict, eight have only the extremes (P(B <= 1) = 9/256 > 2.5%).
# bimodal, a real run with one pair in different modes: the median
# still proves the M-lock faster.
bench_stats() {
	stats_awk "$OBJ/stats.awk" || return 1
	awk '{ for (i = 4; i <= NF; i++) if ($i != "-")
		printf "rep=%d backend=%s src=fixture mode=%s threads=%d" \
		    " ns=%s\n", i - 3, $1, $2, $3, $i }' <<-'EOT' |
	base uncontended 1 100 102 98 101 99 100 103 97 100
	same uncontended 1 100 102 98 101 99 100 103 97 100
	fast uncontended 1 50 52 49 50 51 50 51 49 50
	slow uncontended 1 200 210 190 205 195 200 206 196 202
	noisy uncontended 1 80 127.5 88.2 111.1 99 105 92 118 96
	six uncontended 1 50 52 49 50 51 50
	five uncontended 1 50 52 49 50 51
	eight uncontended 1 49 53 50 50 52 50 51 48
	one uncontended 1 - - 50
	base contended 2 351.2 399.9 75.4 82.1 335.1 81.0 84.2 74.0 80.7
	bimodal contended 2 310.5 73.6 73.3 75.3 305.7 78.3 77.6 70.9 77.2
	EOT
	    sort -t= -k7n >"$OBJ/bench-stats.raw"
	_out=$(awk -v rows="base same fast slow noisy six five eight one bimodal" \
	    -v threads=2 -v ncpu=2 -v bases=base \
	    -f "$OBJ/stats.awk" \
	    -f "$ROOT/tools/lib/bench-report.awk" \
	    "$OBJ/bench-stats.raw") || return 1
	echo "$_out"
	for _want in \
	    "uncontended same 1.000 [1.000, 1.000] no difference proven" \
	    "uncontended fast 0.500 [0.495, 0.510] faster" \
	    "uncontended slow 2.000 [1.970, 2.030] slower" \
	    "uncontended noisy 1.000 [0.893, 1.216] no difference proven" \
	    "uncontended six 0.500 [0.495, 0.515] faster" \
	    "uncontended five 0.500 [-, -] no difference proven" \
	    "uncontended eight 0.498 [0.490, 0.525] faster" \
	    "uncontended one 0.510 [-, -] no difference proven" \
	    "2 thr bimodal 0.922 [0.884, 0.967] faster"; do
		echo "$_out" | tr -s ' ' | grep -qxF "$_want" ||
		    { echo "missing: $_want"; return 1; }
	done
}
t_check "bench/statistics" bench_stats

# Misuse: an unknown option, a missing or bad value, an operand.
t_check "bench/usage" t_usage bench tools/bench.sh "-x" "-r" "-r x" "-r 0" \
    "-r ''" "-t x" "-t 0" "-d x" "-d 0" "-d 1.2.3" "operand"

# The stock peer's source is the vendored kern_lock.c's ticket lock
# block, and nothing else: a file without the block's markers stops make
# bench's driver, saying why, before it builds or measures anything.
bench_stock_extract() {
	_d=$OBJ/bench-stock-extract
	_kl=$BENCH_VTREE/sys/kern/kern_lock.c
	rm -rf "$_d"
	mkdir -p "$_d" || return 1
	stock_extract "$_kl" >"$_d/block.c" || return 1
	head -n 3 "$_d/block.c"
	grep -q '^/\* Ticket lock implementation \*/$' "$_d/block.c" &&
	    grep -q '^__mp_lock(struct __mp_lock \*mpl)$' "$_d/block.c" &&
	    tail -n 1 "$_d/block.c" | grep -qx '#endif /\* __USE_MI_MPLOCK \*/' ||
	    { echo "not the ticket lock block"; return 1; }
	# Seeded, each into a vendored tarball for tools/bench.sh: without
	# the comment line, without the closing line, with a definition that
	# belongs outside the block (mplock-patch's check: the parser is the
	# same).
	_b=$_d/bad _t=$_d/bad/src/openbsd-src/sys
	for _seed in '/^\/\* Ticket lock implementation \*\/$/d' \
	    '/^#endif \/\* __USE_MI_MPLOCK \*\/$/d' \
	    '/^\/\* Ticket lock implementation \*\/$/a\
long __mp_lock_spinout = 1;'; do
		rm -rf "$_b"
		mkdir -p "$_b/vendor" "$_t/kern" "$_t/sys" &&
		    sed "$_seed" "$_kl" >"$_t/kern/kern_lock.c" &&
		    cp "$BENCH_VTREE/sys/sys/mplock.h" "$_t/sys/" || return 1
		cmp -s "$_kl" "$_t/kern/kern_lock.c" &&
		    { echo "seed $_seed changed nothing"; return 1; }
		(cd "$_b/src" && tar -cf - openbsd-src) |
		    xz -0 >"$_b/vendor/openbsd-src.tar.xz" || return 1
		if OBJ=$_b/obj MPLOCK_VENDOR=$_b/vendor sh "$ROOT/tools/bench.sh" \
		    -r 1 -d 0.02 -t 1 -o "$_b/out" >"$_b/stdout" 2>"$_b/err"
		then
			echo "seed $_seed: bench.sh ran anyway"
			return 1
		fi
		cat "$_b/err"
		grep -q 'stock_extract: .*kern_lock.c: ' "$_b/err" &&
		    grep -q 'build of the stock peer failed' "$_b/err" ||
		    { echo "seed $_seed: failed without saying why"; return 1; }
		[ ! -e "$_b/out/bench.txt" ] &&
		    [ ! -e "$_b/out/stock/mplockbench" ] &&
		    [ ! -e "$_b/out/stock/stock_lock.c" ] ||
		    { echo "seed $_seed: left a table, program or source"
		    return 1; }
	done
}
if [ -n "$BENCH_VTREE" ]; then
	t_check "bench/stock-extract" bench_stock_extract
else
	t_skip "bench/stock-extract" "no vendored OpenBSD tree"
fi

# The measuring core checks mutual exclusion: a "lock" that takes
# nothing must fail the run (lost updates of the counter it protects;
# tried five times, in case the machine is too busy to overlap them).
bench_catches_nolock() {
	_d=$OBJ/bench-nolock
	mkdir -p "$_d"
	cat >"$_d/nolock.c" <<-'EOF'
	#include "bench.h"
	static void nl_init(int n) { }
	static void nl_lock(struct bench_thread *bt) { }
	static const struct bench_lock nl = {
		"nolock", nl_init, NULL, nl_lock, nl_lock
	};
	int main(int argc, char *argv[])
	{ return (bench_main(argc, argv, "test", &nl, 8)); }
	EOF
	$CC -std=gnu99 -O2 -pthread -I"$BENCH" -o "$_d/nolock" \
	    "$_d/nolock.c" "$BENCH/bench.c" || return 1
	for _i in 1 2 3 4 5; do
		"$_d/nolock" -d 0.1 -t 4 contended >"$_d/out" 2>&1
		_rc=$?
		cat "$_d/out"
		[ "$_rc" -eq 1 ] &&
		    grep -q 'mutual exclusion broken' "$_d/out" && return 0
	done
	return 1
}
t_check "bench/catches-no-exclusion" bench_catches_nolock
