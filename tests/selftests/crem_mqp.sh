#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# RDMA never fails because of crem, with many QPs between the two hosts at
# once.  Host mode, crem on both hosts at its defaults, 10 ms round trip:
# ib_write_bw, ib_read_bw and ib_send_bw with 8 and with 32 QPs, at 0 %
# and at 1 % loss on B's egress, CREM_MQP_RUNS times each; every run must
# complete.  make check runs 8 QPs (CREM_MQP_QPS, default 8) twice each
# (CREM_MQP_RUNS, default 2); on the debug kernel 2 QPs once (see
# tests/check.sh); make mqp runs 8 and 32 QPs twenty times each.  rxe's
# error counters show what a failure was.  CREM_MQP_TOOLS and
# CREM_MQP_LOSSES (comma lists) narrow the loop to some verbs and losses,
# to reproduce one case many times.
#
# With CREM_MQP_RATIO=1 (make mqp) it then measures, in the same boot,
# 8 QPs at 0 % and 0.1 % loss, crem off and on interleaved three times
# for each verb: the median with crem must be at least 0.95 times the
# median without; crem's sampled time per packet at its hooks
# (the cost_* counters) in the runs with crem is printed beside it.
#
# A run that fails with IBV_WC_REM_INV_REQ_ERR (rxe's "non-flush error
# status = 9") came, on 6.12, with the CRF's old copies for resends, which
# handed on a NAK's whole window ahead of the sender's resend: 6.12's rxe
# requester then renumbered its retry (engine.rst, "Resends").  A failed
# case prints its host's rxe counters since boot (rxe_diag).  rxe also
# fails so of its own accord, without crem: with CREM_MQP_CREM=0 (crem
# never loaded),
# CREM_MQP_TIMEOUT=12 (perftest's -u: a 16.8 ms retransmission timer,
# under the emulated backlog of 8 QPs) and CREM_MQP_RUNS=40, ib_send_bw
# -q 8 at 0 % loss failed so in 4 runs of 40.  crem's work per packet
# slows the CPU-bound sender's rxe tasks, and at perftest's default (-u
# 14, 67 ms) 3 of 8 runs with crem retried on the timer at 0 % loss.
# datapath.rst, "RDMA's own faults".
. ./guest.sh

require_tool ib_write_bw ib_read_bw ib_send_bw "$TC" jq
runs=${CREM_MQP_RUNS:-2}
qps=$(echo "${CREM_MQP_QPS:-8}" | tr , " ")
tools=$(echo "${CREM_MQP_TOOLS:-ib_write_bw,ib_read_bw,ib_send_bw}" | tr , " ")
losses=$(echo "${CREM_MQP_LOSSES:-0,1}" | tr , " ")
# The lab's debug kernel (6.1.192) has two faults of rxe's own, both seen
# with crem loaded but not configured:
#  - rxe_mr_copy() reads a map pointer past the end of a memory region of
#    exactly 256 pages when a copy reaches its end (KASAN slab-out-of-
#    bounds, kmalloc-8), which perftest's buffer for 8 QPs of 64 KiB is:
#    32 KiB messages there;
#  - ib_send_bw -q 8: its checked, slower receive path queues skbs without
#    bound (skbuff_head_cache 108 -> 20,004 objects in 10 s at the sender)
#    until the guest runs out of memory: SEND is left to the stock kernels.
size=65536
debug=0
send_left_out=
case $(uname -r) in
*-crem-debug)
	debug=1
	size=32768
	case " $tools " in
	*" ib_send_bw "*) send_left_out=1 ;;
	esac
	tools=$(echo "$tools" | sed 's/ *ib_send_bw//')
	;;
esac
timer=${CREM_MQP_TIMEOUT:+-u $CREM_MQP_TIMEOUT}
set -- $qps
ntools=$(echo $tools | wc -w)
nratio=0
[ "${CREM_MQP_RATIO:-0}" = 1 ] && [ "${CREM_MQP_CREM:-1}" != 0 ] &&
	nratio=$((2 * ntools))
