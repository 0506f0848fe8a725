# bench: a short run of the benchmark driver (tiny durations, no timing
# assertions): its table, CSV and plot must have every row, every figure
# must parse, and the measuring core must notice a lock that does not
# exclude.

BENCH_OUT=$OBJ/bench-smoke

# The rows the run must have: our backends, the Concurrency Kit peers
# when their headers can be used here, the floor with two CPUs.
bench_rows() {
	echo $BACKENDS
	if echo '#include <ck_spinlock.h>' | $CC -E - >/dev/null 2>&1; then
		case $(uname -m) in
		x86_64|amd64|i?86) echo ck-ticket ck-mcs ck-clh ck-anderson ;;
		esac
	fi
	[ "$(ncpu_online)" -ge 2 ] && echo pingpong
}

bench_smoke() {
	rm -rf "$BENCH_OUT"
	sh "$ROOT/tools/bench.sh" -r 2 -d 0.05 -t "1 2" -o "$BENCH_OUT" \
	    >"$BENCH_OUT.stdout" || return 1
	cat "$BENCH_OUT.stdout"
	_csv=$BENCH_OUT/bench.csv
	for _l in $(bench_rows); do
		case $_l in
		pingpong) _want="pingpong,2" ;;
		*) _want="uncontended,1 contended,1 contended,2" ;;
		esac
		for _w in $_want; do
			grep -q "^$_l,[a-z]*,${_w%,*},${_w#*,},0,0,2," \
			    "$_csv" ||
			    { echo "no $_l $_w row in bench.csv"; return 1; }
		done
		# Uncontended, contended, hand-off, fairness tables; the
		# floor is in the two middle ones.
		_n=$(grep -c "^$_l " "$BENCH_OUT/bench.txt")
		[ "$_l" = pingpong ] && _n=$((_n + 2))
		[ "$_n" -eq 4 ] ||
		    { echo "$_l: in $_n tables of bench.txt, not 4"; return 1; }
	done
	grep -q '^ticket,ours,uncontended,1,0,0,2,.*,1\.000,' "$_csv" ||
	    { echo "ticket is not its own baseline"; return 1; }
	# Every figure a number: ns, ratio, throughput; hand-off with two
	# threads; fairness a number or inf.
	awk -F, 'NR > 1 {
		num = "^[0-9]+(\\.[0-9]+)?$"
		if ($8 !~ num || $8 <= 0 || $11 !~ num || $12 !~ num ||
		    ($4 == 2 && $13 !~ num) ||
		    ($15 !~ num && $15 != "inf")) {
			print "bad figures: " $0
			bad = 1
		}
	} END { exit bad }' "$_csv" || return 1
	if command -v gnuplot >/dev/null 2>&1; then
		grep -q '<svg' "$BENCH_OUT/bench-cs0-ncs0.svg" ||
		    { echo "no SVG plot"; return 1; }
		[ -s "$BENCH_OUT/bench-cs0-ncs0.png" ] ||
		    { echo "no PNG plot"; return 1; }
	else
		grep -q 'plot: skipped' "$BENCH_OUT.stdout" ||
		    { echo "no gnuplot, and not said"; return 1; }
	fi
}
t_check "bench/smoke" bench_smoke

# -P: our backends and the floor only, and the table says so.
bench_nopeers() {
	_d=$OBJ/bench-nopeers
	sh "$ROOT/tools/bench.sh" -P -r 1 -d 0.02 -t 2 -o "$_d" || return 1
	! grep -q '^ck-' "$_d/bench.csv" || { echo "peers with -P"; return 1; }
	grep -q 'peers: not asked for' "$_d/bench.txt"
}
t_check "bench/no-peers" bench_nopeers

# The peers' adapter refuses machines libck's configuration is not for.
if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 &&
    echo '#include <ck_spinlock.h>' | cc -E - >/dev/null 2>&1; then
	bench_ck_x86_only() {
		! aarch64-linux-gnu-gcc -fsyntax-only -I"$REGRESS" \
		    -I/usr/include "$REGRESS/ckbench.c" >"$OBJ/ck-arm.log" \
		    2>&1 && grep -q 'x86 only' "$OBJ/ck-arm.log"
	}
	t_check "bench/ck-x86-only" bench_ck_x86_only
else
	t_skip "bench/ck-x86-only" "no aarch64 cross compiler or no libck"
fi

# The measuring core checks mutual exclusion: a "lock" that takes
# nothing must fail the run (lost updates of the counter it protects;
# tried five times, in case the machine is too busy to overlap them).
bench_catches_nolock() {
	_d=$OBJ/bench-nolock
	mkdir -p "$_d"
	cat >"$_d/nolock.c" <<-'EOF'
	#include "bench.h"
	static int nl_init(int n) { return (0); }
	static void nl_lock(struct bench_thread *bt) { }
	static const struct bench_lock nl = {
		"nolock", nl_init, NULL, nl_lock, nl_lock
	};
	int main(int argc, char *argv[])
	{ return (bench_main(argc, argv, "test", &nl, 1, 8)); }
	EOF
	$CC -std=gnu99 -O2 -pthread -I"$REGRESS" -o "$_d/nolock" \
	    "$_d/nolock.c" "$REGRESS/bench.c" || return 1
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
