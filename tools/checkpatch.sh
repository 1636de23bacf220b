#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the kernel's checkpatch.pl over crem's C sources.
#
# checkpatch comes from Debian's linux-source-6.1 tarball, unpacked once
# into the cache.  One check is switched off: LINUX_VERSION_CODE, because
# crem/compat.h is, by design, the one place that tests kernel versions.
#
# Usage: tools/checkpatch.sh [FILE...]
# Default: every C file that builds into a kernel (crem/ and the KUnit
# suites).  Userspace-only code (cremctl, the KUnit shim) follows kernel
# style too but cannot use kernel-only macros such as __printf().
# Exit: 0 clean, 1 findings, 4 (skip) checkpatch unavailable.

set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${CREM_CACHE:-$HOME/.cache/crem}
tarball=/usr/src/linux-source-6.1.tar.xz

[ -r "$tarball" ] || { echo "checkpatch: SKIP: $tarball missing (make deps)" >&2; exit 4; }
ver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
dir=$cache/checkpatch-$ver
if [ ! -x "$dir/scripts/checkpatch.pl" ]; then
	mkdir -p "$dir"
	tar -xJf "$tarball" -C "$dir" --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi

cd "$repo"
if [ $# -eq 0 ]; then
	set -- $(git ls-files 'crem/*.[ch]' 'tests/kunit/*_test.c')
fi
perl "$dir/scripts/checkpatch.pl" --no-tree --quiet --show-types \
	--ignore LINUX_VERSION_CODE,FILE_PATH_CHANGES -f "$@"
