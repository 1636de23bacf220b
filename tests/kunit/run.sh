#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the portable core's KUnit suites in a real kernel: the lab's debug
# kernel (KASAN, lockdep, KFENCE, kmemleak; lab/debug-kernel.sh), with the
# suites built as crem_kunit.ko and loaded in a lab guest.  Debian's
# kernels have no CONFIG_KUNIT; the debug kernel, which the lab needs
# anyway, has.
#
# Usage: tests/kunit/run.sh [KTAP_OUT]
# Prints the suites' KTAP; writes it to KTAP_OUT if given.
# Exit: 0 all passed, 1 a test failed, 4 (ksft_skip) the debug kernel or
# QEMU is not available.

set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
lab=$repo/tests/selftests/lab
ktap_out=${1:-/dev/null}
# The suites run in 6.1's debug kernel (lab/debug-kernel.sh).
export CREM_DEBUG_SERIES=6.1
build=${BUILD:-$repo/build}

if ! command -v qemu-system-x86_64 > /dev/null; then
	echo "kunit: SKIP: qemu-system-x86_64 is missing (make deps)" >&2
	exit 4
fi
rel=$("$lab/debug-kernel.sh" build) || {
	echo "kunit: SKIP: no debug kernel" >&2
	exit 4
}
kdir=$("$lab/debug-kernel.sh" kdir)

# The module, built in a copy of the sources as crem.ko is.
out=$build/kunit-$rel
mkdir -p "$out"
rsync -a --delete --exclude='/build/' --exclude='/tools/' \
	--exclude='/Documentation/' --exclude='.*' \
	--exclude='/tests/harness/' --exclude='/tests/selftests/' \
	--exclude='/tests/kunit/shim/' \
	--include='*/' --include='*.[chS]' --include='*.mk' --exclude='*' \
	--prune-empty-dirs "$repo/" "$out/"
cp "$repo/tests/kunit/Kbuild" "$out/Kbuild"
make -s -C "$kdir" M="$out" modules

rc=0
CREM_LAB_KVER=$rel CREM_LAB_EXTRA_KO=$out/crem_kunit.ko \
	"$lab/lab.sh" run crem_kunit.sh "$build/kunit" || rc=$?
# Guest A's TAP: the module's result, with every suite and case below it.
tee "$ktap_out" < "$build/kunit/a.tap"
exit "$rc"
