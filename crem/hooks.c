// SPDX-License-Identifier: GPL-2.0
/*
 * The netfilter hooks: where RoCEv2 packets meet the engines.
 *
 * POST_ROUTING (IPv4 and IPv6) sees every packet leaving the box, made
 * here or forwarded: sources toward a protected prefix go to their sender
 * flow (made on the first packet).  PRE_ROUTING sees every packet that
 * arrives: sources of a receiver flow go to it, and may be held (stolen)
 * for the hold time; acknowledgements go to the sender flows of the
 * reverse direction.  Both hooks run last, so that a held packet handed
 * back to the hook's continuation skips nothing.  Everything that is not
 * UDP to port 4791 returns after one header check.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <net/ip.h>

#include "flow.h"
#include "hooks.h"
#include "netns.h"

/* Is @skb UDP to the RoCEv2 port?  Linear and trimmed on success. */
static bool is_rocev2(struct sk_buff *skb, u8 af)
{
	struct udphdr _uh;
	const struct udphdr *uh;
	unsigned int off;

	if (af == CREM_AF_INET) {
		const struct iphdr *iph = ip_hdr(skb);

		if (iph->protocol != IPPROTO_UDP || ip_is_fragment(iph))
			return false;
		off = iph->ihl * 4;
	} else {
		if (ipv6_hdr(skb)->nexthdr != IPPROTO_UDP)
			return false;
		off = sizeof(struct ipv6hdr);
	}
	uh = skb_header_pointer(skb, skb_network_offset(skb) + off,
				sizeof(_uh), &_uh);
	if (!uh || uh->dest != htons(CREM_ROCEV2_PORT))
		return false;
	return !skb_linearize(skb);
}

static void key_of(const struct crem_roce_pkt *p, u8 role,
		   struct crem_flow_key *key)
{
	crem_flow_key_init(key, role,
			   p->af == 4 ? CREM_AF_INET : CREM_AF_INET6,
			   p->dest_qp, p->src, p->dst);
}

static const u8 *udp_payload(const struct sk_buff *skb,
			     const struct crem_roce_pkt *p, size_t *len)
{
	size_t ip = p->af == 4 ? ip_hdrlen(skb) : sizeof(struct ipv6hdr);

	*len = p->ip_len - ip - sizeof(struct udphdr);
	return skb_network_header(skb) + ip + sizeof(struct udphdr);
}

/* A source leaving: its sender flow, made if need be. */
static void csf_source(struct crem_net *cn, struct sk_buff *skb,
		       const struct crem_roce_pkt *p)
{
	const struct crem_cfg *cfg = rcu_dereference(cn->cfg);
	const struct crem_prefix *prefix;
	struct crem_flow_key key;
	struct crem_flow *flow;
	const u8 *payload;
	size_t len;
	bool ended;
	u8 af;

	if (!(cfg->role & CREM_ROLE_SENDER))
		return;
	key_of(p, CREM_ROLE_SENDER, &key);
	af = key.af;
	flow = crem_flow_lookup(cn, &key);
	if (!flow) {
		prefix = crem_cfg_protected(cfg, af, p->dst);
		if (!prefix) {
			crem_net_stat_inc(cn, CREM_STAT_UNPROTECTED);
			return;
		}
		flow = crem_flow_new_csf(cn, &key, af,
					 prefix->has_peer ? prefix->peer :
							    p->dst,
					 p->psn, cfg->rdma_mtu);
		if (!flow)
			return;
	}
	payload = udp_payload(skb, p, &len);
	spin_lock_bh(&flow->lock);
	if (flow->dead) {
		spin_unlock_bh(&flow->lock);
		return;
	}
	crem_csf_source(&flow->csf, p, payload, len);
	ended = crem_flow_ended(flow);
	spin_unlock_bh(&flow->lock);
	if (ended)
		crem_flow_kill(flow);
}

/* An acknowledgement arriving: for the sender flows it answers. */
static void csf_ack(struct crem_net *cn, const struct crem_roce_pkt *p)
{
	struct crem_flow *flow;
	u8 af = p->af == 4 ? CREM_AF_INET : CREM_AF_INET6;

	/* The sender flows of the reverse direction, by their addresses. */
	hash_for_each_possible_rcu(cn->by_pair, flow, by_pair,
				   crem_flow_pair_hash(af, p->dst, p->src)) {
		if (flow->key.role != CREM_ROLE_SENDER || flow->key.af != af ||
		    memcmp(flow->key.src, p->dst, 16) ||
		    memcmp(flow->key.dst, p->src, 16))
			continue;
		spin_lock_bh(&flow->lock);
		if (!flow->dead)
			crem_csf_rdma_ack(&flow->csf, p);
		spin_unlock_bh(&flow->lock);
	}
}

