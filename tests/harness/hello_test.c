// SPDX-License-Identifier: GPL-2.0
/*
 * Negotiation through the harness (the engine's scenario 4): HELLO lost,
 * with the draft's backoff timings, until HELLO_ACK or the eighth attempt;
 * nonces, Flow IDs and effective limits.  (make unit)
 */
#include <kunit/test.h>

#include "crem/core/hello.h"
#include "tests/harness/sim.h"

#define MS 1000000ull

struct hello_pair {
	struct crem_sim sim;
	struct crem_sim_rng rng;
	struct crem_env csf_env, crf_env;
	struct crem_csf_hello csf;
	struct crem_sim_timer csf_timer;
	struct crem_limits crf_limits;
	u64 one_way_ns;
	unsigned int drop_hellos;	/* lose this many HELLOs first */
	u64 hello_sent_at[16];
	unsigned int hellos;
	s64 flow_id;
	u32 taken;			/* an ID the CRF must not give */
};

static u64 env_now(void *ctx)
{
	return ((struct hello_pair *)ctx)->sim.now_ns;
}

static void env_arm(void *ctx, void *owner, u64 deadline)
{
	struct hello_pair *p = ctx;

	crem_sim_timer_arm(&p->sim, &p->csf_timer, deadline);
}

static void env_random(void *ctx, void *buf, size_t len)
{
	struct hello_pair *p = ctx;
	u8 *b = buf;

	while (len--)
		*b++ = (u8)crem_sim_rng_next(&p->rng);
}

static bool id_in_use(void *ctx, u32 id)
{
	return id == ((struct hello_pair *)ctx)->taken;
}

/* HELLO_ACK reaches the CSF. */
static void at_csf(struct crem_sim *sim, void *arg, const u8 *data, size_t len)
{
	struct hello_pair *p = arg;
	struct crem_msg m;

	if (crem_wire_parse(data, len, &m, NULL) == CREM_WIRE_OK)
		crem_csf_hello_ack(&p->csf, &m);
}

static int crf_send(void *ctx, void *owner, const u8 *msg, size_t len, u8 dscp)
{
	struct hello_pair *p = ctx;

	return crem_sim_at(&p->sim, p->sim.now_ns + p->one_way_ns, at_csf, p,
			   msg, len);
}

/* HELLO reaches the CRF, which answers. */
static void at_crf(struct crem_sim *sim, void *arg, const u8 *data, size_t len)
{
	struct hello_pair *p = arg;
	struct crem_msg m;

	if (crem_wire_parse(data, len, &m, NULL) == CREM_WIRE_OK)
		p->flow_id = crem_crf_hello(&p->crf_env, p, &m, &p->crf_limits,
					    id_in_use, p);
}

static int csf_send(void *ctx, void *owner, const u8 *msg, size_t len, u8 dscp)
{
	struct hello_pair *p = ctx;

	if (p->hellos < 16)
		p->hello_sent_at[p->hellos] = p->sim.now_ns;
	if (p->hellos++ < p->drop_hellos)
		return 0;
	return crem_sim_at(&p->sim, p->sim.now_ns + p->one_way_ns, at_crf, p,
			   msg, len);
}

static void csf_fire(struct crem_sim_timer *timer)
{
	struct hello_pair *p = (void *)((u8 *)timer -
					offsetof(struct hello_pair, csf_timer));

	crem_csf_hello_timeout(&p->csf);
}

static const struct crem_env_ops csf_ops = {
	.now_ns = env_now, .arm = env_arm, .send = csf_send, .random = env_random,
};
static const struct crem_env_ops crf_ops = {
	.now_ns = env_now, .arm = env_arm, .send = crf_send, .random = env_random,
};

static struct hello_pair *start(struct kunit *test, unsigned int drop)
{
	static const struct crem_flow_desc flow = {
		.af = CREM_AF_INET, .src = { 192, 0, 2, 1 }, .dst = { 192, 0, 2, 2 },
		.dest_qp = 0x11, .rdma_mtu = 1024,
	};
	static const struct crem_limits csf_limits = {
		.schemes = 0x7, .max_k = 64, .max_m = 8, .max_t = 4200,
	};
	struct hello_pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	crem_sim_init(&p->sim);
	p->rng.state = 4791;
	p->csf_env = (struct crem_env){ .ops = &csf_ops, .ctx = p };
	p->crf_env = (struct crem_env){ .ops = &crf_ops, .ctx = p };
	p->csf_timer.fire = csf_fire;
	p->crf_limits = (struct crem_limits){
		.schemes = 0x3, .max_k = 32, .max_m = 16, .max_t = 9000,
		.max_open_blocks = 64,
	};
	p->one_way_ns = 200000;		/* RTT 0.4 ms, below the first RTO */
	p->drop_hellos = drop;
	KUNIT_ASSERT_EQ(test, crem_csf_hello_start(&p->csf, &p->csf_env, p,
						   &flow, &csf_limits), 0);
	crem_sim_run(&p->sim, ~0ull);
	return p;
}

