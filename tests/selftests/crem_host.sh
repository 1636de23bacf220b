#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host mode: crem on both soft-RoCE hosts protects B's RDMA writes to A
# across a 10 ms round trip with 1 % loss on B's egress (netem, after
# crem's POST_ROUTING hook).  Three transfers with crem off and three with
# it on, interleaved, compare their median goodputs.
# B is the CREM sender, A the receiver.  Asserts the receiver restored
# packets with no ICRC failure, both flows show the negotiated parameters,
# and prints the goodput with crem off and on, and their ratio.  Dear
# coding leaves the receive softirq: every coded answer perf records ran
# in crem's engine work (a kworker of its unbound workqueue), and so did
# every decode but small ones, which may run in the softirq of their
# REPAIR.
#
#   host A 192.0.2.1 <--- 5 ms [1 % loss] --- host B 192.0.2.2 (writes)
. ./guest.sh

require_tool ib_write_bw "$TC" jq
iters=${CREM_ITERS:-200}
size=${CREM_SIZE:-65536}
port=$CREM_LAB_PORT

ktap_plan $((16 + 2 * ${CREM_RUNS:-3}))

ktap_check "netem: 5 ms each way" \
	"$TC" qdisc add dev eth0 root netem delay 5ms
if [ "$CREM_ROLE" = b ]; then
	ktap_check "netem: ${CREM_LOSS:-1} % loss on B's egress" \
		"$TC" qdisc change dev eth0 root netem delay 5ms loss ${CREM_LOSS:-1}%
else
	ktap_ok "netem: A's egress lossless"
fi

# crem.ko needs the UDP tunnel modules (rdma_rxe loaded them already).
ktap_check "crem on: port $port, protecting flows to $CREM_PEER_IP" \
	crem_start "$CREM_PEER_IP/32"
"$CREMCTL" config | sed 's/^/# /'
# crem's tracepoints, recorded with perf.
[ -d /sys/kernel/tracing/events ] ||
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
perf record -q -e 'crem:*' -a -o /tmp/perf.data > /tmp/perf.log 2>&1 &
perf_pid=$!
# ... and its netlink events.
"$CREMCTL" -j monitor > /tmp/events 2>&1 &
monitor=$!
lab_sync crem-ready

ktap_interleaved "" ib_write_bw -s "$size" -n "$iters"

# The other verbs complete through crem too (READ responses are A's
# sources, protected by A toward B).
ktap_other_verbs ", 1 % loss, crem on"

stats=$("$CREMCTL" -j stats)
flows=$("$CREMCTL" -j flows)
echo "$flows" | jq -c '.[] | {role, state, id, k, m, t, config_id, srtt_us, hold_us}' 2>/dev/null | sed 's/^/# flow /'
echo "$stats" | jq -r 'to_entries[] | select(.value > 0) | "\(.key) \(.value)"' | sed 's/^/# /'

if [ "$CREM_ROLE" = a ]; then
	restored=$(echo "$stats" | jq -r '.flow_restored')
	icrc=$(echo "$stats" | jq -r '.flow_icrc_failures')
	crem_losses "$stats" | sed 's/^/# receiver: /'
	if [ "$restored" -gt 0 ] 2>/dev/null && losses_fit "$stats"; then
		ktap_ok "receiver restored $restored packets, losses counted"
	else
		ktap_fail "receiver restored packets: '$restored', or losses that do not fit"
	fi
	if [ "$icrc" = 0 ]; then
		ktap_ok "receiver: no restored packet failed its ICRC"
	else
		ktap_fail "receiver: $icrc restored packets failed their ICRC"
	fi
	role=receiver
else
	sent=$(echo "$stats" | jq -r '.flow_repairs_sent')
	if [ "$sent" -gt 0 ] 2>/dev/null; then
		ktap_ok "sender sent $sent repairs"
	else
		ktap_fail "sender sent repairs: '$sent'"
	fi
	# The hook matches A's ACKs to B's sender flows by address pair.
	acked=$(echo "$stats" | jq -r '.flow_blocks_acked')
	if [ "$acked" -gt 0 ] 2>/dev/null; then
		ktap_ok "sender: $acked blocks acknowledged by RDMA ACKs"
	else
		ktap_fail "sender: blocks acknowledged by RDMA ACKs: '$acked'"
	fi
	role=sender