/* A source arriving: its receiver flow may hold it.  True if stolen. */
static bool crf_source(struct crem_net *cn, struct sk_buff *skb,
		       const struct crem_roce_pkt *p)
{
	enum crem_crf_verdict v = CREM_CRF_PASS;
	struct crem_flow_key key;
	struct crem_flow *flow;
	const u8 *payload;
	size_t len;
	bool ended;

	key_of(p, CREM_ROLE_RECEIVER, &key);
	flow = crem_flow_lookup(cn, &key);
	if (!flow)
		return false;
	payload = udp_payload(skb, p, &len);
	spin_lock_bh(&flow->lock);
	if (!flow->dead) {
		flow->ifindex = skb->dev ? skb->dev->ifindex : flow->ifindex;
		v = crem_crf_source(&flow->crf, skb_network_header(skb), p,
				    payload, len, skb);
	}
	ended = !flow->dead && crem_flow_ended(flow);
	spin_unlock_bh(&flow->lock);
	crem_flow_flush(flow);
	if (ended)
		crem_flow_kill(flow);
	return v == CREM_CRF_HOLD;
}

static unsigned int crem_hook(struct crem_net *cn, struct sk_buff *skb,
			      const struct nf_hook_state *state, u8 af)
{
	struct crem_roce_pkt p;

	if (!is_rocev2(skb, af))
		return NF_ACCEPT;
	crem_net_stat_inc(cn, CREM_STAT_ROCE_SEEN);
	if (crem_roce_parse_ip(skb_network_header(skb), skb->len, &p) !=
	    CREM_ROCE_OK) {
		crem_net_stat_inc(cn, CREM_STAT_ROCE_BAD);
		return NF_ACCEPT;
	}
	if (state->hook == NF_INET_POST_ROUTING) {
		if (crem_roce_is_source(&p))
			csf_source(cn, skb, &p);
		return NF_ACCEPT;
	}
	/* PRE_ROUTING: what follows is where held packets go on. */
	if (af == CREM_AF_INET && unlikely(!READ_ONCE(cn->okfn4)))
		WRITE_ONCE(cn->okfn4, state->okfn);
	else if (af == CREM_AF_INET6 && unlikely(!READ_ONCE(cn->okfn6)))
		WRITE_ONCE(cn->okfn6, state->okfn);
	if (crem_roce_is_source(&p))
		return crf_source(cn, skb, &p) ? NF_STOLEN : NF_ACCEPT;
	csf_ack(cn, &p);
	return NF_ACCEPT;
}

static unsigned int crem_hook4(void *priv, struct sk_buff *skb,
			       const struct nf_hook_state *state)
{
	return crem_hook(priv, skb, state, CREM_AF_INET);
}

static unsigned int crem_hook6(void *priv, struct sk_buff *skb,
			       const struct nf_hook_state *state)
{
	return crem_hook(priv, skb, state, CREM_AF_INET6);
}

static const struct nf_hook_ops crem_hook_ops[] = {
	{
		.hook = crem_hook4, .pf = NFPROTO_IPV4,
		.hooknum = NF_INET_PRE_ROUTING, .priority = NF_IP_PRI_LAST,
	},
	{
		.hook = crem_hook4, .pf = NFPROTO_IPV4,
		.hooknum = NF_INET_POST_ROUTING, .priority = NF_IP_PRI_LAST,
	},
	{
		.hook = crem_hook6, .pf = NFPROTO_IPV6,
		.hooknum = NF_INET_PRE_ROUTING, .priority = NF_IP6_PRI_LAST,
	},
	{
		.hook = crem_hook6, .pf = NFPROTO_IPV6,
		.hooknum = NF_INET_POST_ROUTING, .priority = NF_IP6_PRI_LAST,
	},
};

int crem_hooks_register(struct crem_net *cn)
{
	struct nf_hook_ops *ops;
	unsigned int i;
	int err;

	lockdep_assert_held(&cn->cfg_mutex);
	if (cn->hook_ops)
		return 0;
	ops = kmemdup(crem_hook_ops, sizeof(crem_hook_ops), GFP_KERNEL);
	if (!ops)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(crem_hook_ops); i++)
		ops[i].priv = cn;
	err = nf_register_net_hooks(cn->net, ops, ARRAY_SIZE(crem_hook_ops));
	if (err) {
		kfree(ops);
		return err;
	}
	cn->hook_ops = ops;
	return 0;
}

void crem_hooks_unregister(struct crem_net *cn)
{
	lockdep_assert_held(&cn->cfg_mutex);
	if (!cn->hook_ops)
		return;
	/* Returns after every running hook has finished (synchronize_net). */
	nf_unregister_net_hooks(cn->net, cn->hook_ops,
				ARRAY_SIZE(crem_hook_ops));
	kfree(cn->hook_ops);
	cn->hook_ops = NULL;
}
