#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# crem's limits, in host mode with 1 % loss on B's egress over a 10 ms
# round trip.  Each limit is set low for one short transfer, with crem
# restarted (enabled off, then on) so that no flow is left from before.
# The transfer must complete - what crem cannot protect is the RDMA
# transport's - while the limit holds and its counter counts:
#  - RDMA READ at the default limits: a flow of each role on each host,
#    and every flow dump taken while they come up (a message per flow) is
#    whole;
#  - max-flows 1, two QPs (ib_write_bw -q 2): B makes one sender flow of
#    the two and counts flow_limit; A holds at most one receiver flow;
#  - mem-limit 32 KiB at B: B counts mem_limit, and the memory it charges,
#    sampled during the transfer, never exceeds the limit;
#  - flow-mem-limit 4 KiB at A: A cannot take a receiver flow's window,
#    counts flow_mem_limit and holds no flow; B's flow, never answered,
#    ends unprotected;
#  - max-open-blocks 1 at A, 5 % loss and m = 1 at B: A gives up open
#    blocks (blocks_dropped).
. ./guest.sh

require_tool ib_write_bw "$TC" jq

ktap_plan 11
"$TC" qdisc add dev eth0 root netem delay 5ms
[ "$CREM_ROLE" = b ] && "$TC" qdisc change dev eth0 root netem delay 5ms loss 1%
if ! crem_start "$CREM_PEER_IP/32"; then
	ktap_fail "crem on: host mode"
	ktap_finish
fi
# The limits as loaded: each case starts from them.
defaults=$("$CREMCTL" -j config | jq -r '"max-flows \(.max_flows) mem-limit \(.mem_limit) flow-mem-limit \(.flow_mem_limit) max-open-blocks \(.max_open_blocks)"')
ktap_diag "default limits: $defaults"

# flows_of ROLE: how many flows of ROLE the namespace holds.
flows_of() {
	"$CREMCTL" -j flows | jq --arg r "$1" '[.[] | select(.role == $r)] | length'
}

# restart SETTINGS...: crem restarted on this host (every flow ends, its
# memory returned) with the default limits but SETTINGS.
restart() {
	"$CREMCTL" set enabled off > /dev/null &&
		"$CREMCTL" set $defaults > /dev/null &&
		"$CREMCTL" set "$@" enabled on > /dev/null
}

# transfer NAME [PERFTEST ARGS]: one short transfer ($iters of $tool's
# 64 KiB messages); one result.
iters=100 tool=ib_write_bw
transfer() {
	local what=$1
	shift
	ktap_transfer "$what: the transfer completes" "" \
		"$tool" /tmp/bw_limit -s 65536 -n "$iters" "$@"
}

# limited NAME SETTINGS... [-- PERFTEST ARGS]: restart with SETTINGS, then
# the transfer; one result.
limited() {
	local what=$1 settings=
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		settings="$settings $1"
		shift
	done
	[ "$1" = -- ] && shift
	if restart $settings; then
		transfer "$what" "$@"
	else
		ktap_fail "$what: crem restarted with$settings"
	fi
}

# --- RDMA READ at the default limits: each host has a flow of each role
# (B's requests and A's responses are both sources).  A flow is about
# 2.5 KB of attributes and a dump message at most a page, so a dump takes
# a message per flow.  Both hosts dump in a loop while the flows come up;
# every dump must be whole (valid, no flow twice): one that flows changed
# under is run again by cremctl.
rm -f /tmp/dump.* /tmp/dump_stop
(i=0; while [ ! -f /tmp/dump_stop ]; do
	i=$((i + 1))
	"$CREMCTL" -j flows > "/tmp/dump.$i" 2>&1
done) &
dumper=$!
tool=ib_read_bw
limited "ib_read_bw"
tool=ib_write_bw
# Counted now: idle flows end 10 s after the transfer (checking every dump
# below takes seconds in the guest).
senders=$(flows_of sender)
receivers=$(flows_of receiver)
touch /tmp/dump_stop
wait "$dumper"
dumps=0 bad=0
for f in /tmp/dump.*; do
	dumps=$((dumps + 1))
	jq -e '[.[] | "\(.role) \(.qp)"] | length == (unique | length)' \
		"$f" > /dev/null 2>&1 || bad=$((bad + 1))
done
if [ "$senders" -ge 1 ] && [ "$receivers" -ge 1 ] && [ "$bad" = 0 ] &&
   [ "$dumps" -gt 0 ]; then
	ktap_ok "ib_read_bw: $senders sender and $receivers receiver flows; $dumps dumps while they came up, all whole"
