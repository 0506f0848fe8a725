# buildtime (tools/buildtime): compare gives the 2022 tech@ figures the
# verdicts they should, with the t quantiles of the tables; import reads
# every time format exactly or refuses in one line; run times a small
# build, and never loses or passes off a timing file; OpenBSD's awk and
# ksh run it; usage follows OpenBSD's conventions.

BT=$ROOT/tools/buildtime
BTD=$OBJ/buildtime
rm -rf "$BTD"
mkdir -p "$BTD"

# bt_dir NAME: an empty $BTD/NAME, in _d.
bt_dir() {
	_d=$BTD/$1
	rm -rf "$_d"
	mkdir -p "$_d"
}

# bt_fails CMD...: exit 1, no stdout, one "buildtime: " line ($BTD/err).
bt_fails() {
	"$@" >"$BTD/out" 2>"$BTD/err"
	_rc=$?
	echo "$*: exit $_rc: $(cat "$BTD/err")"
	[ "$_rc" -eq 1 ] && [ ! -s "$BTD/out" ] &&
	    [ "$(wc -l <"$BTD/err")" -eq 1 ] &&
	    grep -q '^buildtime: ' "$BTD/err" && return 0
	echo "not refused in one line: exit $_rc"
	return 1
}

# bt_data FILE VALUE ...: a results file of real times only.
bt_data() {
	_f=$1
	shift
	{
		printf '# buildtime results\n# real user sys (seconds)\n'
		printf '%s\n' "$@"
	} >"$BTD/$_f"
}

# The M-lock's 2022 posts, libc's make -j, real seconds: amd64
# (i7-10700K), a 4-core VM and an M1 (posted as ranges: ends and middle).
bt_data amd64-before 55.83 55.07 55.44
bt_data amd64-after 53.06 52.83 53.03
bt_data vm-before 120 120.5 121
bt_data vm-after 119 120 121
bt_data m1-before 115.9 116.4 116.9
bt_data m1-after 108.4 108.9 109.4

