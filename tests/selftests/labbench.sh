#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make labbench: the goodput matrix in the lab, at crem's defaults.  Each
# row is one boot of the guest pair running crem_labbench.sh: the link
# without loss, with loss and crem off, with loss and crem on, interleaved
# LABBENCH_RUNS times.  Goodput is judged as a ratio to the lossless runs
# of the same boot.
#
# Prints the table (medians, the spread of the runs with crem, the goal
# where the issue sets one, and the data receiver's losses by their end),
# and writes build/labbench/results.csv and build/labbench/goodput.png
# (gnuplot).  Each row's consoles stay in build/labbench/rows/.
#
# The matrix, each a list (defaults in brackets):
#   LABBENCH_VERBS   [ib_write_bw ib_read_bw ib_send_bw]
#   LABBENCH_QPS     [1 8]
#   LABBENCH_RTTS    round trips in ms [10 20]
#   LABBENCH_LOSSES  in % [0 0.1 1 5]; 0 runs once, with the first model;
#                    below 1 %, rows move three times the bytes
#   LABBENCH_MODELS  [iid bursty]
#   LABBENCH_RUNS    rounds per row [3]
#   LABBENCH_ATOMIC  1 adds ib_atomic_bw, 1 QP, 10 ms, 1 % [1]
#   CREM_LAB_KVER    the guests' kernel [6.1]
#   LABBENCH_SET     cremctl set arguments, commas for spaces, to try
#                    settings other than the defaults [none]
# Exit status: 0 when every run of every row completed, 1 otherwise.  The
# goals, and each row's own checks (crem_labbench.sh), are reported, not
# enforced (TCG's goodput is not a NIC's).

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${LABBENCH_OUT:-$repo/build/labbench}
verbs=${LABBENCH_VERBS:-ib_write_bw ib_read_bw ib_send_bw}
qps_list=${LABBENCH_QPS:-1 8}
rtts=${LABBENCH_RTTS:-10 20}
losses=${LABBENCH_LOSSES:-0 0.1 1 5}
models=${LABBENCH_MODELS:-iid bursty}
runs=${LABBENCH_RUNS:-3}
atomic=${LABBENCH_ATOMIC:-1}
csv=$out/results.csv

mkdir -p "$out/rows"
echo "verb,qps,rtt_ms,loss_pct,model,runs,failed_runs,lossless_mbs,off_mbs,on_mbs,on_min_mbs,on_max_mbs,off_ratio,on_ratio,on_off,goal,losses,restored,restored_late,unprotected,no_repairs,hold_expired,coded_late,incomplete,limits,off_ops,on_ops,failed_checks,lossless_min_mbs,lossless_max_mbs,off_min_mbs,off_max_mbs" > "$csv"

# goal VERB RTT LOSS MODEL: the issue's goal for crem on / lossless, or
# "-"; at 0 % loss the goal is on / off, 0.97.  Atomics are reported in
# operations per second, without a goal.
goal() {
	[ "$1" = ib_atomic_bw ] && { echo -; return; }
	shift
	case "$1 $2 $3" in
	"20 1 iid") echo 0.90 ;;
	"10 1 iid") echo 0.85 ;;
	"10 5 iid") echo 0.80 ;;
	"10 1 bursty") echo 0.80 ;;
	*" 0 "*) echo 0.97 ;;
	*) echo - ;;
	esac
}

# console_of ROW GUEST: the guest's console, without carriage returns
# (nothing when the lab did not get so far as to write it).
console_of() {
	[ -f "$out/rows/$1/$2.console" ] || return 0
	tr -d '\r' < "$out/rows/$1/$2.console"
}

# values ROW KIND MODE: B's "# KIND MODE ROUND VALUE" lines for MODE's
# runs (KIND bench: goodput; bench-ops: operations per second), one value
# a line; a run perftest did not measure ("-") has none.
values() {
	console_of "$1" b |
		awk -v k="$2" -v m="$3" '$1 == "#" && $2 == k && $3 == m && $5 ~ /^[0-9.]+$/ { print $5 }'
}

# summary FN NONE: the median, min or max (FN) of the numbers on stdin, or
# NONE when there are none.
summary() {
	sort -g | awk -v fn="$1" -v none="$2" '{ v[NR] = $1 }
		END {
			if (!NR) print none
			else if (fn == "min") print v[1]
			else if (fn == "max") print v[NR]
			else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		}'
}

# stat ROW MODE FN: median, min or max of MODE's goodputs (0 if none).
stat() {
	values "$1" bench "$2" | summary "$3" 0
}

