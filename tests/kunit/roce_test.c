// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2 parsing, classification and ICRC against vectors built with scapy
 * (tests/vectors/gen_roce_vectors.py) and captured from rxe in the lab.
 */
#include <kunit/test.h>

#include "crem/core/bytes.h"
#include "crem/core/roce.h"
#include "roce_vectors.h"
#include "test_util.h"

#define MAX_PKT 2048

static const struct roce_vector *find_vector(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(roce_vectors); i++)
		if (!strcmp(roce_vectors[i].name, name))
			return &roce_vectors[i];
	return NULL;
}

static void roce_vectors_parse_and_classify(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(roce_vectors); i++) {
		const struct roce_vector *v = &roce_vectors[i];
		struct crem_roce_pkt p;

		KUNIT_ASSERT_EQ_MSG(test, crem_roce_parse_ip(v->bytes, v->len, &p),
				    CREM_ROCE_OK, "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, p.class, v->class, "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, p.opcode, v->opcode, "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, p.dest_qp, v->dest_qp, "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, p.psn, v->psn, "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, p.ackreq, v->ackreq, "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, crem_roce_psn_span(&p, ROCE_VECTOR_MTU),
				    v->span, "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, crem_roce_is_source(&p),
				    v->class == CREM_ROCE_REQUEST ||
				    v->class == CREM_ROCE_READ_RESPONSE, "%s", v->name);
	}
}

static void roce_icrc_matches_and_detects_a_flip(struct kunit *test)
{
	u8 *copy = kunit_kmalloc(test, MAX_PKT, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, copy);
	for (i = 0; i < ARRAY_SIZE(roce_vectors); i++) {
		const struct roce_vector *v = &roce_vectors[i];

		KUNIT_ASSERT_LE(test, v->len, MAX_PKT);
		KUNIT_EXPECT_TRUE_MSG(test, crem_roce_icrc_ok(v->bytes, v->len),
				      "%s", v->name);
		/* One bit of the last byte before the ICRC. */
		memcpy(copy, v->bytes, v->len);
		copy[v->len - 5] ^= 0x10;
		KUNIT_EXPECT_FALSE_MSG(test, crem_roce_icrc_ok(copy, v->len),
				       "%s with a flipped bit", v->name);
		/* Variant fields are masked: a new TTL/hop limit keeps the ICRC. */
		memcpy(copy, v->bytes, v->len);
		copy[copy[0] >> 4 == 4 ? 8 : 7] ^= 0x3f;
		KUNIT_EXPECT_TRUE_MSG(test, crem_roce_icrc_ok(copy, v->len),
				      "%s with another TTL", v->name);
	}
}

static void roce_icrc_seed_is_rxes(struct kunit *test)
{
	static const u8 lrh[8] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};

	/* rxe starts from this CRC of the masked LRH. */
	KUNIT_EXPECT_EQ(test, crem_crc32_le(0xffffffff, lrh, 8), 0xdebb20e3u);
}