static void hello_lost_three_times(struct kunit *test)
{
	static const u64 want[] = { 0, 1 * MS, 3 * MS, 7 * MS };
	struct hello_pair *p = start(test, 3);
	unsigned int i;

	KUNIT_ASSERT_EQ(test, p->hellos, 4u);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, p->hello_sent_at[i], want[i], "HELLO %u", i);
	KUNIT_EXPECT_EQ(test, p->csf.state, CREM_HELLO_DONE);
	KUNIT_EXPECT_GT(test, p->flow_id, 0);
	KUNIT_EXPECT_EQ(test, (s64)p->csf.flow_id, p->flow_id);
	/* Effective limits: the minimum of both sides. */
	KUNIT_EXPECT_EQ(test, p->csf.effective.schemes, 0x3);
	KUNIT_EXPECT_EQ(test, p->csf.effective.max_k, 32);
	KUNIT_EXPECT_EQ(test, p->csf.effective.max_m, 8);
	KUNIT_EXPECT_EQ(test, p->csf.effective.max_t, 4200);
	KUNIT_EXPECT_EQ(test, p->csf.effective.max_open_blocks, 64);
	crem_sim_free(&p->sim);
}

static void hello_never_answered(struct kunit *test)
{
	struct hello_pair *p = start(test, 100);
	unsigned int i;

	/* Eight attempts at 0, 1, 3, 7, ... 127 ms; then no protection. */
	KUNIT_ASSERT_EQ(test, p->hellos, CREM_HELLO_MAX_ATTEMPTS);
	for (i = 0; i < CREM_HELLO_MAX_ATTEMPTS; i++)
		KUNIT_EXPECT_EQ_MSG(test, p->hello_sent_at[i], ((1ull << i) - 1) * MS,
				    "HELLO %u", i);
	KUNIT_EXPECT_EQ(test, p->csf.state, CREM_HELLO_FAILED);
	KUNIT_EXPECT_EQ(test, p->sim.now_ns, 255 * MS);
	crem_sim_free(&p->sim);
}

static void hello_ack_needs_our_nonce(struct kunit *test)
{
	struct hello_pair *p = start(test, 100);
	struct crem_msg ack = { .type = CREM_MSG_HELLO_ACK, .flow_id = 9 };

	/* Restart so that a HELLO is outstanding, then answer it wrongly. */
	p->csf.state = CREM_HELLO_SENT;
	ack.hello_ack.nonce = p->csf.nonce + 1;
	KUNIT_EXPECT_EQ(test, crem_csf_hello_ack(&p->csf, &ack), -ESTALE);
	ack.hello_ack.nonce = p->csf.nonce;
	ack.flow_id = 0;
	KUNIT_EXPECT_EQ(test, crem_csf_hello_ack(&p->csf, &ack), -ESTALE);
	ack.flow_id = 9;
	ack.hello_ack.max_k = 16;
	KUNIT_EXPECT_EQ(test, crem_csf_hello_ack(&p->csf, &ack), 0);
	KUNIT_EXPECT_EQ(test, crem_csf_hello_ack(&p->csf, &ack), -EALREADY);
	crem_sim_free(&p->sim);
}

static bool all_in_use(void *ctx, u32 id)
{
	return true;
}

static void crf_flow_ids_are_free_and_nonzero(struct kunit *test)
{
	struct hello_pair *p = start(test, 100);
	struct crem_msg hello = { .type = CREM_MSG_HELLO };
	s64 first, second;

	hello.hello.flow_kind = CREM_FLOW_ROCEV2;
	hello.hello.af = CREM_AF_INET;
	hello.hello.max_k = 8;
	p->rng.state = 1;
	first = crem_crf_hello(&p->crf_env, p, &hello, &p->crf_limits, id_in_use, p);
	KUNIT_ASSERT_GT(test, first, 0);
	/* The same random draws, but the first ID is taken now. */
	p->rng.state = 1;
	p->taken = (u32)first;
	second = crem_crf_hello(&p->crf_env, p, &hello, &p->crf_limits, id_in_use, p);
	KUNIT_EXPECT_GT(test, second, 0);
	KUNIT_EXPECT_NE(test, second, first);
	KUNIT_EXPECT_EQ(test, crem_crf_hello(&p->crf_env, p, &hello, &p->crf_limits,
					     all_in_use, p), (s64)-EAGAIN);
	hello.hello.flow_kind = 2;
	KUNIT_EXPECT_EQ(test, crem_crf_hello(&p->crf_env, p, &hello,
					     &p->crf_limits, id_in_use, p),
			(s64)-EPROTONOSUPPORT);
	crem_sim_free(&p->sim);
}

static struct kunit_case crem_hello_test_cases[] = {
	KUNIT_CASE(hello_lost_three_times),
	KUNIT_CASE(hello_never_answered),
	KUNIT_CASE(hello_ack_needs_our_nonce),
	KUNIT_CASE(crf_flow_ids_are_free_and_nonzero),
	{}
};

static struct kunit_suite crem_hello_test_suite = {
	.name = "crem_hello",
	.test_cases = crem_hello_test_cases,
};

kunit_test_suite(crem_hello_test_suite);
