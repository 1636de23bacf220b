// SPDX-License-Identifier: GPL-2.0
/*
 * Packets going back into the stack (see reinject.h).
 */
#include <linux/if_vlan.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/slab.h>

#include "env.h"
#include "netns.h"
#include "reinject.h"

static struct kmem_cache *crem_rx_pkt_cache;

/*
 * The skb this CPU is handing on, so that crem's own hook lets it pass.
 * Set and cleared around a synchronous call with BHs off.
 */
static DEFINE_PER_CPU(const struct sk_buff *, crem_handing_on);

bool crem_reinjecting(const struct sk_buff *skb)
{
	return __this_cpu_read(crem_handing_on) == skb;
}

static struct crem_rx_pkt *rx_pkt_new(struct crem_flow *flow,
				      struct sk_buff *skb,
				      struct net_device *dev)
{
	struct crem_rx_pkt *rec;

	lockdep_assert_held(&flow->lock);
	rec = kmem_cache_zalloc(crem_rx_pkt_cache, GFP_ATOMIC | __GFP_NOWARN);
	if (!rec)
		return NULL;
	/* A packet crem keeps is memory it uses (security.rst). */
	rec->charge = skb->truesize + sizeof(*rec);
	if (!crem_env_charge_skb(flow, rec->charge)) {
		kmem_cache_free(crem_rx_pkt_cache, rec);
		return NULL;
	}
	rec->cn = flow->cn;
	rec->stranger = flow->stranger;
	rec->skb = skb;
	rec->net = flow->cn->net;
	rec->dev = dev;
	netdev_hold(dev, &rec->tracker, GFP_ATOMIC);
	INIT_LIST_HEAD(&rec->out);
	list_add_tail(&rec->all, &flow->rx_pkts);
	return rec;
}

static void rx_pkt_free(struct crem_rx_pkt *rec)
{
	crem_env_uncharge_skb(rec->cn, rec->stranger, rec->charge);
	netdev_put(rec->dev, &rec->tracker);
	kmem_cache_free(crem_rx_pkt_cache, rec);
}

struct crem_rx_pkt *crem_rx_pkt_stolen(struct crem_flow *flow,
				       struct sk_buff *skb, u32 psn,
				       const struct nf_hook_state *state,
				       nf_hookfn *hook, void *priv)
{
	struct crem_rx_pkt *rec = rx_pkt_new(flow, skb, state->in);

	if (!rec)
		return NULL;
	rec->psn = psn;
	rec->okfn = state->okfn;
	rec->pf = state->pf;
	rec->hook = hook;
	rec->hook_priv = priv;
	return rec;
}

void crem_rx_pkt_queue(struct crem_flow *flow, struct crem_rx_pkt *rec,
		       struct list_head *after)
{
	lockdep_assert_held(&flow->lock);
	if (after)
		list_add(&rec->out, after);
	else
		list_add_tail(&rec->out, &flow->out);
}

struct list_head *crem_rx_pkt_place(struct crem_flow *flow,
				    struct list_head *after, u32 psn)
{
	struct list_head *at = after, *n;

	lockdep_assert_held(&flow->lock);
	for (n = after->next; n != &flow->out; n = n->next) {
		if (!crem_psn_before(list_entry(n, struct crem_rx_pkt, out)->psn,
				     psn))
			break;
		at = n;
	}
	return at;
}

void crem_rx_pkt_discard(struct crem_flow *flow, struct crem_rx_pkt *rec)
{
	lockdep_assert_held(&flow->lock);
	list_del(&rec->all);
	rx_pkt_free(rec);
}

void crem_rx_learn(struct crem_flow *flow, const struct sk_buff *skb)
{
	struct crem_rx_path *rx = &flow->rx;
	unsigned int l2 = skb->data - skb_mac_header(skb);

	lockdep_assert_held(&flow->lock);
	if (rx->dev != skb->dev) {
		netdev_put(rx->dev, &rx->tracker);
		rx->dev = skb->dev;
		netdev_hold(rx->dev, &rx->tracker, GFP_ATOMIC);
	}
	rx->protocol = skb->protocol;
	rx->pkt_type = skb->pkt_type;
	rx->vlan_proto = skb_vlan_tag_present(skb) ? skb->vlan_proto : 0;
	rx->vlan_tci = skb_vlan_tag_get(skb);
	if (!skb_mac_header_was_set(skb) || l2 > CREM_FLOW_L2_MAX) {
		rx->l2_len = 0;
		return;
	}
	if (rx->l2_len != l2 || memcmp(rx->l2, skb_mac_header(skb), l2)) {
		rx->l2_len = l2;
		memcpy(rx->l2, skb_mac_header(skb), l2);
	}
}

void crem_rx_forget(struct crem_flow *flow)
{
	lockdep_assert_held(&flow->lock);
	netdev_put(flow->rx.dev, &flow->rx.tracker);
	flow->rx.dev = NULL;
}

