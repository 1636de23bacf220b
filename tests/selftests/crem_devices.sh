#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Devices that go while crem holds packets that came on them.  In guest A
# only: a "peer" namespace sends, over a veth, a HELLO that makes a
# receiver flow in init_net, then RoCEv2 sources with one PSN missing, so
# that the flow holds the ones after the gap (hold time 8 s, so that they
# are still held when the device goes; that they were is checked after,
# from the counters).  Then:
#  - the veth is deleted: the deletion ends before the held packets' hold
#    time would (crem keeps no reference past NETDEV_UNREGISTER; one kept
#    until the packets go would block it until then), and the held
#    packets are dropped (handoff_dev_gone), not handed to a freed device;
#  - again with a new veth moved to another namespace instead, and
#    deleted there while its packets would still be held.
# Each ends with no splat (KASAN on the debug kernel).
#
#   peer ns: vd1 10.9.0.2 ---veth--- vd0 10.9.0.1 init_net (crem, rxe)
. ./guest.sh

if [ "$CREM_ROLE" = b ]; then
	ktap_plan 1
	ktap_ok "idle while A tests its devices"
	ktap_finish
fi
require_tool /crem/cremsend jq
ktap_plan 9

held=5
# dropped_from N: at least $held more packets dropped for their device.
dropped_from() {
	[ "$(crem_counter handoff_dev_gone)" -ge $(($1 + held)) ]
}
# has_flow QP: a receiver flow of QP is there.
has_flow() {
	"$CREMCTL" -j flows | jq -e "[.[] | select(.qp == $(($1)))] | length == 1" > /dev/null
}

# peer_flow QP: a new veth, a flow of QP from the peer namespace, and the
# packets after a gap held.
peer_flow() {
	"$IP" link add vd0 type veth peer name vd1 &&
	"$IP" link set vd1 netns peer &&
	"$IP" addr add 10.9.0.1/24 dev vd0 &&
	"$IP" link set vd0 up &&
	"$IP" netns exec peer "$IP" addr add 10.9.0.2/24 dev vd1 &&
	"$IP" netns exec peer "$IP" link set vd1 up &&
	wait_for 10 "$IP" netns exec peer ping -c 1 -W 1 10.9.0.1 > /dev/null &&
	"$IP" netns exec peer /crem/cremsend -d 10.9.0.1 \
		hello "$1" 0x42 10.9.0.2 10.9.0.1 &&
	wait_for 5 has_flow "$1" &&
	repairs_flow "$1" &&
	held_at=$(date +%s) &&
	"$IP" netns exec peer /crem/cremsend -d 10.9.0.1 \
		roce "$1" 100 $((held + 3)) 2
}

# repairs_flow QP: Config 1 with k 8, m 2 and a REPAIR of it for an
# earlier block, so that the receiver flow of QP knows repairs flow and
# holds the packets after a gap (it holds nothing otherwise).
repairs_flow() {
	local id
	id=$("$CREMCTL" -j flows | jq -r ".[] | select(.qp == $(($1))) | .id")
	[ -n "$id" ] &&
	"$IP" netns exec peer /crem/cremsend -d 10.9.0.1 param "$id" 8 2 &&
	wait_for 5 sh -c "\"$CREMCTL\" -j flows | jq -e '.[] | select(.id == $id and .k == 8)' > /dev/null" &&
	"$IP" netns exec peer /crem/cremsend -d 10.9.0.1 repair "$id" 84 8 ||
	{ ktap_diag "no Config 1 and REPAIR for the flow '$id'"; return 1; }
}

"$IP" netns add peer
"$IP" netns add other
crem_load && "$CREMCTL" set port "$CREM_LAB_PORT" role receiver \
	hold-us 8000000 reorder-us 8000000 > /dev/null
ktap_check "crem on: receiver, hold time 8 s" test $? = 0

# counters: the dropped-for-its-device, held, handed-on and
# held-too-long counts, in one call (each call takes time on the debug
# kernel, and the device must go well within the hold time).
counters() {
	"$CREMCTL" -j stats | jq -r \
		'"\(.handoff_dev_gone) \(.flow_held) \(.held_reinjected) \(.flow_hold_expired)"'
}

