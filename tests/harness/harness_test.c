// SPDX-License-Identifier: GPL-2.0
/*
 * The pair harness checked on its own, before it judges the engine: loss
 * models meet their rates and burst lengths, paths delay, jitter, reorder
 * and mark as configured, runs are deterministic, and the traffic
 * generator's packets are valid RoCEv2 with consecutive PSNs.  Userspace
 * only (make unit).
 */
#include <kunit/test.h>

#include "crem/core/psn.h"
#include "crem/core/roce.h"
#include "tests/harness/sim.h"
#include "tests/harness/traffic.h"

#define DRAWS 1000000

static void harness_iid_loss_rate(struct kunit *test)
{
	struct crem_sim_loss l = { .kind = CREM_SIM_LOSS_IID, .p = 0.01 };
	struct crem_sim_rng rng = { .state = 1 };
	unsigned int i, lost = 0;

	for (i = 0; i < DRAWS; i++)
		lost += crem_sim_loss_drop(&l, &rng);
	/* 10^4 expected; a 5 % band is more than 4 standard deviations. */
	KUNIT_EXPECT_GT(test, lost, 9500u);
	KUNIT_EXPECT_LT(test, lost, 10500u);
}

static void harness_bursty_loss_rate_and_bursts(struct kunit *test)
{
	struct crem_sim_loss l = crem_sim_loss_bursty(0.01, 4.0);
	struct crem_sim_rng rng = { .state = 2 };
	unsigned int i, lost = 0, bursts = 0;
	bool prev = false;

	for (i = 0; i < DRAWS; i++) {
		bool drop = crem_sim_loss_drop(&l, &rng);

		lost += drop;
		bursts += drop && !prev;
		prev = drop;
	}
	KUNIT_EXPECT_GT(test, lost, 8500u);
	KUNIT_EXPECT_LT(test, lost, 11500u);
	/* Mean burst length near 4 (bursts of one state visit). */
	KUNIT_EXPECT_GT(test, lost * 10 / bursts, 35u);
	KUNIT_EXPECT_LT(test, lost * 10 / bursts, 45u);
}

struct arrivals {
	u64 at[64];
	u32 id[64];
	unsigned int n;
};

static void record(struct crem_sim *sim, void *arg, const u8 *data, size_t len)
{
	struct arrivals *a = arg;

	if (a->n < 64) {
		a->at[a->n] = sim->now_ns;
		a->id[a->n++] = data[0];
	}
}

static void send_burst(struct crem_sim *sim, struct crem_sim_path *path,
		       struct arrivals *a)
{
	u8 pkt[1];
	unsigned int i;

	for (i = 0; i < 64; i++) {
		pkt[0] = i;
		crem_sim_path_send(sim, path, pkt, 1, record, a);
		crem_sim_run(sim, sim->now_ns + 1000);
	}
	crem_sim_run(sim, ~0ull);
}

static void harness_path_delay_jitter_reorder(struct kunit *test)
{
	struct crem_sim sim;
	struct crem_sim_path fifo = { .delay_ns = 5000000 };
	struct crem_sim_path shaky = {
		.delay_ns = 5000000, .jitter_ns = 200000,
		.reorder = 0.2, .reorder_ns = 1000000, .rng = { .state = 3 },
	};
	struct arrivals a = { .n = 0 }, b = { .n = 0 };
	unsigned int i, out_of_order = 0;

	crem_sim_init(&sim);
	send_burst(&sim, &fifo, &a);
	KUNIT_ASSERT_EQ(test, a.n, 64u);
	for (i = 0; i < 64; i++) {
		KUNIT_EXPECT_EQ(test, a.id[i], i);
		KUNIT_EXPECT_EQ(test, a.at[i], 5000000ull + 1000 * i);
	}
	crem_sim_free(&sim);

	crem_sim_init(&sim);
	send_burst(&sim, &shaky, &b);
	KUNIT_ASSERT_EQ(test, b.n, 64u);
	for (i = 1; i < 64; i++)
		out_of_order += b.id[i] < b.id[i - 1];
	KUNIT_EXPECT_GT(test, out_of_order, 0u);
	for (i = 0; i < 64; i++) {
		u64 sent = 1000ull * b.id[i];

		KUNIT_EXPECT_GE(test, b.at[i], sent + 5000000);
		KUNIT_EXPECT_LE(test, b.at[i], sent + 5000000 + 200000 + 1000000);
	}
	crem_sim_free(&sim);
}

static void harness_runs_are_deterministic(struct kunit *test)
{
	struct arrivals a = { .n = 0 }, b = { .n = 0 };
	unsigned int round;

	for (round = 0; round < 2; round++) {
		struct crem_sim sim;
		struct crem_sim_path p = {
			.delay_ns = 100, .jitter_ns = 5000, .reorder = 0.3,
			.reorder_ns = 7000, .rng = { .state = 42 },
			.loss = crem_sim_loss_bursty(0.1, 2),
		};

		crem_sim_init(&sim);
		send_burst(&sim, &p, round ? &b : &a);
		crem_sim_free(&sim);
	}
	KUNIT_ASSERT_EQ(test, a.n, b.n);
	KUNIT_EXPECT_EQ(test, memcmp(a.at, b.at, sizeof(a.at[0]) * a.n), 0);
	KUNIT_EXPECT_EQ(test, memcmp(a.id, b.id, sizeof(a.id[0]) * a.n), 0);
}

