// SPDX-License-Identifier: GPL-2.0
/*
 * The engine's environment in the kernel (see env.h).
 */
#include <linux/memcontrol.h>
#include <linux/random.h>
#include <linux/sched/mm.h>
#include <linux/semaphore.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "env.h"
#include "flow.h"
#include "netlink/genl.h"
#include "netns.h"
#include "reinject.h"
#include "socket.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

static struct crem_flow *env_flow(void *ctx)
{
	return ctx;
}

static u64 env_now(void *ctx)
{
	return ktime_get_ns();
}

/*
 * Called with the flow's lock held.  The timeout takes that lock too, so a
 * cancel here only tries: it never waits for a callback.  A deadline
 * already due goes to the soft kick timer, which runs when the softirq of
 * the packet on its way ends; a later one to the hard timer (flow.c).
 */
static void env_arm(void *ctx, void *owner, u64 deadline)
{
	struct crem_flow *flow = env_flow(ctx);

	if (flow->dead)
		return;
	if (deadline == CREM_NO_DEADLINE) {
		hrtimer_try_to_cancel(&flow->timer);
		hrtimer_try_to_cancel(&flow->kick);
	} else if (deadline <= ktime_get_ns()) {
		hrtimer_start(&flow->kick, ns_to_ktime(deadline),
			      HRTIMER_MODE_ABS_SOFT);
	} else {
		hrtimer_start(&flow->timer, ns_to_ktime(deadline),
			      HRTIMER_MODE_ABS_HARD);
	}
}

static int env_send(void *ctx, void *owner, const u8 *msg, size_t len, u8 dscp)
{
	struct crem_flow *flow = env_flow(ctx);

	return crem_socket_send(flow->cn, flow->peer_af, flow->peer,
				flow->peer_port, msg, len, dscp);
}

static void env_deliver(void *ctx, void *owner, const u8 *pkt, size_t len)
{
	crem_rx_restored(env_flow(ctx), pkt, len);
}

/* The engine lets a held packet go: it is handed on in this order. */
static void env_let_go(void *ctx, void *owner, void *held)
{
	crem_rx_pkt_queue(env_flow(ctx), held, NULL);
}

static void env_random(void *ctx, void *buf, size_t len)
{
	get_random_bytes(buf, len);
}

/*
 * The namespace's limits; a namespace other than the initial one never
 * above the initial one's.
 */
static void mem_limits(struct crem_net *cn, u64 *net_limit, u64 *flow_limit)
{
	const struct crem_cfg *cfg, *top;

	rcu_read_lock();
	cfg = rcu_dereference(cn->cfg);
	*net_limit = cfg->mem_limit;
	*flow_limit = cfg->flow_mem_limit;
	if (!net_eq(cn->net, &init_net)) {
		top = rcu_dereference(crem_net(&init_net)->cfg);
		*net_limit = min(*net_limit, top->mem_limit);
		*flow_limit = min(*flow_limit, top->flow_mem_limit);
	}
	rcu_read_unlock();
}

/*
 * What the allocator really takes for @size: that is what is charged, and
 * buffers of one such size serve one another.
 */
static size_t charge_of(size_t size)
{
	return kmalloc_size_roundup(size);
}

/* Is a buffer of @size one the page allocator serves (worth keeping)? */
static bool large(size_t size)
{
	return size > KMALLOC_MAX_CACHE_SIZE;
}

/*
 * A pooled buffer unused for this long is freed at the pool's next use:
 * the pool serves flows that follow one another (QPs made and destroyed
 * in numbers).  Where flows stay and none ends, nothing uses the pool
 * and its at most CREM_NET_POOL buffers wait for the last flow's end.
 */
#define CREM_POOL_AGE (2 * HZ)

/* Free @buf, charged to @cn. */
static void pool_free(struct crem_net *cn, struct crem_pool_buf *buf)
{
	atomic64_sub(charge_of(buf->size), &cn->mem);
	kfree(buf->mem);
}