# sent_to_flow QP: a flow of QP from the peer, and packets after a gap sent
# to it; the counters from before them go to $before, $held0,
# $reinjected0 and $expired0.
sent_to_flow() {
	held_at=
	read -r before held0 reinjected0 expired0 <<-EOF
	$(counters)
	EOF
	peer_flow "$1" || ktap_diag "no flow of QP $1 with packets sent to it"
}

# held_when_gone WHAT: one result, after the device went: $held more
# packets were held, none of them handed on nor let go for their hold
# time, so crem still held them when the device went (checked after
# rather than before, which would cost seconds of the hold time).
held_when_gone() {
	local dropped1 held1 reinjected1 expired1

	read -r dropped1 held1 reinjected1 expired1 <<-EOF
	$(counters)
	EOF
	: "$dropped1"	# checked by dropped_from, which may wait for it
	if [ "$held1" -ge $((held0 + held)) ] &&
	   [ "$reinjected1" = "$reinjected0" ] &&
	   [ "$expired1" = "$expired0" ]; then
		ktap_ok "$1 held the packets after a gap until the veth went"
	else
		ktap_fail "$1 held the packets until the veth went: held $held0 -> $held1, handed on $reinjected0 -> $reinjected1, hold expired $expired0 -> $expired1"
	fi
}

# went_early START END WHAT: one result; the device's deletion ran from
# START to END (seconds) and ended before the held packets' 8 s hold time
# would have, counted from $held_at, taken just before they were sent (so
# that second-granular clocks err against crem).  How long a deletion
# takes by itself varies with the kernel (RCU grace periods on the debug
# kernel take seconds); a reference crem kept until its packets go would
# make it end after.
went_early() {
	local secs=$(($2 - $1)) left

	if [ -z "$held_at" ]; then
		ktap_fail "$3: no packets were sent to be held"
		return
	fi
	left=$((held_at + 8 - $2))
	if [ "$left" -ge 1 ]; then
		ktap_ok "$3 in ${secs}s, ${left}s before the held packets' hold time ends"
	else
		ktap_fail "$3 took ${secs}s: it must end before the held packets' hold time (${left}s left)"
	fi
}

# device_goes NS WHAT FLOW DROPPED: delete vd0, in namespace NS (empty:
# this one), and check, as results, that the deletion (WHAT) ended before
# the held packets' hold time, that FLOW still held them when it went,
# and that they are then dropped (DROPPED), not handed on.
device_goes() {
	local ns=${1:+-n $1}

	start=$(date +%s)
	"$IP" $ns link del vd0
	end=$(date +%s)
	if "$IP" $ns link show vd0 > /dev/null 2>&1; then
		ktap_fail "$2: still there after ip link del"
	else
		went_early "$start" "$end" "$2"
	fi
	held_when_gone "$3"
	# At once: well before H (8 s) or the idle end (10 s) would drop them.
	if wait_for 3 dropped_from "$before"; then
		ktap_ok "$4 ($(crem_counter handoff_dev_gone))"
	else
		ktap_fail "held packets dropped: $before -> $(crem_counter handoff_dev_gone)"
		ktap_diag "$("$CREMCTL" -j stats | jq -c '{flow_held, flow_hold_expired, held_reinjected, handoff_dev_gone, inject_no_dev, flows}')"
		"$CREMCTL" -j flows | jq -c '.[] | {qp, state, stats}' | sed 's/^/# /'
	fi
}

# --- deletion
sent_to_flow 0x123
device_goes "" "the veth is deleted" "a receiver flow" \
	"its held packets are dropped, not handed on"

# --- moving to another namespace
sent_to_flow 0x124
# A move waits for no reference (crem drops the packets at the move's
# NETDEV_UNREGISTER): deleting the device there, within their hold time,
# shows whether crem kept one.
"$IP" link set vd0 netns other
device_goes other "the veth moved to another namespace is deleted there" \
	"a second flow" "its held packets are dropped"
"$IP" netns del other
"$IP" netns del peer

ktap_check "rmmod crem" bounded 120 rmmod crem
ktap_no_splat
ktap_finish
