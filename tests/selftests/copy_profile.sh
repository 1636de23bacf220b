#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# copy_profile: what the emulated CPU makes of the kernel's copy idioms
# (tests/bench/copy_bench.c).  A measurement, not a test (not in
# TEST_PROGS): make copy-bench boots the lab with QEMU's "max" CPU and
# with the lab's default, and prints the copy idioms' costs and whether
# the guest's CPU advertises FSRM and ERMS (with ERMS, 6.1's memcpy() is
# "rep movsb"; 6.12's is with FSRM).
. ./guest.sh

ktap_plan 1
flags=$(awk '/^flags/ { print; exit }' /proc/cpuinfo)
for f in fsrm erms; do
	case " $flags " in
	*" $f "*) ktap_diag "CPU advertises $f" ;;
	*) ktap_diag "CPU does not advertise $f" ;;
	esac
done
if [ -x /crem/copy_bench ]; then
	/crem/copy_bench | sed 's/^/# /'
	ktap_ok "copy idioms measured"
else
	ktap_skip "copy idioms measured" "no /crem/copy_bench (make copy-bench)"
fi
ktap_finish
