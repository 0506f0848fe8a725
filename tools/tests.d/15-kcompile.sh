# kcompile: the kernel files compiled as kernel files with clang's
# <arch>-unknown-openbsd targets, for every backend, debug options off
# and on.
#
# amd64 and i386 (tools/lib/realtree.sh): the vendored OpenBSD tree,
# patched by tools/mplock-patch apply; each combination a kernel config
# that includes GENERIC.MP (GENERIC), run through the tree's own
# config(8), its files and flags those of the Makefile config(8)
# writes.  Every C file the patch adds or changes, with code
# generation, under every option combination (WITNESS, MP_LOCKDEBUG,
# MPLOCK_DEBUG, DDB, with and without MULTIPROCESSOR; 20, as the tree
# refuses WITNESS or MP_LOCKDEBUG without DDB) of the default backend
# and four of each other backend (none, all, MPLOCK_DEBUG alone, no
# MULTIPROCESSOR: realtree_combos_slice; every one with
# MPLOCK_FULL=1); a sample of the tree's files that include
# <sys/mplock.h> (those that use its names, and one from each other
# top-level directory of sys/, realtree_sample) under every
# MULTIPROCESSOR combination that changes what <sys/mplock.h> declares
# (16: backend, WITNESS, MPLOCK_DEBUG; realtree_combos_header),
# -fsyntax-only.  MPLOCK_FULL=1 (make kcompile-full, make test-full)
# compiles our files under all 80 combinations, and every file of the
# tree that includes it under every combination instead of the sample.
# A failure counts when the file compiles unpatched with the same
# options.  Two seeded bugs must fail: a backend calling an undeclared
# function, and a <sys/mplock.h> whose WITNESS member no longer has the
# name the tree's subr_witness.c uses (our own files renamed with it,
# so only the tree's code can notice).  Skipped with a note when the vendored
# tarball, bmake, byacc, flex or clang's OpenBSD targets are missing.
#
# The other machines, which the snapshot lacks: against the regress
# shim's headers, the port's barriers (tools/lib/kcompile-port.h) and
# the machine's real <machine/mplock.h> (tools/lib/kcompile.sh).  alpha
# and luna88k have no clang target: a stand-in target checks their C
# (their headers must hold no assembly, which nothing here could check).
#
# Then, for every machine, the instructions the tuned headers promise
# are looked for in the objects (amd64 and i386: the real tree's).

. "$ROOT/tools/lib/kcompile.sh"

# kc_srcs BACKEND: the sources that have code with that backend's
# option: the front end, which includes the backend's header
# (kern_mplock_BACKEND.h).
kc_srcs() {
	echo "$ROOT/sys/kern/kern_mplock.c"
}

# kc_all NAME MACHINE BACKEND [CFLAGS ...]: the backend's sources with
# the debug options off, and with them on (and the debug layer and the
# torture test, option MPLOCK_TORTURE; every source for the default
# backend); the objects stay in $OBJ/kcompile/NAME/BACKEND.
kc_all() {
	_n=$1 _m=$2 _be=$3
	shift 3
	_d=$OBJ/kcompile/$_n/$_be
	rm -rf "$_d"
	mkdir -p "$_d"
	for _f in $(kc_srcs "$_be"); do
		KCOMPILE_OUT=$_d/$(basename "$_f" .c).o kernel_compile "$_m" \
		    "$_f" -DMPLOCK_$(upper "$_be") "$@" || return 1
	done
	_all="$(kc_srcs "$_be") $ROOT/sys/kern/kern_mplock_debug.c"
	_all="$_all $ROOT/sys/kern/kern_mplock_torture.c"
	[ "$_be" = "$DEFAULT_BACKEND" ] && _all=$(kernel_sources)
	for _f in $_all; do
		KCOMPILE_OUT=$_d/$(basename "$_f" .c)-debug.o kernel_compile \
		    "$_m" "$_f" -DMPLOCK_$(upper "$_be") "$@" -DWITNESS \
		    -DMP_LOCKDEBUG -DMPLOCK_DEBUG -DDDB -DMPLOCK_TORTURE ||
		    return 1
	done
}

