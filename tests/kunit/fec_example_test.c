// SPDX-License-Identifier: GPL-2.0
/*
 * The draft's coding example, byte for byte: scheme 1, k = 4, T = 16,
 * sources "RDMA-PKT-0".."RDMA-PKT-3", m = 2, then sources 0-2 lost and one
 * coded retransmission R2[L] over L = {0, 1, 2}.
 */
#include <kunit/test.h>

#include "crem/fec/fec.h"
#include "draft_example.h"
#include "test_util.h"

static void example_source_symbols(struct kunit *test)
{
	static const char *const payload[4] = {
		"RDMA-PKT-0", "RDMA-PKT-1", "RDMA-PKT-2", "RDMA-PKT-3",
	};
	u8 sym[EX_T];
	size_t len;
	int j;

	for (j = 0; j < 4; j++) {
		KUNIT_ASSERT_EQ(test, crem_symbol_from_packet(sym, EX_T,
				(const u8 *)payload[j], 10), 0);
		KUNIT_EXPECT_EQ(test, memcmp(sym, ex_source[j], EX_T), 0);
		KUNIT_ASSERT_EQ(test, crem_symbol_to_packet(sym, EX_T, &len), 0);
		KUNIT_EXPECT_EQ(test, len, (size_t)10);
		KUNIT_EXPECT_EQ(test, memcmp(sym + 2, payload[j], 10), 0);
	}
}

static void example_coefficients(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 4; j++)
			KUNIT_EXPECT_EQ_MSG(test, crem_crs_coef(i, j), ex_coef[i][j],
					    "C(%u, %u)", i, j);
}

static void example_repairs_and_coded_retransmission(struct kunit *test)
{
	struct crem_fec_work *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	const u8 *src[4] = { ex_source[0], ex_source[1], ex_source[2], ex_source[3] };
	u8 r0[EX_T], r1[EX_T], r2[EX_T];
	u8 *ordinary[2] = { r0, r1 };
	u8 *coded[1] = { r2 };
	const u8 idx01[2] = { 0, 1 }, idx2[1] = { 2 };
	struct crem_fec_set all, lost;

	KUNIT_ASSERT_NOT_NULL(test, w);
	crem_set_clear(&all);
	crem_set_clear(&lost);
	crem_set_add(&all, 0);
	crem_set_add(&all, 1);
	crem_set_add(&all, 2);
	crem_set_add(&all, 3);
	crem_set_add(&lost, 0);
	crem_set_add(&lost, 1);
	crem_set_add(&lost, 2);

	KUNIT_ASSERT_EQ(test, crem_crs_encode(4, &all, src, EX_T, idx01, 2,
					      ordinary, w), 0);
	KUNIT_EXPECT_EQ(test, memcmp(r0, ex_r0, EX_T), 0);
	KUNIT_EXPECT_EQ(test, memcmp(r1, ex_r1, EX_T), 0);

	KUNIT_ASSERT_EQ(test, crem_crs_encode(4, &lost, src, EX_T, idx2, 1,
					      coded, w), 0);
	KUNIT_EXPECT_EQ(test, memcmp(r2, ex_r2_lost, EX_T), 0);
}

static void example_recovery_from_s3_r0_r1_r2(struct kunit *test)
{
	struct crem_fec_work *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	u8 got[3][EX_T], s3[EX_T];
	u8 *src[4] = { got[0], got[1], got[2], s3 };
	struct crem_fec_repair rep[3];
	struct crem_fec_set all, held;
	int j;

	KUNIT_ASSERT_NOT_NULL(test, w);
	memcpy(s3, ex_source[3], EX_T);
	memset(got, 0xa5, sizeof(got));
	crem_set_clear(&all);
	for (j = 0; j < 4; j++)
		crem_set_add(&all, j);
	crem_set_clear(&held);
	crem_set_add(&held, 3);

	rep[0] = (struct crem_fec_repair){ .index = 0, .lset = all, .symbol = ex_r0 };
	rep[1] = (struct crem_fec_repair){ .index = 1, .lset = all, .symbol = ex_r1 };
	rep[2] = (struct crem_fec_repair){ .index = 2, .symbol = ex_r2_lost };
	crem_set_clear(&rep[2].lset);
	crem_set_add(&rep[2].lset, 0);
	crem_set_add(&rep[2].lset, 1);
	crem_set_add(&rep[2].lset, 2);

	/* Two repairs cannot solve three unknowns; the coded one makes it. */
	KUNIT_EXPECT_EQ(test, crem_crs_decode(4, &all, &held, src, EX_T, rep, 2, w),
			-ENODATA);
	KUNIT_ASSERT_EQ(test, crem_crs_decode(4, &all, &held, src, EX_T, rep, 3, w), 0);
	for (j = 0; j < 3; j++)
		KUNIT_EXPECT_EQ_MSG(test, memcmp(got[j], ex_source[j], EX_T), 0,
				    "S%d", j);
}

static struct kunit_case crem_fec_example_test_cases[] = {
	KUNIT_CASE(example_source_symbols),
	KUNIT_CASE(example_coefficients),
	KUNIT_CASE(example_repairs_and_coded_retransmission),
	KUNIT_CASE(example_recovery_from_s3_r0_r1_r2),
	{}
};

static struct kunit_suite crem_fec_example_test_suite = {
	.name = "crem_fec_example",
	.suite_init = test_fec_suite_init,
	.test_cases = crem_fec_example_test_cases,
};

kunit_test_suite(crem_fec_example_test_suite);
