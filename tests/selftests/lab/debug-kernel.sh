#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lab's debug kernel: Debian's linux-source-6.1 built with KASAN,
# lockdep (PROVE_LOCKING), DEBUG_ATOMIC_SLEEP, kmemleak, KFENCE and
# KUnit, plus what the lab needs (debug.config), so that crem's kernel
# glue runs under the checkers in the same two-guest lab.
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
recipe=1

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
	make -s -C "$src" O="$build" x86_64_defconfig >&2
	"$src/scripts/kconfig/merge_config.sh" -m -O "$build" \
		"$build/.config" "$src/kernel/configs/kvm_guest.config" \
		"$lab_dir/debug.config" >&2
	make -s -C "$src" O="$build" olddefconfig >&2
	# Every option of the fragment must have survived the dependencies.
	local missing
	missing=$(grep -E '^CONFIG_[A-Z0-9_]+=[ym]$' "$lab_dir/debug.config" |
		while read -r opt; do
			grep -qx "$opt" "$build/.config" || echo "$opt"
		done)
	[ -z "$missing" ] || die "options lost to their dependencies: $missing"
	# What it turns off: these few change how the kernel runs or is
	# named, and must stay off; the rest only trims the build, and one
	# that another option selects stays on, which is worth a note.
	local must_off="CONFIG_LOCALVERSION_AUTO CONFIG_MODULE_SIG
			CONFIG_DEBUG_INFO CONFIG_DEBUG_KMEMLEAK_AUTO_SCAN"
	local left_on= opt
	for opt in $(sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' \
			"$lab_dir/debug.config"); do
		grep -qE "^$opt=[ym]$" "$build/.config" || continue
		case " $(echo $must_off) " in
		*" $opt "*) die "$opt is selected by another option" ;;
		esac
		left_on="$left_on $opt"
	done
	[ -z "$left_on" ] ||
		echo "debug kernel: left on, selected by others:$left_on" >&2
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
