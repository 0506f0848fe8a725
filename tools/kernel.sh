#!/bin/sh
#
# kernel.sh: build the patched OpenBSD/amd64 kernel from a real tree
# (the vendored snapshot, or SRC=) and boot it under qemu (doc/kernel.md).
# The last line and the exit status are boot.sh's verdict; 2 is a build
# error, 77 a tool or the snapshot missing, 1 also a usage error.

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"
. "$ROOT/tools/lib/vendor.sh"
. "$ROOT/tools/lib/config8.sh"
. "$ROOT/tools/kernel/toolchain.sh"

KT=$ROOT/tools/kernel
KDIR=$OBJ/kernel
NCPU=${KERNEL_NCPU:-4}
JOBS=${KERNEL_JOBS:-$(ncpu_online)}

PROG=kernel.sh
USAGE='usage: tools/kernel.sh [-Bdir] [-b backend] [-m mutant] [-n name]
           [-o option] [-s step]
       tools/kernel.sh -S [-Br] [-n name] [-o option]'

kdie() {
	echo "$PROG: $*" >&2
	exit 2
}

skip() {
	echo "$PROG: $*"
	exit 77
}

be= debug='' mutant='' name='' bootit=1 reboot= step= stock=
kopts=
while getopts :Bb:dm:n:o:rSs: o; do
	case $o in
	B)	bootit= ;;
	b)	be=$OPTARG ;;
	d)	debug=1 ;;
	m)	mutant=$OPTARG ;;
	n)	name=$OPTARG ;;
	r)	reboot=1 ;;
	s)	step=$OPTARG ;;
	o)	echo "$OPTARG" |
		    grep -Eqx '[A-Z][A-Z0-9_]*(=[A-Za-z0-9_.]+)?' ||
		    usage "-o $OPTARG: not NAME or NAME=VALUE"
		kopts="$kopts $OPTARG" ;;
	S)	stock=1 ;;
	*)	badopt "$o" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage "$1: no operands"
if [ -n "$stock" ]; then
	[ -z "$be$debug$mutant$step" ] || usage "-S: no -b, -d, -m or -s"
	be=stock
fi
be=${be:-$DEFAULT_BACKEND}
[ -n "$stock" ] || echo " $BACKENDS " | grep -q " $be " ||
    usage "$be: no such backend (one of: $BACKENDS)"
if [ -n "$mutant" ]; then
	MUT=$MUTANTS/$mutant.sed
	[ -f "$MUT" ] || usage "$mutant: no such mutant ($MUTANTS)"
fi
case $step in
*[!0-9]*|0*)	usage "-s $step: a step number" ;;
esac
[ -n "$name" ] || name=$be${debug:+-debug}${mutant:+-$mutant}${step:+-step$step}
case $name in
*[!A-Za-z0-9_.-]*|.*|'')	usage "$name: not a run name" ;;
esac

[ -z "$bootit" ] || command -v qemu-system-x86_64 >/dev/null 2>&1 ||
    skip "qemu-system-x86_64 not installed (Debian: qemu-system-x86)"
RUN=$KDIR/run/$name

# series_steps: -s, the series' first $step diffs on the tree $S, and
# before the torture's own step, the torture on top.
series_steps() {
	ser=$RUN/series
	rm -rf "$ser"
	sh "$ROOT/tools/series/series.sh" "$TREE" "$ser" \
	    >"$RUN/patch.log" 2>&1 || {
		cat "$RUN/patch.log" >&2
		kdie "the patch series failed on the tree"
	}
	tdiff=$(ls "$ser"/optional/*-torture.diff 2>/dev/null)
	[ -f "$tdiff" ] || kdie "the series has no torture diff"
	tstep=$(printf '%s\n' "$ser"/tech/*.diff "$ser"/optional/*.diff |
	    grep -n -- '-torture\.diff$' | cut -d: -f1)
	k=0
	for f in "$ser"/tech/*.diff "$ser"/optional/*.diff; do
		k=$((k + 1))
		[ "$k" -le "$step" ] || break
		(cd "$S" && patch -s -p0 -F0 <"$f") >>"$RUN/patch.log" 2>&1 ||
		    kdie "series step $k (${f##*/}) does not apply"
		last=$k
	done
	[ "$last" = "$step" ] || kdie "-s $step: the series has $last steps"
	echo "$PROG: $name: series steps 1 to $step applied"
	[ "$step" -lt "$tstep" ] || return 0
	# The torture's diff less its conf/files hunk, whose context is
	# the later steps' lines: its line goes after kern_lock.c's.
	awk '/^Index: / { keep = $2 != "sys/conf/files" } keep' "$tdiff" \
	    >"$RUN/torture.diff"
	tline=$(sed -n 's|^+\(file[[:space:]]*kern/kern_mplock_torture\.c.*\)|\1|p' \
	    "$tdiff")
	[ -n "$tline" ] || kdie "${tdiff##*/}: no conf/files line"
	(cd "$S" && patch -s -p0 -F0 <"$RUN/torture.diff") \
	    >>"$RUN/patch.log" 2>&1 &&
	    awk -v l="$tline" '{ print }
		/^file[ \t]+kern\/kern_lock\.c([ \t]|$)/ { print l }' \
	    "$S/sys/conf/files" >"$RUN/files" &&
	    grep -q mplock_torture "$RUN/files" &&
	    cp "$RUN/files" "$S/sys/conf/files" ||
	    kdie "cannot add the torture to series step $step"
	echo "$PROG: $name: and the torture (${tdiff##*/}) on top"
}