/*
 * Free the entries unused for CREM_POOL_AGE or kept under an older memory
 * cgroup (kfree() is fine under a spinlock).  Under @cn->pool_lock.
 */
static void pool_age(struct crem_net *cn)
{
	unsigned int i;

	lockdep_assert_held(&cn->pool_lock);
	for (i = 0; i < CREM_NET_POOL; i++) {
		struct crem_pool_buf *b = &cn->pool[i];

		if (b->mem && (b->epoch != cn->pool_epoch ||
			       time_after(jiffies, b->since + CREM_POOL_AGE))) {
			pool_free(cn, b);
			b->mem = NULL;
		}
	}
}

/*
 * A pooled buffer of @size's class for a flow of memory cgroup epoch
 * @epoch, still charged to the namespace, or NULL.
 */
static void *pool_take(struct crem_net *cn, size_t size, u32 epoch)
{
	void *mem = NULL;
	unsigned int i;

	if (!large(size))
		return NULL;
	spin_lock_bh(&cn->pool_lock);
	pool_age(cn);
	for (i = 0; i < CREM_NET_POOL && epoch == cn->pool_epoch; i++) {
		if (cn->pool[i].mem &&
		    charge_of(cn->pool[i].size) == charge_of(size)) {
			mem = cn->pool[i].mem;
			cn->pool[i].mem = NULL;
			break;
		}
	}
	spin_unlock_bh(&cn->pool_lock);
	return mem;
}

/*
 * Keep @mem (charged to the namespace, no longer to a flow; allocated
 * under memory cgroup epoch @epoch) for the next flow; when the pool is
 * full one goes, each in turn.  Return: false if it is not kept (the
 * caller frees it): small, or of an older memory cgroup.
 */
static bool pool_give(struct crem_net *cn, void *mem, size_t size, u32 epoch)
{
	unsigned int i;

	if (!large(size))
		return false;
	spin_lock_bh(&cn->pool_lock);
	if (epoch != cn->pool_epoch) {
		spin_unlock_bh(&cn->pool_lock);
		return false;
	}
	pool_age(cn);
	for (i = 0; i < CREM_NET_POOL; i++) {
		if (!cn->pool[i].mem)
			break;
	}
	if (i == CREM_NET_POOL) {
		i = cn->pool_next;
		cn->pool_next = (i + 1) % CREM_NET_POOL;
		pool_free(cn, &cn->pool[i]);
	}
	cn->pool[i] = (struct crem_pool_buf){
		.mem = mem, .size = size, .epoch = epoch, .since = jiffies,
	};
	spin_unlock_bh(&cn->pool_lock);
	return true;
}

void crem_env_pool_new_epoch(struct crem_net *cn)
{
	spin_lock_bh(&cn->pool_lock);
	WRITE_ONCE(cn->pool_epoch, cn->pool_epoch + 1);
	spin_unlock_bh(&cn->pool_lock);
	crem_env_pool_drain(cn);
}

void crem_env_pool_drain(struct crem_net *cn)
{
	unsigned int i;

	spin_lock_bh(&cn->pool_lock);
	for (i = 0; i < CREM_NET_POOL; i++) {
		if (cn->pool[i].mem)
			pool_free(cn, &cn->pool[i]);
		cn->pool[i].mem = NULL;
	}
	spin_unlock_bh(&cn->pool_lock);
}

/*
 * Configured peers keep the other half of @net_limit (security.rst): what a
 * stranger's flow takes (@stranger) is reserved in the strangers' share
 * first, as one atomic step, so that flows charging at once on several
 * CPUs cannot together pass it.  Return: false (nothing reserved; counted
 * as @refused) past the share.
 */
static bool stranger_reserve(struct crem_net *cn, bool stranger,
			     size_t charge, u64 net_limit,
			     enum crem_stat refused)
{
	if (!stranger ||
	    atomic64_add_return(charge, &cn->stranger_mem) <= net_limit / 2)
		return true;
	atomic64_sub(charge, &cn->stranger_mem);
	crem_net_stat_inc(cn, refused);
	return false;
}

