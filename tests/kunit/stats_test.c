// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the counter name table: the names are the stable interface
 * that cremctl and scripts read, so they must be unique and well formed.
 */
#include <kunit/test.h>

#include "crem/core/stats.h"

static bool stat_name_well_formed(const char *name)
{
	const char *c;

	if (!name[0] || name[0] == '_')
		return false;
	for (c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
		      *c == '_'))
			return false;
	return true;
}

static void stat_names_present_and_well_formed(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < CREM_STAT_COUNT; i++) {
		const char *name = crem_stat_name(i);

		KUNIT_ASSERT_NOT_NULL(test, name);
		KUNIT_EXPECT_TRUE_MSG(test, stat_name_well_formed(name),
				      "counter %u has name '%s'", i, name);
	}
}

static void stat_names_unique(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < CREM_STAT_COUNT; i++)
		for (j = i + 1; j < CREM_STAT_COUNT; j++)
			KUNIT_EXPECT_STRNEQ(test, crem_stat_name(i),
					    crem_stat_name(j));
}

static void stat_name_out_of_range(struct kunit *test)
{
	KUNIT_EXPECT_NULL(test, crem_stat_name(CREM_STAT_COUNT));
	KUNIT_EXPECT_NULL(test, crem_stat_name(~0u));
	KUNIT_EXPECT_STREQ(test, crem_stat_name(CREM_STAT_CTL_REQUESTS),
			   "ctl_requests");
}

static struct kunit_case crem_stats_test_cases[] = {
	KUNIT_CASE(stat_names_present_and_well_formed),
	KUNIT_CASE(stat_names_unique),
	KUNIT_CASE(stat_name_out_of_range),
	{}
};

static struct kunit_suite crem_stats_test_suite = {
	.name = "crem_stats",
	.test_cases = crem_stats_test_cases,
};

kunit_test_suite(crem_stats_test_suite);
