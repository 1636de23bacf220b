// SPDX-License-Identifier: GPL-2.0
/*
 * The schemes' contracts: Cauchy RS is MDS for any mix of ordinary and
 * coded repairs (including a source that arrives after its coded symbol
 * was made), the streaming encoder equals the batch encoder, XOR parity,
 * source symbols, and rejection of impossible requests with an error code.
 */
#include <kunit/test.h>

#include "crem/fec/fec.h"
#include "test_util.h"

#define BLOCK_MAX_T 300

struct block {
	unsigned int k;
	size_t T;
	struct crem_fec_set present;
	u8 src[64][BLOCK_MAX_T];
	u8 got[64][BLOCK_MAX_T];
	u8 rep_sym[64][BLOCK_MAX_T];
	struct crem_fec_repair rep[64];
	struct crem_fec_work work;
};

static struct block *new_block(struct kunit *test, struct test_prng *p,
			       unsigned int k, size_t T)
{
	struct block *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	unsigned int j;

	KUNIT_ASSERT_NOT_NULL(test, b);
	b->k = k;
	b->T = T;
	for (j = 0; j < k; j++)
		if (test_prng_below(p, 5))	/* about 1 in 5 absent */
			crem_set_add(&b->present, j);
	if (!crem_set_count(&b->present))
		crem_set_add(&b->present, test_prng_below(p, k));
	for (j = 0; j < k; j++)
		if (crem_set_has(&b->present, j))
			test_prng_fill(p, b->src[j], T);
	return b;
}

/* Repair @t with index @i over @lset, encoded into b->rep_sym[t]. */
static void make_repair(struct kunit *test, struct block *b, unsigned int t,
			unsigned int i, const struct crem_fec_set *lset)
{
	const u8 *src[64];
	u8 *out[1] = { b->rep_sym[t] };
	u8 idx = i;
	unsigned int j;

	for (j = 0; j < b->k; j++)
		src[j] = b->src[j];
	KUNIT_ASSERT_EQ(test, crem_crs_encode(b->k, lset, src, b->T, &idx, 1,
					      out, &b->work), 0);
	b->rep[t] = (struct crem_fec_repair){
		.index = i, .lset = *lset, .symbol = b->rep_sym[t],
	};
}

/* Decode with @held known and check every unknown byte for byte. */
static void decode_and_check(struct kunit *test, struct block *b,
			     const struct crem_fec_set *held, unsigned int nrep)
{
	u8 *io[64];
	unsigned int j;
	int ret;

	for (j = 0; j < b->k; j++) {
		if (crem_set_has(held, j)) {
			io[j] = b->src[j];
		} else {
			memset(b->got[j], 0x5a, b->T);
			io[j] = b->got[j];
		}
	}
	ret = crem_crs_decode(b->k, &b->present, held, io, b->T, b->rep, nrep,
			      &b->work);
	KUNIT_ASSERT_EQ(test, ret, 0);
	crem_set_for_each(j, &b->present)
		if (!crem_set_has(held, j))
			KUNIT_ASSERT_EQ_MSG(test, memcmp(b->got[j], b->src[j], b->T), 0,
					    "k=%u source %u", b->k, j);
}

/* Any u distinct-index repairs, ordinary, coded or mixed, recover any u. */
static void crs_mds_any_mix(struct kunit *test)
{
	struct test_prng p = { .state = 0xc3e0 };
	unsigned int trial;

	for (trial = 0; trial < 120; trial++) {
		unsigned int k = 1 + test_prng_below(&p, 64);
		struct block *b = new_block(test, &p, k, 1 + test_prng_below(&p, BLOCK_MAX_T));
		unsigned int npresent = crem_set_count(&b->present);
		unsigned int u = 1 + test_prng_below(&p, npresent);
		unsigned int base, t, j, left;
		struct crem_fec_set unknown, held;

		if (u > 256 - k)
			u = 256 - k;
		/* U: u random present positions. */
		crem_set_clear(&unknown);
		left = u;
		while (left) {
			j = test_prng_below(&p, k);
			if (crem_set_has(&b->present, j) && !crem_set_has(&unknown, j)) {
				crem_set_add(&unknown, j);
				left--;
			}
		}
		held = crem_set_minus(&b->present, &unknown);
		/* u distinct indices from a random window with i + k <= 255. */
		base = test_prng_below(&p, 256 - k - u + 1);
		for (t = 0; t < u; t++) {
			struct crem_fec_set lset = b->present;

			if (test_prng_below(&p, 2)) {
				/* Coded: U plus some held positions. */
				lset = unknown;
				crem_set_for_each(j, &held)
					if (test_prng_below(&p, 2))
						crem_set_add(&lset, j);
			}
			make_repair(test, b, t, base + t, &lset);
		}
		decode_and_check(test, b, &held, u);
	}
}

/*
 * The draft's rule for late sources: a coded symbol over the lost set L
 * still serves when a member of L arrives before decoding; the decoder
 * subtracts that source from it.
 */
