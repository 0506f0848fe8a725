# The checks of "make verify" (tools/verify.sh): verify_run WHAT...
# (mapping, litmus, models, tsan or all).  Sourced after common.sh,
# testlib.sh and harness.sh by tools/verify.sh and the suite verify.

. "$ROOT/tools/lib/vendor.sh"
. "$ROOT/tools/lib/herd.sh"
. "$ROOT/tools/lib/litmus.sh"

MODEL=$ROOT/model
TSAN=$ROOT/tsan
VOBJ=$OBJ/verify
# clang compiles pan.c in about half the time gcc takes; jobs run
# VERIFY_JOBS at a time (one per CPU, at most 2).
VERIFY_PAN_CC=${VERIFY_PAN_CC:-$(command -v clang >/dev/null 2>&1 &&
    echo clang || echo "$CC")}
VERIFY_JOBS=${VERIFY_JOBS:-$(_n=$(ncpu_online); [ "$_n" -gt 2 ] && _n=2
    echo "$_n")}

# _v_bg NAME CMD: run CMD in the background, VERIFY_JOBS at a time;
# once it has ended, record the lines it printed: "pass NAME NOTE",
# "fail NAME LOG|- WHY".  A job ending writes its number and NAME to
# fd 9 (the FIFO verify_run opens), so a long search holds up no other.
_v_running=0
_v_bg() {
	_v_n=$((${_v_n:-0} + 1))
	(eval "$2" >"$VOBJ/job.$_v_n" 2>&1; echo "$_v_n $1" >&9) &
	_v_running=$((_v_running + 1))
	[ "$_v_running" -lt "$VERIFY_JOBS" ] || _v_reap
}

_v_reap() {
	read -r _v_j _v_nm <&9
	_v_running=$((_v_running - 1))
	_v_f=$VOBJ/job.$_v_j
	grep -qE '^(pass|fail) ' "$_v_f" ||
	    t_fail "$_v_nm" "no results" "$_v_f"
	while read -r _k _n _r; do
		case $_k in
		pass)	t_pass "$_n" "$_r" ;;
		fail)	_l=${_r%% *}
			t_fail "$_n" "${_r#* }" "${_l#-}" ;;
		esac
	done <"$_v_f"
}

_v_drain() {
	while [ "$_v_running" -gt 0 ]; do
		_v_reap
	done
}

# MAPPING: TAG FILE FUNCTION LINE ANCHOR; _v_sources: the FILEs.
_v_map() {
	_nc "$MODEL/MAPPING" | awk 'NF >= 5'
}

_v_sources() {
	_v_map | awk '{ print $2 }' | sort -u
}

# TAG FILE FUNCTION LINE -> the lines of FILE its ANCHOR is on now.
verify_print_map() {
	_v_map | while read -r _tag _f _fn _line _anchor; do
		_now=$(grep -nF -- "$_anchor" "$ROOT/$_f" 2>/dev/null |
		    cut -d: -f1 | tr '\n' ' ')
		printf '%-24s %-30s %-20s %4s -> %s\n' "$_tag" "$_f" "$_fn" \
		    "$_line" "${_now:-MISSING}"
	done
}

