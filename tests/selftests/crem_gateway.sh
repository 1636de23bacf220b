#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Gateway mode.  In each guest the soft-RoCE host stays in init_net, on a
# veth; a "gw" namespace forwards between the veth and the link (eth0,
# moved there).  crem runs only in the two gw namespaces, each protecting
# the flows toward the far host's subnet through the far gateway.  B's
# writes to A cross B's gateway (CSF), the 10 ms link with 1 % loss on B's
# side, and A's gateway (CRF).  Nothing of crem runs in init_net.  A's
# gateway drops what conntrack calls invalid in its forward path: the
# packets it restores must cross it (the rule's counter stays at 0).
# Last, both gw namespaces are deleted in the middle of a transfer (shown
# to be running then: its process alive and RoCE packets still arriving):
# crem's namespace exit runs with its flows busy (the transfer then fails,
# its path gone with them), and the module still unloads cleanly.
#
#   hostA 10.1.0.1 -veth- gwA 192.0.2.1 ==link== 192.0.2.2 gwB -veth- hostB 10.2.0.1
. ./guest.sh

require_tool ib_write_bw "$TC" jq nft
port=$CREM_LAB_PORT
GW="$IP netns exec gw"

if [ "$CREM_ROLE" = a ]; then
	host=10.1.0.1 gwip=10.1.0.254 far=10.2.0.0/24 farhost=10.2.0.1
else
	host=10.2.0.1 gwip=10.2.0.254 far=10.1.0.0/24 farhost=10.1.0.1
fi

# Five pairs of transfers, not the lab's three: three stacks a packet
# make the gateways' gain smaller than the hosts' and its runs noisier.
# In one fresh-clone make check the on/off medians of three were 1.59 on
# 6.1 and 1.03 on 6.12 (with crem 2.75, 2.09 and 2.09 MB/s against 2.08,
# 1.79 and 2.02 without); five pairs on 6.12 then gave 1.21, crem ahead
# in each pair.
CREM_RUNS=${CREM_RUNS:-5}
ktap_plan $((16 + 2 * CREM_RUNS))

# The host keeps rxe, on the veth; the link goes to the gateway.
setup() {
	/usr/bin/rdma link delete rxe0 &&
	"$IP" netns add gw &&
	"$IP" link add v0 type veth peer name v1 &&
	"$IP" link set v1 netns gw &&
	"$IP" link set eth0 netns gw &&
	"$IP" addr add "$host/24" dev v0 &&
	"$IP" link set v0 up &&
	"$IP" route add default via "$gwip" &&
	$GW "$IP" link set lo up &&
	$GW "$IP" addr add "$gwip/24" dev v1 &&
	$GW "$IP" link set v1 up &&
	$GW "$IP" addr add "$CREM_SELF_IP/24" dev eth0 &&
	$GW "$IP" link set eth0 up &&
	$GW "$IP" route add "$far" via "$CREM_PEER_IP" &&
	$GW sh -c 'echo 1 > /proc/sys/net/ipv4/ip_forward' &&
	/usr/bin/rdma link add rxe0 type rxe netdev v0
}
if setup; then
	ktap_ok "gateway namespace forwards between veth and link"
else
	ktap_fail "gateway namespace forwards between veth and link"
	ktap_finish
fi
# From here on the tests talk host to host, through both gateways.
export CREM_SELF_IP=$host CREM_PEER_IP=$farhost
wait_for 30 ping -c 1 -W 1 "$farhost" > /dev/null

delay="delay 5ms"
[ "$CREM_ROLE" = b ] && delay="delay 5ms loss 1%"
ktap_check "netem on the link: $delay" \
	$GW "$TC" qdisc add dev eth0 root netem $delay

if [ "$CREM_ROLE" = a ]; then
	$GW nft add table inet crem_ct &&
	$GW nft add chain inet crem_ct forward \
		'{ type filter hook forward priority 0; policy accept; }' &&
	$GW nft add rule inet crem_ct forward ct state invalid counter drop
	ktap_check "gateway A drops what conntrack calls invalid" test $? = 0
else
	ktap_ok "gateway B forwards everything"
fi

