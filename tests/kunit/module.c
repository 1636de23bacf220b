// SPDX-License-Identifier: GPL-2.0
/*
 * crem_kunit.ko: the portable core's KUnit suites (suites.mk) as one
 * module, built against the lab's debug kernel and loaded in a lab guest
 * (tests/kunit/run.sh).  Each suite file registers itself.
 */
#include <linux/module.h>

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit suites of crem's portable core");