# kboot: boot what RUN/tftp holds and judge it; after a qemu crash
# (boot.sh's CRASH) once more, the first console kept, the crashes
# counted in RUN/result.
kboot() {
	_kn=
	while :; do
		KERNEL_BOOT_NOTE=$_kn EXPECT_TORTURE=$torture NCPU=$NCPU \
		    sh "$KT/boot.sh" "$RUN" "$name"
		_kr=$?
		[ -n "$_kn" ] || [ "$_kr" -ne 5 ] && break
		_ks=$(($(sed -n 's/^qemu_exit=//p' "$RUN/result") - 128))
		cp "$RUN/serial.log" "$RUN/serial-crash.log" 2>/dev/null
		echo "$PROG: $name: qemu crashed (signal $_ks): booting" \
		    "again (once; first console: $RUN/serial-crash.log)"
		_kn="booted again after qemu crashed (signal $_ks)"
	done
	[ -z "$_kn" ] ||
	    echo "qemu_crashes=$((1 + (_kr == 5)))" >>"$RUN/result"
	return "$_kr"
}

# -r: the kernel, init and ramdisk of an earlier build, booted again.
if [ -n "$reboot" ]; then
	[ -f "$RUN/tftp/bsd" ] && [ -f "$RUN/tftp/kernel.conf" ] ||
	    kdie "$name: no kernel built by an earlier run ($RUN/tftp)"
	torture=$(sed -n 's/^torture=//p' "$RUN/tftp/kernel.conf")
	kboot
	exit
fi

for t in bmake clang ld.lld byacc flex makefs objcopy nm bash; do
	command -v $t >/dev/null 2>&1 || skip "$t not installed"
done
printf '#include <bsd/string.h>\n' | cc -E - >/dev/null 2>&1 ||
    skip "libbsd headers not installed (Debian: libbsd-dev)"
if [ -n "${SRC:-}" ]; then
	TREE=$(cd "$SRC" && pwd) || kdie "SRC=$SRC: no such directory"
	TREE_ID=$TREE
else
	TREE=$(vendor_tree openbsd-src) || {
		[ $? -eq 77 ] && skip "the OpenBSD snapshot is not there" \
		    "($VENDOR/openbsd-src.tar.xz)"
		kdie "cannot extract the OpenBSD snapshot"
	}
	TREE_ID=$(cat "$TREE/.extracted")
fi

mkdir -p "$KDIR/cache" "$RUN" || kdie "cannot make $RUN"
rm -rf "$RUN/src" "$RUN/obj" "$RUN/tftp" "$RUN/root" "$RUN/build.key"
toolchain_setup "$KDIR/tc" || kdie "cannot write the toolchain stand-ins"

# key FILE...: a cache key from the tree's identity and FILEs' contents.
key() {
	{ echo "$TREE_ID"; cat "$@"; } | cksum | awk '{ print $1 "-" $2 }'
}

T0=$(date +%s)

# --- config(8), built once from the tree's sources.
CONFIG=$(config8_build "$TREE") ||
    kdie "config(8) does not build from $TREE/usr.sbin/config"

