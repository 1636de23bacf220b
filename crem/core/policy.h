/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CSF's redundancy policy (draft, "Redundancy Policy", "Congestion
 * Control Considerations").
 *
 * From each LOSS_REPORT the CSF updates an exponentially weighted loss
 * rate p and CE fraction, classifies recent loss as congestion (rising CE
 * marks or a CE fraction of 1 % or more, a hop's queueing delay growing, a node's queue-overflow drops) or
 * transmission loss, and chooses m:
 *  - the smallest m for which a block of k + m packets loses more than m
 *    with probability below epsilon, under independent loss at rate p
 *    (m = 0 when even one loss per block is that unlikely);
 *  - never above m_cong when the loss is classified as congestion;
 *  - lower when REPAIR messages are lost or CE-marked, and zero if that
 *    lasts more than a second;
 *  - changed at most once per 2 SRTT.
 * The circuit breaker: path loss above 10 % or CE above 50 % over a second
 * sets m to zero and stops coded retransmission; redundancy resumes after
 * ten seconds without the condition; after a minute of it the flow closes
 * with reason 4.
 *
 * Probabilities are fixed point, CREM_Q31 = 1.0, so that the kernel needs
 * no floating point.  Locking: the caller serialises calls for one flow.
 */
#ifndef CREM_CORE_POLICY_H
#define CREM_CORE_POLICY_H

#include "wire.h"

#define CREM_Q31 (1ull << 31)
/* p in parts per million, as a Q31 probability */
#define CREM_PPM(x) ((u64)(x) * CREM_Q31 / 1000000)

#define CREM_BREAKER_WINDOW_NS	1000000000ull	/* 1 s */
#define CREM_BREAKER_RESUME_NS	10000000000ull	/* 10 s */
#define CREM_BREAKER_CLOSE_NS	60000000000ull	/* 1 min */
#define CREM_REPAIR_TROUBLE_NS	1000000000ull	/* 1 s */
/* A hop's queueing delay growing by more than this is congestion. */
#define CREM_QUEUE_GROWTH_US	50
/* Packets a loss estimate is made from, at least. */
#define CREM_POLICY_SAMPLE	64
/*
 * REPAIR loss is judged over windows of reports: at least this many
 * reports, and this many REPAIRs or a second of reports.  A report's count
 * differs from what the CSF sent in its interval by the repairs in flight
 * at either end, and only over many reports do those differences cancel;
 * fewer REPAIRs than CREM_REPAIR_FEW in a window tell nothing (policy.c).
 */
#define CREM_REPAIR_REPORTS	64
#define CREM_REPAIR_SAMPLE	256
#define CREM_REPAIR_FEW		32
#define CREM_REPAIR_WINDOW_NS	1000000000ull	/* 1 s */
/* Trouble lowers m by one at most this often: zero after a second. */
#define CREM_REPAIR_STEP_NS	250000000ull	/* 250 ms */
#define CREM_FAILURE_MAX_NS	1000000000ull	/* 1 s */

struct crem_policy_params {
	u8 k;
	u8 max_m;
	u8 m_cong;		/* RECOMMENDED 1 */
	u64 epsilon;		/* Q31; RECOMMENDED 1e-4 */
	u64 srtt_ns;
	/* CPU time one repair index of a block costs; 0: free (policy.c) */
	u64 repair_price_ns;
};

struct crem_policy {
	struct crem_policy_params par;
	u64 p;			/* EWMA loss rate, Q31 */
	u64 ce;			/* EWMA CE fraction, Q31 */
	bool have_p;
	u32 own_samples;	/* samples of this flow's own taken into p */
	bool congestion;	/* the latest classification */
	bool path_evidence;	/* congestion seen in a PATH_REPORT since */
	u8 m;
	u64 last_change_ns;
	bool changed_once;
	/* reports gathered until they cover CREM_POLICY_SAMPLE packets */
	u64 acc_expected, acc_received, acc_ce;
	u64 acc_rep_sent, acc_rep_received, acc_rep_ce;
	u64 acc_interval_ns;
	u32 acc_reports;
	/* REPAIR trouble (loss or CE on repairs) */
	u64 rep_win_sent, rep_win_received, rep_win_ns;	/* this window's */
	u32 rep_win_reports;
	bool repairs_lost;	/* the last whole window's verdict */
	bool step_pending;	/* a sign of trouble m has not stepped for */
	u64 last_step_ns;
	u64 repair_trouble_since;
	bool repair_trouble;
	/* circuit breaker over windows of reports covering a second */
	u64 win_start_ns, win_len_ns, win_expected, win_received, win_ce;
	u64 cond_since;		/* when the condition began, if it holds */
	bool cond;
	u64 clear_since;
	bool tripped;
	bool close;		/* send CLOSE with reason 4 */
};

