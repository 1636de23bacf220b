// SPDX-License-Identifier: GPL-2.0
/*
 * Every instruction set's coder against the scalar oracle: random row and
 * source counts, coefficients (0 and 1 included), odd lengths, unaligned
 * buffers that end at a guard page, overwrite and accumulate, and lengths
 * that span several FPU sections.
 */
#include <kunit/test.h>

#include "crem/fec/fec.h"
#include "test_util.h"

#define CASE_MAX_ROWS 12
#define CASE_MAX_SRC 40

struct dot_case {
	unsigned int m, nsrc;
	size_t len;
	bool accumulate;
	const u8 *src[CASE_MAX_SRC];
	u8 *want[CASE_MAX_ROWS], *got[CASE_MAX_ROWS];
	u8 coefs[CASE_MAX_SRC * CASE_MAX_ROWS];
};

/* A buffer of @len bytes at a random misalignment, ending at a guard page. */
static u8 *odd_buffer(struct kunit *test, struct test_prng *p, size_t len)
{
	unsigned int skew = test_prng_below(p, 64);
	u8 *b = test_alloc_guarded(test, len + skew);

	KUNIT_ASSERT_NOT_NULL(test, b);
	return b + skew;
}

static void build_case(struct kunit *test, struct test_prng *p,
		       struct dot_case *c, unsigned int m, unsigned int nsrc,
		       size_t len)
{
	unsigned int r, j;

	c->m = m;
	c->nsrc = nsrc;
	c->len = len;
	c->accumulate = test_prng_below(p, 2);
	for (j = 0; j < nsrc; j++) {
		u8 *s = odd_buffer(test, p, len);

		test_prng_fill(p, s, len);
		c->src[j] = s;
	}
	for (j = 0; j < nsrc * m; j++) {
		u32 kind = test_prng_below(p, 8);

		c->coefs[j] = kind == 0 ? 0 : kind == 1 ? 1 : (u8)test_prng_next(p);
	}
	for (r = 0; r < m; r++) {
		c->want[r] = odd_buffer(test, p, len);
		c->got[r] = odd_buffer(test, p, len);
		test_prng_fill(p, c->want[r], len);
		memcpy(c->got[r], c->want[r], len);
	}
}

/* Runs @c on @isa and on the oracle; returns the first differing row or -1. */
static int run_case(struct dot_case *c, enum crem_simd_isa isa)
{
	unsigned int r;

	crem_gf_dot_isa(CREM_SIMD_SCALAR, c->m, c->nsrc, c->len, c->coefs,
			c->src, c->want, c->accumulate);
	crem_gf_dot_isa(isa, c->m, c->nsrc, c->len, c->coefs, c->src, c->got,
			c->accumulate);
	for (r = 0; r < c->m; r++)
		if (memcmp(c->want[r], c->got[r], c->len))
			return r;
	return -1;
}

static void isa_random_cases_match_scalar(struct kunit *test)
{
	struct dot_case *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct test_prng p = { .state = 20261129 };
	unsigned int isa, trial, ran = 0;

	KUNIT_ASSERT_NOT_NULL(test, c);
	for (isa = CREM_SIMD_SCALAR + 1; isa < CREM_SIMD_NR_ISA; isa++) {
		if (!crem_gf_isa_available(isa)) {
			kunit_info(test, "%s: not available here", crem_gf_isa_name(isa));
			continue;
		}
		for (trial = 0; trial < 150; trial++) {
			unsigned int m = 1 + test_prng_below(&p, CASE_MAX_ROWS);
			unsigned int nsrc = test_prng_below(&p, CASE_MAX_SRC + 1);
			size_t len = 1 + test_prng_below(&p, 700);
			int bad;

			build_case(test, &p, c, m, nsrc, len);
			bad = run_case(c, isa);
			KUNIT_ASSERT_EQ_MSG(test, bad, -1,
					    "%s: m=%u nsrc=%u len=%zu acc=%d row %d",
					    crem_gf_isa_name(isa), m, nsrc, len,
					    c->accumulate, bad);
		}
		ran++;
	}
	kunit_info(test, "%u SIMD coders checked; selected: %s", ran,
		   crem_gf_isa_name(crem_gf_isa()));
	/* Nothing checked is not a pass: it shows as a skip. */
	if (!ran)
		kunit_skip(test, "no SIMD coder runs on this CPU");
}

/* How many SIMD coders this CPU runs: none makes a case a skip. */
static unsigned int simd_coders_here(void)
{
	unsigned int isa, n = 0;

	for (isa = CREM_SIMD_SCALAR + 1; isa < CREM_SIMD_NR_ISA; isa++)
		n += crem_gf_isa_available(isa);
	return n;
}

/* Long symbols cross several FPU sections and every stripe remainder. */
static void isa_long_symbols_match_scalar(struct kunit *test)
{
	struct dot_case *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct test_prng p = { .state = 4791 };
	static const size_t lens[] = { 4096, 4096 + 64, 4096 + 127, 70001 };
	unsigned int isa, i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	if (!simd_coders_here())
		kunit_skip(test, "no SIMD coder runs on this CPU");
	for (isa = CREM_SIMD_SCALAR + 1; isa < CREM_SIMD_NR_ISA; isa++) {
		if (!crem_gf_isa_available(isa))
			continue;
		for (i = 0; i < ARRAY_SIZE(lens); i++) {
			unsigned int m = 1 + test_prng_below(&p, 9);
			unsigned int nsrc = lens[i] > 8192 ? 3 : 32;

			build_case(test, &p, c, m, nsrc, lens[i]);
			KUNIT_ASSERT_EQ_MSG(test, run_case(c, isa), -1,
					    "%s: m=%u nsrc=%u len=%zu",
					    crem_gf_isa_name(isa), m, nsrc, lens[i]);
		}
	}
}

