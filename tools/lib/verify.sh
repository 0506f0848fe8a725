# Model checks and the ThreadSanitizer build (model/README.md).
# Sourced after common.sh, testlib.sh and harness.sh by tools/verify.sh
# and by the test suite tools/tests.d/70-verify.sh.
#
#	verify_mapping		MAPPING and sources.sha256 agree with sys/
#	verify_models		every backend's model, mutants, coverage
#	verify_tsan		TSan build: stress tests clean, seeded races
#				reported
#
# Each check is one PASS/FAIL line through testlib; model runs are also
# appended to $VERIFY_TABLE (name, states, seconds, verdict).

MODEL=$ROOT/model
# The TSan build's headers, put over the shim's.
TSAN=$ROOT/tsan
VOBJ=$OBJ/verify
VERIFY_TABLE=${VERIFY_TABLE:-$VOBJ/table}
# Memory models of the weak-memory scenario (lib/mem.pml).
VERIFY_WM_MODES="tso pso rmo alpha"
# The compiler for the small, unoptimised pan runs.
VERIFY_PAN_CC=${VERIFY_PAN_CC:-$(command -v clang >/dev/null 2>&1 &&
    echo clang || echo "$CC")}

_v_sha256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum <"$1" | cut -d' ' -f1
	elif command -v sha256 >/dev/null 2>&1; then
		sha256 -q "$1"
	else
		openssl dgst -sha256 -r "$1" | cut -d' ' -f1
	fi
}

# The C files the models stand for: every file named in MAPPING.
_v_sources() {
	sed -e 's/#.*//' "$MODEL/MAPPING" | awk 'NF >= 5 { print $2 }' |
	    sort -u
}

# verify.sh hashes: the current hashes, in sources.sha256's format.
verify_print_hashes() {
	for _f in $(_v_sources); do
		echo "$(_v_sha256 "$ROOT/$_f")  $_f"
	done
}

# verify.sh map: where each anchor of MAPPING is now.
verify_print_map() {
	sed -e 's/#.*//' "$MODEL/MAPPING" | while read -r _tag _f _fn _line \
	    _anchor; do
		[ -n "$_anchor" ] || continue
		_now=$(grep -nF -- "$_anchor" "$ROOT/$_f" | cut -d: -f1 |
		    tr '\n' ' ')
		printf '%-24s %-30s %-20s %4s -> %s\n' "$_tag" "$_f" "$_fn" \
		    "$_line" "${_now:-MISSING}"
	done
}

# Each TAG is in a model, each model [TAG] is mapped, each anchor is on
# its line.
_v_check_map() {
	_bad=0
	_tags=$(cat "$MODEL"/*.pml "$MODEL"/lib/*.pml |
	    grep -o '\[[a-z]*\.[a-z_.]*\]' | tr -d '[]' | sort -u)
	_mapped=$(sed -e 's/#.*//' "$MODEL/MAPPING" | awk 'NF >= 5 {
	    print $1 }' | sort -u)
	for _t in $_tags; do
		echo "$_mapped" | grep -qx "$_t" || {
			echo "model statement [$_t] is not in MAPPING"
			_bad=1
		}
	done
	for _t in $_mapped; do
		echo "$_tags" | grep -qx "$_t" || {
			echo "MAPPING lists $_t, no model statement has it"
			_bad=1
		}
	done
	_tmp=$VOBJ/map.$$
	sed -e 's/#.*//' "$MODEL/MAPPING" >"$_tmp"
	while read -r _tag _f _fn _line _anchor; do
		[ -n "$_anchor" ] || continue
		if [ ! -f "$ROOT/$_f" ]; then
			echo "$_tag: no file $_f"
			_bad=1
		elif ! sed -n "${_line}p" "$ROOT/$_f" | grep -qF -- "$_anchor"
		then
			echo "$_tag: $_f:$_line does not contain '$_anchor'" \
			    "(now at: $(grep -nF -- "$_anchor" "$ROOT/$_f" |
			    cut -d: -f1 | tr '\n' ' '))"
			_bad=1
		fi
	done <"$_tmp"
	rm -f "$_tmp"
	return $_bad
}

