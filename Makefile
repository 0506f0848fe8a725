# mplock: a pluggable MI kernel lock (__mp_lock) for OpenBSD, M-lock by
# default.  See README.md.
#
# Portable between GNU make and BSD make: each target runs a script in
# tools/, which does the work in build/.

SH=	/bin/sh
# The OpenBSD source tree "make patch", "apply" and "revert" work on.
SRC?=	/usr/src
# Where "make series" writes the numbered diffs.
DIR?=	mplock-series
# Where "make install" puts the tools (bin/), their manual pages (man/)
# and what mplock-patch installs (share/mplock/); DESTDIR for packages.
PREFIX?=	/usr/local
DESTDIR?=

all:
	@${SH} tools/build.sh

test:
	@${SH} tools/test.sh

# On a fresh Debian machine, what CI does: install what the tests need
# (the package list of .ci/run, with apt-get, as root or through sudo),
# then make test.
test-debian:
	@${SH} .ci/run

# make test with every long matrix in full where make test runs a slice
# (MPLOCK_FULL=1): every backend on every cross target and with every
# seeded bug of the front end, the md stress tests at full length, the
# kernel compile matrix, the patch tool under every fault, every booted
# backend.  SUITES= for some suites only: make test-full SUITES=kcompile.
SUITES?=
test-full:
	@MPLOCK_FULL=1 ${SH} tools/test.sh ${SUITES}

bench:
	@${SH} tools/bench.sh

# Every seeded bug whose catch depends on a run, run 10 times (N=) with
# two busy loops beside it: each must be caught every time.  N is empty
# unless given: test-flaky and kernel-bench each have their own default,
# applied by the shell (the same in GNU make and BSD make).
N?=
test-flaky:
	@n='${N}'; ${SH} tools/flaky.sh -n "$${n:-10}"

lint:
	@${SH} tools/lint.sh

verify:
	@${SH} tools/verify.sh

# The patched kernel built from a real OpenBSD tree (the vendored
# snapshot, or SRC=) and booted under qemu with 4 CPUs: one debug build
# (kernel), or every backend and the seeded bugs (kernel-test).
kernel:
	@${SH} tools/kernel.sh -d

kernel-test:
	@MPLOCK_FULL=1 ${SH} tools/test.sh kernel

# Each peer's kernel (KB_PEERS: by default stock, ticket, the M-lock
# spinning only, the M-lock as it ships) booted N times (5)
# at each -smp of KB_SMP ("2 4 8"), interleaved, and compared on the
# build-like load's median time (against stock) and the torture's
# figures (tools/kernelbench.sh, doc/kernel.md): a table with the CV of
# each cell and build/kernelbench/results-DATE.txt.
KB_PEERS?=
KB_SMP?=
kernel-bench:
	@n='${N}' p='${KB_PEERS}' s='${KB_SMP}'; \
	    ${SH} tools/kernelbench.sh -n "$${n:-5}" $${p:+-p "$$p"} \
	    $${s:+-s "$$s"}

# The kernel lock in an OpenBSD source tree (tools/mplock-patch).
patch:
	@${SH} tools/mplock-patch diff ${SRC}

# The kernel change alone (sys/ and the manual pages), for review; and
# the regress directory as a diff of its own.
patch-kernel:
	@${SH} tools/mplock-patch diff -k ${SRC}

patch-regress:
	@${SH} tools/mplock-patch diff -r ${SRC}

# The kernel change as patch series for tech@: DIR/tech/ (the stock fix,
# the M-lock, its behaviour changes, the ports' cache lines) and
# DIR/optional/ on top (backends, debug layer, torture, MD primitives,
# manual pages), each a cover letter and numbered diffs.  A maintainer's
# tool (tools/series/series.sh), not installed.
series:
	@${SH} tools/series/series.sh ${SRC} ${DIR}

apply:
	@${SH} tools/mplock-patch apply ${SRC}

revert:
	@${SH} tools/mplock-patch revert ${SRC}

# mplock-patch and buildtime, their manual pages, and what mplock-patch
# needs, under PREFIX: run from there, or through a symlink, they work as
# from this checkout.
install:
	@${SH} tools/install.sh -D "${DESTDIR}" -p "${PREFIX}"

uninstall:
	@${SH} tools/install.sh -u -D "${DESTDIR}" -p "${PREFIX}"

clean:
	rm -rf build

.PHONY: all test test-debian test-full test-flaky bench \
	lint verify clean patch patch-kernel patch-regress series apply revert \
	kernel kernel-test kernel-bench install uninstall
