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

#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/netfilter.h>
#include <linux/u64_stats_sync.h>
#include <net/net_namespace.h>

#include "config.h"
#include "core/engine.h"
#include "core/stats.h"
#include "core/wire.h"

/* What follows a netfilter hook: where held and restored packets go. */
typedef int (*crem_okfn_t)(struct net *net, struct sock *sk,
			   struct sk_buff *skb);

struct crem_pcpu_stats {
	u64_stats_t counter[CREM_STAT_COUNT];
	struct u64_stats_sync syncp;
};

/**
 * struct crem_net - crem's state in one network namespace
 * @net: the namespace
 * @stats: per-CPU counters; written from any context, read by netlink
 * @cfg_mutex: serialises configuration changes, the socket and the hooks
 * @cfg: the configuration (RCU; see config.h)
 * @sock4: the CREM UDP socket, IPv4 (RTNL-free; under @cfg_mutex)
 * @sock6: the same, IPv6
 * @hook_ops: the registered netfilter hooks, or NULL (under @cfg_mutex)
 * @okfn4: what follows PRE_ROUTING for IPv4 (learnt from the hook)
 * @okfn6: the same for IPv6
 * @flows_lock: the flow tables, list and counts below
 * @by_key: flows by (family, role, QP, addresses)
 * @by_id: flows by (role, Flow ID)
 * @by_pair: sender flows by (family, addresses), for the ACKs
 * @flows: every flow, for dumps and teardown
 * @nflows: flows in the tables
 * @closing: the namespace is going; no new flows
 * @flows_created: flows ever published
 * @flows_ended: flows ever killed
 * @ended: counters of the flows that ended, summed
 * @mem: bytes of engine memory charged
 * @hello_lock: the HELLOs waiting for @hello_work
 * @hellos: those HELLOs
 * @hello_work: makes receiver flows in process context
 * @wire: CREM messages received, by parse result (per CPU)
 */
struct crem_net {
	struct net *net;
	struct crem_pcpu_stats __percpu *stats;

	struct mutex cfg_mutex;
	struct crem_cfg __rcu *cfg;
	struct socket *sock4, *sock6;
	struct nf_hook_ops *hook_ops;
	crem_okfn_t okfn4, okfn6;

	spinlock_t flows_lock;
	DECLARE_HASHTABLE(by_key, 10);
	DECLARE_HASHTABLE(by_id, 10);
	DECLARE_HASHTABLE(by_pair, 10);
	struct list_head flows;
	unsigned int nflows;
	bool closing;
	u64 flows_created, flows_ended;
	u64 ended[CREM_FLOW_STAT_COUNT];
	atomic64_t mem;

	spinlock_t hello_lock;
	struct sk_buff_head hellos;
	struct work_struct hello_work;

	struct crem_wire_pcpu {
		u64_stats_t result[CREM_WIRE_NR_REASONS];
		struct u64_stats_sync syncp;
	} __percpu *wire;
};

int crem_netns_init(void);
void crem_netns_exit(void);

struct crem_net *crem_net(const struct net *net);
void crem_net_stat_inc(struct crem_net *cn, enum crem_stat stat);
void crem_net_stats_read(const struct crem_net *cn,
			 u64 values[CREM_STAT_COUNT]);
void crem_net_wire_inc(struct crem_net *cn, unsigned int reason);
void crem_net_wire_read(const struct crem_net *cn,
			u64 values[CREM_WIRE_NR_REASONS]);

/* The namespace's and one flow's memory limits, in bytes. */
void crem_net_mem_limits(struct crem_net *cn, u64 *net, u64 *flow);

/*
 * Apply a new configuration: open or close the socket and hooks as the
 * port and enabled flag say.  Context: process, under @cfg_mutex.
 */
int crem_net_apply(struct crem_net *cn, struct crem_cfg *new,
		   struct netlink_ext_ack *extack);

#endif /* CREM_NETNS_H */
