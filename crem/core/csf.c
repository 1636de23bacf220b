// SPDX-License-Identifier: GPL-2.0
/*
 * The CREM sender function for one flow (see csf.h).
 */
#include "csf.h"
#include "psn.h"

static u64 now(const struct crem_csf *csf)
{
	return csf->env->ops->now_ns(csf->env->ctx);
}

static u64 max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

static u64 min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

/* The smallest k paced_k() proposes: smaller blocks cost m/k more. */
#define CREM_PACED_K_MIN 4

/* An RTT sample of one of the engine's own exchanges. */
static void rtt_sample(struct crem_csf *csf, u64 sample)
{
	crem_srtt_sample(&csf->srtt_ns, &csf->have_srtt, sample);
	crem_min_rtt_sample(&csf->min_rtt_ns, sample);
}

/*
 * The flow's H as the CRF derives it (crem_flow_hold_ns()), from this
 * side's view of the pace and the minimum RTT: its blocks close by H/2.
 */
static u64 hold_ns(const struct crem_csf *csf)
{
	unsigned int k = csf->param.active.k ? csf->param.active.k :
					       csf->cfg.k;

	return crem_flow_hold_ns(&csf->cfg, k,
				 crem_pace_gap_ns(&csf->pace, csf->gap_ns),
				 crem_timing_rtt_ns(csf->min_rtt_ns,
						    csf->srtt_ns));
}

u64 crem_csf_hold_ns(const struct crem_csf *csf)
{
	return hold_ns(csf);
}

static u64 reorder_ns(const struct crem_csf *csf)
{
	return crem_flow_reorder_ns(&csf->cfg, hold_ns(csf));
}

static void *alloc(struct crem_csf *csf, size_t size)
{
	return csf->env->ops->alloc(csf->env->ctx, csf->owner, size);
}

static void release(struct crem_csf *csf, void *mem, size_t size)
{
	if (mem)
		csf->env->ops->free(csf->env->ctx, csf->owner, mem, size);
}

static struct crem_csf_slot *slot_at(struct crem_csf *csf, unsigned int i)
{
	return &csf->ring[(csf->first + i) % csf->cfg.max_blocks];
}

static struct crem_csf_slot *newest(struct crem_csf *csf)
{
	return csf->count ? slot_at(csf, csf->count - 1) : NULL;
}

/* A block's PSN end (exclusive); its k shrinks if it closed early. */
static u32 block_end(const struct crem_csf_block *b)
{
	return crem_psn_add(b->start_psn, b->k);
}

/*
 * Give up the block's ordinary repairs still due: the rate held them back
 * too long, or a coded answer covers its losses now.
 */
static void drop_due(struct crem_csf *csf, struct crem_csf_slot *s)
{
	csf->stats.v[CREM_FS_REPAIRS_RATE_DROPPED] += s->repairs_due;
	csf->repairs_due -= s->repairs_due;
	s->repairs_due = 0;
}

static void free_slot(struct crem_csf *csf, struct crem_csf_slot *s)
{
	drop_due(csf, s);
	release(csf, s->block, s->size);
	memset(s, 0, sizeof(*s));
}

/* Drop the oldest block: acknowledged (@acked) or given up. */
static void pop_oldest(struct crem_csf *csf, bool acked)
{
	struct crem_csf_slot *s = slot_at(csf, 0);

	if (CREM_WARN_ON_ONCE(!csf->count))
		return;
	csf->stats.v[acked ? CREM_FS_BLOCKS_ACKED : CREM_FS_BLOCKS_GIVEN_UP]++;
	if (csf->count == 1)
		csf->open = false;
	free_slot(csf, s);
	csf->first = (csf->first + 1) % csf->cfg.max_blocks;
	csf->count--;
}

/* Are closed blocks kept (the newest may still be open)? */
static bool any_closed(const struct crem_csf *csf)
{
	return csf->count > (csf->open ? 1u : 0u);
}

/*
 * How long a closed block's sources stay of use: the CRF asks for them
 * within its request rounds, the allowance and then two rounds and a
 * fallback a retry (an SRTT and a quarter, and the allowance) apart,
 * under four SRTTs and four allowances after the block reached it (a
 * range request for a block whose REPAIRs were all lost comes up to
 * three tries earlier, each as far apart).  A block is kept for sixteen
 * SRTTs and as many allowances, and given up at the earliest an eighth
 * of that before.  Blocks the RDMA transport never acknowledges (READ
 * responses carry no ACK back to their sender) are given up then, not
 * only when the ring is full: what the CSF keeps follows the
 * bandwidth-delay product, as the draft's Operational Considerations
 * say, and not max_blocks at any rate.
 */
static u64 keep_ns(const struct crem_csf *csf)
{
	return 16 * (csf->srtt_ns + crem_flow_reorder_ns(&csf->cfg,
							 hold_ns(csf)));
}

/*
 * Give up the closed blocks kept past keep_ns(), oldest first, and those
 * due within an eighth of it (a timer a block would cost more than the
 * memory); arm_flow() sets the timer for the next, by the value of
 * keep_ns() this computed (it changes with the SRTT and the pace).
 */
static void expire_blocks(struct crem_csf *csf, u64 t)
{
	u64 keep = keep_ns(csf);

	csf->keep_ns = keep;
	while (any_closed(csf) &&
	       slot_at(csf, 0)->closed_ns + keep <= t + keep / 8)
		pop_oldest(csf, false);
}

/*
 * The kept block whose positions include @psn, or NULL.  Every kept block
 * is looked at: blocks are meant to lie in PSN order without overlap, but
 * a source the CSF declines (too long for T, no memory for its block)
 * leaves next_psn behind, and a block opened after that can overlap an
 * older one, so stopping at the first block before @psn could miss.
 */
static struct crem_csf_slot *find_psn(struct crem_csf *csf, u32 psn)
{
	unsigned int i;

	for (i = csf->count; i-- > 0;) {
		struct crem_csf_slot *s = slot_at(csf, i);
		const struct crem_csf_block *b = s->block;

		if (crem_psn_in_range(psn, b->start_psn, b->k))
			return s;
	}
	return NULL;
}

static struct crem_csf_slot *find_start(struct crem_csf *csf, u32 start)
{
	unsigned int i;

	for (i = 0; i < csf->count; i++) {
		struct crem_csf_slot *s = slot_at(csf, i);

		if (s->block->start_psn == start)
			return s;
	}
	return NULL;
}

/*
 * REPAIRs sent, sampled over time: a LOSS_REPORT counts what reached the
 * CRF by the time it was written, about an SRTT before it arrives here, so
 * it is compared with what had been sent by then.
 */
static void note_repair_sent(struct crem_csf *csf)
{
	u64 t = now(csf);
	struct crem_csf_sample *last = &csf->rep_hist[csf->rep_head];

	csf->rep_sent++;
	if (t - last->t_ns < csf->srtt_ns / 8 && last->t_ns)
		return;
	csf->rep_head = (csf->rep_head + 1) % CREM_CSF_SAMPLES;
	csf->rep_hist[csf->rep_head] = (struct crem_csf_sample){
		.t_ns = t, .count = csf->rep_sent - 1,
	};
}

