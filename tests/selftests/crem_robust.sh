#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# crem must never stand in the RDMA transport's way.  In host mode, with
# 1 % loss on B's egress over a 10 ms round trip:
#  - the repair channel blackholed (A drops everything to the CREM port
#    once the flows are up): the transfer still completes, by the RDMA
#    transport's own recovery, A restores nothing meanwhile, and B stops
#    its repairs or lowers m;
#  - rmmod crem on both hosts in the middle of a transfer (shown to be
#    running then: its process alive, rxe's packet counters moving): no
#    splat, and the transfer completes.
. ./guest.sh

require_tool ib_write_bw "$TC" jq
port=$CREM_LAB_PORT

ktap_plan 8
"$TC" qdisc add dev eth0 root netem delay 5ms
[ "$CREM_ROLE" = b ] && "$TC" qdisc change dev eth0 root netem delay 5ms loss 1%
ktap_check "crem on: host mode, port $port" crem_start "$CREM_PEER_IP/32"
lab_sync crem-ready

# A short transfer brings the flows up.
ktap_transfer "flows up: ib_write_bw with crem" "" \
	ib_write_bw /tmp/bw_up -s 65536 -n 50

# Blackhole the CREM port at A: REPAIRs, PARAM_UPDATEs, CLOSEs from B.
if [ "$CREM_ROLE" = a ]; then
	"$TC" qdisc add dev eth0 ingress &&
	"$TC" filter add dev eth0 parent ffff: protocol ip u32 \
		match ip protocol 17 0xff match ip dport "$port" 0xffff \
		action drop
	rc=$?
else
	rc=0
fi
restored=$(crem_counter flow_restored)
repairs=$(crem_counter flow_repairs_sent)
changes=$(crem_counter flow_config_changes)
lab_sync blackhole
if [ "$rc" = 0 ] && perftest_bw ib_write_bw /tmp/bw_bh -s 65536 -n "$(lab_iters 200)"; then
	[ "$CREM_ROLE" = b ] && echo "# goodput blackholed $(cat /tmp/bw_bh)"
	ktap_ok "repair channel blackholed: the transfer completes"
else
	ktap_fail "repair channel blackholed: the transfer completes"
fi
if [ "$CREM_ROLE" = a ]; then
	after=$(crem_counter flow_restored)
	if [ "$after" = "$restored" ]; then
		ktap_ok "nothing restored while blackholed ($after)"
	else
		ktap_fail "restored while blackholed: $restored -> $after"
	fi
	"$TC" qdisc del dev eth0 ingress
else
	# Every REPAIR is lost: the draft has the CSF lower m on REPAIR loss,
	# so repairs either stop or come with a lowered configuration; a
	# sender that went on as before failed.
	after=$(crem_counter flow_repairs_sent)
	changes_after=$(crem_counter flow_config_changes)
	if [ "$after" = "$repairs" ] || [ "$changes_after" -gt "$changes" ]; then
		ktap_ok "sender: repairs lost, m lowered or repairs stopped (repairs $repairs -> $after, configuration changes $changes -> $changes_after)"
	else
		ktap_fail "sender: repairs went on as before while lost: $repairs -> $after, configuration changes $changes -> $changes_after"
	fi
fi
lab_sync open-again

# rmmod in the middle of a transfer of about ten seconds: 1200 messages
# of 64 KiB at the 6-7 MB/s crem now reaches here on the stock kernels
# (400, which once took ten seconds, ended before the rmmod); 400 on the
# debug kernel's quarter scale, which moves far slower.
hw=/sys/class/infiniband/rxe0/ports/1/hw_counters
rxe_pkts() {
	echo $(( $(cat $hw/rcvd_pkts) + $(cat $hw/sent_pkts) ))
}
rm_iters=$(lab_iters 1200)
[ "$rm_iters" -ge 400 ] || rm_iters=400
pkts0=$(rxe_pkts)
perftest_bw ib_write_bw /tmp/bw_rm -s 65536 -n "$rm_iters" &
pid=$!
# Once the transfer moves (connecting takes seconds on the debug kernel),
# a few seconds into it, a second's packets show it running.
i=0
while [ "$(rxe_pkts)" -le $((pkts0 + 100)) ] && [ $i -lt 120 ] &&
      kill -0 "$pid" 2> /dev/null; do
	sleep 0.5
	i=$((i + 1))
done
sleep 3
pkts0=$(rxe_pkts)
sleep 1
pkts1=$(rxe_pkts)
kill -0 "$pid" 2> /dev/null && running=yes || running=no
rmmod crem
rm_rc=$?
if [ "$running" = yes ] && [ "$pkts1" -gt "$pkts0" ]; then
	ktap_ok "the transfer was running at rmmod (rxe packets $pkts0 -> $pkts1 in the last second)"
else
	ktap_fail "the transfer was running at rmmod: process $running, rxe packets $pkts0 -> $pkts1"
fi
if wait "$pid"; then
	[ "$CREM_ROLE" = b ] && echo "# goodput rmmod-during $(cat /tmp/bw_rm)"
	ktap_ok "rmmod during ib_write_bw: the transfer completes"
else
	ktap_fail "rmmod during ib_write_bw: the transfer completes"
fi
if [ "$rm_rc" = 0 ] && [ ! -d /sys/module/crem ]; then
	ktap_ok "rmmod crem under traffic"
else
	ktap_fail "rmmod crem under traffic (status $rm_rc)"
fi
ktap_no_splat
ktap_finish
