#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lab's debug kernel: Debian's linux-source-6.1 (or, by hand, 6.12)
# built with KASAN,
# lockdep (PROVE_LOCKING), DEBUG_ATOMIC_SLEEP, kmemleak, KFENCE and
# KUnit, plus what the lab needs and nothing else (debug.config, applied
# to allnoconfig), so that crem's kernel glue runs under the checkers in
# the same two-guest lab.
#
# The build is cached by the hash of its inputs (the source package's
# version, the series if not 6.1, debug.config and the recipe version
# below, raised whenever the commands that build change): only the first
# run pays for it.
# The kernel lands where kernel.sh keeps the stock ones, so the lab boots
# it with CREM_LAB_KVER=<release>, and crem.ko builds against the build
# tree (KDIR).
#
# Usage: debug-kernel.sh build     build if need be; print the release
#        debug-kernel.sh kdir      print the build tree of the cached one
#        debug-kernel.sh release   print its release, if it is built
# Environment: CREM_CACHE (default ~/.cache/crem), JOBS (default nproc),
# CREM_DEBUG_SERIES: 6.1 (the default, and the only one make check and
# make kunit use: they set it) or 6.12, from linux-source-6.12, which
# make deps does not install, for chasing what only 6.12 shows.

set -euo pipefail

lab_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${CREM_CACHE:-$HOME/.cache/crem}
jobs=${JOBS:-$(nproc)}
recipe=2

die() {
	echo "debug kernel: $*" >&2
	exit 1
}

series=${CREM_DEBUG_SERIES:-6.1}
# What debug.config turns on that the series no longer defines (6.12
# merged MEMCG_KMEM into MEMCG and dropped RANDOM_TRUST_CPU): not lost.
case $series in
6.1) gone= ;;
6.12) gone="CONFIG_MEMCG_KMEM=y CONFIG_RANDOM_TRUST_CPU=y" ;;
*) die "CREM_DEBUG_SERIES must be 6.1 or 6.12" ;;
esac
tarball=/usr/src/linux-source-$series.tar.xz
if [ ! -r "$tarball" ]; then
	if [ "$series" = 6.1 ]; then
		die "$tarball is missing (make deps)"
	fi
	die "$tarball is missing (apt-get install linux-source-$series)"
fi
ver=$(dpkg-query -W -f='${Version}' "linux-source-$series")
# 6.1's key is what it was before a series could be chosen: its cache stays.
key=$( {
	echo "$ver"
	[ "$series" = 6.1 ] || echo "series $series"
	cat "$lab_dir/debug.config"
	echo "recipe $recipe"
} | sha256sum | cut -c1-12)
# The unpacked tree (6.1's) is shared with the KUnit layer
# (tests/kunit/run.sh).
src=$cache/uml/linux-source-$ver
build=$cache/debug/build-$key
kernels=$cache/lab/kernels

unpack() {
	[ -e "$src/.crem-unpacked" ] && return
	echo "debug kernel: unpacking linux-source-$series $ver" >&2
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
				case " $gone " in *" $opt "*) continue ;; esac
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