# Every modelled source has the hash recorded with the model.
_v_check_hashes() {
	_bad=0
	for _f in $(_v_sources); do
		_want=$(awk -v f="$_f" '$2 == f { print $1 }' \
		    "$MODEL/sources.sha256")
		_have=$(_v_sha256 "$ROOT/$_f")
		if [ -z "$_want" ]; then
			echo "$_f: no hash recorded in model/sources.sha256"
			_bad=1
		elif [ "$_want" != "$_have" ]; then
			echo "$_f changed since the model was last checked" \
			    "against it."
			_bad=1
		fi
	done
	if [ $_bad -ne 0 ]; then
		cat <<EOF
Re-read the changed code against the model statements MAPPING maps to
it, change the model where the behaviour changed, fix MAPPING's line
numbers ("sh tools/verify.sh map" shows where each anchor is now), run
"make verify", then record the new hashes:
	sh tools/verify.sh hashes >model/sources.sha256
EOF
	fi
	return $_bad
}

verify_mapping() {
	mkdir -p "$VOBJ"
	t_check "verify/mapping" _v_check_map
	t_check "verify/hashes" _v_check_hashes
	for _be in $BACKENDS; do
		if ! _v_sources | grep -qx "sys/kern/kern_mplock_$_be.h"; then
			t_fail "verify/mapping/$_be" \
			    "backend $_be has no model statements in MAPPING"
		fi
	done
}

# _v_mode_defs MODE: spin -D flags of a scenario.  guestMODE is MODE
# (guest alone: sc) with the M-lock's guest mode, -DGUEST (mlock.pml).
_v_mode_defs() {
	[ -n "$1" ] || set -- sc
	case $1 in
	sc)	echo "" ;;
	loop)	echo "-DLOOP -DNCPU=2" ;;
	pso3)	echo "-DWM -DNCPU=3 -DNACQ=2 -DMM_PSO" ;;
	guest*)	echo "-DGUEST $(_v_mode_defs "${1#guest}")" ;;
	*)	echo "-DWM -DNCPU=2 -DNACQ=3 -DMM_$(upper "$1")" ;;
	esac
}

# Searches run VERIFY_JOBS at a time (default: one per CPU, at most 2);
# their lines are printed in order all the same.
VERIFY_JOBS=${VERIFY_JOBS:-$(_n=$(ncpu_online); [ "$_n" -gt 2 ] && _n=2
    echo "$_n")}
_v_queue=

# _v_pan NAME MODEL MODE EXPECT [DEFINE]: generate, compile and run pan
# in the background.  EXPECT: ok (no error, complete search) or error
# (an error found).  _v_pan_reap records the PASS/FAIL line and the
# table row.
_v_pan() {
	_name=$1 _pml=$2 _mode=$3 _expect=$4 _def=${5:+-D$5}
	_d=$VOBJ/run/$(echo "$_name" | tr '/' '_')
	_log=$(_t_log "$_name")
	rm -rf "$_d"
	mkdir -p "$_d"
	_defs="$(_v_mode_defs "$_mode") $_def"
	# Compiling pan.c takes longer than most searches: optimise only
	# for the big ones, and then only -O1; clang compiles pan.c in
	# about half the time gcc takes.  pan's default hash table (-w24,
	# 128 MB) takes longer to set up than most searches: 2^22 slots
	# for all but the big ones.
	_opt=-O0 _hash=-w22
	case $_mode:$_expect in
	sc:ok|pso3:ok|guest:ok) _opt=-O1 _hash=-w24 ;;
	esac
	if [ "${_mode#guest}" = loop ]; then
		_cflags="-DCOLLAPSE -DNFAIR=3 -DMEMLIM=2048"
		_run="./pan -a -f -n -m500000 $_hash"
	else
		_cflags="-DSAFETY -DCOLLAPSE -DMEMLIM=2048"
		_run="./pan -n -m100000 $_hash"
	fi
	printf '_j_name=%s _j_expect=%s _j_log=%s\n' "$_name" "$_expect" \
	    "$_log" >"$_d/job"
	# shellcheck disable=SC2086
	(
		_t0=$(_t_now)
		(
			cd "$_d" &&
			echo "spin -a $_defs $_pml" &&
			spin -a $_defs "$_pml" </dev/null &&
			$VERIFY_PAN_CC $_opt -w $_cflags -o pan pan.c &&
			echo "$_run" && timeout 600 $_run </dev/null
		) >"$_log" 2>&1
		echo "_j_rc=$? _j_dt=$(($(_t_now) - _t0))" >"$_d/done"
	) &
	echo "_j_pid=$!" >>"$_d/job"
	_v_queue="$_v_queue $_d"
	# shellcheck disable=SC2086
	set -- $_v_queue
	[ $# -lt "$VERIFY_JOBS" ] || _v_pan_reap
}

