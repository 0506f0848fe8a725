# compile: every kernel source with the kernel's warning flags, with gcc
# and clang, for every backend, with the debug options off and on.

compile_kernel() {
	_cc=$1 _be=$2
	shift 2
	for _f in $(kernel_sources); do
		echo "$_cc ... -DMPLOCK_$(upper "$_be") $* $_f"
		$_cc $HARNESS_CFLAGS -I"$REGRESS/shim/include" \
		    -DMPLOCK_$(upper "$_be") "$@" -c "$_f" -o /dev/null ||
		    return 1
	done
}

for cc in gcc clang; do
	if ! command -v $cc >/dev/null 2>&1; then
		t_skip "compile/$cc" "$cc not installed"
		continue
	fi
	for be in $BACKENDS; do
		t_check "compile/$cc/$be" compile_kernel $cc $be
		t_check "compile/$cc/$be/witness+lockdebug" compile_kernel $cc \
		    $be -DWITNESS -DMP_LOCKDEBUG -DDDB
	done
done
