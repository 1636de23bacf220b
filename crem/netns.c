// SPDX-License-Identifier: GPL-2.0
/*
 * Per network namespace state: creation, counters, switching crem on and
 * off, and teardown.
 *
 * Stopping a namespace (crem_net_stop()) is one order, wherever it comes
 * from - disabling, a new port, rmmod, the namespace going:
 *   1. the hooks go: no new packet reaches a flow;
 *   2. every flow says CLOSE to its peer (draft reason 0, one message
 *      each, best effort) and ends; held packets go on;
 *   3. the socket's receive stops reaching crem (its user data goes);
 *   4. after an RCU grace period - the namespace core's own, batched for
 *      every namespace going at once, or synchronize_net() for a change
 *      made at run time - the socket is released and the hook memory
 *      freed.
 * The namespace's memory is freed only when its last flow object is
 * (flows_alive), so no exit waits for other namespaces' work.
 */
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/netns/generic.h>

#include "env.h"
#include "flow.h"
#include "flowtable.h"
#include "hooks.h"
#include "netns.h"
#include "receive.h"
#include "socket.h"

static unsigned int crem_net_id __read_mostly;
static bool crem_going;

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

bool crem_unloading(void)
{
	return READ_ONCE(crem_going);
}

/**
 * crem_net_stat_add() - add @n to a counter
 * @cn: namespace state
 * @stat: counter to raise
 * @n: by how much (an event count, or nanoseconds)
 *
 * Context: any, including hard interrupts.
 */
void crem_net_stat_add(struct crem_net *cn, enum crem_stat stat,
		       unsigned long n)
{
	struct crem_pcpu_stats *s;
	unsigned long flags;

	if (WARN_ON_ONCE(stat >= CREM_STAT_COUNT))
		return;
	s = get_cpu_ptr(cn->stats);
	flags = u64_stats_update_begin_irqsave(&s->syncp);
	u64_stats_add(&s->counter[stat], n);
	u64_stats_update_end_irqrestore(&s->syncp, flags);
	put_cpu_ptr(cn->stats);
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
	crem_net_stat_add(cn, stat, 1);
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

/* Steps 1 to 3 of the stop order.  Context: process, under cfg_mutex. */
static void crem_net_stop(struct crem_net *cn)
{
	lockdep_assert_held(&cn->cfg_mutex);
	crem_hooks_unregister(cn);
	crem_flows_end_all(cn, CREM_CLOSE_NORMAL);
	crem_socket_unpublish(cn);
}

/* Step 4, a grace period after crem_net_stop().  Under cfg_mutex. */
static void crem_net_stopped(struct crem_net *cn)
{
	lockdep_assert_held(&cn->cfg_mutex);
	crem_socket_release(cn);
	crem_hooks_free(cn);
}

/*
 * From now on the namespace's memory is charged to the memory cgroup of
 * whoever configures it.  Called while no allocation can run for it (the
 * namespace stopped, and a grace period passed).
 */
static void charge_to_current(struct crem_net *cn)
{
	struct mem_cgroup *old;

	lockdep_assert_held(&cn->cfg_mutex);
	old = rcu_replace_pointer(cn->memcg, get_mem_cgroup_from_mm(current->mm),
				  lockdep_is_held(&cn->cfg_mutex));
	mem_cgroup_put(old);
	/* Buffers charged to the old one are not kept for new flows. */
	crem_env_pool_new_epoch(cn);
}

/**
 * crem_net_apply() - publish a configuration and act on it
 * @cn: namespace state
 * @new: the configuration; crem takes it (freed on error too)
 * @extack: for the error message
 *
 * The socket follows the port (none while it is 0: there is no default),
 * the hooks follow "enabled with a port"; a new port, or disabling, stops
 * the namespace first (every flow ends, with CLOSE to its peer).
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
		crem_net_stop(cn);
		synchronize_net();
		crem_net_stopped(cn);
		charge_to_current(cn);
		spin_lock_bh(&cn->flows_lock);
		cn->closing = false;
		spin_unlock_bh(&cn->flows_lock);
		if (new->port) {
			err = crem_socket_open(cn, new->port,
					       crem_receive_datagram, extack);
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
	crem_flowtable_init(cn);
	atomic_set(&cn->flows_alive, 0);
	spin_lock_init(&cn->pool_lock);
	spin_lock_init(&cn->admit_lock);
	crem_paths_init(&cn->paths);
	crem_admit_init(&cn->hello_admit, get_random_u64(), 64);
	crem_admit_init(&cn->peer_hello_admit, get_random_u64(), 128);
	crem_admit_init(&cn->close_admit, get_random_u64(), 128);
	crem_admit_init(&cn->peer_close_admit, get_random_u64(), 128);
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
 * The namespace is going: steps 1 to 3 now, while its devices are still
 * there (flows end with CLOSE, held packets go on), before the core's
 * grace period that covers every namespace of the batch.
 */
static void __net_exit crem_net_pre_exit(struct net *net)
{
	struct crem_net *cn = crem_net(net);

	mutex_lock(&cn->cfg_mutex);
	crem_net_stop(cn);
	mutex_unlock(&cn->cfg_mutex);
}

/* Step 4, and the memory once the last flow object is gone. */
static void __net_exit crem_net_exit(struct net *net)
{
	struct crem_net *cn = crem_net(net);

	mutex_lock(&cn->cfg_mutex);
	crem_net_stopped(cn);
	mutex_unlock(&cn->cfg_mutex);
	wait_var_event(&cn->flows_alive, !atomic_read(&cn->flows_alive));
	crem_env_pool_drain(cn);
	WARN_ON_ONCE(atomic64_read(&cn->mem));
	mem_cgroup_put(rcu_dereference_protected(cn->memcg, true));
	kfree(rcu_dereference_protected(cn->cfg, true));
	free_percpu(cn->stats);
	free_percpu(cn->wire);
	cn->stats = NULL;
	cn->wire = NULL;
}

static struct pernet_operations crem_net_ops = {
	.init = crem_net_init,
	.pre_exit = crem_net_pre_exit,
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
 * crem_netns_stop_all() - stop crem in every namespace, before unloading
 *
 * Every namespace is stopped (its flows end with CLOSE, and with flow-down
 * events while the netlink family is still there), and none can be
 * switched on again (crem_unloading()).  The states stay until
 * crem_netns_exit().
 *
 * Context: process, module exit, before the netlink family goes.
 */
void crem_netns_stop_all(void)
{
	struct net *net;

	WRITE_ONCE(crem_going, true);
	/* No namespace comes or goes meanwhile. */
	down_read(&net_rwsem);
	for_each_net(net) {
		struct crem_net *cn = crem_net(net);

		mutex_lock(&cn->cfg_mutex);
		crem_net_stop(cn);
		mutex_unlock(&cn->cfg_mutex);
	}
	/* One grace period for all of them. */
	synchronize_net();
	for_each_net(net) {
		struct crem_net *cn = crem_net(net);

		mutex_lock(&cn->cfg_mutex);
		crem_net_stopped(cn);
		mutex_unlock(&cn->cfg_mutex);
	}
	up_read(&net_rwsem);
}

/**
 * crem_netns_exit() - free the state of every namespace
 *
 * Context: process, module exit, after crem_netns_stop_all() and after
 * the netlink family is gone: nothing can reach the states any more.
 */
void crem_netns_exit(void)
{
	unregister_pernet_subsys(&crem_net_ops);
}