# bt_verdict BEFORE AFTER WANT [LO HI]: the verdict, its change in %.
bt_verdict() {
	_out=$(sh "$BT" compare "$BTD/$1" "$BTD/$2") || return 1
	echo "$_out"
	echo "$_out" | grep -q "^$3 .*at 95.0% confidence" ||
	    { echo "verdict is not: $3"; return 1; }
	[ $# -eq 3 ] || echo "$_out" | awk -v lo="$4" -v hi="$5" '
	/^\t.*% \+\/- / { p = $1 + 0; found = 1 }
	END {
		if (!found || p < lo || p > hi) {
			printf "change %s%%, not in %s..%s\n", p, lo, hi
			exit 1
		}
	}'
}

t_check "buildtime/2022-amd64-significant" bt_verdict amd64-before \
    amd64-after Difference -4.6 -4.3
t_check "buildtime/2022-vm-no-difference" bt_verdict vm-before vm-after \
    "No difference"
t_check "buildtime/2022-m1-significant" bt_verdict m1-before m1-after \
    Difference -6.6 -6.2

# Student's t quantiles (df, confidence, the tables' figure): odd and
# even df, past 100 the normal's.
bt_student() {
	stats_awk "$BTD/stats.awk" || return 1
	awk "$(cat "$BTD/stats.awk")"'
	{
		t = student($1, $2)
		printf "df %d, %s%%: %s, tables %s\n", $1, $2, t, $3
		bad = bad || t != $3
	}
	END { exit bad }' <<'EOT'
1 95 12.706
2 98 6.965
4 95 2.776
4 99.5 5.598
7 80 1.415
10 99 3.169
30 90 1.697
100 95 1.984
101 95 1.96
EOT
}
t_check "buildtime/student-quantiles" bt_student

# bt_want [FILE]: the data lines of FILE (stdin) are want.data's.
bt_want() {
	grep -v '^#' ${1+"$1"} | diff "$BTD/want.data" -
}

# bt_gen_reports SEED LOG WANT: in LOG, reports in every format (time
# -p, time(1), ksh's, bash's), on one line and three, blanks, tabs, CRLF,
# minutes, amid other output; in WANT, the lines import must make of
# them (worked out in integer arithmetic).
bt_gen_reports() {
	awk -v seed="$1" -v logf="$2" -v want="$3" '
	function dec(v, d) {	# v: an integer of 10^-d s
		return sprintf("%d.%0" d "d", int(v / 10 ^ d), v % 10 ^ d)
	}
	function ms(v, d, pad,    m, s) {	# 1m02.50s
		m = int(v / 10 ^ d / 60)
		s = v - m * 60 * 10 ^ d
		return m "m" (pad && s < 10 * 10 ^ d ? "0" : "") dec(s, d) "s"
	}
	function blank() {
		return substr("                ", 1, 1 + int(rand() * 6))
	}
	function sep() {
		return rand() < 0.3 ? "\t" : blank()
	}
	function out(l) {
		printf "%s%s\n", l, crlf ? "\r" : "" > logf
	}
	BEGIN {
		srand(seed)
		lab[1] = "real"; lab[2] = "user"; lab[3] = "sys"
		for (r = 0; r < 48; r++) {
			fmt = r % 8
			crlf = rand() < 0.2
			d = fmt == 6 || fmt == 7 ? 3 : 2
			for (k = 1; k <= 3; k++) {
				# Minutes in every fourth report.
				v[k] = int(rand() * (r % 4 ? 6000 : 900000))
				if (d == 3)
					v[k] = v[k] * 10 + int(rand() * 10)
			}
			if (rand() < 0.5)
				out("cc -O2 -c sys/kern/kern_lock.c")
			if (rand() < 0.3)
				out("===> sys")
			if (fmt == 6 || fmt == 7)
				out("")
			line = ""
			for (k = 1; k <= 3; k++) {
				l = lab[k]
				x = dec(v[k], d)
				if (fmt == 0 || fmt == 1)	# time -p
					f = l sep() (r % 4 ? x : ms(v[k], 2))
				else if (fmt == 2 || fmt == 3)	# time(1)
					f = sprintf("%12s", x) " " l
				else if (fmt == 4 || fmt == 5) {	# ksh
					if (l == "sys")
						l = "system"
					f = ms(v[k], 2, r % 2) sep() l
				} else	# bash
					f = l "\t" ms(v[k], 3)
				if (fmt % 2 == 0) {	# three lines
					out(blank() f)
				} else
					line = line (k > 1 ? sep() : blank()) f
			}
			if (line != "")
				out(line sep())
			printf "%s %s %s\n", dec(v[1], d), dec(v[2], d),
			    dec(v[3], d) > want
		}
	}'
}
bt_gen_reports 5 "$BTD/times.log" "$BTD/want.data"

# A small C project.
mkdir -p "$BTD/proj"
echo 'int main(void) { return 0; }' >"$BTD/proj/main.c"
printf '%s\n' 'prog: main.c' '	$(CC) -O2 -o prog main.c' 'clean:' \
    '	rm -f prog' >"$BTD/proj/Makefile"

# The timing loop end to end (-j2), from another directory: the files
# where the user is (a relative -o, or the default name), not in -C's;
# a build that fails stops the run, its message naming the log.
bt_loop() {
	bt_dir cwd
	(cd "$_d" && sh "$BT" run -C ../proj -j 2 -n 3 -w 1 -l loop \
	    -o loop.txt) || return 1
	_r=$_d/loop.txt
	cat "$_r"
	for _k in date host kernel dir command timer load; do
		grep -q "^# $_k: ." "$_r" || { echo "no $_k line"; return 1; }
	done
	[ -x "$BTD/proj/prog" ] || { echo "nothing was built"; return 1; }
	grep -q 'rm -f prog' "$_d/loop.log" || { echo "no log"; return 1; }
	[ ! -e "$BTD/proj/loop.txt" ] && [ ! -e "$BTD/proj/loop.log" ] ||
	    { echo "written into -C's directory"; return 1; }
	[ "$(grep -vc '^#' "$_r")" -eq 3 ] &&
	    [ "$(grep -Ecx '([0-9]+\.[0-9]{2} ){2}[0-9]+\.[0-9]{2}' "$_r")" \
	    -eq 3 ] || { echo "not 3 runs of real user sys"; return 1; }
	# The same file twice: no difference (proven, or no spread at all).
	sh "$BT" compare "$_r" "$_r" | grep -q '^No difference' || return 1
	mkdir -p "$BTD/broken"
	printf 'all:\n\tfalse\nclean:\n\t:\n' >"$BTD/broken/Makefile"
	(cd "$_d" && sh "$BT" run -C ../broken -n 1 -w 0 -l fails) \
	    2>"$BTD/cwd.err" && return 1
	cat "$BTD/cwd.err"
	_log=$(sed -n 's/.*build failed, see //p' "$BTD/cwd.err")
	case $_log in
	"$_d"/fails-*.log.failed)	;;
	*)	echo "log named: $_log"; return 1 ;;
	esac
	grep -q false "$_log"
}
if [ -x /usr/bin/time ]; then
	t_check "buildtime/run/loop" bt_loop
