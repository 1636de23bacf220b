// SPDX-License-Identifier: GPL-2.0
/*
 * Protected flows in the kernel (see flow.h): the engine's environment,
 * the tables, timers and teardown.
 */
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <net/ip.h>
#include <net/ipv6.h>

#include "flow.h"
#include "netlink/genl.h"
#include "netns.h"
#include "sock.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

static struct crem_flow *env_flow(void *owner)
{
	return owner;
}

/* ---- the engine's environment ------------------------------------- */

static u64 env_now(void *ctx)
{
	return ktime_get_ns();
}

/* Called with the flow's lock held; the timer callback takes it too. */
static void env_arm(void *ctx, void *owner, u64 deadline)
{
	struct crem_flow *flow = env_flow(owner);

	if (flow->dead)
		return;
	if (deadline == CREM_NO_DEADLINE)
		hrtimer_try_to_cancel(&flow->timer);
	else
		hrtimer_start(&flow->timer, ns_to_ktime(deadline),
			      HRTIMER_MODE_ABS_SOFT);
}

static int env_send(void *ctx, void *owner, const u8 *msg, size_t len, u8 dscp)
{
	struct crem_flow *flow = env_flow(owner);

	return crem_sock_send(flow->cn, flow->peer_af, flow->peer,
			      flow->peer_port, msg, len, dscp);
}

static void env_deliver(void *ctx, void *owner, const u8 *pkt, size_t len)
{
	struct crem_flow *flow = env_flow(owner);
	struct sk_buff *skb = alloc_skb(LL_MAX_HEADER + len, GFP_ATOMIC);

	if (!skb) {
		crem_net_stat_inc(flow->cn, CREM_STAT_RESTORE_NOMEM);
		return;
	}
	skb_reserve(skb, LL_MAX_HEADER);
	skb_put_data(skb, pkt, len);
	/* protocol 0 tells a rebuilt packet from a held one (see flush) */
	__skb_queue_tail(&flow->out, skb);
}

static void env_release(void *ctx, void *owner, void *held)
{
	struct crem_flow *flow = env_flow(owner);

	__skb_queue_tail(&flow->out, (struct sk_buff *)held);
}

static void env_random(void *ctx, void *buf, size_t len)
{
	get_random_bytes(buf, len);
}

/*
 * Memory for the engine, charged to the namespace.  A flow being created
 * (not yet visible) may sleep and takes large buffers from kvmalloc();
 * afterwards the engine runs under a spinlock, so buffers come from
 * GFP_ATOMIC, or from the flow's spares: a freed block's buffer waits
 * there for the next block of the same size.
 */
static void *env_alloc(void *ctx, void *owner, size_t size)
{
	struct crem_flow *flow = env_flow(owner);
	struct crem_net *cn = flow->cn;
	u64 net_limit, flow_limit;
	unsigned int i;
	void *mem;

	for (i = 0; i < CREM_FLOW_SPARES; i++) {
		if (flow->spare[i].mem && flow->spare[i].size == size) {
			mem = flow->spare[i].mem;
			flow->spare[i].mem = NULL;
			memset(mem, 0, size);
			return mem;
		}
	}
	crem_net_mem_limits(cn, &net_limit, &flow_limit);
	if (flow->mem + size > flow_limit) {
		crem_net_stat_inc(cn, CREM_STAT_FLOW_MEM_LIMIT);
		return NULL;
	}
	if (atomic64_add_return(size, &cn->mem) > net_limit) {
		atomic64_sub(size, &cn->mem);
		crem_net_stat_inc(cn, CREM_STAT_MEM_LIMIT);
		return NULL;
	}
	mem = flow->creating ? kvzalloc(size, GFP_KERNEL) :
			       kzalloc(size, GFP_ATOMIC | __GFP_NOWARN);
	if (!mem) {
		atomic64_sub(size, &cn->mem);
		return NULL;
	}
	flow->mem += size;
	return mem;
}

static void flow_free_mem(struct crem_flow *flow, void *mem, size_t size)
{
	atomic64_sub(size, &flow->cn->mem);
	flow->mem -= size;
	kvfree(mem);
}

static void env_free(void *ctx, void *owner, void *mem, size_t size)
{
	struct crem_flow *flow = env_flow(owner);
	unsigned int i;

	if (!flow->dead) {
		for (i = 0; i < CREM_FLOW_SPARES; i++) {
			if (!flow->spare[i].mem) {
				flow->spare[i].mem = mem;
				flow->spare[i].size = size;
				return;
			}
		}
	}
	flow_free_mem(flow, mem, size);
}

