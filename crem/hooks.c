// SPDX-License-Identifier: GPL-2.0
/*
 * The netfilter hooks: where RoCEv2 packets meet the engines.
 *
 * POST_ROUTING (IPv4 and IPv6), at the last priority, sees every packet
 * leaving the box, made here or forwarded, as it goes: sources toward a
 * protected prefix go to their sender flow (made on the first packet);
 * a NAK for a sequence error or a READ request tells the receiver flows
 * from its destination that a PSN is wanted again (crf_asked()).  The
 * packet always goes on, unchanged.
 *
 * PRE_ROUTING, at the first priority, sees every packet that arrives
 * before anything else does: sources of a receiver flow go to it, which
 * may hold them (stolen, to go on later from here: reinject.h);
 * acknowledgements go to the sender flows of the reverse direction.
 *
 * A packet crem cannot help - not RoCEv2, GSO, too long to copy, not a
 * source of a flow - goes on at once and unchanged; only a source of a
 * receiver flow can wait, for at most the hold time.  Nothing is
 * linearised: a nonlinear packet is read through a per-CPU copy, with
 * BHs disabled only (packet_bytes()).
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <net/ip.h>

#include "flow.h"
#include "flowtable.h"
#include "hooks.h"
#include "netns.h"
#include "reinject.h"

/* An IP packet longer than this is not protected (RoCE MTU 4096 fits). */
#define CREM_COPY_MAX 9216

/*
 * One RoCEv2 packet in this many, per CPU and direction, has crem's time
 * at the hook measured (the cost_* counters): the mean over a transfer's
 * thousands of samples shows whether crem's work per packet slows a
 * CPU-bound sender, for two clock reads per 64 packets.  A packet made on
 * this host reaches the send hook in its sender's context with BHs on
 * (rxe's requester): the send hook turns them off for its work, so that
 * neither softirqs nor preemption fall in the sample; interrupts still
 * may.  A receive sample includes handing on the packets a source lets
 * go (reinject.h).
 */
#define CREM_COST_SAMPLE 64
static DEFINE_PER_CPU(u32, crem_cost_tick_tx);
static DEFINE_PER_CPU(u32, crem_cost_tick_rx);

/*
 * The start of this packet's sample, or 0 if it is not sampled (the clock
 * never reads 0 once hooks run).  this_cpu_inc_return() is whole in any
 * context; a move to another CPU before cost_end() only moves the sample.
 */
static u64 cost_start(u32 __percpu *tick)
{
	BUILD_BUG_ON(!is_power_of_2(CREM_COST_SAMPLE));
	if (this_cpu_inc_return(*tick) % CREM_COST_SAMPLE)
		return 0;
	return ktime_get_ns();
}

/* Count the sample begun at @start, if any, in @samples and @ns. */
static void cost_end(struct crem_net *cn, u64 start, enum crem_stat samples,
		     enum crem_stat ns)
{
	if (!start)
		return;
	crem_net_stat_add(cn, ns, ktime_get_ns() - start);
	crem_net_stat_inc(cn, samples);
}

static u8 * __percpu *crem_copy;

/* Is @skb UDP to the RoCEv2 port?  Reads headers only. */
static bool is_rocev2(const struct sk_buff *skb, u8 af)
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
	return uh && uh->dest == htons(CREM_ROCEV2_PORT);
}

/*
 * The IP packet of @skb as contiguous bytes: in place if its head holds
 * it, else copied into this CPU's buffer.  That buffer is used only with
 * BHs disabled (in_softirq(): serving a softirq, or BHs off), where no
 * softirq can reuse it on this CPU: the send hook turns them off
 * (crem_tx_timed()); a packet met with BHs on would not be read.
 * The copy is good until the hook hands a packet on into the stack
 * (crem_reinject_flow()), which can reach a hook again: callers use it
 * before that.  NULL if it cannot be read; @stat then says why.
 */
static const u8 *packet_bytes(const struct sk_buff *skb, unsigned int len,
			      enum crem_stat *stat)
{
	unsigned int off = skb_network_offset(skb);
	u8 *buf;

