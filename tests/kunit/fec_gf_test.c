// SPDX-License-Identifier: GPL-2.0
/*
 * GF(2^8) with 0x11D: the tables against first principles, the SIMD tables
 * (GFNI matrices, PSHUFB nibbles) against the multiplication they encode,
 * and small-matrix inversion.
 */
#include <kunit/test.h>

#include "crem/fec/fec.h"
#include "crem/fec/gf.h"
#include "test_util.h"

/* Shift-and-add multiply, written independently of gf.c. */
static u8 ref_mul(u8 a, u8 b)
{
	unsigned int acc = 0, x = a;
	int bit;

	for (bit = 0; bit < 8; bit++) {
		if (b & (1u << bit))
			acc ^= x;
		x <<= 1;
		if (x & 0x100)
			x ^= 0x11d;
	}
	return acc;
}

/* What GF2P8AFFINEQB computes for one byte with matrix @m and imm8 0. */
static u8 affine_apply(u64 m, u8 x)
{
	u8 out = 0;
	int i;

	for (i = 0; i < 8; i++) {
		u8 row = (m >> (8 * (7 - i))) & 0xff;

		if (__builtin_parity(row & x))
			out |= 1u << i;
	}
	return out;
}

static void gf_mul_table_matches_definition(struct kunit *test)
{
	unsigned int a, b;

	for (a = 0; a < 256; a++)
		for (b = 0; b < 256; b++)
			KUNIT_ASSERT_EQ_MSG(test, crem_gf_mul(a, b), ref_mul(a, b),
					    "a=%u b=%u", a, b);
}

static void gf_inverse_and_log_tables(struct kunit *test)
{
	unsigned int a;

	KUNIT_EXPECT_EQ(test, crem_gf_inv(0), 0);
	for (a = 1; a < 256; a++) {
		KUNIT_EXPECT_EQ_MSG(test, crem_gf_mul(a, crem_gf_inv(a)), 1, "a=%u", a);
		KUNIT_EXPECT_EQ(test, crem_gf_exp[crem_gf_log[a]], a);
	}
	/* 2 generates the multiplicative group of the 0x11D field. */
	KUNIT_EXPECT_EQ(test, crem_gf_exp[0], 1);
	KUNIT_EXPECT_EQ(test, crem_gf_exp[8], 0x1d);
	KUNIT_EXPECT_EQ(test, crem_gf_exp[255], 1);
}

static void gf_simd_tables_encode_multiplication(struct kunit *test)
{
	unsigned int c, x;

	for (c = 0; c < 256; c++) {
		const u8 *nib = crem_gf_nibble_table[c];

		for (x = 0; x < 256; x++) {
			KUNIT_ASSERT_EQ_MSG(test,
					    affine_apply(crem_gf_affine_table[c], x),
					    ref_mul(c, x), "affine c=%u x=%u", c, x);
			KUNIT_ASSERT_EQ_MSG(test, nib[x & 15] ^ nib[16 + (x >> 4)],
					    ref_mul(c, x), "nibble c=%u x=%u", c, x);
		}
	}
}

static void gf_invert_cauchy_submatrices(struct kunit *test)
{
	struct crem_fec_work *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct test_prng prng = { .state = 0x11d };
	u8 *a, *orig;
	unsigned int trial;

	KUNIT_ASSERT_NOT_NULL(test, w);
	a = w->matrix;
	orig = w->coefs;
	for (trial = 0; trial < 60; trial++) {
		unsigned int n = 1 + test_prng_below(&prng, 40), r, c, t;
		unsigned int base = test_prng_below(&prng, 255 - 2 * n);

		/* Rows i = base..base+n-1, columns j = base+n..: i + j < 255. */
		for (r = 0; r < n; r++)
			for (c = 0; c < n; c++)
				orig[r * n + c] = a[r * n + c] =
					crem_crs_coef(r, base + c);
		KUNIT_ASSERT_EQ(test, crem_gf_invert_matrix(a, w->inverse_work, n), 0);
		for (r = 0; r < n; r++)
			for (c = 0; c < n; c++) {
				u8 sum = 0;

				for (t = 0; t < n; t++)
					sum ^= crem_gf_mul(orig[r * n + t], a[t * n + c]);
				KUNIT_ASSERT_EQ_MSG(test, sum, r == c,
						    "n=%u (%u,%u)", n, r, c);
			}
	}
}

static void gf_invert_rejects_singular(struct kunit *test)
{
	u8 a[9] = { 1, 2, 3, 1, 2, 3, 4, 5, 6 }, work[9];
	u8 zero[4] = { 0 }, work2[4];

	KUNIT_EXPECT_EQ(test, crem_gf_invert_matrix(a, work, 3), -1);
	KUNIT_EXPECT_EQ(test, crem_gf_invert_matrix(zero, work2, 2), -1);
}

static struct kunit_case crem_gf_test_cases[] = {
	KUNIT_CASE(gf_mul_table_matches_definition),
	KUNIT_CASE(gf_inverse_and_log_tables),
	KUNIT_CASE(gf_simd_tables_encode_multiplication),
	KUNIT_CASE(gf_invert_cauchy_submatrices),
	KUNIT_CASE(gf_invert_rejects_singular),
	{}
};

static struct kunit_suite crem_gf_test_suite = {
	.name = "crem_gf",
	.suite_init = test_fec_suite_init,
	.test_cases = crem_gf_test_cases,
};

kunit_test_suite(crem_gf_test_suite);
