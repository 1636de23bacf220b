#!/bin/sh
# Ad hoc: when rxe's retransmission timer fires with crem on (not a test).
. ./guest.sh
ktap_plan 1
"$TC" qdisc add dev eth0 root netem delay 5ms limit 100000
crem_load && "$CREMCTL" set port "$CREM_LAB_PORT" > /dev/null &&
	"$CREMCTL" protect add "$CREM_PEER_IP/32" > /dev/null
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
echo 20000 > $T/buffer_size_kb
for f in $(echo "${CREM_FUNCS:-retransmit_timer,crem_flow_new_csf,crem_flow_new_crf}" | tr , " "); do
	echo "$f" >> $T/set_ftrace_filter || echo "# no function $f"
done
echo function > $T/current_tracer
echo 1 > $T/events/crem/crem_param_change/enable
echo 1 > $T/tracing_on
for mode in $(echo "${CREM_MODES:-on,on}" | tr , " "); do
	"$CREMCTL" set enabled $mode > /dev/null
	echo "mark run $mode" > $T/trace_marker
	perftest_bw ${CREM_TOOL:-ib_write_bw} /tmp/bw -q ${CREM_QPS:-8} -s 65536 -n ${CREM_N:-50}
	echo "mark done $(cat /tmp/bw)" > $T/trace_marker
	echo "# $mode: $(cat /tmp/bw) MB/s"
done
echo 0 > $T/tracing_on
if [ -n "${CREM_COUNT:-}" ]; then
	grep -v '^#' $T/trace | awk '{ print $5 }' | sort | uniq -c | sed 's/^/# N /'
else
	grep -v '^#' $T/trace | awk '{ $1=""; $2=""; $3=""; print }' | head -n 400 | sed 's/^/# T /'
fi
ktap_ok done
ktap_finish