/* REPAIRs sent before @t (of the samples kept; an undercount at worst). */
static u64 repairs_sent_by(const struct crem_csf *csf, u64 t)
{
	unsigned int i, n;

	for (n = 0, i = csf->rep_head; n < CREM_CSF_SAMPLES;
	     n++, i = (i + CREM_CSF_SAMPLES - 1) % CREM_CSF_SAMPLES)
		if (csf->rep_hist[i].t_ns && csf->rep_hist[i].t_ns <= t)
			return csf->rep_hist[i].count;
	return 0;
}

/* Build and send one REPAIR of block @b. */
static void send_repair(struct crem_csf *csf, const struct crem_csf_block *b,
			u8 scheme, u8 index, u8 flags, u16 session,
			const struct crem_fec_set *lost, const u8 *symbol)
{
	struct crem_msg m = {
		.type = CREM_MSG_REPAIR, .flags = flags, .flow_id = csf->flow_id,
		.repair = {
			.config_id = b->config_id, .scheme = scheme, .k = b->k,
			.index = index, .block_start = b->start_psn,
			.session_id = session,
			.symbol_len = symbol ? b->symbol_len : 0,
			.present = b->present, .symbol = symbol,
		},
	};
	int len;

	if (lost)
		m.repair.lost = *lost;
	len = crem_wire_build(&m, csf->msg, csf->msg_size);
	if (CREM_WARN_ON_ONCE(len < 0))
		return;
	if (!crem_engine_send(csf->env, csf->owner, &csf->stats, csf->msg,
			      len, csf->dscp) && symbol) {
		csf->stats.v[CREM_FS_REPAIR_BYTES_SENT] += len;
		note_repair_sent(csf);
	}
}

/* Send the block's ordinary repairs that the rate allows. */
static void send_due(struct crem_csf *csf, struct crem_csf_slot *s)
{
	struct crem_csf_block *b = s->block;

	while (s->repairs_due && csf->credit >= csf->param.active.k) {
		u8 i = s->repairs_planned - s->repairs_due;	/* 0, 1, ... */

		csf->credit -= csf->param.active.k;
		s->repairs_due--;
		csf->repairs_due--;
		send_repair(csf, b, CREM_FEC_CAUCHY_RS, i,
			    s->repairs_due ? 0 : CREM_REPAIR_F_LAST, 0, NULL,
			    b->repair[i]);
		csf->stats.v[CREM_FS_REPAIRS_SENT]++;
	}
}

/*
 * Send what the rate allows of the repairs due, oldest block first.  The
 * CSF calls this before it looks at the next source and from its timer,
 * never while the source that closed a block is still on its way out, so
 * that repairs follow their block on the wire.
 */
static void send_all_due(struct crem_csf *csf)
{
	u64 late, hold = hold_ns(csf), reorder = reorder_ns(csf);
	unsigned int i;

	for (i = 0; i < csf->count && csf->repairs_due; i++) {
		struct crem_csf_slot *s = slot_at(csf, i);

		if (!s->repairs_due)
			continue;
		late = now(csf) - s->closed_ns;
		/*
		 * A repair the rate holds back past the CRF's reordering
		 * allowance would come after its request: the rate budget is
		 * better spent on newer blocks, and a coded retransmission,
		 * bounded by the loss, covers this one.  Past H, no one
		 * could use it.
		 */
		if (late > hold || (s->deferred && late > reorder)) {
			drop_due(csf, s);
			continue;
		}
		/*
		 * Lateness alone is no reason to withhold what the rate
		 * allows: a timer that fired late (a busy CPU, a descheduled
		 * virtual one) still leaves the CRF its hold time to use it.
		 */
		send_due(csf, s);
		if (s->repairs_due && late > reorder) {
			drop_due(csf, s);
			continue;
		}
		if (s->repairs_due && !s->deferred) {
			s->deferred = true;
			csf->stats.v[CREM_FS_REPAIRS_DEFERRED] += s->repairs_due;
		}
	}
}

/* The m to send now: the configuration's, unless the policy holds back. */
static u8 repairs_now(const struct crem_csf *csf, u8 config_m)
{
	const struct crem_policy *pol = &csf->policy;

	if (pol->tripped)
		return 0;
	if (!pol->repair_trouble)
		return config_m;
	if (now(csf) - pol->repair_trouble_since > CREM_REPAIR_TROUBLE_NS)
		return 0;
	/* The adaptive policy lowers its m; a fixed m goes one below. */
	if (csf->cfg.adaptive)
		return pol->m < config_m ? pol->m : config_m;
	return config_m ? config_m - 1 : 0;
}

/*
 * The ordinary repairs a block of @k positions gets: m with all k sources
 * present.  A block with n < k sources (cut short, or with positions that
 * carry no source this way, a READ's responses) gets m * n / k, so that
 * the overhead per source stays m/k: the rate credit that pays for the
 * repairs earns m per source (the draft's MUST), and a share rounded up
 * at every such block would outrun it, so that every later block's
 * repairs would wait for credit, some until too late to fill a gap within
 * H.  The fraction left over is carried to the next block (@carry, in 1/k
 * repairs), so a block may get none until the carried share reaches one;
 * its losses then wait for coded retransmission.  At the end of a burst
 * the share is rounded up instead, so that a lost last packet does not
 * wait for the RDMA transport's timeout; the pause after it starts the
 * carry afresh.
 */
static u8 repairs_for(const struct crem_csf_block *b, unsigned int k,
		      bool burst_end, u32 *carry)
{
	unsigned int n = crem_set_count(&b->present);
	u32 owed, r;

	if (burst_end && !n)
		*carry = 0;
	if (!n)
		return 0;	/* nothing to protect (a source too long for T) */
	if (n >= k)
		return b->m;
	owed = b->m * n;
	if (burst_end) {
		r = (owed + k - 1) / k;
		*carry = 0;
	} else {
		owed += *carry;
		r = owed / k;
		*carry = owed % k;
	}
	return r < b->m ? r : b->m;
}

/* Why a block closes; which of the shortened ones decides its repairs. */
enum crem_csf_close_why {
	CSF_CLOSE_NOT_DUE,
	CSF_CLOSE_FULL,		/* k positions covered */
	CSF_CLOSE_BURST_END,	/* a pause, a PSN beyond it, or a request */
	CSF_CLOSE_TIMED_OUT,	/* open too long for H: block_deadline() */
};

static void close_block(struct crem_csf *csf, struct crem_csf_slot *s,
			enum crem_csf_close_why why)
{
	unsigned int k = s->block->k;	/* the close makes it the covered */
	u8 m;

	crem_csf_block_close(s->block);
	s->closed_ns = now(csf);
	csf->open = false;
	if (why != CSF_CLOSE_FULL)
		csf->stats.v[CREM_FS_BLOCKS_CLOSED_EARLY]++;
	m = repairs_for(s->block, k, why == CSF_CLOSE_BURST_END,
			&csf->repair_carry);
	csf->stats.v[CREM_FS_REPAIRS_SCALED] += s->block->m - m;
	s->repairs_due = repairs_now(csf, m);
	s->repairs_planned = s->repairs_due;
	csf->repairs_due += s->repairs_due;
	csf->stats.v[CREM_FS_REPAIRS_WITHHELD] += m - s->repairs_due;
}

