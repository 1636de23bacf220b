#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: every test layer, in order, whatever the earlier ones did.
#   unit           the portable core's suites in userspace (ASan, UBSan),
#                  static checks, fuzzing and property runs (tests/unit.sh)
#   kunit          the same suites in the lab's debug kernel (KASAN,
#                  lockdep, KFENCE, kmemleak), which this builds first
#   lab-6.1        every lab test, Debian's 6.1 kernel in both guests
#   lab-6.12       every lab test, Debian's 6.12 kernel
#   lab-debug      the tests that exercise lifetimes, on the debug kernel
# Each layer's TAP lands in build/results/; the last line is the total,
# "N passed, N failed, N skipped".  A layer that cannot run (no QEMU, no
# kernel) is a failure: set CREM_ALLOW_SKIP=1 to accept skips instead.
# Exit 0 only when nothing failed.
#
# To run part of it (to try a change, or to show that a broken build
# fails): CREM_CHECK_LAYERS="lab-6.12 ..." runs only those layers, and
# CREM_CHECK_TESTS="crem_basic.sh ..." only those tests in each lab layer
# (the debug layer only those of its own list, and does not run if none
# is).  A layer left out is named in the summary and counted in the
# totals line; a name that is no layer or no lab test is an error, a run
# in which nothing ran fails, and CI (CI=true) refuses both variables:
# there, make check is all of it.

set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
results=$repo/build/results
lab=$repo/tests/selftests/lab
mkdir -p "$results"
export CREM_LAB_REQUIRED=1
# The debug layers run 6.1's debug kernel, whatever a developer chasing
# a 6.12 problem exported (lab/debug-kernel.sh).
export CREM_DEBUG_SERIES=6.1
total_pass=0
total_fail=0
total_skip=0
summary=
not_run=0
all_layers="unit kunit lab-6.1 lab-6.12 lab-debug"

# Names separated by any white space; empty is the same as unset.
CREM_CHECK_LAYERS=$(echo ${CREM_CHECK_LAYERS:-})
CREM_CHECK_TESTS=$(echo ${CREM_CHECK_TESTS:-})
if [ -n "$CREM_CHECK_LAYERS$CREM_CHECK_TESTS" ]; then
	if [ "${CI:-}" = true ]; then
		echo "check: CREM_CHECK_LAYERS and CREM_CHECK_TESTS are not for CI" >&2
		exit 2
	fi
	for l in $CREM_CHECK_LAYERS; do
		case " $all_layers " in
		*" $l "*) ;;
		*) echo "check: '$l' is no layer ($all_layers)" >&2; exit 2 ;;
		esac
	done
	progs=" $(echo $(make -s -C "$repo/tests/selftests" print-progs)) "
	for t in $CREM_CHECK_TESTS; do
		case $progs in
		*" $t "*) ;;
		*) echo "check: '$t' is no lab test ($progs)" >&2; exit 2 ;;
		esac
	done
fi

# The lab tests that exercise lifetimes, for the debug kernel.  Its
# checkers slow the guests several times over, so each transfer there is a
# quarter as long and runs once, and goodput is not compared: the stock
# kernels' layers do that.  crem_gateway runs only on those: on this
# kernel in TCG, three stacks per packet at 1 % loss, rxe alone moves
# 0.13 MB/s or stalls (a crem-off transfer did not finish in 300 s), the
# test outruns the guest's 600 s, and with 1 GiB a guest ran out of
# memory.  Guests keep 1 GiB (CREM_LAB_MEM_DEBUG): with
# 2 GiB kmemleak's scans took crem_robust from 203 to 458 s.
# crem_mqp runs 2 QPs here, 8 on the stock kernels: on this kernel, with
# the host's CPUs also busy (two busy loops, as on a slower CI host),
# ib_write_bw -q 8 at 0 % loss did not complete in 300 s with crem on
# (B's rxe error counters +24,918) and completed with crem never loaded
# (+174), while -q 2 completed every case.  That is an open never-harm
# finding, its cause not yet shown (crem's per-packet work under KASAN is
# the first suspect); 2 concurrent flows each way exercise the lifetimes
# here.  To run the 8-QP case there: run.sh -k <debug release> -t
# crem_mqp.sh -p "mqp_runs=1 mqp_qps=8", with crem.ko built for it.
# crem_hostile runs here too (about 360 s; it sets hello-rate 20, since
# this guest takes HELLOs in slower than 250 a second).  It failed three
# runs of five in part 2 while the guests ran QEMU's "max" CPU, whose
# ERMS made every kernel copy a byte-stepped "rep movsb" under TCG
# (testing.rst, "The emulated CPU"): crem's parameter sync and rxe gave
# way under the slowness.  Without ERMS it passed its runs here; its
# MemAvailable check is skipped on this kernel (its allocators add their
# own).
# rxe's retransmission timer is 268 ms here (perftest -u 16, against its
# default 14, 67 ms): the checkers make each packet several times the
# work, crem's as well as rxe's, so the receiver's backlog outlasts the
# default timer, and rxe fails work requests of its own accord once it
# retries on the timer (datapath.rst, "RDMA's own faults": with crem
# never loaded and a 16.8 ms timer, ib_send_bw -q 8 failed 4 of 40 runs
# with IBV_WC_REM_INV_REQ_ERR, the responder's NAK, not a retry count).
# In CI's run of crem_limits, 2 QPs at 0 % loss, B retransmitted 4,830 of
# 7,943 packets that way and failed with IBV_WC_REM_INV_REQ_ERR (1 of 5
# runs here).  The timer scales with the guest's slowness, as a link's timer
# does with its round trip; the stock kernels keep perftest's default.
# The debug guests get 900 s (CREM_LAB_TIMEOUT_DEBUG) instead of 600, so
# that a busier host does not kill a test that is only slow.
debug_tests="crem_robust.sh crem_limits.sh crem_ipv6.sh crem_devices.sh
	     crem_conntrack.sh crem_mqp.sh crem_hostile.sh"
