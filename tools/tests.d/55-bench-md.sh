# bench-md: a short run of tools/bench-md.sh (the host's tuned header
# against the MI fallbacks); its table and CSV must have an MD/MI row
# for every backend.  No timing is asserted: the machine may be shared.

bench_md_smoke() {
	_d=$OBJ/bench-md-smoke
	_out=$(sh "$ROOT/tools/bench-md.sh" -r 1 -d 0.05 -t 2 -o "$_d") ||
	    return 1
	echo "$_out"
	for _be in $BACKENDS; do
		for _w in "uncontended,1" "contended,2"; do
			grep -Eq "^$_be,$_w,[0-9.]+,[0-9.]+,1,[0-9.]+$" \
			    "$_d/bench-md.csv" || {
				echo "no $_be $_w row in bench-md.csv"
				return 1
			}
		done
		echo "$_out" | grep -Eq "^$_be +uncontended .* [0-9]+\.[0-9]{3}$" ||
		    { echo "no $_be MD/MI ratio in the table"; return 1; }
	done
}

if [ -z "$HOST_MDARCH" ]; then
	t_skip "bench-md/smoke" "no sys/arch header for $(uname -m)"
else
	t_check "bench-md/smoke" bench_md_smoke
fi

# Misuse, as bench.sh's: "bench-md:" messages, the usage, exit 1,
# nothing built.
bench_md_usage() {
	t_usage bench-md tools/bench-md.sh "-x" "-r" "-r x" "-r 0" \
	    "-t x" "-t 0" "-d x" "-d 0" "-d .5x" "operand"
}
t_check "bench-md/usage" bench_md_usage
