// SPDX-License-Identifier: GPL-2.0
/*
 * Per network namespace state: creation, lookup and counters.
 */
#include <linux/percpu.h>
#include <linux/slab.h>
#include <net/netns/generic.h>

#include "flow.h"
#include "hooks.h"
#include "netns.h"
#include "sock.h"

static unsigned int crem_net_id __read_mostly;

/**
 * crem_net() - crem's state in a namespace
 * @net: a namespace that is alive
 *
 * Context: any.  The state lives as long as @net does.
 * Return: the namespace's state, never NULL.
 */
struct crem_net *crem_net(const struct net *net)
{
	return net_generic(net, crem_net_id);
}

/**
 * crem_net_stat_inc() - count one event
 * @cn: namespace state
 * @stat: counter to increment
 *
 * Context: any, including hard interrupts.
 */
void crem_net_stat_inc(struct crem_net *cn, enum crem_stat stat)
{
	struct crem_pcpu_stats *s;
	unsigned long flags;

	if (WARN_ON_ONCE(stat >= CREM_STAT_COUNT))
		return;
	s = get_cpu_ptr(cn->stats);
	flags = u64_stats_update_begin_irqsave(&s->syncp);
	u64_stats_inc(&s->counter[stat]);
	u64_stats_update_end_irqrestore(&s->syncp, flags);
	put_cpu_ptr(cn->stats);
}

/**
 * crem_net_stats_read() - sum the counters over all CPUs
 * @cn: namespace state
 * @values: filled with one sum per counter
 *
 * Context: any.  Each counter is read consistently; the set is a snapshot
 * only per counter, not across counters.
 */
void crem_net_stats_read(const struct crem_net *cn,
			 u64 values[CREM_STAT_COUNT])
{
	unsigned int cpu, i, start;

	memset(values, 0, sizeof(u64) * CREM_STAT_COUNT);
	for_each_possible_cpu(cpu) {
		const struct crem_pcpu_stats *s = per_cpu_ptr(cn->stats, cpu);
		u64 snap[CREM_STAT_COUNT];

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			for (i = 0; i < CREM_STAT_COUNT; i++)
				snap[i] = u64_stats_read(&s->counter[i]);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		for (i = 0; i < CREM_STAT_COUNT; i++)
			values[i] += snap[i];
	}
}

/**
 * crem_net_wire_inc() - count one CREM datagram by its parse result
 * @cn: namespace state
 * @reason: enum crem_wire_reason
 *
 * Context: softirq (the CREM socket's receive).
 */
void crem_net_wire_inc(struct crem_net *cn, unsigned int reason)
{
	struct crem_wire_pcpu *w;

	if (WARN_ON_ONCE(reason >= CREM_WIRE_NR_REASONS))
		return;
	w = get_cpu_ptr(cn->wire);
	u64_stats_update_begin(&w->syncp);
	u64_stats_inc(&w->result[reason]);
	u64_stats_update_end(&w->syncp);
	put_cpu_ptr(cn->wire);
}

void crem_net_wire_read(const struct crem_net *cn,
			u64 values[CREM_WIRE_NR_REASONS])
{
	unsigned int cpu, i, start;

	memset(values, 0, sizeof(u64) * CREM_WIRE_NR_REASONS);
	for_each_possible_cpu(cpu) {
		const struct crem_wire_pcpu *w = per_cpu_ptr(cn->wire, cpu);
		u64 snap[CREM_WIRE_NR_REASONS];

		do {
			start = u64_stats_fetch_begin(&w->syncp);
			for (i = 0; i < CREM_WIRE_NR_REASONS; i++)
				snap[i] = u64_stats_read(&w->result[i]);
		} while (u64_stats_fetch_retry(&w->syncp, start));
		for (i = 0; i < CREM_WIRE_NR_REASONS; i++)
			values[i] += snap[i];
	}
}

void crem_net_mem_limits(struct crem_net *cn, u64 *net, u64 *flow)
{
	const struct crem_cfg *cfg;

	rcu_read_lock();
	cfg = rcu_dereference(cn->cfg);
	*net = cfg->mem_limit;
	*flow = cfg->flow_mem_limit;
	rcu_read_unlock();
}