# ops ROW MODE: the median operations per second of MODE (atomics).
ops() {
	values "$1" bench-ops "$2" | summary median ""
}

# breakdown ROW: the receiver's loss counters, comma-separated, in the
# CSV's order.
breakdown() {
	local who=a
	case $1 in ib_read_bw-*) who=b ;; esac
	console_of "$1" "$who" | sed -n 's/^# breakdown //p' | tail -n 1 |
		awk '{ gsub(/[^0-9 ]/, " "); n = split($0, f, " ")
			printf "%s,%s,%s,%s,%s,%s,%s,%s,%s", f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9] }'
}

failed=0
rows=0
# row VERB QPS RTT LOSS MODEL: one boot, one line of the CSV.
row() {
	local verb=$1 qps=$2 rtt=$3 loss=$4 model=$5
	local name="$verb-q$qps-${rtt}ms-$loss-$model" iters=200
	local lossless off on failures checks g
	# Below 1 %, three times the bytes, so that a run sees a few dozen
	# losses rather than a handful.
	awk -v l="$loss" 'BEGIN { exit !(l > 0 && l < 1) }' && iters=600
	# The same bytes whatever the QPs: perftest's -n counts per QP.
	[ "$qps" -gt 1 ] && iters=$(( (iters + qps - 1) / qps ))
	[ "$iters" -ge 25 ] || iters=25
	echo "labbench: $name ($runs rounds)" >&2
	rm -rf "$out/rows/$name"
	CREM_LAB_TIMEOUT=${CREM_LAB_TIMEOUT:-1800} \
		"$here/lab/lab.sh" run crem_labbench.sh "$out/rows/$name" \
		"bench_verb=$verb" "bench_qps=$qps" "bench_rtt=$rtt" \
		"bench_loss=$loss" "bench_model=$model" "bench_runs=$runs" \
		"bench_iters=$iters" ${LABBENCH_SET:+"bench_set=$LABBENCH_SET"} \
		> "$out/rows/$name.log" 2>&1 || true
	# Runs that did not complete (B's word), and the row's other checks
	# that failed (both guests'); a lab that did not run counts as a run.
	failures=$(grep -c '^ *not ok .*completes' "$out/rows/$name/b.tap" 2>/dev/null || true)
	checks=$(cat "$out/rows/$name"/{a,b}.tap 2>/dev/null | grep '^ *not ok' |
		grep -vc 'completes' || true)
	[ -s "$out/rows/$name/b.tap" ] || failures=1
	[ "$failures" = 0 ] || failed=1
	lossless=$(stat "$name" lossless median)
	off=$(stat "$name" off median)
	on=$(stat "$name" on median)
	g=$(goal "$verb" "$rtt" "$loss" "$model")
	awk -v verb="$verb" -v q="$qps" -v rtt="$rtt" -v loss="$loss" -v model="$model" \
		-v runs="$runs" -v failures="$failures" -v c="$lossless" -v off="$off" \
		-v on="$on" -v lo="$(stat "$name" on min)" -v hi="$(stat "$name" on max)" \
		-v goal="$g" -v br="$(breakdown "$name")" \
		-v offops="$(ops "$name" off)" -v onops="$(ops "$name" on)" \
		-v checks="$checks" -v cl="$(stat "$name" lossless min)" \
		-v ch="$(stat "$name" lossless max)" -v ol="$(stat "$name" off min)" \
		-v oh="$(stat "$name" off max)" 'BEGIN {
		r_off = c > 0 ? off / c : 0; r_on = c > 0 ? on / c : 0
		r_onoff = off > 0 ? on / off : 0
		printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%.3f,%.3f,%s,%s,%s,%s,%s,%s,%s,%s,%s\n",
			verb, q, rtt, loss, model, runs, failures, c, off, on, lo, hi,
			r_off, r_on, r_onoff, goal, br == "" ? ",,,,,,,," : br, offops, onops,
			checks, cl, ch, ol, oh
	}' >> "$csv"
	rows=$((rows + 1))
}

for verb in $verbs; do
	for qps in $qps_list; do
		for rtt in $rtts; do
			for loss in $losses; do
				for model in $models; do
					row "$verb" "$qps" "$rtt" "$loss" "$model"
					[ "$loss" = 0 ] && break
				done
			done
		done
	done
done
[ "$atomic" = 1 ] && row ib_atomic_bw 1 10 1 iid

"$here/labbench_report.sh" "$csv" "$out/goodput.png"
echo "labbench: $rows rows; CSV $csv"
exit "$failed"
