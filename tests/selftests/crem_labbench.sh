#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One row of the goodput matrix (make labbench, labbench.sh): a perftest
# verb with some QPs across a round trip whose data direction loses a
# share of its packets, independently or in bursts (netem's
# Gilbert-Elliott model, bad state left with probability 1/4: a mean burst
# of 4).  crem runs on both hosts at its defaults, as a user runs it (`set
# port` and `protect add`, nothing else).  Each of CREM_BENCH_RUNS rounds
# runs, in the same boot: the link without loss, crem off; with the loss,
# crem off; with the loss, crem on (the order turns each round).
#
# B prints each run's goodput as "# bench MODE ROUND MB/s" (MODE lossless,
# off or on; a run that fails counts 0, one perftest did not measure is
# "-" and counts for nothing) and, for ib_atomic_bw, its
# operations per second as "# bench-ops MODE ROUND OPS".  The data's
# receiver prints its losses on the link by their end after the runs with
# crem as "# breakdown ...", the data's sender what netem dropped in each
# mode as "# netem-drops ...", and each guest what rxe counted in each
# mode, over its runs, as "# rxe-MODE COUNTER VALUE ..." (retransmissions
# and sequence errors: what the losses cost the RDMA transport).
# Results: every run completes; netem lost nothing in the lossless runs
# and something in the others; the data's receiver restored packets, none
# failing its ICRC, with its losses counted (at 0 %, no loss, and nothing
# restored but reordered originals); and the median with crem is at least
# CREM_GAIN_MARGIN (1.05) times the median without at 1 % iid loss or
# more, at least the same (crem never makes a lossy link worse) at other
# losses, and at least 0.97 times it without loss (the cost of looking at
# every packet, within the noise of three runs).
# make check runs the default row; labbench.sh the matrix.
#
# Parameters (crem.bench_*=): verb (ib_write_bw), qps (1), rtt in ms (10),
# loss in % (1), model iid or bursty (iid), runs (3), iters (200), and
# set (none: cremctl set arguments to try, commas for spaces).
#
# Data direction: B writes and sends to A; for ib_read_bw, B reads from A,
# so A's egress carries the data and loses it.
. ./guest.sh

verb=${CREM_BENCH_VERB:-ib_write_bw}
qps=${CREM_BENCH_QPS:-1}
rtt=${CREM_BENCH_RTT:-10}
loss=${CREM_BENCH_LOSS:-1}
model=${CREM_BENCH_MODEL:-iid}
runs=${CREM_BENCH_RUNS:-3}
iters=${CREM_BENCH_ITERS:-200}

require_tool "$verb" "$TC" jq
case $verb in
ib_write_bw | ib_send_bw | ib_read_bw) args="-s 65536 -n $iters" ;;
ib_atomic_bw) args="-n $((iters * 10))" ;;
*) ktap_skip_all "no such verb in the matrix: $verb" ;;
esac
args="$args -q $qps"

sender=b
[ "$verb" = ib_read_bw ] && sender=a

# netem's loss clause for the row: iid, or Gilbert-Elliott with every
# packet lost in the bad state and the good state left with probability
# p such that the long-run loss is the row's (p / (p + 1/4)).
case $model in
iid) lossy="loss $loss%" ;;
bursty) lossy=$(awk -v l="$loss" 'BEGIN {
	l /= 100; printf "loss gemodel %.4f%% 25%%", 100 * l * 0.25 / (1 - l) }') ;;
*) ktap_skip_all "no such loss model: $model (iid or bursty)" ;;
esac
[ "$loss" = 0 ] && lossy=

# A queue that holds the bandwidth-delay product of many QPs (netem's
# default of 1000 packets would drop their bursts at the sender itself).
delay="delay $((rtt / 2))ms limit 100000"

