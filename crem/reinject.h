/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packets going back into the stack: the sources a receiver flow held (or
 * kept back so as not to overtake them), and the packets it restored.
 *
 * A held packet was stolen by crem's PRE_ROUTING hook, which runs before
 * every other (conntrack, raw, mangle, NAT): it goes on from the hook after
 * crem's, with the continuation and input device of its own hook call, so
 * that nothing after crem sees it twice or misses it.  A restored packet
 * never crossed the stack: it enters at the device its flow's sources
 * arrive on, with their link-layer header, as if from the wire - taps, tc,
 * bridges and conntrack see it once; crem's own hook lets it pass.
 *
 * Each such packet has a record (struct crem_rx_pkt) that holds a tracked
 * reference to its device.  When a device goes (NETDEV_UNREGISTER, or
 * moving to another namespace), the references are dropped at once and
 * the packets are dropped when their turn comes; when the module that owns
 * a held packet's continuation goes, that packet is dropped too.
 *
 * Order: a flow's packets are handed on in the engine's order by one CPU
 * at a time (crem_reinject_flow()); a source that arrives while any are
 * waiting is kept back behind them, and among what its own engine call
 * queued it takes its place by PSN (crem_rx_pkt_place()).
 *
 * Locking: records are created, queued and listed under the flow's lock;
 * they are handed on without it, by whoever queued them, once it has
 * dropped the lock (or by the CPU already handing on): the receive hook
 * relies on it and takes the lock again only when something is queued.
 */
#ifndef CREM_REINJECT_H
#define CREM_REINJECT_H

#include <linux/netfilter.h>

#include "flow.h"

/* What follows a netfilter hook: where a held packet goes on. */
typedef int (*crem_okfn_t)(struct net *net, struct sock *sk,
			   struct sk_buff *skb);

struct crem_rx_pkt {
	struct list_head out;		/* crem_flow.out, once queued */
	struct list_head all;		/* crem_flow.rx_pkts until handed on */
	struct sk_buff *skb;
	struct net *net;
	struct net_device *dev;		/* NULL once the device went */
	netdevice_tracker tracker;
	crem_okfn_t okfn;		/* NULL: restored, enters at @dev */
	nf_hookfn *hook;		/* crem's hook it was stolen by */
	void *hook_priv;
	struct crem_net *cn;		/* charged @charge (mem_bytes) */
	unsigned int charge;
	bool stranger;			/* to the strangers' share too */
	u8 pf;
	bool drop;			/* its continuation's module went */
	u32 psn;			/* its BTH's, for crem_rx_pkt_place() */
};

int crem_reinject_init(void);
int crem_reinject_start(void);
void crem_reinject_stop(void);
void crem_reinject_exit(void);

/*
 * A record for @skb, whose BTH carries @psn, stolen by crem's @hook (with
 * @priv) in the hook call @state.  Caller holds the flow's lock.  Return:
 * NULL without memory.
 */
struct crem_rx_pkt *crem_rx_pkt_stolen(struct crem_flow *flow,
				       struct sk_buff *skb, u32 psn,
				       const struct nf_hook_state *state,
				       nf_hookfn *hook, void *priv);

/*
 * Where a source of PSN @psn goes among the records queued after @after
 * (by the engine call that took it): behind the leading run of earlier
 * PSNs, ahead of the rest, as a go-back-N RDMA receiver must see them.
 * Caller holds the flow's lock.  Return: the entry to queue it after.
 */
struct list_head *crem_rx_pkt_place(struct crem_flow *flow,
				    struct list_head *after, u32 psn);

/*
 * Queue @rec to be handed on: after @after (a record queued before, or
 * the queue itself for the front), or at the end if @after is NULL.
 * Caller holds the flow's lock, and calls crem_reinject_flow() once it
 * has dropped it: nobody else hands on what it queued.
 */
void crem_rx_pkt_queue(struct crem_flow *flow, struct crem_rx_pkt *rec,
		       struct list_head *after);

/* Drop a record that was never queued.  Caller holds the flow's lock. */
void crem_rx_pkt_discard(struct crem_flow *flow, struct crem_rx_pkt *rec);

/*
 * Queue a restored IP packet, to enter at the flow's device.  Caller holds
 * the flow's lock, and calls crem_reinject_flow() once it has dropped it.
 */
void crem_rx_restored(struct crem_flow *flow, const u8 *ip, size_t len);

/* Learn the flow's device and link-layer header from source @skb. */
void crem_rx_learn(struct crem_flow *flow, const struct sk_buff *skb);

/* Forget the flow's device (it ends).  Caller holds the flow's lock. */
void crem_rx_forget(struct crem_flow *flow);

/*
 * Hand the flow's queued packets to the stack, in order.  If another CPU
 * is at it, it takes these too.  Context: softirq or process; the flow's
 * lock not held.
 */
void crem_reinject_flow(struct crem_flow *flow);

/* Is @skb one crem is handing on right now (its hook lets it pass)? */
bool crem_reinjecting(const struct sk_buff *skb);

/* Are packets of the flow waiting to be handed on?  Under its lock. */
static inline bool crem_rx_waiting(const struct crem_flow *flow)
{
	return flow->handing_on || !list_empty(&flow->out);
}

#endif /* CREM_REINJECT_H */
