#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mqp_profile: where the time goes with many QPs, crem off against on in
# one boot.  A measurement, not a test (not in TEST_PROGS): it prints
# numbers and judges nothing.  Host mode, 5 ms each way, B writes to A.
#
#   tests/selftests/run.sh -k 6.12 -t mqp_profile.sh \
#       -p "modes=off,on,off,on qps=8 n=50 perf=1"
#
# Parameters (run.sh -p): CREM_MODES (off, on, or bare: crem on with no
# prefix protected; default off,on,off,on), CREM_QPS (8), CREM_N
# (iterations of 64 KiB, 50), CREM_TOOL (ib_write_bw), CREM_LOSS (percent
# on B's egress, none), CREM_SET (cremctl set arguments, commas for
# spaces), CREM_PERF=1 (perf record of the whole guest), CREM_COUNT
# (kernel functions whose calls are counted by kprobes, commas apart;
# their cost falls in the run's CPU figures, and a name with a dot, a
# compiler's clone, takes no probe),
# CREM_PERF_CALLERS (symbols whose callers perf prints, commas apart).
#
# Printed for each run and host: the goodput; the CPU ticks by kind and
# busy microseconds per RoCE packet; rxe's hardware counters (its
# completer_retry_err counts retries on the retransmission timer,
# out_of_seq_request and duplicate_request what the responder saw); the
# crem counters that changed; the reasons flows went down; with perf, the
# top symbols, crem's inclusive shares, and the leaf symbols of the
# samples taken under crem's hooks and socket; with CREM_COUNT, the calls
# per RoCE packet of each function named.
. ./guest.sh

ktap_plan 1
"$TC" qdisc add dev eth0 root netem delay 5ms limit 100000
[ "$CREM_ROLE" = b ] && [ -n "${CREM_LOSS:-}" ] &&
	"$TC" qdisc change dev eth0 root netem delay 5ms limit 100000 \
		loss "$CREM_LOSS%"
crem_load && "$CREMCTL" set port "$CREM_LAB_PORT" > /dev/null &&
	"$CREMCTL" protect add "$CREM_PEER_IP/32" > /dev/null
[ -n "${CREM_SET:-}" ] && "$CREMCTL" set $(echo "$CREM_SET" | tr , " ")
tool=${CREM_TOOL:-ib_write_bw}
hw=/sys/class/infiniband/rxe0/ports/1/hw_counters

# cpu_ticks: user, sys, irq, softirq and idle ticks since boot.
cpu_ticks() {
	awk '/^cpu / { print $2, $4, $7, $8, $5 }' /proc/stat
}

# rxe_packets: RoCE packets rxe sent and received since it came up.
rxe_packets() {
	echo $(( $(cat $hw/sent_pkts) + $(cat $hw/rcvd_pkts) ))
}

# perf_summary DATA: what perf recorded, as diagnostics.
perf_summary() {
	perf report -i "$1" --stdio --no-children -n -g none --sort dso,sym \
		2>/dev/null | grep "%" | head -n 40 | sed "s/^/# /"
	perf report -i "$1" --stdio --children -g none --sort sym 2>/dev/null |
		grep -E 'crem_|flow_|nf_hook_slow|rxe_xmit|net_rx_action|net_tx_action|hrtimer_interrupt|__hrtimer_run|start_xmit|__dev_queue_xmit|rxe_requester|rxe_completer|rxe_receiver' |
		head -n 50 | sed 's/^/# incl /'
	# The callers of each symbol CREM_PERF_CALLERS names: with
	# interrupts off, a sample lands where they go on again.
	for sym in $(echo "${CREM_PERF_CALLERS:-}" | tr , " "); do
		perf report -i "$1" --stdio --no-children -S "$sym" \
			-g caller,2,callee,function,percent --max-stack 8 \
			2>/dev/null | grep -E '[0-9]%|--' | head -n 40 |
			sed "s/^/# callers $sym: /"
	done
	# One sample a block of lines, "address symbol" each, the leaf
	# first, blocks apart by an empty line.
	perf script -i "$1" -F ip,sym 2>/dev/null | awk '
		/^$/ {
			if (under) { total++; if (leaf != "") n[leaf]++ }
			leaf = ""; under = 0; first = 1; next
		}
		{
			if (first) { leaf = $2; first = 0 }
			if ($2 ~ /^crem_(rx|tx|receive_datagram|reinject)/ ||
			    $2 ~ /^flow_(engine|timeout)/)
				under = 1
		}
		END {
			for (s in n)
				printf "%6d %5.1f%% %s\n", n[s], 100 * n[s] / total, s
			print total " samples under crem"
		}' | sort -rn | head -n 40 | sed 's/^/# leaf /'
}

