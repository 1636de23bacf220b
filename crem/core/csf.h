/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CREM sender function (CSF) for one protected flow: one direction of
 * one RoCEv2 connection, from HELLO to CLOSE.
 *
 * States:
 *
 *   NEGOTIATING --HELLO_ACK--> ACTIVE --CLOSE sent or received--> CLOSED
 *        |                        |                                 ^
 *        |                        +--CLOSE reason 3--> UNPROTECTED -+
 *        |                                          for idle_ns     |
 *        +--eight HELLOs unanswered--> UNPROTECTED --idle_ns idle---+
 *
 * In every state the flow's packets pass untouched; the CSF only reads
 * them.  While ACTIVE it groups them into blocks (csf_block.h), sends m
 * repairs as each block closes (at most m/k of the flow's packet rate,
 * plus a burst of two blocks' repairs), answers REPAIR_REQUESTs with coded
 * retransmissions or Source Copy, and keeps each block until the RDMA
 * transport acknowledges it.  LOSS_REPORTs and PATH_REPORTs feed the
 * policy (policy.h), whose m reaches the CRF through PARAM_UPDATE
 * (param.h).  The flow closes itself on parameter synchronisation failure
 * (reason 2), a circuit breaker lasting a minute (4) or idleness (1), and
 * ends without a CLOSE when unprotected: idle_ns after its receiver's
 * CLOSE 3, or idle for idle_ns after its HELLOs went unanswered; the
 * owner then destroys it.
 *
 * Memory: the structure itself, plus one buffer per block kept, from the
 * environment's alloc(); at most cfg.max_blocks blocks (the oldest is given
 * up when a new one needs room).
 *
 * Locking: the engine takes no locks.  The caller serialises every call
 * for one flow, including the timeout and destroy, and calls them from a
 * context where the environment's operations may run.
 */
#ifndef CREM_CORE_CSF_H
#define CREM_CORE_CSF_H

#include "csf_block.h"
#include "engine.h"
#include "param.h"
#include "policy.h"
#include "psn.h"
#include "roce.h"

#define CREM_CSF_SAMPLES 16

enum crem_csf_state {
	CREM_CSF_NEGOTIATING,
	CREM_CSF_ACTIVE,
	CREM_CSF_UNPROTECTED,
	CREM_CSF_CLOSED,
};

struct crem_csf_slot {
	struct crem_csf_block *block;	/* NULL: free */
	size_t size;
	u64 opened_ns;			/* its first source */
	u64 last_source_ns;
	u64 closed_ns;
	u64 answered_ns;		/* last request answered */
	u8 rounds;			/* coded rounds answered */
	u8 repairs_planned;		/* ordinary repairs it gets at close */
	u8 repairs_due;			/* ordinary repairs not yet sent */
	bool retransmitted;		/* a source came twice: no RTT sample */
	bool deferred;			/* the rate held its repairs back */
	bool fell_back;
};

struct crem_csf {
	const struct crem_env *env;
	void *owner;
	struct crem_sub_env sub;	/* for hello and param */
	struct crem_engine_config cfg;
	enum crem_csf_state state;
	u16 close_reason;
	struct crem_csf_hello hello;
	struct crem_csf_param param;
	struct crem_policy policy;
	/* The path's estimate from its other flows, for the policy's start. */
	struct crem_path_estimate prior;
	bool have_prior;
	u32 flow_id;
	u16 symbol_len;			/* T in use */
	u8 dscp;			/* the flow's, for REPAIR messages */

	/* Blocks, oldest first: ring[(first + i) % max_blocks]. */
	struct crem_csf_slot *ring;
	u16 first, count;
	bool open;			/* the newest block is still open */
	u64 keep_ns;			/* closed blocks kept (csf.c) */
	u32 next_psn;			/* one past the newest PSN seen */
	u32 acked_psn;			/* RDMA acknowledged through this */
	bool have_ack;			/* else: none yet, from first_psn */
	u32 first_psn;			/* the PSN that made the flow known */

