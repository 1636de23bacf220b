#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every Debian package that crem's build, tests and lab need.
# Idempotent: when everything is already installed it only checks and exits.
#
# Usage: tools/deps.sh          (run as root, or through sudo)

set -euo pipefail

# Build: the module against both Debian 12 kernel series, cremctl, the core.
build_pkgs="build-essential pkg-config libmnl-dev linux-headers-amd64 rsync
	    python3-yaml"
# KUnit on UML: the 6.1 source tree and what its build needs.
kunit_pkgs="linux-source-6.1 xz-utils bc flex bison python3"
# The lab: QEMU, busybox init, soft-RoCE userspace, tools.  The guests'
# kernels are fetched into the cache, never installed (lab/kernel.sh);
# the debug kernel builds from linux-source-6.1 (libelf, libssl).
lab_pkgs="qemu-system-x86 busybox-static cpio kmod dpkg
	  rdma-core ibverbs-providers ibverbs-utils perftest iproute2 jq
	  tcpdump linux-perf nftables libelf-dev libssl-dev"
# Test vectors and benchmarks of later layers.
test_pkgs="python3-scapy libisal-dev tshark clang libclang-rt-14-dev sparse
	   gnuplot-nox"

want="$build_pkgs $kunit_pkgs $lab_pkgs $test_pkgs"

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$p"
	done
}

# The 6.12 series has no meta package in bookworm; take the newest one the
# archive offers, unless some 6.12 headers are installed already.
headers_612() {
	local have
	have=$(dpkg-query -W -f='${Package} ${Status}\n' 'linux-headers-6.12.*+deb12-amd64' 2>/dev/null |
		awk '/install ok installed/ {print $1}' | sort -V | tail -n 1)
	if [ -n "$have" ]; then
		echo "$have"
		return
	fi
	apt-cache search --names-only '^linux-headers-6\.12\..*\+deb12-amd64$' |
		awk '{print $1}' | sort -V | tail -n 1
}

updated=0
apt_update_once() {
	[ "$updated" -eq 1 ] && return
	as_root apt-get update -qq
	updated=1
}

todo=$(missing $want)
h612=$(headers_612)
if [ -z "$h612" ]; then
	apt_update_once
	h612=$(headers_612)
fi
[ -n "$h612" ] || { echo "deps: no linux-headers-6.12.*+deb12-amd64 in the archive" >&2; exit 1; }
todo="$todo $(missing "$h612")"

if [ -z "${todo// /}" ]; then
	echo "deps: all packages present"
	exit 0
fi

echo "deps: installing:" $todo
apt_update_once
as_root env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -qq --no-install-recommends $todo
echo "deps: done"
