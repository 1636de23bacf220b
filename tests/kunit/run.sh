#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the portable core's KUnit suites in a real kernel: Linux 6.1 on UML,
# built from Debian's linux-source-6.1 with kunit.py.
#
# Debian's kernels have no CONFIG_KUNIT, so the suites cannot load into the
# lab's stock kernel.  The unpacked tree and the UML build directory live in
# the cache (CREM_CACHE, default ~/.cache/crem), keyed by the source
# package's version, so that only the first run pays for a full build.
#
# Usage: tests/kunit/run.sh [KTAP_OUT]
# Prints kunit.py's report; writes the kernel's KTAP to KTAP_OUT if given.
# Exit: 0 all passed, 1 a test failed, 4 (ksft_skip) a tool is missing.

set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cache=${CREM_CACHE:-$HOME/.cache/crem}
tarball=/usr/src/linux-source-6.1.tar.xz
ktap_out=${1:-}

if [ ! -r "$tarball" ]; then
	echo "kunit: SKIP: $tarball is missing (run: make deps)" >&2
	exit 4
fi
ver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
src=$cache/uml/linux-source-$ver
build=$cache/uml/build-$ver

if [ ! -e "$src/.crem-unpacked" ]; then
	echo "kunit: unpacking linux-source-6.1 $ver into $src"
	rm -rf "$src" "$build"
	mkdir -p "$src"
	tar -xJf "$tarball" -C "$src" --strip-components=1
	touch "$src/.crem-unpacked"
fi

# Hook crem's suites into the tree.  The link follows the repository that
# runs this script, so a fresh clone elsewhere is picked up.
hook=$src/lib/crem_kunit
mkdir -p "$hook"
ln -sfn "$repo" "$hook/repo"
cmp -s "$repo/tests/kunit/Kbuild" "$hook/Makefile" ||
	cp "$repo/tests/kunit/Kbuild" "$hook/Makefile"
cmp -s "$repo/tests/kunit/Kconfig" "$hook/Kconfig" ||
	cp "$repo/tests/kunit/Kconfig" "$hook/Kconfig"
grep -q crem_kunit "$src/lib/Kconfig" ||
	echo 'source "lib/crem_kunit/Kconfig"' >> "$src/lib/Kconfig"
grep -q crem_kunit "$src/lib/Makefile" ||
	echo 'obj-$(CONFIG_CREM_KUNIT_TEST) += crem_kunit/' >> "$src/lib/Makefile"

mkdir -p "$build"
rc=0
(cd "$src" && /usr/bin/python3 tools/testing/kunit/kunit.py run \
	--kunitconfig="$repo/tests/kunit/.kunitconfig" \
	--build_dir="$build" --jobs="$(nproc)" --timeout=300) || rc=$?

if [ -n "$ktap_out" ]; then
	# kunit.py keeps the kernel's console in test.log; keep its KTAP.
	sed -n '/KTAP version\|TAP version/,$p' "$build/test.log" |
		grep -E '^\s*(KTAP|TAP|[0-9]+\.\.|ok |not ok |#)' > "$ktap_out" || true
fi
exit "$rc"