	if (skb_headlen(skb) >= off + len)
		return skb_network_header(skb);
	if (!in_softirq()) {
		*stat = CREM_STAT_NONLINEAR_PASSED;
		return NULL;
	}
	*stat = CREM_STAT_TOO_LONG;
	if (len > CREM_COPY_MAX)
		return NULL;
	buf = *this_cpu_ptr(crem_copy);
	return skb_copy_bits(skb, off, buf, len) ? NULL : buf;
}

static void key_of(const struct crem_roce_pkt *p, u8 role,
		   struct crem_flow_key *key)
{
	crem_flow_key_init(key, role,
			   p->af == 4 ? CREM_AF_INET : CREM_AF_INET6,
			   p->dest_qp, p->src, p->dst);
}

/* The UDP payload of the packet at @ip. */
static const u8 *udp_payload(const u8 *ip, const struct crem_roce_pkt *p,
			     size_t *len)
{
	size_t hl = p->af == 4 ? (ip[0] & 0xf) * 4 : sizeof(struct ipv6hdr);

	*len = p->ip_len - hl - sizeof(struct udphdr);
	return ip + hl + sizeof(struct udphdr);
}

/* A source leaving: its sender flow, made if need be. */
static void csf_source(struct crem_net *cn, const u8 *ip,
		       const struct crem_roce_pkt *p)
{
	const struct crem_cfg *cfg = rcu_dereference(cn->cfg);
	const struct crem_prefix *prefix;
	struct crem_flow_key key;
	struct crem_flow *flow;
	const u8 *payload;
	size_t len;
	bool ended;

	if (!(cfg->role & CREM_ROLE_SENDER))
		return;
	key_of(p, CREM_ROLE_SENDER, &key);
	flow = crem_flow_lookup(cn, &key);
	if (!flow) {
		prefix = crem_cfg_protected(cfg, key.af, p->dst);
		if (!prefix) {
			crem_net_stat_inc(cn, CREM_STAT_UNPROTECTED);
			return;
		}
		flow = crem_flow_new_csf(cn, &key, key.af,
					 prefix->has_peer ? prefix->peer :
							    p->dst,
					 p->psn, cfg->rdma_mtu);
		if (!flow)
			return;
	}
	payload = udp_payload(ip, p, &len);
	spin_lock_bh(&flow->lock);
	if (flow->dead) {
		spin_unlock_bh(&flow->lock);
		return;
	}
	crem_csf_source(&flow->csf, p, payload, len);
	crem_flow_note_ack_range(flow);
	ended = crem_flow_ended(flow);
	spin_unlock_bh(&flow->lock);
	if (ended)
		crem_flow_kill(flow);
}

/* An acknowledgement arriving: for the sender flows it answers. */
static void csf_ack(struct crem_net *cn, const struct crem_roce_pkt *p)
{
	u8 af = p->af == 4 ? CREM_AF_INET : CREM_AF_INET6;
	u32 psn = crem_csf_ack_psn(p);
	struct crem_flow *flow;

	/*
	 * The sender flows of the reverse direction, by their addresses,
	 * and of those only the ones whose PSNs it can name: with many QPs
	 * between two hosts, each acknowledgement (each READ response
	 * packet too) would otherwise take every one of their locks.  The
	 * copy read without the lock never passes over one the engine
	 * takes: its newest PSN is set before the packet with that PSN
	 * leaves this host's send hook, so before any acknowledgement of it
	 * can come; its first PSN only rises as acknowledgements are taken,
	 * and a stale one only widens the range.  It was set before the
	 * flow was published (crem_flow_new_csf()).
	 */
	hash_for_each_possible_rcu(cn->by_pair, flow, by_pair,
				   crem_flow_pair_hash(af, p->dst, p->src)) {
		if (flow->key.role != CREM_ROLE_SENDER || flow->key.af != af ||
		    memcmp(flow->key.src, p->dst, 16) ||
		    memcmp(flow->key.dst, p->src, 16) ||
		    !crem_csf_ack_in_range(atomic64_read(&flow->ack_range),
					   psn))
			continue;
		spin_lock_bh(&flow->lock);
		if (!flow->dead) {
			/* Only the calls that note it change the range. */
			WARN_ON_ONCE(atomic64_read(&flow->ack_range) !=
				     crem_csf_ack_range(&flow->csf));
			crem_csf_rdma_ack(&flow->csf, p);
			crem_flow_note_ack_range(flow);
		}
		spin_unlock_bh(&flow->lock);
	}
}

