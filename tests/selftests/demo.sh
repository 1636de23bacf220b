#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: ib_write_bw between the two lab guests across a 10 ms round
# trip, without loss and with 1 % loss, and the goodput of each.
#
# crem does not protect traffic yet (its datapath is a later issue), so
# both runs are "crem off"; once it does, this shows crem on and off.

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
clean=$(goodput clean)
lossy=$(goodput lossy)

echo
echo "crem demo: ib_write_bw, $iters writes of $size bytes, host B -> host A (soft-RoCE, QEMU)"
printf '  %-28s %-6s %s\n' "link" "crem" "goodput"
printf '  %-28s %-6s %s MB/s\n' "10 ms RTT, no loss" "off" "$clean"
printf '  %-28s %-6s %s MB/s\n' "10 ms RTT, 1 % loss" "off" "$lossy"
awk -v c="$clean" -v l="$lossy" 'BEGIN { if (c > 0) printf "  1 %% loss keeps %.0f %% of the lossless goodput\n", 100 * l / c }'
