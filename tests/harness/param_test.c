// SPDX-License-Identifier: GPL-2.0
/*
 * Parameter synchronisation through the harness (the engine's scenario 3):
 * a configuration change mid-flow with PARAM_UPDATE lost twice, an
 * Effective PSN that passes before the acknowledgement, eight failures, a
 * refusal, and the CRF's release rule.  The flow sends one PSN every
 * 100 us and starts a block every 16 PSNs.  (make unit)
 */
#include <kunit/test.h>

#include "crem/core/param.h"
#include "crem/core/psn.h"
#include "tests/harness/sim.h"

#define MS 1000000ull
#define PSN_EVERY_NS 100000ull
#define BLOCK 16

struct param_pair {
	struct crem_sim sim;
	struct crem_env csf_env, crf_env;
	struct crem_csf_param csf;
	struct crem_crf_param crf;
	struct crem_limits crf_limits;
	struct crem_sim_timer timer;
	u64 one_way_ns;
	unsigned int drop;		/* lose this many PARAM_UPDATEs */
	unsigned int updates;
	u64 update_at[16];
	u32 update_psn[16];
	u64 acked_at;
	u32 next_psn;
	u32 switch_psn;			/* first block with the new config */
	u64 switch_at;
	u8 first_id;
};

/* Limits that every configuration of these tests fits. */
static const struct crem_limits roomy_limits = {
	.schemes = 0x7, .max_k = 64, .max_m = 8, .max_t = 9000,
};

static u64 env_now(void *ctx)
{
	return ((struct param_pair *)ctx)->sim.now_ns;
}

static void env_arm(void *ctx, void *owner, u64 deadline)
{
	struct param_pair *p = ctx;

	crem_sim_timer_arm(&p->sim, &p->timer, deadline);
}

static void at_csf(struct crem_sim *sim, void *arg, const u8 *data, size_t len)
{
	struct param_pair *p = arg;
	struct crem_msg m;

	if (crem_wire_parse(data, len, &m, NULL) == CREM_WIRE_OK &&
	    !crem_csf_param_ack(&p->csf, &m) && !p->acked_at)
		p->acked_at = sim->now_ns;
}

static int crf_send(void *ctx, void *owner, const u8 *msg, size_t len, u8 dscp)
{
	struct param_pair *p = ctx;

	return crem_sim_at(&p->sim, p->sim.now_ns + p->one_way_ns, at_csf, p,
			   msg, len);
}

static void at_crf(struct crem_sim *sim, void *arg, const u8 *data, size_t len)
{
	struct param_pair *p = arg;
	struct crem_msg m;

	if (crem_wire_parse(data, len, &m, NULL) == CREM_WIRE_OK)
		crem_crf_param_update(&p->crf, &p->crf_env, p, &m, &p->crf_limits);
}

static int csf_send(void *ctx, void *owner, const u8 *msg, size_t len, u8 dscp)
{
	struct param_pair *p = ctx;
	struct crem_msg m;

	if (crem_wire_parse(msg, len, &m, NULL) == CREM_WIRE_OK &&
	    p->updates < 16) {
		p->update_at[p->updates] = p->sim.now_ns;
		p->update_psn[p->updates] = m.param_update.effective_psn;
	}
	if (p->updates++ < p->drop)
		return 0;
	return crem_sim_at(&p->sim, p->sim.now_ns + p->one_way_ns, at_crf, p,
			   msg, len);
}

static void fire(struct crem_sim_timer *timer)
{
	struct param_pair *p = (void *)((u8 *)timer -
					offsetof(struct param_pair, timer));

	crem_csf_param_timeout(&p->csf, p->next_psn);
}

/* The flow: a PSN every 100 us, a block every 16. */
static void tick(struct crem_sim *sim, void *arg, const u8 *data, size_t len)
{
	struct param_pair *p = arg;

	p->next_psn = crem_psn_add(p->next_psn, 1);
	if (!(p->next_psn % BLOCK)) {
		const struct crem_config *c =
			crem_csf_param_for_block(&p->csf, p->next_psn);

		if (c->id != p->first_id && !p->switch_at) {
			p->switch_psn = p->next_psn;
			p->switch_at = sim->now_ns;
		}
	}
	crem_csf_param_progress(&p->csf, p->next_psn);
	crem_sim_at(sim, sim->now_ns + PSN_EVERY_NS, tick, p, NULL, 0);
}