static bool open_block(struct crem_csf *csf, u32 start)
{
	const struct crem_config *c =
		crem_csf_param_for_block(&csf->param, start);
	struct crem_csf_slot *s;
	size_t hdr, size;
	u8 *mem;

	if (!c->k)
		return false;	/* no configuration acknowledged yet */
	if (c->id != csf->applied_id) {
		struct crem_event ev = {
			.type = CREM_EV_CONFIG_CHANGED, .flow_id = csf->flow_id,
			.block_start = start, .a = c->id, .b = c->k, .c = c->m,
		};

		crem_env_event(csf->env, csf->owner, &ev);
		csf->applied_id = c->id;
		csf->stats.v[CREM_FS_CONFIG_CHANGES]++;
		/* A new m: the burst allowance is two blocks' repairs. */
		csf->credit = 2ull * c->m * c->k;
		csf->repair_carry = 0;
	}
	if (csf->count == csf->cfg.max_blocks)
		pop_oldest(csf, false);
	hdr = crem_symbol_stride(sizeof(struct crem_csf_block));
	size = hdr + crem_csf_block_size(c->k, c->m, c->symbol_len);
	mem = alloc(csf, size);
	if (!mem) {
		csf->stats.v[CREM_FS_MEMORY_REFUSED]++;
		return false;
	}
	s = slot_at(csf, csf->count);
	memset(s, 0, sizeof(*s));
	s->block = (struct crem_csf_block *)mem;
	s->size = size;
	s->opened_ns = now(csf);
	if (crem_csf_block_init(s->block, mem + hdr, start, c->k, c->m,
				c->symbol_len, c->id, c->scheme)) {
		CREM_WARN_ON_ONCE(1);
		release(csf, mem, size);
		s->block = NULL;
		return false;
	}
	csf->count++;
	csf->open = true;
	csf->stats.v[CREM_FS_BLOCKS]++;
	return true;
}

/*
 * When the open block must close, whether full or not: half the hold time
 * H after its first source.  The CRF holds the packets after a gap for H
 * at most, and the gap's repairs leave only when its block closes; a block
 * of a slow flow that took longer than H to fill would have its repairs
 * come after the held packets went, and the RDMA transport would resend a
 * window for a loss crem could have restored.  Half leaves the other half
 * for the repairs' way and the CRF's decode.  The CSF takes its own H for
 * the CRF's: both run the same configuration.
 *
 * A block is cut only once its sources have paid for a repair (m * n >= k),
 * and only until H has passed: a block cut sooner would get no repair, and
 * one cut later could no longer beat H, so cutting it would only weaken
 * it.  No hold (H = 0) or no repairs (m = 0) sets no deadline.
 */
static u64 block_deadline(struct crem_csf *csf, u64 t)
{
	const struct crem_csf_slot *s;
	u64 hold;

	/* Tested per packet: the cheap tests first, H only when needed. */
	if (!csf->open)
		return CREM_NO_DEADLINE;
	s = newest(csf);
	if (!s->block->m ||
	    s->block->m * crem_set_count(&s->block->present) < s->block->k)
		return CREM_NO_DEADLINE;
	hold = hold_ns(csf);
	if (!hold || t >= s->opened_ns + hold)
		return CREM_NO_DEADLINE;
	return s->opened_ns + hold / 2;
}

/*
 * The end of a burst: no new source for the open block for the burst gap
 * past the flow's pace, and for H/2 at least.  A pause shorter than that is
 * the sender's scheduling, not the end of its data (soft-RoCE sends in
 * clumps), and cutting a block there would cost a repair for a few
 * sources; a loss before the pause is still restored within H, its block
 * closing H/2 after its last source.  Retransmissions do not extend the
 * burst: after a NAK the RDMA transport resends a window of old PSNs, and
 * the block that holds a loss must not wait behind them.
 */
static u64 burst_deadline(struct crem_csf *csf)
{
	return newest(csf)->last_source_ns +
	       max_u64(csf->gap_ns + csf->cfg.burst_gap_ns,
		       hold_ns(csf) / 2);
}

/* Whether the open block is due to close at @t, and why. */
static enum crem_csf_close_why block_due(struct crem_csf *csf, u64 t)
{
	if (t >= burst_deadline(csf))
		return CSF_CLOSE_BURST_END;
	if (t >= block_deadline(csf, t))
		return CSF_CLOSE_TIMED_OUT;
	return CSF_CLOSE_NOT_DUE;
}

/*
 * When an unprotected flow ends: refused by its receiver (CLOSE 3), after
 * idle_ns; with its HELLOs unanswered, once no late HELLO_ACK can come,
 * whether sources still flow or not: a receiver that was away while they
 * went (its crem restarting, say) would otherwise leave a long transfer
 * unprotected to its end.  Else after idle_ns without a source.  Its next
 * source, if any, then negotiates again.
 */
static u64 unprotected_end(const struct crem_csf *csf)
{
	u64 d = csf->last_activity_ns + csf->cfg.idle_ns;

	if (csf->refused_until_ns)
		return min_u64(d, csf->refused_until_ns);
	if (csf->hello.state == CREM_HELLO_FAILED)
		return csf->hello.failed_ns + CREM_HELLO_LATE_NS;
	return d;
}

/* PSNs between now and an Effective PSN: two SRTTs' worth at the pace. */
static u32 param_lead(const struct crem_csf *csf)
{
	return min_u64(2 * csf->psn_per_srtt, CREM_PSN_HALF / 4);
}

/*
 * How long sent sources may go unanswered before the CSF asks whether the
 * receiver still has the flow.  A receiver with the flow reports at least
 * once an SRTT while sources reach it (draft, "Receiver Loss Reports");
 * one without it (restarted, or it ended the flow and its CLOSE was lost)
 * says nothing, and at m 0 nothing the sender sends would make it say so.
 * Three SRTTs, or twice the usual wait, of silence: the reports, or the
 * flow, are gone.  A PARAM_UPDATE for the configuration in use asks; a
 * receiver with the flow acknowledges it, one without it answers CLOSE
 * (crem_crf_answer_unknown()), and one gone altogether leaves it
 * unanswered until the flow closes with reason 2.
 */
static u64 silence_ns(const struct crem_csf *csf)
{
	u64 d = max_u64(3 * csf->srtt_ns, 2 * csf->answer_ns);

	return max_u64(d + reorder_ns(csf), CREM_PARAM_MIN_RTO_NS);
}

/* Sources wait for an answer, and no PARAM_UPDATE is out that would do. */
static bool may_probe(const struct crem_csf *csf)
{
	return csf->unheard_ns && csf->param.active.k &&
	       csf->param.state == CREM_PARAM_IDLE;
}

static void probe(struct crem_csf *csf)
{
	csf->unheard_ns = 0;
	if (!crem_csf_param_propose(&csf->param, &csf->param.active,
				    crem_psn_add(csf->next_psn,
						 param_lead(csf)),
				    param_lead(csf), csf->srtt_ns))
		csf->stats.v[CREM_FS_SILENCE_PROBES]++;
}

/* The receiver spoke on this flow: a wait ends; it rises fast, falls slowly. */
static void heard(struct crem_csf *csf, u64 t)
{
	if (csf->unheard_ns) {
		u64 wait = t - csf->unheard_ns;

		if (wait > csf->answer_ns)
			csf->answer_ns += (wait - csf->answer_ns) >> 2;
		else
			csf->answer_ns -= (csf->answer_ns - wait) >> 3;
	}
	csf->unheard_ns = 0;
}

