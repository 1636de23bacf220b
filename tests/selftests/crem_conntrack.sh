#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Restored and held packets cross the stack as packets from the wire do,
# in host mode with 1 % loss on B's egress over a 10 ms round trip:
#  - A drops every packet conntrack calls invalid in its input path (the
#    common "ct state invalid drop"): restored packets must get a
#    conntrack entry and reach rxe, so the rule's counter stays at 0;
#  - then A's link goes into a bridge, with br_netfilter calling the IPv4
#    hooks for bridged packets (a second caller of PRE_ROUTING, with its
#    own continuation): the transfer completes, packets are restored, the
#    rule still drops nothing, and nothing splats;
#  - in between, B sends UDP GSO bursts to A's RoCEv2 port: crem cannot
#    take a GSO skb apart, so B's crem passes each on unparsed
#    (gso_passed), and A receives its datagrams whole.
. ./guest.sh

require_tool ib_write_bw "$TC" jq nft /crem/cremsend
ktap_plan 10

"$TC" qdisc add dev eth0 root netem delay 5ms
[ "$CREM_ROLE" = b ] && "$TC" qdisc change dev eth0 root netem delay 5ms loss 1%

# counted TABLE: the packets the counter of TABLE's input chain counted.
counted() {
	nft list chain inet "$1" input | awk '/counter/ {
		for (i = 1; i < NF; i++) if ($i == "packets") print $(i + 1) }'
}

# invalid_dropped: what A's "ct state invalid" rule has dropped.
invalid_dropped() {
	counted crem_ct
}

if [ "$CREM_ROLE" = a ]; then
	nft add table inet crem_ct &&
	nft add chain inet crem_ct input \
		'{ type filter hook input priority 0; policy accept; }' &&
	nft add rule inet crem_ct input ct state invalid counter drop
	ktap_check "A drops what conntrack calls invalid" test $? = 0
else
	ktap_ok "B's input is open"
fi
ktap_check "crem on, protecting flows to $CREM_PEER_IP" \
	crem_start "$CREM_PEER_IP/32"
lab_sync crem-ready

# checked WHAT: on A, packets were restored and the rule dropped none; on
# B, the transfer was protected (repairs went out for it).
restored_before=0
repairs_before=0
checked() {
	local restored dropped repairs
	if [ "$CREM_ROLE" = b ]; then
		repairs=$(crem_counter flow_repairs_sent)
		if [ "$repairs" -gt "$repairs_before" ]; then
			ktap_ok "$1: B sent $((repairs - repairs_before)) repairs"
		else
			ktap_fail "$1: B sent no repairs ($repairs_before -> $repairs)"
			crem_stats_diag
		fi
		repairs_before=$repairs
		return
	fi
	restored=$(crem_counter flow_restored)
	dropped=$(invalid_dropped)
	if [ "$restored" -gt "$restored_before" ] && [ "$dropped" = 0 ]; then
		ktap_ok "$1: $((restored - restored_before)) restored, none dropped as invalid"
	else
		ktap_fail "$1: restored $restored_before -> $restored, dropped as invalid '$dropped'"
		crem_stats_diag
	fi
	restored_before=$restored
}

ktap_transfer "ib_write_bw, 1 % loss, crem on, conntrack in A's input" "" \
	ib_write_bw /tmp/bw -s 65536 -n "$(lab_iters 200)"
checked "routed input"

# GSO: two bursts of 8 datagrams of 1000 octets each, one skb each until
# B's device takes it apart.  netem drops a GSO skb whole, so at least one
# burst comes through B's 1 % loss.  Before 6.11 a UDP GSO send needs a
# device that offloads checksums, which the lab's virtio-net without a
# vnet header is not (udp_send_skb() says EIO).
gso_kernel=$(uname -r | awk -F. '{ print ($1 > 6 || ($1 == 6 && $2 >= 11)) }')
if [ "$gso_kernel" != 1 ]; then
	ktap_skip "GSO to RoCEv2's port" "UDP GSO needs checksum offload before 6.11"
elif [ "$CREM_ROLE" = a ]; then
	# After the invalid-drop rule: what got through it.
	nft add table inet crem_gso &&
	nft add chain inet crem_gso input \
		'{ type filter hook input priority 10; policy accept; }' &&
	nft add rule inet crem_gso input ip saddr "$CREM_PEER_IP" \
		udp dport 4791 udp length 1008 counter
	lab_sync gso-ready
	lab_sync gso-sent
	got=$(counted crem_gso)
	nft delete table inet crem_gso
	if [ "${got:-0}" -ge 8 ]; then
		ktap_ok "GSO: A received $got of B's 16 datagrams, each whole"
	else
		ktap_fail "GSO: A received '$got' of B's 16 datagrams"
	fi
else
	lab_sync gso-ready
	gso=$("$CREMCTL" -j stats | jq -r '.gso_passed // 0')
	/crem/cremsend -d "$CREM_PEER_IP" gso 1000 8 &&
		/crem/cremsend -d "$CREM_PEER_IP" gso 1000 8
	sent=$?
	now=$("$CREMCTL" -j stats | jq -r '.gso_passed // 0')
	passed=$(( ${now:-0} - ${gso:-0} ))
	lab_sync gso-sent
	if [ "$sent" = 0 ] && [ "$passed" -eq 2 ]; then
		ktap_ok "GSO: B's crem passed both GSO skbs to RoCEv2's port on unparsed"
	else
		ktap_fail "GSO: cremsend exit $sent, gso_passed rose by $passed (2 sent)"
	fi
fi

# A's link into a bridge, with br_netfilter.
if [ "$CREM_ROLE" = a ]; then
	/usr/bin/rdma link delete rxe0 &&
	"$IP" link add br0 type bridge &&
	"$IP" addr del "$CREM_SELF_IP/24" dev eth0 &&
	"$IP" link set eth0 master br0 &&
	"$IP" addr add "$CREM_SELF_IP/24" dev br0 &&
	"$IP" link set br0 up &&
	sysctl -qw net.bridge.bridge-nf-call-iptables=1 &&
	/usr/bin/rdma link add rxe0 type rxe netdev br0 &&
	wait_for 30 ping -c 1 -W 1 "$CREM_PEER_IP" > /dev/null
	ktap_check "A's link in a bridge, with br_netfilter" test $? = 0
else
	ktap_ok "B stays as it is"
fi
# Flows start afresh (the old ones knew the old device).
"$CREMCTL" set enabled off > /dev/null && "$CREMCTL" set enabled on > /dev/null
lab_sync bridged

ktap_transfer "ib_write_bw, 1 % loss, crem on, through A's bridge" "" \
	ib_write_bw /tmp/bw -s 65536 -n "$(lab_iters 200)"
checked "bridged input"

lab_sync crem-done
ktap_check "rmmod crem" bounded 120 rmmod crem
ktap_no_splat
ktap_finish