else
	ktap_fail "ib_read_bw: $senders sender, $receivers receiver flows; $bad of $dumps dumps broken"
	for f in /tmp/dump.*; do
		jq -e . "$f" > /dev/null 2>&1 || { sed 's/^/# /' "$f" | head -n 5; break; }
	done
fi
# The next restart closes this host's flows, and so the other's.
lab_sync read-checked

# --- max-flows 1, two QPs: both hosts limited.
before=$(crem_counter flow_limit)
limited "max-flows 1, two QPs" max-flows 1 -- -q 2
after=$(crem_counter flow_limit)
if [ "$CREM_ROLE" = b ]; then
	n=$(flows_of sender)
	if [ "$n" = 1 ] && [ "$after" -gt "$before" ]; then
		ktap_ok "max-flows 1: one sender flow, flow_limit $before -> $after"
	else
		ktap_fail "max-flows 1: $n sender flows, flow_limit $before -> $after"
	fi
else
	n=$(flows_of receiver)
	if [ "$n" -le 1 ] 2>/dev/null; then
		ktap_ok "max-flows 1: $n receiver flow"
	else
		ktap_fail "max-flows 1: $n receiver flows"
	fi
fi

# --- mem-limit 32 KiB at the sender.
if [ "$CREM_ROLE" = b ]; then
	before=$(crem_counter mem_limit)
	restart mem-limit 32768 || ktap_diag "restart with mem-limit failed"
	rm -f /tmp/mem_samples
	(while :; do crem_counter mem_bytes >> /tmp/mem_samples; sleep 0.2; done) &
	sampler=$!
	transfer "mem-limit 32 KiB at B"
	kill "$sampler"
	wait "$sampler" 2> /dev/null
	after=$(crem_counter mem_limit)
	peak=$(sort -n /tmp/mem_samples | tail -n 1)
	samples=$(wc -l < /tmp/mem_samples)
	if [ "$after" -gt "$before" ] && [ "$samples" -gt 0 ] &&
	   [ "$peak" -le 32768 ]; then
		ktap_ok "mem-limit: mem_limit $before -> $after, peak $peak bytes in $samples samples"
	else
		ktap_fail "mem-limit: mem_limit $before -> $after, peak '$peak' bytes in $samples samples"
	fi
else
	limited "mem-limit 32 KiB at B"
fi

# --- flow-mem-limit 4 KiB at the receiver.
if [ "$CREM_ROLE" = a ]; then
	before=$(crem_counter flow_mem_limit)
	limited "flow-mem-limit 4 KiB at A" flow-mem-limit 4096
	after=$(crem_counter flow_mem_limit)
	n=$(flows_of receiver)
	if [ "$after" -gt "$before" ] && [ "$n" = 0 ]; then
		ktap_ok "flow-mem-limit: no receiver flow, flow_mem_limit $before -> $after"
	else
		ktap_fail "flow-mem-limit: $n receiver flows, flow_mem_limit $before -> $after"
	fi
else
	limited "flow-mem-limit 4 KiB at A"
	states=$("$CREMCTL" -j flows | jq -r '[.[] | select(.role == "sender") | .state] | join(",")')
	if [ "$states" = unprotected ]; then
		ktap_ok "flow-mem-limit at A: B's flow, never answered, is unprotected"
	else
		ktap_fail "flow-mem-limit at A: B's sender flows are '$states'"
	fi
fi

# --- max-open-blocks 1 at the receiver.  Blocks that their repairs cannot
# complete wait for an answer while the next ones come: 5 % loss, and B
# sends one repair a block (adaptive m would make nearly every block
# complete).
if [ "$CREM_ROLE" = a ]; then
	before=$(crem_counter flow_blocks_dropped)
	limited "max-open-blocks 1 at A" max-open-blocks 1
	after=$(crem_counter flow_blocks_dropped)
	if [ "$after" -gt "$before" ]; then
		ktap_ok "max-open-blocks 1: blocks_dropped $before -> $after"
	else
		ktap_fail "max-open-blocks 1: blocks_dropped $before -> $after"
	fi
else
	"$TC" qdisc change dev eth0 root netem delay 5ms loss 5%
	limited "max-open-blocks 1 at A" adaptive off m 1
fi

lab_sync crem-done
ktap_check "rmmod crem" rmmod crem
ktap_no_splat
ktap_finish
