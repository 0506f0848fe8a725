# standalone: nothing in sys/ speaks of what tests it, the MI files name
# no architecture (but for the contract of mpl_swap_ptr()); seeded
# comments must be caught.

# Words that belong to the tests, not to the kernel (extended regexps,
# matched case-insensitively as whole words).
SA_TEST_WORDS='regress|harness|shim|tsan|threadsanitizer|sanitizers?|promela|spin models?|(the|our) models?|model checks?|qemu|userland|mutants?|seeded|litmus|herd7?|make (test|verify)'
# Architectures and their CPUs, for the MI files.
SA_ARCH_WORDS='amd64|i386|x86|arm64|aarch64|armv7|riscv64|risc-v|powerpc64|powerpc|ppc|macppc|sparc64|alpha|mips64|octeon|loongson|m88k|luna88k|hppa|g5|power[0-9]+'

# sa_mi_text FILE: FILE without the contract of mpl_swap_ptr() in
# kern_mplock.h (its entry in the list of primitives, up to the next
# entry or the end of the list), which may say where architectures'
# swaps differ; line numbers are kept.
sa_mi_text() {
	awk '/^ \* mpl_swap_ptr\(/ { skip = 1 }
	    skip && /^ \* mpl_[a-z_]*\(/ && !/^ \* mpl_swap_ptr\(/ ||
	    skip && /^ \*\/?$/ { skip = 0 }
	    { print (skip ? "" : $0) }' "$1"
}

# sa_check ROOT: every sys/ file of ROOT, and the MI ones for arches.
sa_check() {
	_bad=0
	for _saf in $(find "$1/sys" -type f -name '*.[ch]' | sort); do
		if grep -inwE "$SA_TEST_WORDS" "$_saf"; then
			echo "$_saf: speaks of the tests (above)"
			_bad=1
		fi
	done
	for _saf in "$1"/sys/kern/kern_mplock*.[ch] "$1/sys/sys/mplock.h"; do
		if sa_mi_text "$_saf" | grep -inwE "$SA_ARCH_WORDS"; then
			echo "$_saf: names an architecture (above)"
			_bad=1
		fi
	done
	return $_bad
}

t_check "standalone/sys" sa_check "$ROOT"

# Seeded: a comment about the harness in a backend, an architecture in
# the MI header; each alone must fail the check.
_sa=$OBJ/standalone
for _s in "sys/kern/kern_mplock_mcs.h:the regress harness checks this" \
    "sys/kern/kern_mplock_mlock.h:the Spin model checks this" \
    "sys/kern/kern_mplock.h:powerpc64 lowers its SMT priority here"; do
	_f=${_s%%:*} _c=${_s#*:}
	rm -rf "$_sa"
	mkdir -p "$_sa"
	cp -R "$ROOT/sys" "$_sa/sys"
	printf '/* %s */\n' "$_c" >>"$_sa/$_f"
	if sa_check "$_sa" >"$_sa.log" 2>&1; then
		t_fail "standalone/seeded/$(basename "$_f")" \
		    "'$_c' not caught" "$_sa.log"
	else
		t_pass "standalone/seeded/$(basename "$_f")" "caught: '$_c'"
	fi
done
rm -rf "$_sa"