static void crs_late_source_after_coded_symbol(struct kunit *test)
{
	struct test_prng p = { .state = 7 };
	struct block *b = new_block(test, &p, 32, 256);
	struct crem_fec_set lost, held, all = b->present;
	unsigned int j, t = 0, late = 256, x = 0;

	/* Lose five present sources; hold one ordinary repair (index 0). */
	crem_set_clear(&lost);
	crem_set_for_each(j, &all) {
		if (x < 5) {
			crem_set_add(&lost, j);
			late = j;
			x++;
		}
	}
	make_repair(test, b, t++, 0, &all);
	/* Request: M = X - r = 4 coded symbols over L, indices 1..4. */
	for (j = 1; j <= 4; j++)
		make_repair(test, b, t++, j, &lost);
	/* One lost source arrives late: U shrinks to four, L stays five. */
	held = crem_set_minus(&all, &lost);
	crem_set_add(&held, late);
	decode_and_check(test, b, &held, t);
	/* And with only the four coded symbols. */
	decode_and_check(test, b, &held, 4);
}

static void crs_rejects_impossible_requests(struct kunit *test)
{
	struct test_prng p = { .state = 99 };
	struct block *b = new_block(test, &p, 16, 64);
	struct crem_fec_set held, beyond = b->present;
	const u8 *src[64];
	u8 *out[2] = { b->rep_sym[0], b->rep_sym[1] };
	u8 *io[64];
	const u8 bad_index[1] = { 240 }, dup[2] = { 3, 3 }, ok[1] = { 239 };
	unsigned int j;

	for (j = 0; j < 64; j++) {
		src[j] = b->src[j];
		io[j] = b->got[j];
	}
	/* Encode: i + k > 255, repeated index, k out of range, L beyond k. */
	KUNIT_EXPECT_EQ(test, crem_crs_encode(16, &b->present, src, 64, bad_index, 1,
					      out, &b->work), -EINVAL);
	KUNIT_EXPECT_EQ(test, crem_crs_encode(16, &b->present, src, 64, ok, 1,
					      out, &b->work), 0);
	KUNIT_EXPECT_EQ(test, crem_crs_encode(16, &b->present, src, 64, dup, 2,
					      out, &b->work), -EINVAL);
	KUNIT_EXPECT_EQ(test, crem_crs_encode(0, &b->present, src, 64, ok, 1,
					      out, &b->work), -EINVAL);
	crem_set_add(&beyond, 20);
	KUNIT_EXPECT_EQ(test, crem_crs_encode(16, &beyond, src, 64, ok, 1,
					      out, &b->work), -EINVAL);

	/* Decode: more unknowns than symbols, bad index, held not present. */
	crem_set_clear(&held);
	make_repair(test, b, 0, 0, &b->present);
	KUNIT_EXPECT_EQ(test, crem_crs_decode(16, &b->present, &held, io, 64,
					      b->rep, 1, &b->work),
			crem_set_count(&b->present) > 1 ? -ENODATA : 0);
	b->rep[1] = b->rep[0];
	KUNIT_EXPECT_EQ(test, crem_crs_decode(16, &b->present, &held, io, 64,
					      b->rep, 2, &b->work), -EINVAL);
	b->rep[0].index = 240;
	KUNIT_EXPECT_EQ(test, crem_crs_decode(16, &b->present, &held, io, 64,
					      b->rep, 1, &b->work), -EINVAL);
	KUNIT_EXPECT_EQ(test, crem_crs_decode(16, &b->present, &beyond, io, 64,
					      b->rep, 0, &b->work), -EINVAL);
	/* A coded repair whose L misses an unknown cannot serve. */
	held = b->present;
	j = crem_set_next(&b->present, 0);
	crem_set_del(&held, j);
	b->rep[0].index = 1;
	crem_set_clear(&b->rep[0].lset);
	KUNIT_EXPECT_EQ(test, crem_crs_decode(16, &b->present, &held, io, 64,
					      b->rep, 1, &b->work), -ENODATA);
}

static void crs_stream_equals_batch(struct kunit *test)
{
	struct test_prng p = { .state = 2024 };
	unsigned int trial;

	for (trial = 0; trial < 40; trial++) {
		unsigned int k = 1 + test_prng_below(&p, 64);
		unsigned int m = 1 + test_prng_below(&p, 8);
		struct block *b = new_block(test, &p, k, 1 + test_prng_below(&p, BLOCK_MAX_T));
		struct crem_crs_stream s;
		u8 *stream_out[8], *batch_out[8];
		const u8 *src[64], *sym[64];
		unsigned int pos[64], n = 0, j, r;
		u8 idx[8];

		if (m > 256 - k)
			m = 256 - k;
		for (r = 0; r < m; r++) {
			stream_out[r] = b->got[r];
			batch_out[r] = b->rep_sym[r];
			idx[r] = r;
		}
		for (j = 0; j < k; j++)
			src[j] = b->src[j];
		KUNIT_ASSERT_EQ(test, crem_crs_stream_start(&s, k, m, b->T, stream_out), 0);
		/* Present positions in a shuffled order, one repeated. */
		crem_set_for_each(j, &b->present) {
			unsigned int at = test_prng_below(&p, n + 1);

			pos[n] = pos[at];
			pos[at] = j;
			n++;
		}
		pos[n] = pos[0];
		for (j = 0; j <= n; j++)
			sym[j] = b->src[pos[j]];
		KUNIT_EXPECT_EQ(test, crem_crs_stream_add(&s, n + 1, pos, sym), (int)n);
		KUNIT_ASSERT_EQ(test, crem_crs_encode(k, &b->present, src, b->T, idx, m,
						      batch_out, &b->work), 0);
		for (r = 0; r < m; r++)
			KUNIT_ASSERT_EQ_MSG(test, memcmp(stream_out[r], batch_out[r], b->T), 0,
					    "k=%u m=%u repair %u", k, m, r);
	}
}

