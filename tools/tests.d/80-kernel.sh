# kernel: the patched kernel booted under qemu -smp 4 (tools/kernel.sh);
# what make test and make kernel-test (MPLOCK_FULL=1) boot:
# doc/kernel.md, "In make test and make kernel-test".

. "$ROOT/tools/lib/vendor.sh"
. "$ROOT/tools/lib/configcheck.sh"
. "$ROOT/tools/lib/fixture-tree.sh"

KERNEL_MUTANTS="handoff-without-wait held-while-waiting mlock-guest-no-kick"
# The guest mode forced on, with a spin bound far below the default so
# that many waits halt whatever the host's speed: a lost kick must show.
GUEST_OPTS="-o MPLOCK_GUEST -o MPLOCK_GUEST_SPIN=20000"
KERNEL_RUN_LIMIT=${KERNEL_RUN_LIMIT:-1800}
k_t0=$(date +%s)
FIG=$OBJ/kernel/figures.txt

# k_verdict NAME: _v, the run's qemu crashes and boot.sh's verdict.
k_verdict() {
	_c=$(sed -n 's/^qemu_crashes=//p' "$OBJ/kernel/run/$1/result" \
	    2>/dev/null)
	_v=${_c:+qemu crashed $_c time(s), booted again; }$(grep '^kernel: ' \
	    "$_log" | tail -n 1 | sed 's/^kernel: [^:]*: //' | cut -c1-150)
}

# k_boot NAME ARGS...: kernel.sh -n NAME ARGS, a run that must pass.
k_boot() {
	_t_exec "kernel/$1" "$KERNEL_RUN_LIMIT" sh "$ROOT/tools/kernel.sh" \
	    -n "$@"
	k_verdict "$1"
	t_judge "$_v"
	k_figures "$1"
}

# k_mutant NAME MUTANT ARGS...: a seeded bug the booted kernel must
# show; the guest mode's with the mode forced on.
k_mutant() {
	_kn=$1 _km=$2
	shift 2
	case $_km in
	mlock-guest-*)	set -- "$@" $GUEST_OPTS ;;
	esac
	# make test-flaky boots this run's kernel again (-r).
	t_seeded kernel "kernel/$_kn" "$KERNEL_RUN_LIMIT" sh \
	    "$ROOT/tools/kernel.sh" -r -n "$_kn"
	_t_exec "kernel/$_kn" "$KERNEL_RUN_LIMIT" sh "$ROOT/tools/kernel.sh" \
	    -n "$_kn" -m "$_km" "$@"
	k_verdict "$_kn"
	if t_kernel_caught; then
		t_pass "$_name" "caught: ${_v:-no verdict after ${_secs}s}"
	elif [ "$_rc" -eq 77 ]; then
		t_skip "$_name" "$(tail -n 1 "$_log")"
	else
		t_fail "$_name" "exit $_rc, seeded bug NOT caught: $_v" "$_log"
	fi
	k_figures "$_kn"
}

# The figures of one run, for a results file (doc/results/).
k_figures() {
	_r=$OBJ/kernel/run/$1/result
	[ ! -f "$_r" ] || awk -v n="$1" '{ i = index($0, "=")
	    v[substr($0, 1, i - 1)] = substr($0, i + 1) }
	    END { printf "%s\t%s\tboot_s=%s\tload_ms=%s\tbuild_ms=%s\t" \
		"qemu_crashes=%d\t%s\n", n, v["status"], v["boot_s"],
		v["load_ms"], v["build_ms"], v["qemu_crashes"], v["torture"] }' \
	    "$_r" >>"$FIG"
}

