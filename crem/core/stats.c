// SPDX-License-Identifier: GPL-2.0
#include "stats.h"

static const char *const crem_stat_names[] = {
	[CREM_STAT_CTL_REQUESTS] = "ctl_requests",
};

_Static_assert(ARRAY_SIZE(crem_stat_names) == CREM_STAT_COUNT, "a name for each");

const char *crem_stat_name(unsigned int stat)
{
	return stat < CREM_STAT_COUNT ? crem_stat_names[stat] : NULL;
}
