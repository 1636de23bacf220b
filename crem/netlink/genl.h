/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic netlink family "crem": shared by the handler files
 * (genl.c: the family, version and counters; config_nl.c: the
 * configuration; flows_nl.c: flows).
 */
#ifndef CREM_NETLINK_GENL_H
#define CREM_NETLINK_GENL_H

#include <net/genetlink.h>

#include "../core/engine.h"

extern struct genl_family crem_genl_family;

int crem_genl_init(void);
void crem_genl_exit(void);

/*
 * Start a reply to @info.  On success the caller owns *@msgp and must end
 * it with genlmsg_end() and send it, or free it.
 */
void *crem_reply_start(struct genl_info *info, struct sk_buff **msgp);

struct crem_net;

/* Answer @info with what @fill adds (see genl.c). */
int crem_reply(struct genl_info *info,
	       int (*fill)(struct sk_buff *msg, struct crem_net *cn));

int crem_nl_put_flow_stats(struct sk_buff *msg, int type,
			   const struct crem_flow_stats *st);

struct crem_flow;

/* Notify the events group (@ev may be NULL).  See events_nl.c. */
void crem_nl_event(struct crem_net *cn, const char *kind,
		   const struct crem_flow *flow, const struct crem_event *ev);

#endif /* CREM_NETLINK_GENL_H */
