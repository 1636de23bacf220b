#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run every lab test of TEST_PROGS (tests/selftests/Makefile) in the
# two-guest lab and print one TAP stream: each guest's results become
# subtests of the test's line.
#
# Usage: tests/selftests/run.sh [TAP_OUT]   (TAP_OUT also gets the stream)
# Exit: 0 all passed or skipped, 1 a test failed.

set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out_dir=$repo/build/selftests
tap_out=${1:-/dev/null}
progs=$(make -s -C "$here" print-progs)
ksft_skip=4

set -- $progs
{
	echo "TAP version 13"
	echo "1..$#"
} | tee "$tap_out"

nr=0
failed=0
for prog in $progs; do
	nr=$((nr + 1))
	rc=0
	"$here/lab/lab.sh" run "$prog" "$out_dir/${prog%.sh}" 2>"$out_dir.${prog%.sh}.log" || rc=$?
	{
		for role in a b; do
			tap="$out_dir/${prog%.sh}/$role.tap"
			[ -s "$tap" ] && sed 's/^/    /' "$tap"
		done
		case $rc in
		0) echo "ok $nr ${prog%.sh}" ;;
		"$ksft_skip") echo "ok $nr ${prog%.sh} # SKIP $(tail -n 1 "$out_dir.${prog%.sh}.log")" ;;
		*)
			failed=1
			echo "not ok $nr ${prog%.sh} # exit $rc"
			sed 's/^/# /' "$out_dir.${prog%.sh}.log"
			;;
		esac
	} | tee -a "$tap_out"
done
exit "$failed"
