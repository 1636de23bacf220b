// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the 24-bit PSN helpers.  The same file runs in userspace
 * (make unit) and in a KUnit kernel (make kunit).
 */
#include <kunit/test.h>

#include "crem/core/psn.h"

static void psn_add_wraps(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, crem_psn_add(0, 1), 1u);
	KUNIT_EXPECT_EQ(test, crem_psn_add(0xffffff, 1), 0u);
	KUNIT_EXPECT_EQ(test, crem_psn_add(0xfffff0, 0x20), 0x10u);
	KUNIT_EXPECT_EQ(test, crem_psn_add(0, -1), 0xffffffu);
	KUNIT_EXPECT_EQ(test, crem_psn_add(5, -6), 0xffffffu);
	/* Bits above the 24th are never carried into the result. */
	KUNIT_EXPECT_EQ(test, crem_psn_add(0xff000010, 0), 0x10u);
}

static void psn_diff_is_signed_and_wraps(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, crem_psn_diff(10, 3), 7);
	KUNIT_EXPECT_EQ(test, crem_psn_diff(3, 10), -7);
	KUNIT_EXPECT_EQ(test, crem_psn_diff(2, 0xfffffe), 4);
	KUNIT_EXPECT_EQ(test, crem_psn_diff(0xfffffe, 2), -4);
	KUNIT_EXPECT_EQ(test, crem_psn_diff(0x123456, 0x123456), 0);
	/* The boundary of the half space: 2^23 ahead reads as behind. */
	KUNIT_EXPECT_EQ(test, crem_psn_diff(0x800000, 0), -0x800000);
	KUNIT_EXPECT_EQ(test, crem_psn_diff(0x7fffff, 0), 0x7fffff);
}

static void psn_order_across_wrap(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, crem_psn_before(0xffffff, 0));
	KUNIT_EXPECT_TRUE(test, crem_psn_after(0, 0xffffff));
	KUNIT_EXPECT_FALSE(test, crem_psn_before(7, 7));
	KUNIT_EXPECT_FALSE(test, crem_psn_after(7, 7));
	KUNIT_EXPECT_TRUE(test, crem_psn_before(100, 200));
	KUNIT_EXPECT_FALSE(test, crem_psn_before(200, 100));
}

static void psn_range_membership_wraps(struct kunit *test)
{
	/* A block of 32 positions that straddles the wrap. */
	const u32 start = 0xfffff0;

	KUNIT_EXPECT_TRUE(test, crem_psn_in_range(0xfffff0, start, 32));
	KUNIT_EXPECT_TRUE(test, crem_psn_in_range(0xffffff, start, 32));
	KUNIT_EXPECT_TRUE(test, crem_psn_in_range(0x00000f, start, 32));
	KUNIT_EXPECT_FALSE(test, crem_psn_in_range(0x000010, start, 32));
	KUNIT_EXPECT_FALSE(test, crem_psn_in_range(0xffffef, start, 32));
	KUNIT_EXPECT_EQ(test, crem_psn_offset(0x00000f, start), 31u);
	KUNIT_EXPECT_FALSE(test, crem_psn_in_range(start, start, 0));
}

static void psn_diff_inverts_add(struct kunit *test)
{
	/* Deterministic sweep over starts and signed steps. */
	u32 start;
	s32 step;

	for (start = 0; start < CREM_PSN_MOD; start += 0x0f0f1)
		for (step = -0x7fffff; step < 0x800000; step += 0x1fff3)
			KUNIT_ASSERT_EQ(test,
					crem_psn_diff(crem_psn_add(start, step), start),
					step);
}

static struct kunit_case crem_psn_test_cases[] = {
	KUNIT_CASE(psn_add_wraps),
	KUNIT_CASE(psn_diff_is_signed_and_wraps),
	KUNIT_CASE(psn_order_across_wrap),
	KUNIT_CASE(psn_range_membership_wraps),
	KUNIT_CASE(psn_diff_inverts_add),
	{}
};

static struct kunit_suite crem_psn_test_suite = {
	.name = "crem_psn",
	.test_cases = crem_psn_test_cases,
};

kunit_test_suite(crem_psn_test_suite);