/* Give back what stranger_reserve() took. */
static void stranger_unreserve(struct crem_net *cn, bool stranger,
			       size_t charge)
{
	if (stranger)
		atomic64_sub(charge, &cn->stranger_mem);
}

/* @charge leaves @flow's memory, and its strangers' share if it is one's. */
static void flow_uncharge(struct crem_flow *flow, size_t charge)
{
	flow->mem -= charge;
	stranger_unreserve(flow->cn, flow->stranger, charge);
}

/*
 * Charge @charge to @cn against @net_limit.  What the pool keeps gives way
 * to what a flow needs.  Return: false (nothing charged; counted as
 * @refused) past the limit.
 */
static bool net_charge_counted(struct crem_net *cn, size_t charge,
			       u64 net_limit, enum crem_stat refused)
{
	if (atomic64_add_return(charge, &cn->mem) <= net_limit)
		return true;
	atomic64_sub(charge, &cn->mem);
	crem_env_pool_drain(cn);
	if (atomic64_add_return(charge, &cn->mem) <= net_limit)
		return true;
	atomic64_sub(charge, &cn->mem);
	crem_net_stat_inc(cn, refused);
	return false;
}

/* An allocation's charge: refused, it counts as mem_limit. */
static bool net_charge(struct crem_net *cn, size_t charge, u64 net_limit)
{
	return net_charge_counted(cn, charge, net_limit, CREM_STAT_MEM_LIMIT);
}

/* kmalloc() in any context, charged to @cn's memory cgroup. */
static void *kmalloc_charged(struct crem_net *cn, size_t size, gfp_t extra)
{
	struct mem_cgroup *memcg, *old;
	void *mem;

	rcu_read_lock();
	memcg = rcu_dereference(cn->memcg);
	old = set_active_memcg(memcg);
	mem = kmalloc(size, GFP_ATOMIC | __GFP_NOWARN | __GFP_ACCOUNT | extra);
	set_active_memcg(old);
	rcu_read_unlock();
	return mem;
}

void *crem_env_alloc_flow(struct crem_net *cn, size_t size)
{
	u64 net_limit, flow_limit;
	void *mem;

	mem_limits(cn, &net_limit, &flow_limit);
	if (!net_charge(cn, charge_of(size), net_limit))
		return NULL;
	mem = kmalloc_charged(cn, size, __GFP_ZERO);
	if (!mem)
		atomic64_sub(charge_of(size), &cn->mem);
	return mem;
}

void crem_env_free_flow(struct crem_net *cn, void *mem, size_t size)
{
	kfree(mem);
	atomic64_sub(charge_of(size), &cn->mem);
}

bool crem_env_charge_skb(struct crem_flow *flow, unsigned int truesize)
{
	struct crem_net *cn = flow->cn;
	u64 net_limit, flow_limit;

	mem_limits(cn, &net_limit, &flow_limit);
	if (!stranger_reserve(cn, flow->stranger, truesize, net_limit,
			      CREM_STAT_STRANGER_MEM_LIMIT))
		return false;
	if (net_charge_counted(cn, truesize, net_limit,
			       CREM_STAT_MEM_LIMIT_PACKETS))
		return true;
	stranger_unreserve(cn, flow->stranger, truesize);
	return false;
}

void crem_env_uncharge_skb(struct crem_net *cn, bool stranger,
			   unsigned int truesize)
{
	atomic64_sub(truesize, &cn->mem);
	stranger_unreserve(cn, stranger, truesize);
}

/*
 * @mem, a kept buffer of @size's class charged to @flow, fitted to @size:
 * within its class krealloc() leaves it where it is and moves KASAN's
 * redzone to @size (a KFENCE object, sized exactly, may move).  NULL if
 * it cannot be fitted; it is then freed.
 */