static void arm_flow(struct crem_csf *csf)
{
	u64 d = CREM_NO_DEADLINE;

	switch (csf->state) {
	case CREM_CSF_NEGOTIATING:
		d = csf->hello.deadline_ns;
		break;
	case CREM_CSF_ACTIVE:
		if (csf->param.state == CREM_PARAM_PENDING)
			d = csf->param.deadline_ns;
		if (csf->open)
			d = min_u64(d, min_u64(block_deadline(csf, now(csf)),
					       burst_deadline(csf)));
		/* Repairs due go out once the current packet has. */
		if (csf->repairs_due && csf->credit >= csf->param.active.k)
			d = min_u64(d, now(csf));
		if (may_probe(csf))
			d = min_u64(d, csf->unheard_ns + silence_ns(csf));
		d = min_u64(d, csf->last_activity_ns + csf->cfg.idle_ns);
		if (any_closed(csf))
			d = min_u64(d, slot_at(csf, 0)->closed_ns +
				       csf->keep_ns);
		break;
	case CREM_CSF_UNPROTECTED:
		d = unprotected_end(csf);
		break;
	default:
		break;
	}
	/*
	 * Only an earlier deadline is passed on: a timer that fires early
	 * finds nothing due and re-arms, which costs less than re-arming on
	 * every packet as the burst deadline moves on.
	 */
	if (d < csf->armed_ns) {
		csf->armed_ns = d;
		csf->env->ops->arm(csf->env->ctx, csf->owner, d);
	}
}

int crem_csf_start(struct crem_csf *csf, const struct crem_env *env,
		   void *owner, const struct crem_engine_config *cfg,
		   const struct crem_flow_desc *desc, u32 next_psn,
		   struct crem_csf_slot *ring)
{
	int err;

	if (crem_engine_config_check(cfg, NULL) || !desc->rdma_mtu)
		return -EINVAL;
	memset(csf, 0, sizeof(*csf));
	csf->env = env;
	csf->owner = owner;
	crem_sub_env_init(&csf->sub, env, owner, &csf->stats, &csf->dscp);
	csf->cfg = *cfg;
	csf->ring = ring;
	memset(ring, 0, cfg->max_blocks * sizeof(*ring));
	csf->srtt_ns = cfg->initial_rtt_ns;
	csf->keep_ns = 16 * (cfg->initial_rtt_ns + cfg->reorder_ns);
	csf->next_psn = next_psn & CREM_PSN_MASK;
	csf->first_psn = csf->next_psn;
	csf->msg_size = CREM_REPAIR_MAX_HDR + cfg->limits.max_t;
	csf->coded_size = CREM_CSF_BATCH *
			  crem_symbol_stride(cfg->limits.max_t);
	csf->msg = alloc(csf, csf->msg_size);
	csf->coded = alloc(csf, csf->coded_size);
	if (!csf->msg || !csf->coded) {
		crem_csf_destroy(csf);
		return -ENOMEM;
	}
	csf->last_activity_ns = now(csf);
	csf->armed_ns = CREM_NO_DEADLINE;
	csf->state = CREM_CSF_NEGOTIATING;
	err = crem_csf_hello_start(&csf->hello, &csf->sub.env, csf, desc,
				   &cfg->limits);
	if (err) {
		crem_csf_destroy(csf);
		return err;
	}
	arm_flow(csf);
	return 0;
}

/*
 * The block size for the flow's pace.  A block must fill within H/2 of
 * its first source, so that its repairs come within the CRF's H, which is
 * at most a quarter of the minimum RTT (crem_flow_hold_ns()).  The draft
 * leaves k to the CSF ("k trades decoding delay against overhead"): with
 * auto_timing, the configured k (RECOMMENDED 32) where the flow is fast
 * enough, a smaller power of two, down to CREM_PACED_K_MIN, where it is
 * not; a block of the configured k on a slow flow could only be cut
 * early, and not before its sources paid for a repair (block_deadline()),
 * which is too late.  The adaptive policy chooses m for that k; a fixed m
 * is scaled with it (propose()).  A flow not paced yet keeps its k.
 * Powers of two, and growth only when the larger k fits with a fifth to
 * spare, keep an uneven pace from changing the configuration at every
 * report; propose() keeps to one change per two SRTTs.
 */
static u8 paced_k(const struct crem_csf *csf)
{
	u64 k_max = min_u64(csf->cfg.k, csf->hello.effective.max_k);
	u64 cur = csf->param.active.k, budget, k = CREM_PACED_K_MIN;
	u64 gap = crem_pace_gap_ns(&csf->pace, csf->gap_ns);

	if (!csf->cfg.auto_timing || !gap)
		return cur ? cur : k_max;
	budget = crem_timing_rtt_ns(csf->min_rtt_ns, csf->srtt_ns) / 8;
	while (2 * k * gap <= budget && 2 * k <= k_max)
		k *= 2;
	/* A configured k that is no power of two, where the pace allows. */
	if (2 * k > k_max && k_max * gap <= budget)
		k = k_max;
	/* Grow past the k in use only with room to spare. */
	if (cur && k > cur && k * gap * 5 > budget * 4)
		k = cur;
	return min_u64(k, k_max);
}

static void propose(struct crem_csf *csf, u8 m)
{
	struct crem_config c = csf->param.active;
	u64 t = now(csf);

	c.scheme = csf->cfg.scheme;
	c.k = paced_k(csf);
	/* A fixed m is for the configured k: about its overhead m/k. */
	if (csf->cfg.auto_timing && !csf->cfg.adaptive && m &&
	    c.k < csf->cfg.k)
		m = (m * c.k + csf->cfg.k - 1) / csf->cfg.k;
	c.m = min_u64(m, csf->hello.effective.max_m);
	if (c.m + c.k > 255)
		c.m = 255 - c.k;
	c.symbol_len = csf->symbol_len;
	if (c.k == csf->param.active.k && c.m == csf->param.active.m)
		return;
	/*
	 * The draft's hysteresis, for a change of k as for m (the policy
	 * keeps to it for its m alone): one change per two SRTTs.
	 */
	if (!crem_csf_param_first(&csf->param)) {
		if (t - csf->config_changed_ns < 2 * csf->srtt_ns)
			return;
		/* ... and the policy's next m waits as long. */
		if (c.k != csf->param.active.k) {
			csf->policy.last_change_ns = t;
			csf->policy.changed_once = true;
		}
	}
	csf->config_changed_ns = t;
	/*
	 * A change takes effect a round trip of PSNs from now, if the flow
	 * keeps on; the first configuration as soon as it is acknowledged.
	 */
	crem_csf_param_propose(&csf->param, &c,
			       crem_psn_add(csf->next_psn,
					    crem_csf_param_first(&csf->param) ?
					    0 : param_lead(csf)),
			       param_lead(csf), csf->srtt_ns);
}

/*
 * The m a flow starts with: the configured one when fixed; with the
 * adaptive policy, the policy's (hello_acked()).  The draft's policy
 * chooses m for the measured loss rate, and m = 0 (coded retransmission
 * alone) while it is too low to need more.  Before the flow's first
 * report (once it has sent CREM_POLICY_SAMPLE sources, about an SRTT in)
 * the rate is the path's other flows' estimate if they made one lately
 * (crem_csf_set_prior()), else unknown, and then m = 0: a guess costs
 * every source of a clean path its coding (in the lab's emulated guests,
 * a repair of a block of 27 cost about a millisecond of CPU).
 */
