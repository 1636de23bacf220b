// SPDX-License-Identifier: GPL-2.0
#include "stats.h"

/* In the order of CREM_STAT_LIST, which is also the order of enum crem_stat. */
static const char *const crem_stat_names[CREM_STAT_COUNT] = {
#define CREM_STAT_NAME(id, name) name,
	CREM_STAT_LIST(CREM_STAT_NAME)
#undef CREM_STAT_NAME
};

const char *crem_stat_name(unsigned int stat)
{
	return stat < CREM_STAT_COUNT ? crem_stat_names[stat] : NULL;
}
