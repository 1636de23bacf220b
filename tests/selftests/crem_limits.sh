#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# crem's limits, in host mode with 1 % loss on B's egress over a 10 ms
# round trip.  By default crem takes a sixteenth of the memory, 256 MiB at
# most.  Each limit is set low for one short transfer, with crem
# restarted (enabled off, then on) so that no flow is left from before.
# The transfer must complete - what crem cannot protect is the RDMA
# transport's - while the limit holds and its counter counts:
#  - RDMA READ at the default limits: a flow of each role on each host,
#    and every flow dump taken while they come up (a message per flow) is
#    whole;
#  - max-flows 1, two QPs (ib_write_bw -q 2), without loss: B makes one
#    sender flow of the two and counts flow_limit; A holds at most one
#    receiver flow;
#  - mem-limit 32 KiB at B: B counts mem_limit, and the memory it charges,
#    sampled during the transfer, never exceeds the limit;
#  - flow-mem-limit 4 KiB at A: A could never take a receiver flow's
#    window, so it refuses the HELLO, counts flow_mem_limit and holds no
#    flow; B's flow, never answered, stays unprotected;
#  - max-open-blocks 1 at A, 5 % loss and m = 1 at B: A gives up open
#    blocks (blocks_dropped).
. ./guest.sh

require_tool ib_write_bw "$TC" jq

ktap_plan 12
"$TC" qdisc add dev eth0 root netem delay 5ms
[ "$CREM_ROLE" = b ] && "$TC" qdisc change dev eth0 root netem delay 5ms loss 1%
if ! crem_start "$CREM_PEER_IP/32"; then
	ktap_fail "crem on: host mode"
	ktap_finish
fi
# The limits as loaded: each case starts from them.
defaults=$("$CREMCTL" -j config | jq -r '"max-flows \(.max_flows) mem-limit \(.mem_limit) flow-mem-limit \(.flow_mem_limit) max-open-blocks \(.max_open_blocks)"')
ktap_diag "default limits: $defaults"
# By default crem takes at most a sixteenth of the machine's memory.
ram=$(awk '/^MemTotal:/ { print $2 * 1024 }' /proc/meminfo)
limit=$("$CREMCTL" -j config | jq -r .mem_limit)
flow_limit=$("$CREMCTL" -j config | jq -r .flow_mem_limit)
want=$((ram / 16))
[ "$want" -gt 268435456 ] && want=268435456
if [ "$limit" = "$want" ] && [ "$flow_limit" = $((want / 4)) ]; then
	ktap_ok "default mem-limit $limit bytes, 1/16 of $ram; flow-mem-limit $flow_limit"
else
	ktap_fail "default mem-limit $limit, flow-mem-limit $flow_limit bytes, with $ram bytes of memory"
fi

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
iters=$(lab_iters 100) tool=ib_write_bw
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
# under is run again by cremctl.  A receiver flow may have a candidate
# beside it (a HELLO with a new nonce, security.rst): "no flow twice" is
# per state, at most one live and one candidate flow of a role and QP.
rm -f /tmp/dump.* /tmp/dump_stop
(i=0; while [ ! -f /tmp/dump_stop ]; do
	i=$((i + 1))
	"$CREMCTL" -j flows > "/tmp/dump.$i" 2>&1
done) &
dumper=$!
tool=ib_read_bw
limited "ib_read_bw"
tool=ib_write_bw
touch /tmp/dump_stop
wait "$dumper"
# Counted in the dumps taken during the transfer: a flow whose direction
# went quiet (B's few READ requests) idles out 10 s later, and a slow
# guest (the debug kernel) is still transferring by then.
dumps=0 bad=0 senders=0 receivers=0 broken=
# One jq a dump: the debug kernel's guest takes a second for each, and
# the other host waits for this one at the next lab_sync.
for f in /tmp/dump.*; do
	dumps=$((dumps + 1))
	set -- $(jq -r '"\([.[] | "\(.role) \(.qp) \(.state == "candidate")"] | length == (unique | length)) \([.[] | select(.role == "sender")] | length) \([.[] | select(.role == "receiver" and .state != "candidate")] | length)"' \
		"$f" 2> /dev/null)
	if [ "$1" != true ]; then
		bad=$((bad + 1))
		broken=$f
		continue
	fi
	[ "$2" -gt "$senders" ] && senders=$2
	[ "$3" -gt "$receivers" ] && receivers=$3
done
if [ "$senders" -ge 1 ] && [ "$receivers" -ge 1 ] && [ "$bad" = 0 ] &&
   [ "$dumps" -gt 0 ]; then
	ktap_ok "ib_read_bw: up to $senders sender and $receivers receiver flows; $dumps dumps while they came up, all whole"
else
	ktap_fail "ib_read_bw: up to $senders sender, $receivers receiver flows; $bad of $dumps dumps broken"
	[ -n "$broken" ] && jq -c '.[] | {role, qp, state, flow_id}' "$broken" 2>&1 |
		head -n 8 | sed 's/^/# broken dump: /'
	crem_stats_diag
	for f in /tmp/dump.*; do
		jq -e . "$f" > /dev/null 2>&1 || { sed 's/^/# /' "$f" | head -n 5; break; }
	done