fi
if echo "$flows" | jq -e --arg r "$role" \
	'[.[] | select(.role == $r and .k > 0 and .config_id > 0)] | length > 0' > /dev/null; then
	ktap_ok "a $role flow with negotiated parameters"
else
	ktap_fail "a $role flow with negotiated parameters"
fi

kill "$monitor" 2>/dev/null
sed 's/^/# event /' /tmp/events | head -n 5
want=flow-up
[ "$CREM_ROLE" = b ] && want=config-changed
# The monitor is killed mid-stream; a cut last line must not hide the rest.
if jq -R -n -e --arg w "$want" \
	'[inputs | fromjson? | select(.event == $w)] | length > 0' \
	/tmp/events > /dev/null; then
	ktap_ok "cremctl monitor saw $want"
else
	ktap_fail "cremctl monitor saw $want"
fi

# The receiver decodes blocks; the sender changes parameters.
event=crem_block_decoded
[ "$CREM_ROLE" = b ] && event=crem_param_change
kill -INT "$perf_pid" 2>/dev/null
wait "$perf_pid"
perf script -i /tmp/perf.data > /tmp/perf.txt 2>/dev/null
n=$(grep -c "crem:$event:" /tmp/perf.txt)
grep -m 3 "crem:" /tmp/perf.txt | sed 's/^/# perf: /'
if [ "${n:-0}" -gt 0 ]; then
	ktap_ok "perf recorded tracepoint $event $n times"
else
	ktap_fail "perf recorded tracepoint $event"
	sed 's/^/# /' /tmp/perf.log | tail -n 5
fi
# Coded answers (coded_retx_sent, at the sender) run in crem's engine
# work; a decode runs there too, or in the softirq its REPAIR came in if it
# is small (CREM_FLOW_SOFTIRQ_DECODE, 262144 octets of symbols passed
# over).  The receiver's coded_retx_answered marks an answer's arrival, not
# coding: its decode is the block_decoded that follows.
coding='crem:crem_(block_decoded|coded_retx_sent):'
total=$(grep -Ec "$coding" /tmp/perf.txt)
# A worker the workqueue starts while perf records keeps its parent's
# name there: kthreadd, with its own PID (kthreadd itself is PID 2).
worker='^ *(kworker/u[^ ]* |kthreadd +([013-9]|[0-9][0-9]+) )'
in_work=$(grep -E "$coding" /tmp/perf.txt | grep -Ec "$worker")
small=$(grep -E "$coding" /tmp/perf.txt | grep -Ev "$worker" |
	grep 'crem_block_decoded:.* softirq=1' |
	sed -n 's/.* cost=\([0-9]*\) .*/\1/p' | awk '$1 <= 262144' | wc -l)
# A's decodes are asserted above; B codes answers only when asked.
if [ $((in_work + small)) = "$total" ] &&
   { [ "$CREM_ROLE" = b ] || [ "$total" -gt 0 ]; }; then
	ktap_ok "every coding event ($total) ran in crem's engine work ($in_work) or was a small decode in softirq ($small)"
else
	ktap_fail "coding events in crem's engine work $in_work, small in softirq $small, of $total"
	grep -E "$coding" /tmp/perf.txt | grep -Ev "$worker" |
		grep -v 'softirq=1' | head -n 3 | sed 's/^/# /'
fi

# The runs without crem have the lower goodput.
ktap_goodput_gain

# crem measured its own time per packet at the hook the sources crossed
# here (B sends them, A receives them): samples, and time in them.
dir=rx
[ "$CREM_ROLE" = b ] && dir=tx
"$CREMCTL" -j stats > /tmp/cost.json
samples=$(jq -r ".cost_${dir}_samples // 0" /tmp/cost.json)
ns=$(jq -r ".cost_${dir}_ns // 0" /tmp/cost.json)
if [ "$samples" -gt 0 ] && [ "$ns" -ge "$samples" ]; then
	ktap_ok "crem's time at its $dir hook sampled: $samples packets, $((ns / samples)) ns each"
else
	ktap_fail "crem's time at its $dir hook sampled: $samples packets, $ns ns"
fi

lab_sync crem-done
ktap_check "rmmod crem" bounded 120 rmmod crem
ktap_no_splat
ktap_finish
