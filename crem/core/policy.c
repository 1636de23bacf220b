// SPDX-License-Identifier: GPL-2.0
/*
 * The CSF's redundancy policy (see policy.h).
 */
#include "policy.h"

/* Breaker thresholds: loss above 10 %, CE above 50 %. */
#define BREAKER_LOSS	(CREM_Q31 / 10)
#define BREAKER_CE	(CREM_Q31 / 2)
/* A queue that marks one packet in a hundred is congested. */
#define CONGESTION_CE	(CREM_Q31 / 100)
/* EWMA weight of a new sample: 1/8. */
#define EWMA_SHIFT	3

static u64 mul_q31(u64 a, u64 b)
{
	return (a * b) >> 31;
}

static u64 pow_q31(u64 base, unsigned int n)
{
	u64 r = CREM_Q31;

	while (n) {
		if (n & 1)
			r = mul_q31(r, base);
		base = mul_q31(base, base);
		n >>= 1;
	}
	return r;
}

/* @num / @den as a Q31 fraction, at most 1. */
static u64 fraction(u64 num, u64 den)
{
	if (!den || num >= den)
		return den ? CREM_Q31 : 0;
	return crem_div64(num << 31, den);
}

/* P(X > m) for X ~ Binomial(k + m, p), Q31, for 0 < p < 1/2. */
static u64 tail_q31(u64 p, unsigned int k, unsigned int m)
{
	u64 q = CREM_Q31 - p, r = crem_div64(p << 31, q);	/* p / q < 1 */
	unsigned int n = k + m, i;
	u64 term, below;

	/* P(X <= m), term by term. */
	term = pow_q31(q, n);
	below = term;
	for (i = 0; i < m; i++) {
		term = crem_div64(mul_q31(term, r) * (n - i), i + 1);
		below += term;
	}
	return below >= CREM_Q31 ? 0 : CREM_Q31 - below;
}

u8 crem_policy_target_m(u64 p, unsigned int k, unsigned int max_m,
			u64 epsilon)
{
	unsigned int m;

	if (!p)
		return 0;
	if (p >= CREM_Q31 / 2)
		return max_m;
	for (m = 0; m <= max_m; m++)
		if (tail_q31(p, k, m) < epsilon)
			return m;
	return max_m;
}

u8 crem_policy_priced_m(u64 p, unsigned int k, unsigned int max_m,
			u64 price_ns, u64 failure_ns)
{
	unsigned int m;

	if (!price_ns || p >= CREM_Q31 / 2)
		return max_m;
	if (!p)
		return 0;
	if (failure_ns > CREM_FAILURE_MAX_NS)
		failure_ns = CREM_FAILURE_MAX_NS;
	for (m = 0; m < max_m; m++)
		if (mul_q31(tail_q31(p, k, m), failure_ns) <= price_ns)
			return m;
	return max_m;
}

/*
 * What a block its repairs cannot restore costs the flow: the round trip
 * of the request or NAK and its answer, and under go-back-N a window, a
 * round trip's worth of packets, sent again (crem_policy_priced_m() caps
 * it at CREM_FAILURE_MAX_NS).
 */
static u64 block_failure_ns(const struct crem_policy *pol)
{
	return 2 * pol->par.srtt_ns;
}

/* The m the loss rate @p needs, and is worth its price. */
static u8 needed_m(const struct crem_policy *pol, u64 p)
{
	u8 m = crem_policy_target_m(p, pol->par.k, pol->par.max_m,
				    pol->par.epsilon);
	u8 priced = crem_policy_priced_m(p, pol->par.k, pol->par.max_m,
					 pol->par.repair_price_ns,
					 block_failure_ns(pol));

	return m < priced ? m : priced;
}

void crem_policy_init(struct crem_policy *pol,
		      const struct crem_policy_params *par, u8 initial_m)
{
	memset(pol, 0, sizeof(*pol));
	pol->par = *par;
	pol->m = initial_m;
}

/**
 * crem_policy_seed() - start from what the path's other flows measured
 * @pol: a policy just initialised, before any report
 * @est: their estimate
 *
 * The loss and CE averages continue from @est, so the first reports
 * refine the estimate instead of replacing it with a single SRTT's
 * sample, and m is the one its loss rate needs, at most the measuring
 * flow's (which its hysteresis and trouble may have held lower) and at
 * most m_cong on a congested path.  An estimate made under the circuit
 * breaker or REPAIR trouble seeds nothing: the flow starts at m = 0 and
 * its own policy judges the path (the breaker's ten clean seconds are
 * the path's to earn, not a new QP's to skip).  The first change is not
 * held back (changed_once stays false).
 */
void crem_policy_seed(struct crem_policy *pol,
		      const struct crem_path_estimate *est)
{
	u8 m;

	if (est->held_back)
		return;
	m = needed_m(pol, est->p);
	if (m > est->m)
		m = est->m;
	pol->p = est->p;
	pol->ce = est->ce;
	pol->have_p = true;
	pol->congestion = est->congestion;
	if (est->congestion && m > pol->par.m_cong)
		m = pol->par.m_cong;
	pol->m = m;
}

