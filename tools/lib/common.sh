# Shared by the tools/ scripts: paths, the backend list, compiler flags.
# Sourced; expects ROOT to be set to the top of the checkout.

: "${ROOT:?ROOT not set}"
# Not "obj": BSD make would chdir into it.
OBJ=${OBJ:-$ROOT/build}
REGRESS=$ROOT/regress/sys/kern/mplock
# Beside regress/, what OpenBSD would not import (litmus.sh and
# verify.sh name litmus/, model/ and tsan/).
MUTANTS=$ROOT/mutants
BENCH=$ROOT/bench

# mkvar FILE NAME: NAME's value in a Makefile (its first =, += or ?=
# line, continuation lines joined).
mkvar() {
	awk -v n="$2" '
	    !on && $0 ~ "^" n "[+?]?=" { on = 1; sub(/^[^=]*=[ \t]*/, "") }
	    on { c = sub(/\\$/, ""); gsub(/[ \t]+/, " "); printf "%s", $0
		if (!c) exit }' "$1" 2>/dev/null
}

BACKENDS=$(mkvar "$REGRESS/Makefile.backends" BACKENDS)
DEFAULT_BACKEND=$(mkvar "$REGRESS/Makefile.backends" DEFAULT_BACKEND)

# A kernel build's warnings, the regress's CFLAGS: its Makefile's.
KERNEL_WARNINGS=$(mkvar "$REGRESS/Makefile" KERNEL_WARNINGS)
HARNESS_CFLAGS=$(mkvar "$REGRESS/Makefile" CFLAGS |
    sed "s/\${KERNEL_WARNINGS}/$KERNEL_WARNINGS/")
# The kernel options the regress is built with (WITNESS and the like).
KERNEL_OPTIONS=$(mkvar "$REGRESS/Makefile" KERNEL_OPTIONS)

CC=${CC:-cc}

# slice_backends N [one]: where targets times backends is a long matrix,
# the default backend and the other one N (the target's number) picks, so
# every backend runs on some target; with "one", only the default for
# an even N, only that other for an odd one; MPLOCK_FULL=1: every backend.
slice_backends() {
	if [ "${MPLOCK_FULL:-0}" = 1 ]; then
		echo "$BACKENDS"
		return
	fi
	_sn=$1 _sm=${2:-}
	_so=$(echo " $BACKENDS " | sed "s/ $DEFAULT_BACKEND / /")
	set -- $_so
	[ $# -gt 0 ] || { echo "$DEFAULT_BACKEND"; return; }
	_si=$((_sn % $# + 1))
	case $_sm:$((_sn % 2)) in
	one:0)	echo "$DEFAULT_BACKEND" ;;
	one:1)	eval "echo \"\${$_si}\"" ;;
	*)	eval "echo \"$DEFAULT_BACKEND \${$_si}\"" ;;
	esac
}

# results_header COMMAND: the date, machine, command and source lines
# that open a results file (doc/results/README).
results_header() {
	echo "# date: $(date -u +%Y-%m-%dT%H:%MZ)"
	_rm=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo \
	    2>/dev/null | sed q)
	[ -n "$_rm" ] || _rm=$(sysctl -n hw.model 2>/dev/null)
	echo "# machine: $(uname -srm), $(ncpu_online) CPUs, ${_rm:-unknown CPU}"
	echo "# command: $1"
	echo "# source: $(source_id)"
}

# source_id: this checkout's commit, and how many files differ from it
# (a figure measured with uncommitted code is not the commit's).
source_id() {
	_sc=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null) || {
		echo unknown
		return
	}
	_sn=$(git -C "$ROOT" status --porcelain 2>/dev/null | grep -c .)
	if [ "$_sn" -gt 0 ]; then
		[ "$_sn" -eq 1 ] && _sf=file || _sf=files
		echo "$_sc with uncommitted changes ($_sn $_sf)"
	else
		echo "$_sc"
	fi
}

