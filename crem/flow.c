// SPDX-License-Identifier: GPL-2.0
/*
 * Protected flows in the kernel (see flow.h): creation, the engine work,
 * the timer and the end of a flow.
 */
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "env.h"
#include "flow.h"
#include "flowtable.h"
#include "netlink/genl.h"
#include "netns.h"
#include "path.h"
#include "reinject.h"

struct workqueue_struct *crem_wq;
struct workqueue_struct *crem_engine_wq;
static struct workqueue_struct *crem_tick_wq;

/**
 * crem_flow_work_init() - crem's workqueues
 *
 * The engine work's queue is unbound, so that coding runs on any CPU, not
 * the one taking the packets, and of normal priority: a high-priority
 * kworker would starve ksoftirqd, where the receive path runs under load.
 *
 * The timer's queue is of high priority, on the CPU the timer fired on.
 * Its work never codes (the pair harness checks it), but it must run when
 * the deadline says: a soft timer waits for ksoftirqd, which an RDMA
 * application busy-polling its completion queue on the same CPU holds off
 * for whole scheduler slices, milliseconds past H.
 *
 * Context: process, module init.  Return: 0 or -ENOMEM.
 */
int __init crem_flow_work_init(void)
{
	crem_wq = alloc_workqueue("crem", 0, 0);
	crem_engine_wq = alloc_workqueue("crem_engine", WQ_UNBOUND, 0);
	crem_tick_wq = alloc_workqueue("crem_tick", WQ_HIGHPRI, 0);
	if (!crem_wq || !crem_engine_wq || !crem_tick_wq) {
		crem_flow_work_exit();
		return -ENOMEM;
	}
	return 0;
}

/* Context: process, module exit, after every flow is gone. */
void crem_flow_work_exit(void)
{
	if (crem_tick_wq)
		destroy_workqueue(crem_tick_wq);
	crem_tick_wq = NULL;
	if (crem_engine_wq)
		destroy_workqueue(crem_engine_wq);
	crem_engine_wq = NULL;
	if (crem_wq)
		destroy_workqueue(crem_wq);
	crem_wq = NULL;
}

/* ---- references ------------------------------------------------------- */

static void flow_free_rcu(struct rcu_head *rcu)
{
	struct crem_flow *flow = container_of(rcu, struct crem_flow, rcu);
	struct crem_net *cn = flow->cn;

	crem_env_free_flow(cn, flow, sizeof(*flow));
	/* The namespace's exit waits on the counter, not on @cn's memory. */
	if (atomic_dec_and_test(&cn->flows_alive))
		wake_up_var(&cn->flows_alive);
}

static void flow_release(struct kref *ref)
{
	struct crem_flow *flow = container_of(ref, struct crem_flow, ref);

	call_rcu(&flow->rcu, flow_free_rcu);
}

/*
 * Queue @flow's engine work with a reference of its own.  The caller
 * holds the lock of a flow not yet dead, so the flow is not freed under it.
 */
static void flow_kick(struct crem_flow *flow)
{
	kref_get(&flow->ref);
	if (!queue_work(crem_engine_wq, &flow->engine))
		kref_put(&flow->ref, flow_release);
}

/*
 * The engine's timeout, so that held packets go on when H says.  Blocks it
 * makes due for decoding go to the engine work.  Context: the tick work,
 * or softirq (the kick timer).
 */
static void flow_timeout(struct crem_flow *flow)
{
	bool ended, decode = false;

	spin_lock_bh(&flow->lock);
	if (flow->dead) {
		spin_unlock_bh(&flow->lock);
		return;
	}
	if (flow->key.role == CREM_ROLE_SENDER) {
		crem_csf_timeout(&flow->csf);
	} else {
		crem_crf_timeout(&flow->crf);
		decode = crem_crf_decode_pending(&flow->crf);
	}
	ended = crem_flow_ended(flow);
	/* The end cancels the timers and flushes the tick work first. */
	if (decode && !ended)
		flow_kick(flow);
	spin_unlock_bh(&flow->lock);
	crem_reinject_flow(flow);
	if (ended)
		crem_flow_kill(flow);
}

/*
 * A future deadline, in hard interrupt context: hand the timeout to the
 * high-priority tick work (crem_flow_work_init() says why).  The work
 * holds a reference of its own; the flow cannot go under this call,
 * because its end cancels the timer before the tables' reference goes.
 */