else
	t_skip "buildtime/run/loop" "no /usr/bin/time (Debian: time)"
fi

# OpenBSD's ksh and awk: the same under mksh and original-awk.
bt_bsd() {
	mkdir -p "$BTD/bsdbin"
	ln -sf "$(command -v original-awk)" "$BTD/bsdbin/awk"
	PATH=$BTD/bsdbin:$PATH mksh "$BT" compare "$BTD/amd64-before" \
	    "$BTD/amd64-after" >"$BTD/bsd.out" || return 1
	cat "$BTD/bsd.out"
	sh "$BT" compare "$BTD/amd64-before" "$BTD/amd64-after" |
	    diff - "$BTD/bsd.out" || return 1
	PATH=$BTD/bsdbin:$PATH mksh "$BT" import "$BTD/times.log" |
	    bt_want
}
if command -v original-awk >/dev/null 2>&1 &&
    command -v mksh >/dev/null 2>&1; then
	t_check "buildtime/bsd-awk-and-ksh" bt_bsd
else
	t_skip "buildtime/bsd-awk-and-ksh" "original-awk or mksh missing"
fi

# Odd inputs to compare, by hand and random: a verdict or one line of
# error, never a silent misreading; no-* refused and ok-* read (real).
bt_odd_inputs() {
	bt_dir odd
	while IFS='|' read -r _f _fmt; do
		printf -- "$_fmt" >"$_d/$_f"
	done <<'EOT'
base|1\n2\n3\n
no-empty|
ok-crlf|1\r\n2\r\n3\r\n
ok-crlf3|1 2 3\r\n4 5 6\r\n7 8 9\r\n
no-nul|1\000\n2\n3\n
no-binary|\377\376x\n2\n3\n
no-huge|1e300\n2e300\n3e300\n
no-inf|1e400\n2\n3\n
no-digits|12345678901234567890.5\n1\n2\n
no-missing|1 2 3\n4 5\n6 7 8\n9 1 2\n
ok-blank|# c\n\n1\n2\n3\n
ok-nonl|1\n2\n3
no-hex|0x10\n2\n3\n
no-nan|nan\n2\n3\n
ok-negative|-1\n2\n3\n
no-comma|1,5\n2,5\n3,5\n
no-two|1\n2\n
no-oneline|55.83 400 260\n
EOT
	awk -v d="$_d" 'BEGIN { srand(7)
	    for (f = 0; f < 12; f++) {
		n = int(rand() * 6)
		for (i = 0; i < n; i++) {
			l = ""
			m = int(rand() * 12)
			for (j = 0; j < m; j++)
				l = l substr("0123456789.e- +#\t\r x", \
				    int(rand() * 22) + 1, 1)
			print l > (d "/rand" f)
		}
		close(d "/rand" f)
	    } }'
	for _f in "$_d"/*; do
		for _fld in real user; do
			sh "$BT" compare -f $_fld "$_d/base" "$_f" >"$BTD/out" \
			    2>"$BTD/err"
			_rc=$?
			echo "${_f##*/} ($_fld): exit $_rc: $(cat "$BTD/err")"
			case $_rc in
			0)	grep -q 'confidence$' "$BTD/out" ;;
			1)	[ ! -s "$BTD/out" ] &&
				    [ "$(wc -l <"$BTD/err")" -eq 1 ] ;;
			*)	false ;;
			esac || { echo "no verdict, nor one line of error"
			    return 1; }
			case $_fld${_f##*/}$_rc in
			realno-*0|realok-*1)	return 1 ;;
			esac
		done
	done
}
t_check "buildtime/odd-inputs/compare" bt_odd_inputs