/*
 * A source arriving for receiver flow @flow: the engine may hold it.  A
 * source it passes while earlier packets of the flow wait to be handed on
 * is kept back behind them (by PSN among those its own call queued).
 * Return: true if stolen.
 */
static bool crf_source(struct crem_flow *flow, struct sk_buff *skb,
		       const struct nf_hook_state *state, nf_hookfn *hook,
		       const u8 *ip, const struct crem_roce_pkt *p)
{
	enum crem_crf_verdict v;
	struct crem_rx_pkt *rec = NULL;
	struct list_head *before;
	const u8 *payload;
	bool stolen = false, ended, queued;
	size_t len;

	payload = udp_payload(ip, p, &len);
	spin_lock_bh(&flow->lock);
	if (flow->dead) {
		spin_unlock_bh(&flow->lock);
		return false;
	}
	crem_rx_learn(flow, skb);
	/* Held packets overdue (a late timer) go before this one. */
	crem_crf_expire_held(&flow->crf, p->psn);
	if (crem_crf_may_hold(&flow->crf, p->psn)) {
		rec = crem_rx_pkt_stolen(flow, skb, p->psn, state, hook,
					 flow->cn);
		if (!rec)
			crem_net_stat_inc(flow->cn, CREM_STAT_RX_PKT_NOMEM);
	}
	/*
	 * What this call queues goes around this packet in PSN order: a
	 * copy restored ahead of a PSN this one shows missing goes first,
	 * held packets it releases after (crem_rx_pkt_place()).
	 */
	before = flow->out.prev;
	v = crem_crf_source(&flow->crf, ip, p, payload, len, rec);
	if (crem_crf_decode_pending(&flow->crf))
		crem_flow_decode_later(flow);
	if (v == CREM_CRF_HOLD) {
		stolen = true;
	} else if (crem_rx_waiting(flow)) {
		if (!rec)
			rec = crem_rx_pkt_stolen(flow, skb, p->psn, state,
						 hook, flow->cn);
		if (rec) {
			crem_rx_pkt_queue(flow, rec,
					  crem_rx_pkt_place(flow, before,
							    p->psn));
			crem_net_stat_inc(flow->cn, CREM_STAT_ORDER_KEPT);
			stolen = true;
		} else {
			crem_net_stat_inc(flow->cn, CREM_STAT_RX_PKT_NOMEM);
		}
	} else if (rec) {
		crem_rx_pkt_discard(flow, rec);
	}
	ended = crem_flow_ended(flow);
	/*
	 * Every path that queues hands on once it has dropped the lock, or
	 * leaves it to the CPU already at it (reinject.h): the lock is taken
	 * again only if something is queued.
	 */
	queued = !list_empty(&flow->out);
	spin_unlock_bh(&flow->lock);
	if (queued)
		crem_reinject_flow(flow);
	if (ended)
		crem_flow_kill(flow);
	return stolen;
}

/* The RoCEv2 packet in @skb (is_rocev2() checked), parsed, or NULL. */
static const u8 *roce_of(struct crem_net *cn, struct sk_buff *skb, u8 af,
			 struct crem_roce_pkt *p)
{
	enum crem_stat why;
	const u8 *ip;