# Bad input to rdroot, with the debug run's kernel: a clear error,
# nothing changed.
k_bad_input() {
	_r=$OBJ/kernel/run/$DEFAULT_BACKEND-debug
	[ -f "$_r/obj/bsd" ] || { echo "no kernel in $_r"; return 1; }
	_w=$OBJ/kernel/badinput _rd=$OBJ/kernel/badinput/rdroot
	rm -rf "$_w" && mkdir -p "$_w" && cp "$_r/obj/bsd" "$_w/bsd" &&
	    cc -O2 -Wall -Werror -o "$_rd" "$ROOT/tools/kernel/rdroot.c" ||
	    return 1
	_sum=$(cksum <"$_w/bsd")
	dd if=/dev/zero of="$_w/big.img" bs=512 count=5000 2>/dev/null
	printf 'x' >"$_w/odd.img"
	# IMAGE larger than rd_root_image (MINIROOTSIZE), KERNEL not one,
	# IMAGE not a whole number of sectors: refused, nothing written.
	FX=$_w
	fails "rd_root_image holds" "$_rd" "$_w/bsd" "$_w/big.img" &&
	    fails "not a little-endian x86_64 ELF64" "$_rd" "$_w/big.img" \
	    "$_w/big.img" &&
	    fails "not a whole number of sectors" "$_rd" "$_w/bsd" \
	    "$_w/odd.img" || return 1
	[ "$(cksum <"$_w/bsd")" = "$_sum" ] || { echo "bsd changed"; return 1; }
	[ "$(cat "$_w/odd.img")" = x ] &&
	    ! od -An -tx1 "$_w/big.img" | grep -q '[1-9a-f]'
}

# k_fake DIR SED-SCRIPT MODE COMMAND...: COMMAND (its output in
# DIR/out) with the stand-in qemu of DIR/bin in MODE, whose console is
# a good run's edited by SED-SCRIPT.
k_fake() {
	_fd=$1 _fs=$2 _fm=$3
	shift 3
	mkdir -p "$_fd/bin" && : >"$_fd/bsd.nm" &&
	    cp "$ROOT/tools/kernel/fake-qemu.sh" "$_fd/bin/qemu-system-x86_64" &&
	    chmod +x "$_fd/bin/qemu-system-x86_64" || return 1
	sed "$_fs" >"$_fd/console" <<'EOF'
cpu0 at mainbus0: apid 0 (boot processor)
cpu1 at mainbus0: apid 1 (application processor)
cpu2 at mainbus0: apid 2 (application processor)
cpu3 at mainbus0: apid 3 (application processor)
root on rd0a swap on rd0b dump on rd0b
mplock_init: started
mplock_torture: mlock 4 cpus 5s acq 1201/1180/1222/1190 intr 310 violations=0 maxwait 8123us 4100ns/acq PASS
mplock_load: 4 procs x 300 open/close: errors 0 1234 ms PASS
mplock_build: 4 jobs x 48 execs of mplock_worker (8 files each): ok 48 errors 0 5678 ms PASS
mplock_init: torture reported
mplock_init: powering off
EOF
	# A hang is judged after KERNEL_TIMEOUT: 1 s, not the 8 of the rest.
	_ft=8
	[ "$_fm" = hang ] && _ft=1
	PATH=$_fd/bin:$PATH KERNEL_FAKE_CONSOLE=$_fd/console \
	    KERNEL_FAKE_MODE=$_fm KERNEL_TIMEOUT=$_ft NCPU=4 KERNEL_NCPU=4 \
	    timeout 120 "$@" >"$_fd/out" 2>&1
}

# k_judge NAME STATUS EXPECT_TORTURE MODE SED-SCRIPT [ERE]: boot.sh's
# verdict on k_fake's console: STATUS, and one matching ERE.
k_judge() {
	_w=$OBJ/kernel/judge/$1
	rm -rf "$_w"
	k_fake "$_w" "$5" "$4" env EXPECT_TORTURE="$3" \
	    sh "$ROOT/tools/kernel/boot.sh" "$_w" "$1"
	_st=$(sed -n 's/^kernel: [^:]*: \([A-Z]*\):.*/\1/p' "$_w/out")
	if [ -n "${6:-}" ] && ! grep -Eq "^kernel: .*$6" "$_w/out"; then
		t_fail "kernel/judge/$1" "verdict without /$6/" "$_w/out"
	elif [ "$_st" = "$2" ]; then
		t_pass "kernel/judge/$1" "$(grep '^kernel: ' "$_w/out" |
		    cut -c1-100)"
	else
		t_fail "kernel/judge/$1" "verdict ${_st:-none}, not $2" \
		    "$_w/out"
	fi
}