/* The PSN of a packet the engine built (crem_restore_ip()): checked. */
static u32 restored_psn(const u8 *ip, size_t len)
{
	struct crem_roce_pkt p;

	return crem_roce_parse_ip(ip, len, &p) == CREM_ROCE_OK ? p.psn : 0;
}

void crem_rx_restored(struct crem_flow *flow, const u8 *ip, size_t len)
{
	struct crem_rx_path *rx = &flow->rx;
	struct crem_net *cn = flow->cn;
	struct crem_rx_pkt *rec;
	struct sk_buff *skb;

	lockdep_assert_held(&flow->lock);
	if (!rx->dev) {
		crem_net_stat_inc(cn, CREM_STAT_INJECT_NO_DEV);
		return;
	}
	skb = alloc_skb(LL_MAX_HEADER + CREM_FLOW_L2_MAX + len, GFP_ATOMIC);
	if (!skb) {
		crem_net_stat_inc(cn, CREM_STAT_RESTORE_NOMEM);
		return;
	}
	skb_reserve(skb, LL_MAX_HEADER + CREM_FLOW_L2_MAX);
	skb_put_data(skb, ip, len);
	skb_reset_network_header(skb);
	/* The link-layer header its flow's sources came with. */
	memcpy(skb_push(skb, rx->l2_len), rx->l2, rx->l2_len);
	skb_reset_mac_header(skb);
	skb_pull(skb, rx->l2_len);
	skb->protocol = rx->protocol;
	skb->pkt_type = rx->pkt_type;
	if (rx->vlan_proto)
		__vlan_hwaccel_put_tag(skb, rx->vlan_proto, rx->vlan_tci);
	/* Byte for byte what was sent: the stack checks it as it would. */
	skb->ip_summed = CHECKSUM_NONE;
	rec = rx_pkt_new(flow, skb, rx->dev);
	if (!rec) {
		kfree_skb(skb);
		crem_net_stat_inc(cn, CREM_STAT_RESTORE_NOMEM);
		return;
	}
	rec->psn = restored_psn(ip, len);
	skb->dev = rx->dev;
	crem_rx_pkt_queue(flow, rec, NULL);
}

/*
 * A held packet goes on with the PRE_ROUTING hooks after crem's, then its
 * continuation; if crem's hook is gone (crem stopping), with all of them:
 * crem's runs first, so none of them has seen it.
 */
static void continue_hooks(struct crem_rx_pkt *rec)
{
	const struct nf_hook_entries *e;
	struct nf_hook_state state;
	unsigned int i, from = 0;
	int ret = 1;

	if (rec->pf == NFPROTO_IPV4)
		e = rcu_dereference(rec->net->nf.hooks_ipv4[NF_INET_PRE_ROUTING]);
	else
		e = rcu_dereference(rec->net->nf.hooks_ipv6[NF_INET_PRE_ROUTING]);
	if (e) {
		for (i = 0; i < e->num_hook_entries; i++)
			if (e->hooks[i].hook == rec->hook &&
			    e->hooks[i].priv == rec->hook_priv) {
				from = i + 1;
				break;
			}
		nf_hook_state_init(&state, NF_INET_PRE_ROUTING, rec->pf,
				   rec->dev, NULL, NULL, rec->net, rec->okfn);
		if (from < e->num_hook_entries)
			ret = nf_hook_slow(rec->skb, &state, e, from);
	}
	if (ret == 1)
		rec->okfn(rec->net, NULL, rec->skb);
}

/* Hand one packet on, or drop it if its device or continuation went. */
static void hand_on(struct crem_net *cn, struct crem_rx_pkt *rec)
{
	struct sk_buff *skb = rec->skb;
	const struct sk_buff *prev;

	rcu_read_lock();
	if (rec->drop || !rec->dev || !netif_running(rec->dev) ||
	    dev_net(rec->dev) != rec->net) {
		rcu_read_unlock();
		crem_net_stat_inc(cn, CREM_STAT_HANDOFF_DEV_GONE);
		kfree_skb(skb);
		rx_pkt_free(rec);
		return;
	}
	prev = __this_cpu_read(crem_handing_on);
	__this_cpu_write(crem_handing_on, skb);
	if (rec->okfn) {
		crem_net_stat_inc(cn, CREM_STAT_HELD_REINJECTED);
		continue_hooks(rec);
	} else {
		crem_net_stat_inc(cn, CREM_STAT_RESTORED_INJECTED);
		netif_receive_skb_core(skb);
	}
	__this_cpu_write(crem_handing_on, prev);
	rcu_read_unlock();
	rx_pkt_free(rec);
}