# _v_pan_reap: wait for the oldest search, record its result.
_v_pan_reap() {
	# shellcheck disable=SC2086
	set -- $_v_queue
	[ $# -gt 0 ] || return 0
	_d=$1
	shift
	_v_queue="$*"
	. "$_d/job"
	wait "$_j_pid"
	_j_rc=? _j_dt=?
	[ -f "$_d/done" ] && . "$_d/done"
	_states=$(sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' \
	    "$_j_log" | head -n 1)
	_errs=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' "$_j_log" |
	    head -n 1)
	_what=$(grep -m1 -E '^pan:[0-9]+: ' "$_j_log" |
	    sed 's/^pan:[0-9]*: //' | cut -c1-50)
	_v=
	if [ -z "$_errs" ]; then
		_v="no result (exit $_j_rc)"
	elif grep -qE 'max search depth too small|out of memory' "$_j_log" &&
	    [ "$_errs" -eq 0 ]; then
		_v="search incomplete"
	elif [ "$_j_expect" = ok ] && [ "$_errs" -eq 0 ]; then
		_v=ok
	elif [ "$_j_expect" = error ] && [ "$_errs" -gt 0 ]; then
		_v=ok
	fi
	if [ "$_j_expect" = ok ]; then
		_verdict="${_errs:-?} errors"
	else
		_verdict="caught: ${_what:-?}"
		[ "${_errs:-0}" -gt 0 ] || _verdict="NOT caught"
	fi
	printf '%s|%s|%s|%s\n' "$_j_name" "${_states:-?}" "$_j_dt" \
	    "$_verdict" >>"$VERIFY_TABLE"
	if [ "$_v" = ok ]; then
		t_pass "$_j_name" "${_states:-?} states, ${_j_dt}s, $_verdict"
	else
		t_fail "$_j_name" "${_v:-$_verdict}, ${_states:-?} states" \
		    "$_j_log"
	fi
	rm -f "$_d/pan" "$_d/pan.c" "$_d"/pan.[bhmpt]
}

# _v_pan_drain: record every search still running.
_v_pan_drain() {
	while [ -n "$_v_queue" ]; do
		_v_pan_reap
	done
}

_v_is_mode() {
	# guestMODE: MODE with the M-lock's guest mode (mlock.pml).
	case $1 in
	guest)	return 0 ;;
	guest*)	set -- "${1#guest}" ;;
	esac
	case " sc loop pso3 $VERIFY_WM_MODES " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# verify_models: for every registered backend, model/BE.pml:
