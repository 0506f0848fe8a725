# compile: every kernel source with the kernel's warning flags, with gcc,
# for every backend, with the debug options off and on (clang's: suite
# kcompile, in the real tree and for every machine).

for be in $BACKENDS; do
	t_need gcc "compile/gcc/$be" compile_kernel gcc $be
	t_need gcc "compile/gcc/$be/witness+lockdebug" compile_kernel gcc \
	    $be $KERNEL_OPTIONS
done
