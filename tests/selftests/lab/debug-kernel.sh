#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lab's debug kernel: Debian's linux-source-6.1 built with KASAN,
# lockdep (PROVE_LOCKING), DEBUG_ATOMIC_SLEEP, kmemleak, KFENCE and
# KUnit, plus what the lab needs and nothing else (debug.config, applied
# to allnoconfig), so that crem's kernel glue runs under the checkers in
# the same two-guest lab.
#
# The build is cached by the hash of its inputs (the source package's
# version, debug.config and the recipe version below, raised whenever the
# commands that build change): only the first run pays for it.
# The kernel lands where kernel.sh keeps the stock ones, so the lab boots
# it with CREM_LAB_KVER=<release>, and crem.ko builds against the build
# tree (KDIR).
#
# Usage: debug-kernel.sh build     build if need be; print the release
#        debug-kernel.sh kdir      print the build tree of the cached one
#        debug-kernel.sh release   print its release, if it is built
# Environment: CREM_CACHE (default ~/.cache/crem), JOBS (default nproc).

set -euo pipefail

lab_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${CREM_CACHE:-$HOME/.cache/crem}
tarball=/usr/src/linux-source-6.1.tar.xz
jobs=${JOBS:-$(nproc)}
recipe=2

die() {
	echo "debug kernel: $*" >&2
	exit 1
}

[ -r "$tarball" ] || die "$tarball is missing (make deps)"
ver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
key=$( {
	echo "$ver"
	cat "$lab_dir/debug.config"
	echo "recipe $recipe"
} | sha256sum | cut -c1-12)
# The unpacked tree is shared with the KUnit layer (tests/kunit/run.sh).
src=$cache/uml/linux-source-$ver
build=$cache/debug/build-$key
kernels=$cache/lab/kernels

unpack() {
	[ -e "$src/.crem-unpacked" ] && return
	echo "debug kernel: unpacking linux-source-6.1 $ver" >&2
	rm -rf "$src"
	mkdir -p "$src"
	tar -xJf "$tarball" -C "$src" --strip-components=1
	touch "$src/.crem-unpacked"
}

release() {
	cat "$build/include/config/kernel.release"
}

build_kernel() {
	local rel root
	if [ -e "$build/.crem-built" ]; then
		release
		return
	fi
	unpack
	mkdir -p "$build"
	echo "debug kernel: configuring in $build" >&2
	make -s -C "$src" O="$build" \
		KCONFIG_ALLCONFIG="$lab_dir/debug.config" allnoconfig >&2
	# Every option the file turns on must have survived its dependencies,
	# and what it turns off must be off.
	local missing
	missing=$( {
		grep -E '^CONFIG_[A-Z0-9_]+=[ym]$' "$lab_dir/debug.config" |
			while read -r opt; do
				if ! grep -qx "$opt" "$build/.config"; then
					echo "$opt"
				fi
			done
		sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' \
			"$lab_dir/debug.config" | while read -r opt; do
				if grep -qE "^$opt=[ym]$" "$build/.config"; then
					echo "$opt on"
				fi
			done
	} | tr '\n' ' ')
	[ -z "$missing" ] || die "options lost to their dependencies: $missing"
	echo "debug kernel: building with $jobs jobs (the first time only)" >&2
	local start=$SECONDS
	make -s -C "$src" O="$build" -j"$jobs" bzImage modules >&2
	rel=$(release)
	root=$kernels/$rel
	rm -rf "$root"
	mkdir -p "$root/boot"
	cp "$build/arch/x86/boot/bzImage" "$root/boot/vmlinuz-$rel"
	make -s -C "$src" O="$build" INSTALL_MOD_PATH="$root" \
		INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod modules_install >&2
	touch "$root/.crem-ready" "$build/.crem-built"
	echo "debug kernel: $rel built in $((SECONDS - start)) s" >&2
	echo "$rel"
}

case ${1:-} in
build) build_kernel ;;
kdir)
	[ -e "$build/.crem-built" ] || die "not built yet (debug-kernel.sh build)"
	echo "$build"
	;;
release)
	[ -e "$build/.crem-built" ] || die "not built yet (debug-kernel.sh build)"
	release
	;;
*)
	sed -n '3,/^$/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
	exit 2
	;;
esac
