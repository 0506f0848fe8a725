# mplock: a pluggable MI kernel lock (__mp_lock) for OpenBSD, M-lock by
# default.  See README.md.
#
# Portable between GNU make and BSD make: each target runs a script in
# tools/, which does the work in build/.

SH=	/bin/sh
# The OpenBSD source tree "make patch", "apply" and "revert" work on.
SRC?=	/usr/src

all:
	@${SH} tools/build.sh

test:
	@${SH} tools/test.sh

bench:
	@${SH} tools/bench.sh

test-cross:
	@${SH} tools/cross.sh

# The kernel compile matrix in full: every file of the vendored OpenBSD
# tree that includes <sys/mplock.h>, amd64 and i386, under every backend
# and option combination (make test compiles a sample).
kcompile-full:
	@KCOMPILE_FULL=1 ${SH} tools/test.sh kcompile

lint:
	@${SH} tools/lint.sh

verify:
	@${SH} tools/verify.sh

# The kernel lock in an OpenBSD source tree (tools/mplock-patch).
patch:
	@${SH} tools/mplock-patch diff ${SRC}

apply:
	@${SH} tools/mplock-patch apply ${SRC}

revert:
	@${SH} tools/mplock-patch revert ${SRC}

clean:
	rm -rf build

.PHONY: all test test-cross kcompile-full bench lint verify clean patch apply \
	revert