static u8 initial_m(const struct crem_csf *csf)
{
	return csf->cfg.adaptive ? crem_policy_m(&csf->policy) : csf->cfg.m;
}

void crem_csf_set_prior(struct crem_csf *csf,
			const struct crem_path_estimate *est)
{
	if (csf->state != CREM_CSF_NEGOTIATING)
		return;
	csf->prior = *est;
	csf->have_prior = true;
}

bool crem_csf_path_estimate(const struct crem_csf *csf,
			    struct crem_path_estimate *est)
{
	return csf->cfg.adaptive && csf->state == CREM_CSF_ACTIVE &&
	       crem_policy_estimate(&csf->policy, est);
}

/*
 * The CPU time one repair index of a k-source block costs to code: k
 * symbols into one more row, at the measured speed (two rows a pass).
 */
static u64 repair_price_ns(const struct crem_csf *csf, unsigned int k)
{
	if (!csf->cfg.coder_mbs)
		return 0;
	return crem_div64((u64)k * csf->symbol_len * 1000,
			  2 * (u64)csf->cfg.coder_mbs);
}

static void hello_acked(struct crem_csf *csf)
{
	const struct crem_limits *e = &csf->hello.effective;
	struct crem_config none = { 0 };
	struct crem_policy_params pp;

	if (!(e->schemes & 1u << csf->cfg.scheme)) {
		csf->state = CREM_CSF_UNPROTECTED;
		return;
	}
	csf->flow_id = csf->hello.flow_id;
	csf->symbol_len = e->max_t;
	/* Karn: only an exchange that was not repeated measures the RTT. */
	if (csf->hello.attempts == 1)
		rtt_sample(csf, now(csf) - (csf->hello.deadline_ns -
					    csf->hello.rto_ns));
	/* Configuration 0 is "none": blocks start once 1 is acknowledged. */
	crem_csf_param_init(&csf->param, &csf->sub.env, csf, csf->flow_id,
			    &none);
	pp = (struct crem_policy_params) {
		.k = paced_k(csf),
		.max_m = e->max_m,
		.m_cong = csf->cfg.m_cong,
		.epsilon = CREM_PPM(csf->cfg.epsilon_ppm),
		.srtt_ns = csf->srtt_ns,
	};
	pp.repair_price_ns = repair_price_ns(csf, pp.k);
	crem_policy_init(&csf->policy, &pp, csf->cfg.adaptive ? 0 : csf->cfg.m);
	if (csf->cfg.adaptive && csf->have_prior)
		crem_policy_seed(&csf->policy, &csf->prior);
	csf->answer_ns = csf->srtt_ns;
	csf->unheard_ns = 0;
	csf->state = CREM_CSF_ACTIVE;
	propose(csf, initial_m(csf));
}

/* Track the flow's pace: inter-arrival EWMA and PSNs per SRTT. */
static void pace(struct crem_csf *csf, u64 t)
{
	if (csf->last_source_ns) {
		u64 gap = t - csf->last_source_ns;

		if (gap > csf->gap_ns)
			csf->gap_ns += (gap - csf->gap_ns) >> 3;
		else
			csf->gap_ns -= (csf->gap_ns - gap) >> 3;
		/* A long pause ends the burst; it says nothing of the pace. */
		if (csf->gap_ns > csf->srtt_ns)
			csf->gap_ns = csf->srtt_ns;
	}
	if (!csf->rate_mark_ns) {
		csf->rate_mark_ns = t;
		csf->rate_mark_psn = csf->next_psn;
	} else if (t - csf->rate_mark_ns >= csf->srtt_ns) {
		/* From the flow's front: a retransmission goes backwards. */
		u32 n = crem_psn_offset(csf->next_psn, csf->rate_mark_psn);

		csf->psn_per_srtt = crem_div64((u64)n * csf->srtt_ns,
					       t - csf->rate_mark_ns);
		csf->rate_mark_ns = t;
		csf->rate_mark_psn = csf->next_psn;
	}
	crem_pace_source(&csf->pace, t, csf->srtt_ns);
	csf->last_source_ns = t;
	csf->last_activity_ns = t;
}

static void add_source(struct crem_csf *csf, u32 psn, u32 span,
		       const u8 *payload, size_t len)
{
	struct crem_csf_slot *s;

	s = csf->open ? newest(csf) : NULL;
	if (!s) {
		s = find_psn(csf, psn);
		if (s) {
			s->retransmitted = true;
			csf->stats.v[CREM_FS_SOURCES_RETRANSMITTED]++;
			return;
		}
		if (crem_psn_before(psn, csf->next_psn)) {
			csf->stats.v[CREM_FS_SOURCES_RETRANSMITTED]++;
			return;
		}
		if (!open_block(csf, psn)) {
			csf->stats.v[CREM_FS_SOURCES_UNPROTECTED]++;
			return;
		}
		s = newest(csf);
	}
	switch (crem_csf_block_add(s->block, psn, span, payload, len)) {
	case CREM_CSF_ADDED:
		csf->credit = min_u64(csf->credit + s->block->m,
				      2ull * s->block->m * csf->param.active.k);
		s->last_source_ns = csf->last_source_ns;
		if (crem_psn_after(crem_psn_add(psn, span), csf->next_psn))
			csf->next_psn = crem_psn_add(psn, span);
		if (s->block->closed)
			close_block(csf, s, CSF_CLOSE_FULL);
		else if (csf->last_source_ns >=
			 block_deadline(csf, csf->last_source_ns))
			close_block(csf, s, CSF_CLOSE_TIMED_OUT);
		break;
	case CREM_CSF_BEYOND:
		close_block(csf, s, CSF_CLOSE_BURST_END);
		add_source(csf, psn, span, payload, len);
		break;
	case CREM_CSF_BEFORE:
	case CREM_CSF_DUPLICATE:
		s = find_psn(csf, psn);
		if (s)
			s->retransmitted = true;
		csf->stats.v[CREM_FS_SOURCES_RETRANSMITTED]++;
		break;
	case CREM_CSF_TOO_LONG:
		csf->stats.v[CREM_FS_SOURCES_UNPROTECTED]++;
		break;
	}
}

