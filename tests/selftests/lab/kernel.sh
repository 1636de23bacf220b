#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A guest kernel for the lab, without touching the host's boot: Debian's
# kernel image package is fetched with `apt-get download` and unpacked
# into the cache with `dpkg-deb -x`, never installed.  Nothing under /boot
# or /lib/modules of the host changes.
#
# Usage: kernel.sh stock [SERIES]   SERIES 6.1 (default) or 6.12
#        kernel.sh root KVER        the unpacked root of a kernel fetched
#                                   before, or of the debug kernel
# Prints the kernel release (stock) or the root directory (root).  The
# root holds boot/vmlinuz-KVER and lib/modules/KVER/ with modules.dep.
#
# Environment: CREM_CACHE (default ~/.cache/crem).

set -euo pipefail

cache=${CREM_CACHE:-$HOME/.cache/crem}/lab/kernels

die() {
	echo "lab kernel: $*" >&2
	exit 1
}

# The image package of SERIES to boot.  For 6.12, the release of the
# newest 6.12 headers installed (the ones crem.ko is built against, as the
# Makefile's KDIR_612 picks them), signed or not: the archive may offer a
# newer release's headers and unsigned image before its signed one.
# Without such headers, the newest image of either kind.
image_package() {
	local rel p
	case $1 in
	6.1)
		# linux-image-amd64 is bookworm's 6.1 meta package.
		apt-cache depends linux-image-amd64 2>/dev/null |
			awk '/Depends: linux-image-6\.1\./ {print $2}' | sort -V | tail -n 1
		;;
	6.12)
		rel=$(ls -d /usr/src/linux-headers-6.12.*+deb12-amd64 2>/dev/null |
			sort -V | tail -n 1)
		rel=${rel#/usr/src/linux-headers-}
		for p in ${rel:+linux-image-$rel linux-image-$rel-unsigned}; do
			if [ -n "$(apt-cache madison "$p" 2>/dev/null)" ]; then
				echo "$p"
				return
			fi
		done
		apt-cache search --names-only \
			'^linux-image-6\.12\.[0-9]+\+deb12-amd64(-unsigned)?$' \
			2>/dev/null | awk '{print $1}' | sort -V | tail -n 1
		;;
	*) die "unknown series '$1' (6.1 or 6.12)" ;;
	esac
}

# Unpack PACKAGE into the cache once; print its kernel release.
fetch() {
	local pkg=$1 kver root tmp
	kver=${pkg#linux-image-}
	kver=${kver%-unsigned}
	root=$cache/$kver
	if [ -e "$root/.crem-ready" ]; then
		echo "$kver"
		return
	fi
	tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
	# apt's sandbox user cannot write into root's cache: fetch as is.
	(cd "$tmp" && apt-get download -o APT::Sandbox::User=root "$pkg" >&2) ||
		{ rm -rf "$tmp"; die "apt-get download $pkg failed (apt-get update?)"; }
	rm -rf "$root"
	mkdir -p "$root"
	dpkg-deb -x "$tmp"/*.deb "$root"
	rm -rf "$tmp"
	[ -r "$root/boot/vmlinuz-$kver" ] || die "$pkg holds no vmlinuz-$kver"
	# usr-merged packages unpack under usr/lib; the lab reads lib/.
	if [ ! -d "$root/lib/modules/$kver" ] && [ -d "$root/usr/lib/modules/$kver" ]; then
		mkdir -p "$root/lib/modules"
		ln -s "../../usr/lib/modules/$kver" "$root/lib/modules/$kver"
	fi
	/sbin/depmod -b "$root" "$kver"
	touch "$root/.crem-ready"
	echo "$kver"
}

mkdir -p "$cache"
case ${1:-} in
stock)
	series=${2:-6.1}
	pkg=$(image_package "$series")
	[ -n "$pkg" ] || die "no $series kernel image in the archive (apt-get update?)"
	fetch "$pkg"
	;;
root)
	[ -n "${2:-}" ] || die "usage: kernel.sh root KVER"
	[ -e "$cache/$2/.crem-ready" ] || die "kernel $2 is not in $cache"
	echo "$cache/$2"
	;;
*)
	sed -n '3,/^$/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
	exit 2
	;;
esac