/**
 * crem_policy_estimate() - the estimate a later flow may start from
 * @pol: the policy
 * @est: filled in
 *
 * Return: true if @pol has measured the path itself (its reports covered
 * CREM_POLICY_SAMPLE packets); @est is left alone otherwise.  A policy
 * only seeded has nothing to pass on: a chain of short flows must not
 * keep an old estimate alive.
 */
bool crem_policy_estimate(const struct crem_policy *pol,
			  struct crem_path_estimate *est)
{
	if (!pol->own_samples)
		return false;
	est->p = pol->p;
	est->ce = pol->ce;
	est->m = crem_policy_m(pol);
	est->congestion = pol->congestion;
	est->held_back = pol->tripped || pol->repair_trouble;
	return true;
}

/*
 * Were REPAIRs lost clearly more often than the data, over the window that
 * just closed?  Only a whole window decides (the last verdict stands
 * meanwhile).  The CSF counts what it had sent an SRTT before each report
 * came; the repairs in flight across that instant are in one report's
 * count or the next's, so the counts of one report differ by up to a
 * report's worth either way (in the lab, by half of it).  Over a window
 * they cancel but at its two ends: three reports' worth of slack (under
 * 5 % of a window), beyond the margin of twice the data's loss rate, or
 * one in 32.  A window that closed on time with few REPAIRs (m went to
 * zero) tells nothing, and clears the verdict: m may rise again, and the
 * next window judges the path afresh.
 */
static bool repair_window_done(struct crem_policy *pol)
{
	u64 sent = pol->rep_win_sent, got, margin, slack;

	if (pol->rep_win_reports < CREM_REPAIR_REPORTS ||
	    (sent < CREM_REPAIR_SAMPLE &&
	     pol->rep_win_ns < CREM_REPAIR_WINDOW_NS))
		return false;
	if (sent < CREM_REPAIR_FEW) {
		pol->repairs_lost = false;
	} else {
		got = pol->rep_win_received < sent ? pol->rep_win_received :
						      sent;
		margin = pol->p > CREM_Q31 / 32 ? pol->p : CREM_Q31 / 32;
		slack = crem_div64(3 * sent, pol->rep_win_reports);
		pol->repairs_lost = (sent - got) * CREM_Q31 >
				    (pol->p + margin) * sent +
				    slack * CREM_Q31;
	}
	pol->rep_win_sent = 0;
	pol->rep_win_received = 0;
	pol->rep_win_reports = 0;
	pol->rep_win_ns = 0;
	return true;
}

static void ewma(u64 *avg, u64 sample, bool first)
{
	if (first)
		*avg = sample;
	else if (sample >= *avg)
		*avg += (sample - *avg) >> EWMA_SHIFT;
	else
		*avg -= (*avg - sample) >> EWMA_SHIFT;
}

/*
 * The circuit breaker.  Reports are gathered until their intervals cover
 * a second; the window's start (its first interval's) dates the condition
 * and the clean time.
 */
static void breaker(struct crem_policy *pol,
		    const struct crem_wire_loss_report *r, u64 now)
{
	u64 interval = (u64)r->interval_us * 1000, start;
	bool cond;

	if (!pol->win_len_ns)
		pol->win_start_ns = now > interval ? now - interval : 0;
	pol->win_len_ns += interval;
	pol->win_expected += r->expected;
	pol->win_received += r->received < r->expected ? r->received : r->expected;
	pol->win_ce += r->ce_marked;
	if (pol->win_len_ns < CREM_BREAKER_WINDOW_NS)
		return;
	cond = fraction(pol->win_expected - pol->win_received,
			pol->win_expected) > BREAKER_LOSS ||
	       fraction(pol->win_ce, pol->win_received) > BREAKER_CE;
	start = pol->win_start_ns;
	pol->win_len_ns = 0;
	pol->win_expected = 0;
	pol->win_received = 0;
	pol->win_ce = 0;

	if (cond) {
		if (!pol->cond)
			pol->cond_since = start;
		pol->cond = true;
		pol->tripped = true;
		if (now - pol->cond_since > CREM_BREAKER_CLOSE_NS)
			pol->close = true;
		return;
	}
	if (pol->cond)
		pol->clear_since = start;
	pol->cond = false;
	if (pol->tripped && now - pol->clear_since >= CREM_BREAKER_RESUME_NS)
		pol->tripped = false;
}