static const struct crem_env_ops csf_ops = {
	.now_ns = env_now, .arm = env_arm, .send = csf_send,
};
static const struct crem_env_ops crf_ops = {
	.now_ns = env_now, .arm = env_arm, .send = crf_send,
};

/* The configuration in use when a change is proposed. */
static const struct crem_config in_use = {
	.id = 7, .scheme = CREM_FEC_CAUCHY_RS, .k = 16, .m = 2,
	.symbol_len = 1100,
};

/*
 * Propose a change from @initial with @effective_ahead PSNs and resend
 * @lead, the CSF's SRTT at 4 ms, over a path of @one_way_ns each way; run
 * for @run_ns.
 */
static struct param_pair *pair_from(struct kunit *test,
				    const struct crem_config *initial,
				    unsigned int drop, u32 effective_ahead,
				    u32 lead, u64 run_ns, u64 one_way_ns)
{
	static const struct crem_config next = {
		.scheme = CREM_FEC_CAUCHY_RS, .k = 32, .m = 4, .symbol_len = 1100,
	};
	struct param_pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	crem_sim_init(&p->sim);
	p->csf_env = (struct crem_env){ .ops = &csf_ops, .ctx = p };
	p->crf_env = (struct crem_env){ .ops = &crf_ops, .ctx = p };
	p->timer.fire = fire;
	p->one_way_ns = one_way_ns;
	p->drop = drop;
	p->crf_limits = roomy_limits;
	p->next_psn = 0xfffff0;			/* the change crosses the wrap */
	p->first_id = initial->id;
	crem_csf_param_init(&p->csf, &p->csf_env, p, 0xbeef, initial);
	crem_crf_param_init(&p->crf, initial);
	KUNIT_ASSERT_EQ(test, crem_csf_param_propose(&p->csf, &next,
			crem_psn_add(p->next_psn, effective_ahead), lead, 4 * MS), 0);
	KUNIT_EXPECT_EQ(test, crem_csf_param_propose(&p->csf, &next, 0, 1, 4 * MS),
			-EBUSY);
	crem_sim_at(&p->sim, PSN_EVERY_NS, tick, p, NULL, 0);
	crem_sim_run(&p->sim, run_ns);
	return p;
}

static struct param_pair *pair_over(struct kunit *test, unsigned int drop,
				    u32 effective_ahead, u32 lead, u64 run_ns,
				    u64 one_way_ns)
{
	return pair_from(test, &in_use, drop, effective_ahead, lead, run_ns,
			 one_way_ns);
}

static struct param_pair *pair(struct kunit *test, unsigned int drop,
			       u32 effective_ahead, u32 lead, u64 run_ns)
{
	return pair_over(test, drop, effective_ahead, lead, run_ns,
			 2 * MS);	/* the SRTT of 4 ms: RTO 8 ms */
}

static void param_update_lost_twice(struct kunit *test)
{
	/* The Effective PSN is 100 ms away: the timeouts alone decide. */
	struct param_pair *p = pair(test, 2, 1000, 100, 200 * MS);

	KUNIT_ASSERT_EQ(test, p->updates, 3u);
	KUNIT_EXPECT_EQ(test, p->update_at[0], 0ull);
	KUNIT_EXPECT_EQ(test, p->update_at[1], 8 * MS);
	KUNIT_EXPECT_EQ(test, p->update_at[2], 24 * MS);
	KUNIT_EXPECT_EQ(test, p->acked_at, 28 * MS);
	KUNIT_EXPECT_TRUE(test, crem_crf_param_find(&p->crf, 8) != NULL);
	/* Switched at the first block at or after the Effective PSN. */
	KUNIT_EXPECT_EQ(test, p->switch_psn,
			crem_psn_add(0xfffff0, 1000 + (BLOCK - 1000 % BLOCK) % BLOCK));
	KUNIT_EXPECT_GE(test, p->switch_at, p->acked_at);
	KUNIT_EXPECT_EQ(test, p->csf.active.id, 8);
	KUNIT_EXPECT_EQ(test, p->csf.active.k, 32);
	crem_sim_free(&p->sim);
}

