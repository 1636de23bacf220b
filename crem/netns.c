// SPDX-License-Identifier: GPL-2.0
/*
 * Per network namespace state: creation, lookup and counters.
 */
#include <linux/percpu.h>
#include <net/netns/generic.h>

#include "netns.h"

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

static int __net_init crem_net_init(struct net *net)
{
	struct crem_net *cn = crem_net(net);
	int cpu;

	cn->net = net;
	cn->stats = alloc_percpu(struct crem_pcpu_stats);
	if (!cn->stats)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(cn->stats, cpu)->syncp);
	return 0;
}

static void __net_exit crem_net_exit(struct net *net)
{
	struct crem_net *cn = crem_net(net);

	free_percpu(cn->stats);
	cn->stats = NULL;
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