static enum hrtimer_restart flow_timer(struct hrtimer *timer)
{
	struct crem_flow *flow = container_of(timer, struct crem_flow, timer);

	kref_get(&flow->ref);
	if (!queue_work(crem_tick_wq, &flow->tick))
		kref_put(&flow->ref, flow_release);
	return HRTIMER_NORESTART;
}

/* Context: process, high priority (crem_tick_wq). */
static void flow_tick(struct work_struct *work)
{
	struct crem_flow *flow = container_of(work, struct crem_flow, tick);

	flow_timeout(flow);
	kref_put(&flow->ref, flow_release);
}

/*
 * A deadline already due when it was set (the repairs of a block that the
 * packet on its way closed): the softirq at the end of that packet's is
 * sooner, and cheaper than waking a worker once a block.  The end cancels
 * this timer too before the tables' reference goes.
 */
static enum hrtimer_restart flow_kick_timer(struct hrtimer *timer)
{
	flow_timeout(container_of(timer, struct crem_flow, kick));
	return HRTIMER_NORESTART;
}

void crem_flow_decode_later(struct crem_flow *flow)
{
	lockdep_assert_held(&flow->lock);
	if (!flow->dead)
		flow_kick(flow);
}

bool crem_flow_ended(const struct crem_flow *flow)
{
	if (flow->key.role == CREM_ROLE_SENDER)
		return flow->csf.state == CREM_CSF_CLOSED;
	return flow->crf.state == CREM_CRF_CLOSED;
}

void crem_flow_close(struct crem_flow *flow, u16 reason)
{
	lockdep_assert_held(&flow->lock);
	if (flow->dead || crem_flow_ended(flow))
		return;
	if (flow->key.role == CREM_ROLE_SENDER)
		crem_csf_close(&flow->csf, reason);
	else
		crem_crf_close(&flow->crf, reason);
}

/* ---- the engine work -------------------------------------------------- */

/*
 * Decode the receiver's due blocks, each outside the flow's lock
 * (crem_crf_decode_claim_within()), with @scratch, for at most @budget
 * octets in all; what is left due goes to the engine work.  The hooks of
 * other CPUs go on meanwhile.  A block taken out is always handed back,
 * even if the flow died meanwhile: its end waits for decodes_out.
 * @softirq: called from the receive softirq (for the tracepoint; no
 * rescheduling).
 */
static void flow_decode(struct crem_flow *flow, struct crem_fec_work *scratch,
			size_t budget, bool softirq)
{
	struct crem_crf_decode job;
	bool claimed;

	if (flow->key.role != CREM_ROLE_RECEIVER)
		return;
	for (;;) {
		spin_lock_bh(&flow->lock);
		claimed = !flow->dead &&
			  crem_crf_decode_claim_within(&flow->crf, &job,
						       budget);
		if (claimed)
			flow->decodes_out++;
		else if (!flow->dead && crem_crf_decode_pending(&flow->crf))
			flow_kick(flow);
		spin_unlock_bh(&flow->lock);
		if (!claimed)
			break;
		if (budget != CREM_FLOW_DECODE_ANY)
			budget -= job.cost;
		crem_crf_decode_run(&job, scratch);
		spin_lock_bh(&flow->lock);
		flow->decoded_in_softirq = softirq;
		crem_crf_decode_finish(&flow->crf, &job);
		if (!--flow->decodes_out && flow->dead)
			wake_up_var(&flow->decodes_out);
		spin_unlock_bh(&flow->lock);
		crem_reinject_flow(flow);
		if (!softirq)
			cond_resched();
	}
}

/*
 * In a REPAIR's receive softirq: decode what is due if it is small, with a
 * scratch if the pool has one free now; the rest is the engine work's.
 */
static void flow_decode_small(struct crem_flow *flow)
{
	struct crem_fec_work *scratch;
	bool pending;

	spin_lock_bh(&flow->lock);
	pending = !flow->dead && crem_crf_decode_pending(&flow->crf);
	spin_unlock_bh(&flow->lock);
	if (!pending)
		return;
	scratch = crem_scratch_try_get();
	if (!scratch) {
		spin_lock_bh(&flow->lock);
		if (!flow->dead)
			flow_kick(flow);
		spin_unlock_bh(&flow->lock);
		return;
	}
	flow_decode(flow, scratch, CREM_FLOW_SOFTIRQ_DECODE, true);
	crem_scratch_put(scratch);
}