static void param_effective_psn_passes_first(struct kunit *test)
{
	/* 5 ms of PSNs ahead, but the first two updates are lost. */
	struct param_pair *p = pair(test, 2, 50, 50, 100 * MS);
	u32 last = p->update_psn[p->updates - 1];

	KUNIT_ASSERT_GE(test, p->updates, 3u);
	KUNIT_EXPECT_NE(test, last, p->update_psn[0]);
	/* Each resend named a later PSN. */
	KUNIT_EXPECT_TRUE(test, crem_psn_after(last, p->update_psn[0]));
	KUNIT_ASSERT_GT(test, p->acked_at, 0ull);
	/* Never before both the acknowledgement and the Effective PSN. */
	KUNIT_EXPECT_GE(test, p->switch_at, p->acked_at);
	KUNIT_EXPECT_FALSE(test, crem_psn_before(p->switch_psn, last));
	KUNIT_EXPECT_EQ(test, p->csf.active.id, 8);
	crem_sim_free(&p->sim);
}

static void param_gives_up_after_eight(struct kunit *test)
{
	struct param_pair *p = pair(test, 100, 1000000, 100, 3000 * MS);
	static const u64 at[8] = { 0, 8, 24, 56, 120, 248, 504, 1016 };
	unsigned int i;

	KUNIT_ASSERT_EQ(test, p->updates, CREM_PARAM_MAX_ATTEMPTS);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ_MSG(test, p->update_at[i], at[i] * MS, "update %u", i);
	KUNIT_EXPECT_EQ(test, p->csf.state, CREM_PARAM_FAILED);
	KUNIT_EXPECT_EQ(test, p->csf.active.id, 7);
	KUNIT_EXPECT_EQ(test, p->switch_at, 0ull);
	crem_sim_free(&p->sim);
}

/*
 * A lead of one PSN, and a round trip of 30 ms where the CSF's SRTT says
 * 4 ms (measured on an idle path, or answers queued behind a busy CPU):
 * the Effective PSN passes eight times before the first PARAM_ACK can
 * come.  Those sends only name later PSNs; the timeouts alone count, so
 * the late acknowledgement is taken and the flow does not close.
 */
static void param_late_ack_with_a_short_lead(struct kunit *test)
{
	struct param_pair *p = pair_over(test, 0, 1, 1, 200 * MS, 15 * MS);
	unsigned int i, timeouts = 0;

	KUNIT_ASSERT_GE(test, p->updates, 9u);
	/* Sent before the first acknowledgement could be back. */
	KUNIT_EXPECT_LT(test, p->update_at[8], 30 * MS);
	for (i = 1; i < 9; i++)
		timeouts += p->update_at[i] == 8 * MS;
	KUNIT_EXPECT_EQ(test, timeouts, 1u);
	KUNIT_EXPECT_EQ(test, p->acked_at, 30 * MS);
	KUNIT_EXPECT_NE(test, p->csf.state, CREM_PARAM_FAILED);
	KUNIT_EXPECT_EQ(test, p->csf.active.id, 8);
	KUNIT_EXPECT_TRUE(test, p->csf.resent);
	crem_sim_free(&p->sim);
}

/*
 * The flow's first configuration, proposed for the PSN the flow is at:
 * nothing is in use to continue with, so passing the Effective PSN sends
 * nothing (the short lead above would send eight updates), and the
 * configuration applies at the first block after the PARAM_ACK, not a
 * lead of PSNs later.  The round trip, 30 ms, is longer than the SRTT
 * says: the timeouts at 8 and 24 ms resend, each naming the PSN reached.
 */
static void param_first_configuration_applies_at_once(struct kunit *test)
{
	static const struct crem_config none = { 0 };
	struct param_pair *p = pair_from(test, &none, 0, 0, 1, 100 * MS,
					 15 * MS);
	unsigned int i;

	KUNIT_ASSERT_EQ(test, p->updates, 3u);
	KUNIT_EXPECT_EQ(test, p->update_at[1], 8 * MS);
	KUNIT_EXPECT_EQ(test, p->update_at[2], 24 * MS);
	/* The PSN reached when each went (the tick at that instant or not). */
	for (i = 0; i < p->updates; i++) {
		s32 behind = crem_psn_diff(crem_psn_add(0xfffff0,
					   p->update_at[i] / PSN_EVERY_NS),
					   p->update_psn[i]);

		KUNIT_EXPECT_TRUE_MSG(test, behind == 0 || behind == 1,
				      "update %u: %d PSNs behind", i, behind);
	}
	KUNIT_EXPECT_EQ(test, p->acked_at, 30 * MS);
	KUNIT_EXPECT_GE(test, p->switch_at, p->acked_at);
	KUNIT_EXPECT_LT(test, p->switch_at, p->acked_at + BLOCK * PSN_EVERY_NS);
	KUNIT_EXPECT_FALSE(test, crem_psn_before(p->switch_psn,
						 p->update_psn[2]));
	KUNIT_EXPECT_EQ(test, p->csf.active.id, 1);
	crem_sim_free(&p->sim);
}