void crem_policy_loss_report(struct crem_policy *pol,
			     const struct crem_wire_loss_report *r,
			     u64 repairs_sent, u64 now_ns)
{
	u64 received = r->received < r->expected ? r->received : r->expected;
	u64 expected, loss, ce;
	bool judged;
	u8 target;

	breaker(pol, r, now_ns);
	/*
	 * Reports come once per SRTT, whatever the rate: a slow flow's hold
	 * a few packets, and a loss rate from them is noise.  Reports are
	 * gathered until they cover CREM_POLICY_SAMPLE packets.
	 */
	pol->acc_reports++;
	pol->acc_interval_ns += (u64)r->interval_us * 1000;
	pol->acc_expected += r->expected;
	pol->acc_received += received;
	pol->acc_ce += r->ce_marked;
	pol->acc_rep_sent += repairs_sent;
	pol->acc_rep_received += r->repairs_received;
	pol->acc_rep_ce += r->repairs_ce_marked;
	if (pol->acc_expected < CREM_POLICY_SAMPLE)
		return;
	expected = pol->acc_expected;
	received = pol->acc_received;
	loss = fraction(expected - received, expected);
	ce = fraction(pol->acc_ce, received);
	repairs_sent = pol->acc_rep_sent;
	pol->acc_expected = 0;
	pol->acc_received = 0;
	pol->acc_ce = 0;
	pol->acc_rep_sent = 0;
	/*
	 * Congestion: CE rising, CE marking steadily (a queue that marks
	 * drops too, once full), or a reporter saw queues grow or overflow.
	 */
	pol->congestion = (ce && ce > pol->ce) || pol->path_evidence;
	pol->path_evidence = false;
	ewma(&pol->p, loss, !pol->have_p);
	ewma(&pol->ce, ce, !pol->have_p);
	if (pol->ce >= CONGESTION_CE)
		pol->congestion = true;
	pol->have_p = true;
	pol->own_samples++;

	/*
	 * CE or loss on REPAIR messages: less redundancy, none after 1 s.
	 * REPAIRs may take another path (ECMP on another port); what tells of
	 * trouble there is CE, or REPAIRs lost clearly more often than the
	 * data: beyond twice the flow's loss rate and by more than one in 32
	 * (repairs lost as often as data are no sign of a worse path, and
	 * taking redundancy away for them would fail the flow for nothing).
	 * The CRF's interval is not the CSF's (a one-way delay apart), so a
	 * single report's counts differ by the repairs in flight; a window of
	 * many reports' do not (repair_window_done()).
	 */
	pol->rep_win_sent += repairs_sent;
	pol->rep_win_received += pol->acc_rep_received;
	pol->rep_win_reports += pol->acc_reports;
	pol->rep_win_ns += pol->acc_interval_ns;
	pol->acc_rep_received = 0;
	pol->acc_reports = 0;
	pol->acc_interval_ns = 0;
	judged = repair_window_done(pol);
	/* Fresh evidence of trouble: a step down for it (below). */
	if (pol->acc_rep_ce || (judged && pol->repairs_lost))
		pol->step_pending = true;
	if (pol->acc_rep_ce || pol->repairs_lost) {
		if (!pol->repair_trouble)
			pol->repair_trouble_since = now_ns;
		pol->repair_trouble = true;
	} else {
		pol->repair_trouble = false;
	}
	pol->acc_rep_ce = 0;

	target = needed_m(pol, pol->p);
	/*
	 * Less redundancy only when even twice the loss rate would not need
	 * the current m: p hovers near the boundary between two m, and every
	 * change costs a PARAM_UPDATE and a configuration at the CRF.
	 */
	if (target < pol->m && needed_m(pol, 2 * pol->p) >= pol->m)
		target = pol->m;
	if (pol->congestion && target > pol->par.m_cong)
		target = pol->par.m_cong;
	/*
	 * Trouble on the repairs' path: a step down for a fresh sign of it,
	 * at most one per CREM_REPAIR_STEP_NS (CE comes in every report while
	 * it lasts), never up while it lasts, and zero once it has lasted a
	 * second.
	 */
	if (!pol->repair_trouble) {
		pol->step_pending = false;
	} else if (now_ns - pol->repair_trouble_since >
		   CREM_REPAIR_TROUBLE_NS) {
		target = 0;
	} else {
		if (target > pol->m)
			target = pol->m;
		if (pol->step_pending && pol->m && target == pol->m &&
		    now_ns - pol->last_step_ns >= CREM_REPAIR_STEP_NS)
			target = pol->m - 1;
	}
	if (target == pol->m)
		return;
	/* A change takes a round trip to act: at most one per 2 SRTT. */
	if (pol->changed_once &&
	    now_ns - pol->last_change_ns < 2 * pol->par.srtt_ns)
		return;
	if (pol->repair_trouble && target < pol->m) {
		pol->step_pending = false;
		pol->last_step_ns = now_ns;
	}
	pol->m = target;
	pol->last_change_ns = now_ns;
	pol->changed_once = true;
}

void crem_policy_path_report(struct crem_policy *pol,
			     const struct crem_wire_path_report *r)
{
	unsigned int e;

	for (e = 0; e < r->nentries && e < CREM_PATH_MAX_ENTRIES; e++) {
		const struct crem_wire_hop *h = &r->hop[e];

		if (h->delay_change_us > CREM_QUEUE_GROWTH_US ||
		    (h->cause == CREM_CAUSE_QUEUE_OVERFLOW &&
		     (h->lost_count || h->npsns)))
			pol->path_evidence = true;
	}
}
