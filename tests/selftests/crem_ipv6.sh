#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host mode over IPv6: RoCEv2 between the hosts' IPv6 GIDs (fd00::1 and
# fd00::2 on the link), 10 ms round trip, 1 % loss on B's egress; crem on
# both hosts protecting the IPv6 flow.  The receiver restores packets with
# no ICRC failure, and the flows are IPv6 ones.
. ./guest.sh

require_tool ib_write_bw "$TC" jq
port=$CREM_LAB_PORT
if [ "$CREM_ROLE" = a ]; then
	self6=fd00::1 peer6=fd00::2
else
	self6=fd00::2 peer6=fd00::1
fi

ktap_plan 6
"$IP" -6 addr add "$self6/64" dev eth0 nodad
if wait_for 10 rxe_ipv6_gid_index "$self6" > /dev/null; then
	CREM_GID=$(rxe_ipv6_gid_index "$self6")
	export CREM_GID
	ktap_ok "rxe0 has an IPv6 GID for $self6 (index $CREM_GID)"
else
	ktap_fail "rxe0 has an IPv6 GID for $self6"
	ktap_finish
fi
delay="delay 5ms"
[ "$CREM_ROLE" = b ] && delay="delay 5ms loss 1%"
"$TC" qdisc add dev eth0 root netem $delay
# Moving a QP to RTR resolves the peer's link address by neighbour
# discovery, within a deadline that one lost solicitation (B's 1 % loss)
# overruns: both hosts' perftest then fail before any RoCE packet, with
# "Failed to modify QP to RTR" (2 of 11 runs on a fresh machine).  The
# IPv4 tests have the address from perftest's own TCP connection; here a
# ping finds it first.
ping6_peer() {
	ping -6 -c 1 -W 1 "$peer6" > /dev/null 2>&1 ||
		ping6 -c 1 -W 1 "$peer6" > /dev/null 2>&1
}
wait_for 30 ping6_peer || ktap_diag "no ping reply from $peer6"

ktap_check "crem on: protecting flows to $peer6" crem_start "$peer6/128"
lab_sync crem-ready
ktap_transfer "ib_write_bw over IPv6, 1 % loss, crem on" "ipv6 crem on" \
	ib_write_bw /tmp/bw6 -s 65536 -n "$(lab_iters 200)"
stats=$("$CREMCTL" -j stats)
flows=$("$CREMCTL" -j flows)
echo "$flows" | jq -c '.[] | {role, state, src, dst, k, m, config_id}' | sed 's/^/# flow /'
ktap_coded "$stats" receiver sender IPv6
if echo "$flows" | jq -e --arg p "$peer6" --arg s "$self6" \
	'[.[] | select(.src == $p or .dst == $p)] | length > 0' > /dev/null; then
	ktap_ok "the flow is IPv6"
else
	ktap_fail "the flow is IPv6"
fi
lab_sync crem-done
rmmod crem
ktap_no_splat
ktap_finish