debug_params="runs=1 scale=25 compare=0 mqp_runs=1 mqp_qps=2 qp_timeout=16"

# debug_picked: the tests of CREM_CHECK_TESTS in the debug layer's list.
debug_picked() {
	local t
	for t in $CREM_CHECK_TESTS; do
		case " $(echo $debug_tests) " in
		*" $t "*) echo "$t" ;;
		esac
	done
}

# build KERNEL: crem.ko (and cremctl, cremsend) for a lab kernel.
build() {
	local kdir
	case $1 in
	6.1) kdir=$(make -s -C "$repo" print-kdir-61) ;;
	6.12) kdir=$(make -s -C "$repo" print-kdir-612) ;;
	debug) kdir=$("$lab/debug-kernel.sh" kdir) ;;
	esac
	make -s -C "$repo" cremctl cremsend && make -s -C "$repo" module KDIR="$kdir"
}

# layer NAME COMMAND...: run one layer; its TAP is results/NAME.tap.
layer() {
	local name=$1 start rc=0 pass fail skip
	shift
	case " ${CREM_CHECK_LAYERS:-$name} " in
	*" $name "*) ;;
	*)
		summary="$summary$(printf '%-10s not run (CREM_CHECK_LAYERS)' "$name")
"
		not_run=$((not_run + 1))
		return
		;;
	esac
	# A lab layer none of whose tests was asked for does not run either.
	if [ -n "$CREM_CHECK_TESTS" ] && [ "$name" = lab-debug ] &&
	   [ -z "$(debug_picked)" ]; then
		summary="$summary$(printf '%-10s not run (none of CREM_CHECK_TESTS)' "$name")
"
		not_run=$((not_run + 1))
		return
	fi
	echo "=== $name ==="
	start=$(date +%s)
	rm -f "$results/$name.tap"
	"$@" || rc=$?
	read -r pass fail skip < <(awk -f "$repo/tests/ktap_count.awk" \
		"$results/$name.tap" 2>/dev/null || echo "0 0 0")
	# A layer that failed, or skipped, without a failing result still did.
	if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
		if [ "$rc" -eq 4 ] && [ "${CREM_ALLOW_SKIP:-0}" = 1 ]; then
			skip=$((skip + 1))
		else
			fail=1
		fi
	fi
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	total_skip=$((total_skip + skip))
	summary="$summary$(printf '%-10s %4d passed, %d failed, %d skipped (exit %d, %ds)' \
		"$name" "$pass" "$fail" "$skip" "$rc" "$(( $(date +%s) - start ))")
"
}

unit() {
	make -s -C "$repo" unit-bin &&
		"$repo/tests/unit.sh" "$repo/build/user/crem_unit" \
			"$results/unit.tap"
}

kunit() {
	"$lab/debug-kernel.sh" build > /dev/null && build debug &&
		"$repo/tests/kunit/run.sh" "$results/kunit.tap"
}

lab_run() {
	local name=$1 kernel=$2 tests=${3:-} params=${4:-}
	# Only the tests asked for; the debug layer only those of its list.
	if [ -n "$CREM_CHECK_TESTS" ]; then
		tests=$CREM_CHECK_TESTS
		[ "$kernel" = debug ] && tests=$(debug_picked)
	fi
	build "$kernel" || return 1
	local mem=${CREM_LAB_MEM:-1024} timeout=${CREM_LAB_TIMEOUT:-600}
	if [ "$kernel" = debug ]; then
		kernel=$("$lab/debug-kernel.sh" release)
		mem=${CREM_LAB_MEM_DEBUG:-1024}
		timeout=${CREM_LAB_TIMEOUT_DEBUG:-900}
	fi
	CREM_LAB_MEM=$mem CREM_LAB_TIMEOUT=$timeout \
		"$repo/tests/selftests/run.sh" -k "$kernel" \
		${tests:+-t "$tests"} ${params:+-p "$params"} \
		"$results/$name.tap"
}

layer unit unit
layer kunit kunit
layer lab-6.1 lab_run lab-6.1 6.1
layer lab-6.12 lab_run lab-6.12 6.12
layer lab-debug lab_run lab-debug debug "$debug_tests" "$debug_params"

# A run in which nothing ran proves nothing.
if [ $((total_pass + total_fail + total_skip)) -eq 0 ]; then
	summary="${summary}nothing ran
"
	total_fail=1
fi
echo "=== summary ==="
printf '%s' "$summary"
echo "$total_pass passed, $total_fail failed, $total_skip skipped${CREM_CHECK_LAYERS:+, $not_run layers not run}"
[ "$total_fail" -eq 0 ]