/*
 * A sender flow's estimate of its path, for the next flows to its peer:
 * once per sample of its own the policy took in (not per report), so the
 * namespace's table lock is taken once per CREM_POLICY_SAMPLE packets at
 * most.
 */
static void note_path(struct crem_flow *flow)
{
	struct crem_path_estimate est;

	lockdep_assert_held(&flow->lock);
	if (flow->csf.policy.own_samples == flow->path_noted ||
	    !crem_csf_path_estimate(&flow->csf, &est))
		return;
	flow->path_noted = flow->csf.policy.own_samples;
	crem_path_note(&flow->cn->paths, flow->peer_af, flow->peer, &est);
}

/*
 * Message @m, from the datagram whose control block is @cb, through the
 * engine.  Context: under the flow's lock, the flow not dead.  Return:
 * whether the flow ended; *@hashed: whether it now has a Flow ID to be
 * found by.
 */
static bool flow_engine_call(struct crem_flow *flow, const struct crem_msg *m,
			     const struct crem_msg_cb *cb, bool *hashed)
{
	lockdep_assert_held(&flow->lock);
	*hashed = false;
	if (flow->key.role == CREM_ROLE_SENDER) {
		/* The CRF answers from its socket: bind its port. */
		if (m->type == CREM_MSG_HELLO_ACK)
			flow->peer_port = cb->port;
		if (!crem_csf_receive(&flow->csf, m, cb->ce) &&
		    m->type == CREM_MSG_HELLO_ACK) {
			WRITE_ONCE(flow->flow_id, flow->csf.flow_id);
			*hashed = true;
		}
		if (m->type == CREM_MSG_LOSS_REPORT)
			note_path(flow);
	} else {
		/* A HELLO here has the flow's nonce (receive.c). */
		crem_crf_receive(&flow->crf, m, cb->ce);
	}
	return crem_flow_ended(flow);
}

/* The inbox's first message, its charge given back; NULL if empty. */
static struct sk_buff *inbox_take(struct crem_flow *flow)
{
	struct sk_buff *skb;

	lockdep_assert_held(&flow->lock);
	skb = __skb_dequeue(&flow->inbox);
	if (skb)
		crem_env_uncharge_skb(flow->cn, flow->stranger, skb->truesize);
	return skb;
}

/* Run one CREM message from the inbox through the engine.  Consumes it. */
static void flow_message(struct crem_flow *flow, struct sk_buff *skb)
{
	const struct crem_msg_cb *cb = CREM_MSG_CB(skb);
	bool ended, hashed;
	struct crem_msg m;

	/* Parsed before it was queued; the bytes have not changed since. */
	if (WARN_ON_ONCE(crem_inbox_parse(skb, &m) != CREM_WIRE_OK))
		goto out;
	spin_lock_bh(&flow->lock);
	if (flow->dead) {
		spin_unlock_bh(&flow->lock);
		goto out;
	}
	ended = flow_engine_call(flow, &m, cb, &hashed);
	spin_unlock_bh(&flow->lock);
	if (hashed)
		crem_flowtable_hash_id(flow);
	flow_decode(flow, flow->scratch, CREM_FLOW_DECODE_ANY, false);
	crem_reinject_flow(flow);
	if (ended)
		crem_flow_kill(flow);
out:
	kfree_skb(skb);
}

/*
 * The flow's engine work: its CREM messages in arrival order, then the
 * blocks due for decoding.  Process context; the reference it was queued
 * with keeps the flow; the scratch it takes is for every coding step of
 * this run.
 */
static void flow_engine(struct work_struct *work)
{
	struct crem_flow *flow = container_of(work, struct crem_flow, engine);
	struct sk_buff *skb;

	flow->scratch = crem_scratch_get();
	for (;;) {
		spin_lock_bh(&flow->lock);
		skb = flow->dead ? NULL : inbox_take(flow);
		flow->engine_running = skb != NULL;
		spin_unlock_bh(&flow->lock);
		if (!skb)
			break;
		flow_message(flow, skb);
		cond_resched();
	}
	flow_decode(flow, flow->scratch, CREM_FLOW_DECODE_ANY, false);
	crem_reinject_flow(flow);
	crem_scratch_put(flow->scratch);
	flow->scratch = NULL;
	kref_put(&flow->ref, flow_release);
}

