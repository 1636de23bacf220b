// SPDX-License-Identifier: GPL-2.0
/*
 * Capability negotiation (see hello.h).
 */
#include "hello.h"

static u64 now(const struct crem_env *env)
{
	return env->ops->now_ns(env->ctx);
}

static u64 min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static void send_hello(struct crem_csf_hello *h)
{
	struct crem_msg m = { .type = CREM_MSG_HELLO };
	u8 buf[CREM_COMMON_HDR_LEN + 64];
	int len;

	m.hello.flow_kind = CREM_FLOW_ROCEV2;
	m.hello.af = h->flow.af;
	m.hello.schemes = h->local.schemes;
	m.hello.max_k = h->local.max_k;
	m.hello.max_m = h->local.max_m;
	m.hello.max_t = h->local.max_t;
	m.hello.rdma_mtu = h->flow.rdma_mtu;
	m.hello.nonce = h->nonce;
	memcpy(m.hello.src, h->flow.src, sizeof(m.hello.src));
	memcpy(m.hello.dst, h->flow.dst, sizeof(m.hello.dst));
	m.hello.flow_label = h->flow.dest_qp & 0xffffff;
	len = crem_wire_build(&m, buf, sizeof(buf));
	if (len < 0 || h->env->ops->send(h->env->ctx, h->owner, buf, len, 0))
		h->send_errors++;
	h->sent++;
	h->attempts++;
	h->deadline_ns = now(h->env) + h->rto_ns;
	h->env->ops->arm(h->env->ctx, h->owner, h->deadline_ns);
}

int crem_csf_hello_start(struct crem_csf_hello *h, const struct crem_env *env,
			 void *owner, const struct crem_flow_desc *flow,
			 const struct crem_limits *local)
{
	if ((flow->af != CREM_AF_INET && flow->af != CREM_AF_INET6) ||
	    !local->max_k || !(local->schemes & (1u << CREM_FEC_CAUCHY_RS)))
		return -EINVAL;
	memset(h, 0, sizeof(*h));
	h->env = env;
	h->owner = owner;
	h->flow = *flow;
	h->local = *local;
	env->ops->random(env->ctx, &h->nonce, sizeof(h->nonce));
	h->rto_ns = CREM_HELLO_FIRST_RTO_NS;
	h->state = CREM_HELLO_SENT;
	send_hello(h);
	return 0;
}

void crem_csf_hello_timeout(struct crem_csf_hello *h)
{
	if (h->state != CREM_HELLO_SENT || now(h->env) < h->deadline_ns)
		return;
	if (h->attempts >= CREM_HELLO_MAX_ATTEMPTS) {
		h->state = CREM_HELLO_FAILED;
		h->failed_ns = now(h->env);
		h->env->ops->arm(h->env->ctx, h->owner, CREM_NO_DEADLINE);
		return;
	}
	h->rto_ns *= 2;
	send_hello(h);
}

int crem_csf_hello_ack(struct crem_csf_hello *h, const struct crem_msg *m)
{
	const struct crem_wire_hello_ack *a = &m->hello_ack;

	/*
	 * After the last attempt the CSF stops waiting, not listening: an
	 * answer to one of its HELLOs (its nonce) that comes later still
	 * negotiates the flow, whose receiver is then waiting for it - until
	 * the receiver's flow would have idled out.
	 */
	if (h->state != CREM_HELLO_SENT &&
	    (h->state != CREM_HELLO_FAILED ||
	     now(h->env) - h->failed_ns > CREM_HELLO_LATE_NS))
		return -EALREADY;
	if (m->type != CREM_MSG_HELLO_ACK || a->nonce != h->nonce || !m->flow_id)
		return -ESTALE;
	h->flow_id = m->flow_id;
	h->effective.schemes = h->local.schemes & a->schemes;
	h->effective.max_k = min_u64(h->local.max_k, a->max_k);
	h->effective.max_m = min_u64(h->local.max_m, a->max_m);
	h->effective.max_t = min_u64(h->local.max_t, a->max_t);
	h->effective.max_open_blocks = a->max_open_blocks;
	h->state = CREM_HELLO_DONE;
	h->env->ops->arm(h->env->ctx, h->owner, CREM_NO_DEADLINE);
	return 0;
}

/* Tries before concluding that the Flow ID space is too crowded. */
#define FLOW_ID_TRIES 16

int crem_crf_hello_ack_build(const struct crem_msg *hello,
			     const struct crem_limits *local, u32 flow_id,
			     u8 *buf, size_t cap)
{
	const struct crem_wire_hello *h = &hello->hello;
	struct crem_msg m = { .type = CREM_MSG_HELLO_ACK, .flow_id = flow_id };

	m.hello_ack.flow_kind = CREM_FLOW_ROCEV2;
	m.hello_ack.af = h->af;
	m.hello_ack.schemes = local->schemes;
	m.hello_ack.max_k = local->max_k;
	m.hello_ack.max_m = local->max_m;
	m.hello_ack.max_t = local->max_t;
	m.hello_ack.rdma_mtu = h->rdma_mtu;
	m.hello_ack.nonce = h->nonce;
	m.hello_ack.max_open_blocks = local->max_open_blocks;
	return crem_wire_build(&m, buf, cap);
}

s64 crem_crf_hello_id(const struct crem_env *env, const struct crem_msg *hello,
		      bool (*in_use)(void *ctx, u32 id), void *ctx)
{
	u32 id = 0;
	int tries;

	if (hello->type != CREM_MSG_HELLO ||
	    hello->hello.flow_kind != CREM_FLOW_ROCEV2)
		return -EPROTONOSUPPORT;
	for (tries = 0; tries < FLOW_ID_TRIES; tries++) {
		env->ops->random(env->ctx, &id, sizeof(id));
		if (id && !in_use(ctx, id))
			return id;
	}
	return -EAGAIN;
}

s64 crem_crf_hello(const struct crem_env *env, void *owner,
		   const struct crem_msg *hello,
		   const struct crem_limits *local,
		   bool (*in_use)(void *ctx, u32 id), void *ctx)
{
	u8 buf[CREM_HELLO_ACK_MAX];
	s64 id;
	int len;

	id = crem_crf_hello_id(env, hello, in_use, ctx);
	if (id < 0)
		return id;
	len = crem_crf_hello_ack_build(hello, local, id, buf, sizeof(buf));
	if (len < 0)
		return len;
	env->ops->send(env->ctx, owner, buf, len, 0);
	return id;
}
