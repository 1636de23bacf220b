# SPDX-License-Identifier: GPL-2.0
#
# Helpers for tests that run inside a lab guest (sourced, busybox sh).
#
# The environment gives CREM_ROLE (a or b), CREM_SELF_IP, CREM_PEER_IP and
# any crem.KEY=VALUE of the kernel command line as CREM_KEY.  Tests print
# TAP version 13 through the ktap_* helpers and end with ktap_finish,
# whose exit code the host reads: 0 pass, 1 fail, 4 (ksft_skip) skip.

ksft_skip=4
IP=/usr/sbin/ip		# busybox's shell prefers its own ip and tc applets
TC=/usr/sbin/tc
CREMCTL=/crem/cremctl
CREM_KO=/crem/crem.ko
LAB_SYNC_PORT=7123

ktap_nr=0
ktap_failed=0
ktap_skipped=0

ktap_plan() {
	echo "TAP version 13"
	echo "1..$1"
}

ktap_ok() {
	ktap_nr=$((ktap_nr + 1))
	echo "ok $ktap_nr $CREM_ROLE: $*"
}

ktap_fail() {
	ktap_nr=$((ktap_nr + 1))
	ktap_failed=$((ktap_failed + 1))
	echo "not ok $ktap_nr $CREM_ROLE: $*"
}

ktap_skip() {
	local what=$1
	shift
	ktap_nr=$((ktap_nr + 1))
	ktap_skipped=$((ktap_skipped + 1))
	echo "ok $ktap_nr $CREM_ROLE: $what # SKIP $*"
}

# ktap_check DESCRIPTION COMMAND...: one result from a command's status.
ktap_check() {
	local what=$1
	shift
	if "$@"; then
		ktap_ok "$what"
	else
		ktap_fail "$what"
	fi
}

ktap_diag() {
	echo "$*" | sed 's/^/# /'
}

ktap_finish() {
	if [ "$ktap_failed" -gt 0 ]; then
		exit 1
	elif [ "$ktap_skipped" -gt 0 ] && [ "$ktap_skipped" -eq "$ktap_nr" ]; then
		exit "$ksft_skip"
	fi
	exit 0
}

# The whole test is skipped: a tool it needs is missing.
ktap_skip_all() {
	echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit "$ksft_skip"
}

require_tool() {
	local t
	for t in "$@"; do
		[ -x "$t" ] || command -v "$t" >/dev/null 2>&1 ||
			ktap_skip_all "$t is not available in the guest"
	done
}

# wait_for SECONDS COMMAND...: poll until COMMAND succeeds.
wait_for() {
	local deadline=$(( $(date +%s) + $1 ))
	shift
	until "$@"; do
		[ "$(date +%s)" -ge "$deadline" ] && return 1
		sleep 0.2
	done
}

# kill_comm NAME: SIGTERM to every process whose command is NAME (the
# guest's busybox has no pkill).
kill_comm() {
	local p
	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = "$1" ] && kill "${p#/proc/}" 2>/dev/null
	done
	return 0
}

# lab_sync NAME: both guests reach the same point before either goes on.
# Guest A listens, guest B connects; the name guards against mismatches.
lab_sync() {
	local got
	if [ "$CREM_ROLE" = a ]; then
		got=$(echo "$1" | timeout 120 nc -l -p "$LAB_SYNC_PORT")
	else
		got=
		wait_for 120 sh -c "echo '$1' | nc -w 2 '$CREM_PEER_IP' $LAB_SYNC_PORT > /tmp/sync.$$ 2>/dev/null && [ -s /tmp/sync.$$ ]" &&
			got=$(cat /tmp/sync.$$)
		rm -f /tmp/sync.$$
	fi
	[ "$got" = "$1" ]
}

