// SPDX-License-Identifier: GPL-2.0
/* Do not edit: generated from Documentation/netlink/specs/crem.yaml by tools/nlgen.py (make nlgen). */

#include <net/genetlink.h>

#include <linux/crem_netlink.h>

#include "nl_gen.h"

const struct genl_ops crem_nl_ops[2] = {
	{
		.cmd		= CREM_CMD_GET_VERSION,
		.doit		= crem_nl_get_version_doit,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= CREM_CMD_GET_STATS,
		.doit		= crem_nl_get_stats_doit,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
};