/*
 * May @m run in the receive softirq it came in?  Every message but one
 * costs about what a packet does: only a REPAIR_REQUEST at a sender can
 * code (its answer is computed over the block), and that goes to the
 * engine work.  A REPAIR at a receiver may make blocks due, decoded here
 * only while small (flow_decode_small()).
 */
static bool runs_in_softirq(const struct crem_flow *flow,
			    const struct crem_msg *m)
{
	return flow->key.role == CREM_ROLE_RECEIVER ||
	       m->type != CREM_MSG_REPAIR_REQUEST;
}

bool crem_flow_post(struct crem_flow *flow, struct sk_buff *skb,
		    const struct crem_msg *m)
{
	bool queued = false, ended, hashed;

	spin_lock_bh(&flow->lock);
	if (flow->dead) {
		/* being torn down: the message has nobody to go to */
	} else if (runs_in_softirq(flow, m) && !flow->engine_running &&
		   skb_queue_empty(&flow->inbox)) {
		/*
		 * With nothing ahead of it, it runs now.  In the engine work
		 * it would wait behind the receive softirq that keeps a busy
		 * CPU (2 to 30 ms in the lab): H would pass with a REPAIR
		 * already here, and the flow's timers, which run in the
		 * high-priority tick work, would judge a PARAM_UPDATE or
		 * the receiver's reports unanswered while their answers
		 * wait in the inbox (a flow closed with reason 2 under
		 * load, crem_mqp.sh).  No worker is woken either.
		 */
		ended = flow_engine_call(flow, m, CREM_MSG_CB(skb), &hashed);
		spin_unlock_bh(&flow->lock);
		if (hashed)
			crem_flowtable_hash_id(flow);
		if (flow->key.role == CREM_ROLE_RECEIVER)
			flow_decode_small(flow);
		crem_reinject_flow(flow);
		if (ended)
			crem_flow_kill(flow);
		consume_skb(skb);
		return true;
	} else if (skb_queue_len(&flow->inbox) >= CREM_FLOW_INBOX) {
		crem_net_stat_inc(flow->cn, CREM_STAT_MSGS_INBOX_FULL);
	} else if (crem_env_charge_skb(flow, skb->truesize)) {
		/* Uncharged as it leaves the inbox (inbox_take()). */
		__skb_queue_tail(&flow->inbox, skb);
		flow_kick(flow);
		queued = true;
	}
	spin_unlock_bh(&flow->lock);
	return queued;
}

/* ---- the end ------------------------------------------------------------ */

/* Steps 2 and 3 of the end (flow.h).  Context: process (crem_wq). */
static void flow_reap(struct work_struct *work)
{
	struct crem_flow *flow = container_of(work, struct crem_flow, reap);
	struct sk_buff *skb;

	hrtimer_cancel(&flow->timer);
	hrtimer_cancel(&flow->kick);
	spin_lock_bh(&flow->lock);
	flow->dead = true;
	while ((skb = inbox_take(flow)))
		kfree_skb(skb);
	spin_unlock_bh(&flow->lock);
	/* No engine call after this; a decode it had out is back. */
	flush_work(&flow->engine);
	/* So is one a softirq had out (none is claimed once dead). */
	wait_var_event(&flow->decodes_out, !READ_ONCE(flow->decodes_out));
	hrtimer_cancel(&flow->timer);
	hrtimer_cancel(&flow->kick);
	flush_work(&flow->tick);

	spin_lock_bh(&flow->lock);
	if (flow->key.role == CREM_ROLE_SENDER) {
		if (flow->engine_up)
			crem_csf_destroy(&flow->csf);
		if (flow->ring)
			flow->env.ops->free(flow, flow, flow->ring,
					    flow->ring_size);
		flow->ring = NULL;
	} else {
		if (flow->engine_up)
			crem_crf_destroy(&flow->crf);
		crem_rx_forget(flow);
	}
	crem_env_free_spares(flow);
	spin_unlock_bh(&flow->lock);
	/* The last flow's buffers are not kept for flows that may not come. */
	if (!READ_ONCE(flow->cn->nflows))
		crem_env_pool_drain(flow->cn);
	/*
	 * Held packets the destroy let go.  A hook on another CPU may be
	 * handing the flow's packets on (it found the flow before the
	 * unlink): wait until it has, so that none outlives the flow.
	 */
	for (;;) {
		bool busy;

		crem_reinject_flow(flow);
		spin_lock_bh(&flow->lock);
		busy = flow->handing_on || !list_empty(&flow->out);
		spin_unlock_bh(&flow->lock);
		if (!busy)
			break;
		cond_resched();
	}
	WARN_ON_ONCE(!list_empty(&flow->rx_pkts));
	WARN_ON_ONCE(flow->mem);
	kref_put(&flow->ref, flow_release);
}