# kc_insns NAME MACHINE "CFLAGS" FORBIDDEN REQUIRED...: disassemble the
# objects kc_all built with the machine's header (no debug options, both
# backends) and the same sources built with the MI fallbacks, then
# kc_insns_check.
kc_insns() {
	_n=$1 _m=$2 _fl=$3
	shift 3
	_d=$OBJ/kcompile/$_n
	: >"$_d/md.s"
	: >"$_d/mi.s"
	for _be in $BACKENDS; do
		for _f in $(kc_srcs "$_be"); do
			_o=$_d/$_be/$(basename "$_f" .c)
			kc_objdump "$_m" "$_o.o" >>"$_d/md.s" || return 1
			KCOMPILE_MI=1 KCOMPILE_OUT=$_o-mi.o kernel_compile \
			    "$_m" "$_f" -DMPLOCK_$(upper "$_be") $_fl || return 1
			kc_objdump "$_m" "$_o-mi.o" >>"$_d/mi.s" || return 1
		done
	done
	kc_insns_check "$_d" "$_n" "$@"
}

kc_objdump() {
	_od="$OBJDUMP -d --no-show-raw-insn"
	[ "$1" = arm64 ] && _od="$_od --mattr=+lse"
	$_od "$2"
}

# kc_insns_check DIR NAME FORBIDDEN REQUIRED...: FORBIDDEN (an ERE)
# must be absent from DIR/md.s (the machine's header) and present in
# DIR/mi.s (the MI fallbacks): a barrier the header saves.  Every
# REQUIRED ERE must be in DIR/md.s.
kc_insns_check() {
	_d=$1 _n=$2 _no=$3
	shift 3
	if grep -En "$_no" "$_d/md.s"; then
		echo "$_n: the tuned header still has /$_no/"
		return 1
	fi
	grep -Eq "$_no" "$_d/mi.s" || {
		echo "$_n: the MI fallbacks have no /$_no/: the check is void"
		return 1
	}
	for _re; do
		grep -Eq "$_re" "$_d/md.s" || {
			echo "$_n: no /$_re/ in the tuned build"
			return 1
		}
	done
	echo "$_n: no /$_no/ (MI has it); has: $*"
}

# --- amd64 and i386: the real tree -----------------------------------

. "$ROOT/tools/lib/vendor.sh"
. "$ROOT/tools/lib/config8.sh"
. "$ROOT/tools/lib/realtree.sh"
RT=$OBJ/realtree/kcompile

