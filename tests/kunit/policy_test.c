// SPDX-License-Identifier: GPL-2.0
/*
 * The redundancy policy: the recommended m against exact binomial tails,
 * hysteresis, congestion never raising m above m_cong, REPAIR trouble,
 * and the circuit breaker at the draft's times.
 */
#include <kunit/test.h>

#include "crem/core/policy.h"

#define MS 1000000ull
#define S (1000 * MS)
#define EPS (CREM_Q31 / 10000)		/* 1e-4 */

/* Reports every 100 ms with @lost_ppm loss and @ce_ppm CE marking. */
static void feed(struct crem_policy *pol, u64 from, u64 to, u32 lost_ppm,
		 u32 ce_ppm, u32 repairs_lost)
{
	u64 t;

	for (t = from; t < to; t += 100 * MS) {
		struct crem_wire_loss_report r = {
			.interval_us = 100000, .expected = 100000,
			.repairs_received = 1000 - repairs_lost,
		};

		r.received = r.expected - (u64)r.expected * lost_ppm / 1000000;
		r.ce_marked = (u64)r.received * ce_ppm / 1000000;
		crem_policy_loss_report(pol, &r, 1000, t);
	}
}

static void policy_target_m_matches_exact_tails(struct kunit *test)
{
	/* Exact values (Python, fractions): k = 32 and 16, epsilon 1e-4. */
	static const struct { u32 ppm; u8 m32, m16; } table[] = {
		{ 0, 0, 0 }, { 1, 0, 0 }, { 3, 0, 0 }, { 10, 1, 1 },
		{ 100, 1, 1 }, { 1000, 2, 2 }, { 5000, 3, 2 }, { 10000, 4, 3 },
		{ 20000, 5, 4 }, { 50000, 9, 6 }, { 100000, 13, 9 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(table); i++) {
		KUNIT_EXPECT_EQ_MSG(test, crem_policy_target_m(CREM_PPM(table[i].ppm),
				    32, 16, EPS), table[i].m32, "p = %u ppm, k = 32",
				    table[i].ppm);
		KUNIT_EXPECT_EQ_MSG(test, crem_policy_target_m(CREM_PPM(table[i].ppm),
				    16, 16, EPS), table[i].m16, "p = %u ppm, k = 16",
				    table[i].ppm);
	}
	KUNIT_EXPECT_EQ(test, crem_policy_target_m(CREM_Q31 / 2, 32, 7, EPS), 7);
}

/*
 * The price of redundancy: the smallest m whose remaining failures, P(the
 * block fails) * 20 ms (two SRTTs of 10 ms), cost no more than one more
 * repair index, against exact values (Python, fractions).  19.4 us is a
 * repair index of k = 8 at T = 1090 under the lab's emulated coder (225
 * MB/s); 77.5 us one of k = 32 there; 1.7 us one of k = 32 at 10 GB/s,
 * where m is about the epsilon target's
 * (policy_target_m_matches_exact_tails), less with a 1 ms SRTT.
 */
static void policy_priced_m_matches_exact_costs(struct kunit *test)
{
	/* The columns of the table below: k, price, failure cost. */
	static const struct {
		u8 k;
		u64 price_ns, failure_ns;
	} coders[] = {
		{ 8, 19378, 20 * MS },		/* the lab's */
		{ 32, 77511, 20 * MS },		/* the lab's, k 32 */
		{ 32, 1744, 20 * MS },		/* 10 GB/s */
		{ 32, 1744, 2 * MS },		/* 10 GB/s, 1 ms SRTT */
	};
	static const struct {
		u32 ppm;
		u8 m[ARRAY_SIZE(coders)];
	} table[] = {
		{ 1000, { 1, 1, 2, 1 } }, { 5000, { 1, 2, 3, 2 } },
		{ 10000, { 2, 3, 4, 3 } }, { 20000, { 2, 4, 6, 4 } },
		{ 50000, { 4, 6, 9, 7 } }, { 100000, { 5, 10, 13, 11 } },
	};
	unsigned int i, c;

	for (i = 0; i < ARRAY_SIZE(table); i++)
		for (c = 0; c < ARRAY_SIZE(coders); c++)
			KUNIT_EXPECT_EQ_MSG(test,
				crem_policy_priced_m(CREM_PPM(table[i].ppm),
						     coders[c].k, 16,
						     coders[c].price_ns,
						     coders[c].failure_ns),
				table[i].m[c], "p = %u ppm, column %u",
				table[i].ppm, c);
	/* Free coding leaves m to the epsilon target; no loss needs none. */
	KUNIT_EXPECT_EQ(test, crem_policy_priced_m(CREM_PPM(50000), 32, 16, 0,
						   20 * MS), 16);
	KUNIT_EXPECT_EQ(test, crem_policy_priced_m(0, 32, 16, 19378, 20 * MS),
			0);
	/* No cliff: where no m cuts the failures much, all of them. */
	KUNIT_EXPECT_EQ(test, crem_policy_priced_m(CREM_PPM(200000), 128, 16,
						   1744, 20 * MS), 16);
	/* A failure costs at most a second: no wrap for a huge SRTT. */
	KUNIT_EXPECT_EQ(test, crem_policy_priced_m(CREM_PPM(400000), 32, 16,
						   1744, ~0ull >> 1),
			crem_policy_priced_m(CREM_PPM(400000), 32, 16, 1744,
					     CREM_FAILURE_MAX_NS));
	KUNIT_EXPECT_GT(test, crem_policy_priced_m(CREM_PPM(400000), 32, 16,
						   1744, ~0ull >> 1), 0);
}

/*
 * A policy with a price takes the lower of the two m, in its hysteresis
 * too: at 5 % with k = 8 the price makes it 4 where the target is 5.  At
 * 2 %, twice the loss would need 4 by the target alone, which would keep
 * m at 4; priced, twice the loss needs less, and m steps down (to 3,
 * where twice the loss, 4 %, is worth 3).
 */
static void policy_pays_for_repairs(struct kunit *test)
{
	struct crem_policy_params par = {
		.k = 8, .max_m = 16, .m_cong = 1, .epsilon = EPS,
		.srtt_ns = 10 * MS,
	};
	struct crem_policy pol;

	crem_policy_init(&pol, &par, 0);
	feed(&pol, 0, 3 * S, 50000, 0, 0);
	KUNIT_EXPECT_EQ(test, crem_policy_m(&pol), 5);
	par.repair_price_ns = 19378;
	crem_policy_init(&pol, &par, 0);
	feed(&pol, 0, 3 * S, 50000, 0, 0);
	KUNIT_EXPECT_EQ(test, crem_policy_m(&pol), 4);
	feed(&pol, 3 * S, 6 * S, 20000, 0, 0);
	KUNIT_EXPECT_EQ(test, crem_policy_m(&pol), 3);
}

static const struct crem_policy_params params = {
	.k = 32, .max_m = 16, .m_cong = 1, .epsilon = EPS, .srtt_ns = 10 * MS,
};

static void policy_follows_loss_with_hysteresis(struct kunit *test)
{
	struct crem_policy pol;

	crem_policy_init(&pol, &params, 0);
	feed(&pol, 0, 3 * S, 10000, 0, 0);	/* 1 % transmission loss */
	KUNIT_EXPECT_FALSE(test, pol.congestion);
	KUNIT_EXPECT_EQ(test, crem_policy_m(&pol), 4);
	/* Two reports 5 ms apart: the second change waits for 2 SRTT. */
	crem_policy_init(&pol, &params, 0);
	feed(&pol, 0, 1, 10000, 0, 0);
	KUNIT_EXPECT_EQ(test, pol.m, 4);
	feed(&pol, 5 * MS, 5 * MS + 1, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, pol.m, 4);
	KUNIT_EXPECT_EQ(test, pol.last_change_ns, 0ull);
}

static void policy_congestion_never_raises_m(struct kunit *test)
{
	struct crem_policy pol;
	u64 t;
	u32 ce;

	crem_policy_init(&pol, &params, 0);
	/* 2 % loss with CE marks that keep rising: congestion. */
	for (t = 0, ce = 1000; t < 5 * S; t += 100 * MS, ce += 2000) {
		feed(&pol, t, t + 1, 20000, ce, 0);
		KUNIT_ASSERT_TRUE(test, pol.congestion);
		KUNIT_ASSERT_LE(test, crem_policy_m(&pol), params.m_cong);
	}
	/* The same loss without CE is transmission loss: m rises. */
	feed(&pol, 5 * S, 8 * S, 20000, 0, 0);
	KUNIT_EXPECT_FALSE(test, pol.congestion);
	KUNIT_EXPECT_EQ(test, crem_policy_m(&pol), 5);
}

static void policy_path_report_evidence(struct kunit *test)
{
	struct crem_wire_path_report r = { .nentries = 1 };
	struct crem_policy pol;

	crem_policy_init(&pol, &params, 0);
	r.hop[0].cause = CREM_CAUSE_QUEUE_OVERFLOW;
	r.hop[0].lost_count = 3;
	crem_policy_path_report(&pol, &r);
	feed(&pol, 0, 1, 20000, 0, 0);
	KUNIT_EXPECT_TRUE(test, pol.congestion);
	KUNIT_EXPECT_LE(test, crem_policy_m(&pol), params.m_cong);
	/* Transmission errors and small delay changes are not congestion. */
	r.hop[0].cause = CREM_CAUSE_TRANSMISSION_ERROR;
	r.hop[0].delay_change_us = CREM_QUEUE_GROWTH_US;
	crem_policy_path_report(&pol, &r);
	feed(&pol, 100 * MS, 100 * MS + 1, 20000, 0, 0);
	KUNIT_EXPECT_FALSE(test, pol.congestion);
}

/*
 * Reports every SRTT (10 ms), each of 1000 packets with @lost_ppm lost,
 * @sent REPAIRs sent, @lost of them lost, @ce of them CE-marked.
 */
static void feed_repairs(struct crem_policy *pol, u64 from, u64 to,
			 u32 lost_ppm, u32 sent, u32 lost, u32 ce)
{
	u64 t;

	for (t = from; t < to; t += 10 * MS) {
		struct crem_wire_loss_report r = {
			.interval_us = 10000, .expected = 1000,
			.repairs_received = sent - lost,
			.repairs_ce_marked = ce,
		};

		r.received = r.expected - (u64)r.expected * lost_ppm / 1000000;
		crem_policy_loss_report(pol, &r, sent, t);
	}
}

static void feed_srtt(struct crem_policy *pol, u64 from, u64 to, u32 lost_ppm,
		      u32 repairs_lost)
{
	feed_repairs(pol, from, to, lost_ppm, 100, repairs_lost, 0);
}

static void policy_repair_trouble_lowers_m(struct kunit *test)
{
	struct crem_policy pol;

	crem_policy_init(&pol, &params, 0);
	feed_srtt(&pol, 0, 1 * S, 10000, 1);
	KUNIT_ASSERT_EQ(test, crem_policy_m(&pol), 4);
	KUNIT_ASSERT_FALSE(test, pol.repair_trouble);
	/*
	 * 1 % of the data but 15 % of the repairs lost: the repairs' path is
	 * worse.  Once a window of reports shows it (64 reports, by 2 s), m
	 * steps down, a step per 250 ms; after a second of it, zero.
	 */
	feed_srtt(&pol, 1 * S, 2 * S + 300 * MS, 10000, 15);
	KUNIT_EXPECT_TRUE(test, pol.repair_trouble);
	KUNIT_EXPECT_LT(test, crem_policy_m(&pol), 4);
	KUNIT_EXPECT_GT(test, crem_policy_m(&pol), 0);
	feed_srtt(&pol, 2 * S + 300 * MS, 4 * S, 10000, 15);
	KUNIT_EXPECT_EQ(test, crem_policy_m(&pol), 0);
}

/*
 * Trouble that ends: with m at zero only a few REPAIRs go, and a window
 * of them tells nothing, so the verdict clears and m follows the loss
 * again; REPAIRs that then come through keep it there.
 */
static void policy_repair_trouble_clears(struct kunit *test)
{
	struct crem_policy pol;

	crem_policy_init(&pol, &params, 0);
	feed_srtt(&pol, 0, 1 * S, 10000, 1);
	feed_srtt(&pol, 1 * S, 4 * S, 10000, 60);
	KUNIT_ASSERT_EQ(test, crem_policy_m(&pol), 0);
	KUNIT_ASSERT_TRUE(test, pol.repair_trouble);
	feed_repairs(&pol, 4 * S, 6 * S, 10000, 0, 0, 0);
	KUNIT_EXPECT_FALSE(test, pol.repair_trouble);
	KUNIT_EXPECT_EQ(test, crem_policy_m(&pol), 4);
	feed_srtt(&pol, 6 * S, 9 * S, 10000, 1);
	KUNIT_EXPECT_FALSE(test, pol.repair_trouble);
	KUNIT_EXPECT_EQ(test, crem_policy_m(&pol), 4);
}

/*
 * CE on REPAIRs in every report: a step down every 250 ms, not every
 * report, and zero once it has lasted a second.
 */
static void policy_repair_ce_steps_down(struct kunit *test)
{
	struct crem_policy pol;

	crem_policy_init(&pol, &params, 0);
	feed_srtt(&pol, 0, 1 * S, 10000, 1);
	KUNIT_ASSERT_EQ(test, crem_policy_m(&pol), 4);
	feed_repairs(&pol, 1 * S, 1 * S + 600 * MS, 10000, 100, 1, 5);
	KUNIT_EXPECT_TRUE(test, pol.repair_trouble);
	KUNIT_EXPECT_EQ(test, crem_policy_m(&pol), 1);
	feed_repairs(&pol, 1 * S + 600 * MS, 2 * S + 100 * MS, 10000, 100, 1,
		     5);
	KUNIT_EXPECT_EQ(test, crem_policy_m(&pol), 0);
}

/* Repairs lost as often as the data say nothing of their own path. */
static void policy_repairs_lost_like_data_are_not_trouble(struct kunit *test)
{
	struct crem_policy pol;

	crem_policy_init(&pol, &params, 0);
	feed_srtt(&pol, 0, 5 * S, 20000, 2);
	KUNIT_EXPECT_FALSE(test, pol.repair_trouble);
	KUNIT_EXPECT_EQ(test, crem_policy_m(&pol),
			crem_policy_target_m(pol.p, params.k, params.max_m,
					     params.epsilon));
}

/*
 * A report's interval is not the CSF's: with nothing lost, the counts of
 * one report still differ by the repairs in flight at its two ends, which
 * in the lab vary by more than a report's worth.  That is not trouble, and
 * m never moves for it.
 */
static void policy_repair_counts_in_flight_are_not_loss(struct kunit *test)
{
	struct crem_policy pol;
	unsigned int in_flight = 0, next;
	u64 t;
	int i = 0;

	crem_policy_init(&pol, &params, 0);
	for (t = 0; t < 10 * S; t += 10 * MS, i++) {
		struct crem_wire_loss_report r = {
			.interval_us = 10000, .expected = 1000,
			.received = 990,
		};

		/*
		 * 20 sent a report; 0 to 30 still on their way, for three
		 * reports at a time (the sender's clumps).
		 */
		next = (i / 3 * 7919u + 13) % 31;
		if (next > in_flight + 20)
			next = in_flight + 20;
		r.repairs_received = 20 + in_flight - next;
		in_flight = next;
		crem_policy_loss_report(&pol, &r, 20, t);
		KUNIT_EXPECT_FALSE(test, pol.repair_trouble);
	}
	KUNIT_EXPECT_EQ(test, crem_policy_m(&pol), 4);
}

/*
 * Reports every 100 ms, each covering 100 ms: windows of ten reports end
 * at x.9 s and start at (x - 1).9 s.
 */
static void policy_circuit_breaker_at_the_drafts_times(struct kunit *test)
{
	struct crem_policy pol;

	crem_policy_init(&pol, &params, 0);
	feed(&pol, 0, 2 * S, 10000, 0, 0);
	KUNIT_ASSERT_GT(test, crem_policy_m(&pol), 0);
	/* 15 % loss in the reports from 2.0 s: not yet a second of it ... */
	feed(&pol, 2 * S, 2 * S + 900 * MS, 150000, 0, 0);
	KUNIT_EXPECT_FALSE(test, pol.tripped);
	/* ... then a second: m = 0 and no coded retransmission. */
	feed(&pol, 2 * S + 900 * MS, 3 * S, 150000, 0, 0);
	KUNIT_EXPECT_TRUE(test, pol.tripped);
	KUNIT_EXPECT_EQ(test, crem_policy_m(&pol), 0);
	KUNIT_EXPECT_FALSE(test, crem_policy_coded_retx(&pol));
	/* Clean from the report at 5.0 s (its interval from 4.9 s) ... */
	feed(&pol, 3 * S, 5 * S, 150000, 0, 0);
	feed(&pol, 5 * S, 14 * S + 800 * MS, 0, 0, 0);
	KUNIT_EXPECT_TRUE(test, pol.tripped);
	/* ... redundancy resumes after ten clean seconds, at 14.9 s. */
	feed(&pol, 14 * S + 800 * MS, 15 * S, 0, 0, 0);
	KUNIT_EXPECT_FALSE(test, pol.tripped);
	KUNIT_EXPECT_TRUE(test, crem_policy_coded_retx(&pol));
	KUNIT_EXPECT_FALSE(test, pol.close);

	/* CE above half from the start: more than a minute closes (reason 4). */
	crem_policy_init(&pol, &params, 2);
	feed(&pol, 0, 60 * S, 0, 600000, 0);
	KUNIT_EXPECT_TRUE(test, pol.tripped);
	KUNIT_EXPECT_FALSE(test, pol.close);
	feed(&pol, 60 * S, 61 * S, 0, 600000, 0);
	KUNIT_EXPECT_TRUE(test, pol.close);
}

static struct kunit_case crem_policy_test_cases[] = {
	KUNIT_CASE(policy_target_m_matches_exact_tails),
	KUNIT_CASE(policy_priced_m_matches_exact_costs),
	KUNIT_CASE(policy_pays_for_repairs),
	KUNIT_CASE(policy_follows_loss_with_hysteresis),
	KUNIT_CASE(policy_congestion_never_raises_m),
	KUNIT_CASE(policy_path_report_evidence),
	KUNIT_CASE(policy_repair_trouble_lowers_m),
	KUNIT_CASE(policy_repair_trouble_clears),
	KUNIT_CASE(policy_repair_ce_steps_down),
	KUNIT_CASE(policy_repair_counts_in_flight_are_not_loss),
	KUNIT_CASE(policy_repairs_lost_like_data_are_not_trouble),
	KUNIT_CASE(policy_circuit_breaker_at_the_drafts_times),
	{}
};

static struct kunit_suite crem_policy_test_suite = {
	.name = "crem_policy",
	.test_cases = crem_policy_test_cases,
};

kunit_test_suite(crem_policy_test_suite);
