#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run lab tests in the two-guest lab and print one TAP stream: each
# guest's results become subtests of the test's line.
#
# Usage: tests/selftests/run.sh [-k KERNEL] [-t "TEST..."] [-p "KEY=VALUE..."]
#                               [TAP_OUT]
#   -k KERNEL  the guests' kernel: 6.1 (default), 6.12 or a cached release
#              (the debug kernel); crem.ko must be built for it
#   -t TESTS   the tests to run (default: TEST_PROGS of the Makefile)
#   -p PARAMS  KEY=VALUE pairs every test gets as CREM_KEY (lab.sh run)
#   TAP_OUT    also gets the stream
#
# A test the lab skips (no QEMU, no kernel, a tool missing) is a failure
# when CREM_LAB_REQUIRED=1 (make check sets it) or CI=true, unless
# CREM_ALLOW_SKIP=1, as MPTCP's selftests do with
# SELFTESTS_MPTCP_LIB_EXPECT_ALL_FEATURES.
# Exit: 0 all passed (or skipped where allowed), 1 otherwise.

set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
kernel=6.1
progs=
params=
while getopts "k:t:p:" opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	t) progs=$OPTARG ;;
	p) params=$OPTARG ;;
	*) echo "usage: run.sh [-k KERNEL] [-t TESTS] [-p PARAMS] [TAP_OUT]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
tap_out=${1:-/dev/null}
[ -n "$progs" ] || progs=$(make -s -C "$here" print-progs)
ksft_skip=4
out_dir=$repo/build/selftests/$kernel
mkdir -p "$out_dir"
: > "$tap_out"

skip_fails() {
	{ [ "${CREM_LAB_REQUIRED:-0}" = 1 ] || [ "${CI:-}" = true ]; } &&
		[ "${CREM_ALLOW_SKIP:-0}" != 1 ]
}

emit() {
	echo "$*" | tee -a "$tap_out"
}

set -- $progs
emit "TAP version 13"
emit "1..$#"
nr=0
failed=0
for prog in $progs; do
	nr=$((nr + 1))
	name=${prog%.sh}
	log=$out_dir/$name.log
	rc=0
	start=$(date +%s)
	# shellcheck disable=SC2086 # one word per KEY=VALUE
	CREM_LAB_KVER=$kernel "$here/lab/lab.sh" run "$prog" "$out_dir/$name" \
		$params 2> "$log" || rc=$?
	for role in a b; do
		tap="$out_dir/$name/$role.tap"
		[ -s "$tap" ] && sed 's/^/    /' "$tap" | tee -a "$tap_out"
	done
	case $rc in
	0)
		emit "ok $nr $name"
		;;
	"$ksft_skip")
		why=$(tail -n 1 "$log")
		if skip_fails; then
			failed=1
			emit "not ok $nr $name # skipped, and the lab is required: $why"
		else
			emit "ok $nr $name # SKIP $why"
		fi
		;;
	*)
		failed=1
		emit "not ok $nr $name # exit $rc"
		sed 's/^/# /' "$log" | tee -a "$tap_out"
		;;
	esac
	emit "# $name took $(( $(date +%s) - start )) s"
done
exit "$failed"
