// SPDX-License-Identifier: GPL-2.0
/*
 * Flows over netlink: the dump and closing one flow.
 *
 * The dump walks the namespace's flow list under RCU, one flow per
 * message part; a flow's state is read under its lock.  Across parts it
 * resumes by position: flows ending between parts may make it skip or
 * repeat one, and the generation check below marks such a dump
 * inconsistent (NLM_F_DUMP_INTR), as the kernel's own dumps do.
 */
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include <linux/crem_netlink.h>

#include "../flow.h"
#include "../flowtable.h"
#include "../netns.h"
#include "../reinject.h"
#include "genl.h"
#include "nl_gen.h"

static const char *state_name(const struct crem_flow *flow)
{
	if (flow->key.role == CREM_ROLE_RECEIVER && flow->crf.state !=
						    CREM_CRF_ACTIVE)
		return "closed";
	if (flow->key.role == CREM_ROLE_RECEIVER)
		return READ_ONCE(flow->key.candidate) ? "candidate" : "active";
	switch (flow->csf.state) {
	case CREM_CSF_NEGOTIATING:
		return "negotiating";
	case CREM_CSF_ACTIVE:
		return "active";
	case CREM_CSF_UNPROTECTED:
		return "unprotected";
	default:
		return "closed";
	}
}

/* Called with the flow's lock held. */
static int put_flow(struct sk_buff *msg, const struct crem_flow *flow)
{
	bool csf = flow->key.role == CREM_ROLE_SENDER;
	const struct crem_flow_stats *st = crem_flow_stats(flow);
	int alen = flow->key.af == CREM_AF_INET ? 4 : 16;
	const struct crem_config *c = NULL;
	struct nlattr *nest;
	u64 srtt, hold;

	nest = nla_nest_start(msg, CREM_A_FLOW);
	if (!nest)
		return -EMSGSIZE;
	if (csf) {
		c = crem_csf_config(&flow->csf);
		srtt = flow->csf.srtt_ns;
		hold = crem_csf_hold_ns(&flow->csf);
	} else {
		c = &flow->crf.param.config[flow->crf.param.newest];
		srtt = flow->crf.srtt_ns;
		hold = crem_crf_hold_ns(&flow->crf);
	}
	if (nla_put_u8(msg, CREM_A_FLOW_FAMILY, flow->key.af) ||
	    nla_put(msg, CREM_A_FLOW_SRC, alen, flow->key.src) ||
	    nla_put(msg, CREM_A_FLOW_DST, alen, flow->key.dst) ||
	    nla_put_u32(msg, CREM_A_FLOW_QP, flow->key.qp) ||
	    nla_put_u8(msg, CREM_A_FLOW_ROLE, csf ? 1 : 2) ||
	    nla_put_u32(msg, CREM_A_FLOW_ID, flow->flow_id) ||
	    nla_put_string(msg, CREM_A_FLOW_STATE, state_name(flow)) ||
	    nla_put(msg, CREM_A_FLOW_PEER,
		    flow->peer_af == CREM_AF_INET ? 4 : 16, flow->peer) ||
	    nla_put_u8(msg, CREM_A_FLOW_SCHEME, c->scheme) ||
	    nla_put_u8(msg, CREM_A_FLOW_K, c->k) ||
	    nla_put_u8(msg, CREM_A_FLOW_M, c->m) ||
	    nla_put_u16(msg, CREM_A_FLOW_T, c->symbol_len) ||
	    nla_put_u8(msg, CREM_A_FLOW_CONFIG_ID, c->id) ||
	    nla_put_u32(msg, CREM_A_FLOW_SRTT_US, div_u64(srtt, 1000)) ||
	    nla_put_u32(msg, CREM_A_FLOW_HOLD_US, div_u64(hold, 1000)) ||
	    nla_put_u64_64bit(msg, CREM_A_FLOW_MEM, flow->mem,
			      CREM_A_FLOW_PAD))
		return -EMSGSIZE;
	if (csf &&
	    (nla_put_u32(msg, CREM_A_FLOW_LOSS_PPM,
			 div_u64(flow->csf.policy.p * 1000000, CREM_Q31)) ||
	     nla_put_u8(msg, CREM_A_FLOW_CONGESTION,
			flow->csf.policy.congestion) ||
	     nla_put_u8(msg, CREM_A_FLOW_BREAKER, flow->csf.policy.tripped)))
		return -EMSGSIZE;
	if (crem_nl_put_flow_stats(msg, CREM_A_FLOW_STATS, st))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

int crem_nl_get_flows_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct crem_net *cn = crem_net(sock_net(skb->sk));
	long skip = cb->args[0], i = 0;
	struct crem_flow *flow;
	int ret = 0;

	if (!skip)
		crem_net_stat_inc(cn, CREM_STAT_CTL_REQUESTS);
	/* Flows made or ended since the dump began make it inconsistent. */
	cb->seq = READ_ONCE(cn->flows_created) + READ_ONCE(cn->flows_ended);
	rcu_read_lock();
	list_for_each_entry_rcu(flow, &cn->flows, list) {
		void *hdr;

		if (i++ < skip)
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &crem_genl_family,
				  NLM_F_MULTI, CREM_CMD_GET_FLOWS);
		if (!hdr) {
			i--;
			break;
		}
		genl_dump_check_consistent(cb, hdr);
		spin_lock_bh(&flow->lock);
		ret = flow->dead ? 0 : put_flow(skb, flow);
		spin_unlock_bh(&flow->lock);
		if (ret) {
			genlmsg_cancel(skb, hdr);
			i--;
			ret = 0;
			break;
		}
		genlmsg_end(skb, hdr);
	}
	rcu_read_unlock();
	cb->args[0] = i;
	return skb->len;
}

int crem_nl_close_flow_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct crem_net *cn = crem_net(genl_info_net(info));
	struct crem_flow *flow;
	u8 role;
	u32 id;

	crem_net_stat_inc(cn, CREM_STAT_CTL_REQUESTS);
	if (!info->attrs[CREM_A_CLOSE_ID] || !info->attrs[CREM_A_CLOSE_ROLE]) {
		NL_SET_ERR_MSG(info->extack, "give close-id and close-role");
		return -EINVAL;
	}
	id = nla_get_u32(info->attrs[CREM_A_CLOSE_ID]);
	role = nla_get_u8(info->attrs[CREM_A_CLOSE_ROLE]);
	if (role != 1 && role != 2) {
		NL_SET_ERR_MSG(info->extack, "close-role: 1 sender, 2 receiver");
		return -EINVAL;
	}
	rcu_read_lock();
	flow = crem_flow_by_id(cn, role == 1 ? CREM_ROLE_SENDER :
					       CREM_ROLE_RECEIVER, id);
	if (!flow) {
		rcu_read_unlock();
		NL_SET_ERR_MSG(info->extack, "no such flow");
		return -ENOENT;
	}
	spin_lock_bh(&flow->lock);
	crem_flow_close(flow, CREM_CLOSE_NORMAL);
	spin_unlock_bh(&flow->lock);
	crem_reinject_flow(flow);
	crem_flow_kill(flow);
	rcu_read_unlock();
	return 0;
}
