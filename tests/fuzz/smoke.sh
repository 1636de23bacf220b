#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Replay every regression input and the minimised corpus (corpus/TARGET:
# what fuzzing found to reach the parsers' code, kept so that every run
# starts there), then fuzz each target for a short while from it.
# Usage: tests/fuzz/smoke.sh FUZZ_DIR SECONDS
# Prints "fuzz_<target>: N executions" and the corpus's coverage, and exits
# non-zero on any crash.

set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dir=$1
seconds=$2
rc=0

for target in wire roce; do
	bin=$dir/fuzz_$target
	regressions=$(find "$here/regressions/$target" -type f ! -name '.*' 2>/dev/null)
	if [ -n "$regressions" ] && ! "$bin" $regressions > "$dir/$target.replay.log" 2>&1; then
		echo "fuzz_$target: a regression input fails again"
		tail -n 30 "$dir/$target.replay.log"
		rc=1
	fi
	# The corpus replays as libFuzzer's first pass over its inputs.
	mkdir -p "$dir/artifacts" "$dir/corpus/$target"
	if ! "$bin" -runs=0 -artifact_prefix="$dir/artifacts/$target-" \
		"$here/corpus/$target" > "$dir/$target.corpus.log" 2>&1; then
		echo "fuzz_$target: a corpus input fails"
		tail -n 30 "$dir/$target.corpus.log"
		rc=1
	fi
	cov=$(sed -n 's/.*INITED cov: \([0-9]*\) ft: \([0-9]*\).*/\1 edges, \2 features/p' "$dir/$target.corpus.log")
	if ! "$bin" -max_total_time="$seconds" -print_final_stats=1 \
		-artifact_prefix="$dir/artifacts/$target-" \
		"$dir/corpus/$target" "$here/corpus/$target" > "$dir/$target.log" 2>&1; then
		echo "fuzz_$target: crashed; see $dir/$target.log and $dir/artifacts/"
		tail -n 30 "$dir/$target.log"
		rc=1
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/$target.log")
	echo "fuzz_$target: ${execs:-0} executions in ${seconds}s, $(echo "$regressions" | grep -c .) regressions replayed, corpus of $(find "$here/corpus/$target" -type f | wc -l) covers ${cov:-?}"
done
exit "$rc"
