// SPDX-License-Identifier: GPL-2.0
/*
 * Parameter synchronisation (see param.h).
 */
#include "param.h"
#include "psn.h"

static u64 now(const struct crem_env *env)
{
	return env->ops->now_ns(env->ctx);
}

void crem_csf_param_init(struct crem_csf_param *p, const struct crem_env *env,
			 void *owner, u32 flow_id,
			 const struct crem_config *initial)
{
	memset(p, 0, sizeof(*p));
	p->env = env;
	p->owner = owner;
	p->flow_id = flow_id;
	p->active = *initial;
	p->state = CREM_PARAM_IDLE;
}

/* Put the pending PARAM_UPDATE on the wire, with its current Effective PSN. */
static void send_update(struct crem_csf_param *p)
{
	struct crem_msg m = {
		.type = CREM_MSG_PARAM_UPDATE, .flow_id = p->flow_id,
		.param_update = {
			.config_id = p->next.id, .scheme = p->next.scheme,
			.k = p->next.k, .m = p->next.m,
			.symbol_len = p->next.symbol_len,
			.effective_psn = p->effective_psn,
		},
	};
	u8 buf[CREM_COMMON_HDR_LEN + 16];
	int len = crem_wire_build(&m, buf, sizeof(buf));

	if (len > 0)
		p->env->ops->send(p->env->ctx, p->owner, buf, len, 0);
	p->sent++;
}

/* An attempt: a send with a retransmission timeout of its own. */
static void attempt(struct crem_csf_param *p)
{
	send_update(p);
	p->attempts++;
	p->deadline_ns = now(p->env) + p->rto_ns;
	p->env->ops->arm(p->env->ctx, p->owner, p->deadline_ns);
}

int crem_csf_param_propose(struct crem_csf_param *p,
			   const struct crem_config *cfg, u32 effective_psn,
			   u32 lead, u64 srtt_ns)
{
	if (p->state == CREM_PARAM_PENDING || p->state == CREM_PARAM_ACKED)
		return -EBUSY;
	p->next = *cfg;
	p->next.id = p->active.id + 1;
	p->effective_psn = effective_psn & CREM_PSN_MASK;
	p->lead = lead ? lead : 1;
	p->rto_ns = 2 * srtt_ns > CREM_PARAM_MIN_RTO_NS ? 2 * srtt_ns :
		    CREM_PARAM_MIN_RTO_NS;
	p->attempts = 0;
	p->resent = false;
	p->state = CREM_PARAM_PENDING;
	attempt(p);
	return 0;
}

/* Has the flow reached the Effective PSN? */
static bool reached(const struct crem_csf_param *p, u32 next_psn)
{
	return !crem_psn_before(next_psn, p->effective_psn);
}

void crem_csf_param_timeout(struct crem_csf_param *p, u32 next_psn)
{
	if (p->state != CREM_PARAM_PENDING || now(p->env) < p->deadline_ns)
		return;
	if (p->attempts >= CREM_PARAM_MAX_ATTEMPTS) {
		p->state = CREM_PARAM_FAILED;
		p->env->ops->arm(p->env->ctx, p->owner, CREM_NO_DEADLINE);
		return;
	}
	if (crem_csf_param_first(p))
		p->effective_psn = next_psn;
	else if (reached(p, next_psn))
		p->effective_psn = crem_psn_add(next_psn, p->lead);
	p->rto_ns *= 2;
	p->resent = true;
	attempt(p);
}

void crem_csf_param_progress(struct crem_csf_param *p, u32 next_psn)
{
	if (p->state != CREM_PARAM_PENDING || !reached(p, next_psn))
		return;
	if (crem_csf_param_first(p)) {
		p->effective_psn = next_psn;
		return;
	}
	/*
	 * Too late for this PSN: keep the old configuration and ask again,
	 * twice as far ahead.  This send only names a later PSN; it is no
	 * attempt of the draft's eight, which are the retransmission
	 * timeouts: a lead shorter than a round trip's worth of PSNs (a
	 * flow that speeds up, an SRTT measured on an idle path) would
	 * otherwise use them up before the first PARAM_ACK could come, and
	 * a PARAM_ACK that is only late would close the flow.  Its clock
	 * runs on from the last attempt.
	 */
	if (p->lead < CREM_PSN_HALF / 4)
		p->lead *= 2;
	p->effective_psn = crem_psn_add(next_psn, p->lead);
	p->resent = true;
	send_update(p);
}