/**
 * crem_net_apply() - publish a configuration and act on it
 * @cn: namespace state
 * @new: the configuration; crem takes it (freed on error too)
 * @extack: for the error message
 *
 * The socket follows the port (none while it is 0: there is no default),
 * the hooks follow "enabled with a port"; disabling ends every flow.
 *
 * Context: process, with @cn->cfg_mutex held.
 * Return: 0, or -errno with @extack set; the old configuration stays.
 */
int crem_net_apply(struct crem_net *cn, struct crem_cfg *new,
		   struct netlink_ext_ack *extack)
{
	struct crem_cfg *old = rcu_dereference_protected(cn->cfg,
			lockdep_is_held(&cn->cfg_mutex));
	bool active = new->enabled && new->port;
	int err;

	lockdep_assert_held(&cn->cfg_mutex);
	if (new->port != old->port || !active) {
		crem_hooks_unregister(cn);
		crem_sock_close(cn);
		crem_flows_flush(cn);
		if (new->port) {
			err = crem_sock_open(cn, new->port, extack);
			if (err) {
				kfree(new);
				/* the old port is gone: crem is off */
				new = kmemdup(old, sizeof(*old), GFP_KERNEL);
				if (new) {
					new->port = 0;
					rcu_assign_pointer(cn->cfg, new);
					kfree_rcu(old, rcu);
				}
				return err;
			}
		}
	}
	if (active) {
		err = crem_hooks_register(cn);
		if (err) {
			NL_SET_ERR_MSG(extack, "cannot register the hooks");
			kfree(new);
			return err;
		}
	}
	rcu_assign_pointer(cn->cfg, new);
	kfree_rcu(old, rcu);
	return 0;
}

static int __net_init crem_net_init(struct net *net)
{
	struct crem_net *cn = crem_net(net);
	struct crem_cfg *cfg;
	int cpu;

	cn->net = net;
	mutex_init(&cn->cfg_mutex);
	spin_lock_init(&cn->hello_lock);
	skb_queue_head_init(&cn->hellos);
	INIT_WORK(&cn->hello_work, crem_sock_hello_work);
	crem_flows_init(cn);
	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	cn->stats = alloc_percpu(struct crem_pcpu_stats);
	cn->wire = alloc_percpu(struct crem_wire_pcpu);
	if (!cfg || !cn->stats || !cn->wire) {
		kfree(cfg);
		free_percpu(cn->stats);
		free_percpu(cn->wire);
		return -ENOMEM;
	}
	crem_cfg_default(cfg);
	RCU_INIT_POINTER(cn->cfg, cfg);
	for_each_possible_cpu(cpu) {
		u64_stats_init(&per_cpu_ptr(cn->stats, cpu)->syncp);
		u64_stats_init(&per_cpu_ptr(cn->wire, cpu)->syncp);
	}
	return 0;
}

/*
 * Teardown, in order: no new packets (hooks), no new messages (socket),
 * then every flow ends (their work and timers finish), then no HELLO
 * waits, then the memory.
 */
static void __net_exit crem_net_exit(struct net *net)
{
	struct crem_net *cn = crem_net(net);

	mutex_lock(&cn->cfg_mutex);
	crem_hooks_unregister(cn);
	crem_sock_close(cn);
	mutex_unlock(&cn->cfg_mutex);
	crem_flows_exit(cn);
	cancel_work_sync(&cn->hello_work);
	skb_queue_purge(&cn->hellos);
	kfree(rcu_dereference_protected(cn->cfg, true));
	free_percpu(cn->stats);
	free_percpu(cn->wire);
	cn->stats = NULL;
	cn->wire = NULL;
}

static struct pernet_operations crem_net_ops = {
	.init = crem_net_init,
	.exit = crem_net_exit,
	.id = &crem_net_id,
	.size = sizeof(struct crem_net),
};

/**
 * crem_netns_init() - give every namespace, present and future, its state
 *
 * Context: process, module init.
 * Return: 0 or a negative errno.
 */
int __init crem_netns_init(void)
{
	return register_pernet_subsys(&crem_net_ops);
}

/**
 * crem_netns_exit() - free the state of every namespace
 *
 * Context: process, module exit, after every user of the state is gone.
 */
void crem_netns_exit(void)
{
	unregister_pernet_subsys(&crem_net_ops);
}
