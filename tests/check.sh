#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: every test layer, in order, whatever the earlier ones did.
#   unit       the portable core's suites in userspace (ASan, UBSan)
#   kunit      the same suites in a KUnit kernel (UML)
#   selftests  the two-guest soft-RoCE lab
# Each layer's TAP lands in build/results/; the last line is the total,
# "N passed, N failed, N skipped".  Exit 0 only when nothing failed.

set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
results=$repo/build/results
mkdir -p "$results"
total_pass=0
total_fail=0
total_skip=0
summary=

for layer in unit kunit selftests; do
	echo "=== $layer ==="
	start=$(date +%s)
	rc=0
	rm -f "$results/$layer.tap"
	make -C "$repo" --no-print-directory "$layer" || rc=$?
	secs=$(( $(date +%s) - start ))
	read -r pass fail skip < <(awk -f "$repo/tests/ktap_count.awk" \
		"$results/$layer.tap" 2>/dev/null || echo "0 0 0")
	# A layer that failed without a failing result still failed.
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ] && [ "$fail" -eq 0 ]; then
		fail=1
	fi
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	total_skip=$((total_skip + skip))
	summary="$summary$(printf '%-10s %4d passed, %d failed, %d skipped (exit %d, %ds)' \
		"$layer" "$pass" "$fail" "$skip" "$rc" "$secs")
"
done

echo "=== summary ==="
printf '%s' "$summary"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
