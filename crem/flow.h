/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Protected flows in the kernel: the engine (crem/core/csf.h, crf.h) of one
 * flow, its lock, timer and lifetime, and the namespace's tables.
 *
 * Locking, outermost first:
 *   crem_net.flows_lock (spin, BH)   the tables, the list, the counts
 *   crem_flow.lock (spin, BH)        every call into the flow's engine,
 *                                    the inbox, the dead mark
 * A receiver flow's lock is never held while another flow's is taken:
 * packets the engine restores or releases are queued under the lock and
 * handed to the stack after it is dropped (crem_flow_flush()).
 *
 * Context: the netfilter hooks call the engine's packet entry points in
 * softirq; those never run matrix coding (engine.rst).  Everything that
 * may decode or compute coded symbols - CREM messages and timeouts - runs
 * in the flow's engine work on crem_engine_wq, an unbound workqueue, in
 * process context: the receive softirq only queues the message (the
 * flow's inbox, bounded) or, for the timer, sets a bit.
 *
 * Lifetime: the tables hold one reference; each queued engine work holds
 * one more, taken when it is queued and dropped when it has run.
 * Lookups run under rcu_read_lock() and take the flow's lock; a flow
 * marked dead is skipped and its work is not queued again (except by the
 * timer, whose work only drops its reference).  Teardown (crem_flow_kill())
 * is, in order:
 *   1. unlink from the tables and the list (flows_lock), sum its
 *      counters into the namespace's;
 *   2. in process context (the reap work): cancel the timer, then under
 *      the flow's lock mark it dead, drop the inbox and destroy the engine
 *      (its buffers freed, held packets released);
 *   3. cancel the timer again (it may have been re-armed before the dead
 *      mark), then drop the tables' reference; the memory goes when the
 *      last queued work has dropped its own, after a grace period, when no
 *      lookup can still see it.
 */
#ifndef CREM_FLOW_H
#define CREM_FLOW_H

#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/jhash.h>
#include <linux/kref.h>
#include <linux/netfilter.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>

#include "config.h"
#include "core/crf.h"
#include "core/csf.h"

struct crem_net;

struct crem_flow_key {
	u8 af;			/* CREM_AF_INET or CREM_AF_INET6 */
	u8 role;		/* CREM_ROLE_SENDER or CREM_ROLE_RECEIVER */
	u16 zero;
	u32 qp;			/* destination QP */
	u8 src[16];
	u8 dst[16];
};

/* Buffers the environment keeps for reuse, so that a block costs none. */
#define CREM_FLOW_SPARES 4

/* CREM messages waiting for a flow's engine work; more are dropped. */
#define CREM_FLOW_INBOX 512

/* crem_flow.pending bits */
enum { CREM_FLOW_TIMER_DUE };

struct crem_flow {
	struct hlist_node by_key;
	struct hlist_node by_id;
	struct hlist_node by_pair;	/* sender flows */
	struct list_head list;
	struct crem_flow_key key;
	struct crem_net *cn;
	struct kref ref;
	struct rcu_head rcu;
	struct hrtimer timer;
	struct work_struct engine;	/* messages and timeouts */
	unsigned long pending;		/* CREM_FLOW_TIMER_DUE */
	struct work_struct reap;
	bool unlinked;		/* flows_lock */
	bool id_hashed;		/* flows_lock */

	spinlock_t lock;	/* the engine, and everything below */
	bool dead;
	bool creating;
	struct sk_buff_head inbox;	/* CREM messages for the engine work */		/* may sleep: set only before publication */
	u32 flow_id;
	u8 peer_af;
	u8 peer[16];
	__be16 peer_port;
	int ifindex;		/* receiver: where sources arrive */
	/*
	 * Restored (rebuilt, protocol 0) and released (held, as they came)
	 * packets, in order, for the stack once the lock is dropped
	 * (crem_flow_flush()).
	 */
	struct sk_buff_head out;
	u64 mem;
	struct {
		void *mem;
		size_t size;
	} spare[CREM_FLOW_SPARES];
	struct crem_env env;
	union {
		struct {
			struct crem_csf csf;
			struct crem_csf_slot *ring;
		};
		struct crem_crf crf;
	};
};

/* crem's workqueues: flow reaping and HELLOs; the flows' engine work. */
extern struct workqueue_struct *crem_wq;
extern struct workqueue_struct *crem_engine_wq;

/*
 * The key of a flow of @role: family, destination QP (the low 24 bits of
 * @qp, as HELLO and PATH_REPORT carry it in the Flow Label) and addresses.
 */
static inline void crem_flow_key_init(struct crem_flow_key *key, u8 role,
				      u8 af, u32 qp, const u8 *src,
				      const u8 *dst)
{
	memset(key, 0, sizeof(*key));
	key->af = af;
	key->role = role;
	key->qp = qp & 0xffffff;
	memcpy(key->src, src, 16);
	memcpy(key->dst, dst, 16);
}

/*
 * The by_pair bucket of sender flows from @src to @dst: an acknowledgement
 * names the requester's QP, which the sender flow (keyed by the
 * responder's) does not know, so ACKs find their flows by addresses.
 */
static inline u32 crem_flow_pair_hash(u8 af, const u8 *src, const u8 *dst)
{
	return jhash(src, 16, jhash(dst, 16, af));
}

/* The flow's counters, whichever engine it runs. */
static inline const struct crem_flow_stats *
crem_flow_stats(const struct crem_flow *flow)
{
	return flow->key.role == CREM_ROLE_SENDER ? &flow->csf.stats :
						    &flow->crf.stats;
}

int crem_flow_work_init(void);
void crem_flow_work_exit(void);
int crem_flows_init(struct crem_net *cn);
void crem_flows_exit(struct crem_net *cn);

struct crem_flow *crem_flow_lookup(struct crem_net *cn,
				   const struct crem_flow_key *key);
struct crem_flow *crem_flow_by_id(struct crem_net *cn, u8 role, u32 id);

/*
 * A new sender flow for @key, toward @peer, from the packet with @psn;
 * sends HELLO.  Context: softirq, under rcu_read_lock().  Return: the
 * flow, or NULL (limit, memory, or one already made by another CPU).
 */
struct crem_flow *crem_flow_new_csf(struct crem_net *cn,
				    const struct crem_flow_key *key,
				    u8 peer_af, const u8 *peer, u32 psn,
				    u16 rdma_mtu);

/*
 * A new receiver flow from a HELLO that came from @peer:@port; answers
 * it.  Context: process (the HELLO work).  Return: 0 or -errno.
 */
int crem_flow_new_crf(struct crem_net *cn, const struct crem_msg *hello,
		      u8 peer_af, const u8 *peer, __be16 port);

/*
 * Queue CREM message @skb (data at its UDP header, the sender in its
 * control block, see sock.h) for @flow's engine work.  Context: softirq,
 * under rcu_read_lock().  Return: true if queued (the flow owns @skb),
 * false if the flow is dead or its inbox full (the caller still does).
 */
bool crem_flow_post(struct crem_flow *flow, struct sk_buff *skb);

/* Hand the packets the engine restored or released to the stack. */
void crem_flow_flush(struct crem_flow *flow);

/* Note the flow's id once HELLO_ACK assigned it (sender). */
void crem_flow_hash_id(struct crem_flow *flow);

/* End the flow (see the teardown order above).  Context: any. */
void crem_flow_kill(struct crem_flow *flow);

/* Has the engine ended the flow?  Caller holds the flow's lock. */
bool crem_flow_ended(const struct crem_flow *flow);

/* Kill every flow and wait for them to go.  Context: process. */
void crem_flows_flush(struct crem_net *cn);

#endif /* CREM_FLOW_H */