static struct crem_fec_work __percpu **crem_work;
struct workqueue_struct *crem_wq;
struct workqueue_struct *crem_engine_wq;

/*
 * Called with BHs off (the flow's lock, taken in the engine work): this
 * CPU's scratch is ours until the engine returns.
 */
static struct crem_fec_work *env_work(void *ctx)
{
	return *this_cpu_ptr(crem_work);
}

/* The engine's events become tracepoints. */
static void env_event(void *ctx, void *owner, const struct crem_event *ev)
{
	struct crem_flow *flow = env_flow(owner);

	switch (ev->type) {
	case CREM_EV_CONFIG_CHANGED:
		trace_crem_param_change(ev->flow_id, ev->block_start, ev->a,
					ev->b, ev->c);
		crem_nl_event(flow->cn, "config-changed", flow, ev);
		break;
	case CREM_EV_CODED_RETX_SENT:
		trace_crem_coded_retx_sent(ev->flow_id, ev->block_start, ev->a,
					   ev->b, ev->c);
		break;
	case CREM_EV_CODED_RETX_ANSWERED:
		trace_crem_coded_retx_answered(ev->flow_id, ev->block_start,
					       ev->a, ev->c);
		break;
	case CREM_EV_BLOCK_DECODED:
		trace_crem_block_decoded(ev->flow_id, ev->block_start, ev->a,
					 ev->b);
		break;
	case CREM_EV_FALLBACK:
		trace_crem_fallback(ev->flow_id, ev->block_start, ev->a, ev->b);
		crem_nl_event(flow->cn, "fallback", flow, ev);
		break;
	case CREM_EV_BREAKER:
		trace_crem_circuit_breaker(ev->flow_id, ev->a);
		crem_nl_event(flow->cn, "circuit-breaker", flow, ev);
		break;
	}
}

static const struct crem_env_ops crem_kernel_env_ops = {
	.now_ns = env_now,
	.arm = env_arm,
	.send = env_send,
	.deliver = env_deliver,
	.release = env_release,
	.random = env_random,
	.alloc = env_alloc,
	.free = env_free,
	.work = env_work,
	.event = env_event,
};

/**
 * crem_flow_work_init() - the per-CPU coding scratch and crem's workqueue
 *
 * Context: process, module init.  Return: 0 or -ENOMEM.
 */
int crem_flow_work_init(void)
{
	unsigned int cpu;

	crem_wq = alloc_workqueue("crem", 0, 0);
	/* Unbound: coding runs on any CPU, not the one taking the packets. */
	crem_engine_wq = alloc_workqueue("crem_engine",
					 WQ_UNBOUND | WQ_HIGHPRI, 0);
	crem_work = alloc_percpu(struct crem_fec_work *);
	if (!crem_work || !crem_wq || !crem_engine_wq) {
		crem_flow_work_exit();
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu) {
		struct crem_fec_work *w = vzalloc(sizeof(*w));

		if (!w) {
			crem_flow_work_exit();
			return -ENOMEM;
		}
		*per_cpu_ptr(crem_work, cpu) = w;
	}
	return 0;
}

void crem_flow_work_exit(void)
{
	unsigned int cpu;

	if (crem_engine_wq)
		destroy_workqueue(crem_engine_wq);
	crem_engine_wq = NULL;
	if (crem_wq)
		destroy_workqueue(crem_wq);
	crem_wq = NULL;
	if (!crem_work)
		return;
	for_each_possible_cpu(cpu)
		vfree(*per_cpu_ptr(crem_work, cpu));
	free_percpu(crem_work);
	crem_work = NULL;
}

/* ---- tables --------------------------------------------------------- */

static u32 key_hash(const struct crem_flow_key *key)
{
	return jhash(key, sizeof(*key), 0);
}

static u32 id_hash(u8 role, u32 id)
{
	return jhash_2words(role, id, 0);
}

struct crem_flow *crem_flow_lookup(struct crem_net *cn,
				   const struct crem_flow_key *key)
{
	struct crem_flow *flow;

	hash_for_each_possible_rcu(cn->by_key, flow, by_key, key_hash(key))
		if (!memcmp(&flow->key, key, sizeof(*key)))
			return flow;
	return NULL;
}

struct crem_flow *crem_flow_by_id(struct crem_net *cn, u8 role, u32 id)
{
	struct crem_flow *flow;

	hash_for_each_possible_rcu(cn->by_id, flow, by_id, id_hash(role, id))
		if (flow->key.role == role && READ_ONCE(flow->flow_id) == id)
			return flow;
	return NULL;
}