void crem_csf_source(struct crem_csf *csf, const struct crem_roce_pkt *pkt,
		     const u8 *udp_payload, size_t len)
{
	u32 span;

	if (!crem_roce_is_source(pkt) || csf->state == CREM_CSF_CLOSED)
		return;
	csf->stats.v[CREM_FS_SOURCES]++;
	csf->stats.v[CREM_FS_SOURCE_BYTES] += len;
	csf->dscp = pkt->dscp;
	span = crem_roce_psn_span(pkt, csf->hello.flow.rdma_mtu);
	pace(csf, now(csf));
	/* The first configuration applies once acknowledged and reached. */
	if (csf->state == CREM_CSF_ACTIVE && !csf->param.active.k) {
		if (csf->param.state == CREM_PARAM_IDLE)
			propose(csf, initial_m(csf));
		crem_csf_param_for_block(&csf->param, pkt->psn);
	}
	if (csf->state != CREM_CSF_ACTIVE || !csf->param.active.k) {
		if (crem_psn_after(crem_psn_add(pkt->psn, span), csf->next_psn))
			csf->next_psn = crem_psn_add(pkt->psn, span);
		if (csf->state == CREM_CSF_ACTIVE)
			crem_csf_param_progress(&csf->param, csf->next_psn);
		if (csf->state == CREM_CSF_UNPROTECTED)
			csf->last_activity_ns = now(csf);
		csf->stats.v[CREM_FS_SOURCES_UNPROTECTED]++;
		arm_flow(csf);
		return;
	}
	send_all_due(csf);
	add_source(csf, pkt->psn, span, udp_payload, len);
	if (!csf->unheard_ns)
		csf->unheard_ns = csf->last_source_ns;
	crem_csf_param_progress(&csf->param, csf->next_psn);
	arm_flow(csf);
}

int crem_csf_set_m(struct crem_csf *csf, u8 m)
{
	u8 k = csf->param.active.k;

	if (csf->state != CREM_CSF_ACTIVE || !k)
		return -ENOTCONN;
	if (m > csf->hello.effective.max_m || m + k > 255)
		return -EINVAL;
	if (csf->param.state == CREM_PARAM_PENDING ||
	    csf->param.state == CREM_PARAM_ACKED)
		return -EBUSY;
	csf->cfg.m = m;
	if (!csf->cfg.adaptive)
		propose(csf, m);
	arm_flow(csf);
	return 0;
}

void crem_csf_flush(struct crem_csf *csf)
{
	if (csf->open)
		crem_csf_block_flush(newest(csf)->block);
}

u64 crem_csf_ack_range(const struct crem_csf *csf)
{
	u32 first = csf->have_ack ? csf->acked_psn :
				    crem_psn_add(csf->first_psn, -1);

	return (u64)first << 32 | crem_psn_add(csf->next_psn, -1);
}

u32 crem_csf_ack_psn(const struct crem_roce_pkt *ack)
{
	return ack->class == CREM_ROCE_NAK ? crem_psn_add(ack->psn, -1) :
					     ack->psn;
}

void crem_csf_rdma_ack(struct crem_csf *csf, const struct crem_roce_pkt *ack)
{
	unsigned int freed = 0;
	u32 through;
	u64 sample = 0;

	if (csf->state != CREM_CSF_ACTIVE || !crem_roce_acknowledges(ack))
		return;
	through = crem_csf_ack_psn(ack);
	/*
	 * The caller matches ACKs to flows by addresses only (an ACK names
	 * the requester's QP), so it may be another QP's, from another PSN
	 * space.  Acknowledgements are cumulative: this flow's lie between
	 * the last one and the newest PSN sent.  Anything else is ignored.
	 */
	if (!crem_csf_ack_in_range(crem_csf_ack_range(csf), through)) {
		csf->stats.v[CREM_FS_ACKS_IGNORED]++;
		return;
	}
	csf->acked_psn = through;
	csf->have_ack = true;
	csf->last_activity_ns = now(csf);
	while (csf->count) {
		struct crem_csf_slot *s = slot_at(csf, 0);
		const struct crem_csf_block *b = s->block;

		if (!b->closed ||
		    crem_psn_before(through, crem_psn_add(block_end(b), -1)))
			break;
		/*
		 * A READ response frees its READ's block at the last
		 * response, after the responder streamed them all: no
		 * round-trip sample.
		 */
		sample = s->retransmitted ||
			 ack->class == CREM_ROCE_READ_RESPONSE ? 0 :
			 now(csf) - s->last_source_ns;
		pop_oldest(csf, true);
		freed++;
	}
	/*
	 * An ACK that frees one block times it; one that frees several ends
	 * a stall (a loss the receiver waited for) and would overstate it.
	 */
	if (sample && freed == 1) {
		crem_srtt_sample(&csf->srtt_ns, &csf->have_srtt, sample);
		csf->policy.par.srtt_ns = csf->srtt_ns;
	}
	arm_flow(csf);
}

/*
 * Answer lost set @lost of block @s: M symbols over L (coded), or the
 * sources themselves (Source Copy) when @source_copy or when the block has
 * too few fresh indices left.
 */
static void answer(struct crem_csf *csf, struct crem_csf_slot *s,
		   const struct crem_fec_set *lost, unsigned int count,
		   bool source_copy, u16 request_id)
{
	struct crem_csf_block *b = s->block;
	size_t stride = b->stride;
	unsigned int x = crem_set_count(lost), sent = 0, j;
	struct crem_fec_work *work;
	struct crem_event ev;

	if (!count)
		return;
	if (source_copy || b->next_index + count + b->k > 256) {
		crem_set_for_each(j, lost) {
			send_repair(csf, b, CREM_FEC_SOURCE_COPY, j,
				    CREM_REPAIR_F_RETX |
				    (++sent == x ? CREM_REPAIR_F_LAST : 0),
				    request_id, lost,
				    crem_csf_block_source(b, j));
		}
		csf->stats.v[CREM_FS_SOURCE_COPY_SYMBOLS] += x;
		return;
	}
	work = csf->env->ops->work(csf->env->ctx);
	while (sent < count) {
		u8 *out[CREM_CSF_BATCH], index[CREM_CSF_BATCH];
		unsigned int n = min_u64(count - sent, CREM_CSF_BATCH), t;

		for (t = 0; t < n; t++)
			out[t] = csf->coded + t * stride;
		if (crem_csf_block_coded(b, lost, &n, out, index, work) !=
		    CREM_FEC_CAUCHY_RS) {
			CREM_WARN_ON_ONCE(1);
			return;
		}
		for (t = 0; t < n; t++) {
			sent++;
			send_repair(csf, b, CREM_FEC_CAUCHY_RS, index[t],
				    CREM_REPAIR_F_RETX |
				    (sent == count ? CREM_REPAIR_F_LAST : 0),
				    request_id, lost, out[t]);
		}
	}
	csf->stats.v[CREM_FS_CODED_RETX]++;
	csf->stats.v[CREM_FS_CODED_RETX_SYMBOLS] += count;
	csf->stats.v[CREM_FS_CODED_RETX_LOST] += x;
	ev = (struct crem_event){
		.type = CREM_EV_CODED_RETX_SENT, .flow_id = csf->flow_id,
		.block_start = b->start_psn, .a = x, .b = count,
		.c = request_id,
	};
	crem_env_event(csf->env, csf->owner, &ev);
}

/*
 * One block's part of a request: lost set @lost, @held repairs at the
 * CRF, suggested count @suggested.  At most one answer per block per SRTT.
 */