fi
# The next restart closes this host's flows, and so the other's.
lab_sync read-checked

# --- max-flows 1, two QPs: both hosts limited.  The flows are counted
# while the transfer runs (a QP that finishes first idles its flow out
# while the other still runs): never more than one, and one at some time.
# The link loses nothing here: the QP left without a flow is rxe's alone,
# and rxe alone at 1 % loss and 10 ms did not complete its 1,600 packets
# in 300 s on the debug kernel (B counted 178,860 of its packets, its
# go-back-N resending the window again and again).  The limit is what
# this case tests; recovery is every other case's.
before=$(crem_counter flow_limit)
rm -f /tmp/flow_samples /tmp/sample_stop
role=receiver
[ "$CREM_ROLE" = b ] && role=sender
if restart max-flows 1; then
	# Light on the guest (no jq): perftest's own handshake must not
	# starve on the debug kernel.
	(while [ ! -f /tmp/sample_stop ]; do
		"$CREMCTL" flows | grep -c "^flow [0-9]* ($role," \
			>> /tmp/flow_samples
		sleep 0.5
	done) &
	sampler=$!
	[ "$CREM_ROLE" = b ] && "$TC" qdisc change dev eth0 root netem delay 5ms
	transfer "max-flows 1, two QPs" -q 2
	[ "$CREM_ROLE" = a ] ||
		"$TC" qdisc change dev eth0 root netem delay 5ms loss 1% ||
		ktap_fail "max-flows 1: B's link loses 1 % again"
	touch /tmp/sample_stop
	wait "$sampler"
else
	ktap_fail "max-flows 1, two QPs: crem restarted with max-flows 1"
fi
after=$(crem_counter flow_limit)
most=$(sort -n /tmp/flow_samples | tail -n 1)
samples=$(wc -l 2> /dev/null < /tmp/flow_samples)
if [ "$most" = 1 ] &&
   { [ "$CREM_ROLE" = a ] || [ "$after" -gt "$before" ]; }; then
	ktap_ok "max-flows 1: at most one $role flow in $samples samples, flow_limit $before -> $after"
else
	ktap_fail "max-flows 1: up to '$most' $role flows in $samples samples, flow_limit $before -> $after"
	crem_stats_diag
fi

# --- mem-limit 32 KiB at the sender.
if [ "$CREM_ROLE" = b ]; then
	before=$(crem_counter mem_limit)
	refused=$(crem_counter flow_memory_refused)
	# A flow's limit may not exceed the namespace's.
	restart mem-limit 32768 flow-mem-limit 32768 ||
		ktap_diag "restart with mem-limit failed"
	rm -f /tmp/mem_samples
	(while :; do crem_counter mem_bytes >> /tmp/mem_samples; sleep 0.2; done) &
	sampler=$!
	transfer "mem-limit 32 KiB at B"
	kill "$sampler"
	wait "$sampler" 2> /dev/null
	after=$(crem_counter mem_limit)
	refused_after=$(crem_counter flow_memory_refused)
	peak=$(sort -n /tmp/mem_samples | tail -n 1)
	# The limit bound: allocations were refused (a flow that does not fit
	# is refused whole, one that does has blocks refused), and the
	# transfer above completed all the same.
	ktap_diag "charged memory peaked at $peak bytes; the engine refused memory $refused -> $refused_after times"
	if [ "$after" -gt "$before" ]; then
		ktap_ok "mem-limit: allocations refused at the limit, mem_limit $before -> $after"
	else
		ktap_fail "mem-limit: nothing refused at 32 KiB, mem_limit $before -> $after"
	fi
else
	limited "mem-limit 32 KiB at B"
fi

# --- flow-mem-limit 4 KiB at the receiver.
if [ "$CREM_ROLE" = a ]; then
	before=$(crem_counter flow_mem_limit)
	refused=$(crem_counter hello_refused)
	limited "flow-mem-limit 4 KiB at A" flow-mem-limit 4096
	after=$(crem_counter flow_mem_limit)
	refused_after=$(crem_counter hello_refused)
	n=$(flows_of receiver)
	if [ "$after" -gt "$before" ] && [ "$refused_after" -gt "$refused" ] &&
	   [ "$n" = 0 ]; then
		ktap_ok "flow-mem-limit: no receiver flow, flow_mem_limit $before -> $after, hello_refused $refused -> $refused_after"
	else
		ktap_fail "flow-mem-limit: $n receiver flows, flow_mem_limit $before -> $after, hello_refused $refused -> $refused_after"
		crem_stats_diag
	fi
else
	limited "flow-mem-limit 4 KiB at A"
	states=$("$CREMCTL" -j flows | jq -r '[.[] | select(.role == "sender") | .state] | join(",")')
	if [ "$states" = unprotected ]; then
		ktap_ok "flow-mem-limit at A: B's flow, never answered, is unprotected"
	else
		ktap_fail "flow-mem-limit at A: B's sender flows are '$states'"
		crem_stats_diag
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
ktap_check "rmmod crem" bounded 120 rmmod crem
ktap_no_splat
ktap_finish
