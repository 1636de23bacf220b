#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the engine's property run with both loss models in parallel (one per
# core) and print one table.  Exits non-zero if any row breaks an
# invariant.
#
# Usage: tests/harness/property.sh CREM_PROPERTY PACKETS
set -uo pipefail

bin=$1
packets=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin" -n "$packets" -m iid -H > "$tmp/iid" &
iid=$!
"$bin" -n "$packets" -m bursty -H > "$tmp/bursty" &
bursty=$!
rc=0
wait "$iid" || rc=1
wait "$bursty" || rc=1

echo "# crem property run: $packets packets per row, k=32, adaptive m, RTT 10 ms, 500k packets/s"
echo "| loss | model | sources | lost | restored % | without request % | overhead % | p50 RTT | p99 RTT | left to RDMA % | final m | invariants |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
sort -t"|" -k2,2g -k3,3r "$tmp/iid" "$tmp/bursty"
if [ "$rc" -eq 0 ]; then
	echo "property run: ok"
else
	echo "property run: FAILED"
fi
exit "$rc"