void crem_flow_hash_id(struct crem_flow *flow)
{
	struct crem_net *cn = flow->cn;

	spin_lock_bh(&cn->flows_lock);
	if (!flow->unlinked && !flow->id_hashed) {
		hash_add_rcu(cn->by_id, &flow->by_id,
			     id_hash(flow->key.role, flow->flow_id));
		flow->id_hashed = true;
	}
	spin_unlock_bh(&cn->flows_lock);
}

/* ---- timer and teardown ----------------------------------------------- */

bool crem_flow_ended(const struct crem_flow *flow)
{
	if (flow->key.role == CREM_ROLE_SENDER)
		return flow->csf.state == CREM_CSF_CLOSED;
	return flow->crf.state == CREM_CRF_CLOSED;
}

static void crem_flow_release(struct kref *ref)
{
	struct crem_flow *flow = container_of(ref, struct crem_flow, ref);

	kfree_rcu(flow, rcu);
}

/*
 * Queue @flow's engine work with a reference of its own.  The caller
 * knows the flow is not freed under it: it holds the lock of a flow not
 * yet dead, or it is the flow's timer (teardown cancels the timer before
 * dropping the tables' reference).
 */
static void flow_kick(struct crem_flow *flow)
{
	kref_get(&flow->ref);
	if (!queue_work(crem_engine_wq, &flow->engine))
		kref_put(&flow->ref, crem_flow_release);
}

/* The timer only wakes the engine work: timeouts may decode. */
static enum hrtimer_restart crem_flow_timer(struct hrtimer *timer)
{
	struct crem_flow *flow = container_of(timer, struct crem_flow, timer);

	set_bit(CREM_FLOW_TIMER_DUE, &flow->pending);
	flow_kick(flow);
	return HRTIMER_NORESTART;
}

bool crem_flow_post(struct crem_flow *flow, struct sk_buff *skb)
{
	bool queued = false;

	spin_lock_bh(&flow->lock);
	if (flow->dead) {
		/* being torn down: the message has nobody to go to */
	} else if (skb_queue_len(&flow->inbox) >= CREM_FLOW_INBOX) {
		crem_net_stat_inc(flow->cn, CREM_STAT_MSGS_INBOX_FULL);
	} else {
		__skb_queue_tail(&flow->inbox, skb);
		flow_kick(flow);
		queued = true;
	}
	spin_unlock_bh(&flow->lock);
	return queued;
}

static void flow_timeout(struct crem_flow *flow)
{
	bool ended = false;

	spin_lock_bh(&flow->lock);
	if (!flow->dead) {
		if (flow->key.role == CREM_ROLE_SENDER)
			crem_csf_timeout(&flow->csf);
		else
			crem_crf_timeout(&flow->crf);
		ended = crem_flow_ended(flow);
	}
	spin_unlock_bh(&flow->lock);
	crem_flow_flush(flow);
	if (ended)
		crem_flow_kill(flow);
}

/*
 * The flow's engine work: its CREM messages in arrival order, then its
 * timeout if the timer fired.  Process context; the reference it was
 * queued with keeps the flow.
 */
static void crem_flow_engine(struct work_struct *work)
{
	struct crem_flow *flow = container_of(work, struct crem_flow, engine);
	struct sk_buff *skb;

	for (;;) {
		spin_lock_bh(&flow->lock);
		skb = flow->dead ? NULL : __skb_dequeue(&flow->inbox);
		spin_unlock_bh(&flow->lock);
		if (!skb)
			break;
		crem_sock_process(flow, skb);
		cond_resched();
	}
	if (test_and_clear_bit(CREM_FLOW_TIMER_DUE, &flow->pending))
		flow_timeout(flow);
	kref_put(&flow->ref, crem_flow_release);
}

void crem_flow_flush(struct crem_flow *flow)
{
	struct sk_buff_head q;
	struct sk_buff *skb;

	__skb_queue_head_init(&q);
	spin_lock_bh(&flow->lock);
	skb_queue_splice_init(&flow->out, &q);
	spin_unlock_bh(&flow->lock);
	/* In the engine's order: a restored packet before the held ones. */
	while ((skb = __skb_dequeue(&q))) {
		if (skb->protocol)
			crem_sock_reinject(flow->cn, skb);
		else
			crem_sock_inject(flow->cn, flow->key.af, flow->ifindex,
					 skb);
	}
}

/*
 * Steps 2 and 3 of the teardown (flow.h), for a flow that is unlinked or
 * was never published (whose timer may have fired and queued the engine
 * work: that work finds it dead, and the memory goes with the last
 * reference).  Context: process, or softirq for a sender flow never
 * published.
 */