# compare names the file with too few data points, and why.
bt_compare_short() {
	bt_dir short
	_h='# buildtime results\n# runs: 5 after 1 warm-up\n# real user sys\n'
	printf "$_h" >"$_d/before.txt"
	printf "$_h"'1 1 1\n2 2 2\n3 3 3\n4 4 4\n5 5 5\n' >"$_d/after.txt"
	printf '1 1 1\n2 2 2\n' >"$_d/two.txt"
	printf "$_h"'1 1 1\n2 2 2\n3 3 3\n' >"$_d/cut.txt"
	for _c in \
	    "before.txt: 0 data points (a failed run?); at least 3 needed" \
	    "two.txt: 2 data points; at least 3 needed" \
	    "cut.txt: 3 data points of the 5 runs it names (an interrupted\
 run?)"; do
		(cd "$_d" && bt_fails sh "$BT" compare after.txt "${_c%%:*}") &&
		    [ "$(cat "$BTD/err")" = "buildtime: $_c" ] || return 1
	done
}
t_check "buildtime/compare/names-short-file" bt_compare_short

# A misuse: "buildtime: why", then the usage, on stderr, exit 1; a bad
# value: one line.  (help and -h: patch/usage/help-is-the-page.)
bt_usage() {
	bt_dir usage
	while IFS='|' read -r _a _m; do
		sh "$BT" $_a >"$_d/out" 2>"$_d/err"
		_rc=$?
		echo "\"$_a\": exit $_rc: $(sed 1q "$_d/err")"
		[ "$_rc" -eq 1 ] && [ ! -s "$_d/out" ] &&
		    sed 1q "$_d/err" | grep -q "^buildtime: ${_m:-.}" &&
		    [ "$(grep -c '^usage: buildtime ' "$_d/err")" -eq 1 ] ||
		    return 1
		# The message, the usage block and its continuation lines.
		sed 1d "$_d/err" |
		    grep -Ev '^(usage: buildtime |	|       )' && return 1
	done <<'EOT'
|
bogus|bogus: unknown
--help|
-x|
run -x|-x: unknown option
run -C|-C: 
import -z|
compare -y|
compare|
run extra|
EOT
	for _a in "compare -f x a|-f x" "compare -c 200 a|-c 200"; do
		(cd "$_d" && bt_fails sh "$BT" ${_a%|*}) &&
		    grep -q "^buildtime: ${_a#*|}: " "$BTD/err" || return 1
	done
}
t_check "buildtime/usage-conventions" bt_usage

# Nothing a user times is lost or misread (and seeded copies of the tool
# that would are caught).

# bt_guard_project DIR: a project that notes every build in DIR/built,
# and whose clean and build fail unless DIR/guard.sh passes.
bt_guard_project() {
	rm -rf "$1"
	mkdir -p "$1/proj"
	printf '#!/bin/sh\n' >"$1/guard.sh"
	printf '%s\n' 'all:' "	echo build >>$1/built" \
	    "	sh $1/guard.sh" 'clean:' "	echo clean >>$1/built" \
	    "	sh $1/guard.sh" >"$1/proj/Makefile"
}