static void param_refusal_keeps_the_configuration(struct kunit *test)
{
	struct param_pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	static const struct crem_config initial = {
		.id = 1, .scheme = CREM_FEC_CAUCHY_RS, .k = 16, .m = 2,
		.symbol_len = 1100,
	};
	struct crem_config big = initial;

	KUNIT_ASSERT_NOT_NULL(test, p);
	crem_sim_init(&p->sim);
	p->csf_env = (struct crem_env){ .ops = &csf_ops, .ctx = p };
	p->crf_env = (struct crem_env){ .ops = &crf_ops, .ctx = p };
	p->timer.fire = fire;
	p->one_way_ns = MS;
	p->crf_limits = (struct crem_limits){
		.schemes = 0x3, .max_k = 32, .max_m = 4, .max_t = 2000,
	};
	crem_csf_param_init(&p->csf, &p->csf_env, p, 1, &initial);
	crem_crf_param_init(&p->crf, &initial);
	big.m = 9;				/* beyond the CRF's Max m */
	KUNIT_ASSERT_EQ(test, crem_csf_param_propose(&p->csf, &big, 100, 10, MS), 0);
	crem_sim_run(&p->sim, 50 * MS);
	KUNIT_EXPECT_EQ(test, p->csf.state, CREM_PARAM_IDLE);
	KUNIT_EXPECT_EQ(test, p->csf.rejected, 1ull);
	KUNIT_EXPECT_EQ(test, crem_csf_param_for_block(&p->csf, 200)->id, 1);
	KUNIT_EXPECT_NULL(test, crem_crf_param_find(&p->crf, 2));
	crem_sim_free(&p->sim);
}

/* Blocks still open: of every configuration (256), of one id, or none. */
static bool configs_open(void *ctx, u8 id)
{
	int open = *(int *)ctx;

	return open == 256 || open == id;
}

/* A CRF's parameters alone, starting from @initial. */
static struct param_pair *crf_alone(struct kunit *test,
				    const struct crem_config *initial)
{
	struct param_pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	crem_sim_init(&p->sim);
	p->crf_env = (struct crem_env){ .ops = &crf_ops, .ctx = p };
	p->crf_limits = roomy_limits;
	crem_crf_param_init(&p->crf, initial);
	return p;
}

static void crf_release_rule(struct kunit *test)
{
	static const struct crem_config initial = {
		.id = 1, .scheme = CREM_FEC_CAUCHY_RS, .k = 16, .m = 2,
		.symbol_len = 1100,
	};
	struct param_pair *p = crf_alone(test, &initial);
	struct crem_msg up = { .type = CREM_MSG_PARAM_UPDATE };
	int still_open = 1;

	up.param_update = (struct crem_wire_param_update){
		.config_id = 2, .scheme = CREM_FEC_CAUCHY_RS, .k = 32, .m = 4,
		.symbol_len = 1100,
	};
	KUNIT_EXPECT_EQ(test, crem_crf_param_update(&p->crf, &p->crf_env, p, &up,
						    &p->crf_limits), CREM_PARAM_ACCEPTED);
	/* Both acknowledged; the old one stays while a block uses it. */
	crem_crf_param_release(&p->crf, configs_open, &still_open);
	KUNIT_EXPECT_NOT_NULL(test, crem_crf_param_find(&p->crf, 1));
	KUNIT_EXPECT_NOT_NULL(test, crem_crf_param_find(&p->crf, 2));
	still_open = 0;
	crem_crf_param_release(&p->crf, configs_open, &still_open);
	KUNIT_EXPECT_NULL(test, crem_crf_param_find(&p->crf, 1));
	KUNIT_EXPECT_NOT_NULL(test, crem_crf_param_find(&p->crf, 2));
	up.param_update.scheme = 9;
	KUNIT_EXPECT_EQ(test, crem_crf_param_update(&p->crf, &p->crf_env, p, &up,
						    &p->crf_limits),
			CREM_PARAM_UNSUPPORTED_SCHEME);
	crem_sim_free(&p->sim);
}