# --- pxeboot, once per tree and toolchain (it includes nothing of ours).
PXEBOOT=$KDIR/cache/pxeboot-$(key "$KT/toolchain.sh")
if [ ! -f "$PXEBOOT" ]; then
	echo "$PROG: building pxeboot from $TREE/sys/arch/amd64/stand"
	p=$KDIR/pxeboot.build
	rm -rf "$p" && mkdir -p "$p" || kdie "cannot make $p"
	( cd "$TREE/sys/arch/amd64/stand/pxeboot" &&
	    PATH=$KPATH MAKEOBJDIR=$p nice $KMAKE MACHINE=amd64 \
	    -j "$JOBS" pxeboot ) >"$KDIR/pxeboot.build.log" 2>&1 &&
	    [ -s "$p/pxeboot" ] || {
		tail -n 30 "$KDIR/pxeboot.build.log" >&2
		kdie "pxeboot does not build (log: $KDIR/pxeboot.build.log)"
	}
	mv "$p/pxeboot" "$PXEBOOT" && rm -rf "$p"
fi

# --- The scratch tree, patched.
S=$RUN/src
echo "$PROG: $name: patching a copy of $TREE"
mkdir -p "$S" && cp -pR "$TREE/sys" "$S/sys" || kdie "cannot copy $TREE to $S"
if [ -n "$stock" ]; then
	echo "$PROG: $name: the stock kernel lock (the tree unpatched)"
elif [ -z "$step" ]; then
	sh "$ROOT/tools/mplock-patch" apply "$S" >"$RUN/patch.log" 2>&1 || {
		cat "$RUN/patch.log" >&2
		kdie "mplock-patch apply failed on the tree"
	}
else
	series_steps
fi
if [ -n "$mutant" ]; then
	mfile=$(sed -n 's/^# file:[[:space:]]*//p' "$MUT")
	[ -f "$S/$mfile" ] || kdie "mutant $mutant: no $mfile in the tree"
	cp "$S/$mfile" "$RUN/mutant.orig"
	sed -f "$MUT" "$RUN/mutant.orig" >"$S/$mfile" || kdie "sed failed"
	cmp -s "$RUN/mutant.orig" "$S/$mfile" &&
	    kdie "mutant $mutant does not apply to $mfile any more"
	echo "$PROG: $name: seeded bug $mutant in $mfile"
fi

torture=
[ -f "$S/sys/kern/kern_mplock_torture.c" ] && torture=1

# --- Config and build.
KNAME=QEMU.$(upper "$be")${debug:+.DEBUG}
# qemu's devices (tools/kernel/QEMU.conf), then the backend and the
# run's options; the stock kernel gets the same less ours.
kconf=$kopts
[ -z "$torture" ] || kconf="MPLOCK_TORTURE $kconf"
[ -z "$debug" ] || [ -n "$stock" ] || kconf="MPLOCK_DEBUG $kconf"
[ -z "$debug" ] || kconf="WITNESS MP_LOCKDEBUG $kconf"
[ -n "$stock" ] || kconf="MPLOCK_$(upper "$be") $kconf"
cf=$S/sys/arch/amd64/conf/$KNAME
{
	echo "# $KNAME: tools/kernel/QEMU.conf and the options of this run"
	sed -n '/^[^#]/p' "$KT/QEMU.conf"
	for o in $kconf; do
		printf 'option\t\t%s\n' "$o"
	done
} >"$cf" || kdie "cannot write $cf"
K=$RUN/obj
mkdir -p "$K"
# A seeded bug's kernel starts from the objects of the same kernel
# unseeded (run BASE: this tree, patch and config), the patched files
# dated as BASE's, so that make builds only the seeded file's.
bkey=
[ ! -f "$S/.mplock-patch/files" ] ||
    bkey=$(key "$S/.mplock-patch/files" "$cf")
