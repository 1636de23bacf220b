/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A protected flow in the kernel: the engine (crem/core/csf.h, crf.h) of
 * one direction of one RoCEv2 connection, its lock, timer, engine work
 * and lifetime.  The tables that find flows are flowtable.c's, the way
 * packets go back into the stack reinject.c's, the engine's environment
 * env.c's.
 *
 * Locking, outermost first:
 *   crem_net.flows_lock (spin, BH)   the tables, the list, the counts
 *   crem_flow.lock (spin, BH)        every call into the flow's engine,
 *                                    the inbox, the dead mark, the
 *                                    packets on their way (reinject.h)
 * A flow's lock is never held while another flow's is taken, nor while a
 * packet is handed to the stack (reinject.c hands them on unlocked).
 *
 * Context: the netfilter hooks call the engine's packet entry points in
 * softirq; the engine's timeout runs in the flow's tick work (a hard
 * hrtimer queues it on a high-priority workqueue, flow.c says why), or in
 * softirq for a deadline already due (the soft kick timer); none of them
 * ever runs matrix coding (engine.rst).  CREM messages, whose answers may
 * code, run in the flow's engine work on crem_engine_wq, an unbound
 * workqueue, in process context: the receive softirq queues the message
 * (the flow's inbox, bounded).  The work calls the engine under the lock
 * and decodes outside it (crem_crf_decode_claim()), also for blocks a
 * packet or a timeout made due, with a coding scratch from the pool
 * (env.c).  A message that cannot code (all but a REPAIR_REQUEST at a
 * sender) with nothing queued ahead of it runs in its receive softirq
 * instead, and a receiver decodes there what is due up to
 * CREM_FLOW_SOFTIRQ_DECODE (crem_flow_post()).
 *
 * Lifetime: the tables hold one reference; each queued engine or tick
 * work holds one more.  Lookups run under rcu_read_lock() and take the flow's lock; a
 * flow marked dead is skipped.  Ending a flow (crem_flow_kill()) is, in
 * order:
 *   1. unlink it from the tables (flowtable.c), its counters summed into
 *      the namespace's; a flow-down event;
 *   2. in process context (the reap work): cancel the timers (waiting
 *      for their callbacks), mark it dead and drop its inbox under its
 *      lock, wait for a running engine work (which finishes a decode it
 *      had out) and for a decode a softirq has out (decodes_out), cancel
 *      the timers again, and wait for the tick work;
 *   3. destroy the engine under the lock (its buffers freed, held
 *      packets let go), hand what is pending to the stack, and drop the
 *      tables' reference.
 * The memory goes with the last reference, after an RCU grace period;
 * the namespace counts flow objects (flows_alive) and its exit waits for
 * none to be left.
 */
#ifndef CREM_FLOW_H
#define CREM_FLOW_H

#include <linux/hrtimer.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <linux/workqueue.h>

#include "config.h"
#include "core/crf.h"
#include "core/csf.h"

struct crem_net;

struct crem_flow_key {
	u8 af;			/* CREM_AF_INET or CREM_AF_INET6 */
	u8 role;		/* CREM_ROLE_SENDER or CREM_ROLE_RECEIVER */
	/*
	 * A receiver flow made by a HELLO with a new nonce while a flow of
	 * the same key is live: it gets no packets until confirmed
	 * (crem_crf_hello_action()).  Left out of the key's hash: a
	 * candidate and its live flow share a bucket, so that confirming
	 * it changes no chain; cleared then under readers (READ_ONCE()).
	 */
	u8 candidate;
	u8 zero;
	u32 qp;			/* destination QP */
	u8 src[16];
	u8 dst[16];
};

/* Buffers the environment keeps for reuse, so that a block costs none. */
#define CREM_FLOW_SPARES 4

/* CREM messages waiting for a flow's engine work; more are dropped. */
#define CREM_FLOW_INBOX 512

/*
 * The most coding a REPAIR's softirq does (crem_flow_post()), in octets of
 * symbols passed over: k = 32 blocks of 4 KiB symbols with two losses,
 * tens of microseconds with SIMD.  Dearer decodes go to the engine work.
 * The engine work decodes whatever is due (CREM_FLOW_DECODE_ANY).
 */
#define CREM_FLOW_SOFTIRQ_DECODE (256 * 1024)
#define CREM_FLOW_DECODE_ANY (~(size_t)0)

/* Room for the link-layer header restored packets are given. */
#define CREM_FLOW_L2_MAX 32

/*
 * Where a receiver flow's sources arrive, learnt from them, for the
 * packets it restores (reinject.c): the device (a tracked reference) and
 * the link-layer header they came with.
 */
struct crem_rx_path {
	struct net_device *dev;
	netdevice_tracker tracker;
	__be16 protocol;
	u8 pkt_type;
	u8 l2_len;
	u8 l2[CREM_FLOW_L2_MAX];
	__be16 vlan_proto;
	u16 vlan_tci;
};

struct crem_flow {
	/* flowtable.c, under crem_net.flows_lock */
	struct hlist_node by_key;
	struct hlist_node by_id;
	struct hlist_node by_pair;	/* by addresses: ACKs, NAKs */
	struct list_head list;
	bool unlinked;
	bool id_hashed;

	struct crem_flow_key key;
	struct crem_net *cn;
	struct kref ref;
	struct rcu_head rcu;
	struct hrtimer timer;		/* hard, a future deadline: queues @tick */
	struct hrtimer kick;		/* soft, a deadline already due */
	struct work_struct tick;	/* the engine's timeout, high priority */
	struct work_struct engine;	/* messages and decoding */
	struct work_struct reap;
	struct crem_fec_work *scratch;	/* the engine work's, while it runs */

	spinlock_t lock;	/* the engine, and everything below */
	bool dead;
	bool engine_up;		/* started: destroyed at the end */
	struct sk_buff_head inbox;	/* CREM messages for the engine work */
	bool engine_running;	/* the engine work is taking the inbox */
	unsigned int decodes_out;	/* blocks out being decoded */
	bool decoded_in_softirq;	/* the decode being handed back's */
	u32 flow_id;
	u8 peer_af;
	u8 peer[16];
	__be16 peer_port;
	/* A receiver flow whose peer is not configured: fixed at creation. */
	bool stranger;
	/* Receiver: the way back into the stack (reinject.h). */
	struct crem_rx_path rx;
	struct list_head rx_pkts;	/* every packet crem has of the flow */
	struct list_head out;		/* those to hand on, in order */
	bool handing_on;		/* a CPU is handing @out on */
	u64 mem;
	struct {
		void *mem;
		size_t size;
	} spare[CREM_FLOW_SPARES];
	unsigned int spare_next;	/* the next to go when all are taken */
	u32 pool_epoch;		/* its namespace's, when it was made (env.c) */
	struct crem_env env;
	union {
		struct {
			struct crem_csf csf;
			struct crem_csf_slot *ring;
			size_t ring_size;
			/*
			 * crem_csf_ack_range() after the last engine call
			 * that changes it: set under @lock
			 * (crem_flow_note_ack_range()), read without it
			 * by the receive hook, which passes over the flows
			 * an acknowledgement cannot be for.
			 */
			atomic64_t ack_range;
			/*
			 * The policy's own samples when its estimate was
			 * last noted for the path (path.c), under @lock.
			 */
			u32 path_noted;
		};
		struct crem_crf crf;
	};
};

/* Note sender flow @flow's ack range.  Caller holds @flow->lock. */
static inline void crem_flow_note_ack_range(struct crem_flow *flow)
{
	lockdep_assert_held(&flow->lock);
	atomic64_set(&flow->ack_range, crem_csf_ack_range(&flow->csf));
}

/*
 * A CREM message waiting in a flow's inbox: the datagram (data at its UDP
 * header), with where it came from in its control block.
 */
struct crem_msg_cb {
	u8 af;
	u8 addr[16];
	__be16 port;
	bool ce;
};

#define CREM_MSG_CB(skb) ((struct crem_msg_cb *)(skb)->cb)

/* Parse the CREM message in @skb (linear, data at its UDP header). */
static inline enum crem_wire_reason crem_inbox_parse(const struct sk_buff *skb,
						     struct crem_msg *m)
{
	size_t len = ntohs(udp_hdr(skb)->len);

	if (len < sizeof(struct udphdr) || len > skb->len)
		return CREM_WIRE_SHORT_DATAGRAM;
	return crem_wire_parse(skb->data + sizeof(struct udphdr),
			       len - sizeof(struct udphdr), m, NULL);
}

/* crem's workqueues: flow reaping; the flows' engine work. */
extern struct workqueue_struct *crem_wq;
extern struct workqueue_struct *crem_engine_wq;

int crem_flow_work_init(void);
void crem_flow_work_exit(void);

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

/* The flow's counters, whichever engine it runs. */
static inline const struct crem_flow_stats *
crem_flow_stats(const struct crem_flow *flow)
{
	return flow->key.role == CREM_ROLE_SENDER ? &flow->csf.stats :
						    &flow->crf.stats;
}

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
 * A new receiver flow from a HELLO that came from @peer:@port, answered
 * once it can be found; a candidate beside the live flow of its key if
 * @candidate (crem_crf_hello_action()).  Context: softirq, under
 * rcu_read_lock().  Return: 0 or -errno.
 */
int crem_flow_new_crf(struct crem_net *cn, const struct crem_msg *hello,
		      u8 peer_af, const u8 *peer, __be16 port, bool candidate);

/*
 * CREM message @m, parsed from @skb, for @flow: run at once if it cannot
 * code and nothing is queued ahead of it, with what it makes due decoded
 * if that costs at most CREM_FLOW_SOFTIRQ_DECODE; else queued for the
 * flow's engine work.  Held packets wait for H at most, the flow's timers
 * must see the answers that came, and the engine work runs behind the
 * receive softirq that keeps a busy CPU.
 * Context: softirq, under rcu_read_lock().  Return: true if the flow took
 * @skb (queued or consumed), false if the flow is dead, its inbox full
 * or the namespace at its mem-limit (a queued message is charged to it;
 * the caller still owns @skb).
 */
bool crem_flow_post(struct crem_flow *flow, struct sk_buff *skb,
		    const struct crem_msg *m);

/*
 * A packet made a block due for decoding: the engine work decodes it.
 * Caller holds the flow's lock.
 */
void crem_flow_decode_later(struct crem_flow *flow);

/* Has the engine ended the flow?  Caller holds the flow's lock. */
bool crem_flow_ended(const struct crem_flow *flow);

/*
 * Close @flow's engine with @reason (CLOSE to its peer) unless it is dead
 * or closed already.  Caller holds the flow's lock.
 */
void crem_flow_close(struct crem_flow *flow, u16 reason);

/* End the flow (see the teardown order above).  Context: any. */
void crem_flow_kill(struct crem_flow *flow);

/**
 * crem_flow_promote() - a confirmed candidate becomes the live flow
 * @flow: the candidate receiver flow its sender confirmed
 *
 * The live flow of its key, if its peer is the candidate's, ends.  If it
 * is another peer's, the candidate closes (CLOSE to its sender, which
 * took it for its flow) and ends instead, counted as
 * ``candidates_refused``: nothing could confirm it while that flow
 * lives.
 * Context: softirq, under rcu_read_lock().
 *
 * Return: false if the candidate ended.
 */
bool crem_flow_promote(struct crem_flow *flow);

/*
 * Close (CLOSE with @reason) and end every flow of @cn; no new flow is
 * made until the namespace is started again.  Context: process.
 */
void crem_flows_end_all(struct crem_net *cn, u16 reason);

#endif /* CREM_FLOW_H */
