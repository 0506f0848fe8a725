# kcompile: our kernel files compiled as a kernel compiles them
# (doc/architectures.md); MPLOCK_FULL=1 (make test-full): every
# combination and includer.

. "$ROOT/tools/lib/kcompile.sh"
. "$ROOT/tools/lib/vendor.sh"
. "$ROOT/tools/lib/config8.sh"
. "$ROOT/tools/lib/realtree.sh"
RT=$OBJ/realtree/kcompile
LSE=-march=armv8.1-a+lse+nofp+nosimd

# kc_machine NAME: _m and _fl, the machine and flags of NAME (arm64+lse:
# arm64 with the LSE atomics).
kc_machine() {
	_m=${1%+lse} _fl=
	[ "$_m" = "$1" ] || _fl=$LSE
}

# kc_all NAME BACKEND: kern_mplock.c with no debug option (kept for
# kc_insns); every source with all of them and MPLOCK_TORTURE (make
# test: the default backend's only).
kc_all() {
	kc_machine "$1"
	_be=-DMPLOCK_$(upper "$2")
	rm -f "$OBJ/kcompile/$1-$2.o"
	mkdir -p "$OBJ/kcompile" &&
	    KCOMPILE_OUT=$OBJ/kcompile/$1-$2.o kernel_compile "$_m" \
	    "$ROOT/sys/kern/kern_mplock.c" $_be $_fl || return 1
	[ "${MPLOCK_FULL:-0}" = 1 ] || [ "$2" = "$DEFAULT_BACKEND" ] ||
	    return 0
	for _f in $(kernel_sources); do
		kernel_compile "$_m" "$_f" $_be $_fl -DWITNESS -DMP_LOCKDEBUG \
		    -DMPLOCK_DEBUG -DDDB -DMPLOCK_TORTURE || return 1
	done
}

# kc_insns NAME FORBIDDEN REQUIRED...: kern_mplock.c, MULTIPROCESSOR
# and no debug option (amd64 and i386: the real tree's), of every
# backend with the machine's <machine/mplock.h> (md: kc_all's object),
# of the default with the shim's, which opts in to the MI lock (mi),
# disassembled.
# FORBIDDEN (an ERE) must be in mi and not in md: a barrier the header
# saves.  Every REQUIRED ERE must be in md.
kc_insns() {
	kc_machine "$1"
	_n=$1 _no=$2
	shift 2
	_d=$OBJ/kcompile/insns-$(echo "$_n" | tr / -)
	rm -rf "$_d"
	mkdir -p "$_d/mi/machine" &&
	    cp "$REGRESS/shim/include/machine/mplock.h" "$_d/mi/machine/" ||
	    return 1
	for _be in $BACKENDS; do
		for _k in md mi; do
			[ $_k = md ] || [ $_be = "$DEFAULT_BACKEND" ] || continue
			_i= _o=$_d/$_be-$_k.o
			[ $_k = mi ] && _i=-I$_d/mi
			case $_m in
			amd64 | i386)
				realtree_cc "$RT" "$_m" "$_be,MULTIPROCESSOR" \
				    kern/kern_mplock.c "$_o" $_i ;;
			*)	[ $_k = md ] && _o=$OBJ/kcompile/$_n-$_be.o
				[ $_k = md ] || KCOMPILE_OUT=$_o \
				    kernel_compile "$_m" \
				    "$ROOT/sys/kern/kern_mplock.c" $_i \
				    -DMPLOCK_$(upper "$_be") $_fl ;;
			esac || return 1
			_od="$OBJDUMP -d --no-show-raw-insn"
			[ "$_m" = arm64 ] && _od="$_od --mattr=+lse"
			$_od "$_o" >>"$_d/$_k.s" || return 1
		done
	done
	if grep -En "$_no" "$_d/md.s"; then
		echo "$_n: the tuned header still has /$_no/"
		return 1
	fi
	grep -Eq "$_no" "$_d/mi.s" || {
		echo "$_n: the MI fallbacks have no /$_no/: the check is void"
		return 1
	}
	for _re; do
		grep -Eq "$_re" "$_d/md.s" ||
		    { echo "$_n: no /$_re/ in the tuned build"; return 1; }
	done
	echo "$_n: no /$_no/ (MI has it); has: $*"
}

# --- amd64 and i386: the real tree -----------------------------------

