#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The unit layer: the portable core's KUnit suites in userspace under ASan
# and UBSan, then the checks that need no kernel (generated netlink code
# agrees with its spec).  Prints one KTAP stream.
#
# Usage: tests/unit.sh UNIT_BIN [KTAP_OUT]

set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
unit_bin=$1
out=${2:-/dev/null}
failed=0

run() {
	echo "KTAP version 1"
	echo "1..2"

	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$unit_bin" > "$out.suites" 2>&1
	local rc=$?
	sed 's/^/    /' "$out.suites"
	if [ "$rc" -eq 0 ]; then
		echo "ok 1 core_suites"
	else
		echo "not ok 1 core_suites # exit $rc"
	fi

	if (cd "$repo" && make -s nlgen-check) > "$out.nlgen" 2>&1; then
		echo "ok 2 netlink_code_matches_spec"
	else
		sed 's/^/# /' "$out.nlgen"
		echo "not ok 2 netlink_code_matches_spec"
	fi
}

run | tee "$out"
grep -q '^not ok' "$out" && failed=1
rm -f "$out.suites" "$out.nlgen"
exit "$failed"