struct last_pkt {
	u8 buf[2048];
	size_t len;
};

static void keep(struct crem_sim *sim, void *arg, const u8 *data, size_t len)
{
	struct last_pkt *k = arg;

	memcpy(k->buf, data, len);
	k->len = len;
}

static void harness_ce_marking_keeps_the_packet_valid(struct kunit *test)
{
	struct crem_sim sim;
	struct crem_sim_path p = { .ce = 1.0 };
	struct crem_traffic t;
	struct crem_traffic_pkt info;
	struct crem_roce_pkt r;
	struct last_pkt k;
	u8 buf[2048];
	size_t len;

	crem_traffic_init(&t, 9, 100);
	len = crem_traffic_next(&t, buf, sizeof(buf), &info);
	KUNIT_ASSERT_GT(test, len, (size_t)0);
	crem_sim_init(&sim);
	crem_sim_path_send(&sim, &p, buf, len, keep, &k);
	crem_sim_run(&sim, ~0ull);
	crem_sim_free(&sim);
	KUNIT_ASSERT_EQ(test, k.len, len);
	KUNIT_ASSERT_EQ(test, crem_roce_parse_ip(k.buf, k.len, &r), CREM_ROCE_OK);
	KUNIT_EXPECT_EQ(test, r.ecn, 3);
	KUNIT_EXPECT_EQ(test, p.marked, 1ull);
	/* The ICRC masks TOS: a CE mark leaves it valid. */
	KUNIT_EXPECT_TRUE(test, crem_roce_icrc_ok(k.buf, k.len));
}

static void harness_traffic_is_valid_rocev2(struct kunit *test)
{
	static const u32 starts[] = { 0, 0xfffff0, 0x7ffffe };
	unsigned int s, i, kinds[CREM_TRAFFIC_NR_KINDS] = { 0 };
	u8 buf[2048];

	for (s = 0; s < ARRAY_SIZE(starts); s++) {
		struct crem_traffic t;
		u32 expect = starts[s];

		crem_traffic_init(&t, 100 + s, starts[s]);
		t.af = s == 2 ? 6 : 4;
		if (t.af == 6) {
			memset(t.src, 0x20, 16);
			memset(t.dst, 0x21, 16);
		}
		for (i = 0; i < 5000; i++) {
			struct crem_traffic_pkt info;
			struct crem_roce_pkt r;
			size_t len = crem_traffic_next(&t, buf, sizeof(buf), &info);

			KUNIT_ASSERT_GT(test, len, (size_t)0);
			KUNIT_ASSERT_EQ_MSG(test, crem_roce_parse_ip(buf, len, &r),
					    CREM_ROCE_OK, "packet %u", i);
			KUNIT_ASSERT_TRUE(test, crem_roce_icrc_ok(buf, len));
			KUNIT_ASSERT_TRUE(test, crem_roce_is_source(&r));
			KUNIT_ASSERT_EQ_MSG(test, r.psn, expect, "packet %u", i);
			KUNIT_ASSERT_EQ(test, crem_roce_psn_span(&r, t.mtu), info.span);
			KUNIT_ASSERT_EQ(test, r.ackreq, info.last);
			expect = crem_psn_add(expect, info.span);
			kinds[t.kind]++;
		}
		/* Started 16 below 2^24: the stream has wrapped. */
		if (starts[s] == 0xfffff0)
			KUNIT_EXPECT_LT(test, t.psn, starts[s]);
	}
	for (i = 0; i < CREM_TRAFFIC_NR_KINDS; i++)
		KUNIT_EXPECT_GT_MSG(test, kinds[i], 0u, "kind %u", i);
}

static void harness_acks_are_not_sources(struct kunit *test)
{
	struct crem_traffic t;
	struct crem_roce_pkt r;
	u8 buf[256];
	size_t len;

	crem_traffic_init(&t, 5, 77);
	len = crem_traffic_ack(&t, 76, 0x1f, 3, buf, sizeof(buf));
	KUNIT_ASSERT_EQ(test, crem_roce_parse_ip(buf, len, &r), CREM_ROCE_OK);
	KUNIT_EXPECT_EQ(test, r.class, CREM_ROCE_ACK);
	KUNIT_EXPECT_TRUE(test, crem_roce_icrc_ok(buf, len));
	len = crem_traffic_ack(&t, 76, 0x60, 3, buf, sizeof(buf));
	KUNIT_ASSERT_EQ(test, crem_roce_parse_ip(buf, len, &r), CREM_ROCE_OK);
	KUNIT_EXPECT_EQ(test, r.class, CREM_ROCE_NAK);
	KUNIT_EXPECT_FALSE(test, crem_roce_is_source(&r));
}

static struct kunit_case crem_harness_test_cases[] = {
	KUNIT_CASE(harness_iid_loss_rate),
	KUNIT_CASE(harness_bursty_loss_rate_and_bursts),
	KUNIT_CASE(harness_path_delay_jitter_reorder),
	KUNIT_CASE(harness_runs_are_deterministic),
	KUNIT_CASE(harness_ce_marking_keeps_the_packet_valid),
	KUNIT_CASE(harness_traffic_is_valid_rocev2),
	KUNIT_CASE(harness_acks_are_not_sources),
	{}
};

static struct kunit_suite crem_harness_test_suite = {
	.name = "crem_harness",
	.test_cases = crem_harness_test_cases,
};

kunit_test_suite(crem_harness_test_suite);
