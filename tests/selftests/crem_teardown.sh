#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Teardown tells the peer and the listeners.  Host mode, 10 ms round trip:
#  - A switches crem off (enabled off): every flow sends CLOSE, and B's
#    flows hear it at once, not after the 10 s idle timeout;
#  - B unloads crem with flows up: A hears CLOSE from each within 7 s of
#    B's rmmod starting (its flows, idle for a second or two by then, would
#    idle out at 10 s), and a
#    `cremctl monitor` on B gets a flow-down event for every flow before
#    the netlink family goes.
. ./guest.sh

require_tool ib_write_bw "$TC" jq
ktap_plan 7

"$TC" qdisc add dev eth0 root netem delay 5ms
ktap_check "crem on, protecting flows to $CREM_PEER_IP" \
	crem_start "$CREM_PEER_IP/32"
lab_sync crem-ready

# flows_up: a transfer each way, so that each host has flows of both roles.
flows_up() {
	perftest_bw ib_write_bw /tmp/bw -s 65536 -n 20 &&
		perftest_bw ib_read_bw /tmp/bw -s 65536 -n 20
}

closes() {
	crem_counter flow_closes_received
}

# --- A switches crem off.
ktap_check "flows up" flows_up
before=$(closes)
lab_sync before-off
[ "$CREM_ROLE" = a ] && "$CREMCTL" set enabled off > /dev/null
if [ "$CREM_ROLE" = b ]; then
	if wait_for 2 sh -c "[ \$(\"$CREMCTL\" -j stats | jq .flow_closes_received) -gt $before ]"; then
		ktap_ok "A off: B heard CLOSE within 2 s ($before -> $(closes))"
	else
		ktap_fail "A off: B's closes received $before -> $(closes)"
	fi
else
	ktap_ok "A switched crem off"
fi
lab_sync off-heard
[ "$CREM_ROLE" = a ] && "$CREMCTL" set enabled on > /dev/null

# --- B unloads crem with flows up.
ktap_check "flows up again" flows_up
before=$(closes)
lab_sync before-rmmod
if [ "$CREM_ROLE" = b ]; then
	n=$("$CREMCTL" -j flows | jq length)
	"$CREMCTL" -j monitor > /tmp/events 2>&1 &
	monitor=$!
	sleep 1
	lab_sync rmmod-go
	t0=$(date +%s)
	rmmod crem
	ktap_diag "B's rmmod took $(( $(date +%s) - t0 )) s"
	sleep 1
	kill "$monitor" 2> /dev/null
	down=$(jq -R -c 'fromjson? | select(.event == "flow-down")' \
		/tmp/events 2> /dev/null | wc -l)
	if [ "$n" -gt 0 ] && [ "$down" -ge "$n" ]; then
		ktap_ok "rmmod: cremctl monitor saw flow-down for all $n flows"
	else
		ktap_fail "rmmod: $down flow-down events for $n flows"
		sed 's/^/# /' /tmp/events | tail -n 5
	fi
else
	# From the moment B starts its rmmod, which on an emulated guest
	# takes seconds; a flow that idled out instead counts no CLOSE.
	lab_sync rmmod-go
	if wait_for 7 sh -c "[ \$(\"$CREMCTL\" -j stats | jq .flow_closes_received) -gt $before ]"; then
		ktap_ok "B's rmmod: A heard CLOSE ($before -> $(closes))"
	else
		ktap_fail "B's rmmod: A's closes received $before -> $(closes)"
	fi
fi
lab_sync rmmod-heard
[ "$CREM_ROLE" = a ] && rmmod crem
ktap_check "crem unloaded" test ! -d /sys/module/crem
ktap_no_splat
ktap_finish