static void roce_extension_fields(struct kunit *test)
{
	const struct roce_vector *v;
	struct crem_roce_pkt p;

	v = find_vector("read_request");
	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_EQ(test, crem_roce_parse_ip(v->bytes, v->len, &p), CREM_ROCE_OK);
	KUNIT_EXPECT_EQ(test, p.reth.dma_len, 4000u);
	KUNIT_EXPECT_EQ(test, p.reth.rkey, 0x77u);
	KUNIT_EXPECT_EQ(test, p.payload_len, 0u);

	v = find_vector("cmp_swap_masked");
	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_EQ(test, crem_roce_parse_ip(v->bytes, v->len, &p), CREM_ROCE_OK);
	KUNIT_EXPECT_TRUE(test, p.headers & CREM_ROCE_H_MASKED);
	KUNIT_EXPECT_EQ(test, p.atomic.swap_add, 4ull);
	KUNIT_EXPECT_EQ(test, p.atomic.swap_mask, 0xffull);
	KUNIT_EXPECT_EQ(test, p.atomic.compare, 5ull);
	KUNIT_EXPECT_EQ(test, p.atomic.compare_mask, 0xf0ull);

	v = find_vector("write_only_imm");
	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_EQ(test, crem_roce_parse_ip(v->bytes, v->len, &p), CREM_ROCE_OK);
	KUNIT_EXPECT_EQ(test, p.immdt, 0xdeadbeefu);
	KUNIT_EXPECT_EQ(test, p.payload_len, 64u);
	KUNIT_EXPECT_TRUE(test, p.solicited);

	v = find_vector("send_only_pad");
	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_EQ(test, crem_roce_parse_ip(v->bytes, v->len, &p), CREM_ROCE_OK);
	KUNIT_EXPECT_EQ(test, p.pad, 2);
	KUNIT_EXPECT_EQ(test, p.payload_len, 30u);
	KUNIT_EXPECT_EQ(test, p.dscp, 0x68 >> 2);
	KUNIT_EXPECT_EQ(test, p.sport, 49152);

	v = find_vector("ack_tc_aeth");
	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_EQ(test, crem_roce_parse_ip(v->bytes, v->len, &p), CREM_ROCE_OK);
	KUNIT_EXPECT_TRUE(test, p.headers & CREM_ROCE_H_TC_AETH);
	KUNIT_EXPECT_EQ(test, p.tc.segments, 3u);
	KUNIT_EXPECT_EQ(test, p.tc.last_finished, 199u);
	KUNIT_EXPECT_EQ(test, p.tc.left[1], 500u);
	KUNIT_EXPECT_EQ(test, p.tc.right[1], 599u);
	KUNIT_EXPECT_FALSE(test, crem_roce_is_source(&p));

	v = find_vector("atomic_ack_tc_aeth");
	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_EQ(test, crem_roce_parse_ip(v->bytes, v->len, &p), CREM_ROCE_OK);
	KUNIT_EXPECT_TRUE(test, p.headers & CREM_ROCE_H_TC_AETH);
	KUNIT_EXPECT_EQ(test, p.atomic_ack_orig, 9ull);

	v = find_vector("ipv6_send_only");
	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_EQ(test, crem_roce_parse_ip(v->bytes, v->len, &p), CREM_ROCE_OK);
	KUNIT_EXPECT_EQ(test, p.af, 6);
	KUNIT_EXPECT_EQ(test, p.dscp, 0x68 >> 2);
	KUNIT_EXPECT_EQ(test, p.payload_len, 300u);
}

/* Copy vector @name into @buf and return its length. */
static unsigned int load(struct kunit *test, u8 *buf, const char *name)
{
	const struct roce_vector *v = find_vector(name);

	KUNIT_ASSERT_NOT_NULL(test, v);
	memcpy(buf, v->bytes, v->len);
	return v->len;
}

/* Rewrite IPv4 total and UDP lengths after changing the packet's size. */
static void set_v4_len(u8 *b, unsigned int len)
{
	crem_put16(b + 2, len);
	crem_put16(b + 20 + 4, len - 20);
}

