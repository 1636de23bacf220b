#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The crem lab: two QEMU guests running Debian's stock kernel, joined by one
# virtual link, each with soft-RoCE (rxe) on its link device.
#
#      host A (guest 1)                              host B (guest 2)
#   +---------------------+                       +---------------------+
#   | rxe0 on eth0        |     -netdev stream    | rxe0 on eth0        |
#   | 192.0.2.1/24        |<--------------------->| 192.0.2.2/24        |
#   | crem.ko, cremctl    |   (unix socket, no    | crem.ko, cremctl    |
#   | tc netem on eth0    |    host networking)   | tc netem on eth0    |
#   +---------------------+                       +---------------------+
#
# Usage: lab.sh run GUEST_SCRIPT OUT_DIR [KEY=VALUE...]
#   Boots both guests with GUEST_SCRIPT (a file under tests/selftests/) as
#   their test, passes KEY=VALUE pairs to it as crem.KEY=VALUE on the kernel
#   command line, and writes OUT_DIR/{a,b}.console (the serial consoles)
#   and OUT_DIR/{a,b}.tap (each guest's TAP).  Exit: the worse of the two
#   guests' exit codes (0 pass, 1 fail, 4 skip); 4 when the host lacks QEMU
#   or the guest kernel.
#
# Environment:
#   CREM_LAB_KVER      guest kernel: a series, 6.1 (default) or 6.12, fetched
#                      by kernel.sh from Debian's archive into the cache; or
#                      a release already there (the debug kernel)
#   CREM_LAB_KO        crem.ko to load (default: build/kmod-$KVER/crem.ko)
#   CREM_LAB_CREMCTL   cremctl binary (default: build/cremctl)
#   CREM_LAB_EXTRA_KO  another file for the guests (a module, a tool), as
#                      /crem/<its name>
#   CREM_LAB_TIMEOUT   seconds before a guest is killed (default 600)
#   CREM_LAB_BOOT_TIMEOUT  seconds for both guests to reach their test
#                      (default 300); past it the pair boots once again
#   CREM_LAB_SMP       vCPUs per guest (default 1)
#   CREM_LAB_CPU       QEMU's CPU model (default max,-fsrm,-erms: see
#                      Documentation/crem/testing.rst, "The emulated CPU")
#   CREM_LAB_MEM       MiB of memory per guest (default 1024)
#   CREM_LAB_QUIET     the kernel's console verbosity: "quiet" (default), or
#                      empty for every boot message on the consoles
#   CREM_CACHE         cache directory (default ~/.cache/crem)
#
# The guest's userland is busybox plus the host's own binaries and their
# libraries; the base image is cached, keyed by its inputs.  Each run adds
# a small overlay with crem.ko, cremctl, /init and the test scripts.

set -euo pipefail

lab_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
selftests_dir=$(dirname "$lab_dir")
repo=$(cd "$selftests_dir/../.." && pwd)
cache=${CREM_CACHE:-$HOME/.cache/crem}
ksft_skip=4

# Programs the guests run, besides busybox.
lab_bins="/usr/sbin/ip /usr/sbin/tc /usr/bin/rdma /usr/bin/jq
	  /usr/bin/ib_write_bw /usr/bin/ib_read_bw /usr/bin/ib_send_bw
	  /usr/bin/ib_atomic_bw /usr/bin/ibv_devices /usr/bin/ibv_devinfo
	  /usr/bin/ibv_rc_pingpong /usr/bin/tcpdump /usr/bin/perf
	  /usr/sbin/nft"
# Kernel modules, loaded in this order with their dependencies first.
lab_modules="virtio_pci virtio_net crc32_generic udp_tunnel ip6_udp_tunnel
	     ib_core ib_uverbs rdma_rxe sch_netem sch_ingress cls_u32 act_gact veth
	     nf_conntrack nf_tables nft_ct bridge br_netfilter"
rxe_provider=/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
lab_pkgs="busybox-static iproute2 rdma-core ibverbs-providers libibverbs1
	  ibverbs-utils perftest jq tcpdump linux-perf nftables"

die() {
	echo "lab: $*" >&2
	exit 1
}

skip() {
	echo "lab: SKIP: $*" >&2
	exit "$ksft_skip"
}