# rt_patched ARCH: the patched files, each under one combination at
# least; i386's, beside amd64's, a pairwise cover (realtree_combos
# pair).  rt_includers ARCH: the includers.
rt_patched() {
	_rc=$(realtree_combos)
	[ "$1" = amd64 ] || [ "${MPLOCK_FULL:-0}" = 1 ] ||
	    _rc=$(realtree_combos pair)
	echo "$(echo "$_rc" | wc -l | tr -d ' ') combinations"
	realtree_jobs "$RT" "$1" obj "$RT/patched" $_rc \
	    >"$RT/jobs-patched-$1" || return 1
	_none=$(awk 'NR == FNR { seen[$5] = 1; next }
	    !($1 in seen) { print }' "$RT/jobs-patched-$1" "$RT/patched")
	[ -z "$_none" ] ||
	    { echo "compiled under no combination:" $_none; return 1; }
	realtree_run "$RT" "patched-$1" <"$RT/jobs-patched-$1"
}

rt_includers() {
	realtree_sample "$RT" "$1" || return 1
	if [ "${MPLOCK_FULL:-0}" = 1 ]; then
		# Every file under every MULTIPROCESSOR combination (its
		# <machine/cpu.h> includes <sys/mplock.h>), the users under
		# every other.
		{
			realtree_jobs "$RT" "$1" syntax "$RT/$1/sample-from" \
			    $(realtree_combos | grep ,MULTIPROCESSOR) &&
			realtree_jobs "$RT" "$1" syntax "$RT/$1/sample" \
			    $(realtree_combos | grep -v ,MULTIPROCESSOR)
		} | realtree_run "$RT" "includers-$1"
	else
		# The users under each combination the headers test of the
		# default backend, and the others' with every option; the
		# first of each directory under the default's with all.
		{
			realtree_jobs "$RT" "$1" syntax "$RT/$1/sample" \
			    $(realtree_combos_header "$RT" "$1" | awk -F, \
			    -v d="$DEFAULT_BACKEND" '$1 == d || !n[$1]++') &&
			realtree_jobs "$RT" "$1" syntax "$RT/$1/sample-tops" \
			    "$DEFAULT_BACKEND,MULTIPROCESSOR,$(echo \
			    $REALTREE_OPTS | tr ' ' ,)"
		} | realtree_run "$RT" "sample-$1"
	fi
}

# rt_sizeof ARCH: sizeof(struct __mp_lock) in the stock tree (base) and
# the patched one (src) under each combination that changes it.
rt_sizeof() {
	_d=$RT/sizeof-$1
	rm -rf "$_d"
	mkdir -p "$_d"
	for _c in base:"$DEFAULT_BACKEND,MULTIPROCESSOR" \
	    $(realtree_combos_header "$RT" "$1" | sed 's/^/src:/'); do
		_t=${_c%%:*} _c=${_c#*:}
		_realtree_flags "$RT" "$1" "$_c" &&
		    _sz=$(realtree_sizeof "$_d/sizeof" ${CLANG:-clang} \
		    $(cat "$RT/$1/flags/$_t.$_c")) || return 1
		echo "$1 $_t $_c: $_sz bytes" | tee -a "$RT/sizeof.txt"
	done
}

# rt_calls_check OBJ NAME [KICK [WAIT]]: __mp_lock and __mp_unlock in
# OBJ (amd64) make no call (nor PLT32 relocation), jump to no other
# function and have no fence, but for one jump from __mp_unlock to KICK
# (the guest mode's kick) and one call from __mp_lock to WAIT.
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

# rt_calls: the default kernel's (amd64, no debug option) inlines its
# backend: rt_calls_check with __mp_lock_kick and __mp_lock_spin; with
# MPLOCK_NOGUEST no kick.  Seeded: the hand-off kept out of line.
rt_calls() {
	_d=$RT/calls _sd=$RT/src/sys/kern/mplock-seed _cf=
	_bh=kern_mplock_$DEFAULT_BACKEND.h _c=$DEFAULT_BACKEND,MULTIPROCESSOR
	rm -rf "$_d"
	mkdir -p "$_d" || return 1
	# The guest mode's kick, then MPLOCK_NOGUEST (no kick).
	for _g in '' -DMPLOCK_NOGUEST; do
		_k=__mp_lock_kick _o=$_d/kern_mplock$_g.o
		[ -z "$_g" ] || _k=
		realtree_cc "$RT" amd64 "$_c" kern/kern_mplock.c "$_o" $_g &&
		    rt_calls_check "$_o" "$DEFAULT_BACKEND$_g" "$_k" \
		    __mp_lock_spin || return 1
		echo "$DEFAULT_BACKEND $_g: no fence, no call but" \
		    "__mp_lock's to its wait${_k:+; __mp_unlock jumps to $_k}"
	done
	rt_seed_dir &&
	    rt_seeded_calls "out-of-line hand-off" 'calls out|jumps out' \
	    "$RT/src/sys/kern/$_bh" '/^static inline void$/ { p = $0; next }
		p != "" && /^mpl_be_handoff\(/ {
			p = "static __attribute__((__noinline__)) void" }
		p != "" { print p; p = "" } { print }' \
	    kern_mplock.c __mp_lock_kick __mp_lock_spin
}

# rt_seed_dir: $_sd afresh with kern_mplock.c and its headers, a
# directory of their own, where "" includes find them first.
rt_seed_dir() {
	rm -rf "$_sd"
	mkdir -p "$_sd" && cp "$RT"/src/sys/kern/kern_mplock.c \
	    "$RT"/src/sys/kern/kern_mplock*.h "$_sd/"
}

# rt_seed WHAT ORIG AWK: ORIG through AWK (WHAT, which must change it)
# into $_sd; $_sd goes if it does not.
rt_seed() {
	awk "$3" "$2" >"$_sd/${2##*/}" && ! cmp -s "$2" "$_sd/${2##*/}" || {
		echo "seeded: $1 no longer applies to $2"
		rm -rf "$_sd"
		return 1
	}
}

# rt_seeded_calls WHAT ERE ORIG AWK FILE [KICK [WAIT]]: $_sd/FILE, with
# rt_seed WHAT ORIG AWK beside it, compiled ($_c, $_cf) must fail
# rt_calls_check with ERE.
rt_seeded_calls() {
	_w=$1 _e=$2
	rt_seed "$_w" "$3" "$4" || return 1
	realtree_cc "$RT" amd64 "$_c" "kern/${_sd##*/}/$5" "$_d/seeded.o" $_cf
	_rc=$?
	rm -rf "$_sd"
	[ $_rc -eq 0 ] || return 1
	shift 5
	if rt_calls_check "$_d/seeded.o" seeded "$@" >"$_d/seeded.out"; then
		echo "seeded: $_w was not caught"
		return 1
	fi
	cat "$_d/seeded.out"
	grep -Eq "$_e" "$_d/seeded.out" || return 1
	echo "seeded: $_w caught"
}

# rt_mlock_step: the tech@ series' M-lock step (series.sh -s 2, with
# the stock <machine/mplock.h>), amd64, no debug option: no fence and no
# call, as stock's.  Seeded: membar_enter() (an mfence) after the swap
# in place of membar_datadep_consumer().
rt_mlock_step() {
	_d=$RT/mlock-step _sd=$RT/src/sys/kern/mlock-step
	_c=$DEFAULT_BACKEND,MULTIPROCESSOR _cf=-I$RT/mlock-step/inc
	rm -rf "$_d" "$_sd"
	mkdir -p "$_d/inc/machine" "$_d/inc/sys" "$_sd" || return 1
	sh "$ROOT/tools/series/series.sh" -s 2 "$RT/base" "$_d/tree" &&
	    cp "$RT/base/sys/arch/amd64/include/mplock.h" "$_d/inc/machine/" &&
	    cp "$_d/tree/sys/sys/mplock.h" "$_d/inc/sys/" &&
	    cp "$_d/tree/sys/kern/kern_lock.c" "$_sd/" &&
	    realtree_cc "$RT" amd64 "$_c" kern/mlock-step/kern_lock.c \
	    "$_d/kern_lock.o" "$_cf" &&
	    rt_calls_check "$_d/kern_lock.o" mlock-step || return 1
	echo "mlock-step: __mp_lock and __mp_unlock: no fence, no call"
	rt_seeded_calls "membar_enter() after the swap" 'has a fence' \
	    "$_d/tree/sys/kern/kern_lock.c" '/membar_datadep_consumer\(\);/ &&
		!done { sub(/membar_datadep_consumer/, "membar_enter")
		done = 1 } { print }' kern_lock.c
}

# rt_seeded_cc NAME ERE FILE COMBO [CFLAGS ...]: sys/FILE of the
# patched tree, CFLAGS first, must fail on amd64 and i386 with ERE.
rt_seeded_cc() {
	_n=$1 _e=$2 _f=$3 _c=$4
	shift 4
	for _a in amd64 i386; do
		realtree_cc "$RT" "$_a" "$_c" "$_f" /dev/null "$@" \
		    >"$RT/seeded-$_n.log" 2>&1 &&
		    { echo "$_n: $_f compiles ($_a $_c): not caught"; return 1; }
		_l=$(grep -E -m1 "$_e" "$RT/seeded-$_n.log") || {
			cat "$RT/seeded-$_n.log"
			echo "$_n: $_f failed, but not with /$_e/"
			return 1
		}
		echo "$_n: caught on $_a: $_l"
	done
}

# A call to an undeclared function in the default backend's header.
rt_seed_undeclared() {
	_sd=$RT/src/sys/kern/seed-undeclared
	rt_seed_dir && rt_seed "an undeclared call" \
	    "$RT/src/sys/kern/kern_mplock_$DEFAULT_BACKEND.h" \
	    '{ print } /^{$/ { print "\tmpl_undeclared_function();" }' ||
	    return 1
	rt_seeded_cc undeclared \
	    "implicit declaration of function .mpl_undeclared_function." \
	    kern/seed-undeclared/kern_mplock.c "$DEFAULT_BACKEND,MULTIPROCESSOR"
	_rc=$?
	rm -rf "$_sd"
	return $_rc
}

# mpl_lock_obj renamed in our <sys/mplock.h>: our files can follow, only
# the tree's subr_witness.c notices (another backend, WITNESS).
rt_seed_member() {
	_sc=$(echo $BACKENDS | tr ' ' '\n' | grep -vxFm1 "$DEFAULT_BACKEND")
	_sd=$RT/seed-member/sys
	rm -rf "$_sd"
	mkdir -p "$_sd" && rt_seed "mpl_lock_obj renamed" \
	    "$RT/src/sys/sys/mplock.h" \
	    '{ gsub(/mpl_lock_obj/, "mpl_witness_obj"); print }' || return 1
	rt_seeded_cc member "no member named 'mpl_lock_obj'" \
	    kern/subr_witness.c "$_sc,MULTIPROCESSOR,WITNESS,DDB" -I"${_sd%/*}"
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
		NM=$(command -v llvm-nm || command -v llvm-nm-14 || echo nm)
		: >"$RT/sizeof.txt"
		for a in amd64 i386; do
			t_check "kcompile/real/$a/setup" realtree_arch \
			    "$RT" "$a"
			t_check "kcompile/real/$a/patched" rt_patched "$a"
			t_check "kcompile/real/$a/includers" rt_includers "$a"
			t_check "kcompile/real/$a/sizeof" rt_sizeof "$a"
		done
		echo "   sizeof(struct __mp_lock):"
		sed 's/^/   | /' "$RT/sizeof.txt"
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
			t_check "kcompile/real/amd64/instructions" kc_insns \
			    amd64 'mfence' 'xchgq'
			t_check "kcompile/real/i386/instructions" kc_insns \
			    i386 'addl[[:space:]]+\$0, \(%esp\)' 'xchgl'
		fi
	fi

	# --- the other machines: the shim -----------------------------

	for m in $(kernel_machines) arm64+lse; do
		for be in $BACKENDS; do
			t_check "kcompile/$m/$be" kc_all "$m" "$be"
		done
	done
	for m in alpha luna88k; do
		h=$ROOT/sys/arch/$(kernel_machine_info $m | cut -d' ' -f1)
		h=$h/include/mplock.h
		t_check "kcompile/$m/no-asm" sh -c \
		    "[ -f '$h' ] && ! grep -n asm '$h'"
	done

	if [ -z "$OBJDUMP" ]; then
		t_skip "kcompile/instructions" "llvm-objdump not installed"
	else
		t_check "kcompile/arm64/instructions" kc_insns arm64 \
		    'dmb[[:space:]]+sy' 'ldaxr' 'stlxr' 'stlr' \
		    'dmb[[:space:]]+ishld' 'ldxr' 'wfe'
		t_check "kcompile/arm64+lse/instructions" kc_insns arm64+lse \
		    'dmb[[:space:]]+sy|ldaxr' 'swpal' 'stlr' 'wfe'
		t_check "kcompile/riscv64/instructions" kc_insns riscv64 \
		    'fence[[:space:]]+rw, rw' 'amoswap.d.aqrl' \
		    'fence[[:space:]]+r, rw' 'fence[[:space:]]+rw, w'
		t_check "kcompile/powerpc64/instructions" kc_insns powerpc64 \
		    '[[:space:]]sync$' 'lwsync' 'ldarx' 'isync' \
		    'mr[[:space:]]+1, 1$' 'mr[[:space:]]+2, 2$'
		t_check "kcompile/macppc/instructions" kc_insns macppc \
		    '[[:space:]]sync$' 'lwsync' 'lwarx' 'isync'
		t_check "kcompile/sparc64/instructions" kc_insns sparc64 \
		    '#Sync' 'membar #LoadLoad \| #LoadStore$'
	fi
fi