static void roce_rejections(struct kunit *test)
{
	u8 *b = kunit_kmalloc(test, MAX_PKT, GFP_KERNEL);
	struct crem_roce_pkt p;
	unsigned int len;

	KUNIT_ASSERT_NOT_NULL(test, b);
	len = load(test, b, "write_only");
	b[0] = 0x55;
	KUNIT_EXPECT_EQ(test, crem_roce_parse_ip(b, len, &p), CREM_ROCE_NOT_IP);
	len = load(test, b, "write_only");
	b[6] = 0x20;					/* more fragments */
	KUNIT_EXPECT_EQ(test, crem_roce_parse_ip(b, len, &p), CREM_ROCE_FRAGMENT);
	len = load(test, b, "write_only");
	b[9] = 6;
	KUNIT_EXPECT_EQ(test, crem_roce_parse_ip(b, len, &p), CREM_ROCE_NOT_UDP);
	len = load(test, b, "write_only");
	crem_put16(b + 20 + 2, 4792);
	KUNIT_EXPECT_EQ(test, crem_roce_parse_ip(b, len, &p), CREM_ROCE_NOT_ROCEV2);
	len = load(test, b, "write_only");
	crem_put16(b + 20 + 4, len - 20 - 1);
	KUNIT_EXPECT_EQ(test, crem_roce_parse_ip(b, len, &p), CREM_ROCE_BAD_UDP);
	len = load(test, b, "write_only");
	KUNIT_EXPECT_EQ(test, crem_roce_parse_ip(b, len - 1, &p), CREM_ROCE_BAD_IP);

	/* Opcodes no transport defines, or this transport does not allow. */
	len = load(test, b, "ack");
	b[28] = 0x15;
	KUNIT_EXPECT_EQ(test, crem_roce_parse_ip(b, len, &p), CREM_ROCE_BAD_OPCODE);
	b[28] = 0x40 | 0x04;				/* RD */
	KUNIT_EXPECT_EQ(test, crem_roce_parse_ip(b, len, &p), CREM_ROCE_BAD_OPCODE);
	b[28] = 0x20 | 0x0c;				/* UC READ */
	KUNIT_EXPECT_EQ(test, crem_roce_parse_ip(b, len, &p), CREM_ROCE_BAD_OPCODE);
	b[28] = 0x60 | 0x06;				/* UD WRITE */
	KUNIT_EXPECT_EQ(test, crem_roce_parse_ip(b, len, &p), CREM_ROCE_BAD_OPCODE);

	/* Layouts that do not fit their opcode. */
	len = load(test, b, "read_request");
	memmove(b + len, b + len - 4, 4);
	len += 4;
	set_v4_len(b, len);
	KUNIT_EXPECT_EQ(test, crem_roce_parse_ip(b, len, &p), CREM_ROCE_BAD_LENGTH);
	len = load(test, b, "fetch_add");
	memmove(b + len - 8, b + len - 4, 4);
	len -= 4;
	set_v4_len(b, len);
	KUNIT_EXPECT_EQ(test, crem_roce_parse_ip(b, len, &p), CREM_ROCE_BAD_LENGTH);
	len = load(test, b, "ack");
	memmove(b + len, b + len - 4, 4);
	len += 4;
	set_v4_len(b, len);
	KUNIT_EXPECT_EQ(test, crem_roce_parse_ip(b, len, &p), CREM_ROCE_BAD_LENGTH);
	len = load(test, b, "send_only_pad");
	b[28 + 1] |= 0x30;				/* pad 3 */
	KUNIT_EXPECT_EQ(test, crem_roce_parse_ip(b, len, &p), CREM_ROCE_OK);
	KUNIT_EXPECT_EQ(test, p.payload_len, 29u);
	len = load(test, b, "read_request");
	b[28 + 1] |= 0x10;				/* pad without data */
	KUNIT_EXPECT_EQ(test, crem_roce_parse_ip(b, len, &p), CREM_ROCE_BAD_LENGTH);
}

/* Every cut of every vector: no crash, no read past the cut, no false OK. */
static void roce_every_truncation(struct kunit *test)
{
	unsigned int i, cut;

	for (i = 0; i < ARRAY_SIZE(roce_vectors); i++) {
		const struct roce_vector *v = &roce_vectors[i];

		for (cut = 0; cut < v->len; cut++) {
			u8 *b = test_alloc_guarded(test, cut);
			struct crem_roce_pkt p;
			enum crem_roce_result why;

			KUNIT_ASSERT_NOT_NULL(test, b);
			memcpy(b, v->bytes, cut);
			why = crem_roce_parse_ip(b, cut, &p);
			KUNIT_ASSERT_NE_MSG(test, why, CREM_ROCE_OK, "%s cut %u",
					    v->name, cut);
			/* With the IP and UDP lengths made consistent. */
			if (cut >= 28 && b[0] >> 4 == 4) {
				set_v4_len(b, cut);
				if (crem_roce_parse_ip(b, cut, &p) == CREM_ROCE_OK)
					KUNIT_ASSERT_FALSE_MSG(test,
							       crem_roce_icrc_ok(b, cut),
							       "%s cut %u", v->name, cut);
			}
		}
	}
}

static void roce_psn_span_rules(struct kunit *test)
{
	struct crem_roce_pkt p = {
		.opcode = CREM_ROCE_OP_READ_REQUEST,
		.headers = CREM_ROCE_H_RETH,
	};

	p.reth.dma_len = 0;
	KUNIT_EXPECT_EQ(test, crem_roce_psn_span(&p, 1024), 1u);
	p.reth.dma_len = 1024;
	KUNIT_EXPECT_EQ(test, crem_roce_psn_span(&p, 1024), 1u);
	p.reth.dma_len = 1025;
	KUNIT_EXPECT_EQ(test, crem_roce_psn_span(&p, 1024), 2u);
	p.reth.dma_len = 0x80000000u;
	KUNIT_EXPECT_EQ(test, crem_roce_psn_span(&p, 256), 0x800000u);
	KUNIT_EXPECT_EQ(test, crem_roce_psn_span(&p, 0), 1u);
	p.opcode = CREM_ROCE_OP_WRITE_FIRST;
	KUNIT_EXPECT_EQ(test, crem_roce_psn_span(&p, 1024), 1u);
}

/*
 * What the CRF may hand on again (crf.c, "Resends"): only what a duplicate
 * costs nothing but an acknowledgement.
 */
