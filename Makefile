# mplock: a pluggable MI kernel lock (__mp_lock) for OpenBSD, M-lock by
# default.  See README.md.
#
# Portable between GNU make and BSD make: each target runs a script in
# tools/, which does the work in build/.

SH=	/bin/sh

all:
	@${SH} tools/build.sh

test:
	@${SH} tools/test.sh

bench:
	@${SH} tools/bench.sh

test-cross:
	@${SH} tools/cross.sh

lint:
	@${SH} tools/lint.sh

clean:
	rm -rf build

.PHONY: all test test-cross bench lint clean