# The guest kernel's release, fetched into the cache if need be.
lab_kver() {
	local want=${CREM_LAB_KVER:-6.1}
	case $want in
	6.1 | 6.12) "$lab_dir/kernel.sh" stock "$want" ;;
	*) "$lab_dir/kernel.sh" root "$want" > /dev/null && echo "$want" ;;
	esac
}

# Copy a file to the same path under $root, with the usr-merged layout;
# a path that is a link on the host is a link in the guest too.
install_file() {
	local root=$1 src=$2 real
	real=$(readlink -f "$src")
	mkdir -p "$root$(dirname "$real")"
	cp -L "$real" "$root$real"
	src=${src/#\/bin\//\/usr\/bin\/}
	src=${src/#\/sbin\//\/usr\/sbin\/}
	src=${src/#\/lib\//\/usr\/lib\/}
	if [ "$src" != "$real" ] && [ ! -e "$root$src" ]; then
		mkdir -p "$root$(dirname "$src")"
		ln -s "$real" "$root$src"
	fi
}

# A binary or library and every shared library it needs.
install_with_libs() {
	local root=$1 f=$2 lib
	install_file "$root" "$f"
	for lib in $(ldd "$f" 2>/dev/null | awk '/=> \// {print $3} /^\t\// {print $1}'); do
		install_file "$root" "$lib"
	done
}

build_base() {
	local kver=$1 out=$2 root="$2.d" kroot mod bin
	kroot=$("$lab_dir/kernel.sh" root "$kver")
	rm -rf "$root"

	mkdir -p "$root"/{usr/bin,usr/sbin,usr/lib,usr/lib64,proc,sys,dev,run,tmp,etc/crem-lab,root,var}
	ln -s usr/bin "$root/bin"
	ln -s usr/sbin "$root/sbin"
	ln -s usr/lib "$root/lib"
	ln -s usr/lib64 "$root/lib64"
	cp /usr/bin/busybox "$root/usr/bin/busybox"
	echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
	echo "root:x:0:" > "$root/etc/group"
	for bin in $lab_bins; do
		[ -x "$bin" ] || die "$bin is missing (make deps)"
		install_with_libs "$root" "$bin"
	done
	install_with_libs "$root" "$rxe_provider"
	mkdir -p "$root/etc/libibverbs.d"
	cp /etc/libibverbs.d/rxe.driver "$root/etc/libibverbs.d/"
	install_with_libs "$root" "$(ldd /usr/bin/ip | awk '/libmnl/ {print $3}')"
	/sbin/ldconfig -r "$root" 2>/dev/null || true

	: > "$root/etc/crem-lab/insmod.list"
	for mod in $lab_modules; do
		/usr/sbin/modprobe -d "$kroot" -S "$kver" --show-depends "$mod" |
			awk '$1 == "insmod" {print $2}'
	done | awk '!seen[$0]++' | while read -r mod; do
		mod=/lib/modules/$kver/${mod#*/lib/modules/$kver/}
		mkdir -p "$root$(dirname "$mod")"
		cp -L "$kroot$mod" "$root$mod"
		echo "$mod" >> "$root/etc/crem-lab/insmod.list"
	done
	echo "$kver" > "$root/etc/crem-lab/kernel"

	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out.tmp"
	mv "$out.tmp" "$out"
	rm -rf "$root"
}

base_image() {
	local kver=$1 key dir
	key=$( {
		echo "$kver"
		sha256sum < "${BASH_SOURCE[0]}"
		dpkg-query -W $lab_pkgs 2>/dev/null
		cat "$("$lab_dir/kernel.sh" root "$kver")/lib/modules/$kver/modules.dep"
		# A rebuilt kernel of the same release (the debug kernel with
		# a new config) has the same modules.dep, not the same modules.
		sha256sum < "$("$lab_dir/kernel.sh" root "$kver")/boot/vmlinuz-$kver"
	} | sha256sum | cut -c1-16)
	dir=$cache/lab
	mkdir -p "$dir"
	if [ ! -s "$dir/base-$key.cpio" ]; then
		echo "lab: building the guest base image ($kver)" >&2
		build_base "$kver" "$dir/base-$key.cpio"
	fi
	echo "$dir/base-$key.cpio"
}

# The per-run overlay: /init, crem.ko, cremctl, cremsend and the tests.
build_overlay() {
	local out=$1 ko=$2 cremctl=$3 root="$1.d"
	local cremsend=${CREM_LAB_CREMSEND:-$repo/build/cremsend}
	rm -rf "$root"
	mkdir -p "$root/crem/tests"
	cp "$lab_dir/init" "$root/init"
	chmod 755 "$root/init"
	[ -f "$ko" ] && cp "$ko" "$root/crem/crem.ko"
	[ -x "$cremctl" ] && install_with_libs "$root" "$cremctl" &&
		cp "$cremctl" "$root/crem/cremctl"
	[ -x "$cremsend" ] && cp "$cremsend" "$root/crem/cremsend"
	[ -n "${CREM_LAB_EXTRA_KO:-}" ] && cp "$CREM_LAB_EXTRA_KO" "$root/crem/"
	cp "$selftests_dir"/*.sh "$root/crem/tests/"
	cp "$lab_dir/guest.sh" "$root/crem/tests/"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out"
	rm -rf "$root"
}

# Lines between the guest's markers that are TAP.
extract_tap() {
	sed -n '/^CREM-LAB-BEGIN/,/^CREM-LAB-END/p' "$1" | tr -d '\r' |
		grep -E '^ *(TAP version|KTAP version|[0-9]+\.\.[0-9]+|ok |not ok |# )' || true
}

guest_rc() {
	local rc
	rc=$(tr -d '\r' < "$1" | sed -n 's/^CREM-LAB-END rc=\([0-9]*\).*/\1/p' | tail -n 1)
	echo "${rc:-1}"
}

boot_guest() {
	local role=$1 initrd=$2 kver=$3 sock=$4 server=$5 console=$6 mac=$7
	local kroot smp
	shift 7
	kroot=$("$lab_dir/kernel.sh" root "$kver")
	smp=${CREM_LAB_SMP:-1}
	# KFENCE sampling from boot never lets the RCU-tasks self test of
	# PROVE_RCU end on one TCG vCPU: the debug kernel boots with it off
	# and the guest's init switches it on (lab/init).  Its ACPI
	# interpreter, checked and emulated, runs the PCI routing method
	# (_PRT) into ACPICA's 30 s loop timeout at every boot; virtio-pci
	# needs no ACPI routing (MSI-X), so PCI does without ACPI.
	case $kver in
	*-crem-debug) set -- "$@" kfence.sample_interval=0 pci=noacpi ;;
	esac
	timeout --kill-after=10 "${CREM_LAB_TIMEOUT:-600}" \
		qemu-system-x86_64 -m "${CREM_LAB_MEM:-1024}" -smp "$smp" -cpu "${CREM_LAB_CPU:-max,-fsrm,-erms}" -no-reboot \
		-display none -monitor none -serial "file:$console" \
		-kernel "$kroot/boot/vmlinuz-$kver" -initrd "$initrd" \
		-append "console=ttyS0 ${CREM_LAB_QUIET-quiet} panic=-1 crem.role=$role $*" \
		-netdev "stream,id=link,server=$server,addr.type=unix,addr.path=$sock" \
		-device "virtio-net-pci,netdev=link,mac=$mac" \
		</dev/null >/dev/null 2>"$console.qemu" || true
}

# began CONSOLE: the guest of CONSOLE reached its test.
began() {
	grep -q '^CREM-LAB-BEGIN' "$1" 2>/dev/null
}

# boot_pair OUT INITRD KVER ARGS: both guests, A first (its end of the
# link listens), until they end.  The debug kernel under TCG now and then
# hangs before its console (nothing on it for the whole timeout): a pair
# in which a guest has not reached its test within CREM_LAB_BOOT_TIMEOUT
# is stopped.  Return: 0, or 1 for a pair stopped so.
boot_pair() {
	local out=$1 initrd=$2 kver=$3 args=$4 sock=$1/link.sock
	local pid_a pid_b waited start limit=${CREM_LAB_BOOT_TIMEOUT:-300}
	local both=no

	rm -f "$sock" "$out"/{a,b}.console
	boot_guest a "$initrd" "$kver" "$sock" on "$out/a.console" \
		52:54:00:c3:e0:01 "$args" &
	pid_a=$!
	# The link's server side must listen before the client connects.
	waited=0
	while [ ! -S "$sock" ] && [ "$waited" -lt 300 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
	[ -S "$sock" ] || die "guest A did not open the link socket"
	boot_guest b "$initrd" "$kver" "$sock" off "$out/b.console" \
		52:54:00:c3:e0:02 "$args" &
	pid_b=$!
	start=$SECONDS
	while kill -0 "$pid_a" 2>/dev/null || kill -0 "$pid_b" 2>/dev/null; do
		if [ "$both" = no ] && began "$out/a.console" &&
		   began "$out/b.console"; then
			both=yes
		fi
		if [ "$both" = no ] && [ $((SECONDS - start)) -ge "$limit" ]; then
			pkill -f "file:$out/a.console" || true
			pkill -f "file:$out/b.console" || true
			wait "$pid_a" || true
			wait "$pid_b" || true
			rm -f "$sock"
			return 1
		fi
		sleep 1
	done
	wait "$pid_a" || true
	wait "$pid_b" || true
	rm -f "$sock"
}

cmd_run() {
	local script=$1 out=$2 kver ko cremctl base overlay initrd
	local rc_a rc_b g
	shift 2
	[ -f "$selftests_dir/$script" ] || die "no test script $script"
	command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is missing (make deps)"
	kver=$(lab_kver) || die "no guest kernel '${CREM_LAB_KVER:-6.1}'"
	ko=${CREM_LAB_KO:-$repo/build/kmod-$kver/crem.ko}
	cremctl=${CREM_LAB_CREMCTL:-$repo/build/cremctl}

	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	base=$(base_image "$kver")
	overlay="$out/overlay.cpio"
	build_overlay "$overlay" "$ko" "$cremctl"
	initrd="$out/initrd.cpio"
	cat "$base" "$overlay" > "$initrd"

	rm -f "$out"/{a,b}.tap
	local args="crem.test=$script"
	local kv
	for kv in "$@"; do
		args="$args crem.$kv"
	done

	if ! boot_pair "$out" "$initrd" "$kver" "$args"; then
		echo "lab: $script: a guest did not reach its test in ${CREM_LAB_BOOT_TIMEOUT:-300} s (A: $(wc -c < "$out/a.console") bytes of console, B: $(wc -c < "$out/b.console")); booting the pair again; the consoles are kept as *.console.stuck" >&2
		mv "$out/a.console" "$out/a.console.stuck"
		mv "$out/b.console" "$out/b.console.stuck"
		boot_pair "$out" "$initrd" "$kver" "$args" ||
			echo "lab: $script: again a guest did not reach its test" >&2
	fi

	extract_tap "$out/a.console" > "$out/a.tap"
	extract_tap "$out/b.console" > "$out/b.tap"
	rc_a=$(guest_rc "$out/a.console")
	rc_b=$(guest_rc "$out/b.console")
	echo "lab: $script: guest A exit $rc_a, guest B exit $rc_b" >&2
	# A guest without its end line died or was stopped by the timeout:
	# what it printed last (a panic, a hung task, a test's last step) is
	# all CI keeps.
	for g in a b; do
		grep -q '^CREM-LAB-END' "$out/$g.console" 2>/dev/null && continue
		echo "lab: $script: guest ${g^^} never reported its end (its kernel died, or the ${CREM_LAB_TIMEOUT:-600} s timeout stopped it); the last lines of its console:" >&2
		{ tr -d '\r' < "$out/$g.console" 2>/dev/null || true; } |
			tail -n 40 | sed 's/^/lab:   /' >&2
	done
	# A failure outranks a skip, and a skip outranks a pass.
	if [ "$rc_a" != 0 ] && [ "$rc_a" != "$ksft_skip" ]; then return 1; fi
	if [ "$rc_b" != 0 ] && [ "$rc_b" != "$ksft_skip" ]; then return 1; fi
	if [ "$rc_a" = "$ksft_skip" ] || [ "$rc_b" = "$ksft_skip" ]; then
		return "$ksft_skip"
	fi
	return 0
}

case "${1:-}" in
run)
	shift
	[ $# -ge 2 ] || die "usage: lab.sh run GUEST_SCRIPT OUT_DIR [KEY=VALUE...]"
	cmd_run "$@"
	;;
*)
	sed -n '3,/^$/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
	exit 2
	;;
esac