	crem_net_stat_inc(cn, CREM_STAT_ROCE_SEEN);
	if (skb_is_gso(skb)) {
		crem_net_stat_inc(cn, CREM_STAT_GSO_PASSED);
		return NULL;
	}
	ip = packet_bytes(skb, skb->len, &why);
	if (!ip) {
		crem_net_stat_inc(cn, why);
		return NULL;
	}
	if (crem_roce_parse_ip(ip, skb->len, p) != CREM_ROCE_OK) {
		crem_net_stat_inc(cn, CREM_STAT_ROCE_BAD);
		return NULL;
	}
	return ip;
}

static unsigned int crem_rx(struct crem_net *cn, struct sk_buff *skb,
			    const struct nf_hook_state *state, u8 af,
			    nf_hookfn *hook)
{
	struct crem_flow_key key;
	struct crem_roce_pkt p;
	struct crem_flow *flow;
	const u8 *ip;

	/* Restored or held by crem, on its way: it passes. */
	if (crem_reinjecting(skb))
		return NF_ACCEPT;
	ip = roce_of(cn, skb, af, &p);
	if (!ip)
		return NF_ACCEPT;
	if (crem_roce_acknowledges(&p))
		csf_ack(cn, &p);
	if (!crem_roce_is_source(&p))
		return NF_ACCEPT;
	key_of(&p, CREM_ROLE_RECEIVER, &key);
	flow = crem_flow_lookup(cn, &key);
	if (!flow)
		return NF_ACCEPT;
	return crf_source(flow, skb, state, hook, ip, &p) ? NF_STOLEN :
							      NF_ACCEPT;
}

/*
 * The RDMA receiver here asks its peer to send again from a PSN (a NAK
 * for a sequence error, a retried READ request): the receiver flows from
 * that peer follow the resend round it starts and may hand on what they
 * kept of it, each copy behind a later resend
 * (crem_crf_asked_again()).  Found like csf_ack()'s sender flows, by the
 * pair of addresses; the engine only notes the PSN, as the receiver's
 * send path is no place to hand it packets.
 */
static void crf_asked(struct crem_net *cn, const struct crem_roce_pkt *p)
{
	u8 af = p->af == 4 ? CREM_AF_INET : CREM_AF_INET6;
	struct crem_flow *flow;

	hash_for_each_possible_rcu(cn->by_pair, flow, by_pair,
				   crem_flow_pair_hash(af, p->dst, p->src)) {
		/* Its configuration is fixed at its start: no lock to read it. */
		if (flow->key.role != CREM_ROLE_RECEIVER ||
		    !flow->crf.cfg.resend_copies ||
		    flow->key.af != af || memcmp(flow->key.src, p->dst, 16) ||
		    memcmp(flow->key.dst, p->src, 16))
			continue;
		spin_lock_bh(&flow->lock);
		if (!flow->dead)
			crem_crf_asked_again(&flow->crf, p->psn);
		spin_unlock_bh(&flow->lock);
	}
}

static unsigned int crem_tx(struct crem_net *cn, struct sk_buff *skb, u8 af)
{
	struct crem_roce_pkt p;
	const u8 *ip;

	ip = roce_of(cn, skb, af, &p);
	if (!ip)
		return NF_ACCEPT;
	if (crem_roce_asks_again(&p))
		crf_asked(cn, &p);
	if (crem_roce_is_source(&p))
		csf_source(cn, ip, &p);
	return NF_ACCEPT;
}

/* Receive (softirq), a RoCEv2 packet measured now and then. */
static unsigned int crem_rx_timed(struct crem_net *cn, struct sk_buff *skb,
				  const struct nf_hook_state *state, u8 af,
				  nf_hookfn *hook)
{
	unsigned int verdict;
	u64 start;

	if (!is_rocev2(skb, af))
		return NF_ACCEPT;
	start = cost_start(&crem_cost_tick_rx);
	verdict = crem_rx(cn, skb, state, af, hook);
	cost_end(cn, start, CREM_STAT_COST_RX_SAMPLES, CREM_STAT_COST_RX_NS);
	return verdict;
}

static unsigned int crem_rx4(void *priv, struct sk_buff *skb,
			     const struct nf_hook_state *state)
{
	return crem_rx_timed(priv, skb, state, CREM_AF_INET, crem_rx4);
}

