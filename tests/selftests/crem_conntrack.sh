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
#    rule still drops nothing, and nothing splats.
. ./guest.sh

require_tool ib_write_bw "$TC" jq nft
ktap_plan 9

"$TC" qdisc add dev eth0 root netem delay 5ms
[ "$CREM_ROLE" = b ] && "$TC" qdisc change dev eth0 root netem delay 5ms loss 1%

# invalid_dropped: what A's "ct state invalid" rule has dropped.
invalid_dropped() {
	nft list chain inet crem_ct input | awk '/counter/ {
		for (i = 1; i < NF; i++) if ($i == "packets") print $(i + 1) }'
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
			crem_flow_diag
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
		crem_flow_diag
	fi
	restored_before=$restored
}

ktap_transfer "ib_write_bw, 1 % loss, crem on, conntrack in A's input" "" \
	ib_write_bw /tmp/bw -s 65536 -n "$(lab_iters 200)"
checked "routed input"

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
ktap_check "rmmod crem" rmmod crem
ktap_no_splat
ktap_finish