# the model under each mode of its "*@ model" line, then every "*@
# mutant" (must be caught), "*@ holds" (must not be: the barrier is not
# needed under that memory model) and "*@ cover" (the scenario reaches
# the state: its assertion must fail).
verify_models() {
	mkdir -p "$VOBJ"
	if ! command -v spin >/dev/null 2>&1; then
		t_fail "verify/spin" "spin not installed (.ci/run installs it)"
		return
	fi
	for _be in $BACKENDS; do
		_pml=$MODEL/$_be.pml
		if [ ! -f "$_pml" ]; then
			t_fail "verify/model/$_be" "no model $_pml for backend $_be"
			continue
		fi
		sed -n 's/^ \*@ *//p' "$_pml" >"$VOBJ/specs.$_be"
		grep -q '^model ' "$VOBJ/specs.$_be" || {
			t_fail "verify/model/$_be" "no '*@ model' line in $_pml"
			continue
		}
		_nmut=0
		while read -r _kind _rest; do
			# shellcheck disable=SC2086
			set -- $_rest
			case $_kind in
			model)
				for _m in "$@"; do
					_v_pan "verify/model/$_be/$_m" "$_pml" \
					    "$_m" ok
				done
				;;
			mutant|holds)
				_mname=$1 _mac=$2
				shift 2
				_exp=error
				[ "$_kind" = holds ] && _exp=ok
				while [ $# -gt 0 ] && _v_is_mode "$1"; do
					_v_pan "verify/$_kind/$_be/$_mname/$1" \
					    "$_pml" "$1" $_exp "$_mac"
					shift
				done
				[ "$_kind" = mutant ] && _nmut=$((_nmut + 1))
				;;
			cover)
				_v_pan "verify/cover/$_be/$1" "$_pml" sc error "$2"
				;;
			esac
		done <"$VOBJ/specs.$_be"
		_v_pan_drain
		[ "$_nmut" -gt 0 ] ||
		    t_fail "verify/mutants/$_be" "model $_pml has no mutants"
	done
}

# A compiler that builds and links with -fsanitize=thread.
_v_tsan_cc() {
	mkdir -p "$VOBJ/tsan"
	echo 'int main(void) { return 0; }' >"$VOBJ/tsan/probe.c"
	for _c in ${TSAN_CC:-gcc clang cc}; do
		if $_c -fsanitize=thread -o "$VOBJ/tsan/probe" \
		    "$VOBJ/tsan/probe.c" >/dev/null 2>&1 &&
		    "$VOBJ/tsan/probe"; then
			echo "$_c"
			return 0
		fi
	done
	return 1
}

# Which tests run under TSan, with counts that keep them short.
VERIFY_TSAN_TESTS="mutex:-n20000 multi:-n20000 intr:-n3000 fifo:-n50 recurse:"

# TSan's settings: our suppressions, and exit status 66 when it
# reported anything.
_V_TSAN_OPTIONS="suppressions=$TSAN/suppressions exitcode=66"

_v_tsan_run() {
	# _v_tsan_run DIR ARGS: exit 0 when the test passes and TSan
	# reported nothing.
	_dir=$1
	shift
	TSAN_OPTIONS=$_V_TSAN_OPTIONS timeout 300 "$_dir/mplocktest" -w 60 "$@"
}

# The seeded bug: TSan must print a data race report.  TSan reports
# only races it sees happen: on a loaded machine the two threads may
# take turns through a path the bug is not on (MCS's empty-queue CAS),
# so a run without a report is tried again, three runs in all.
_v_tsan_race() {
	for _rtry in 1 2 3; do
		_v_tsan_run "$@" >"$_rlog" 2>&1
		grep -q 'WARNING: ThreadSanitizer: data race' "$_rlog" &&
		    return 0
	done
	return 1
}

# The TSan machine header defines every primitive kern_mplock.h has an
# MI fallback for: a fallback built on membar_*() would hide its
# ordering from TSan.
_v_tsan_seam() {
	_bad=0
	_ps=$(sed -n 's/^#ifndef \(mpl_[a-z_]*\)$/\1/p' \
	    "$ROOT/sys/kern/kern_mplock.h")
	[ -n "$_ps" ] || { echo "no '#ifndef mpl_*' in kern_mplock.h"; return 1; }
	for _p in $_ps; do
		grep -q "^#define $_p(" "$TSAN/machine/mplock.h" ||
		    { echo "tsan/machine/mplock.h does not define $_p"
		    _bad=1; }
	done
	return $_bad
}

