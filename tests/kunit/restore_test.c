// SPDX-License-Identifier: GPL-2.0
/*
 * Rebuilding restored packets: from its UDP payload and the flow's header
 * template, every vector (rxe's own packets among them) comes back byte
 * for byte, its IPv4 ID recovered even when the prediction is wrong; a
 * corrupted payload is refused; restored packets carry no ECN mark.
 */
#include <kunit/test.h>

#include "crem/core/bytes.h"
#include "crem/core/restore.h"
#include "crem/core/roce.h"
#include "roce_vectors.h"

#define MAX_PKT 2048

/* The template a CRF would hold for the flow of packet @p. */
static void template_of(const u8 *p, struct crem_ip_template *t)
{
	memset(t, 0, sizeof(*t));
	if (p[0] >> 4 == 4) {
		t->af = 4;
		memcpy(t->src, p + 12, 4);
		memcpy(t->dst, p + 16, 4);
		t->dscp = p[1] >> 2;
		t->ttl = p[8];
		t->df = crem_get16(p + 6) & 0x4000;
		t->sport = crem_get16(p + 20);
	} else {
		t->af = 6;
		memcpy(t->src, p + 8, 16);
		memcpy(t->dst, p + 24, 16);
		t->dscp = ((p[0] & 0x0f) << 4 | p[1] >> 4) >> 2;
		t->flow_label = (p[1] & 0x0f) << 16 | crem_get16(p + 2);
		t->ttl = p[7];
		t->sport = crem_get16(p + 40);
	}
}

static size_t ip_header(const u8 *p)
{
	return p[0] >> 4 == 4 ? 4 * (size_t)(p[0] & 0x0f) : 40;
}

static void restore_every_vector_byte_for_byte(struct kunit *test)
{
	u8 *out = kunit_kmalloc(test, MAX_PKT, GFP_KERNEL);
	unsigned int i, solved_count = 0;

	KUNIT_ASSERT_NOT_NULL(test, out);
	for (i = 0; i < ARRAY_SIZE(roce_vectors); i++) {
		const struct roce_vector *v = &roce_vectors[i];
		size_t hdr = ip_header(v->bytes) + 8;
		struct crem_ip_template t;
		unsigned int pass;

		template_of(v->bytes, &t);
		for (pass = 0; pass < 2; pass++) {
			bool solved;
			int len;

			/* First a right prediction, then a wrong one. */
			if (t.af == 4)
				t.id_hint = crem_get16(v->bytes + 4) + pass * 7919;
			memset(out, 0xee, MAX_PKT);
			len = crem_restore_ip(&t, v->bytes + hdr, v->len - hdr, out,
					      MAX_PKT, &solved);
			KUNIT_ASSERT_EQ_MSG(test, len, (int)v->len, "%s pass %u",
					    v->name, pass);
			KUNIT_EXPECT_EQ_MSG(test, memcmp(out, v->bytes, v->len), 0,
					    "%s pass %u", v->name, pass);
			KUNIT_EXPECT_EQ_MSG(test, solved, t.af == 4 && pass == 1,
					    "%s pass %u", v->name, pass);
			solved_count += solved;
		}
	}
	KUNIT_EXPECT_GT(test, solved_count, 20u);
}

static void restore_refuses_a_corrupt_payload(struct kunit *test)
{
	u8 *out = kunit_kmalloc(test, MAX_PKT, GFP_KERNEL);
	u8 *payload = kunit_kmalloc(test, MAX_PKT, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, payload);
	for (i = 0; i < ARRAY_SIZE(roce_vectors); i++) {
		const struct roce_vector *v = &roce_vectors[i];
		size_t hdr = ip_header(v->bytes) + 8, n = v->len - hdr;
		struct crem_ip_template t;

		template_of(v->bytes, &t);
		memcpy(payload, v->bytes + hdr, n);
		payload[n / 2] ^= 0x01;
		KUNIT_EXPECT_EQ_MSG(test, crem_restore_ip(&t, payload, n, out,
							  MAX_PKT, NULL),
				    -EBADMSG, "%s", v->name);
	}
}

static void restore_carries_no_ecn_mark(struct kunit *test)
{
	const struct roce_vector *v = &roce_vectors[0];
	u8 *marked = kunit_kmalloc(test, MAX_PKT, GFP_KERNEL);
	u8 *out = kunit_kmalloc(test, MAX_PKT, GFP_KERNEL);
	size_t hdr = ip_header(v->bytes) + 8;
	struct crem_ip_template t;
	struct crem_roce_pkt p;
	int len;

	KUNIT_ASSERT_NOT_NULL(test, marked);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_EQ(test, v->bytes[0] >> 4, 4);
	memcpy(marked, v->bytes, v->len);
	marked[1] |= 3;				/* CE on the original */
	template_of(marked, &t);
	len = crem_restore_ip(&t, marked + hdr, v->len - hdr, out, MAX_PKT, NULL);
	KUNIT_ASSERT_EQ(test, len, (int)v->len);
	KUNIT_ASSERT_EQ(test, crem_roce_parse_ip(out, len, &p), CREM_ROCE_OK);
	KUNIT_EXPECT_EQ(test, p.ecn, 0);
	KUNIT_EXPECT_EQ(test, p.dscp, marked[1] >> 2);
	KUNIT_EXPECT_TRUE(test, crem_roce_icrc_ok(out, len));
}

static void restore_rejects_bad_arguments(struct kunit *test)
{
	const struct roce_vector *v = &roce_vectors[0];
	size_t hdr = ip_header(v->bytes) + 8;
	struct crem_ip_template t;
	u8 small[64];

	template_of(v->bytes, &t);
	KUNIT_EXPECT_EQ(test, crem_restore_ip(&t, v->bytes + hdr, v->len - hdr,
					      small, sizeof(small), NULL), -ENOSPC);
	KUNIT_EXPECT_EQ(test, crem_restore_ip(&t, v->bytes + hdr, 15, small,
					      sizeof(small), NULL), -EINVAL);
	t.af = 5;
	KUNIT_EXPECT_EQ(test, crem_restore_ip(&t, v->bytes + hdr, v->len - hdr,
					      small, sizeof(small), NULL), -EINVAL);
}

static struct kunit_case crem_restore_test_cases[] = {
	KUNIT_CASE(restore_every_vector_byte_for_byte),
	KUNIT_CASE(restore_refuses_a_corrupt_payload),
	KUNIT_CASE(restore_carries_no_ecn_mark),
	KUNIT_CASE(restore_rejects_bad_arguments),
	{}
};

static struct kunit_suite crem_restore_test_suite = {
	.name = "crem_restore",
	.test_cases = crem_restore_test_cases,
};

kunit_test_suite(crem_restore_test_suite);