static unsigned int crem_rx6(void *priv, struct sk_buff *skb,
			     const struct nf_hook_state *state)
{
	return crem_rx_timed(priv, skb, state, CREM_AF_INET6, crem_rx6);
}

/* Send, a RoCEv2 packet measured now and then. */
static unsigned int crem_tx_timed(struct crem_net *cn, struct sk_buff *skb,
				  u8 af)
{
	unsigned int verdict;
	u64 start;

	if (!is_rocev2(skb, af))
		return NF_ACCEPT;
	/*
	 * BHs off for the whole of crem's work, so that the softirqs it
	 * raises, or that an interrupt raises meanwhile, run after the
	 * sample ends (at local_bh_enable()) rather than at the flow lock's
	 * spin_unlock_bh() inside it: they are not crem's time.
	 */
	local_bh_disable();
	start = cost_start(&crem_cost_tick_tx);
	verdict = crem_tx(cn, skb, af);
	cost_end(cn, start, CREM_STAT_COST_TX_SAMPLES, CREM_STAT_COST_TX_NS);
	local_bh_enable();
	return verdict;
}

static unsigned int crem_tx4(void *priv, struct sk_buff *skb,
			     const struct nf_hook_state *state)
{
	return crem_tx_timed(priv, skb, CREM_AF_INET);
}

static unsigned int crem_tx6(void *priv, struct sk_buff *skb,
			     const struct nf_hook_state *state)
{
	return crem_tx_timed(priv, skb, CREM_AF_INET6);
}

/*
 * Receive first, before defragmentation, raw, conntrack and NAT, so that
 * a held packet going on later is seen by all of them once; send last, so
 * that crem sees the packet as it leaves.
 */
static const struct nf_hook_ops crem_hook_ops[] = {
	{
		.hook = crem_rx4, .pf = NFPROTO_IPV4,
		.hooknum = NF_INET_PRE_ROUTING, .priority = NF_IP_PRI_FIRST,
	},
	{
		.hook = crem_tx4, .pf = NFPROTO_IPV4,
		.hooknum = NF_INET_POST_ROUTING, .priority = NF_IP_PRI_LAST,
	},
	{
		.hook = crem_rx6, .pf = NFPROTO_IPV6,
		.hooknum = NF_INET_PRE_ROUTING, .priority = NF_IP6_PRI_FIRST,
	},
	{
		.hook = crem_tx6, .pf = NFPROTO_IPV6,
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
	if (!cn->hook_ops || cn->hooks_retired)
		return;
	nf_unregister_net_hooks(cn->net, cn->hook_ops,
				ARRAY_SIZE(crem_hook_ops));
	cn->hooks_retired = true;
}

void crem_hooks_free(struct crem_net *cn)
{
	lockdep_assert_held(&cn->cfg_mutex);
	if (!cn->hooks_retired)
		return;
	kfree(cn->hook_ops);
	cn->hook_ops = NULL;
	cn->hooks_retired = false;
}

/**
 * crem_hooks_init() - the per-CPU copy buffers of nonlinear packets
 *
 * Context: process, module init.  Return: 0 or -ENOMEM.
 */
int __init crem_hooks_init(void)
{
	unsigned int cpu;

	crem_copy = alloc_percpu(u8 *);
	if (!crem_copy)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		u8 *buf = kmalloc(CREM_COPY_MAX, GFP_KERNEL);

		if (!buf) {
			crem_hooks_exit();
			return -ENOMEM;
		}
		*per_cpu_ptr(crem_copy, cpu) = buf;
	}
	return 0;
}

/* Context: process, module exit, with no hook registered. */
void crem_hooks_exit(void)
{
	unsigned int cpu;

	if (!crem_copy)
		return;
	for_each_possible_cpu(cpu)
		kfree(*per_cpu_ptr(crem_copy, cpu));
	free_percpu(crem_copy);
	crem_copy = NULL;
}
