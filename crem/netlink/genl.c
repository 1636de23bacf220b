// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "crem" (Documentation/netlink/specs/crem.yaml).
 *
 * The op table and the policies come from nl_gen.c, generated from the
 * spec; this file holds the family and the handlers.  Handlers run in
 * process context with parallel_ops: the family takes no lock, and each
 * handler protects what it touches itself.  They act on the namespace of
 * the requesting socket only.
 */
#include <linux/slab.h>
#include <net/genetlink.h>

#include <linux/crem_netlink.h>

#include "../core/version.h"
#include "../fec/dot.h"
#include "../flow.h"
#include "../netns.h"
#include "genl.h"
#include "nl_gen.h"

struct genl_family crem_genl_family;

/*
 * Start a reply to @info.  On success the caller owns *@msgp and must end
 * it with genlmsg_end() and send it, or free it.
 */
void *crem_reply_start(struct genl_info *info, struct sk_buff **msgp)
{
	struct sk_buff *msg;
	void *hdr;

	/* The stats reply is a few hundred nests: room for all of them. */
	msg = genlmsg_new(info->genlhdr->cmd == CREM_CMD_GET_STATS ?
			  4 * NLMSG_GOODSIZE : NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return NULL;
	hdr = genlmsg_put_reply(msg, info, &crem_genl_family, 0,
				info->genlhdr->cmd);
	if (!hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	*msgp = msg;
	return hdr;
}

int crem_nl_get_version_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct crem_net *cn = crem_net(genl_info_net(info));
	struct sk_buff *msg;
	void *hdr;

	crem_net_stat_inc(cn, CREM_STAT_CTL_REQUESTS);
	hdr = crem_reply_start(info, &msg);
	if (!hdr)
		return -ENOMEM;
	if (nla_put_string(msg, CREM_A_VERSION, CREM_VERSION) ||
	    nla_put_string(msg, CREM_A_CODER, crem_gf_isa_name(crem_gf_isa())) ||
	    nla_put_u32(msg, CREM_A_CODER_MEASURED_MBS, crem_gf_isa_mbs())) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int put_stat(struct sk_buff *msg, int type, const char *name,
		    u64 value)
{
	struct nlattr *stat = nla_nest_start(msg, type);

	if (!stat || nla_put_string(msg, CREM_A_STAT_NAME, name) ||
	    nla_put_u64_64bit(msg, CREM_A_STAT_VALUE, value, CREM_A_STAT_PAD))
		return -EMSGSIZE;
	nla_nest_end(msg, stat);
	return 0;
}

/**
 * crem_nl_put_flow_stats() - a flow's counters as name/value nests
 * @msg: the message
 * @type: the nest's attribute type
 * @st: the counters
 *
 * Return: 0 or -EMSGSIZE.
 */
int crem_nl_put_flow_stats(struct sk_buff *msg, int type,
			   const struct crem_flow_stats *st)
{
	char name[48];
	unsigned int i;

	for (i = 0; i < CREM_FLOW_STAT_COUNT; i++)
		if (put_stat(msg, type, crem_flow_stat_name(i), st->v[i]))
			return -EMSGSIZE;
	for (i = 1; i <= CREM_MSG_CLOSE; i++) {
		snprintf(name, sizeof(name), "sent_%s", crem_msg_type_name(i));
		if (put_stat(msg, type, name, st->sent[i]))
			return -EMSGSIZE;
		snprintf(name, sizeof(name), "received_%s",
			 crem_msg_type_name(i));
		if (put_stat(msg, type, name, st->received[i]))
			return -EMSGSIZE;
	}
	return 0;
}

/*
 * The namespace's counters, its CREM messages by parse result, and the
 * per-flow counters summed over ended and live flows ("flow_" names).
 */
static int crem_put_stats(struct sk_buff *msg, struct crem_net *cn)
{
	u64 values[CREM_STAT_COUNT], wire[CREM_WIRE_NR_REASONS];
	u64 *flows = kcalloc(CREM_FLOW_STAT_COUNT, sizeof(u64), GFP_KERNEL);
	u64 created, ended, live;
	struct crem_flow *flow;
	char name[48];
	unsigned int i;
	int ret = -EMSGSIZE;

	if (!flows)
		return -ENOMEM;
	crem_net_stats_read(cn, values);
	crem_net_wire_read(cn, wire);
	/*
	 * The ended flows' sums and the live flows under one lock: a flow
	 * that ends between the two would be in neither, and a counter
	 * read twice could go backwards.
	 */
	spin_lock_bh(&cn->flows_lock);
	memcpy(flows, cn->ended, sizeof(u64) * CREM_FLOW_STAT_COUNT);
	created = cn->flows_created;
	ended = cn->flows_ended;
	live = cn->nflows;
	list_for_each_entry(flow, &cn->flows, list) {
		const struct crem_flow_stats *st = crem_flow_stats(flow);

		for (i = 0; i < CREM_FLOW_STAT_COUNT; i++)
			flows[i] += READ_ONCE(st->v[i]);
	}
	spin_unlock_bh(&cn->flows_lock);

	for (i = 0; i < CREM_STAT_COUNT; i++)
		if (put_stat(msg, CREM_A_STATS, crem_stat_name(i), values[i]))
			goto out;
	for (i = 0; i < CREM_WIRE_NR_REASONS; i++) {
		snprintf(name, sizeof(name), "wire_%s",
			 crem_wire_reason_name(i));
		if (put_stat(msg, CREM_A_STATS, name, wire[i]))
			goto out;
	}
	if (put_stat(msg, CREM_A_STATS, "flows", live) ||
	    put_stat(msg, CREM_A_STATS, "flows_created", created) ||
	    put_stat(msg, CREM_A_STATS, "flows_ended", ended) ||
	    put_stat(msg, CREM_A_STATS, "mem_bytes",
		     atomic64_read(&cn->mem)))
		goto out;
	for (i = 0; i < CREM_FLOW_STAT_COUNT; i++) {
		snprintf(name, sizeof(name), "flow_%s", crem_flow_stat_name(i));
		if (put_stat(msg, CREM_A_STATS, name, flows[i]))
			goto out;
	}
	ret = 0;
out:
	kfree(flows);
	return ret;
}

/**
 * crem_reply() - answer a request with what @fill puts in the reply
 * @info: the request
 * @fill: adds the reply's attributes for the namespace; 0 or -errno
 *
 * Counts the request.  Return: 0 or -errno.
 */
int crem_reply(struct genl_info *info,
	       int (*fill)(struct sk_buff *msg, struct crem_net *cn))
{
	struct crem_net *cn = crem_net(genl_info_net(info));
	struct sk_buff *msg;
	void *hdr;
	int ret;

	crem_net_stat_inc(cn, CREM_STAT_CTL_REQUESTS);
	hdr = crem_reply_start(info, &msg);
	if (!hdr)
		return -ENOMEM;
	ret = fill(msg, cn);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

int crem_nl_get_stats_doit(struct sk_buff *skb, struct genl_info *info)
{
	return crem_reply(info, crem_put_stats);
}

struct genl_family crem_genl_family __ro_after_init = {
	.name = CREM_GENL_NAME,
	.version = CREM_GENL_VERSION,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = crem_nl_ops,
	.n_ops = ARRAY_SIZE(crem_nl_ops),
	.mcgrps = crem_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(crem_nl_mcgrps),
	/* Every command gets strict header and attribute validation. */
	.resv_start_op = CREM_CMD_GET_VERSION,
};

/**
 * crem_genl_init() - register the family
 *
 * Context: process, module init, after crem_netns_init(): a request may
 * arrive as soon as this returns.
 * Return: 0 or a negative errno.
 */
int __init crem_genl_init(void)
{
	return genl_register_family(&crem_genl_family);
}

/**
 * crem_genl_exit() - unregister the family
 *
 * Context: process, module exit.  Returns after every running handler has
 * finished.
 */
void crem_genl_exit(void)
{
	genl_unregister_family(&crem_genl_family);
}