/**
 * struct crem_path_estimate - a path's loss, as its flows measured it
 * @p: EWMA loss rate, Q31
 * @ce: EWMA CE fraction, Q31
 * @m: the m the measuring flow's policy chose
 * @congestion: the latest classification said congestion
 * @held_back: the measuring flow's circuit breaker held, or its REPAIRs
 *	were in trouble: a new flow starts at m = 0 and judges for itself
 *
 * Loss belongs to the path, not to one QP: a new flow to a peer whose
 * flows measured the path lately starts from their estimate, where it
 * would otherwise start at m = 0 and leave its first round trip's losses
 * to coded retransmission and the RDMA transport.
 */
struct crem_path_estimate {
	u64 p;
	u64 ce;
	u8 m;
	bool congestion;
	bool held_back;
};

void crem_policy_init(struct crem_policy *pol,
		      const struct crem_policy_params *par, u8 initial_m);
void crem_policy_seed(struct crem_policy *pol,
		      const struct crem_path_estimate *est);
bool crem_policy_estimate(const struct crem_policy *pol,
			  struct crem_path_estimate *est);

/* The smallest m with P(more than m of k + m lost) < epsilon at rate p. */
u8 crem_policy_target_m(u64 p, unsigned int k, unsigned int max_m,
			u64 epsilon);

/**
 * crem_policy_priced_m() - the m worth its price in CPU time
 * @p: loss rate, Q31
 * @k: sources a block
 * @max_m: the largest m allowed
 * @price_ns: CPU time to code one repair index of a block; 0: free
 * @failure_ns: what a block its repairs cannot restore costs the flow
 *	(the policy takes two SRTTs: policy.c, block_failure_ns()), at most
 *	CREM_FAILURE_MAX_NS
 *
 * Each repair index costs its coding on the packet path, time a
 * CPU-bound RDMA host (soft-RoCE; a gateway at line rate) then does not
 * spend moving data.  Another is worth it while the failures still to
 * prevent cost more: m is the smallest whose remaining failures, P(more
 * than m of k + m lost) * @failure_ns under independent losses at @p, cost
 * no more than one more repair index.  (Not the m of least total cost:
 * where no m within @max_m cuts the failures much, that minimum can lie at
 * 0, which would drop the repairs a lossy path needs most.)  This departs
 * from the draft's RECOMMENDED policy (the epsilon target of
 * crem_policy_target_m()), which the draft leaves local to the CSF: given
 * a price (the engine configuration's coder_mbs; none by default), the
 * policy takes the lower of the two.
 *
 * Return: that m; @max_m if coding is free, @p is 1/2 or more, or no m
 * below @max_m is cheap enough; 0 if @p is 0.
 */
u8 crem_policy_priced_m(u64 p, unsigned int k, unsigned int max_m,
			u64 price_ns, u64 failure_ns);

/*
 * A LOSS_REPORT from the CRF at @now_ns, with @repairs_sent REPAIR
 * messages sent in its interval.  Updates the estimates, the
 * classification and the breaker, and may change m.
 */
void crem_policy_loss_report(struct crem_policy *pol,
			     const struct crem_wire_loss_report *r,
			     u64 repairs_sent, u64 now_ns);

/* Congestion evidence from an accepted PATH_REPORT. */
void crem_policy_path_report(struct crem_policy *pol,
			     const struct crem_wire_path_report *r);

/* The m to use now, and whether coded retransmission is allowed. */
static inline u8 crem_policy_m(const struct crem_policy *pol)
{
	return pol->tripped ? 0 : pol->m;
}

static inline bool crem_policy_coded_retx(const struct crem_policy *pol)
{
	return !pol->tripped;
}

#endif /* CREM_CORE_POLICY_H */
