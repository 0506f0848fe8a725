# bench: a short run of the benchmark driver; its table and CSV must
# have a row for every workload and a column for every backend.

bench_smoke() {
	_d=$OBJ/bench-smoke
	sh "$ROOT/tools/bench.sh" -r 1 -d 0.05 -t "1 2" -o "$_d" || return 1
	for _be in $BACKENDS; do
		for _w in "uncontended,1" "contended,1" "contended,2"; do
			grep -q "^$_be,${_w%,*},${_w#*,}," "$_d/bench.csv" || {
				echo "no $_be $_w row in bench.csv"
				return 1
			}
		done
	done
	grep -q '^ticket,uncontended,1,.*,1.000$' "$_d/bench.csv" || {
		echo "ticket is not its own baseline"
		return 1
	}
}
t_check "bench/smoke" bench_smoke