# bt_guard DIR: its guard: DIR/r.txt and DIR/r.log are as saved now.
bt_guard() {
	bt_guard_project "$1"
	echo "my results" >"$1/r.txt"
	echo "my log" >"$1/r.log"
	for _gf in "$1/r.txt" "$1/r.log"; do
		cp "$_gf" "$_gf.saved"
		echo "cmp -s '$_gf' '$_gf.saved' || exit 1" >>"$1/guard.sh"
	done
}

# Without -f an existing results file, log, .failed or .new is refused,
# nothing built; with -f the old files stay until the last build, and
# a run that fails leaves them, its own as .failed files named on
# stderr.  import -o the same.
bt_no_clobber() {
	_d=$BTD/clobber
	for _x in txt log txt.failed log.failed txt.new log.new; do
		bt_guard_project "$_d"
		echo "my $_x" >"$_d/r.$_x"
		(cd "$_d" && bt_fails sh "$BT" run -C proj -n 3 -w 0 -o r.txt) &&
		    [ "$(cat "$BTD/err")" = "buildtime: $_d/r.$_x: exists; -f\
 replaces it (once the new one is complete)" ] &&
		    [ "$(cat "$_d/r.$_x")" = "my $_x" ] || return 1
		[ ! -e "$_d/built" ] || { echo "$_x: built"; return 1; }
		[ "$(ls "$_d" | wc -l)" -eq 3 ] || { ls "$_d"; return 1; }
	done
	bt_guard "$_d"
	(cd "$_d" && sh "$BT" run -f -C proj -n 3 -w 1 -o r.txt) ||
	    { echo "-f: failed (a file changed before the last build?)"
	    return 1; }
	[ "$(grep -c build "$_d/built")" -eq 4 ] &&
	    [ "$(grep -vc '^#' "$_d/r.txt")" -eq 3 ] &&
	    grep -q "sh $_d/guard.sh" "$_d/r.log" &&
	    [ ! -e "$_d/r.txt.new" ] && [ ! -e "$_d/r.log.new" ] || return 1
	bt_guard "$_d"
	echo "exit 1" >>"$_d/guard.sh"
	(cd "$_d" && sh "$BT" run -f -C proj -n 3 -w 0 -o r.txt) \
	    2>"$_d.err" && { echo "a failing clean: exit 0"; return 1; }
	cat "$_d.err"
	cmp -s "$_d/r.txt" "$_d/r.txt.saved" &&
	    cmp -s "$_d/r.log" "$_d/r.log.saved" ||
	    { echo "a failed run changed the old files"; return 1; }
	_f=$_d/r.txt.failed
	grep -q '^# runs: 3' "$_f" && grep -q 'guard.sh' "$_d/r.log.failed" &&
	    grep -q "^buildtime: make clean failed, see $_d/r.log.failed" \
	    "$_d.err" && grep -q "^buildtime: $_f: the runs so far" "$_d.err" ||
	    return 1
	sh "$BT" import -o "$_d/r.txt" "$BTD/times.log" 2>"$_d.err" &&
	    return 1
	[ "$(cat "$_d/r.txt")" = "my results" ] &&
	    sh "$BT" import -f -o "$_d/r.txt" "$BTD/times.log" &&
	    bt_want "$_d/r.txt"
}
t_check "buildtime/run/keeps-existing-files" bt_no_clobber
t_seeded_tool "buildtime/run/seeded/overwrites" BT \
    '/^no_clobber() {$/a\
	return 0' bt_no_clobber
t_seeded_tool "buildtime/run/seeded/truncates-first" BT \
    's/>"\$out\.new" || run_failed 1/>"$out" || run_failed 1/' bt_no_clobber

