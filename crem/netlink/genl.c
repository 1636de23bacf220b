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
#include <net/genetlink.h>

#include <linux/crem_netlink.h>

#include "../core/version.h"
#include "../fec/dot.h"
#include "../netns.h"
#include "genl.h"
#include "nl_gen.h"

static struct genl_family crem_genl_family;

/*
 * Start a reply to @info.  On success the caller owns *@msgp and must end
 * it with genlmsg_end() and send it, or free it.
 */
static void *crem_reply_start(struct genl_info *info, struct sk_buff **msgp)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
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
	    nla_put_string(msg, CREM_A_CODER, crem_gf_isa_name(crem_gf_isa()))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int crem_put_stats(struct sk_buff *msg, const struct crem_net *cn)
{
	u64 values[CREM_STAT_COUNT];
	unsigned int i;

	crem_net_stats_read(cn, values);
	for (i = 0; i < CREM_STAT_COUNT; i++) {
		struct nlattr *stat = nla_nest_start(msg, CREM_A_STATS);

		if (!stat ||
		    nla_put_string(msg, CREM_A_STAT_NAME, crem_stat_name(i)) ||
		    nla_put_u64_64bit(msg, CREM_A_STAT_VALUE, values[i],
				      CREM_A_STAT_PAD))
			return -EMSGSIZE;
		nla_nest_end(msg, stat);
	}
	return 0;
}

int crem_nl_get_stats_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct crem_net *cn = crem_net(genl_info_net(info));
	struct sk_buff *msg;
	void *hdr;
	int ret;

	crem_net_stat_inc(cn, CREM_STAT_CTL_REQUESTS);
	hdr = crem_reply_start(info, &msg);
	if (!hdr)
		return -ENOMEM;
	ret = crem_put_stats(msg, cn);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static struct genl_family crem_genl_family __ro_after_init = {
	.name = CREM_GENL_NAME,
	.version = CREM_GENL_VERSION,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = crem_nl_ops,
	.n_ops = ARRAY_SIZE(crem_nl_ops),
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