# Each [TAG] of the models is in MAPPING and each TAG there in a model;
# each anchor is on its LINE.
_v_check_map() {
	_v_map | awk '{ print $1 }' | sort -u >"$VOBJ/mapped"
	cat "$MODEL"/*.pml "$MODEL"/lib/*.pml |
	    grep -o '\[[a-z]*\.[a-z_.]*\]' | tr -d '[]' | sort -u |
	    comm -3 - "$VOBJ/mapped" | awk -F'\t' '
		$1 != "" { print "model statement [" $1 "] is not in MAPPING" }
		$1 == "" { print "MAPPING lists " $2 ", no model statement has it" }
	    ' >"$VOBJ/map.bad"
	verify_print_map | awk '{ split($0, a, " -> ")
	    if ((" " a[2]) !~ " " $4 " ")
		print $1 ": " $2 ":" $4 " lacks its anchor, now at: " a[2] }' \
	    >>"$VOBJ/map.bad"
	cat "$VOBJ/map.bad"
	[ ! -s "$VOBJ/map.bad" ]
}

_v_check_hashes() {
	_v_sources | src_hash_check "$MODEL/sources.sha256" models hashes
}

verify_mapping() {
	t_check "verify/mapping" _v_check_map
	t_check "verify/hashes" _v_check_hashes
	for _be in $BACKENDS; do
		_v_sources | grep -qx "sys/kern/kern_mplock_$_be.h" ||
		    t_fail "verify/mapping/$_be" \
		    "backend $_be has no model statements in MAPPING"
	done
}

# _l_verdict FILE MODEL: herd's verdict (Never, Sometimes, Always) or
# "error"; its output in FILE.out.  Herd's output is kept by MODEL and
# test body (without the test's name and Sequences line): i386's tests
# are amd64's, and a mutant that leaves a test alone is that test.
_l_verdict() {
	_lk=$LOBJ/cache/$2.$(sed '1d;/^Sequences=/d' "$1" | cksum | tr ' ' .)
	[ -f "$_lk" ] || herd_run "$2" "$1" >"$_lk" 2>&1
	cp "$_lk" "$1.out"
	_lv=$(awk '$1 == "Observation" { print $3 }' "$1.out")
	echo "${_lv:-error}"
}

# _l_arch ARCH MODEL MUTANT...: ARCH's tests and mutants.
_l_arch() {
	_la=$1 _lmodel=$2
	shift 2
	mkdir -p "$LOBJ/run/$_la"
	for _lp in $(litmus_patterns "$_la"); do
		_lf=$LOBJ/run/$_la/$_lp.litmus
		cp "$LTESTS/$_la/$_lp.litmus" "$_lf"
		cp "$_lf" "$_lf.u"
		_lv=$(_l_verdict "$_lf" "$_lmodel")
		# Not vacuous: with coherence alone (no ordering between
		# locations, no atomicity) the outcome must be reachable.
		_lu=$(_l_verdict "$_lf.u" uniproc.cat)
		_ln=verify/litmus/$_la/$_lp
		if [ "$_lv" != Never ]; then
			echo "fail $_ln $_lf.out $_lv (must be Never)"
		elif [ "$_lu" != Sometimes ]; then
			echo "fail $_ln $_lf.u.out Never, but also $_lu without\
 ordering (uniproc.cat): the test is vacuous"
		else
			echo "pass $_ln Never (uniproc.cat: $_lu)"
		fi
	done
	for _lm; do
		_ld=$LOBJ/mut/$_lm/$_la
		rm -rf "$_ld"
		mkdir -p "$_ld"
		_lcaught=
		for _lp in $(litmus_patterns "$_la"); do
			_lf=$_ld/$_lp.litmus
			if ! litmus_gen "$_la" "$_lp" "$_lm" >"$_lf"; then
				_lcaught="$_lcaught error:gen.awk"
				continue
			fi
			case $(_l_verdict "$_lf" "$_lmodel") in
			Sometimes|Always) _lcaught="$_lcaught $_lp" ;;
			Never)	;;
			*)	_lcaught="$_lcaught error:$_lp" ;;
			esac
		done
		_lred=$(awk -v a="$_la" -v m="$_lm" '$1 == a && $2 == m {
		    $1 = $2 = ""; print substr($0, 3) }' "$LITMUS/redundant")
		_ln=verify/litmus-mutant/$_la/$_lm
		if [ -z "${_lcaught##*error*}" ] && [ -n "$_lcaught" ]; then
			echo "fail $_ln - herd failed:$_lcaught"
		elif [ -z "$_lcaught" ] && [ -n "$_lred" ]; then
			echo "pass $_ln redundant: $_lred"
		elif [ -z "$_lcaught" ]; then
			echo "fail $_ln - not caught by any test, and not\
 recorded in litmus/redundant"
		elif [ -z "$_lred" ]; then
			echo "pass $_ln caught by$_lcaught"
		else
			echo "fail $_ln - recorded redundant, but caught\
 by$_lcaught: drop the record"
		fi
	done
}

# verify_litmus: herd7 on every test (Never) and every mutant (caught,
# or recorded in litmus/redundant).
verify_litmus() {
	t_check "verify/litmus/generated" litmus_tests
	herd_build
	case $? in
	0)	;;
	77)	t_skip "verify/litmus" "herd7 cannot be built here (tarball\
 or OCaml/dune/menhir missing)"
		return ;;
	*)	t_fail "verify/litmus/herd" "herd7 build failed" \
		    "$HERD_DIR/build.log"
		return ;;
	esac
	rm -rf "$LOBJ/cache"
	mkdir -p "$LOBJ/cache"
	# A job per model: its architectures share the verdicts.
	for _lm in $(_nc "$LITMUS/archs" | awk '{ print $2 }' | sort -u); do
		_v_bg "verify/litmus/$_lm" "$(_nc "$LITMUS/archs" |
		    awk -v m="$_lm" '$2 == m { print "_l_arch", $0 ";" }')"
	done
}

# _v_mode_defs MODE: spin -D flags of a scenario, false if MODE is none
# (a "*@" line's modes end where its description starts); guestMODE is
# MODE (guest: sc) in the M-lock's guest mode, -DGUEST (_v_search).
_v_mode_defs() {
	case ${1#guest} in
	""|sc)	;;
	loop)	echo "-DLOOP -DNCPU=2" ;;
	pso3)	echo "-DWM -DNCPU=3 -DNACQ=2 -DMM_PSO" ;;
	tso|pso|rmo|alpha)
		echo "-DWM -DNCPU=2 -DNACQ=3 -DMM_$(upper "${1#guest}")" ;;
	*)	return 1 ;;
	esac
}

# _v_pan NAME MODEL MODE EXPECT [DEFINE]: spin, compile and run pan (a
# job, _v_search); EXPECT ok (no error, a complete search) or error.
_v_pan() {
	_v_bg "$1" "_v_search $1 '$2' $3 $4 ${5:-}"
}

_v_search() {
	_d=$VOBJ/run/$(echo "$1" | tr '/' '_')
	_log=$(_t_log "$1")
	rm -rf "$_d"
	mkdir -p "$_d"
	_defs="$(_v_mode_defs "$3") ${5:+-D$5}"
	[ "${3#guest}" = "$3" ] || _defs="-DGUEST $_defs"
	_cflags="-DSAFETY -DCOLLAPSE -DMEMLIM=2048" _run="./pan -n -m100000"
	[ "${3#guest}" = loop ] && _cflags="-DCOLLAPSE -DNFAIR=3 -DMEMLIM=2048" \
	    _run="./pan -a -f -n -m500000"
	# Compiling pan.c, and setting up pan's default hash table (-w24,
	# 128 MB), take longer than most searches: only the big ones get
	# -O1 and -w24.
	case $3:$4 in
	sc:ok|pso3:ok|guest:ok) _opt=-O1 _run="$_run -w24" ;;
	*)	_opt=-O0 _run="$_run -w22" ;;
	esac
	_t0=$(date +%s)
	# shellcheck disable=SC2086
	(
		cd "$_d" &&
		echo "spin -a $_defs $2" &&
		spin -a $_defs "$2" </dev/null &&
		$VERIFY_PAN_CC $_opt -w $_cflags -o pan pan.c &&
		echo "$_run" && timeout 600 $_run </dev/null
	) >"$_log" 2>&1
	_rc=$? _dt=$(($(date +%s) - _t0))
	rm -f "$_d/pan" "$_d/pan.c" "$_d"/pan.[bhmpt]
	_states=$(awk '/ states, stored/ { print $1; exit }' "$_log")
	_states=${_states:-?}
	_errs=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' "$_log" |
	    head -n 1)
	_what=$(grep -m1 -E '^pan:[0-9]+: ' "$_log" |
	    sed 's/^pan:[0-9]*: //' | cut -c1-50)
	if [ -z "$_errs" ]; then
		echo "fail $1 $_log no result (exit $_rc), $_states states"
	elif [ "$_errs" -eq 0 ] &&
	    grep -qE 'max search depth too small|out of memory' "$_log"; then
		echo "fail $1 $_log search incomplete, $_states states"
	elif [ "$4" = ok ] && [ "$_errs" -eq 0 ]; then
		echo "pass $1 $_states states, ${_dt}s, 0 errors"
	elif [ "$4" = ok ]; then
		echo "fail $1 $_log $_errs errors, $_states states"
	elif [ "$_errs" -gt 0 ]; then
		echo "pass $1 $_states states, ${_dt}s, caught: ${_what:-?}"
	else
		echo "fail $1 $_log NOT caught, $_states states"
	fi
}

# verify_models: for every backend, model/BE.pml under each mode of its
# "*@ model" line, then every "*@ mutant" (must be caught), "*@ holds"
# (must not be: the barrier is not needed under that memory model) and
# "*@ cover" (the scenario reaches the state: its assertion must fail).
verify_models() {
	if ! command -v spin >/dev/null 2>&1; then
		t_fail "verify/spin" "spin not installed (.ci/run installs it)"
		return
	fi
	for _be in $BACKENDS; do
		_pml=$MODEL/$_be.pml
		sed -n 's/^ \*@ *//p' "$_pml" >"$VOBJ/specs.$_be" 2>/dev/null
		grep -q '^model ' "$VOBJ/specs.$_be" || {
			t_fail "verify/model/$_be" \
			    "no model $_pml, or no '*@ model' line in it"
			continue
		}
		grep -q '^mutant ' "$VOBJ/specs.$_be" ||
		    t_fail "verify/mutants/$_be" "model $_pml has no mutants"
		while read -r _kind _rest; do
			# shellcheck disable=SC2086
			set -- $_rest
			case $_kind in
			model)
				for _m; do
					# 16 million states; its mutants and
					# covers run all the same.
					if [ "$_be/$_m" = mlock/guest ] &&
					    [ "${MPLOCK_FULL:-0}" != 1 ]; then
						t_skip "verify/model/$_be/$_m" \
						    "a long search: MPLOCK_FULL=1"
						continue
					fi
					_v_pan "verify/model/$_be/$_m" "$_pml" \
					    "$_m" ok
				done ;;
			mutant|holds)
				_mname=$1 _mac=$2 _exp=error
				[ "$_kind" = holds ] && _exp=ok
				shift 2
				while [ $# -gt 0 ] && _v_mode_defs "$1" >/dev/null
				do
					_v_pan "verify/$_kind/$_be/$_mname/$1" \
					    "$_pml" "$1" $_exp "$_mac"
					shift
				done ;;
			cover)
				_v_pan "verify/cover/$_be/$1" "$_pml" sc error "$2" ;;
			esac
		done <"$VOBJ/specs.$_be"
	done
}

