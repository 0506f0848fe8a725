# compile: every kernel source with the kernel's warning flags, with gcc
# and clang, for every backend, with the debug options off and on.

for cc in gcc clang; do
	if ! command -v $cc >/dev/null 2>&1; then
		t_skip "compile/$cc" "$cc not installed"
		continue
	fi
	for be in $BACKENDS; do
		t_check "compile/$cc/$be" compile_kernel $cc $be
		t_check "compile/$cc/$be/witness+lockdebug" compile_kernel $cc \
		    $be $KERNEL_OPTIONS
	done
done
