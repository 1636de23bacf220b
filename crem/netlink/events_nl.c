// SPDX-License-Identifier: GPL-2.0
/*
 * Notifications to the "events" multicast group: flows going up and down,
 * configuration changes, the circuit breaker, fallbacks.
 *
 * Context: any but hard interrupts (the datapath calls this from softirq,
 * under a flow's lock); nothing is built when nobody listens.
 */
#include <net/genetlink.h>

#include <linux/crem_netlink.h>

#include "../flow.h"
#include "../netns.h"
#include "genl.h"
#include "nl_gen.h"

void crem_nl_event(struct crem_net *cn, const char *kind,
		   const struct crem_flow *flow, const struct crem_event *ev)
{
	struct sk_buff *skb;
	struct nlattr *nest;
	void *hdr;

	if (!genl_has_listeners(&crem_genl_family, cn->net, CREM_NLGRP_EVENTS))
		return;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_ATOMIC);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &crem_genl_family, 0, CREM_CMD_EVENT);
	if (!hdr)
		goto fail;
	nest = nla_nest_start(skb, CREM_A_EVENT);
	if (!nest ||
	    nla_put_string(skb, CREM_A_EVENT_KIND, kind) ||
	    nla_put_u32(skb, CREM_A_EVENT_FLOW_ID, READ_ONCE(flow->flow_id)) ||
	    nla_put_u8(skb, CREM_A_EVENT_ROLE,
		       flow->key.role == CREM_ROLE_SENDER ? 1 : 2))
		goto fail;
	if (ev && ev->type == CREM_EV_CONFIG_CHANGED &&
	    (nla_put_u8(skb, CREM_A_EVENT_CONFIG_ID, ev->a) ||
	     nla_put_u8(skb, CREM_A_EVENT_K, ev->b) ||
	     nla_put_u8(skb, CREM_A_EVENT_M, ev->c)))
		goto fail;
	if (ev && ev->type == CREM_EV_BREAKER &&
	    nla_put_u8(skb, CREM_A_EVENT_TRIPPED, ev->a))
		goto fail;
	if (ev && ev->type == CREM_EV_FALLBACK &&
	    (nla_put_u32(skb, CREM_A_EVENT_BLOCK, ev->block_start) ||
	     nla_put_u32(skb, CREM_A_EVENT_LOST, ev->a)))
		goto fail;
	if (ev && ev->type == CREM_EV_FLOW_DOWN &&
	    nla_put_u16(skb, CREM_A_EVENT_REASON, ev->a))
		goto fail;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&crem_genl_family, cn->net, skb, 0,
				CREM_NLGRP_EVENTS, GFP_ATOMIC);
	return;
fail:
	nlmsg_free(skb);
}