# verify_tsan: the harness built with -fsanitize=thread, the lock's
# primitives as C11 atomics (tsan/), for every backend: the stress
# tests report nothing; a relaxed hand-off store, a relaxed spin load
# and (for a backend that uses them) a relaxed compare-and-swap that
# empties the queue and a relaxed link store must each be reported.
verify_tsan() {
	_tcc=$(_v_tsan_cc) || {
		t_fail "verify/tsan" "no compiler links -fsanitize=thread\
 (gcc: libtsan2; clang: libclang-rt-14-dev)"
		return
	}
	# gcc warns that TSan ignores fences; the shim's own fence (in its
	# WITNESS recorder) is not one the lock depends on.
	_cc=$_tcc
	$_tcc -Werror -Wno-tsan -fsanitize=thread -c -o "$VOBJ/tsan/probe.o" \
	    "$VOBJ/tsan/probe.c" >/dev/null 2>&1 && _cc="$_tcc -Wno-tsan"
	t_check "verify/tsan/seam" _v_tsan_seam
	# A copy of the tree whose shim has the TSan headers.
	harness_tree "$VOBJ/tsan/src"
	_tree=$VOBJ/tsan/src/tree
	_s=$_tree/regress/sys/kern/mplock/shim
	cp "$TSAN/machine/mplock.h" "$_s/include/machine/mplock.h"
	cp "$TSAN/sys/atomic.h" "$_s/include/sys/atomic.h"
	for _be in $BACKENDS; do
		_d=$VOBJ/tsan/$_be
		if ! CC=$_cc MPLOCK_ROOT=$_tree harness_build "$_d" "$_be" \
		    -fsanitize=thread; then
			t_fail "verify/tsan/$_be/build" "build failed ($_cc)" \
			    "$_d/build.log"
			continue
		fi
		for _t in $VERIFY_TSAN_TESTS; do
			t_run "verify/tsan/$_be/${_t%%:*}" 300 env \
			    TSAN_OPTIONS="$_V_TSAN_OPTIONS" "$_d/mplocktest" \
			    -w 60 ${_t#*:} "${_t%%:*}"
		done
		# ORDER:name:test: the primitive made relaxed, and the test
		# that must then report a race.  The hand-off store is each
		# backend's own; the spin load is the front end's, the same
		# for all, so it is seeded for the default backend only; the
		# CAS for a backend that uses it (multi: an instance's queue
		# often runs empty).
		_ms="STORE:handoff-store:mutex"
		[ "$_be" = "$DEFAULT_BACKEND" ] &&
		    _ms="$_ms LOAD:spin-load:mutex"
		grep -q mpl_cas_ptr_release "$ROOT/sys/kern/kern_mplock_$_be.h" &&
		    _ms="$_ms CAS:empty-cas:multi"
		grep -q mpl_store_ptr_release \
		    "$ROOT/sys/kern/kern_mplock_$_be.h" &&
		    _ms="$_ms PTR:link-store:mutex"
		for _m in $_ms; do
			_mo=${_m%%:*} _mt=${_m##*:} _m=${_m#*:}
			_m=${_m%:*}
			_mn=verify/tsan-mutant/$_be/relaxed-$_m
			_d=$VOBJ/tsan/$_be-$_m
			if ! CC=$_cc MPLOCK_ROOT=$_tree harness_build "$_d" "$_be" \
			    -fsanitize=thread \
			    -DMPL_TSAN_${_mo}_ORDER=__ATOMIC_RELAXED; then
				t_fail "$_mn" "build failed" "$_d/build.log"
				continue
			fi
			_rlog=$(_t_log "$_mn")
			if _v_tsan_race "$_d" -n20000 "$_mt"; then
				t_pass "$_mn" "caught: $(grep -c \
				    'WARNING: ThreadSanitizer: data race' \
				    "$_rlog") race reports"
			else
				t_fail "$_mn" "TSan did not report the race" \
				    "$_rlog"
			fi
		done
	done
}

# verify_table: the states/time/verdict table of this run.
verify_table() {
	[ -s "$VERIFY_TABLE" ] || return 0
	printf '\n%-48s %10s %6s  %s\n' "model check" "states" "secs" "verdict"
	awk -F'|' '{ printf "%-48s %10s %6s  %s\n", $1, $2, $3, $4 }' \
	    "$VERIFY_TABLE"
}