# A compiler that builds and links with -fsanitize=thread; with
# -Wno-tsan where it has it (gcc warns that TSan ignores fences; the
# shim's own fence, in its WITNESS recorder, is not one the lock needs).
_v_tsan_cc() {
	mkdir -p "$VOBJ/tsan"
	echo 'int main(void) { return 0; }' >"$VOBJ/tsan/probe.c"
	for _c in ${TSAN_CC:-gcc clang cc}; do
		$_c -fsanitize=thread -o "$VOBJ/tsan/probe" \
		    "$VOBJ/tsan/probe.c" >/dev/null 2>&1 &&
		    "$VOBJ/tsan/probe" || continue
		$_c -Werror -Wno-tsan -fsanitize=thread -c -o /dev/null \
		    "$VOBJ/tsan/probe.c" >/dev/null 2>&1 && _c="$_c -Wno-tsan"
		echo "$_c"
		return 0
	done
	return 1
}

# The TSan machine header defines every primitive kern_mplock.h has an
# MI fallback for: a fallback built on membar_*() would hide its
# ordering from TSan.
_v_tsan_seam() {
	sed -n 's/^#ifndef \(mpl_[a-z_]*\)$/\1/p' \
	    "$ROOT/sys/kern/kern_mplock.h" | sort >"$VOBJ/tsan/mi"
	[ -s "$VOBJ/tsan/mi" ] ||
	    { echo "no '#ifndef mpl_*' in kern_mplock.h"; return 1; }
	sed -n 's/^#define \(mpl_[a-z_]*\)(.*/\1/p' "$TSAN/machine/mplock.h" |
	    sort | comm -23 "$VOBJ/tsan/mi" - |
	    sed 's,^,tsan/machine/mplock.h does not define ,' | grep . && return 1
	return 0
}