# stats_awk FILE: write buildtime's statistics (Student's t, the sign
# test, the median), the one copy, as an awk file to run before another.
stats_awk() {
	sed -n '/^# stats.awk begin/,/^# stats.awk end/p' "$ROOT/tools/buildtime" |
	    sed "s/'\"'\"'/'/g" >"$1"
}

# ticket_awk: tools/mplock-patch's parser of stock's ticket lock block
# (awk -v mode=block|lines [-v any=1] "$(ticket_awk)" kern_lock.c).
ticket_awk() {
	sed -n '/^# ticket.awk begin/,/^# ticket.awk end/p' \
	    "$ROOT/tools/mplock-patch"
}

upper() {
	echo "$1" | tr 'abcdefghijklmnopqrstuvwxyz' 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
}

ncpu_online() {
	getconf _NPROCESSORS_ONLN 2>/dev/null || sysctl -n hw.ncpuonline \
	    2>/dev/null || echo 1
}

# seconds_ok S: is S a decimal number of seconds over 0 ("0.3", ".5", "2")?
seconds_ok() {
	awk -v d="$1" 'BEGIN { exit !(d ~ /^([0-9]+\.?[0-9]*|\.[0-9]+)$/ &&
	    d > 0) }'
}

# optnum OPTION N MIN MAX: N is a whole number from MIN to MAX, or usage.
optnum() {
	case $2 in
	''|*[!0-9]*)	usage "$1 $2: not a number" ;;
	esac
	[ "${#2}" -le 6 ] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] ||
	    usage "$1 $2: $3 to $4"
}

# A tool that sets PROG has its messages say so, as OpenBSD's tools do.
die() {
	echo "${PROG:-$0}: $*" >&2
	exit 1
}

# usage [message]: misuse.  The message, then $USAGE (the tool's
# "usage: ..." lines), on stderr; exit 1, as OpenBSD's tools do.
usage() {
	[ $# -eq 0 ] || echo "${PROG:-$0}: $*" >&2
	echo "$USAGE" >&2
	exit 1
}

# badopt: usage for what getopts with a leading ":" reported in OPTARG.
badopt() {
	[ "$1" = : ] && usage "-$OPTARG: needs a value"
	usage "-$OPTARG: unknown option"
}

# The kernel sources the harness builds: all but the selected backend
# compile to nothing, as in a kernel.
kernel_sources() {
	ls "${1:-$ROOT}"/sys/kern/kern_mplock*.c
}

# The sys/arch/<arch> whose <machine/mplock.h> fits this host, or empty.
host_mdarch() {
	case $(uname -m) in
	x86_64 | amd64)			_a=amd64 ;;
	i[3-6]86)			_a=i386 ;;
	aarch64 | arm64)		_a=arm64 ;;
	armv7* | arm)			_a=arm ;;
	riscv64)			_a=riscv64 ;;
	ppc64 | ppc64le | powerpc64)	_a=powerpc64 ;;
	ppc | powerpc | macppc)		_a=powerpc ;;
	mips64* | octeon | loongson)	_a=mips64 ;;
	sparc64)			_a=sparc64 ;;
	alpha)				_a=alpha ;;
	luna88k | m88k)			_a=m88k ;;
	*)				_a= ;;
	esac
	[ -n "$_a" ] && [ -f "$ROOT/sys/arch/$_a/include/mplock.h" ] &&
	    echo "$_a"
}
HOST_MDARCH=${HOST_MDARCH-$(host_mdarch)}

# command_line ARG...: the words as typed, quoted where a shell would
# need it, for a results file's "# command:" line.
command_line() {
	_cl=$1
	shift
	for _a in "$@"; do
		case $_a in
		*[!A-Za-z0-9_./=-]* | '') _cl="$_cl '$_a'" ;;
		*) _cl="$_cl $_a" ;;
		esac
	done
	echo "$_cl"
}
