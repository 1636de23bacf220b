#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The portable core's KUnit suites in the debug kernel (tests/kunit/run.sh;
# not one of the lab's own tests).  Guest A loads crem_kunit.ko, which runs
# every suite as it loads, and prints their KTAP from the kernel log as
# one subtest; B has nothing to do.
. ./guest.sh

if [ "$CREM_ROLE" = b ]; then
	ktap_plan 1
	ktap_ok "idle while A runs the suites"
	ktap_finish
fi
[ -f /crem/crem_kunit.ko ] || ktap_skip_all "no crem_kunit.ko in the guest image"

echo "TAP version 13"
echo "1..2"
crem_load
insmod /crem/crem_kunit.ko
rc=$?
# The kernel log, without timestamps, from the first KTAP line on.
dmesg | sed 's/^\[[ 0-9.]*\] //' |
	sed -n '/^KTAP version\|^TAP version/,$p' |
	grep -E '^ *(KTAP version|TAP version|[0-9]+\.\.[0-9]+|ok |not ok |# )' \
	> /tmp/kunit.ktap
suites=$(grep -c '^ *# Subtest:' /tmp/kunit.ktap)
failed=$(grep -c 'not ok' /tmp/kunit.ktap)
sed 's/^/    /' /tmp/kunit.ktap
if [ "$rc" = 0 ] && [ "$suites" -gt 0 ] && [ "$failed" = 0 ]; then
	echo "ok 1 a: crem_kunit.ko: $suites suites passed"
else
	echo "not ok 1 a: crem_kunit.ko: insmod $rc, $suites suites, $failed failures"
	ktap_failed=1
fi
rmmod crem_kunit
ktap_nr=1
# Loading a KUnit module taints with N (TAINT_TEST, 262144) by design.
CREM_TAINT_OK=$((CREM_TAINT_OK | 262144))
ktap_no_splat
ktap_finish