static int answer_block(struct crem_csf *csf, struct crem_csf_slot *s,
			const struct crem_fec_set *lost, unsigned int held,
			unsigned int suggested, bool fallback, u16 request_id)
{
	unsigned int x = crem_set_count(lost), low;
	u64 t = now(csf);

	if (!crem_policy_coded_retx(&csf->policy)) {
		csf->stats.v[CREM_FS_REQUESTS_REFUSED]++;
		return -EPERM;
	}
	if (s->answered_ns && t - s->answered_ns < csf->srtt_ns) {
		csf->stats.v[CREM_FS_REQUESTS_RATE_LIMITED]++;
		return -EBUSY;
	}
	if (!x || !crem_set_subset(lost, &s->block->present)) {
		csf->stats.v[CREM_FS_REQUESTS_REFUSED]++;
		return -EINVAL;
	}
	s->answered_ns = t;
	csf->stats.v[CREM_FS_REQUESTS_ANSWERED]++;
	/* The answer covers what the block's own repairs still due would. */
	drop_due(csf, s);
	if (fallback || s->rounds >= 2) {
		struct crem_event ev = {
			.type = CREM_EV_FALLBACK, .flow_id = csf->flow_id,
			.block_start = s->block->start_psn, .a = x, .b = 1,
		};

		crem_env_event(csf->env, csf->owner, &ev);
		s->fell_back = true;
		csf->stats.v[CREM_FS_FALLBACKS]++;
		answer(csf, s, lost, x, true, request_id);
		return 0;
	}
	/* M in [X - r, X]: normally the CRF's suggestion. */
	low = x > held ? x - held : 0;
	if (suggested < low)
		suggested = low;
	if (suggested > x)
		suggested = x;
	s->rounds++;
	answer(csf, s, lost, suggested, false, request_id);
	return 0;
}

static void send_info(struct crem_csf *csf, const struct crem_csf_block *b)
{
	send_repair(csf, b, b->scheme, 0, CREM_REPAIR_F_INFO, 0, NULL, NULL);
	csf->stats.v[CREM_FS_INFO_SENT]++;
}

/* The PSN-range form: map the PSNs to blocks and answer each, r = 0. */
static int range_request(struct crem_csf *csf, const struct crem_msg *msg)
{
	const struct crem_wire_request *q = &msg->request;
	unsigned int i, c;
	int used = -ENOENT;

	for (i = 0; i < q->nranges; i++) {
		struct crem_psn_range r = crem_wire_range(msg, i);

		for (c = 0; c < r.count;) {
			u32 psn = crem_psn_add(r.start, c);
			struct crem_csf_slot *s = find_psn(csf, psn);
			struct crem_fec_set lost = { 0 };
			struct crem_csf_block *b;
			bool absent = false;
			u32 off;

			if (!s) {
				csf->stats.v[CREM_FS_REQUESTS_UNKNOWN_BLOCK]++;
				c++;
				continue;
			}
			b = s->block;
			/* The CRF waits on the open block: close it now. */
			if (!b->closed)
				close_block(csf, s, CSF_CLOSE_BURST_END);
			for (; c < r.count; c++) {
				psn = crem_psn_add(r.start, c);
				if (!crem_psn_in_range(psn, b->start_psn, b->k))
					break;
				off = crem_psn_offset(psn, b->start_psn);
				if (crem_set_has(&b->present, off))
					crem_set_add(&lost, off);
				else
					absent = true;
			}
			if (absent)
				send_info(csf, b);
			/*
			 * An answer drops the block's ordinary repairs still
			 * due, which it covers; a refused block keeps them.
			 */
			if (crem_set_count(&lost) &&
			    !answer_block(csf, s, &lost, 0, crem_set_count(&lost),
					  msg->flags & CREM_REQ_F_FALLBACK,
					  q->request_id))
				used = 0;
			else if (absent)
				used = 0;
			send_all_due(csf);
		}
	}
	return used;
}

static int request(struct crem_csf *csf, const struct crem_msg *msg)
{
	const struct crem_wire_request *q = &msg->request;
	struct crem_csf_slot *s;

	if (msg->flags & CREM_REQ_F_RANGES)
		return range_request(csf, msg);
	s = find_start(csf, q->block_start);
	if (!s) {
		csf->stats.v[CREM_FS_REQUESTS_UNKNOWN_BLOCK]++;
		return -ENOENT;
	}
	if (!s->block->closed || q->k != s->block->k ||
	    q->config_id != s->block->config_id ||
	    !crem_set_within(&q->lost, s->block->k)) {
		csf->stats.v[CREM_FS_REQUESTS_REFUSED]++;
		return -EINVAL;
	}
	return answer_block(csf, s, &q->lost, q->repairs_held, q->suggested_m,
			    msg->flags & CREM_REQ_F_FALLBACK, q->request_id);
}

static void loss_report(struct crem_csf *csf, const struct crem_msg *msg)
{
	struct crem_policy *pol = &csf->policy;
	u64 t = now(csf), sent;

	csf->stats.v[CREM_FS_LOSS_REPORTS_RECEIVED]++;
	pol->par.srtt_ns = csf->srtt_ns;
	/* m is chosen for the k the next configuration will have. */
	pol->par.k = paced_k(csf);
	pol->par.repair_price_ns = repair_price_ns(csf, pol->par.k);
	sent = repairs_sent_by(csf, t > csf->srtt_ns ? t - csf->srtt_ns : 0);
	if (sent < csf->rep_reported)
		sent = csf->rep_reported;
	crem_policy_loss_report(pol, &msg->loss_report,
				sent - csf->rep_reported, t);
	csf->rep_reported = sent;
	if (pol->tripped != csf->breaker_was) {
		struct crem_event ev = {
			.type = CREM_EV_BREAKER, .flow_id = csf->flow_id,
			.a = pol->tripped,
		};

		crem_env_event(csf->env, csf->owner, &ev);
		if (pol->tripped)
			csf->stats.v[CREM_FS_BREAKER_TRIPS]++;
	}
	csf->breaker_was = pol->tripped;
	if (pol->close) {
		crem_csf_close(csf, CREM_CLOSE_CIRCUIT_BREAKER);
		return;
	}
	/*
	 * Adaptive: m for the flow; either way, k for its pace.  An m the
	 * policy chose while a change waited is no rise under congestion.
	 */
	if (csf->param.state == CREM_PARAM_IDLE && csf->param.active.k &&
	    !pol->tripped) {
		u8 m = csf->cfg.adaptive ? pol->m : csf->cfg.m;

		if (csf->cfg.adaptive && pol->congestion)
			m = min_u64(m, max_u64(csf->param.active.m,
					       csf->cfg.m_cong));
		propose(csf, m);
	}
}

static bool same_flow(const struct crem_csf *csf,
		      const struct crem_wire_path_report *r)
{
	const struct crem_flow_desc *d = &csf->hello.flow;
	size_t alen = d->af == CREM_AF_INET ? 4 : 16;

	return r->af == d->af && !memcmp(r->src, d->src, alen) &&
	       !memcmp(r->dst, d->dst, alen) &&
	       (r->flow_label & 0xffffff) == (d->dest_qp & 0xffffff);
}

/*
 * PATH_REPORT: congestion evidence for the policy, and, for PSNs a node
 * says it dropped, one more ordinary repair per dropped PSN of a closed
 * block, within the rate limit.  Nothing here counts as delivery.
 */
