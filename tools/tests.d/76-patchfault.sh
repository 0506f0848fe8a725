# patchfault: tools/mplock-patch under faults (doc/testing.md, "The
# patch tool under faults").  MPLOCK_FULL=1: this whole checkout
# installed (else a small one), every disk size.

. "$ROOT/tools/lib/fixture-tree.sh"

PF=$OBJ/patchfault
MNT=$PF/mnt
# The tmpfs mounts go however the suite ends (else build/ stays).
pf_umount() {
	cd "$ROOT" || return
	for _m in "$MNT" "$PF"; do
		mountpoint -q "$_m" 2>/dev/null &&
		    { umount "$_m" 2>/dev/null || umount -l "$_m"; }
	done
}
pf_umount
chattr -R -i "$PF" 2>/dev/null
chmod -R u+w "$PF" 2>/dev/null
rm -rf "$PF"
mkdir -p "$PF"
trap pf_umount EXIT
trap 'pf_umount; exit 130' INT
trap 'pf_umount; exit 143' TERM
# The trees on a tmpfs when we may: the tool syncs what it writes.
[ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=256m tmpfs "$PF" 2>/dev/null
fixture_setup "$PF" patchfault || return 0
LONG=${MPLOCK_FULL:-0}
_w=	# the fault sweep's second worker's suffix (sweep)

# The checkout installed from (pt's PT_ROOT): every kind of file, so
# every kind of step, and a blank in its path.
PT_ROOT=$ROOT
if [ "$LONG" != 1 ]; then
	PT_ROOT="$PF/the root"
	small_root "$PT_ROOT"
fi

# The stand-in for cp, mv, mkdir, rm and rmdir: it counts the calls on
# FAULT_TREE (in FAULT_COUNT), and at call FAULT_AT does FAULT_MODE:
# kill (kill -9 the tool's process group: it runs under setsid), torn
# (cp: half the file, the others: the call; then kill -9), fail (cp:
# half the file; then exit 1) or term (SIGTERM, the call not made).
mkdir -p "$PF/bin"
cat >"$PF/bin/faultcmd" <<'EOF'
#!/bin/sh
PATH=$FAULT_PATH
c=${0##*/}
hit=
for a; do
	case $a in
	"$FAULT_TREE"|"$FAULT_TREE"/*)	hit=1 ;;
	esac
done
[ -n "$hit" ] || exec "$c" "$@"
read -r n <"$FAULT_COUNT"
n=$((n + 1))
echo "$n" >"$FAULT_COUNT"
[ "$n" = "${FAULT_AT:-0}" ] || exec "$c" "$@"
case $FAULT_MODE in
kill)	kill -9 0 ;;
term)	kill -TERM $(ps -o pgid= -p $$)
	exit 1 ;;
esac
if [ "$c" = cp ]; then
	eval "f=\${$(($# - 1))} t=\${$#}"
	head -c $(($(wc -c <"$f") / 2)) "$f" >"$t"
elif [ "$FAULT_MODE" = torn ]; then
	"$c" "$@"
fi
[ "$FAULT_MODE" != torn ] || kill -9 0
echo "$c: failed (injected)" >&2
exit 1
EOF
chmod +x "$PF/bin/faultcmd"
for _c in cp mv mkdir rm rmdir; do
	ln -s faultcmd "$PF/bin/$_c"
done

# fpt MODE N ARGS...: the tool, MODE at step N of the tree $_t (count:
# no fault; $PF/calls is the number of steps).
fpt() {
	_fm=$1 _fn=$2
	shift 2
	echo 0 >"$PF/calls$_w"
	FAULT_PATH=$PATH FAULT_TREE=$(cd "$_t" && pwd -P) \
	    FAULT_COUNT=$PF/calls$_w FAULT_MODE=$_fm FAULT_AT=$_fn \
	    PATH=$PF/bin:$PATH MPLOCK_ROOT=$PT_ROOT setsid -w ${PTSH:-sh} \
	    "$TOOL" "$@"
}

# The stages the commands start from: applied; with a config (what
# revert undoes); with a local change and a file of the user's in a
# directory apply made (what revert -f is for).
CONF_ARGS="-w -d -n FAULT.MP"
_t=$(fresh applied) && pt apply "$_t" >/dev/null
_t=$(fresh configured applied) && pt config $CONF_ARGS -s "$_t" amd64 >/dev/null
cp "$_t/sys/arch/amd64/conf/FAULT.MP" "$PF/FAULT.MP.want"
_t=$(fresh changed configured)
echo "/* a local change */" >>"$_t/sys/kern/kern_lock.c"
: >"$_t/regress/sys/kern/mplock/mine.c"

# cmd_steps CMD: the stage CMD starts from (_stage), its arguments
# (_args, then the tree, then _tail) and its number of steps (_steps).
cmd_steps() {
	_tail=
	case $1 in
	apply)	_stage=pristine _args=apply ;;
	revert)	_stage=configured _args=revert ;;
	revert-f) _stage=changed _args="revert -f" ;;
	config)	_stage=applied _args="config $CONF_ARGS -s" _tail=amd64 ;;
	esac
	_t=$(fresh count "$_stage")
	_steps=$(fpt count 0 $_args "$_t" $_tail >/dev/null 2>&1 &&
	    cat "$PF/calls")
	[ "$_steps" -gt 0 ] 2>/dev/null || { echo "no steps counted"; return 1; }
}