# rt_patched ARCH: the patched files under every combination (each in
# one at least).
# rt_includers ARCH: the sample of includers under every combination
# that changes <sys/mplock.h> (realtree_combos_header), or with
# MPLOCK_FULL=1 every includer under every combination.
rt_patched() {
	if [ "${MPLOCK_FULL:-0}" = 1 ]; then
		_rc=$(realtree_combos)
	else
		_rc=$(realtree_combos_slice)
	fi
	echo "$(echo "$_rc" | wc -l | tr -d ' ') combinations"
	realtree_jobs "$RT" "$1" obj "$RT/patched" $_rc \
	    >"$RT/jobs-patched-$1" || return 1
	# A file of ours no kernel of the matrix compiles is not checked.
	_none=$(awk 'NR == FNR { seen[$5] = 1; next }
	    !($1 in seen) { print }' "$RT/jobs-patched-$1" "$RT/patched")
	if [ -n "$_none" ]; then
		echo "compiled under no combination:" $_none
		return 1
	fi
	realtree_run "$RT" "patched-$1" <"$RT/jobs-patched-$1"
}

rt_includers() {
	if [ "${MPLOCK_FULL:-0}" = 1 ]; then
		realtree_includers "$RT" "$1" || return 1
		{
			realtree_jobs "$RT" "$1" syntax "$RT/$1/includers-mp" \
			    $(realtree_combos mp) &&
			realtree_jobs "$RT" "$1" syntax "$RT/$1/includers-up" \
			    $(realtree_combos up)
		} | realtree_run "$RT" "includers-$1"
	else
		realtree_sample "$RT" "$1" || return 1
		realtree_jobs "$RT" "$1" syntax "$RT/$1/sample" \
		    $(realtree_combos_header "$RT" "$1") |
		    realtree_run "$RT" "sample-$1"
	fi
}

# rt_sizeof ARCH: sizeof(struct __mp_lock) in the patched tree under
# every combination that changes <sys/mplock.h>, and in the stock tree
# (the kernel's own flags, MULTIPROCESSOR), read off the size of an
# object of that type; a line per combination in $RT/sizeof.txt.
rt_sizeof() {
	_d=$RT/sizeof-$1
	rm -rf "$_d"
	mkdir -p "$_d"
	printf '%s\n' '#include <sys/param.h>' '#include <sys/mplock.h>' \
	    'struct __mp_lock mpl_sizeof;' >"$_d/sizeof.c"
	_st=$(rt_sizeof_one "$_d" "$1" base \
	    "$DEFAULT_BACKEND,MULTIPROCESSOR") || return 1
	echo "$1 stock: $_st bytes" | tee -a "$RT/sizeof.txt"
	for _c in $(realtree_combos_header "$RT" "$1"); do
		_sz=$(rt_sizeof_one "$_d" "$1" src "$_c") || return 1
		echo "$1 $_c: $_sz bytes ($(awk -v a="$_sz" -v b="$_st" \
		    'BEGIN { printf "%.1f", a / b }') x stock)" |
		    tee -a "$RT/sizeof.txt"
	done
}

# rt_sizeof_one DIR ARCH src|base COMBO: the size, in bytes.
rt_sizeof_one() {
	_realtree_flags "$RT" "$2" "$4" || return 1
	${CLANG:-clang} $(cat "$RT/$2/flags/$3.$4") -c "$1/sizeof.c" \
	    -o "$1/sizeof.o" || return 1
	_sz=$($NM -S "$1/sizeof.o" | awk '$4 == "mpl_sizeof" {
	    print $2 }')
	[ -n "$_sz" ] || { echo "no mpl_sizeof in $1/sizeof.o"; return 1; }
	printf '%d\n' "0x$_sz"
}

# rt_insns ARCH FORBIDDEN REQUIRED...: kc_insns on the real tree's
# objects: every backend's files, MULTIPROCESSOR and no debug option,
# with the arch's <machine/mplock.h> and with the regress shim's, which
# only opts in to the MI lock (found first).
rt_insns() {
	_a=$1
	shift
	_d=$RT/insns-$_a
	rm -rf "$_d"
	mkdir -p "$_d/mi/machine" &&
	    cp "$REGRESS/shim/include/machine/mplock.h" "$_d/mi/machine/" ||
	    return 1
	: >"$_d/md.s"
	: >"$_d/mi.s"
	for _be in $BACKENDS; do
		for _f in kern/kern_mplock.c; do
			_o=$_d/$_be-$(basename "$_f" .c)
			realtree_cc "$RT" "$_a" "$_be,MULTIPROCESSOR" "$_f" \
			    "$_o.o" || return 1
			kc_objdump "$_a" "$_o.o" >>"$_d/md.s" || return 1
			realtree_cc "$RT" "$_a" "$_be,MULTIPROCESSOR" "$_f" \
			    "$_o-mi.o" -I"$_d/mi" || return 1
			kc_objdump "$_a" "$_o-mi.o" >>"$_d/mi.s" || return 1
		done
	done
	kc_insns_check "$_d" "$_a" "$@"
}

# rt_calls_check OBJ NAME [KICK [WAIT]]: __mp_lock and __mp_unlock in
# OBJ (amd64) make no call, do not jump to another function (no call
# instruction, no PLT32 relocation, no jump to another symbol) and have
# no fence (mfence, lfence, sfence); with KICK, but for one jump from
# __mp_unlock to KICK, the end of an unlock that kicks a waiter out of
# its halt (the guest mode, kern_mplock.c), on a path of its own; with
# WAIT, but for one call from __mp_lock to WAIT, the wait of a CPU
# whose turn has not come (kern_mplock.c keeps it out of line).
rt_calls_check() {
	$OBJDUMP -dr --no-show-raw-insn "$1" >"$1.s" || return 1
	awk -v n="$2" -v kick="${3:-}" -v wait="${4:-}" '
	/^[0-9a-f]+ <[^>]*>:$/ {
		f = $2
		gsub(/[<>:]/, "", f)
		next
	}
	f == "__mp_lock" && wait != "" && ($0 ~ "[[:space:]]call.*<" wait \
	    ">" || $0 ~ "R_X86_64_PLT32[[:space:]]+" wait "-") {
		if ($0 ~ /[[:space:]]call/)
			waits++
		next
	}
	f == "__mp_lock" || f == "__mp_unlock" {
		seen[f] = 1
		if ($0 ~ /[[:space:]]call/ || $0 ~ /R_X86_64_PLT32/) {
			print n ": " f " calls out: " $0
			bad = 1
		} else if ($0 ~ /[[:space:]]j[a-z]+[[:space:]]/ &&
		    match($0, /<[^>+]*[>+]/)) {
			t = substr($0, RSTART + 1, RLENGTH - 2)
			if (t == f)
				next
			if (f == "__mp_unlock" && t == kick && !kicks++)
				next
			print n ": " f " jumps out: " $0
			bad = 1
		}
		if ($0 ~ /[[:space:]][msl]fence/) {
			print n ": " f " has a fence: " $0
			bad = 1
		}
	}
	END {
		if (!seen["__mp_lock"] || !seen["__mp_unlock"]) {
			print n ": no __mp_lock or __mp_unlock in the object"
			exit 1
		}
		if (kick != "" && kicks != 1) {
			print n ": __mp_unlock jumps to " kick " " kicks + 0 \
			    " times, not once"
			exit 1
		}
		if (wait != "" && waits != 1) {
			print n ": __mp_lock calls " wait " " waits + 0 \
			    " times, not once"
			exit 1
		}
		exit bad
	}' "$1.s"
}

# rt_calls: the backend is chosen at compile time and inlines: the
# default kernel's __mp_lock and __mp_unlock (amd64, the real tree's
# flags, no debug option) have no fence and leave only for the wait of
# a CPU whose turn has not come (__mp_lock_spin, out of line so that
# its frame stays off the path of a lock that is free) and the guest
# mode's kick (__mp_lock_kick, which the unlock jumps to when its
# hand-off found a CPU halted); without the guest mode (option
# MPLOCK_NOGUEST), not for the kick.  Seeded: the default backend's
# hand-off kept out of line must be caught.
rt_calls() {
	_d=$RT/calls
	_sd=$RT/src/sys/kern/mplock-seed
	_bh=kern_mplock_$DEFAULT_BACKEND.h
	rm -rf "$_d" "$_sd"
	mkdir -p "$_d" "$_sd" || return 1
	realtree_cc "$RT" amd64 "$DEFAULT_BACKEND,MULTIPROCESSOR" \
	    kern/kern_mplock.c "$_d/kern_mplock.o" || return 1
	rt_calls_check "$_d/kern_mplock.o" "$DEFAULT_BACKEND" __mp_lock_kick \
	    __mp_lock_spin || return 1
	echo "$DEFAULT_BACKEND: __mp_lock and __mp_unlock: no fence, no call" \
	    "but __mp_lock's to its wait; __mp_unlock jumps to the guest" \
	    "mode's kick"
	realtree_cc "$RT" amd64 "$DEFAULT_BACKEND,MULTIPROCESSOR" \
	    kern/kern_mplock.c "$_d/noguest.o" -DMPLOCK_NOGUEST || return 1
	rt_calls_check "$_d/noguest.o" "$DEFAULT_BACKEND-noguest" "" \
	    __mp_lock_spin || return 1
	echo "$DEFAULT_BACKEND, MPLOCK_NOGUEST: __mp_lock and __mp_unlock:" \
	    "no fence, no call but __mp_lock's to its wait"
	# The seeded copy: the front end and its headers in a directory of
	# their own, where the front end's "" includes find them first.
	cp "$RT"/src/sys/kern/kern_mplock.c "$RT"/src/sys/kern/kern_mplock*.h \
	    "$_sd/" || return 1
	sed '/^static inline void$/{
N
s/^static inline void\nmpl_be_handoff(/static __attribute__((__noinline__)) void\
mpl_be_handoff(/
}' "$RT/src/sys/kern/$_bh" >"$_sd/$_bh"
	if cmp -s "$RT/src/sys/kern/$_bh" "$_sd/$_bh"; then
		echo "seeded: the out-of-line hand-off no longer applies to $_bh"
		rm -rf "$_sd"
		return 1
	fi
	realtree_cc "$RT" amd64 "$DEFAULT_BACKEND,MULTIPROCESSOR" \
	    kern/mplock-seed/kern_mplock.c "$_d/seeded.o"
	_rc=$?
	rm -rf "$_sd"
	[ $_rc -eq 0 ] || return 1
	if rt_calls_check "$_d/seeded.o" seeded __mp_lock_kick \
	    __mp_lock_spin; then
		echo "seeded: an out-of-line hand-off was not caught"
		return 1
	fi
	echo "seeded: out-of-line hand-off caught"
}

# rt_mlock_step: the tech@ series' M-lock (tools/series/series.sh -s 2:
# kern_lock.c and <sys/mplock.h> after its second diff, with the stock
# <machine/mplock.h>), compiled for amd64 with the kernel's flags, no
# debug option: __mp_lock and __mp_unlock have no fence and make no
# call, as stock's (its spin is stock's, inline).  Seeded: the same with
# membar_enter() after the compare-and-swap (an mfence on amd64) must be
# caught.
rt_mlock_step() {
	_d=$RT/mlock-step
	_sd=$RT/src/sys/kern/mlock-step
	rm -rf "$_d" "$_sd"
	mkdir -p "$_d/inc/machine" "$_sd" || return 1
	sh "$ROOT/tools/series/series.sh" -s 2 "$RT/base" "$_d/tree" ||
	    return 1
	cp "$RT/base/sys/arch/amd64/include/mplock.h" "$_d/inc/machine/" &&
	    mkdir -p "$_d/inc/sys" &&
	    cp "$_d/tree/sys/sys/mplock.h" "$_d/inc/sys/" &&
	    cp "$_d/tree/sys/kern/kern_lock.c" "$_sd/" || return 1
	realtree_cc "$RT" amd64 "$DEFAULT_BACKEND,MULTIPROCESSOR" \
	    kern/mlock-step/kern_lock.c "$_d/kern_lock.o" -I"$_d/inc" ||
	    return 1
	rt_calls_check "$_d/kern_lock.o" mlock-step || return 1
	echo "mlock-step: __mp_lock and __mp_unlock: no fence, no call"
	awk '/membar_enter_after_atomic\(\);/ && !done {
		sub(/membar_enter_after_atomic/, "membar_enter"); done = 1 }
	    { print }' "$_d/tree/sys/kern/kern_lock.c" >"$_sd/kern_lock.c"
	if cmp -s "$_d/tree/sys/kern/kern_lock.c" "$_sd/kern_lock.c"; then
		echo "seeded: no membar_enter_after_atomic() to replace"
		return 1
	fi
	realtree_cc "$RT" amd64 "$DEFAULT_BACKEND,MULTIPROCESSOR" \
	    kern/mlock-step/kern_lock.c "$_d/seeded.o" -I"$_d/inc"
	_rc=$?
	rm -rf "$_sd"
	[ $_rc -eq 0 ] || return 1
	if rt_calls_check "$_d/seeded.o" seeded >"$_d/seeded.out"; then
		echo "seeded: membar_enter() after the compare-and-swap was" \
		    "not caught"
		return 1
	fi
	cat "$_d/seeded.out"
	grep -q 'has a fence' "$_d/seeded.out" || return 1
	echo "seeded: membar_enter() after the compare-and-swap caught"
}

# rt_mutant NAME FILE... -- SED: a copy of this checkout's sys/,
# share/man and regress/sys/kern with the sed script SED applied to
# each FILE, patched into a fresh copy of the snapshot; sets MT (removed
# when the bug is caught, kept to look at when not).
rt_mutant() {
	_mn=$1
	shift
	MT=$OBJ/realtree/mutant-$_mn
	rm -rf "$MT"
	mkdir -p "$MT/root/share" "$MT/root/regress/sys" || return 1
	cp -R "$ROOT/sys" "$MT/root/sys" &&
	    cp -R "$ROOT/share/man" "$MT/root/share/man" &&
	    cp -R "$ROOT/regress/sys/kern" "$MT/root/regress/sys/kern" ||
	    return 1
	_files=
	while [ "$1" != -- ]; do
		_files="$_files $1"
		shift
	done
	for _f in $_files; do
		sed "$2" "$ROOT/$_f" >"$MT/root/$_f" || return 1
		if cmp -s "$ROOT/$_f" "$MT/root/$_f"; then
			echo "rt_mutant: $_mn no longer changes $_f"
			return 1
		fi
	done
	MPLOCK_ROOT=$MT/root realtree_setup "$MT/t" || return 1
	for _a in amd64 i386; do
		realtree_arch "$MT/t" "$_a" || return 1
	done
}

# rt_caught NAME REGEX ARCH MODE FILE COMBO: FILE must fail under COMBO
# in the mutant's tree, with a message matching REGEX.
rt_caught() {
	echo "$5" >"$MT/t/one"
	realtree_jobs "$MT/t" "$3" "$4" "$MT/t/one" "$6" |
	    realtree_run "$MT/t" "$1-$3" && {
		echo "$1: $5 compiles ($3 $6): not caught"
		return 1
	}
	grep -Eq "$2" "$MT/t/fail/$1-$3"/*.log || {
		echo "$1: $5 failed, but not with /$2/"
		return 1
	}
	echo "$1: caught on $3: $(grep -Eh -m1 "$2" \
	    "$MT/t/fail/$1-$3"/*.log | head -n 1)"
}

# Seeded: a backend calls a function nothing declares.
rt_seed_undeclared() {
	_b=sys/kern/kern_mplock_$DEFAULT_BACKEND.h
	rt_mutant undeclared "$_b" -- \
	    '/^{$/{
a\
	mpl_undeclared_function();
}' || return 1
	for _a in amd64 i386; do
		rt_caught undeclared \
		    "implicit declaration of function .mpl_undeclared_function." \
		    "$_a" obj kern/kern_mplock.c \
		    "$DEFAULT_BACKEND,MULTIPROCESSOR" ||
		    return 1
	done
	rm -rf "$MT"
}

# Seeded: the WITNESS member of struct __mp_lock renamed in
# <sys/mplock.h> and in all of our files alike: they still compile, but
# the tree's subr_witness.c (kernel_lock.mpl_lock_obj) must not.
rt_seed_member() {
	_sc=$DEFAULT_BACKEND,MULTIPROCESSOR,WITNESS,DDB
	rt_mutant member $(cd "$ROOT" && grep -l mpl_lock_obj sys/sys/mplock.h \
	    sys/kern/*.c) -- 's/mpl_lock_obj/mpl_witness_obj/g' || return 1
	for _a in amd64 i386; do
		realtree_jobs "$MT/t" "$_a" obj "$MT/t/patched" "$_sc" |
		    realtree_run "$MT/t" "member-own-$_a" || {
			echo "member: our own files do not compile renamed"
			return 1
		}
		rt_caught member "no member named 'mpl_lock_obj'" "$_a" \
		    syntax kern/subr_witness.c "$_sc" || return 1
	done
	rm -rf "$MT"
}

OBJDUMP=$(command -v llvm-objdump || command -v llvm-objdump-14)
if ! command -v clang >/dev/null 2>&1; then
	t_skip "kcompile" "clang not installed"
else
	realtree_setup "$RT" >"$LOGS/kcompile_realtree.log" 2>&1
	rc=$?
	if [ $rc -eq 77 ]; then
		t_skip "kcompile/real" "$(tail -n 1 \
		    "$LOGS/kcompile_realtree.log"); amd64 and i386 not compiled"
	elif [ $rc -ne 0 ]; then
		t_fail "kcompile/real" "setup failed" \
		    "$LOGS/kcompile_realtree.log"
	else
		for a in amd64 i386; do
			t_check "kcompile/real/$a/setup" realtree_arch \
			    "$RT" "$a"
			t_check "kcompile/real/$a/patched" rt_patched "$a"
			t_check "kcompile/real/$a/includers" rt_includers "$a"
		done
		NM=$(command -v llvm-nm || command -v llvm-nm-14)
		if [ -n "$NM" ]; then
			: >"$RT/sizeof.txt"
			for a in amd64 i386; do
				t_check "kcompile/real/$a/sizeof" rt_sizeof "$a"
			done
			echo "   sizeof(struct __mp_lock):"
			sed 's/^/   | /' "$RT/sizeof.txt"
		else
			t_skip "kcompile/real/sizeof" "llvm-nm not installed"
		fi
		t_check "kcompile/real/seeded/undeclared-function" \
		    rt_seed_undeclared
		t_check "kcompile/real/seeded/witness-member-renamed" \
		    rt_seed_member
		if [ -z "$OBJDUMP" ]; then
			t_skip "kcompile/real/instructions" \
			    "llvm-objdump not installed"
		else
			t_check "kcompile/real/amd64/no-calls" rt_calls
			t_check "kcompile/real/amd64/mlock-step-no-fence-no-call" \
			    rt_mlock_step
			t_check "kcompile/real/amd64/instructions" rt_insns \
			    amd64 'mfence' 'xchgq'
			t_check "kcompile/real/i386/instructions" rt_insns \
			    i386 'addl[[:space:]]+\$0, \(%esp\)' 'xchgl'
		fi
	fi

	# --- the other machines: the shim -----------------------------

	for m in $(kernel_machines); do
		for be in $BACKENDS; do
			t_check "kcompile/$m/$be" kc_all "$m" "$m" "$be"
		done
	done
	lse=-march=armv8.1-a+lse+nofp+nosimd
	for be in $BACKENDS; do
		t_check "kcompile/arm64+lse/$be" kc_all arm64+lse arm64 \
		    "$be" $lse
	done
	for m in alpha luna88k; do
		a=$(kernel_machine_info $m | cut -d' ' -f1)
		h=$ROOT/sys/arch/$a/include/mplock.h
		t_check "kcompile/$m/no-asm" sh -c \
		    "[ -f '$h' ] && ! grep -n asm '$h'"
	done

	if [ -z "$OBJDUMP" ]; then
		t_skip "kcompile/instructions" "llvm-objdump not installed"
	else
		t_check "kcompile/arm64/instructions" kc_insns arm64 arm64 "" \
		    'dmb[[:space:]]+sy' 'ldaxr' 'stlxr' 'stlr' \
		    'dmb[[:space:]]+ishld' 'ldxr' 'wfe'
		t_check "kcompile/arm64+lse/instructions" kc_insns arm64+lse \
		    arm64 "$lse" 'dmb[[:space:]]+sy|ldaxr' 'swpal' 'stlr' 'wfe'
		t_check "kcompile/riscv64/instructions" kc_insns riscv64 \
		    riscv64 "" 'fence[[:space:]]+rw, rw' 'amoswap.d.aqrl' \
		    'fence[[:space:]]+r, rw' 'fence[[:space:]]+rw, w'
		t_check "kcompile/powerpc64/instructions" kc_insns powerpc64 \
		    powerpc64 "" '[[:space:]]sync$' 'lwsync' 'ldarx' 'isync' \
		    'mr[[:space:]]+1, 1$' 'mr[[:space:]]+2, 2$'
		t_check "kcompile/macppc/instructions" kc_insns macppc \
		    macppc "" '[[:space:]]sync$' 'lwsync' 'lwarx' 'isync'
		t_check "kcompile/sparc64/instructions" kc_insns sparc64 \
		    sparc64 "" '#Sync' 'membar #LoadLoad \| #LoadStore$'
	fi
fi