	/* Repair rate: credit in 1/k repair units, m per source. */
	u64 credit;
	u32 repair_carry;	/* 1/k repairs owed to short blocks, < k */
	u64 srtt_ns;
	u64 min_rtt_ns;			/* own exchanges', for H; 0: none */
	bool have_srtt;
	u64 gap_ns;			/* EWMA of source inter-arrival */
	struct crem_pace pace;		/* for H and k */
	u64 config_changed_ns;		/* the last configuration proposed */
	u64 last_source_ns;
	u64 last_activity_ns;
	/* After CLOSE reason 3: unprotected until then, then CLOSED. */
	u64 refused_until_ns;
	/*
	 * The receiver's liveness (csf.c, silence_ns()): the first source
	 * sent since the receiver was last heard on this flow (0: none),
	 * and how long it usually takes to be heard after one.
	 */
	u64 unheard_ns;
	u64 answer_ns;
	/* REPAIRs sent, for the repair loss in LOSS_REPORTs */
	u64 rep_sent, rep_reported;
	struct crem_csf_sample {
		u64 t_ns;
		u64 count;		/* REPAIRs sent before t_ns */
	} rep_hist[CREM_CSF_SAMPLES];
	u8 rep_head;
	u64 psn_per_srtt;		/* PSNs sent per SRTT, for the lead */
	u64 rate_mark_ns;
	u32 rate_mark_psn;
	bool breaker_was;
	u8 applied_id;			/* configuration of the newest block */
	u64 armed_ns;			/* the deadline the environment has */
	u32 repairs_due;		/* over all blocks */

	struct crem_flow_stats stats;
	/* From alloc() at start: one message, and CREM_CSF_BATCH symbols. */
	u8 *msg;
	size_t msg_size;
	u8 *coded;
	size_t coded_size;
};

/* Coded symbols computed per pass, then sent back to back. */
#define CREM_CSF_BATCH 8

/* REPAIR header with both bitmaps at k = 255, before the symbol. */
#define CREM_REPAIR_MAX_HDR (20 + 2 * 32)

/**
 * crem_csf_start() - create the sending side of a flow and send HELLO
 * @csf: the flow, zeroed or not
 * @env: the environment; must outlive the flow
 * @owner: what the environment knows the flow by
 * @cfg: tunables, checked by crem_engine_config_check(); copied
 * @desc: the flow: addresses, destination QP, RDMA MTU
 * @next_psn: the PSN of the packet that made the flow known
 * @ring: cfg->max_blocks slots, owned by the caller until destroy
 *
 * Return: 0; -EINVAL for a bad configuration or descriptor; -ENOMEM.
 */
int crem_csf_start(struct crem_csf *csf, const struct crem_env *env,
		   void *owner, const struct crem_engine_config *cfg,
		   const struct crem_flow_desc *desc, u32 next_psn,
		   struct crem_csf_slot *ring);

/**
 * crem_csf_set_prior() - what the path's other flows measured
 * @csf: a flow just started, not yet acknowledged
 * @est: their estimate (crem_csf_path_estimate() of one of them)
 *
 * With the adaptive policy the flow starts from @est instead of m = 0
 * (crem_policy_seed()); a fixed m ignores it.  Set before the HELLO_ACK
 * comes; later it is ignored.
 */
void crem_csf_set_prior(struct crem_csf *csf,
			const struct crem_path_estimate *est);

/**
 * crem_csf_path_estimate() - the flow's estimate of its path, for the next
 * @csf: the flow
 * @est: filled in
 *
 * Return: true if the flow follows the adaptive policy and has measured
 * the path; @est is left alone otherwise.
 */
bool crem_csf_path_estimate(const struct crem_csf *csf,
			    struct crem_path_estimate *est);

/**
 * crem_csf_source() - a packet of the flow leaves toward the CRF
 * @csf: the flow
 * @pkt: the packet, parsed by crem_roce_parse_ip(); read only
 * @udp_payload: its UDP payload (BTH through ICRC)
 * @len: the payload's length
 *
 * Sources are coded; acknowledgements and other packets are ignored.  The
 * packet itself always goes on: the CSF never holds or changes it.
 */
