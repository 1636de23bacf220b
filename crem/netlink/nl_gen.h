/* SPDX-License-Identifier: GPL-2.0 */
/* Do not edit: generated from Documentation/netlink/specs/crem.yaml by tools/nlgen.py (make nlgen). */

#ifndef CREM_NL_GEN_H
#define CREM_NL_GEN_H

#include <net/genetlink.h>

/* Handlers, one per operation and mode of Documentation/netlink/specs/crem.yaml. */
int crem_nl_get_version_doit(struct sk_buff *skb, struct genl_info *info);
int crem_nl_get_stats_doit(struct sk_buff *skb, struct genl_info *info);

extern const struct genl_ops crem_nl_ops[2];

#endif /* CREM_NL_GEN_H */
