// SPDX-License-Identifier: GPL-2.0
/*
 * The CSF and CRF engines as a pair, through the harness (pair.h): the
 * draft's scenarios, each asserting the messages exchanged, the counters
 * of both sides and the bytes that reach the RDMA receiver.  (make unit)
 */
#include <kunit/test.h>
#include <stdlib.h>

#include "crem/core/psn.h"
#include "tests/harness/pair.h"

#define MS CREM_MS
#define US CREM_US

static struct crem_pair *new_pair(struct kunit *test,
				  const struct crem_pair_params *par)
{
	struct crem_pair *p = calloc(1, sizeof(*p));

	KUNIT_ASSERT_TRUE(test, p != NULL);
	KUNIT_ASSERT_EQ(test, crem_pair_init(p, par), 0);
	KUNIT_ASSERT_TRUE(test, crem_pair_establish(p, 200 * MS));
	return p;
}

/* Every engine allocation is returned once both sides are gone. */
static void end_pair(struct kunit *test, struct crem_pair *p)
{
	KUNIT_EXPECT_EQ(test, p->restored_bad, 0);
	KUNIT_EXPECT_EQ(test, p->restored_twice, 0);
	if (p->csf_up)
		crem_csf_destroy(&p->csf);
	if (p->crf_up)
		crem_crf_destroy(&p->crf);
	p->csf_up = p->crf_up = false;
	KUNIT_EXPECT_EQ(test, p->mem_now, 0);
	KUNIT_EXPECT_EQ(test, p->allocs, 0);
	crem_pair_free(p);
	free(p);
}

static u64 csf_stat(struct crem_pair *p, enum crem_flow_stat s)
{
	return p->csf.stats.v[s];
}

static u64 crf_stat(struct crem_pair *p, enum crem_flow_stat s)
{
	return p->crf.stats.v[s];
}

/* Drop the data packets whose PSN offset from user's base is in a mask. */
struct drops {
	u32 base;
	u64 mask;		/* offsets 0..63, first transmission only */
};

static bool drop_mask(struct crem_pair *p, u32 psn, unsigned int sends)
{
	struct drops *d = p->user;
	u32 off = crem_psn_offset(psn, d->base);

	return !sends && off < 64 && (d->mask >> off & 1);
}

static unsigned int retx_symbols(const struct crem_pair *p)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < p->nlog; i++)
		n += p->log[i].dir == CREM_PAIR_FWD &&
		     p->log[i].type == CREM_MSG_REPAIR &&
		     (p->log[i].flags & CREM_REPAIR_F_RETX);
	return n;
}

static const struct crem_pair_event *first_of(const struct crem_pair *p,
					      int dir, u8 type, u8 flags)
{
	size_t i;

	for (i = 0; i < p->nlog; i++)
		if (p->log[i].dir == dir && p->log[i].type == type &&
		    (p->log[i].flags & flags) == flags)
			return &p->log[i];
	return NULL;
}

/*
 * Scenario 1, the draft's example: k = 4, m = 2, sources 0-2 lost.  The
 * CRF holds one source and two repairs, so X = 3, r = 2 and one coded
 * symbol restores all three, one round trip after the request.
 */
static void draft_example(struct kunit *test)
{
	struct crem_pair_params par;
	struct drops d = { .mask = 0x7 };
	const struct crem_pair_event *req, *retx;
	struct crem_pair *p;
	unsigned int i;

	crem_pair_params_default(&par);
	p = new_pair(test, &par);
	d.base = p->next_psn;
	p->user = &d;
	p->drop_data = drop_mask;
	for (i = 0; i < 4; i++)
		crem_pair_send_kind(p, CREM_TRAFFIC_WRITE, 200);
	crem_pair_run(p, p->sim.now_ns + 100 * MS);

	req = first_of(p, CREM_PAIR_REV, CREM_MSG_REPAIR_REQUEST, 0);
	KUNIT_ASSERT_TRUE(test, req != NULL);
	KUNIT_EXPECT_EQ(test, crem_set_count(&req->msg.request.lost), 3);
	KUNIT_EXPECT_EQ(test, req->msg.request.repairs_held, 2);
	KUNIT_EXPECT_EQ(test, req->msg.request.suggested_m, 1);
	KUNIT_EXPECT_EQ(test, req->msg.request.block_start, d.base);
	KUNIT_EXPECT_EQ(test, crem_pair_count(p, CREM_PAIR_REV,
					      CREM_MSG_REPAIR_REQUEST), 1);
	KUNIT_EXPECT_EQ(test, retx_symbols(p), 1);
	retx = first_of(p, CREM_PAIR_FWD, CREM_MSG_REPAIR, CREM_REPAIR_F_RETX);
	KUNIT_ASSERT_TRUE(test, retx != NULL);
	KUNIT_EXPECT_EQ(test, retx->msg.repair.session_id,
			req->msg.request.request_id);
	KUNIT_EXPECT_EQ(test, retx->msg.repair.index, 2);
	KUNIT_EXPECT_EQ(test, crem_set_count(&retx->msg.repair.lost), 3);

	KUNIT_EXPECT_EQ(test, p->restored, 3);
	KUNIT_EXPECT_EQ(test, crf_stat(p, CREM_FS_RESTORED), 3);
	KUNIT_EXPECT_EQ(test, csf_stat(p, CREM_FS_CODED_RETX), 1);
	KUNIT_EXPECT_EQ(test, csf_stat(p, CREM_FS_CODED_RETX_SYMBOLS), 1);
	KUNIT_EXPECT_EQ(test, csf_stat(p, CREM_FS_REPAIRS_SENT), 2);
	KUNIT_EXPECT_EQ(test, p->delivered, 4);
	/* All three within one round trip of the request. */
	for (i = 0; i < 3; i++) {
		struct crem_pair_rec *r = crem_pair_rec(p, d.base + i);

		KUNIT_ASSERT_TRUE(test, r && r->restored);
		KUNIT_EXPECT_LE(test, r->done_ns - req->at_ns, 10 * MS + 10 * US);
	}
	end_pair(test, p);
}

/* No loss: every packet passes, nothing is requested, repairs go out. */
static void clean_path(struct kunit *test)
{
	struct crem_pair_params par;
	struct crem_pair *p;

	crem_pair_params_default(&par);
	p = new_pair(test, &par);
	crem_pair_send(p, 400, 20 * US);
	crem_pair_run(p, p->sim.now_ns + 100 * MS);
	KUNIT_EXPECT_EQ(test, p->sources, 400);
	KUNIT_EXPECT_EQ(test, p->restored, 0);
	KUNIT_EXPECT_EQ(test, crem_pair_count(p, CREM_PAIR_REV,
					      CREM_MSG_REPAIR_REQUEST), 0);
	KUNIT_EXPECT_GT(test, csf_stat(p, CREM_FS_REPAIRS_SENT), 0);
	KUNIT_EXPECT_EQ(test, crf_stat(p, CREM_FS_BLOCKS_INCOMPLETE), 0);
	KUNIT_EXPECT_GT(test, crf_stat(p, CREM_FS_LOSS_REPORTS_SENT), 0);
	end_pair(test, p);
}

static struct kunit_case crem_engine_test_cases[] = {
	KUNIT_CASE(draft_example),
	KUNIT_CASE(clean_path),
	{}
};

static struct kunit_suite crem_engine_test_suite = {
	.name = "crem_engine",
	.test_cases = crem_engine_test_cases,
};

kunit_test_suite(crem_engine_test_suite);