# k_retry NAME MODE EXIT STATUS CRASHES: kernel.sh -r with the stand-in
# qemu in MODE: a qemu crash boots once more, and is counted.
k_retry() {
	_rn=judge-retry-$1
	_rr=$OBJ/kernel/run/$_rn
	rm -rf "$_rr" && mkdir -p "$_rr/tftp" && : >"$_rr/tftp/bsd" &&
	    echo "torture=" >"$_rr/tftp/kernel.conf" || return 1
	k_fake "$_rr" '/^mplock_torture/d;/torture reported/d' "$2" \
	    sh "$ROOT/tools/kernel.sh" -r -n "$_rn"
	_rc=$?
	_st=$(sed -n 's/^kernel: [^:]*: \([A-Z]*\):.*/\1/p' "$_rr/out" |
	    tail -n 1)
	_nc=$(sed -n 's/^qemu_crashes=//p' "$_rr/result")
	[ "$_rc" -eq "$3" ] && [ "$_st" = "$4" ] && [ "${_nc:-0}" = "$5" ] || {
		echo "exit $_rc, verdict $_st, $_nc crashes; not $3, $4, $5"
		cat "$_rr/out"
		return 1
	}
	[ "$5" -eq 0 ] && return 0
	grep -q "^kernel.sh: $_rn: qemu crashed (signal 11): booting again" \
	    "$_rr/out" && [ -f "$_rr/serial-crash.log" ] || {
		echo "the crash not said, or its console not kept"
		return 1
	}
	[ "$4" != PASS ] || tail -n 1 "$_rr/out" |
	    grep -q '(booted again after qemu crashed (signal 11))$'
}

# A good console is late-cpu's and qemu-crash-after-poweroff's (with
# the torture) and k_retry's (without it).
# The summary is read, not the first-violation line before it; its
# violations and its idle CPU each named.
k_judge first-violation FAIL 1 off 's|^mplock_torture: mlock 4 cpus 5s acq 1201/1180|mplock_torture: first violation: a CPU never took the lock (cpu1)\nmplock_torture: mlock 4 cpus 5s acq 1201/0|; s/violations=0 \(.*\) PASS/violations=1 \1 FAIL/' \
    'torture: violations: mplock_torture: mlock 4 cpus .*; torture: not every CPU took part \(1201/0/1222/1190\)$'
# A late CPU's line after the summary changes nothing.
k_judge late-cpu PASS 1 off 's|^mplock_init: torture reported|mplock_torture: cpu1 began 6009 ms after the start, after the test.s end: it did not run in time\n&|'
k_judge three-counts FAIL 1 off 's|acq 1201/1180/1222/1190|acq 1201/1180/1222|'
k_judge no-torture-line FAIL 1 off '/^mplock_torture/d'
k_judge init-no-summary FAIL 1 off 's/torture reported/no torture summary FAIL/'
k_judge load-fail FAIL '' off 's|errors 0 1234 ms PASS|errors 1 1234 ms FAIL|'
k_judge build-fail FAIL '' off 's|ok 48 errors 0 5678 ms PASS|ok 47 errors 1 5678 ms FAIL|'
k_judge no-build-line FAIL '' off '/^mplock_build/d'
k_judge build-jobs FAIL '' off 's|mplock_build: 4 jobs|mplock_build: 3 jobs|'
k_judge three-cpus FAIL '' off '/^cpu3 at/d'
k_judge witness FAIL '' off 's/^mplock_init: started/witness: lock order reversal:\n&/'
k_judge ddb PANIC '' stay 's/^mplock_load.*/panic: kernel diagnostic assertion failed\nStopped at db_enter+0x9: popq %rbp\nddb{2}> /;/^mplock_init: torture/d;/^mplock_init: powering/d'
k_judge hang HANG '' hang '/^mplock_load/,$d'
# qemu gone in autoconf, or on a triple fault that its -d cpu_reset
# log records; the verdict says which.
k_judge qemu-abort FAIL 1 abort '/^root on/,$d' \
    'exited before the power-off \(qemu: qemu-system-x86_64: stand-in aborted\)'
k_judge triple-fault FAIL 1 triple '/^root on/,$d' \
    'exited on a triple fault \(CPU state: .*qemu-reset\.log\)'
# qemu itself killed by a signal: no verdict on the kernel before
# the power-off, the usual one after it.
k_judge qemu-crash CRASH 1 signal '' \
    'qemu crashed \(signal 11\) after [0-9]+s, not a verdict on the kernel; last console line: mplock_torture: '
k_judge qemu-crash-after-poweroff PASS 1 signal-late ''
t_check kernel/qemu-crash-boots-again k_retry once signal-once 0 PASS 1
t_check kernel/qemu-crash-twice k_retry twice signal 5 CRASH 2
t_check kernel/qemu-no-crash k_retry none off 0 PASS 0