static int path_report(struct crem_csf *csf, const struct crem_msg *msg)
{
	const struct crem_wire_path_report *r = &msg->path_report;
	struct crem_fec_work *work;
	unsigned int e, i;

	if (!same_flow(csf, r))
		return -ENOENT;
	csf->stats.v[CREM_FS_PATH_REPORTS]++;
	crem_policy_path_report(&csf->policy, r);
	if (csf->policy.tripped)
		return 0;
	work = csf->env->ops->work(csf->env->ctx);
	for (e = 0; e < r->nentries; e++) {
		for (i = 0; i < r->hop[e].npsns; i++) {
			u32 psn = crem_wire_dropped_psn(&r->hop[e], i);
			struct crem_csf_slot *s = find_psn(csf, psn);
			struct crem_csf_block *b = s ? s->block : NULL;
			unsigned int one = 1;
			u8 *out = csf->coded, index;

			if (!b || !b->closed || s->repairs_due ||
			    csf->credit < csf->param.active.k ||
			    b->next_index + b->k >= 256)
				continue;
			if (crem_csf_block_coded(b, &b->present, &one, &out,
						 &index, work) !=
			    CREM_FEC_CAUCHY_RS)
				continue;
			csf->credit -= csf->param.active.k;
			send_repair(csf, b, CREM_FEC_CAUCHY_RS, index, 0, 0,
				    NULL, out);
			csf->stats.v[CREM_FS_REPAIRS_PROACTIVE]++;
		}
	}
	return 0;
}

/* A HELLO_ACK for a flow left unprotected because none came in time. */
static bool hello_late(const struct crem_csf *csf, const struct crem_msg *msg)
{
	return msg->type == CREM_MSG_HELLO_ACK &&
	       csf->hello.state == CREM_HELLO_FAILED;
}

int crem_csf_receive(struct crem_csf *csf, const struct crem_msg *msg, bool ce)
{
	bool late;
	int err = 0;

	csf->stats.v[CREM_FS_MSGS_RECEIVED]++;
	if (msg->type <= CREM_MSG_CLOSE)
		csf->stats.received[msg->type]++;
	if (csf->state == CREM_CSF_CLOSED ||
	    (csf->state == CREM_CSF_UNPROTECTED && !hello_late(csf, msg)) ||
	    (msg->type != CREM_MSG_PATH_REPORT &&
	     msg->type != CREM_MSG_HELLO_ACK &&
	     (csf->state != CREM_CSF_ACTIVE || msg->flow_id != csf->flow_id))) {
		csf->stats.v[CREM_FS_MSGS_IGNORED]++;
		return -ENOENT;
	}
	if (msg->type != CREM_MSG_PATH_REPORT && msg->type != CREM_MSG_HELLO_ACK)
		heard(csf, now(csf));
	switch (msg->type) {
	case CREM_MSG_HELLO_ACK:
		late = csf->hello.state == CREM_HELLO_FAILED;
		err = crem_csf_hello_ack(&csf->hello, msg);
		if (!err) {
			csf->stats.v[CREM_FS_HELLO_ACKS_LATE] += late;
			hello_acked(csf);
		}
		break;
	case CREM_MSG_PARAM_ACK:
		err = crem_csf_param_ack(&csf->param, msg);
		/* Karn: only an update sent once measures the RTT. */
		if (!err && !csf->param.resent)
			rtt_sample(csf, now(csf) - (csf->param.deadline_ns -
						    csf->param.rto_ns));
		break;
	case CREM_MSG_REPAIR_REQUEST:
		err = request(csf, msg);
		break;
	case CREM_MSG_LOSS_REPORT:
		loss_report(csf, msg);
		break;
	case CREM_MSG_PATH_REPORT:
		err = csf->state == CREM_CSF_ACTIVE ? path_report(csf, msg) :
		      -ENOENT;
		break;
	case CREM_MSG_CLOSE:
		csf->stats.v[CREM_FS_CLOSES_RECEIVED]++;
		csf->close_reason = msg->close.reason;
		crem_csf_destroy(csf);
		csf->state = CREM_CSF_CLOSED;
		/*
		 * A receiver out of memory (crf.c, reserve_or_close()) would
		 * refuse a new flow at once too: the flow stays, unprotected,
		 * for idle_ns before it ends and the next source negotiates
		 * again, one HELLO exchange per idle_ns at most.
		 */
		if (msg->close.reason == CREM_CLOSE_RESOURCES_EXHAUSTED) {
			csf->state = CREM_CSF_UNPROTECTED;
			csf->refused_until_ns = now(csf) + csf->cfg.idle_ns;
		}
		break;
	default:
		err = -EPROTO;
		break;
	}
	if (err)
		csf->stats.v[CREM_FS_MSGS_IGNORED]++;
	if (csf->state != CREM_CSF_CLOSED)
		arm_flow(csf);
	return err;
}

void crem_csf_timeout(struct crem_csf *csf)
{
	enum crem_csf_close_why why;
	u64 t = now(csf);

	csf->armed_ns = CREM_NO_DEADLINE;
	switch (csf->state) {
	case CREM_CSF_NEGOTIATING:
		crem_csf_hello_timeout(&csf->hello);
		if (csf->hello.state == CREM_HELLO_FAILED)
			csf->state = CREM_CSF_UNPROTECTED;
		break;
	case CREM_CSF_ACTIVE:
		crem_csf_param_timeout(&csf->param, csf->next_psn);
		if (csf->param.state == CREM_PARAM_FAILED) {
			crem_csf_close(csf, CREM_CLOSE_PARAM_SYNC_FAILED);
			return;
		}
		if (t - csf->last_activity_ns >= csf->cfg.idle_ns) {
			crem_csf_close(csf, CREM_CLOSE_FLOW_ENDED);
			return;
		}
		if (may_probe(csf) && t >= csf->unheard_ns + silence_ns(csf))
			probe(csf);
		why = csf->open ? block_due(csf, t) : CSF_CLOSE_NOT_DUE;
		if (why != CSF_CLOSE_NOT_DUE)
			close_block(csf, newest(csf), why);
		send_all_due(csf);
		expire_blocks(csf, t);
		break;
	case CREM_CSF_UNPROTECTED:
		if (t >= unprotected_end(csf)) {
			csf->state = CREM_CSF_CLOSED;
			return;
		}
		break;
	default:
		break;
	}
	arm_flow(csf);
}

void crem_csf_close(struct crem_csf *csf, u16 reason)
{
	struct crem_msg m = {
		.type = CREM_MSG_CLOSE, .flow_id = csf->flow_id,
		.close = { .reason = reason },
	};
	u8 buf[CREM_COMMON_HDR_LEN + 4];
	int len;

	if (csf->state == CREM_CSF_CLOSED)
		return;
	if (csf->state == CREM_CSF_ACTIVE) {
		len = crem_wire_build(&m, buf, sizeof(buf));
		if (len > 0 && !crem_engine_send(csf->env, csf->owner,
						 &csf->stats, buf, len,
						 csf->dscp))
			csf->stats.v[CREM_FS_CLOSES_SENT]++;
	}
	csf->close_reason = reason;
	crem_csf_destroy(csf);
	csf->state = CREM_CSF_CLOSED;
}

void crem_csf_destroy(struct crem_csf *csf)
{
	while (csf->count)
		pop_oldest(csf, false);
	release(csf, csf->msg, csf->msg_size);
	release(csf, csf->coded, csf->coded_size);
	csf->msg = NULL;
	csf->coded = NULL;
	csf->open = false;
	if (csf->env)
		csf->env->ops->arm(csf->env->ctx, csf->owner, CREM_NO_DEADLINE);
	/* So that a later deadline (UNPROTECTED's) is armed again. */
	csf->armed_ns = CREM_NO_DEADLINE;
}
