#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The unit layer: the portable core's KUnit suites in userspace under ASan
# and UBSan, then the checks that need no running kernel: the generated
# netlink code agrees with its spec, checkpatch is clean, and crem.ko
# builds with W=1 and no warnings against both Debian kernel series.
# Prints one KTAP stream.
#
# Usage: tests/unit.sh UNIT_BIN [KTAP_OUT]

set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
unit_bin=$1
out=${2:-/dev/null}
failed=0

run() {
	echo "KTAP version 1"
	echo "1..4"

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

	local cp_rc=0
	"$repo/tools/checkpatch.sh" > "$out.checkpatch" 2>&1 || cp_rc=$?
	case $cp_rc in
	0) echo "ok 3 checkpatch_clean" ;;
	4) echo "ok 3 checkpatch_clean # SKIP $(tail -n 1 "$out.checkpatch")" ;;
	*)
		sed 's/^/# /' "$out.checkpatch"
		echo "not ok 3 checkpatch_clean"
		;;
	esac

	# One subtest per kernel series, from modules-all's "ok:" lines.
	local kb_rc=0
	(cd "$repo" && make --no-print-directory modules-all) > "$out.kbuild" 2>&1 || kb_rc=$?
	echo "    TAP version 13"
	echo "    1..$(grep -c '^ok: ' "$out.kbuild")"
	grep '^ok: ' "$out.kbuild" | awk '{ sub(/^ok: /, ""); printf "    ok %d %s\n", NR, $0 }'
	if [ "$kb_rc" -eq 0 ]; then
		echo "ok 4 kbuild_w1_both_series"
	else
		tail -n 40 "$out.kbuild" | sed 's/^/# /'
		echo "not ok 4 kbuild_w1_both_series"
	fi
}

run | tee "$out"
grep -q '^not ok' "$out" && failed=1
rm -f "$out.suites" "$out.nlgen" "$out.checkpatch" "$out.kbuild"
exit "$failed"