# sweep CMD MODE [ends]: the fault MODE at every step of CMD (or at the
# first, a middle and the last); its steps counted once per shell.
sweep() {
	_cmd=$1 _mode=$2
	if [ "${_counted:-}" != "$PTSH $_cmd" ]; then
		cmd_steps "$_cmd" || return 1
		_counted="$PTSH $_cmd"
	fi
	echo "$_cmd: $_steps steps"
	_at=$(seq "$_steps")
	[ -z "${3:-}" ] || _at="1 $(((_steps + 1) / 2)) $_steps"
	# Two points at a time, each with its own tree, TMPDIR and files
	# ($_w): the odd ones in the background.
	(_w=1 TMPDIR=$PF/tmp1
	mkdir -p "$TMPDIR" && fault_points $(echo $_at | awk '{
	    for (i = 1; i <= NF; i += 2) print $i }')) >"$PF/w1" 2>&1 &
	_wp=$!
	fault_points $(echo $_at | awk '{ for (i = 2; i <= NF; i += 2) print $i }')
	_rc=$?
	wait "$_wp" || _rc=1
	cat "$PF/w1"
	[ "$_rc" -eq 0 ] || return 1
	echo $_at | wc -w >>"$PF/points"
}

# fault_points N...: fault_at each step N.
fault_points() {
	for _i; do
		fault_at "$_i" || { echo "$_cmd, $_mode at step $_i of $_steps"
			return 1; }
	done
}

# fault_at N: $_args from $_stage with $_mode at step N, and after.
fault_at() {
	_t=$(fresh "f$_w" "$_stage")
	rm -rf "${TMPDIR:?}"/*
	fpt "$_mode" "$1" $_args "$_t" $_tail >"$PF/out$_w" 2>"$PF/err$_w"
	_rc=$?
	case $_mode in
	fail|term)
		[ "$_rc" -ne 0 ] || { echo "exit 0 after the fault"; return 1; }
		tmp_clean || return 1 ;;
	esac
	case $_cmd:$_mode in
	apply:fail|apply:term)
		# Undone at once.
		grep -q "nothing changed" "$PF/err$_w" || { cat "$PF/err$_w"
			return 1; }
		pristine "$_t"
		return ;;
	apply:*)
		# Killed: nothing done yet, or check says to revert, or
		# (killed after its last step) patched in full.
		[ -d "$_t/.mplock-patch" ] || { pristine "$_t"; return; }
		if ! pt status "$_t" >/dev/null; then
			pt check "$_t" 2>"$PF/err2$_w" && return 1
			one_line "$PF/err2$_w" "mplock-patch revert" || return 1
		fi ;;
	revert*:fail|revert*:term)
		grep -q "mplock-patch revert" "$PF/err$_w" || { cat "$PF/err$_w"
			return 1; } ;;
	config:*)
		# Config runs again, to the same file.
		pt config $CONF_ARGS -s "$_t" amd64 >/dev/null &&
		    cmp "$PF/FAULT.MP.want" "$_t/sys/arch/amd64/conf/FAULT.MP" ||
		    return 1 ;;
	esac
	# Killed after its last step: done.
	[ -e "$_t/.mplock-patch" ] || { pristine "$_t"; return; }
	rm -rf "${TMPDIR:?}"/*
	# A plain revert finishes; after an interrupted revert -f too,
	# unless the fault came before it recorded its start.
	if ! pt revert "$_t" >"$PF/out2$_w" 2>"$PF/err2$_w"; then
		[ "$_cmd" = revert-f ] && grep -q "nothing reverted; -f" \
		    "$PF/err2$_w" || { cat "$PF/err2$_w"; return 1; }
		pt revert -f "$_t" >/dev/null || return 1
	fi
	tmp_clean && pristine "$_t"
}

# Under sh every step; under mksh (a pdksh, as OpenBSD's ksh) the
# first, a middle and the last.
MODES="kill torn fail term"
command -v setsid >/dev/null 2>&1 ||
    { t_skip patchfault/every-step "no setsid(1) (util-linux)"; MODES=; }
for PTSH in sh mksh; do
	for cmd in apply revert revert-f config; do
		for mode in $MODES; do
			if [ $PTSH = sh ]; then
				t_check "patchfault/$cmd/$mode-at-every-step" \
				    sweep $cmd $mode
			else
				t_need mksh \
				    "patchfault/mksh/$cmd/$mode-first-middle-last" \
				    sweep $cmd $mode ends
			fi
		done
	done
done
PTSH=sh

# A full disk: a tmpfs with K pages free, K from 0 up to what apply
# needs (every 2nd, MPLOCK_FULL every one): apply and revert either
# work, or fail changing nothing, or say to revert, which with room
# again restores the tree.
mkdir -p "$MNT"
# fill K: leave K pages (4 KiB) free on $MNT.
fill() {
	rm -f "$MNT/filler"
	_fk=$(($(df -k "$MNT" | awk 'NR == 2 { print $4 }') - 4 * $1))
	[ "$_fk" -le 0 ] || head -c $((_fk * 1024)) /dev/zero \
	    >"$MNT/filler" 2>/dev/null
	return 0
}
full_disk() {
	_step=2 _k=0 _ok=0
	[ "$LONG" = 1 ] && _step=1
	while [ "$_k" -le 400 ]; do
		rm -rf "$MNT/t" "$MNT/filler"
		cp -Rp "$PF/pristine" "$MNT/t"
		fill "$_k"
		rm -rf "${TMPDIR:?}"/*
		_rv=
		if pt apply "$MNT/t" >"$PF/out" 2>"$PF/err"; then
			_ok=$((_ok + 1))
			# Revert on the disk as full as apply left it.
			fill 0
			pt revert "$MNT/t" >"$PF/out" 2>"$PF/err" || _rv=1
		elif ! grep -q "nothing changed" "$PF/err"; then
			echo "$_k pages free: apply failed:"
			_rv=1
		fi
		if [ -n "$_rv" ]; then
			# Said to revert: with room again, it restores.
			grep -q "mplock-patch revert" "$PF/err" ||
			    { cat "$PF/err"; return 1; }
			rm -f "$MNT/filler"
			pt revert "$MNT/t" >/dev/null || return 1
		fi
		rm -f "$MNT/filler"
		tmp_clean || return 1
		(cd "$MNT" && pristine t) || { echo "at $_k pages free"; return 1; }
		echo "$_k pages free: $(head -n 1 "$PF/err" | cut -c1-100)"
		# Three sizes past the first that is enough, to see it stay so.
		[ "$_ok" -ge 3 ] && break
		_k=$((_k + _step))
	done
	[ "$_ok" -ge 3 ] || { echo "apply never succeeded"; return 1; }
	echo "$((_k / _step + 1)) sizes" >>"$PF/disk"
}

# A read-only file system: apply refuses; revert fails in one line and,
# writable again, restores.
read_only_fs() {
	rm -rf "$MNT/t"
	cp -Rp "$PF/pristine" "$MNT/t"
	mount -o remount,ro "$MNT" &&
	    fails "nothing changed" pt apply "$MNT/t" &&
	    mount -o remount,rw "$MNT" && (cd "$MNT" && pristine t) &&
	    pt apply "$MNT/t" >/dev/null && mount -o remount,ro "$MNT" &&
	    fails "" pt revert "$MNT/t" &&
	    one_line "$PF/err" "nothing reverted" &&
	    mount -o remount,rw "$MNT" && pt revert "$MNT/t" >/dev/null &&
	    (cd "$MNT" && pristine t)
}
if [ "$(id -u)" -eq 0 ] &&
    mount -t tmpfs -o size=8m tmpfs "$MNT" 2>/dev/null; then
	t_check "patchfault/full-disk/every-size" full_disk
	t_check "patchfault/read-only-fs" read_only_fs
else
	t_skip "patchfault/full-disk" "cannot mount a tmpfs (not root?)"
	t_skip "patchfault/read-only-fs" "cannot mount a tmpfs (not root?)"
fi

# Immutable files (chattr +i): refused before anything changes; after
# apply, revert says what it cannot change, and finishes once it can.
immutable() {
	_t=$(fresh imm)
	for _p in sys/kern/kern_lock.c sys/kern share/man/man9/Makefile .; do
		chattr +i "$_t/$_p" || return 1
		pt apply "$_t" 2>"$PF/err" && return 1
		chattr -i "$_t/$_p"
		grep -q "nothing changed" "$PF/err" && pristine "$_t" ||
		    { cat "$PF/err"; return 1; }
	done
	for _p in .mplock-patch/files .mplock-patch sys/kern/kern_mplock.c \
	    sys/kern/kern_lock.c regress/sys/kern/mplock; do
		pt apply "$_t" >/dev/null && chattr +i "$_t/$_p" || return 1
		pt revert "$_t" 2>"$PF/err" && return 1
		chattr -i "$_t/$_p"
		echo "$_p: $(cat "$PF/err")"
		grep -q "mplock-patch revert\|nothing reverted" "$PF/err" ||
		    return 1
		rm -rf "${TMPDIR:?}"/*
		pt revert "$_t" >/dev/null && pristine "$_t" || return 1
	done
	tmp_clean
}
: >"$PF/chattr-probe"
if chattr +i "$PF/chattr-probe" 2>/dev/null && chattr -i "$PF/chattr-probe"
then
	t_check "patchfault/immutable" immutable
else
	t_skip "patchfault/immutable" "chattr +i not supported here"
fi

# config -n and -o with fuzzed names: each refused in one line changing
# nothing, or written as given.
fuzz_names() {
	_t=$(fresh fuzz applied)
	sig "$_t"
	{
		printf '%s\n' '*' '?' '[a]' 'a b' ' a' 'a ' 'X"Y' "a'b" \
		    '-x' '--' '-' '.' '..' '.a' 'a/b' '/a' 'a\b' '$x' \
		    '$(id)' '`id`' 'a;b' 'a|b' 'a&b' 'a>b' 'a<b' '~a' \
		    'a=b' 'a,b' '#a' 'a#' '%' 'é' 'GENERIC' 'GENERIC.MP' \
		    "$(printf 'a\tb')" "$(awk 'BEGIN { while (i++ < 70)
			printf "A" }')" 'OK.MP' 'ok-2_x.MP' 'a+b'
		awk 'BEGIN { srand(13)
		    c = "abcXYZ019._-+ *?[]\"'"'"'$`;|&<>/\\#=,~!%@{}()"
		    for (i = 0; i < 60; i++) {
			s = ""
			n = 1 + int(rand() * 8)
			for (j = 0; j < n; j++)
				s = s substr(c, 1 + int(rand() * length(c)), 1)
			print s
		    } }'
	} >"$PF/names"
	_acc=0 _ref=0
	while IFS= read -r _n; do
		for _how in -n -o; do
			if (cd "$PF/tmp" && pt config $_how "$_n" \
			    -s "$_t" amd64) >"$PF/out" 2>"$PF/err"; then
				_acc=$((_acc + 1))
				if [ "$_how" = -n ]; then
					[ -f "$_t/sys/arch/amd64/conf/$_n" ]
				else
					grep -qx "option		$_n" \
					    "$_t/sys/arch/amd64/conf/MLOCK.MP"
				fi || { echo "$_how '$_n' not written"
					return 1; }
			else
				_ref=$((_ref + 1))
				one_line "$PF/err" . || return 1
				case $_how$_n in
				-nOK.MP|-nok-2_x.MP)
					echo "$_how '$_n' refused"; return 1 ;;
				esac
			fi
			# Nothing but the config and its directory.
			(cd "$_t" && find . -newer "$_t.sig" ! -type d) |
			    grep -v '^\./\.mplock-patch/\|^\./sys/arch/amd64/conf/\|^\./sys/arch/amd64/compile/' &&
			    { echo "$_how '$_n' wrote elsewhere"; return 1; }
			tmp_clean || return 1
		done
	done <"$PF/names"
	echo "$_acc accepted, $_ref refused"
	pt revert "$_t" >/dev/null && pristine "$_t"
}
t_check "patchfault/fuzz/config-names-and-options" fuzz_names

odd_src() {
	for _n in 'a b' '*' 'x"y' "it's" '-lead' 'a$b' 'a\b' '[ab]' 'ü'; do
		mkdir -p "$PF/odd"
		cp -Rp "$PF/pristine" "$PF/odd/$_n"
		(cd "$PF/odd" && pt apply -- "$_n" >/dev/null &&
		    pt config -s "$_n" amd64 >/dev/null &&
		    pt status -- "$_n" >/dev/null &&
		    pt revert -- "$_n" >/dev/null) &&
		    (cd "$PF/odd" && pristine "./$_n") ||
		    { echo "'$_n' failed"; return 1; }
		[ "$(ls "$PF/odd" | grep -vc '\.sig\.now$')" -eq 1 ] ||
		    { echo "'$_n': other files: $(ls "$PF/odd")"; return 1; }
		rm -rf "$PF/odd"
	done
	tmp_clean
}
t_check "patchfault/odd-source-names" odd_src

# The work directory goes on every exit: success, refusal, misuse, and
# a signal in a command that does not change the tree.
tmp_every_exit() {
	_t=$(fresh tmpx)
	rm -rf "${TMPDIR:?}"/*
	for _c in pristine:check pristine:diff "pristine:diff -k" \
	    "pristine:diff -r -q" pristine:revert pristine:status \
	    "pristine:config -s:amd64" apply patched:check patched:diff \
	    patched:apply patched:status "patched:config -s:vax" \
	    "patched:config -n * -s:amd64" "patched:config -s:amd64 -x" \
	    "patched:diff -x" patched:nosuch "patched:config -b"; do
		[ "$_c" = apply ] && { pt apply "$_t" >/dev/null || return 1
			continue; }
		_a=${_c#*:}
		case $_a in
		*:*)	(set -f; pt ${_a%:*} "$_t" ${_a#*:}) ;;
		*)	(set -f; pt $_a "$_t") ;;
		esac >/dev/null 2>&1
		tmp_clean || { echo "after $_a on the ${_c%%:*} tree"
			return 1; }
	done
	pt revert "$_t" >/dev/null || return 1
	# This whole checkout's diff: long enough to be signalled halfway.
	_sigs="INT TERM HUP"
	command -v perl >/dev/null 2>&1 ||
	    { echo "no perl: SIGINT not tested"; _sigs="TERM HUP"; }
	for _sig in $_sigs; do
		for _d in 0.02 0.05 0.1 0.2; do
			# The tool itself in the background (a function's
			# subshell would take the signal), with SIGINT not
			# ignored (as sh makes it for "&").
			if [ "$_sig" = INT ]; then
				MPLOCK_ROOT=$ROOT perl -e '$SIG{INT} = "DEFAULT";
				    exec @ARGV' sh "$TOOL" diff "$_t" \
				    >/dev/null 2>&1 &
			else
				MPLOCK_ROOT=$ROOT sh "$TOOL" diff "$_t" \
				    >/dev/null 2>&1 &
			fi
			sleep $_d
			kill -$_sig $! 2>/dev/null
			wait $!
			echo "SIG$_sig after ${_d}s: exit $?"
			tmp_clean || { echo "after SIG$_sig at ${_d}s"; return 1; }
		done
	done
	pristine "$_t"
}
t_check "patchfault/temp-dir-removed-on-every-exit" tmp_every_exit

_pts=$(awk '{ s += $1 } END { print s + 0 }' "$PF/points" 2>/dev/null)
_disk=$(awk '{ s += $1 } END { print s + 0 }' "$PF/disk" 2>/dev/null)
t_pass "patchfault/points" "$_pts fault points (steps x ways), $_disk disk sizes"
