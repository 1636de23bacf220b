/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per network namespace state.
 *
 * Lifetime: a struct crem_net is created with its namespace (or at module
 * load for namespaces that exist then) and freed after the namespace's
 * exit.  Teardown has two halves (crem_net_stop(), then the exit), see
 * netns.c: the first stops everything that can reach the state from the
 * network - hooks, the socket's receive, flows - and the second frees it
 * once the core's grace period has passed.
 */
#ifndef CREM_NETNS_H
#define CREM_NETNS_H

#include <linux/hashtable.h>
#include <linux/memcontrol.h>
#include <linux/mutex.h>
#include <linux/u64_stats_sync.h>
#include <linux/wait_bit.h>
#include <net/net_namespace.h>

#include "config.h"
#include "path.h"
#include "core/admit.h"
#include "core/engine.h"
#include "socket.h"
#include "core/stats.h"
#include "core/wire.h"

struct crem_pcpu_stats {
	u64_stats_t counter[CREM_STAT_COUNT];
	struct u64_stats_sync syncp;
};

struct crem_wire_pcpu {
	u64_stats_t result[CREM_WIRE_NR_REASONS];
	struct u64_stats_sync syncp;
};

/* Buffers a namespace keeps for its next flows: a few flows' blocks. */
#define CREM_NET_POOL 32

/* A buffer in a namespace's pool (env.c). */
struct crem_pool_buf {
	void *mem;
	size_t size;
	u32 epoch;		/* crem_net.pool_epoch when it was given */
	unsigned long since;	/* jiffies, when it was given */
};

/**
 * struct crem_net - crem's state in one network namespace
 * @net: the namespace
 * @stats: per-CPU counters; written from any context, read by netlink
 * @wire: CREM messages received, by parse result (per CPU)
 * @cfg_mutex: serialises configuration changes, the socket and the hooks
 * @cfg: the configuration (RCU; see config.h)
 * @sock4: the CREM UDP socket, IPv4 (under @cfg_mutex; read under RCU)
 * @sock6: the same, IPv6
 * @retired: the sockets of a stopped namespace, released after a grace
 *	period (under @cfg_mutex)
 * @hook_ops: the registered netfilter hooks, or NULL (under @cfg_mutex)
 * @hooks_retired: @hook_ops are unregistered, to be freed after a grace
 *	period (under @cfg_mutex)
 * @memcg: the memory cgroup crem's memory here is charged to: the one of
 *	whoever last set the configuration (a reference; under @cfg_mutex,
 *	read under RCU)
 * @flows_lock: the flow tables, list and counts below (flowtable.c)
 * @by_key: flows by (family, role, QP, addresses)
 * @by_id: flows by (role, Flow ID)
 * @by_pair: flows by (family, addresses): sender flows for the ACKs,
 *	receiver flows for the NAKs and retried READs (hooks.c)
 * @flows: every flow in the tables, for dumps and teardown
 * @nflows: flows in the tables
 * @closing: no new flows (the namespace is stopping or going)
 * @flows_created: flows ever published
 * @flows_ended: flows ever taken out of the tables
 * @ended: counters of the flows that ended, summed
 * @flows_alive: flow objects not yet freed, in or out of the tables (the
 *	namespace's exit waits for none, with wait_var_event())
 * @mem: bytes of engine memory charged to the namespace
 * @pool_lock: guards @pool, @pool_next and @pool_epoch; taken after a
 *	flow's lock, never before
 * @pool: large buffers flows gave back, for the next flows (env.c)
 * @pool_next: the entry to go next when every one is taken
 * @pool_epoch: counts the memory cgroups charged: a buffer of an older
 *	one is not kept
 * @nstrangers: receiver flows in the tables whose peer is a stranger;
 *	written under @flows_lock, read without it as a hint (receive.c)
 * @stranger_mem: bytes of engine memory charged to those flows
 * @admit_lock: guards @hello_admit, @peer_hello_admit, @close_admit,
 *	@peer_close_admit, @close_tat and @peer_close_tat
 * @hello_admit: new receiver flows from strangers, by the HELLO's source
 *	address (an IPv6 one by its /64)
 * @peer_hello_admit: the same from configured peers, apart so that
 *	strangers cannot spend their meters
 * @close_admit: CLOSEs for unknown Flow IDs to strangers, by destination
 *	address
 * @peer_close_admit: the same to configured peers, apart so that a flood
 *	of spoofed strangers' messages cannot spend their meters
 * @close_tat: CLOSEs to strangers, all addresses together
 * @peer_close_tat: CLOSEs to configured peers, all together
 * @paths: what the sender flows measured of each peer's path (path.c)
 */
struct crem_net {
	struct net *net;
	struct crem_pcpu_stats __percpu *stats;
	struct crem_wire_pcpu __percpu *wire;

	struct mutex cfg_mutex;
	struct crem_cfg __rcu *cfg;
	struct socket __rcu *sock4;
	struct socket __rcu *sock6;
	struct crem_socket_pair retired;
	struct nf_hook_ops *hook_ops;
	bool hooks_retired;
	struct mem_cgroup __rcu *memcg;

	spinlock_t flows_lock;
	DECLARE_HASHTABLE(by_key, 10);
	DECLARE_HASHTABLE(by_id, 10);
	DECLARE_HASHTABLE(by_pair, 10);
	struct list_head flows;
	unsigned int nflows;
	bool closing;
	u64 flows_created, flows_ended;
	u64 ended[CREM_FLOW_STAT_COUNT];
	atomic_t flows_alive;
	atomic64_t mem;

	spinlock_t pool_lock;
	struct crem_pool_buf pool[CREM_NET_POOL];
	unsigned int pool_next;
	u32 pool_epoch;

	unsigned int nstrangers;
	atomic64_t stranger_mem;
	spinlock_t admit_lock;
	struct crem_admit hello_admit;
	struct crem_admit peer_hello_admit;
	struct crem_admit close_admit;
	struct crem_admit peer_close_admit;
	u64 close_tat;
	u64 peer_close_tat;

	struct crem_paths paths;
};

int crem_netns_init(void);
void crem_netns_exit(void);
void crem_netns_stop_all(void);

struct crem_net *crem_net(const struct net *net);
void crem_net_stat_add(struct crem_net *cn, enum crem_stat stat,
		       unsigned long n);
void crem_net_stat_inc(struct crem_net *cn, enum crem_stat stat);
void crem_net_stats_read(const struct crem_net *cn,
			 u64 values[CREM_STAT_COUNT]);
void crem_net_wire_inc(struct crem_net *cn, unsigned int reason);
void crem_net_wire_read(const struct crem_net *cn,
			u64 values[CREM_WIRE_NR_REASONS]);

/*
 * Apply a new configuration: open or close the socket and hooks as the
 * port and enabled flag say.  Context: process, under @cfg_mutex.
 */
int crem_net_apply(struct crem_net *cn, struct crem_cfg *new,
		   struct netlink_ext_ack *extack);

/* Is crem.ko on its way out?  Then nothing may be switched on again. */
bool crem_unloading(void);

#endif /* CREM_NETNS_H */