peer_gw=192.0.2.1
[ "$CREM_ROLE" = a ] && peer_gw=192.0.2.2
# Not yet crem's defaults here: at soft-RoCE's pace they pick blocks of 4
# with 2 repairs each, and TCG's CPU-bound gateways forward that 40 to 50
# % overhead at a cost that can eat the gain (testing.rst).  The lab's
# fixed settings keep this goodput check's margin meaningful meanwhile.
CREM_LAB_SETTINGS="k 8 hold-us 2500 reorder-us 2500"
ktap_check "crem in gw: protect $far through $peer_gw" \
	crem_start "$far" peer "$peer_gw" -- $GW
lab_sync crem-ready

# Host to host, crem off and on in the gateways, interleaved.
ktap_interleaved "$GW" ib_write_bw -s 65536 -n "$(lab_iters 200)"

ktap_other_verbs " through the gateways, crem on"

stats=$($GW "$CREMCTL" -j stats)
echo "$stats" | jq -r 'to_entries[] | select(.value > 0) | "\(.key) \(.value)"' | sed 's/^/# gw: /'
$GW "$CREMCTL" -j flows | jq -c '.[] | {role, state, src, dst, peer, k, m, config_id}' | sed 's/^/# flow /'
ktap_coded "$stats" "gateway A" "gateway B"
if [ "$CREM_ROLE" = a ]; then
	dropped=$($GW nft list chain inet crem_ct forward | awk '/counter/ {
		for (i = 1; i < NF; i++) if ($i == "packets") print $(i + 1) }')
	if [ "$dropped" = 0 ]; then
		ktap_ok "restored packets forwarded: none dropped as invalid"
	else
		ktap_fail "gateway A dropped '$dropped' packets as invalid"
	fi
else
	ktap_ok "gateway B: nothing to forward back"
fi

# init_net: crem is loaded but has no port and saw no RoCE.
seen=$("$CREMCTL" -j stats | jq -r '.roce_seen')
port0=$("$CREMCTL" -j config | jq -r '.port')
if [ "$seen" = 0 ] && [ "$port0" = 0 ]; then
	ktap_ok "nothing of crem runs in init_net"
else
	ktap_fail "init_net: port $port0, RoCE packets seen $seen"
fi

ktap_goodput_gain
lab_sync crem-done

# The namespaces go under traffic.  No lab_sync after this: it used the
# path through the gateways.  Far more than 4 s of data at any speed the
# lab reaches (with crem's copies of go-back-N windows, 400 messages took
# less): the transfer is killed below.
perftest_bw ib_write_bw /tmp/bw_exit -s 65536 -n 4000 &
pid=$!
sleep 3
flows=$($GW "$CREMCTL" -j flows | jq length)
seen0=$($GW "$CREMCTL" -j stats | jq -r '.roce_seen')
sleep 1
seen1=$($GW "$CREMCTL" -j stats | jq -r '.roce_seen')
# Running right now: the transfer's process, and packets still coming.
kill -0 "$pid" 2> /dev/null && running=yes || running=no
"$IP" netns del gw
# The link device comes back to init_net when the namespace is dismantled;
# crem's exit for it runs in the same cleanup, before any rmmod can.
if wait_for 30 "$IP" link show eth0 > /dev/null 2>&1 && [ "$flows" -gt 0 ] &&
   [ "$running" = yes ] && [ "$seen1" -gt "$seen0" ]; then
	ktap_ok "gw namespace exits under traffic ($flows flows, RoCE packets $seen0 -> $seen1 in the last second)"
else
	ktap_fail "gw namespace exits under traffic (flows $flows, transfer running: $running, RoCE $seen0 -> $seen1)"
fi
# The transfer holds rxe0, and so the veth, until it is gone.
kill "$pid" 2> /dev/null
kill_comm ib_write_bw
# rxe's device goes with the veth only once the process is gone (the
# subshell of $pid ends at once; the tool is what matters).  One stuck in
# the kernel is a failure shown with its stack, not a wait until the
# lab's timeout.
transfer_gone() {
	! comm_alive ib_write_bw
}
if wait_for 60 transfer_gone; then
	ktap_ok "the transfer ends after SIGTERM"
else
	ktap_fail "the transfer ends after SIGTERM (still there after 60 s)"
	comm_stacks ib_write_bw
fi
wait "$pid" 2> /dev/null
ktap_check "crem answers in init_net after the exit" \
	sh -c "\"$CREMCTL\" -j config > /dev/null"
ktap_check "rmmod crem" bounded 120 rmmod crem
ktap_no_splat
ktap_finish
