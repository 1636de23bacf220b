/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counter identities shared by the engine, the kernel glue and the tests.
 *
 * Counters travel over netlink as (name, value) pairs, so adding one here
 * needs no uapi change: the name is the stable interface.  Names are
 * lower-case words joined by '_'.
 */
#ifndef CREM_CORE_STATS_H
#define CREM_CORE_STATS_H

#include "port.h"

/* Per-netns counters; crem_stat_name() gives each its exported name. */
enum crem_stat {
	CREM_STAT_CTL_REQUESTS,
	CREM_STAT_COUNT
};

/**
 * crem_stat_name() - the exported name of a counter
 * @stat: counter identity
 *
 * Return: a static string, or NULL if @stat is not a counter.
 */
const char *crem_stat_name(unsigned int stat);

#endif /* CREM_CORE_STATS_H */