/*
 * The k the CRF's hold time follows, computed the long way: the newest
 * configuration's, or its predecessor's while kept, if larger.
 */
static unsigned int hold_k_of(const struct crem_crf_param *p)
{
	const struct crem_config *newest = &p->config[p->newest];
	unsigned int i, k = newest->k;

	for (i = 0; i < CREM_CRF_CONFIGS; i++)
		if (p->valid[i] && p->config[i].id == (u8)(newest->id - 1) &&
		    p->config[i].k > k)
			k = p->config[i].k;
	return k;
}

/*
 * The CRF keeps that k as it changes (param.c, note_hold_k()): through
 * smaller and larger k, a retransmitted update, refusals, every slot
 * taken, releases and an id that wraps from 255 to 0.
 */
static void crf_hold_k_follows_the_kept(struct kunit *test)
{
	static const struct crem_config initial = {
		.id = 250, .scheme = CREM_FEC_CAUCHY_RS, .k = 32, .m = 2,
		.symbol_len = 1100,
	};
	static const u8 ks[] = { 8, 8, 64, 16, 4, 40, 12, 2, 30, 6, 50, 20 };
	struct param_pair *p = crf_alone(test, &initial);
	struct crem_msg up = { .type = CREM_MSG_PARAM_UPDATE };
	unsigned int i, refused = 0;
	u8 id = initial.id;
	int open;

	KUNIT_EXPECT_EQ(test, p->crf.hold_k, 32);
	for (i = 0; i < ARRAY_SIZE(ks); i++) {
		/* ks[1] repeats ks[0]'s update: a retransmission. */
		if (i != 1)
			id++;
		up.param_update = (struct crem_wire_param_update){
			.config_id = id, .scheme = CREM_FEC_CAUCHY_RS,
			.k = ks[i], .m = 1, .symbol_len = 1100,
		};
		refused += crem_crf_param_update(&p->crf, &p->crf_env, p, &up,
						 &p->crf_limits) ==
			   CREM_PARAM_RESOURCES_EXHAUSTED;
		KUNIT_EXPECT_EQ(test, p->crf.hold_k, hold_k_of(&p->crf));
		/* A refusal in between changes nothing either. */
		up.param_update.scheme = 9;
		crem_crf_param_update(&p->crf, &p->crf_env, p, &up, &p->crf_limits);
		KUNIT_EXPECT_EQ(test, p->crf.hold_k, hold_k_of(&p->crf));
		/*
		 * Every block stays open until the slots are all taken; then
		 * only the predecessor's, or, now and then, none.
		 */
		open = i < 9 ? 256 : i % 2 ? (u8)(id - 1) : -1;
		crem_crf_param_release(&p->crf, configs_open, &open);
		KUNIT_EXPECT_EQ(test, p->crf.hold_k, hold_k_of(&p->crf));
	}
	KUNIT_EXPECT_GT(test, refused, 0u);	/* every slot was taken */
	KUNIT_EXPECT_LT(test, id, initial.id);	/* the id wrapped */
	open = -1;
	crem_crf_param_release(&p->crf, configs_open, &open);
	KUNIT_EXPECT_EQ(test, p->crf.hold_k, ks[ARRAY_SIZE(ks) - 1]);
	crem_sim_free(&p->sim);
}

static struct kunit_case crem_param_test_cases[] = {
	KUNIT_CASE(param_update_lost_twice),
	KUNIT_CASE(param_effective_psn_passes_first),
	KUNIT_CASE(param_gives_up_after_eight),
	KUNIT_CASE(param_late_ack_with_a_short_lead),
	KUNIT_CASE(param_first_configuration_applies_at_once),
	KUNIT_CASE(param_refusal_keeps_the_configuration),
	KUNIT_CASE(crf_release_rule),
	KUNIT_CASE(crf_hold_k_follows_the_kept),
	{}
};

static struct kunit_suite crem_param_test_suite = {
	.name = "crem_param",
	.test_cases = crem_param_test_cases,
};

kunit_test_suite(crem_param_test_suite);