static void flow_end(struct crem_flow *flow)
{
	unsigned int i;

	hrtimer_cancel(&flow->timer);
	spin_lock_bh(&flow->lock);
	/* Dead first: the engine's buffers then skip the spares. */
	flow->dead = true;
	__skb_queue_purge(&flow->inbox);
	if (flow->key.role == CREM_ROLE_SENDER)
		crem_csf_destroy(&flow->csf);
	else
		crem_crf_destroy(&flow->crf);
	for (i = 0; i < CREM_FLOW_SPARES; i++)
		if (flow->spare[i].mem)
			flow_free_mem(flow, flow->spare[i].mem,
				      flow->spare[i].size);
	spin_unlock_bh(&flow->lock);
	/* Held packets the destroy released go on. */
	crem_flow_flush(flow);
	hrtimer_cancel(&flow->timer);
	WARN_ON_ONCE(flow->mem);
	if (flow->key.role == CREM_ROLE_SENDER)
		kfree(flow->ring);
	kref_put(&flow->ref, crem_flow_release);
}

static void crem_flow_reap(struct work_struct *work)
{
	flow_end(container_of(work, struct crem_flow, reap));
}

void crem_flow_kill(struct crem_flow *flow)
{
	struct crem_net *cn = flow->cn;
	const struct crem_flow_stats *st;
	unsigned int i;

	spin_lock_bh(&cn->flows_lock);
	if (flow->unlinked) {
		spin_unlock_bh(&cn->flows_lock);
		return;
	}
	flow->unlinked = true;
	hash_del_rcu(&flow->by_key);
	if (flow->id_hashed)
		hash_del_rcu(&flow->by_id);
	if (flow->key.role == CREM_ROLE_SENDER)
		hash_del_rcu(&flow->by_pair);
	list_del_rcu(&flow->list);
	cn->nflows--;
	st = crem_flow_stats(flow);
	for (i = 0; i < CREM_FLOW_STAT_COUNT; i++)
		cn->ended[i] += READ_ONCE(st->v[i]);
	cn->flows_ended++;
	spin_unlock_bh(&cn->flows_lock);
	crem_nl_event(cn, "flow-down", flow, NULL);
	queue_work(crem_wq, &flow->reap);
}

/* ---- creation ----------------------------------------------------------- */