# import reads them back exactly, from files (-o) and from stdin
# appended to a file (/dev/stdout opened anew would truncate it).
bt_import_generated() {
	bt_dir generated
	for _seed in 1 2 3 4; do
		bt_gen_reports $_seed "$_d/$_seed.log" "$_d/$_seed.want"
	done
	cat "$_d"/[1-4].want >"$_d/all.want"
	sh "$BT" import -o "$_d/all.txt" "$_d"/[1-4].log &&
	    grep -v '^#' "$_d/all.txt" | diff "$_d/all.want" - || return 1
	echo "my notes" >"$_d/notes"
	cat "$_d"/[1-4].log | sh "$BT" import >>"$_d/notes" &&
	    [ "$(sed 1q "$_d/notes")" = "my notes" ] || return 1
	sed 1d "$_d/notes" | grep -v '^#' | diff "$_d/all.want" - || return 1
	echo 'real 1.5 user 2 sys 3' | sh "$BT" import | grep -v '^#' |
	    grep -qx '1.50 2.00 3.00'
}
t_check "buildtime/import/every-format" bt_import_generated

# Malformed reports in a good log: one line naming the line to blame (5
# unless said), the file -f would replace kept; a report cut at the end,
# a log without reports, a missing log: nothing written.
bt_import_malformed() {
	bt_dir malformed
	printf 'real 1.00\nuser 2.00\nsys 3.00\ncc -c x.c\n' >"$_d/head"
	printf '  4.00 real  5.00 user  6.00 sys\n' >"$_d/tail"
	echo "my results" >"$_d/keep.txt"
	while IFS='|' read -r _line _m; do
		{ cat "$_d/head"; printf "$_m\n"; cat "$_d/tail"; } \
		    >"$_d/bad.log"
		bt_fails sh "$BT" import -f -o "$_d/keep.txt" "$_d/bad.log" ||
		    return 1
		grep -q "^buildtime: $_d/bad.log, line ${_line:-5}: " \
		    "$BTD/err" || { echo "not line ${_line:-5}"; return 1; }
		[ "$(cat "$_d/keep.txt")" = "my results" ] ||
		    { echo "wrote over it"; return 1; }
	done <<'EOT'
|real 55.1x
|real 1,5
|real\t0m1,500s
|real -1.00
|real .5
|real 2e3
|real 1000000000
|real
|real 1.5 user 2
|1.50 real 2.00
|real 1.5 user 2 sys 3 real 4
|real 1.5 real 2 sys 3
|1.00 real 2.00 user 3.00 user
|real 1.5 user 2 sys 3 4
|real 1 user 2 system 3 sys 4
|real 1\nuser 2\ncc -c y.c\nsys 3
|real 1\nuser 2\n\nsys 3
|real 1\nreal 1 user 2 sys 3
7|real 1\nuser 2\nuser 3
|real 1\nuser 2
EOT
	printf 'real 1.00\nuser 2.00\nsys 3.00\nreal 4.00\n' >"$_d/cut.log"
	printf '\000\001\377real\n' >"$_d/binary.log"
	: >"$_d/empty.log"
	for _l in bad cut binary empty nosuch; do
		bt_fails sh "$BT" import -o "$_d/new.txt" "$_d/$_l.log" &&
		    [ ! -e "$_d/new.txt" ] || return 1
	done
}
t_check "buildtime/import/malformed-refused" bt_import_malformed
t_seeded_tool "buildtime/import/seeded/skips-bad-figure" BT \
    '/(v = secs(w)) == ""/{n;N;s/.*/next/;}' bt_import_malformed
# The figure before a label when there is one, as the tool did: "real
# 1.5 user 2 sys 3" read as 1.50 1.50 2.00.
t_seeded_tool "buildtime/import/seeded/pairs-guessed" BT \
    's/w = lf == 1 ? \$(i + 1) : \$i/w = lf == 1 \&\& i > 1 ? $(i - 1) : lf == 1 ? $(i + 1) : $i/' \
    bt_import_generated