base=$KDIR/run/$be${debug:+-debug}
[ -z "$mutant" ] || [ -z "$bkey" ] || [ ! -f "$base/obj/bsd" ] ||
    [ "$(cat "$base/build.key" 2>/dev/null)" != "$bkey" ] || {
	cp -pR "$base/obj/." "$K/" || kdie "cannot copy $base/obj"
	awk -v m="$mfile" '($1 == "A" || $1 == "M") && $2 != m { print $2 }' \
	    "$S/.mplock-patch/files" | while read -r f; do
		touch -r "$base/src/$f" "$S/$f" || exit 1
	done || kdie "cannot date $S as $base/src"
	# The dependencies name BASE's sources, which make would compile.
	for f in "$K"/*.d; do
		sed "s|$base/src/|$S/|g" "$f" >"$f.new" && mv "$f.new" "$f" ||
		    kdie "cannot point $f to $S"
	done
	echo "$PROG: $name: from the objects of $base"
}
"$CONFIG" -b "$K" -s "$S/sys" "$S/sys/arch/amd64/conf/$KNAME" \
    >"$RUN/config.log" 2>&1 || {
	cat "$RUN/config.log" >&2
	kdie "config(8) failed on $KNAME"
}
echo "$PROG: $name: building $KNAME ($(grep '^IDENT' "$K/Makefile" |
    sed 's/^IDENT=//'))"
T_BUILD0=$(date +%s)
( cd "$K" && PATH=$KPATH nice $KMAKE -j "$JOBS" ) >"$RUN/build.log" 2>&1 || {
	grep -E 'error|Error' "$RUN/build.log" | head -n 20 >&2
	echo "kernel: $name: FAIL: the kernel does not build" \
	    "(log: $RUN/build.log)"
	exit 2
}
T_BUILD=$(($(date +%s) - T_BUILD0))
[ -n "$mutant" ] || echo "$bkey" >"$RUN/build.key"

# --- init and the ramdisk; init's figures, each KERNEL_NAME or its
# default (LOAD_ITERS: 1000 took 80 to 300 s under TCG with 4 vCPUs on
# a shared 2-core host); with the torture, a wait for its summary.
iflags=-DTORTURE_WAIT=0
[ -z "$torture" ] || iflags=-DTORTURE_WAIT=120
for v in LOAD_ITERS=300 BUILD_TASKS=48 BUILD_WARMUP=0 BUILD_ROUNDS=1; do
	eval "iflags=\"\$iflags -D${v%=*}=\${KERNEL_${v%=*}:-${v#*=}}\""
done
for p in init worker; do
	# shellcheck disable=SC2086
	bare_build "$p" "$RUN" $iflags || kdie "$p does not build"
done
rdroot=$KDIR/cache/rdroot-$(key "$KT/rdroot.c")
[ -x "$rdroot" ] || cc -O2 -Wall -Werror -o "$rdroot" "$KT/rdroot.c" ||
    kdie "$KT/rdroot.c does not build"
mkdir -p "$RUN/root/sbin" "$RUN/root/dev" "$RUN/root/tmp" &&
    cp "$RUN/init" "$RUN/root/sbin/" &&
    cp "$RUN/worker" "$RUN/root/sbin/mplock_worker" ||
    kdie "cannot fill $RUN/root"
cat >"$RUN/root.spec" <<'EOF'
/set type=dir uid=0 gid=0 mode=0755
.
dev type=dir
    console type=char mode=0600 device=native,0,0
    null type=char mode=0666 device=native,2,2
    rd0a type=block mode=0600 device=native,17,0
..
sbin type=dir
    init type=file mode=0755
    mplock_worker type=file mode=0755
..
tmp type=dir mode=01777
..
EOF
rdsize=$(sed -n 's/.*-DMINIROOTSIZE="\{0,1\}\(0x[0-9a-fA-F]*\|[0-9]*\)"\{0,1\}.*/\1/p' \
    "$K/Makefile")
rdsize=$((rdsize * 512))
rm -f "$RUN/root.img"
makefs -t ffs -B le -s "$rdsize" -o version=1,bsize=8192,fsize=1024 \
    -F "$RUN/root.spec" "$RUN/root.img" "$RUN/root" >"$RUN/makefs.log" 2>&1 &&
    "$rdroot" "$K/bsd" "$RUN/root.img" || {
	cat "$RUN/makefs.log" >&2
	kdie "cannot make the ramdisk"
}
nm -n "$K/bsd" >"$RUN/bsd.nm" 2>/dev/null

# --- What the boot loads over TFTP, kept for -r.
mkdir -p "$RUN/tftp/etc"
cp "$PXEBOOT" "$RUN/tftp/pxeboot" && cp "$K/bsd" "$RUN/tftp/bsd" ||
    kdie "cannot fill $RUN/tftp"
cat >"$RUN/tftp/etc/boot.conf" <<'EOF'
stty com0 115200
set tty com0
boot tftp:/bsd
EOF
echo "torture=$torture" >"$RUN/tftp/kernel.conf"

T_ALL=$(($(date +%s) - T0))
echo "$PROG: $name: built in ${T_BUILD}s (${T_ALL}s with tree," \
    "tools and ramdisk): $K/bsd"
[ -n "$bootit" ] || exit 0
kboot