static void *refit(struct crem_flow *flow, void *mem, size_t size)
{
	void *fitted = krealloc(mem, size, GFP_ATOMIC | __GFP_NOWARN);

	if (!fitted) {
		flow_uncharge(flow, charge_of(size));
		atomic64_sub(charge_of(size), &flow->cn->mem);
		kfree(mem);
	}
	return fitted;
}

bool crem_env_crf_could_fit(struct crem_flow *flow)
{
	u64 net_limit, flow_limit;

	lockdep_assert_held(&flow->lock);
	mem_limits(flow->cn, &net_limit, &flow_limit);
	if (flow->mem + crem_crf_traffic_bytes(&flow->crf, charge_of) <=
	    flow_limit)
		return true;
	crem_net_stat_inc(flow->cn, CREM_STAT_FLOW_MEM_LIMIT);
	return false;
}

static void *env_alloc(void *ctx, void *owner, size_t size)
{
	struct crem_flow *flow = env_flow(ctx);
	struct crem_net *cn = flow->cn;
	size_t charge = charge_of(size);
	u64 net_limit, flow_limit;
	unsigned int i;
	void *mem;

	/*
	 * A large spare serves its size class; a small one (slab-served,
	 * cheap to replace) only its own size: refitting one could move a
	 * KFENCE object out of the memory cgroup.
	 */
	for (i = 0; i < CREM_FLOW_SPARES; i++) {
		if (!flow->spare[i].mem)
			continue;
		if (flow->spare[i].size == size) {
			mem = flow->spare[i].mem;
			flow->spare[i].mem = NULL;
			return mem;
		}
		if (large(size) && charge_of(flow->spare[i].size) == charge) {
			mem = flow->spare[i].mem;
			flow->spare[i].mem = NULL;
			return refit(flow, mem, size);
		}
	}
	mem_limits(cn, &net_limit, &flow_limit);
	if (flow->mem + charge > flow_limit) {
		crem_net_stat_inc(cn, CREM_STAT_FLOW_MEM_LIMIT);
		return NULL;
	}
	if (!stranger_reserve(cn, flow->stranger, charge, net_limit,
			      CREM_STAT_STRANGER_MEM_LIMIT))
		return NULL;
	/* From here @charge is in the strangers' share if it is one's. */
	mem = pool_take(cn, size, flow->pool_epoch);
	if (mem) {
		flow->mem += charge;
		crem_net_stat_inc(cn, CREM_STAT_MEM_LARGE_ALLOCS);
		crem_net_stat_inc(cn, CREM_STAT_MEM_POOL_REUSED);
		return refit(flow, mem, size);
	}
	if (!net_charge(cn, charge, net_limit))
		goto unreserve;
	/* Not zeroed: the engine writes what it reads (core/env.h). */
	mem = kmalloc_charged(cn, size, 0);
	if (!mem) {
		atomic64_sub(charge, &cn->mem);
		goto unreserve;
	}
	if (large(size))
		crem_net_stat_inc(cn, CREM_STAT_MEM_LARGE_ALLOCS);
	flow->mem += charge;
	return mem;
unreserve:
	stranger_unreserve(cn, flow->stranger, charge);
	return NULL;
}

/* @mem leaves @flow: to the namespace's pool, or freed. */
static void flow_free_mem(struct crem_flow *flow, void *mem, size_t size)
{
	size_t charge = charge_of(size);

	flow_uncharge(flow, charge);
	if (pool_give(flow->cn, mem, size, flow->pool_epoch))
		return;
	atomic64_sub(charge, &flow->cn->mem);
	kfree(mem);
}

/*
 * A buffer given back is kept as a spare for the next of its size: a
 * sender frees a block as the RDMA transport acknowledges it and opens
 * the next at once, and a block is tens of KiB, from the page allocator
 * (about 150 us a time in the lab's emulated guests).  When every spare
 * is taken, one goes, each in turn: a spare of a size no longer asked
 * for (the blocks of an older m) must not hold its place for ever, which
 * left every new block to the allocator.
 */
