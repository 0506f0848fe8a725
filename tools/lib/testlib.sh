# Test helpers for tools/tests.d, sourced by tools/test.sh: each check
# prints one line, PASS, FAIL or SKIP, appended to $RESULTS.

LOGS=$OBJ/logs
mkdir -p "$LOGS"

_t_record() {
	# _t_record STATUS NAME [NOTE]
	echo "$1 $2" >>"$RESULTS"
	_n=$(wc -l <"$RESULTS" | tr -d ' ')
	printf '[%3d] %-4s %s%s\n' "$_n" "$1" "$2" "${3:+  ($3)}"
}

t_pass() {
	_t_record PASS "$1" "${2:-}"
}

t_skip() {
	_t_record SKIP "$1" "${2:-}"
}

# t_fail NAME WHY [LOG]: record a failure and show the end of its log.
t_fail() {
	_t_record FAIL "$1" "$2"
	if [ -n "${3:-}" ] && [ -s "$3" ]; then
		tail -n 15 "$3" | sed 's/^/      | /'
		echo "      (log: $3)"
	fi
}

_t_log() {
	echo "$LOGS/$(echo "$1" | tr '/ ' '__').log"
}

# _t_exec NAME SECONDS COMMAND ...: run COMMAND with a time limit, its
# output in _log; sets _name, _secs, _log, _rc and _dt (seconds taken).
_t_exec() {
	_name=$1 _secs=$2
	shift 2
	_log=$(_t_log "$_name")
	_t0=$(date +%s)
	timeout "$_secs" "$@" >"$_log" 2>&1
	_rc=$?
	_dt=$(($(date +%s) - _t0))
}

# t_judge [NOTE]: the line of _t_exec's run: PASS on exit 0, SKIP on 77,
# else FAIL; NOTE follows the time taken.
t_judge() {
	case $_rc in
	0)	t_pass "$_name" "${_dt}s${1:+: $1}" ;;
	77)	t_skip "$_name" "$(tail -n 1 "$_log")" ;;
	124)	t_fail "$_name" "timed out after ${_secs}s" "$_log" ;;
	*)	t_fail "$_name" "exit $_rc, ${_dt}s${1:+: $1}" "$_log" ;;
	esac
	return $_rc
}

# t_run NAME SECONDS COMMAND ...: PASS when COMMAND exits 0, SKIP on 77.
t_run() {
	_t_exec "$@"
	t_judge
}

# t_caught: _t_exec's run caught its seeded bug: it hung, or a test
# failed (a FAIL line, _why, and a non-zero exit but 77).
t_caught() {
	_why=$(grep -m1 -E 'FAIL' "$_log" | cut -c1-90)
	case $_rc in
	0|77)	return 1 ;;
	124)	_why="hang, killed after ${_secs}s" ;;
	esac
	[ -n "$_why" ]
}

# t_kernel_caught: _t_exec's tools/kernel.sh run caught its seeded bug:
# a FAIL verdict (exit 1 alone is also a usage error), a panic (3) or
# a hang (4; 124, killed).
t_kernel_caught() {
	case $_rc in
	1)	grep -q '^kernel: [^:]*: FAIL' "$_log" ;;
	3|4|124) ;;
	*)	return 1 ;;
	esac
}

# t_run_fails NAME SECONDS COMMAND ...: a seeded bug: PASS when
# t_caught; any other failure (a usage error, a crash) is a FAIL.
t_run_fails() {
	t_seeded run "$@"
	_t_exec "$@"
	t_caught && { t_pass "$_name" "caught: $_why"; return; }
	case $_rc in
	0)	t_fail "$_name" "seeded bug NOT caught" "$_log" ;;
	77)	t_fail "$_name" "skipped, so not caught" "$_log" ;;
	*)	t_fail "$_name" "exit $_rc, but no test failed" "$_log" ;;
	esac
}

# t_seeded KIND NAME SECONDS COMMAND ...: with FLAKY_LOG (make
# test-flaky), note a seeded bug's run for tools/flaky.sh: KIND "run"
# as t_run_fails judges, "kernel" as t_kernel_caught.
t_seeded() {
	[ -n "${FLAKY_LOG:-}" ] || return 0
	{
		printf '%s\t%s\t%s\t' "$1" "$2" "$3"
		shift 3
		for _a in "$@"; do
			printf "'%s' " "$(printf '%s' "$_a" | sed "s/'/'\\\\''/g")"
		done
		echo
	} >>"$FLAKY_LOG"
}

# t_check NAME COMMAND ...: like t_run without a time limit of its own.
t_check() {
	_name=$1
	shift
	_log=$(_t_log "$_name")
	if "$@" >"$_log" 2>&1; then
		t_pass "$_name"
	else
		t_fail "$_name" "exit $?" "$_log"
	fi
}

# t_need CMD NAME COMMAND ...: t_check, or SKIP without CMD.
t_need() {
	if command -v "$1" >/dev/null 2>&1; then
		shift
		t_check "$@"
	else
		t_skip "$2" "no $1"
	fi
}

# t_usage NAME SCRIPT ARGS...: each ARGS word (eval'd) is a misuse:
# exit 1, "NAME: " lines, the usage and nothing else, and the -o
# directory ($OBJ/usage-out) not created.
t_usage() {
	_tn=$1 _ts=$2
	shift 2
	rm -rf "$OBJ/usage-out"
	for _ta in "$@"; do
		eval "sh \"\$ROOT/$_ts\" -o \"\$OBJ/usage-out\" $_ta" \
		    >"$OBJ/usage.out" 2>&1
		_rc=$?
		[ "$_rc" -eq 1 ] || { echo "$_ta: exit $_rc, not 1"; return 1; }
		head -n 1 "$OBJ/usage.out" | grep -q "^$_tn: " ||
		    { echo "$_ta: no $_tn: message first"; return 1; }
		grep -q "^usage: $_ts " "$OBJ/usage.out" ||
		    { echo "$_ta: no usage"; return 1; }
		grep -v "^$_tn: \|^usage: $_ts \|^       " "$OBJ/usage.out" |
		    grep -q . && { echo "$_ta: other output:"
			cat "$OBJ/usage.out"; return 1; }
		[ ! -e "$OBJ/usage-out" ] ||
		    { echo "$_ta: created the output directory"; return 1; }
	done
	return 0
}

# t_seeded_tool NAME VAR SED FUNCTION [ARGS]: a seeded bug in a tool:
# with VAR naming a copy of its script with SED applied (which must
# change it), FUNCTION ARGS must fail: PASS "caught".
t_seeded_tool() {
	_sn=$1 _sv=$2 _sx=$3
	shift 3
	eval "_ss=\$$_sv"
	_sd=$OBJ/seeded/$(echo "$_sn" | tr '/ ' '__')
	rm -rf "$_sd"
	mkdir -p "$_sd"
	sed "$_sx" "$_ss" >"$_sd/${_ss##*/}"
	if cmp -s "$_ss" "$_sd/${_ss##*/}"; then
		t_fail "$_sn" "the seed no longer changes ${_ss##*/}"
		return
	fi
	_log=$(_t_log "$_sn")
	eval "$_sv=\$_sd/\${_ss##*/}"
	if "$@" >"$_log" 2>&1; then
		eval "$_sv=\$_ss"
		t_fail "$_sn" "seeded bug NOT caught" "$_log"
	else
		eval "$_sv=\$_ss"
		t_pass "$_sn" "caught: $(tail -n 1 "$_log" | cut -c1-70)"
	fi
}