/* One source added into many rows: the streaming encoder's own kernels. */
static void isa_single_source_accumulate(struct kunit *test)
{
	struct dot_case *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct test_prng p = { .state = 1 };
	unsigned int isa, m;

	KUNIT_ASSERT_NOT_NULL(test, c);
	if (!simd_coders_here())
		kunit_skip(test, "no SIMD coder runs on this CPU");
	for (isa = CREM_SIMD_SCALAR + 1; isa < CREM_SIMD_NR_ISA; isa++) {
		if (!crem_gf_isa_available(isa))
			continue;
		for (m = 1; m <= CASE_MAX_ROWS; m++) {
			size_t len = 64 * m + 2 * m + 1;

			build_case(test, &p, c, m, 1, len);
			c->accumulate = true;
			KUNIT_ASSERT_EQ_MSG(test, run_case(c, isa), -1, "%s: m=%u len=%zu",
					    crem_gf_isa_name(isa), m, len);
		}
	}
}

static void isa_selection_is_best_available(struct kunit *test)
{
	unsigned int isa;

	KUNIT_EXPECT_TRUE(test, crem_gf_isa_available(crem_gf_isa()));
	for (isa = crem_gf_isa() + 1; isa < CREM_SIMD_NR_ISA; isa++)
		KUNIT_EXPECT_FALSE_MSG(test, crem_gf_isa_available(isa),
				       "%s is available but %s was chosen",
				       crem_gf_isa_name(isa),
				       crem_gf_isa_name(crem_gf_isa()));
	KUNIT_EXPECT_EQ(test, crem_gf_set_isa(CREM_SIMD_NR_ISA), -EOPNOTSUPP);
}

/* A clock that moves by fake_step at every reading. */
static u64 fake_now, fake_step;
static unsigned int fake_shrink;

static u64 fake_clock(void)
{
	fake_now += fake_step;
	if (fake_shrink && fake_step > fake_shrink)
		fake_step -= fake_shrink;
	return fake_now;
}

static void isa_measured_speed(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, CREM_GF_MEASURE_BYTES, GFP_KERNEL);
	enum crem_simd_isa before = crem_gf_isa(), isa, last = 0;
	u32 mbs[CREM_SIMD_NR_ISA];

	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* 1 us a reading, 10 us of budget: ten timed passes of 4416 bytes. */
	fake_step = 1000;
	fake_shrink = 0;
	KUNIT_EXPECT_EQ(test, crem_gf_measure(CREM_SIMD_SCALAR, buf, fake_clock,
					      10000), 4416u);
	KUNIT_EXPECT_EQ(test, crem_gf_measure(CREM_SIMD_NR_ISA, buf, fake_clock,
					      10000), 0u);

	/* Equal speeds: the narrowest stays; each available one measured. */
	isa = crem_gf_select_fastest(buf, fake_clock, 10000, mbs);
	KUNIT_EXPECT_EQ(test, isa, CREM_SIMD_SCALAR);
	KUNIT_EXPECT_EQ(test, crem_gf_isa(), CREM_SIMD_SCALAR);
	for (isa = 0; isa < CREM_SIMD_NR_ISA; isa++)
		KUNIT_EXPECT_EQ_MSG(test, mbs[isa],
				    crem_gf_isa_available(isa) ? 4416u : 0u,
				    "%s", crem_gf_isa_name(isa));

	/*
	 * Each reading a little shorter: every coder measured is faster, and
	 * each one's last round its best.
	 */
	fake_step = 4000;
	fake_shrink = 1;
	isa = crem_gf_select_fastest(buf, fake_clock, 20000, mbs);
	for (last = 0; last < CREM_SIMD_NR_ISA; last++)
		if (mbs[last])
			KUNIT_EXPECT_TRUE(test, crem_gf_isa_available(last));
	for (last = CREM_SIMD_NR_ISA - 1; last > 0 && !mbs[last]; last--)
		;
	KUNIT_EXPECT_EQ(test, isa, last);
	KUNIT_EXPECT_EQ(test, crem_gf_isa(), last);
	KUNIT_EXPECT_GT(test, mbs[last], mbs[CREM_SIMD_SCALAR]);

	KUNIT_EXPECT_EQ(test, crem_gf_set_isa(before), 0);
}

static struct kunit_case crem_fec_isa_test_cases[] = {
	KUNIT_CASE(isa_random_cases_match_scalar),
	KUNIT_CASE(isa_long_symbols_match_scalar),
	KUNIT_CASE(isa_single_source_accumulate),
	KUNIT_CASE(isa_selection_is_best_available),
	KUNIT_CASE(isa_measured_speed),
	{}
};

static struct kunit_suite crem_fec_isa_test_suite = {
	.name = "crem_fec_isa",
	.suite_init = test_fec_suite_init,
	.test_cases = crem_fec_isa_test_cases,
};

kunit_test_suite(crem_fec_isa_test_suite);