void crem_reinject_flow(struct crem_flow *flow)
{
	struct crem_rx_pkt *rec, *tmp;
	LIST_HEAD(batch);

	/*
	 * BHs stay off from the first packet to the last: the stack's receive
	 * path expects it, and the caller can be neither preempted nor held
	 * up by softirqs while packets of the flow on other CPUs queue behind
	 * handing_on (they would wait past H).
	 */
	local_bh_disable();
	spin_lock(&flow->lock);
	if (flow->handing_on || list_empty(&flow->out)) {
		spin_unlock(&flow->lock);
		local_bh_enable();
		return;
	}
	flow->handing_on = true;
	while (!list_empty(&flow->out)) {
		list_splice_init(&flow->out, &batch);
		list_for_each_entry(rec, &batch, out)
			list_del(&rec->all);
		spin_unlock(&flow->lock);
		list_for_each_entry_safe(rec, tmp, &batch, out) {
			list_del(&rec->out);
			hand_on(flow->cn, rec);
		}
		spin_lock(&flow->lock);
	}
	flow->handing_on = false;
	spin_unlock(&flow->lock);
	local_bh_enable();
}

/* ---- devices and modules that go -------------------------------------- */

/*
 * Drop @flow's references to @dev, and let its held packets go at once:
 * those of @dev are then dropped, not kept until H or the flow's end.
 * Return: whether @flow had anything of @dev.  Caller holds the flow's
 * lock.
 */
static bool flow_dev_gone(struct crem_flow *flow, struct net_device *dev)
{
	struct crem_rx_pkt *rec;
	bool had = false;

	if (flow->rx.dev == dev) {
		crem_rx_forget(flow);
		had = true;
	}
	list_for_each_entry(rec, &flow->rx_pkts, all) {
		if (rec->dev != dev)
			continue;
		netdev_put(dev, &rec->tracker);
		rec->dev = NULL;
		rec->skb->dev = NULL;
		had = true;
	}
	if (had && flow->key.role == CREM_ROLE_RECEIVER && flow->engine_up &&
	    !flow->dead)
		crem_crf_release_held(&flow->crf);
	return had;
}

static int crem_netdev_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct crem_net *cn;
	struct crem_flow *flow;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	cn = crem_net(dev_net(dev));
	rcu_read_lock();
	list_for_each_entry_rcu(flow, &cn->flows, list) {
		bool had;

		spin_lock_bh(&flow->lock);
		had = flow_dev_gone(flow, dev);
		spin_unlock_bh(&flow->lock);
		if (had)
			crem_reinject_flow(flow);
	}
	rcu_read_unlock();
	return NOTIFY_DONE;
}

static struct notifier_block crem_netdev_notifier = {
	.notifier_call = crem_netdev_event,
};

/* Held packets whose continuation is in @mod are dropped. */
static int crem_module_event(struct notifier_block *nb, unsigned long state,
			     void *data)
{
	struct module *mod = data;
	struct crem_rx_pkt *rec;
	struct crem_flow *flow;
	struct net *net;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	down_read(&net_rwsem);
	for_each_net(net) {
		struct crem_net *cn = crem_net(net);

		rcu_read_lock();
		list_for_each_entry_rcu(flow, &cn->flows, list) {
			spin_lock_bh(&flow->lock);
			list_for_each_entry(rec, &flow->rx_pkts, all)
				if (rec->okfn &&
				    within_module((unsigned long)rec->okfn,
						  mod))
					rec->drop = true;
			spin_unlock_bh(&flow->lock);
		}
		rcu_read_unlock();
	}
	up_read(&net_rwsem);
	return NOTIFY_DONE;
}

static struct notifier_block crem_module_notifier = {
	.notifier_call = crem_module_event,
};

/**
 * crem_reinject_init() - the cache of packet records
 *
 * Context: process, module init, before any flow can exist.
 * Return: 0 or -ENOMEM.
 */
int __init crem_reinject_init(void)
{
	crem_rx_pkt_cache = KMEM_CACHE(crem_rx_pkt, 0);
	return crem_rx_pkt_cache ? 0 : -ENOMEM;
}

/**
 * crem_reinject_start() - react to devices and modules that go
 *
 * Context: process, module init, once every namespace has its state (the
 * notifiers walk their flows).  Return: 0 or -errno.
 */
int __init crem_reinject_start(void)
{
	int err;

	err = register_netdevice_notifier(&crem_netdev_notifier);
	if (err)
		return err;
	err = register_module_notifier(&crem_module_notifier);
	if (err)
		unregister_netdevice_notifier(&crem_netdev_notifier);
	return err;
}

/**
 * crem_reinject_stop() - no more device and module events
 *
 * Unregistering replays NETDEV_UNREGISTER for every device, which walks
 * the namespaces' flows: it must come before their state goes.  Flows
 * that still end meanwhile hold their device references for as long as
 * that takes, no more.
 *
 * Context: process, module exit, after every namespace is stopped.
 */
void crem_reinject_stop(void)
{
	unregister_module_notifier(&crem_module_notifier);
	unregister_netdevice_notifier(&crem_netdev_notifier);
}

/* Context: process, module exit, after every flow is freed. */
void crem_reinject_exit(void)
{
	kmem_cache_destroy(crem_rx_pkt_cache);
}