static void env_free(void *ctx, void *owner, void *mem, size_t size)
{
	struct crem_flow *flow = env_flow(ctx);
	unsigned int i;

	if (flow->dead) {
		flow_free_mem(flow, mem, size);
		return;
	}
	for (i = 0; i < CREM_FLOW_SPARES; i++) {
		if (!flow->spare[i].mem)
			break;
	}
	if (i == CREM_FLOW_SPARES) {
		i = flow->spare_next;
		flow->spare_next = (i + 1) % CREM_FLOW_SPARES;
		flow_free_mem(flow, flow->spare[i].mem, flow->spare[i].size);
	}
	flow->spare[i].mem = mem;
	flow->spare[i].size = size;
}

void crem_env_free_spares(struct crem_flow *flow)
{
	unsigned int i;

	lockdep_assert_held(&flow->lock);
	for (i = 0; i < CREM_FLOW_SPARES; i++) {
		if (flow->spare[i].mem)
			flow_free_mem(flow, flow->spare[i].mem,
				      flow->spare[i].size);
		flow->spare[i].mem = NULL;
	}
}

/* The engine work's scratch: only that work codes (flow.h). */
static struct crem_fec_work *env_work(void *ctx)
{
	struct crem_flow *flow = env_flow(ctx);

	WARN_ON_ONCE(!flow->scratch);
	return flow->scratch;
}

/* The engine's events become tracepoints, and some netlink events. */
static void env_event(void *ctx, void *owner, const struct crem_event *ev)
{
	struct crem_flow *flow = env_flow(ctx);

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
					 ev->b, ev->c, flow->decoded_in_softirq);
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
	.release = env_let_go,
	.random = env_random,
	.alloc = env_alloc,
	.free = env_free,
	.work = env_work,
	.event = env_event,
};

void crem_env_attach(struct crem_flow *flow)
{
	flow->env.ops = &crem_kernel_env_ops;
	flow->env.ctx = flow;
}

/* ---- the coding scratch ------------------------------------------------ */

static struct {
	struct semaphore free_count;
	spinlock_t lock;
	unsigned int n, nfree;
	struct crem_fec_work **free;
} scratch;

static struct crem_fec_work *scratch_take(void)
{
	struct crem_fec_work *w;

	spin_lock_bh(&scratch.lock);
	w = scratch.free[--scratch.nfree];
	spin_unlock_bh(&scratch.lock);
	return w;
}

struct crem_fec_work *crem_scratch_get(void)
{
	might_sleep();
	down(&scratch.free_count);
	return scratch_take();
}

struct crem_fec_work *crem_scratch_try_get(void)
{
	if (down_trylock(&scratch.free_count))
		return NULL;
	return scratch_take();
}

void crem_scratch_put(struct crem_fec_work *work)
{
	spin_lock_bh(&scratch.lock);
	scratch.free[scratch.nfree++] = work;
	spin_unlock_bh(&scratch.lock);
	up(&scratch.free_count);
}

/**
 * crem_env_init() - the pool of coding scratch, one per possible CPU
 *
 * Context: process, module init.  Return: 0 or -ENOMEM.
 */
int __init crem_env_init(void)
{
	unsigned int n = num_possible_cpus();

	spin_lock_init(&scratch.lock);
	scratch.free = kcalloc(n, sizeof(*scratch.free), GFP_KERNEL);
	if (!scratch.free)
		return -ENOMEM;
	for (scratch.n = 0; scratch.n < n; scratch.n++) {
		scratch.free[scratch.n] = vzalloc(sizeof(struct crem_fec_work));
		if (!scratch.free[scratch.n]) {
			scratch.nfree = scratch.n;
			crem_env_exit();
			return -ENOMEM;
		}
	}
	scratch.nfree = n;
	sema_init(&scratch.free_count, n);
	return 0;
}

/* Context: process, module exit, with no engine work left. */
void crem_env_exit(void)
{
	WARN_ON_ONCE(scratch.nfree != scratch.n);
	while (scratch.nfree)
		vfree(scratch.free[--scratch.nfree]);
	kfree(scratch.free);
	scratch.free = NULL;
}