static struct crem_flow *flow_alloc(struct crem_net *cn,
				    const struct crem_flow_key *key, gfp_t gfp)
{
	struct crem_flow *flow = kzalloc(sizeof(*flow), gfp);

	if (!flow)
		return NULL;
	flow->key = *key;
	flow->cn = cn;
	kref_init(&flow->ref);
	spin_lock_init(&flow->lock);
	__skb_queue_head_init(&flow->out);
	__skb_queue_head_init(&flow->inbox);
	INIT_WORK(&flow->engine, crem_flow_engine);
	hrtimer_init(&flow->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	flow->timer.function = crem_flow_timer;
	INIT_WORK(&flow->reap, crem_flow_reap);
	flow->env.ops = &crem_kernel_env_ops;
	flow->env.ctx = cn;
	return flow;
}

/* Publish @flow unless the limit is reached or @key is taken. */
static bool flow_publish(struct crem_net *cn, struct crem_flow *flow,
			 u32 max_flows)
{
	bool ok = false;

	spin_lock_bh(&cn->flows_lock);
	if (cn->nflows >= max_flows) {
		crem_net_stat_inc(cn, CREM_STAT_FLOW_LIMIT);
	} else if (!crem_flow_lookup(cn, &flow->key) && !cn->closing) {
		hash_add_rcu(cn->by_key, &flow->by_key, key_hash(&flow->key));
		if (flow->key.role == CREM_ROLE_SENDER)
			hash_add_rcu(cn->by_pair, &flow->by_pair,
				     crem_flow_pair_hash(flow->key.af,
							 flow->key.src,
							 flow->key.dst));
		if (flow->flow_id) {
			hash_add_rcu(cn->by_id, &flow->by_id,
				     id_hash(flow->key.role, flow->flow_id));
			flow->id_hashed = true;
		}
		list_add_tail_rcu(&flow->list, &cn->flows);
		cn->nflows++;
		cn->flows_created++;
		ok = true;
	}
	spin_unlock_bh(&cn->flows_lock);
	if (ok)
		crem_nl_event(cn, "flow-up", flow, NULL);
	return ok;
}

struct crem_flow *crem_flow_new_csf(struct crem_net *cn,
				    const struct crem_flow_key *key,
				    u8 peer_af, const u8 *peer, u32 psn,
				    u16 rdma_mtu)
{
	const struct crem_cfg *cfg = rcu_dereference(cn->cfg);
	struct crem_flow_desc desc = {
		.af = key->af, .dest_qp = key->qp, .rdma_mtu = rdma_mtu,
	};
	struct crem_flow *flow;

	if (cn->nflows >= cfg->max_flows) {
		crem_net_stat_inc(cn, CREM_STAT_FLOW_LIMIT);
		return NULL;
	}
	flow = flow_alloc(cn, key, GFP_ATOMIC);
	if (!flow)
		return NULL;
	flow->ring = kcalloc(cfg->eng.max_blocks, sizeof(*flow->ring),
			     GFP_ATOMIC);
	if (!flow->ring) {
		kfree(flow);
		return NULL;
	}
	memcpy(desc.src, key->src, 16);
	memcpy(desc.dst, key->dst, 16);
	flow->peer_af = peer_af;
	memcpy(flow->peer, peer, 16);
	flow->peer_port = htons(cfg->port);
	/* Not visible yet: nobody else can take the lock; held for lockdep. */
	spin_lock_bh(&flow->lock);
	if (crem_csf_start(&flow->csf, &flow->env, flow, &cfg->eng, &desc,
			   psn, flow->ring)) {
		spin_unlock_bh(&flow->lock);
		flow_end(flow);
		return NULL;
	}
	spin_unlock_bh(&flow->lock);
	if (!flow_publish(cn, flow, cfg->max_flows)) {
		flow_end(flow);
		return NULL;
	}
	return flow;
}

static bool crf_id_in_use(void *ctx, u32 id)
{
	struct crem_net *cn = ctx;
	bool used;

	rcu_read_lock();
	used = crem_flow_by_id(cn, CREM_ROLE_RECEIVER, id);
	rcu_read_unlock();
	return used;
}

int crem_flow_new_crf(struct crem_net *cn, const struct crem_msg *hello,
		      u8 peer_af, const u8 *peer, __be16 port)
{
	const struct crem_wire_hello *h = &hello->hello;
	struct crem_engine_config eng;
	struct crem_flow_key key;
	struct crem_flow *flow;
	u32 max_flows;
	int err;

	crem_flow_key_init(&key, CREM_ROLE_RECEIVER, h->af, h->flow_label,
			   h->src, h->dst);
	rcu_read_lock();
	eng = rcu_dereference(cn->cfg)->eng;
	max_flows = rcu_dereference(cn->cfg)->max_flows;
	rcu_read_unlock();
	flow = flow_alloc(cn, &key, GFP_KERNEL);
	if (!flow)
		return -ENOMEM;
	flow->peer_af = peer_af;
	memcpy(flow->peer, peer, 16);
	flow->peer_port = port;
	/* Not published: the engine may sleep for its window here. */
	flow->creating = true;
	err = crem_crf_start(&flow->crf, &flow->env, flow, &eng, hello,
			     crf_id_in_use, cn);
	flow->creating = false;
	if (err) {
		flow_end(flow);
		return err;
	}
	flow->flow_id = flow->crf.flow_id;
	if (!flow_publish(cn, flow, max_flows)) {
		flow_end(flow);
		return -EEXIST;
	}
	return 0;
}

/* ---- the namespace ---------------------------------------------------- */

int crem_flows_init(struct crem_net *cn)
{
	spin_lock_init(&cn->flows_lock);
	hash_init(cn->by_key);
	hash_init(cn->by_id);
	hash_init(cn->by_pair);
	INIT_LIST_HEAD(&cn->flows);
	atomic64_set(&cn->mem, 0);
	return 0;
}

void crem_flows_flush(struct crem_net *cn)
{
	struct crem_flow *flow;

	for (;;) {
		rcu_read_lock();
		flow = list_first_or_null_rcu(&cn->flows, struct crem_flow,
					      list);
		if (flow)
			crem_flow_kill(flow);
		rcu_read_unlock();
		if (!flow)
			break;
	}
	flush_workqueue(crem_wq);
	/* The works the dead flows' timers queued: they touch @cn. */
	flush_workqueue(crem_engine_wq);
}

void crem_flows_exit(struct crem_net *cn)
{
	spin_lock_bh(&cn->flows_lock);
	cn->closing = true;
	spin_unlock_bh(&cn->flows_lock);
	crem_flows_flush(cn);
	WARN_ON_ONCE(atomic64_read(&cn->mem));
}
