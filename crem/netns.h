/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per network namespace state.
 *
 * Lifetime: a struct crem_net is created with its namespace (or at module
 * load for namespaces that already exist) and freed after the namespace's
 * exit, when no netlink request of that namespace can still run: the core
 * calls pernet exit only after the namespace's sockets are gone.
 */
#ifndef CREM_NETNS_H
#define CREM_NETNS_H

#include <linux/u64_stats_sync.h>
#include <net/net_namespace.h>

#include "core/stats.h"

struct crem_pcpu_stats {
	u64_stats_t counter[CREM_STAT_COUNT];
	struct u64_stats_sync syncp;
};

/**
 * struct crem_net - crem's state in one network namespace
 * @net: the namespace
 * @stats: per-CPU counters; written from any context, read by netlink
 */
struct crem_net {
	struct net *net;
	struct crem_pcpu_stats __percpu *stats;
};

int crem_netns_init(void);
void crem_netns_exit(void);

struct crem_net *crem_net(const struct net *net);
void crem_net_stat_inc(struct crem_net *cn, enum crem_stat stat);
void crem_net_stats_read(const struct crem_net *cn,
			 u64 values[CREM_STAT_COUNT]);

#endif /* CREM_NETNS_H */
