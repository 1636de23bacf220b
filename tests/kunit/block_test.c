// SPDX-License-Identifier: GPL-2.0
/*
 * Source blocks at both ends: the draft's coding example end to end
 * (ordinary repairs, a block they cannot restore, one coded symbol over
 * the lost set, restoration), positions of READ spans and
 * retransmissions, early close at the end of a burst.
 */
#include <kunit/test.h>

#include "crem/core/crf_block.h"
#include "crem/core/csf_block.h"
#include "draft_example.h"
#include "test_util.h"

static void *alloc(struct kunit *test, size_t size)
{
	void *p = kunit_kzalloc(test, size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return p;
}

static void block_draft_example_end_to_end(struct kunit *test)
{
	struct crem_csf_block *csf = alloc(test, sizeof(*csf));
	struct crem_crf_block *crf = alloc(test, sizeof(*crf));
	struct crem_fec_work *w = alloc(test, sizeof(*w));
	void *cmem = alloc(test, crem_csf_block_size(4, 2, EX_T));
	void *rmem = alloc(test, crem_crf_block_size(4, 4, EX_T));
	struct crem_fec_set lost, missing;
	u8 coded[64], index[1];
	u8 *out[1] = { coded };
	unsigned int count, j;
	char payload[11];
	int scheme;

	KUNIT_ASSERT_EQ(test, crem_csf_block_init(csf, cmem, 0x001000, 4, 2, EX_T,
						  1, CREM_FEC_CAUCHY_RS), 0);
	for (j = 0; j < 4; j++) {
		memcpy(payload, "RDMA-PKT-0", 11);
		payload[9] += j;
		KUNIT_ASSERT_EQ(test, crem_csf_block_add(csf, 0x1000 + j, 1,
							 (const u8 *)payload, 10),
				CREM_CSF_ADDED);
	}
	KUNIT_ASSERT_TRUE(test, csf->closed);
	KUNIT_EXPECT_EQ(test, memcmp(csf->repair[0], ex_r0, EX_T), 0);
	KUNIT_EXPECT_EQ(test, memcmp(csf->repair[1], ex_r1, EX_T), 0);

	/* The CRF holds S3, R0 and R1: three unknowns, two repairs. */
	KUNIT_ASSERT_EQ(test, crem_crf_block_init(crf, rmem, 0x001000, 4, 4, EX_T), 0);
	KUNIT_ASSERT_EQ(test, crem_crf_block_add_source(crf, 0x1003,
			crem_csf_block_source(csf, 3) + 2, 10), 0);
	for (j = 0; j < 2; j++)
		KUNIT_ASSERT_EQ(test, crem_crf_block_add_repair(crf, 4, &csf->present,
				EX_T, j, &csf->present, csf->repair[j]), 0);
	KUNIT_EXPECT_FALSE(test, crem_crf_block_decodable(crf));
	missing = crem_crf_block_missing(crf);
	KUNIT_EXPECT_EQ(test, crem_set_count(&missing), 3u);

	/* M = X - r = 1 coded symbol over L, with the next index, 2. */
	lost = missing;
	count = 1;
	scheme = crem_csf_block_coded(csf, &lost, &count, out, index, w);
	KUNIT_ASSERT_EQ(test, scheme, CREM_FEC_CAUCHY_RS);
	KUNIT_EXPECT_EQ(test, index[0], 2);
	KUNIT_EXPECT_EQ(test, memcmp(coded, ex_r2_lost, EX_T), 0);

	KUNIT_ASSERT_EQ(test, crem_crf_block_add_repair(crf, 4, &csf->present,
			EX_T, index[0], &lost, coded), 0);
	KUNIT_ASSERT_TRUE(test, crem_crf_block_decodable(crf));
	KUNIT_ASSERT_EQ(test, crem_crf_block_decode(crf, w), 3);
	for (j = 0; j < 3; j++)
		KUNIT_EXPECT_EQ_MSG(test, memcmp(crem_crf_block_symbol(crf, j),
						 crem_csf_block_source(csf, j), EX_T),
				    0, "S%u", j);
	KUNIT_EXPECT_EQ(test, crem_set_count(&crf->restored), 3u);
}

static void block_positions_spans_and_retransmissions(struct kunit *test)
{
	struct crem_csf_block *b = alloc(test, sizeof(*b));
	void *mem = alloc(test, crem_csf_block_size(8, 2, 64));
	const u8 pkt[20] = { 1, 2, 3 };
	const u32 s = 0xfffffe;		/* the block straddles the wrap */

	KUNIT_ASSERT_EQ(test, crem_csf_block_init(b, mem, s, 8, 2, 64, 1,
						  CREM_FEC_CAUCHY_RS), 0);
	KUNIT_EXPECT_EQ(test, crem_csf_block_add(b, s, 1, pkt, 20), CREM_CSF_ADDED);
	/* A READ request for three responses: positions 1..3, only 1 present. */
	KUNIT_EXPECT_EQ(test, crem_csf_block_add(b, s + 1, 3, pkt, 20), CREM_CSF_ADDED);
	KUNIT_EXPECT_EQ(test, crem_csf_block_add(b, s, 1, pkt, 20), CREM_CSF_DUPLICATE);
	KUNIT_EXPECT_EQ(test, crem_csf_block_add(b, s - 1, 1, pkt, 20), CREM_CSF_BEFORE);
	KUNIT_EXPECT_EQ(test, crem_csf_block_add(b, 0x000004, 1, pkt, 63), CREM_CSF_TOO_LONG);
	KUNIT_EXPECT_EQ(test, b->covered, 4);
	/* Position 6 (after the wrap) plus 5 reaches 3 past k = 8. */
	KUNIT_EXPECT_EQ(test, crem_csf_block_carry(b, 0x000004, 5), 3u);
	/* 0x000004 is position 6 after the wrap; span 3 covers the rest. */
	KUNIT_EXPECT_EQ(test, crem_csf_block_add(b, 0x000004, 3, pkt, 20), CREM_CSF_ADDED);
	KUNIT_EXPECT_TRUE(test, b->closed);
	KUNIT_EXPECT_EQ(test, b->k, 8);
	KUNIT_EXPECT_EQ(test, crem_csf_block_add(b, 0x000006, 1, pkt, 20), CREM_CSF_BEYOND);
	KUNIT_EXPECT_TRUE(test, crem_set_has(&b->present, 0));
	KUNIT_EXPECT_TRUE(test, crem_set_has(&b->present, 1));
	KUNIT_EXPECT_FALSE(test, crem_set_has(&b->present, 2));
	KUNIT_EXPECT_FALSE(test, crem_set_has(&b->present, 3));
	KUNIT_EXPECT_TRUE(test, crem_set_has(&b->present, 6));
	KUNIT_EXPECT_EQ(test, crem_set_count(&b->present), 3u);
	KUNIT_EXPECT_NULL(test, crem_csf_block_source(b, 2));
}

/* A burst ends: the block closes early with k = positions covered. */
static void block_early_close_and_restore(struct kunit *test)
{
	struct crem_csf_block *csf = alloc(test, sizeof(*csf));
	struct crem_crf_block *crf = alloc(test, sizeof(*crf));
	struct crem_fec_work *w = alloc(test, sizeof(*w));
	void *cmem = alloc(test, crem_csf_block_size(32, 2, 200));
	void *rmem = alloc(test, crem_crf_block_size(32, 4, 200));
	u8 pkt[100];
	unsigned int j;

	KUNIT_ASSERT_EQ(test, crem_csf_block_init(csf, cmem, 500, 32, 2, 200, 3,
						  CREM_FEC_CAUCHY_RS), 0);
	for (j = 0; j < 5; j++) {
		memset(pkt, 'a' + j, sizeof(pkt));
		KUNIT_ASSERT_EQ(test, crem_csf_block_add(csf, 500 + j, 1, pkt,
							 sizeof(pkt) - j),
				CREM_CSF_ADDED);
	}
	KUNIT_EXPECT_FALSE(test, csf->closed);
	crem_csf_block_close(csf);
	KUNIT_EXPECT_TRUE(test, csf->closed);
	KUNIT_EXPECT_EQ(test, csf->k, 5);

	KUNIT_ASSERT_EQ(test, crem_crf_block_init(crf, rmem, 500, 32, 4, 200), 0);
	for (j = 0; j < 5; j++)
		if (j != 1 && j != 3)
			KUNIT_ASSERT_EQ(test, crem_crf_block_add_source(crf, 500 + j,
					crem_csf_block_source(csf, j) + 2,
					sizeof(pkt) - j), 0);
	for (j = 0; j < 2; j++)
		KUNIT_ASSERT_EQ(test, crem_crf_block_add_repair(crf, csf->k,
				&csf->present, 200, j, &csf->present, csf->repair[j]), 0);
	KUNIT_EXPECT_EQ(test, crem_crf_block_add_repair(crf, csf->k, &csf->present,
			200, 1, &csf->present, csf->repair[1]), -EEXIST);
	KUNIT_ASSERT_TRUE(test, crem_crf_block_decodable(crf));
	KUNIT_ASSERT_EQ(test, crem_crf_block_decode(crf, w), 2);
	for (j = 0; j < 5; j++)
		KUNIT_EXPECT_EQ_MSG(test, memcmp(crem_crf_block_symbol(crf, j),
						 crem_csf_block_source(csf, j), 200),
				    0, "position %u", j);
}

static void block_rejects_bad_geometry(struct kunit *test)
{
	struct crem_csf_block *b = alloc(test, sizeof(*b));
	struct crem_crf_block *r = alloc(test, sizeof(*r));
	void *mem = alloc(test, crem_crf_block_size(8, 2, 64));
	struct crem_fec_set present, lset;

	KUNIT_EXPECT_EQ(test, crem_csf_block_init(b, mem, 0, 0, 1, 64, 1, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, crem_csf_block_init(b, mem, 0, 250, 7, 64, 1, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, crem_csf_block_init(b, mem, 0, 8, 2, 2, 1, 1), -EINVAL);

	KUNIT_ASSERT_EQ(test, crem_crf_block_init(r, mem, 100, 8, 2, 64), 0);
	KUNIT_EXPECT_EQ(test, crem_crf_block_add_source(r, 99, mem, 4), -ERANGE);
	KUNIT_EXPECT_EQ(test, crem_crf_block_add_source(r, 108, mem, 4), -ERANGE);
	KUNIT_EXPECT_EQ(test, crem_crf_block_add_source(r, 107, mem, 63), -EMSGSIZE);
	KUNIT_ASSERT_EQ(test, crem_crf_block_add_source(r, 107, mem, 4), 0);
	KUNIT_EXPECT_EQ(test, crem_crf_block_add_source(r, 107, mem, 4), -EEXIST);
	/* A REPAIR whose bitmap says position 7 is absent, though it arrived. */
	crem_set_clear(&present);
	crem_set_add(&present, 0);
	lset = present;
	KUNIT_EXPECT_EQ(test, crem_crf_block_add_repair(r, 8, &present, 64, 0,
							&lset, mem), -EINVAL);
}

static struct kunit_case crem_block_test_cases[] = {
	KUNIT_CASE(block_draft_example_end_to_end),
	KUNIT_CASE(block_positions_spans_and_retransmissions),
	KUNIT_CASE(block_early_close_and_restore),
	KUNIT_CASE(block_rejects_bad_geometry),
	{}
};

static struct kunit_suite crem_block_test_suite = {
	.name = "crem_block",
	.suite_init = test_fec_suite_init,
	.test_cases = crem_block_test_cases,
};

kunit_test_suite(crem_block_test_suite);
