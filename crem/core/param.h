/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parameter synchronisation (draft, "Parameter Synchronization").
 *
 * Each configuration (scheme, k, m, T) has a Config ID.  The CSF proposes
 * a new one with PARAM_UPDATE, giving an Effective PSN, and retransmits it
 * after 2 * SRTT (at least 1 ms), doubling the timeout each time; after
 * eight unanswered attempts it gives up and the flow closes (reason 2).  A
 * new configuration is used only for blocks that start at or after its
 * Effective PSN *and* after its PARAM_ACK; if the PSN passes before the
 * acknowledgement, the old configuration goes on and PARAM_UPDATE is sent
 * again with a later Effective PSN (that send is not one of the eight
 * attempts, and leaves the timeout running).  A flow's first
 * configuration, with none in use to go on with, names the PSN the flow
 * is at and applies at the first block after its PARAM_ACK
 * (crem_csf_param_first()).  A non-zero PARAM_ACK status keeps the current
 * configuration.
 *
 * The CRF acknowledges a configuration it can hold (status 0) or says why
 * not, and accepts REPAIR for every configuration it has acknowledged and
 * not released; a configuration is released once a newer one is
 * acknowledged and no block of the older one remains open.
 *
 * Locking: the caller serialises all calls for one flow.
 */
#ifndef CREM_CORE_PARAM_H
#define CREM_CORE_PARAM_H

#include "env.h"
#include "hello.h"
#include "wire.h"

#define CREM_PARAM_MIN_RTO_NS		1000000ull	/* 1 ms */
#define CREM_PARAM_MAX_ATTEMPTS		8

struct crem_config {
	u8 id;
	u8 scheme;
	u8 k;
	u8 m;
	u16 symbol_len;
};

enum crem_param_state {
	CREM_PARAM_IDLE,	/* no change in flight */
	CREM_PARAM_PENDING,	/* PARAM_UPDATE sent, no PARAM_ACK yet */
	CREM_PARAM_ACKED,	/* acknowledged, waiting for its PSN */
	CREM_PARAM_FAILED,	/* eight attempts unanswered: close (2) */
};

struct crem_csf_param {
	const struct crem_env *env;
	void *owner;
	u32 flow_id;
	struct crem_config active;
	struct crem_config next;
	u32 effective_psn;
	enum crem_param_state state;
	u8 attempts;		/* sends with a timeout of their own */
	bool resent;		/* sent more than once: no RTT sample */
	u64 rto_ns;
	u64 deadline_ns;
	u32 lead;		/* PSNs between now and a resent Effective PSN */
	u64 sent, rejected;
};

void crem_csf_param_init(struct crem_csf_param *p, const struct crem_env *env,
			 void *owner, u32 flow_id,
			 const struct crem_config *initial);

/*
 * Is the pending configuration the flow's first?  Nothing is in use to
 * continue with while it waits, and no block starts before its PARAM_ACK:
 * every block after the acknowledgment starts at or after an Effective PSN
 * the flow had already reached, and both ends agree on where it applies.
 * Moving the PSN ahead would only leave more sources unprotected, so it
 * names the PSN the flow is at: when proposed (csf.c) and when resent.
 * Between sends it follows the flow without a word, so that at a rate
 * that passes half the PSN space while the PARAM_ACK is awaited (8
 * attempts take 510 SRTTs) it never looks ahead of the flow again.
 */
static inline bool crem_csf_param_first(const struct crem_csf_param *p)
{
	return !p->active.k;
}

/*
 * Propose @cfg (its id is chosen here) to take effect at @effective_psn;
 * @lead PSNs is how far ahead a resend moves it.  Return: 0; -EBUSY while
 * another change is in flight.
 */
int crem_csf_param_propose(struct crem_csf_param *p,
			   const struct crem_config *cfg, u32 effective_psn,
			   u32 lead, u64 srtt_ns);

/* The deadline passed: resend with a doubled timeout, or fail. */
void crem_csf_param_timeout(struct crem_csf_param *p, u32 next_psn);

/*
 * The flow reached @next_psn: if the Effective PSN passed while the update
 * was unanswered, move it @lead later and resend (a first configuration's
 * follows the flow, unsent).
 */
void crem_csf_param_progress(struct crem_csf_param *p, u32 next_psn);

/* A parsed PARAM_ACK.  Return: 0, or -ESTALE if not for the pending id. */
int crem_csf_param_ack(struct crem_csf_param *p, const struct crem_msg *m);

/* The configuration for a block starting at @start_psn (switches to it). */
const struct crem_config *crem_csf_param_for_block(struct crem_csf_param *p,
						   u32 start_psn);

/* CRF side: the configurations acknowledged and not released. */
#define CREM_CRF_CONFIGS 8

struct crem_crf_param {
	struct crem_config config[CREM_CRF_CONFIGS];
	bool valid[CREM_CRF_CONFIGS];
	u8 newest;		/* index of the newest acknowledged */
	/*
	 * The k the CRF's hold time follows: the newest configuration's, or
	 * its predecessor's while that one is kept, if larger (its blocks
	 * may still be open); 0 before any configuration (the CRF's own k
	 * then).  Kept by every change above, for the hold time is asked
	 * for several times a packet.
	 */
	u8 hold_k;
};

void crem_crf_param_init(struct crem_crf_param *p,
			 const struct crem_config *initial);

/*
 * Answer a parsed PARAM_UPDATE against the CRF's @limits: build PARAM_ACK
 * into @buf and send it.  Return: the status sent.
 */
int crem_crf_param_update(struct crem_crf_param *p, const struct crem_env *env,
			  void *owner, const struct crem_msg *m,
			  const struct crem_limits *limits);

/* The acknowledged, unreleased configuration with @id, or NULL. */
const struct crem_config *crem_crf_param_find(const struct crem_crf_param *p,
					      u8 id);

/*
 * Release the configurations older than the newest for which @open(ctx,
 * id) says no block remains open.
 */
void crem_crf_param_release(struct crem_crf_param *p,
			    bool (*open)(void *ctx, u8 id), void *ctx);

#endif /* CREM_CORE_PARAM_H */