# rxe_gid_index GID: the index under which rxe0 port 1 lists GID.
rxe_gid_index() {
	local f
	for f in /sys/class/infiniband/rxe0/ports/1/gids/*; do
		if [ "$(cat "$f" 2>/dev/null)" = "$1" ]; then
			basename "$f"
			return 0
		fi
	done
	return 1
}

# The GID index of rxe0 that carries our IPv4 address (RoCEv2 over IPv4).
rxe_ipv4_gid_index() {
	local want f
	want=$(echo "$CREM_SELF_IP" | awk -F. '{printf "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x", $1, $2, $3, $4}')
	rxe_gid_index "$want"
}

# The GID index of rxe0 that carries IPv6 address $1 (RoCEv2 over IPv6).
rxe_ipv6_gid_index() {
	local want f
	want=$(echo "$1" | awk -F: '{
		n = NF; out = "";
		for (i = 1; i <= NF; i++) {
			if ($i == "" && i > 1 && i < NF) { for (z = 0; z < 9 - NF; z++) out = out "0000:"; continue }
			out = out sprintf("%04s:", $i)
		}
		gsub(/ /, "0", out); print substr(out, 1, 39) }')
	rxe_gid_index "$want"
}

# perftest_bw TOOL OUT [ARGS...]: run a perftest benchmark between the
# guests, A serving and B connecting; B's average bandwidth in MB/s goes to
# OUT (B only).  Returns the tool's status.  CREM_GID picks the local GID
# index (default: the IPv4 one).
perftest_bw() {
	local tool=$1 out=$2 gid
	shift 2
	gid=${CREM_GID:-$(rxe_ipv4_gid_index)} || return 1
	if [ "$CREM_ROLE" = a ]; then
		lab_sync "$tool-server" || return 1
		timeout 300 "$tool" -d rxe0 -x "$gid" -F "$@" > /tmp/perftest.out 2>&1
	else
		lab_sync "$tool-server" || return 1
		# Poll until A's server accepts the connection.
		wait_for 60 sh -c "timeout 300 $tool -d rxe0 -x $gid -F $* $CREM_PEER_IP > /tmp/perftest.out 2>&1" ||
			{ cat /tmp/perftest.out | sed 's/^/# /'; return 1; }
		# The line after the header holds: bytes iterations peak average rate.
		awk '/BW average/ {getline; print $4; exit}' /tmp/perftest.out > "$out"
		[ -s "$out" ]
	fi
}

# crem_load: insmod crem.ko, after the UDP tunnel modules it needs.
crem_load() {
	modprobe udp_tunnel 2>/dev/null
	modprobe ip6_udp_tunnel 2>/dev/null
	insmod "$CREM_KO"
}

# crem_counter NAME: one of the namespace's counters (cremctl stats).
crem_counter() {
	"$CREMCTL" -j stats | jq -r ".$1"
}

# crem_protect PREFIX [peer ADDR] [-- WRAPPER...]: the lab's settings (a
# 10 ms link: blocks of 8, hold time and allowance 2.5 ms) on port 7700,
# protecting PREFIX; WRAPPER runs cremctl elsewhere (ip netns exec gw).
CREM_LAB_PORT=7700
crem_protect() {
	local prefix=$1 wrap=
	shift
	local peer=
	if [ "$1" = peer ]; then
		peer="peer $2"
		shift 2
	fi
	[ "$1" = -- ] && shift && wrap="$*"
	$wrap "$CREMCTL" set port "$CREM_LAB_PORT" k 8 hold-us 2500 \
		reorder-us 2500 &&
		$wrap "$CREMCTL" protect add "$prefix" $peer
}

# crem_start PREFIX [peer ADDR] [-- WRAPPER...]: crem_load, then
# crem_protect.
crem_start() {
	crem_load && crem_protect "$@"
}

# ktap_no_splat: one result, no WARN, BUG, Oops or leak report in dmesg.
ktap_no_splat() {
	if dmesg | grep -Eq 'WARNING:|BUG:|Oops|leak'; then
		ktap_fail "no splat in dmesg"
		dmesg | grep -E -A20 'WARNING:|BUG:|Oops' | sed 's/^/# /'
	else
		ktap_ok "no splat in dmesg"
	fi
}

# ktap_transfer WHAT LABEL TOOL OUT [ARGS...]: one result, WHAT: the
# perftest_bw run completes.  On B, with a LABEL, the goodput is printed
# as "# goodput LABEL MB/s" (the demo and the ratio checks read it).
ktap_transfer() {
	local what=$1 label=$2
	shift 2
	if perftest_bw "$@"; then
		[ -n "$label" ] && [ "$CREM_ROLE" = b ] &&
			echo "# goodput $label $(cat "$2")"
		ktap_ok "$what"
	else
		ktap_fail "$what"
		sed 's/^/# /' /tmp/perftest.out 2>/dev/null | tail -n 5
	fi
}

# ktap_other_verbs SUFFIX: one result each for RDMA READ, SEND and atomics
# run host to host (A serves), named by the tool and SUFFIX.
ktap_other_verbs() {
	local suffix=$1 tool args
	for tool in ib_read_bw ib_send_bw ib_atomic_bw; do
		case $tool in
		ib_atomic_bw) args="-n 2000" ;;
		*) args="-s 65536 -n 50" ;;
		esac
		ktap_transfer "$tool$suffix" "$tool on" \
			"$tool" "/tmp/$tool" $args
	done
}

# ktap_coded STATS RECEIVER SENDER [KIND]: one result from `cremctl -j
# stats` output: on A (RECEIVER) packets were restored and none failed
# its ICRC; on B (SENDER) repairs were sent.
ktap_coded() {
	local stats=$1 receiver=$2 sender=$3 kind=${4:+$4 } restored icrc sent acked
	if [ "$CREM_ROLE" = a ]; then
		restored=$(echo "$stats" | jq -r '.flow_restored')
		icrc=$(echo "$stats" | jq -r '.flow_icrc_failures')
		if [ "$restored" -gt 0 ] 2>/dev/null && [ "$icrc" = 0 ]; then
			ktap_ok "$receiver restored $restored ${kind}packets, none failed its ICRC"
		else
			ktap_fail "$receiver restored '$restored', ICRC failures '$icrc'"
		fi
	else
		sent=$(echo "$stats" | jq -r '.flow_repairs_sent')
		acked=$(echo "$stats" | jq -r '.flow_blocks_acked')
		# Blocks are acknowledged by the RDMA ACKs the hook matches.
		if [ "$sent" -gt 0 ] 2>/dev/null && [ "$acked" -gt 0 ] 2>/dev/null; then
			ktap_ok "$sender sent $sent repairs, $acked blocks acknowledged"
		else
			ktap_fail "$sender sent repairs: '$sent', blocks acknowledged: '$acked'"
		fi
	fi
}

# ktap_goodput_gain: one result; on B, the sender, the goodput with crem
# (/tmp/bw_on, MB/s) is above the goodput without it (/tmp/bw_off).
ktap_goodput_gain() {
	local off on
	if [ "$CREM_ROLE" != b ]; then
		ktap_ok "goodput compared at the sender"
		return
	fi
	off=$(cat /tmp/bw_off 2>/dev/null)
	on=$(cat /tmp/bw_on 2>/dev/null)
	awk -v off="$off" -v on="$on" \
		'BEGIN { if (off > 0) printf "# goodput ratio on/off %.2f\n", on / off }'
	if awk -v off="$off" -v on="$on" 'BEGIN { exit !(off > 0 && on > off) }'; then
		ktap_ok "goodput with crem ($on MB/s) above without ($off MB/s)"
	else
		ktap_fail "goodput with crem ($on MB/s) above without ($off MB/s)"
	fi
}