/* Steps 1 (after the unlink) to 3 of the end (flow.h). */
static void flow_end_unlinked(struct crem_flow *flow)
{
	/*
	 * The reason the engine closed with, sent or heard; 0 for a flow
	 * ended here without one (a candidate replaced, the namespace going).
	 * Unlinked, nothing starts on the flow, but a hook on another CPU
	 * may still be in its engine: READ_ONCE().
	 */
	struct crem_event ev = {
		.type = CREM_EV_FLOW_DOWN,
		.a = flow->key.role == CREM_ROLE_SENDER ?
		     READ_ONCE(flow->csf.close_reason) :
		     READ_ONCE(flow->crf.close_reason),
	};

	crem_nl_event(flow->cn, "flow-down", flow, &ev);
	queue_work(crem_wq, &flow->reap);
}

void crem_flow_kill(struct crem_flow *flow)
{
	if (crem_flowtable_unlink(flow))
		flow_end_unlinked(flow);
}

bool crem_flow_promote(struct crem_flow *flow)
{
	struct crem_flow *live;

	if (!crem_flowtable_promote(flow, &live)) {
		/*
		 * Its sender hears now (CLOSE, flow ended), not only from
		 * the rate-limited answer its next message would get.
		 */
		spin_lock_bh(&flow->lock);
		crem_flow_close(flow, CREM_CLOSE_FLOW_ENDED);
		spin_unlock_bh(&flow->lock);
		crem_net_stat_inc(flow->cn, CREM_STAT_CANDIDATES_REFUSED);
		crem_flow_kill(flow);
		return false;
	}
	if (live) {
		crem_net_stat_inc(flow->cn, CREM_STAT_FLOWS_REPLACED);
		flow_end_unlinked(live);
	}
	return true;
}

/* A flow that was never published ends the same way. */
static void flow_discard(struct crem_flow *flow)
{
	flow->unlinked = true;
	queue_work(crem_wq, &flow->reap);
}

void crem_flows_end_all(struct crem_net *cn, u16 reason)
{
	struct crem_flow *flow;

	crem_flowtable_close(cn, true);
	/* Everyone hears CLOSE while the socket is open. */
	rcu_read_lock();
	list_for_each_entry_rcu(flow, &cn->flows, list) {
		spin_lock_bh(&flow->lock);
		crem_flow_close(flow, reason);
		spin_unlock_bh(&flow->lock);
		crem_reinject_flow(flow);
	}
	rcu_read_unlock();
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
}

/* ---- creation ----------------------------------------------------------- */