void crem_csf_source(struct crem_csf *csf, const struct crem_roce_pkt *pkt,
		     const u8 *udp_payload, size_t len);

/*
 * The RDMA transport's acknowledgement for the flow came back (an ACK, an
 * atomic ACK, a NAK, or a READ response with an AETH: whatever
 * crem_roce_acknowledges() says; others are ignored): blocks it covers
 * are released.
 */
void crem_csf_rdma_ack(struct crem_csf *csf, const struct crem_roce_pkt *ack);

/**
 * crem_csf_ack_range() - the PSNs this flow's acknowledgements can name
 * @csf: the flow
 *
 * An acknowledgement names its requester's QP, not the flow's, so the
 * caller offers it to every sender flow between the two addresses;
 * crem_csf_rdma_ack() takes only one whose PSN (crem_csf_ack_psn()) lies
 * in this range, from the last one taken to the newest PSN sent.  The
 * range changes only in crem_csf_start(), crem_csf_source() and
 * crem_csf_rdma_ack(): a caller that keeps a copy, updated after each,
 * can pass over the flows an acknowledgement cannot be for without their
 * locks.
 *
 * Return: the first PSN in bits 32-55 and the last in bits 0-23.
 */
u64 crem_csf_ack_range(const struct crem_csf *csf);

/**
 * crem_csf_ack_psn() - the last PSN an acknowledgement says is done
 * @ack: an acknowledgement (crem_roce_acknowledges())
 *
 * Return: its PSN, or for a NAK the one before (a NAK names the PSN it
 * waits for).
 */
u32 crem_csf_ack_psn(const struct crem_roce_pkt *ack);

/**
 * crem_csf_ack_in_range() - may a flow with @range take an acknowledgement
 * @range: crem_csf_ack_range() of the flow
 * @psn: crem_csf_ack_psn() of the acknowledgement
 *
 * Return: whether @psn lies in @range, both ends included.
 */
static inline bool crem_csf_ack_in_range(u64 range, u32 psn)
{
	u32 first = (u32)(range >> 32), last = (u32)range & CREM_PSN_MASK;

	return !crem_psn_after(psn, last) && !crem_psn_before(psn, first);
}

/**
 * crem_csf_receive() - a CREM message for this flow
 * @csf: the flow
 * @msg: parsed, and from the bound peer (or, for PATH_REPORT, from an
 *	 allowed reporter: the caller checks the source address)
 * @ce: the datagram carried a CE mark
 *
 * Return: 0 if the message was used, or -errno why it was ignored.
 */
int crem_csf_receive(struct crem_csf *csf, const struct crem_msg *msg, bool ce);

/* The flow's deadline passed (see env.h's arm()). */
void crem_csf_timeout(struct crem_csf *csf);

/*
 * The control plane changed the fixed m: propose it to the CRF (adaptive
 * flows keep following the policy), at once, or within two SRTTs of the
 * last change at the first loss report after them (the draft's
 * hysteresis).  Return: 0; -EBUSY while another change is in flight;
 * -EINVAL beyond the negotiated limits; -ENOTCONN before negotiation
 * completes.
 */
int crem_csf_set_m(struct crem_csf *csf, u8 m);

/* Code the sources of the open block stored so far (batch boundary). */
void crem_csf_flush(struct crem_csf *csf);

/* Send CLOSE with @reason and stop protecting; blocks are freed. */
void crem_csf_close(struct crem_csf *csf, u16 reason);

/* Free every block; the flow must not be used afterwards. */
void crem_csf_destroy(struct crem_csf *csf);

/* The configuration in use. */
static inline const struct crem_config *
crem_csf_config(const struct crem_csf *csf)
{
	return &csf->param.active;
}

/**
 * crem_csf_hold_ns() - the flow's hold time H as this side derives it
 * @csf: the flow
 *
 * Its blocks close by H/2 (crem_flow_hold_ns()).  Context: the flow's
 * serialisation, as the other calls (its lock, in the kernel).
 *
 * Return: H in nanoseconds; 0 holds nothing.
 */
u64 crem_csf_hold_ns(const struct crem_csf *csf);

#endif /* CREM_CORE_CSF_H */