# Each guest: the setup, one result a run, its own check of the row (the
# sender: netem lost what the mode asked; the data's receiver: what crem
# restored), rmmod and the splat check; B also the goodput.
nres=$((3 + 3 * runs + 3))
[ "$CREM_ROLE" = b ] && nres=$((nres + 1))
ktap_plan "$nres"
ktap_check "netem: $rtt ms round trip" "$TC" qdisc add dev eth0 root netem $delay
# CREM_BENCH_SET (commas for spaces) tries settings other than the
# defaults, for a measurement; the matrix never sets it.
CREM_LAB_SETTINGS=$(echo "${CREM_BENCH_SET:-}" | tr , " ")
crem_start "$CREM_PEER_IP/32" > /dev/null
ktap_check "crem on at ${CREM_BENCH_SET:+settings $CREM_LAB_SETTINGS, not }its defaults (port $CREM_LAB_PORT, protect $CREM_PEER_IP/32)" test $? = 0
ktap_ok "row: $verb -q $qps, $rtt ms, $loss % $model loss on $(echo "$sender" | tr ab AB)'s egress"

# mode NAME: the link and crem for one run.
mode() {
	local link=$delay enabled=off
	case $1 in
	off) link="$delay $lossy" ;;
	on) link="$delay $lossy" enabled=on ;;
	esac
	if [ "$CREM_ROLE" = "$sender" ]; then
		"$TC" qdisc change dev eth0 root netem $link || return 1
	fi
	"$CREMCTL" set enabled "$enabled" > /dev/null
}

# netem_dropped: what the sender's netem dropped so far.
netem_dropped() {
	# " Sent B bytes P pkt (dropped D, overlimits O requeues R)"
	"$TC" -s qdisc show dev eth0 | awk '/dropped/ {
		for (i = 1; i < NF; i++) if ($i ~ /^\(?dropped$/) {
			sub(/,/, "", $(i + 1)); print $(i + 1) + 0; exit } }'
}

# rxe_add MODE BEFORE: adds what rxe0 counted since BEFORE (a file of
# rxe_counts, guest.sh) to the mode's totals, /tmp/rxe.MODE.
rxe_add() {
	rxe_counts | awk -v before="$2" -v total="/tmp/rxe.$1" '
		BEGIN { while ((getline l < before) > 0) { split(l, f, " "); b[f[1]] = f[2] }
			while ((getline l < total) > 0) { split(l, f, " "); t[f[1]] = f[2] }
			close(before); close(total) }
		{ t[$1] += $2 - b[$1] }
		END { for (n in t) print n, t[n] > total }'
}

echo 0 > /tmp/drops.lossless
echo 0 > /tmp/drops.off
echo 0 > /tmp/drops.on
: > /tmp/rxe.lossless
: > /tmp/rxe.off
: > /tmp/rxe.on
# The modes' order turns each round, so that none always runs first.
for i in $(seq "$runs"); do
	case $((i % 3)) in
	1) order="lossless off on" ;;
	2) order="off on lossless" ;;
	0) order="on lossless off" ;;
	esac
	for m in $order; do
		d0=$(netem_dropped)
		rxe_counts > /tmp/rxe.before
		# shellcheck disable=SC2086 # args are words
		if mode "$m" && perftest_bw "$verb" "/tmp/bench.$m.$i" $args; then
			ktap_ok "round $i, $m: $verb completes"
		else
			ktap_fail "round $i, $m: $verb completes (or the link and crem were not set)"
			rxe_diag
			echo 0 > "/tmp/bench.$m.$i"
		fi
		echo $(( $(cat "/tmp/drops.$m") + $(netem_dropped) - d0 )) > "/tmp/drops.$m"
		rxe_add "$m" /tmp/rxe.before
		if [ "$CREM_ROLE" = b ]; then
			echo "# bench $m $i $(grep . "/tmp/bench.$m.$i" || echo -)"
			[ "$verb" = ib_atomic_bw ] && grep -q . "/tmp/bench.$m.$i" &&
				awk -v m="$m" -v i="$i" '/BW average/ { getline
					printf "# bench-ops %s %s %.0f\n", m, i, $5 * 1e6; exit }' \
					/tmp/perftest.out
		fi
	done
