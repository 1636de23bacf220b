#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: ib_write_bw between the two lab guests across a 10 ms round
# trip: without loss, with 1 % loss, and with 1 % loss and crem on (host
# mode); the goodput of each, and crem's counters on both hosts.

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=$repo/build/demo
iters=${CREM_DEMO_ITERS:-200}
size=${CREM_DEMO_SIZE:-65536}

rc=0
"$here/lab/lab.sh" run demo_goodput.sh "$out" "iters=$iters" "size=$size" || rc=$?
if [ "$rc" -ne 0 ]; then
	echo "demo: the lab run failed (exit $rc); consoles in $out/" >&2
	cat "$out/a.tap" "$out/b.tap" >&2 2>/dev/null || true
	exit 1
fi

goodput() {
	tr -d '\r' < "$out/b.console" | awk -v link="$1" '$1 == "#" && $2 == "goodput" && $3 == link {print $4}'
}
counters() {
	tr -d '\r' < "$out/$1.console" | awk '$1 == "#" && $2 == "counter" {printf "    %-34s %s\n", $3, $4}'
}
clean=$(goodput clean)
lossy=$(goodput lossy)
crem=$(goodput crem)

echo
echo "crem demo: ib_write_bw, $iters writes of $size bytes, host B -> host A (soft-RoCE, QEMU)"
printf '  %-28s %-6s %s\n' "link" "crem" "goodput"
printf '  %-28s %-6s %s MB/s\n' "10 ms RTT, no loss" "off" "$clean"
printf '  %-28s %-6s %s MB/s\n' "10 ms RTT, 1 % loss" "off" "$lossy"
printf '  %-28s %-6s %s MB/s\n' "10 ms RTT, 1 % loss" "on" "$crem"
awk -v c="$clean" -v l="$lossy" -v r="$crem" 'BEGIN {
	if (c > 0) printf "  1 %% loss keeps %.0f %% of the lossless goodput without crem, %.0f %% with it\n", 100 * l / c, 100 * r / c
	if (l > 0) printf "  crem on / off at 1 %% loss: %.2fx\n", r / l }'
echo "  host A's losses on the link, by their end (engine.rst, \"Every loss accounted for\"):"
tr -d '\r' < "$out/a.console" | sed -n 's/^# breakdown /    /p'
echo
echo "  crem's counters, host B (sender):"
counters b
echo "  crem's counters, host A (receiver):"
counters a