static void crs_stream_rejects_bad_geometry(struct kunit *test)
{
	struct crem_crs_stream s;
	u8 buf[4][16];
	u8 *out[4] = { buf[0], buf[1], buf[2], buf[3] };
	unsigned int pos = 8;
	const u8 *sym = buf[0];

	KUNIT_EXPECT_EQ(test, crem_crs_stream_start(&s, 0, 1, 16, out), -EINVAL);
	KUNIT_EXPECT_EQ(test, crem_crs_stream_start(&s, 253, 4, 16, out), -EINVAL);
	KUNIT_EXPECT_EQ(test, crem_crs_stream_start(&s, 252, 4, 16, out), 0);
	KUNIT_EXPECT_EQ(test, crem_crs_stream_start(&s, 8, 2, 16, out), 0);
	KUNIT_EXPECT_EQ(test, crem_crs_stream_add(&s, 1, &pos, &sym), -EINVAL);
}

static void xor_parity_recovers_one(struct kunit *test)
{
	struct test_prng p = { .state = 2 };
	struct block *b = new_block(test, &p, 24, 200);
	struct crem_fec_set held = b->present;
	u8 *io[64];
	unsigned int j, first = crem_set_next(&b->present, 0);

	for (j = 0; j < 64; j++)
		io[j] = b->src[j];
	crem_xor_encode(&b->present, (const u8 *const *)io, 200, b->rep_sym[0],
			&b->work);
	crem_set_del(&held, first);
	io[first] = b->got[first];
	KUNIT_ASSERT_EQ(test, crem_xor_decode(&b->present, &held, io, 200,
					      b->rep_sym[0], &b->work), 0);
	KUNIT_EXPECT_EQ(test, memcmp(b->got[first], b->src[first], 200), 0);
	crem_set_del(&held, crem_set_next(&b->present, first + 1));
	KUNIT_EXPECT_EQ(test, crem_xor_decode(&b->present, &held, io, 200,
					      b->rep_sym[0], &b->work),
			crem_set_count(&b->present) > 1 ? -ENODATA : 0);
}

static void symbol_rejects_bad_lengths(struct kunit *test)
{
	u8 sym[16] = { 0 }, payload[20] = { 0 };
	size_t len;

	KUNIT_EXPECT_EQ(test, crem_symbol_from_packet(sym, 16, payload, 14), 0);
	KUNIT_EXPECT_EQ(test, crem_symbol_from_packet(sym, 16, payload, 15), -EINVAL);
	KUNIT_EXPECT_EQ(test, crem_symbol_from_packet(sym, 1, payload, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, crem_symbol_to_packet(sym, 16, &len), 0);
	KUNIT_EXPECT_EQ(test, len, (size_t)14);
	/* A recovered prefix larger than T - 2 is refused. */
	sym[0] = 0;
	sym[1] = 15;
	KUNIT_EXPECT_EQ(test, crem_symbol_to_packet(sym, 16, &len), -EBADMSG);
	sym[0] = 0xff;
	KUNIT_EXPECT_EQ(test, crem_symbol_to_packet(sym, 16, &len), -EBADMSG);
	KUNIT_EXPECT_EQ(test, crem_symbol_to_packet(sym, 1, &len), -EBADMSG);
}

static struct kunit_case crem_fec_decode_test_cases[] = {
	KUNIT_CASE(crs_mds_any_mix),
	KUNIT_CASE(crs_late_source_after_coded_symbol),
	KUNIT_CASE(crs_rejects_impossible_requests),
	KUNIT_CASE(crs_stream_equals_batch),
	KUNIT_CASE(crs_stream_rejects_bad_geometry),
	KUNIT_CASE(xor_parity_recovers_one),
	KUNIT_CASE(symbol_rejects_bad_lengths),
	{}
};

static struct kunit_suite crem_fec_decode_test_suite = {
	.name = "crem_fec_decode",
	.suite_init = test_fec_suite_init,
	.test_cases = crem_fec_decode_test_cases,
};

kunit_test_suite(crem_fec_decode_test_suite);