static void roce_duplicate_harmless_rules(struct kunit *test)
{
	static const struct {
		u8 opcode, class;
		bool harmless;
	} cases[] = {
		{ CREM_ROCE_RC | CREM_ROCE_OP_WRITE_MIDDLE, CREM_ROCE_REQUEST, true },
		{ CREM_ROCE_RC | CREM_ROCE_OP_SEND_ONLY, CREM_ROCE_REQUEST, true },
		{ CREM_ROCE_RC | CREM_ROCE_OP_SEND_ONLY_INV, CREM_ROCE_REQUEST, true },
		{ CREM_ROCE_RC | CREM_ROCE_OP_READ_RESPONSE_MIDDLE,
		  CREM_ROCE_READ_RESPONSE, true },
		{ CREM_ROCE_RC | CREM_ROCE_OP_READ_REQUEST, CREM_ROCE_REQUEST, false },
		{ CREM_ROCE_RC | CREM_ROCE_OP_CMP_SWAP, CREM_ROCE_REQUEST, false },
		{ CREM_ROCE_RC | CREM_ROCE_OP_FETCH_ADD, CREM_ROCE_REQUEST, false },
		{ CREM_ROCE_RC | CREM_ROCE_OP_ATOMIC_WRITE, CREM_ROCE_REQUEST, false },
		{ CREM_ROCE_UC | CREM_ROCE_OP_SEND_ONLY, CREM_ROCE_REQUEST, false },
		{ CREM_ROCE_UC | CREM_ROCE_OP_WRITE_ONLY, CREM_ROCE_REQUEST, false },
		{ CREM_ROCE_UD | CREM_ROCE_OP_SEND_ONLY, CREM_ROCE_REQUEST, false },
		{ CREM_ROCE_RC | CREM_ROCE_OP_ACK, CREM_ROCE_ACK, false },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct crem_roce_pkt p = {
			.opcode = cases[i].opcode, .class = cases[i].class,
		};

		KUNIT_EXPECT_EQ_MSG(test, crem_roce_duplicate_harmless(&p),
				    cases[i].harmless, "opcode 0x%02x",
				    cases[i].opcode);
	}
}

/* A NAK for a sequence error and a READ request ask for a PSN again. */
static void roce_asks_again_rules(struct kunit *test)
{
	struct crem_roce_pkt p = {
		.opcode = CREM_ROCE_RC | CREM_ROCE_OP_ACK,
		.class = CREM_ROCE_NAK,
		.aeth_syndrome = CREM_ROCE_AETH_NAK_PSN_SEQUENCE,
	};

	KUNIT_EXPECT_TRUE(test, crem_roce_asks_again(&p));
	p.aeth_syndrome = 0x61;		/* invalid request */
	KUNIT_EXPECT_FALSE(test, crem_roce_asks_again(&p));
	p.aeth_syndrome = 0x20;		/* RNR NAK */
	KUNIT_EXPECT_FALSE(test, crem_roce_asks_again(&p));
	p.class = CREM_ROCE_ACK;
	p.aeth_syndrome = 0x1f;
	KUNIT_EXPECT_FALSE(test, crem_roce_asks_again(&p));
	p.class = CREM_ROCE_REQUEST;
	p.opcode = CREM_ROCE_RC | CREM_ROCE_OP_READ_REQUEST;
	KUNIT_EXPECT_TRUE(test, crem_roce_asks_again(&p));
	p.opcode = CREM_ROCE_RC | CREM_ROCE_OP_WRITE_ONLY;
	KUNIT_EXPECT_FALSE(test, crem_roce_asks_again(&p));
}

static struct kunit_case crem_roce_test_cases[] = {
	KUNIT_CASE(roce_vectors_parse_and_classify),
	KUNIT_CASE(roce_icrc_matches_and_detects_a_flip),
	KUNIT_CASE(roce_icrc_seed_is_rxes),
	KUNIT_CASE(roce_extension_fields),
	KUNIT_CASE(roce_rejections),
	KUNIT_CASE(roce_every_truncation),
	KUNIT_CASE(roce_psn_span_rules),
	KUNIT_CASE(roce_duplicate_harmless_rules),
	KUNIT_CASE(roce_asks_again_rules),
	{}
};

static struct kunit_suite crem_roce_test_suite = {
	.name = "crem_roce",
	.test_cases = crem_roce_test_cases,
};

kunit_test_suite(crem_roce_test_suite);
