#!/bin/sh
#
# The checks for other architectures: every kernel source compiled for
# every OpenBSD machine clang knows (suite "kcompile"), and the regress
# built with Debian's cross compilers and run under qemu-user (suite
# "cross").  Both are part of "make test" too.
#
#	tools/cross.sh [target ...]	targets: aarch64-lse aarch64
#					aarch64-mi riscv64 ppc64le i686
#					powerpc (tools/lib/cross.sh)

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/lib/common.sh"
. "$ROOT/tools/lib/cross.sh"
PROG=cross USAGE='usage: tools/cross.sh [target ...]'
for t in "$@"; do
	echo " $(cross_targets) " | grep -q " $t " ||
	    usage "$t: no such target ($(cross_targets))"
done
if [ $# -gt 0 ]; then
	CROSS_TARGETS=$*
	export CROSS_TARGETS
fi
# Every backend on every target (make test takes a slice).
MPLOCK_FULL=${MPLOCK_FULL:-1}
export MPLOCK_FULL
exec sh "$ROOT/tools/test.sh" kcompile cross