done

stats=$("$CREMCTL" -j stats)
crem_stats_diag
# What rxe counted in each mode, over all its runs: its retransmissions
# and sequence errors show what each loss cost the RDMA transport.
for m in lossless off on; do
	echo "# rxe-$m $(sort /tmp/rxe.$m | awk '$2 != 0 { printf "%s %s ", $1, $2 }')"
done
echo "$stats" | jq -r '"# cost: \(.cost_tx_ns // 0) ns over \(.cost_tx_samples // 0) sends, \(.cost_rx_ns // 0) ns over \(.cost_rx_samples // 0) receives"'
if [ "$CREM_ROLE" = "$sender" ]; then
	# The link lost what each mode asked: nothing without loss.
	dl=$(cat /tmp/drops.lossless) doff=$(cat /tmp/drops.off) don=$(cat /tmp/drops.on)
	echo "# netem-drops lossless $dl off $doff on $don"
	what="netem dropped $dl packets in the lossless runs, $doff with crem off, $don with crem on"
	if [ "$dl" = 0 ] && { [ "$loss" = 0 ] || { [ "$doff" -gt 0 ] && [ "$don" -gt 0 ]; }; }; then
		ktap_ok "$what"
	else
		ktap_fail "$what"
	fi
else
	crem_losses "$stats" | sed 's/^/# breakdown /'
	restored=$(echo "$stats" | jq -r '.flow_restored')
	icrc=$(echo "$stats" | jq -r '.flow_icrc_failures')
	if [ "$loss" = 0 ]; then
		# Nothing lost: no loss counted, and nothing restored but
		# originals a REPAIR overtook (counted as reordered).
		reordered=$(echo "$stats" | jq -r '.flow_sources_reordered')
		losses=$(echo "$stats" | jq -r '.flow_losses')
		ktap_check "the data's receiver counted no loss ($losses) and restored only reordered originals ($restored restored, $reordered reordered) on a lossless link" \
			test "$losses" = 0 -a "$restored" = "$reordered"
	elif [ "$verb" = ib_atomic_bw ]; then
		# A few thousand single-packet operations: few losses, and
		# blocks that close by their timer; a restore is not certain.
		ktap_check "the data's receiver: no restored packet failed its ICRC ($restored restored)" \
			test "$icrc" = 0
	elif [ "$restored" -gt 0 ] 2>/dev/null && [ "$icrc" = 0 ] && losses_fit "$stats"; then
		ktap_ok "the data's receiver restored $restored packets, none failed its ICRC, losses counted"
	else
		ktap_fail "the data's receiver restored '$restored', ICRC failures '$icrc', or losses that do not fit"
	fi
fi

if [ "$CREM_ROLE" = b ]; then
	off=$(median /tmp/bench.off.*)
	on=$(median /tmp/bench.on.*)
	# Not worse than rxe alone; without loss within the noise of three
	# runs (the cost of looking at every packet); at 1 % iid loss or
	# more, where crem restores nearly everything, a gain.
	min=1
	[ "$loss" = 0 ] && min=0.97
	[ "$model" = iid ] && awk -v l="$loss" 'BEGIN { exit !(l >= 1) }' &&
		[ "$verb" != ib_atomic_bw ] && min=$CREM_GAIN_MARGIN
	what="median with crem $on >= $min x without $off MB/s"
	if awk -v off="$off" -v on="$on" -v min="$min" \
		'BEGIN { exit !(on > 0 && on >= min * off) }'; then
		ktap_ok "$what"
	else
		ktap_fail "$what"
	fi
fi
ktap_check "rmmod crem" bounded 120 rmmod crem
ktap_no_splat
ktap_finish