# _v_tsan_build NAME DIR [CFLAGS]: harness_check of mplocktest for $_be
# with TSan ($_cc, the tree $_tree).
_v_tsan_build() {
	CC=$_cc MPLOCK_ROOT=$_tree HARNESS_PROGS=mplocktest harness_check \
	    "$1" "$2" "$_be" -fsanitize=thread ${3:-}
}

# Which tests run under TSan, with counts that keep them short; TSan's
# settings: our suppressions, exit status 66 when it reported anything.
VERIFY_TSAN_TESTS="mutex:-n20000 multi:-n20000 intr:-n3000 fifo:-n50 recurse:"
_V_TSAN_OPTIONS="suppressions=$TSAN/suppressions exitcode=66"

# verify_tsan: for every backend, the stress tests under TSan report
# nothing, and each primitive made relaxed is reported (doc/verification.md).
verify_tsan() {
	_cc=$(_v_tsan_cc) || {
		t_fail "verify/tsan" "no compiler links -fsanitize=thread\
 (gcc: libtsan2; clang: libclang-rt-14-dev)"
		return
	}
	t_check "verify/tsan/seam" _v_tsan_seam
	# A copy of the tree whose shim has the TSan headers.
	harness_tree "$VOBJ/tsan/src"
	_tree=$VOBJ/tsan/src/tree
	_s=$_tree/regress/sys/kern/mplock/shim/include
	cp "$TSAN/machine/mplock.h" "$_s/machine/mplock.h"
	for _be in $BACKENDS; do
		_d=$VOBJ/tsan/$_be
		_v_tsan_build "verify/tsan/$_be/build" "$_d" || continue
		for _t in $VERIFY_TSAN_TESTS; do
			t_run "verify/tsan/$_be/${_t%%:*}" 300 env \
			    TSAN_OPTIONS="$_V_TSAN_OPTIONS" "$_d/mplocktest" \
			    -w 60 ${_t#*:} "${_t%%:*}"
		done
		# The primitive made relaxed, named, the test that must then
		# report a race, for which backends: the spin load is the
		# front end's (default backend only); the CAS in multi,
		# where an instance's queue often runs empty.
		_bf=$ROOT/sys/kern/kern_mplock_$_be.h
		while read -r _mo _m _mt _mif; do
			case $_mif in
			all)	;;
			default) [ "$_be" = "$DEFAULT_BACKEND" ] || continue ;;
			*)	grep -q "$_mif" "$_bf" || continue ;;
			esac
			_mn=verify/tsan-mutant/$_be/relaxed-$_m
			_d=$VOBJ/tsan/$_be-$_m
			_v_tsan_build "$_mn" "$_d" \
			    -DMPL_TSAN_${_mo}_ORDER=__ATOMIC_RELAXED </dev/null ||
			    continue
			# TSan reports only races it sees happen: on a loaded
			# machine the threads may take turns through a path
			# the bug is not on, so up to three runs.
			_rlog=$(_t_log "$_mn")
			for _try in 1 2 3; do
				TSAN_OPTIONS=$_V_TSAN_OPTIONS timeout 300 \
				    "$_d/mplocktest" -w 60 -n20000 "$_mt" \
				    </dev/null >"$_rlog" 2>&1
				_n=$(grep -c 'WARNING: ThreadSanitizer: data race' \
				    "$_rlog") && break
			done
			if [ "$_n" -gt 0 ]; then
				t_pass "$_mn" "caught: $_n race reports"
			else
				t_fail "$_mn" "TSan did not report the race" \
				    "$_rlog"
			fi
		done <<EOT
STORE handoff-store mutex all
LOAD spin-load mutex default
CAS empty-cas multi mpl_cas_ptr_release
PTR link-store mutex mpl_store_ptr_release
EOT
	done
}

# The jobs of litmus and models share the CPUs; TSan's runs, whose
# races must happen to be seen, wait for them to end.
verify_run() {
	[ "$1" = all ] && set -- mapping litmus models tsan
	mkdir -p "$VOBJ" "$LOBJ"
	rm -f "$VOBJ/jobs.fifo"
	mkfifo "$VOBJ/jobs.fifo" && exec 9<>"$VOBJ/jobs.fifo" || return 1
	for _w; do
		[ "$_w" = tsan ] && _v_drain
		"verify_$_w"
	done
	_v_drain
}