# k_series: kernel.sh -s of the series' steps, found by name: the
# M-lock's, the tech@ series' end, the backends' (each backend).  The
# last is apply's tree (series/final-is-apply), booted above.
k_series() {
	_sd=$OBJ/kernel/series
	rm -rf "$_sd"
	# The tree kernel.sh boots: SRC, or the snapshot.
	_st=${SRC:-$(vendor_tree openbsd-src)} &&
	    sh "$ROOT/tools/series/series.sh" "$_st" "$_sd" \
	    >"$OBJ/kernel/series.log" 2>&1 || {
		t_fail kernel/series "the patch series failed" \
		    "$OBJ/kernel/series.log"
		return
	}
	# As kernel.sh counts them; its tree has no share/.
	printf '%s\n' "$_sd"/tech/*.diff "$_sd"/optional/*.diff |
	    grep -v -- '-man\.diff$' >"$_sd.list"
	_mk=$(grep -n -- '/tech/0002-mlock\.diff$' "$_sd.list" | cut -d: -f1)
	_te=$(grep -c /tech/ "$_sd.list")
	_bk=$(grep -n -- '-backends\.diff$' "$_sd.list" | cut -d: -f1)
	[ -n "$_mk" ] && [ -n "$_bk" ] || {
		t_fail kernel/series "no M-lock or backends step in $_sd"
		return
	}
	k_boot "series-$_mk" -s "$_mk"
	[ "$_te" -le "$_mk" ] || k_boot "series-$_te" -s "$_te"
	for be in $BACKENDS; do
		k_boot "series-$_bk-$be" -s "$_bk" -b "$be"
	done
}

if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
	t_skip kernel "qemu-system-x86_64 not installed\
 (Debian: qemu-system-x86 ipxe-qemu)"
elif [ ! -r "$VENDOR/openbsd-src.tar.xz" ] && [ -z "${SRC:-}" ]; then
	t_skip kernel "no OpenBSD snapshot ($VENDOR/openbsd-src.tar.xz)"
else
	mkdir -p "$OBJ/kernel"
	: >"$FIG"
	if [ "${MPLOCK_FULL:-0}" = 1 ]; then
		k_boot "$DEFAULT_BACKEND-debug" -d
		for be in $BACKENDS; do
			k_boot "$be" -b "$be"
		done
		k_boot stock -S
		# Its torture fails a halt never kicked; that waits halt at
		# all, mlock-guest-no-kick's catch shows.
		k_boot "$DEFAULT_BACKEND-guest" $GUEST_OPTS
		k_boot "$DEFAULT_BACKEND-noguest" -o MPLOCK_NOGUEST
		for m in $KERNEL_MUTANTS; do
			k_mutant "$DEFAULT_BACKEND-debug-$m" "$m" -d
		done
		k_series
	else
		k_boot "$DEFAULT_BACKEND-debug" -d
		t_check kernel/bad-input k_bad_input
		m=${KERNEL_MUTANTS%% *}
		used=$(($(date +%s) - k_t0))
		if [ "$used" -lt "${KERNEL_TEST_BUDGET:-600}" ]; then
			k_mutant "$DEFAULT_BACKEND-debug-$m" "$m" -d
		else
			t_skip "kernel/$DEFAULT_BACKEND-debug-$m" "the\
 boot took ${used}s of the ${KERNEL_TEST_BUDGET:-600}s budget;\
 make kernel-test runs it"
		fi
	fi
	echo "   figures (TCG): $FIG"
	sed 's/^/   | /' "$FIG"
	# configcheck.sh's configs in the debug run's tree, which
	# mplock-patch apply patched: amd64's (the snapshot has no i386
	# compile directory, which mplock-patch config needs).
	. "$ROOT/tools/lib/config8.sh"
	_t=$OBJ/kernel/run/$DEFAULT_BACKEND-debug/src
	if _v=$(vendor_tree openbsd-src 2>/dev/null) &&
	    c8=$(config8_build "$_v" 2>/dev/null) &&
	    [ -d "$_t/.mplock-patch" ]; then
		t_check kernel/config8 config_check_all "$c8" "$_t" amd64
	else
		t_skip kernel/config8 "no config(8) built, or no patched tree"
	fi
fi