int crem_csf_param_ack(struct crem_csf_param *p, const struct crem_msg *m)
{
	if (m->type != CREM_MSG_PARAM_ACK || p->state != CREM_PARAM_PENDING ||
	    m->param_ack.config_id != p->next.id)
		return -ESTALE;
	p->env->ops->arm(p->env->ctx, p->owner, CREM_NO_DEADLINE);
	if (m->param_ack.status != CREM_PARAM_ACCEPTED) {
		p->rejected++;
		p->state = CREM_PARAM_IDLE;
		return 0;
	}
	p->state = CREM_PARAM_ACKED;
	return 0;
}

const struct crem_config *crem_csf_param_for_block(struct crem_csf_param *p,
						   u32 start_psn)
{
	if (p->state == CREM_PARAM_ACKED && reached(p, start_psn)) {
		p->active = p->next;
		p->state = CREM_PARAM_IDLE;
	}
	return &p->active;
}

/* Recompute hold_k: after every change to valid[], newest or config[]. */
static void note_hold_k(struct crem_crf_param *p)
{
	const struct crem_config *newest = &p->config[p->newest];
	unsigned int i;

	p->hold_k = newest->k;
	for (i = 0; i < CREM_CRF_CONFIGS; i++)
		if (p->valid[i] && p->config[i].id == (u8)(newest->id - 1) &&
		    p->config[i].k > p->hold_k)
			p->hold_k = p->config[i].k;
}

void crem_crf_param_init(struct crem_crf_param *p,
			 const struct crem_config *initial)
{
	memset(p, 0, sizeof(*p));
	p->config[0] = *initial;
	p->valid[0] = true;
	p->newest = 0;
	note_hold_k(p);
}

static int slot_of(const struct crem_crf_param *p, u8 id)
{
	int i;

	for (i = 0; i < CREM_CRF_CONFIGS; i++)
		if (p->valid[i] && p->config[i].id == id)
			return i;
	return -1;
}

static int check(struct crem_crf_param *p, const struct crem_wire_param_update *u,
		 const struct crem_limits *limits)
{
	int i;

	if (u->scheme > 15 || !(limits->schemes & (1u << u->scheme)))
		return CREM_PARAM_UNSUPPORTED_SCHEME;
	if (u->k > limits->max_k || u->m > limits->max_m ||
	    u->symbol_len > limits->max_t)
		return CREM_PARAM_LIMITS_EXCEEDED;
	if (slot_of(p, u->config_id) >= 0)
		return CREM_PARAM_ACCEPTED;	/* a retransmission */
	for (i = 0; i < CREM_CRF_CONFIGS; i++) {
		if (!p->valid[i]) {
			p->config[i] = (struct crem_config){
				.id = u->config_id, .scheme = u->scheme,
				.k = u->k, .m = u->m, .symbol_len = u->symbol_len,
			};
			p->valid[i] = true;
			p->newest = i;
			note_hold_k(p);
			return CREM_PARAM_ACCEPTED;
		}
	}
	return CREM_PARAM_RESOURCES_EXHAUSTED;
}

int crem_crf_param_update(struct crem_crf_param *p, const struct crem_env *env,
			  void *owner, const struct crem_msg *m,
			  const struct crem_limits *limits)
{
	struct crem_msg ack = {
		.type = CREM_MSG_PARAM_ACK, .flow_id = m->flow_id,
		.param_ack.config_id = m->param_update.config_id,
	};
	u8 buf[CREM_COMMON_HDR_LEN + 4];
	int len;

	ack.param_ack.status = check(p, &m->param_update, limits);
	len = crem_wire_build(&ack, buf, sizeof(buf));
	if (len > 0)
		env->ops->send(env->ctx, owner, buf, len, 0);
	return ack.param_ack.status;
}

const struct crem_config *crem_crf_param_find(const struct crem_crf_param *p,
					      u8 id)
{
	int i = slot_of(p, id);

	return i < 0 ? NULL : &p->config[i];
}

void crem_crf_param_release(struct crem_crf_param *p,
			    bool (*open)(void *ctx, u8 id), void *ctx)
{
	int i;

	for (i = 0; i < CREM_CRF_CONFIGS; i++)
		if (p->valid[i] && i != p->newest && !open(ctx, p->config[i].id))
			p->valid[i] = false;
	note_hold_k(p);
}