# kprobe_hits: "function hits" of each function CREM_COUNT names.
kprobe_hits() {
	awk -v names=",$CREM_COUNT," '
		{ sub(/^.*\//, "", $1) }
		index(names, "," $1 ",") { print $1, $2 }' \
		/sys/kernel/tracing/kprobe_profile 2> /dev/null
}

if [ -n "${CREM_COUNT:-}" ]; then
	[ -e /sys/kernel/tracing/kprobe_events ] ||
		mount -t tracefs tracefs /sys/kernel/tracing
	for f in $(echo "$CREM_COUNT" | tr , " "); do
		echo "p:crem_count/$f $f" >> /sys/kernel/tracing/kprobe_events ||
			ktap_diag "no kprobe on $f"
	done
	echo 1 > /sys/kernel/tracing/events/crem_count/enable
fi
"$CREMCTL" -j monitor > /tmp/mon 2>&1 &
for mode in $(echo "${CREM_MODES:-off,on,off,on}" | tr , " "); do
	: > /tmp/mon
	case $mode in
	bare)
		"$CREMCTL" set enabled on > /dev/null
		"$CREMCTL" protect del "$CREM_PEER_IP/32" > /dev/null ;;
	*)
		"$CREMCTL" set enabled "$mode" > /dev/null
		"$CREMCTL" protect add "$CREM_PEER_IP/32" > /dev/null 2>&1 ;;
	esac
	"$CREMCTL" -j stats > /tmp/stats0
	set -- $(cpu_ticks)
	packets=$(rxe_packets)
	kprobe_hits > /tmp/hits0
	recorder=
	if [ "${CREM_PERF:-0}" = 1 ]; then
		perf record -a -g -e cpu-clock -F 499 -o "/tmp/perf.$mode" \
			> /dev/null 2>&1 &
		recorder=$!
	fi
	rm -f /tmp/bw
	perftest_bw "$tool" /tmp/bw -q "${CREM_QPS:-8}" -s 65536 \
		-n "${CREM_N:-50}"
	echo "# $mode: $(cat /tmp/bw 2> /dev/null) MB/s"
	set -- "$@" $(cpu_ticks)
	packets=$(( $(rxe_packets) - packets ))
	busy=$(( $6 - $1 + $7 - $2 + $8 - $3 + $9 - $4 ))
	echo "# cpu $mode: user $(( $6 - $1 )) sys $(( $7 - $2 )) irq $(( $8 - $3 )) softirq $(( $9 - $4 )) idle $(( ${10} - $5 )) ticks; $packets packets; busy $(( busy * 10000 / (packets > 0 ? packets : 1) )) us a packet"
	kprobe_hits | while read -r f n; do
		n0=$(awk -v f="$f" '$1 == f { print $2 }' /tmp/hits0)
		echo "# calls $f: $(( n - ${n0:-0} )), $(( (n - ${n0:-0}) * 1000 / (packets > 0 ? packets : 1) )) per 1000 packets"
	done
	if [ -n "$recorder" ]; then
		kill -INT "$recorder"
		wait "$recorder"
		perf_summary "/tmp/perf.$mode"
	fi
	"$CREMCTL" -j stats | jq -c --slurpfile a /tmp/stats0 \
		'to_entries | map(select(.value != ($a[0][.key] // 0))) |
		 map({(.key): (.value - ($a[0][.key] // 0))}) | add' |
		sed 's/^/# changed /'
	tr -d '\000' < /tmp/mon | grep flow-down |
		grep -o '"reason_name":"[^"]*"' | sort | uniq -c |
		sed 's/^/# flows down: /'
	for c in "$hw"/*; do
		printf "%s=%s " "$(basename "$c")" "$(cat "$c")"
	done | sed 's/^/# rxe /'
	echo
done
kill_comm cremctl
if [ -n "${CREM_COUNT:-}" ]; then
	echo 0 > /sys/kernel/tracing/events/crem_count/enable
	echo > /sys/kernel/tracing/kprobe_events
fi
ktap_ok "profile taken (a measurement: judged by nobody)"
ktap_finish