# Bad options of run (each argument: an option and its value), output
# that cannot be written: one line that names the value, nothing built.
bt_refused() {
	_d=$BTD/refused
	bt_guard_project "$_d"
	mkdir -p "$_d/adir.txt" "$_d/cwd" "$_d/ro"
	chmod 555 "$_d/ro"
	: >"$_d/afile"
	(cd "$_d/cwd" && sh "$BT" run -C ../proj -n 1 -w 0 -l a_b) >/dev/null &&
	    rm "$_d/built" "$_d"/cwd/* || return 1
	for _a; do
		(cd "$_d/cwd" && bt_fails sh "$BT" run -C ../proj -n 3 -w 1 \
		    "${_a%% *}" "${_a#* }") &&
		    grep -qF -- "${_a#* }" "$BTD/err" || return 1
		[ ! -e "$_d/built" ] || { echo "built"; return 1; }
		[ -z "$(ls "$_d/cwd")" ] || { ls "$_d/cwd"; return 1; }
	done
	bt_fails sh "$BT" import -o "$_d/nosuch/r.txt" "$BTD/times.log" &&
	    ! sh "$BT" import -l 'a b' "$BTD/times.log" >/dev/null 2>&1
}
_u=$BTD/refused
t_check "buildtime/bad-arguments" bt_refused "-l a/b" "-l -x" "-l .x" \
    "-l *" "-j 0" "-n 0" "-j x" "-C $BTD/nosuch" "-C $_u/afile"
set -- "-o $_u/nosuch/r.txt" "-o $_u/afile/r.txt" "-o $_u/adir.txt"
[ -d /proc/self ] && set -- "$@" "-o /proc/buildtime-r.txt"
[ "$(id -u)" -eq 0 ] || set -- "$@" "-o $_u/ro/r.txt"
t_check "buildtime/run/unwritable-output-refused" bt_refused "$@"

# Twelve files, each against the first.
bt_compare_many() {
	bt_dir many
	for _i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		awk -v s=$_i 'BEGIN { srand(s); for (i = 0; i < 3 + s % 3; i++)
		    printf "%.2f\n", 100 + s / 4 + 2 * rand() }' >"$_d/f$_i"
	done
	sh "$BT" compare "$_d"/f[1-9] "$_d"/f1[0-2] >"$_d/out" 2>"$_d/err" ||
	    { cat "$_d/out" "$_d/err"; return 1; }
	cat "$_d/out"
	[ ! -s "$_d/err" ] || { cat "$_d/err"; return 1; }
	[ "$(grep -c '^.  *[0-9][0-9]*  ' "$_d/out")" -eq 12 ] &&
	    [ "$(grep -c 'confidence$' "$_d/out")" -eq 11 ] ||
	    { echo "not 12 sets compared"; return 1; }
}
t_check "buildtime/compare/more-than-seven" bt_compare_many

# Sets without spread, a first mean of 0: no nan or inf, and said.
bt_zero_spread() {
	bt_dir flat
	printf '0.10\n0.10\n0.10\n' >"$_d/a"
	printf '0.15\n0.15\n0.15\n0.15\n' >"$_d/b"
	printf '1\n2\n3\n' >"$_d/c"
	printf -- '-1\n0\n1\n' >"$_d/z"
	for _p in "a b" "a c" "c a" "a a" "z c" "c z"; do
		(cd "$_d" && sh "$BT" compare $_p) >"$_d/out" 2>&1 ||
		    { cat "$_d/out"; return 1; }
		echo "== compare $_p"
		cat "$_d/out"
		sed '1,/^column /d' "$_d/out" | grep -qi 'nan\|inf' && return 1
		case $_p in
		z*|*z)	;;
		*)	grep -q '^.: no spread: all 3 figures are' "$_d/out" ;;
		esac &&
		case $_p in
		"a b")	grep -q '^No confidence interval: neither set has' \
			    "$_d/out" && grep -qx '	0.05' "$_d/out" ;;
		"a a")	grep -q '^No difference: ' "$_d/out" ;;
		esac || return 1
	done
}
t_check "buildtime/compare/zero-spread" bt_zero_spread