ktap_plan $((1 + $(echo $losses | wc -w) * ntools * $# + nratio + 3))
[ -z "$send_left_out" ] ||
	ktap_diag "ib_send_bw left out: rxe alone runs out of memory on $(uname -r)"

# The emulated link queues a bandwidth-delay product's worth: netem's
# default of 1000 packets drops the bursts of 32 QPs at the sender's own
# qdisc, and rxe alone then fails ib_send_bw -q 32 at 0 % loss.
link="delay 5ms limit 100000"
"$TC" qdisc add dev eth0 root netem $link
if [ "${CREM_MQP_CREM:-1}" = 0 ]; then
	# rxe alone, for a reproducer: nothing of crem is loaded or counted.
	CREMCTL=true
	ktap_skip "crem on at its defaults" "crem not loaded (CREM_MQP_CREM=0)"
else
	crem_load && "$CREMCTL" set port "$CREM_LAB_PORT" > /dev/null &&
		"$CREMCTL" protect add "$CREM_PEER_IP/32" > /dev/null
	ktap_check "crem on at its defaults" test $? = 0
fi

# loss PERCENT: B's egress loses that much.
loss() {
	[ "$CREM_ROLE" = b ] &&
		"$TC" qdisc change dev eth0 root netem $link loss "$1%"
	return 0
}

# errors: rxe's error counters (rxe_counts, guest.sh), summed.
errors() {
	rxe_counts | awk '$1 ~ /^(completer_retry_err|retry_exceeded_err|send_err|rcvd_seq_err)$/ {
		n += $2 } END { print n + 0 }'
}

# The memory crem charges, sampled every second: the highest sample per
# case.
rm -f /tmp/mem_stop
(while [ ! -f /tmp/mem_stop ]; do
	"$CREMCTL" stats | awk '$1 == "mem_bytes" { print $2 }' >> /tmp/mem_mqp
	sleep 1
done) &
sampler=$!

for pct in $losses; do
	loss "$pct"
	for tool in $tools; do
		for q in $qps; do
			: > /tmp/mem_mqp
			ok=0 i=0 err0=$(errors)
			while [ "$i" -lt "$runs" ]; do
				i=$((i + 1))
				perftest_bw "$tool" /tmp/bw_mqp -q "$q" -s "$size" \
					-n 5 $timer && ok=$((ok + 1))
			done
			what="$tool -q $q, $pct % loss: $ok of $runs runs complete"
			what="$what (rxe error counters +$(( $(errors) - err0 )),"
			what="$what crem memory sampled at most $(sort -n /tmp/mem_mqp | tail -n 1) bytes)"
			if [ "$ok" = "$runs" ]; then
				ktap_ok "$what"
			else
				ktap_fail "$what"
				# rxe's word on each failed work request.
				dmesg | grep "rxe0: qp#.*error status" |
					tail -n 4 | sed 's/^/# /'
				rxe_diag
			fi
		done
	done
done

# cost_since FILE: crem's mean time per packet at its hooks (one packet
# in 64 measured, the cost_* counters) since the stats saved in FILE.
cost_since() {
	"$CREMCTL" -j stats | jq -r --slurpfile a "$1" '
		def per(s; n): ((.[n] // 0) - (($a[0] // {})[n] // 0)) as $d |
			((.[s] // 0) - (($a[0] // {})[s] // 0)) as $c |
			if $c > 0 then "\($d / $c | floor) ns" else "-" end;
		"crem time per packet at its hooks: send \(per("cost_tx_samples"; "cost_tx_ns")), receive \(per("cost_rx_samples"; "cost_rx_ns"))"'
}

if [ "$nratio" -gt 0 ]; then
	for pct in 0 0.1; do
		loss "$pct"
		for tool in $tools; do
			"$CREMCTL" -j stats > /tmp/cost0
			CREM_RUNS=3 interleaved_quiet "$tool" -q 8 -s "$size" -n 50
			ktap_diag "$tool -q 8, $pct % loss, runs with crem: $(cost_since /tmp/cost0)"
			ktap_ratio "$tool -q 8, $pct % loss" 0.95
		done
	done
fi

touch /tmp/mem_stop
wait "$sampler"
stats=$("$CREMCTL" -j stats)
echo "$stats" | jq -r 'to_entries[] | select(.value > 0) | "\(.key) \(.value)"' | sed 's/^/# /'
# Each run's QPs are new flows: their blocks must come from the buffers
# the last run's flows gave back (datapath.rst, Memory), not from the
# page allocator every time.
if [ "${CREM_MQP_CREM:-1}" = 0 ]; then
	ktap_skip "large buffers from the namespace's pool" "crem not loaded"
elif [ "$debug" = 1 ]; then
	# One run of 2 QPs a case, each case longer than a pooled buffer
	# lives unused (2 s): nothing to reuse on time.
	ktap_skip "large buffers from the namespace's pool" \
		"one run a case on $(uname -r)"
else
	large=$(echo "$stats" | jq '.mem_large_allocs // 0')
	reused=$(echo "$stats" | jq '.mem_pool_reused // 0')
	ktap_check "large buffers: $reused of $large from the namespace's pool" \
		test "$reused" -gt 0
fi
lab_sync mqp-done
if [ "${CREM_MQP_CREM:-1}" = 0 ]; then
	ktap_skip "rmmod crem" "crem not loaded"
else
	ktap_check "rmmod crem" bounded 120 rmmod crem
fi
ktap_no_splat
ktap_finish
