/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capability negotiation (draft, "Capability Negotiation"): HELLO from the
 * CSF, HELLO_ACK from the CRF.
 *
 * The CSF sends HELLO with the flow descriptor, its schemes and limits and
 * a random 64-bit nonce, and retransmits it with exponential backoff from
 * 1 ms, at most eight attempts in all; without an answer the flow is not
 * protected.  The CRF answers with a random Flow ID not in use and its own
 * limits, including Max Open Blocks; the effective limits are the minimum
 * of both sides.  A HELLO_ACK counts only if it echoes the nonce.
 *
 * Locking: the caller serialises all calls for one flow.
 */
#ifndef CREM_CORE_HELLO_H
#define CREM_CORE_HELLO_H

#include "env.h"
#include "wire.h"

#define CREM_HELLO_FIRST_RTO_NS		1000000ull	/* 1 ms */
#define CREM_HELLO_MAX_ATTEMPTS		8
/*
 * How long after the last attempt's wait a HELLO_ACK is still taken: the
 * receiver's idle time, after which a flow it made for the HELLO is gone.
 */
#define CREM_HELLO_LATE_NS	10000000000ull	/* 10 s */

/* What one side supports; the effective limits are the minimum. */
struct crem_limits {
	u16 schemes;		/* bit s: scheme s */
	u8 max_k;
	u8 max_m;
	u16 max_t;
	u16 max_open_blocks;	/* the CRF's; ignored in the CSF's */
};

/* The protected flow: one direction of one RoCEv2 connection. */
struct crem_flow_desc {
	u8 af;			/* CREM_AF_INET or CREM_AF_INET6 */
	u8 src[16];
	u8 dst[16];
	u32 dest_qp;
	u16 rdma_mtu;
};

enum crem_hello_state {
	CREM_HELLO_IDLE,
	CREM_HELLO_SENT,	/* waiting for HELLO_ACK */
	CREM_HELLO_DONE,	/* negotiated: flow_id and effective set */
	CREM_HELLO_FAILED,	/* no answer after every attempt */
};

struct crem_csf_hello {
	const struct crem_env *env;
	void *owner;
	struct crem_flow_desc flow;
	struct crem_limits local;
	struct crem_limits effective;
	enum crem_hello_state state;
	u64 nonce;
	u32 flow_id;
	u8 attempts;
	u64 rto_ns;
	u64 deadline_ns;
	u64 failed_ns;		/* when it gave up waiting */
	u64 sent, send_errors;
};

/*
 * Start negotiating: send the first HELLO and arm the retransmission.
 * Return: 0, or -EINVAL for an invalid descriptor or limits.
 */
int crem_csf_hello_start(struct crem_csf_hello *h, const struct crem_env *env,
			 void *owner, const struct crem_flow_desc *flow,
			 const struct crem_limits *local);

/* The flow's deadline passed: retransmit, or give up after the last. */
void crem_csf_hello_timeout(struct crem_csf_hello *h);

/*
 * A parsed HELLO_ACK arrived for this flow.  Return: 0 if it completes the
 * negotiation, also up to CREM_HELLO_LATE_NS after the last attempt went
 * unanswered (a late answer); -ESTALE if its nonce is not ours (ignored);
 * -EALREADY when the negotiation is over (done, never started, or given
 * up too long ago).
 */
int crem_csf_hello_ack(struct crem_csf_hello *h, const struct crem_msg *m);

/*
 * CRF side: a random Flow ID for the flow of @hello that @in_use(@ctx, id)
 * rejects neither 0 nor taken.  Return: the ID, -EPROTONOSUPPORT for a
 * flow kind other than RoCEv2, or -EAGAIN if no free ID was found.
 */
s64 crem_crf_hello_id(const struct crem_env *env, const struct crem_msg *hello,
		      bool (*in_use)(void *ctx, u32 id), void *ctx);

/*
 * CRF side: answer a parsed HELLO.  Chooses a random Flow ID that
 * @in_use(@ctx, id) rejects neither 0 nor taken, builds HELLO_ACK with the
 * CRF's @local limits into @buf and sends it to @owner's bound peer.
 * Return: the Flow ID assigned, or a negative errno (-EPROTONOSUPPORT for
 * a flow kind other than RoCEv2, -EAGAIN if no free ID was found).
 */
s64 crem_crf_hello(const struct crem_env *env, void *owner,
		   const struct crem_msg *hello,
		   const struct crem_limits *local,
		   bool (*in_use)(void *ctx, u32 id), void *ctx);

/* Room for any HELLO_ACK. */
#define CREM_HELLO_ACK_MAX (CREM_COMMON_HDR_LEN + 32)

/*
 * Build the HELLO_ACK that answers @hello with @flow_id and the CRF's
 * @local limits.  Return: its length, or a negative errno.
 */
int crem_crf_hello_ack_build(const struct crem_msg *hello,
			     const struct crem_limits *local, u32 flow_id,
			     u8 *buf, size_t cap);

#endif /* CREM_CORE_HELLO_H */