static struct crem_flow *flow_alloc(struct crem_net *cn,
				    const struct crem_flow_key *key)
{
	struct crem_flow *flow;

	flow = crem_env_alloc_flow(cn, sizeof(*flow));
	if (!flow)
		return NULL;
	atomic_inc(&cn->flows_alive);
	flow->key = *key;
	flow->cn = cn;
	flow->pool_epoch = READ_ONCE(cn->pool_epoch);
	kref_init(&flow->ref);
	spin_lock_init(&flow->lock);
	__skb_queue_head_init(&flow->inbox);
	INIT_LIST_HEAD(&flow->rx_pkts);
	INIT_LIST_HEAD(&flow->out);
	INIT_WORK(&flow->tick, flow_tick);
	INIT_WORK(&flow->engine, flow_engine);
	INIT_WORK(&flow->reap, flow_reap);
	hrtimer_init(&flow->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
	flow->timer.function = flow_timer;
	hrtimer_init(&flow->kick, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	flow->kick.function = flow_kick_timer;
	crem_env_attach(flow);
	return flow;
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
	struct crem_path_estimate prior;
	struct crem_flow *flow;
	int err;

	if (READ_ONCE(cn->nflows) >= cfg->max_flows) {
		crem_net_stat_inc(cn, CREM_STAT_FLOW_LIMIT);
		return NULL;
	}
	flow = flow_alloc(cn, key);
	if (!flow)
		return NULL;
	memcpy(desc.src, key->src, 16);
	memcpy(desc.dst, key->dst, 16);
	flow->peer_af = peer_af;
	memcpy(flow->peer, peer, 16);
	flow->peer_port = htons(cfg->port);
	/* Not visible yet: nobody else can take the lock; held for lockdep. */
	spin_lock_bh(&flow->lock);
	flow->ring_size = cfg->eng.max_blocks * sizeof(*flow->ring);
	flow->ring = flow->env.ops->alloc(flow, flow, flow->ring_size);
	err = flow->ring ? crem_csf_start(&flow->csf, &flow->env, flow,
					  &cfg->eng, &desc, psn, flow->ring) :
			   -ENOMEM;
	flow->engine_up = !err;
	if (!err) {
		crem_flow_note_ack_range(flow);
		if (crem_path_recall(&cn->paths, peer_af, peer, &prior))
			crem_csf_set_prior(&flow->csf, &prior);
	}
	spin_unlock_bh(&flow->lock);
	if (err || !crem_flowtable_publish(cn, flow, cfg->max_flows)) {
		flow_discard(flow);
		return NULL;
	}
	crem_nl_event(cn, "flow-up", flow, NULL);
	return flow;
}

static bool crf_id_in_use(void *ctx, u32 id)
{
	return crem_flow_by_id(ctx, CREM_ROLE_RECEIVER, id);
}

int crem_flow_new_crf(struct crem_net *cn, const struct crem_msg *hello,
		      u8 peer_af, const u8 *peer, __be16 port, bool candidate)
{
	const struct crem_cfg *cfg = rcu_dereference(cn->cfg);
	const struct crem_wire_hello *h = &hello->hello;
	struct crem_flow_key key;
	struct crem_flow *flow;
	int err;

	if (READ_ONCE(cn->nflows) >= cfg->max_flows) {
		crem_net_stat_inc(cn, CREM_STAT_FLOW_LIMIT);
		return -ENOSPC;
	}
	crem_flow_key_init(&key, CREM_ROLE_RECEIVER, h->af, h->flow_label,
			   h->src, h->dst);
	key.candidate = candidate;
	flow = flow_alloc(cn, &key);
	if (!flow)
		return -ENOMEM;
	flow->stranger = !crem_cfg_known_peer(cfg, peer_af, peer);
	flow->peer_af = peer_af;
	memcpy(flow->peer, peer, 16);
	flow->peer_port = port;
	spin_lock_bh(&flow->lock);
	err = crem_crf_start(&flow->crf, &flow->env, flow, &cfg->eng, hello,
			     crf_id_in_use, cn);
	/*
	 * A traffic state that could never fit the per-flow limit is
	 * refused with the HELLO, which then goes unanswered: accepted, the
	 * flow would only be closed (reason 3) once its sender has sent a
	 * PARAM_UPDATE or REPAIR and its traffic came (engine.rst, memory
	 * before traffic).
	 */
	if (!err && !crem_env_crf_could_fit(flow)) {
		crem_crf_destroy(&flow->crf);
		err = -ENOMEM;
	}
	if (!err)
		flow->flow_id = flow->crf.flow_id;
	flow->engine_up = !err;
	spin_unlock_bh(&flow->lock);
	if (err || !crem_flowtable_publish(cn, flow, cfg->max_flows)) {
		flow_discard(flow);
		return err ?: -EEXIST;
	}
	/* Its Flow ID finds it now: the CSF may start sending to it. */
	spin_lock_bh(&flow->lock);
	if (!flow->dead)
		crem_crf_answer(&flow->crf);
	spin_unlock_bh(&flow->lock);
	crem_nl_event(cn, "flow-up", flow, NULL);
	return 0;
}
