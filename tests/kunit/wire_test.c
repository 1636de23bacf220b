// SPDX-License-Identifier: GPL-2.0
/*
 * The CREM wire format: the draft's example header byte for byte, seeded
 * round trips of every message type, every truncation rejected with its
 * reason, each rule's named rejection, and reserved bits ignored.
 */
#include <kunit/test.h>

#include "crem/core/bytes.h"
#include "crem/core/wire.h"
#include "draft_example.h"
#include "test_util.h"

#define BUF 4096

struct wire_case {
	struct crem_msg msg;
	struct crem_psn_range ranges[64];
	u32 dropped[CREM_PATH_MAX_ENTRIES][8];
	u8 symbol[512];
	u8 buf[BUF], again[BUF];
};

static void random_set(struct test_prng *p, struct crem_fec_set *s,
		       unsigned int k)
{
	unsigned int j;

	crem_set_clear(s);
	for (j = 0; j < k; j++)
		if (test_prng_below(p, 2))
			crem_set_add(s, j);
	if (!crem_set_count(s))
		crem_set_add(s, test_prng_below(p, k));
}

static void random_addr(struct test_prng *p, u8 af, u8 *src, u8 *dst)
{
	memset(src, 0, 16);
	memset(dst, 0, 16);
	test_prng_fill(p, src, af == CREM_AF_INET ? 4 : 16);
	test_prng_fill(p, dst, af == CREM_AF_INET ? 4 : 16);
}

/* A random valid message of @type. */
static void random_msg(struct test_prng *p, struct wire_case *c, u8 type)
{
	struct crem_msg *m = &c->msg;
	unsigned int i, e;

	memset(m, 0, sizeof(*m));
	m->type = type;
	m->flow_id = (u32)test_prng_next(p);
	switch (type) {
	case CREM_MSG_REPAIR: {
		struct crem_wire_repair *r = &m->repair;

		m->flags = test_prng_below(p, 2) ? CREM_REPAIR_F_RETX : 0;
		m->flags |= test_prng_below(p, 2) ? CREM_REPAIR_F_LAST : 0;
		m->flags |= test_prng_below(p, 4) ? 0 : CREM_REPAIR_F_INFO;
		r->k = 1 + test_prng_below(p, 255);
		r->scheme = test_prng_below(p, 3);
		r->index = r->scheme == CREM_FEC_SOURCE_COPY ?
			   test_prng_below(p, r->k) : test_prng_below(p, 256 - r->k);
		r->config_id = (u8)test_prng_next(p);
		r->block_start = test_prng_next(p) & 0xffffff;
		r->session_id = (u16)test_prng_next(p);
		random_set(p, &r->present, r->k);
		if (m->flags & CREM_REPAIR_F_RETX) {
			r->lost = r->present;
			for (i = 0; i < r->k; i++)
				if (test_prng_below(p, 2) && crem_set_count(&r->lost) > 1)
					crem_set_del(&r->lost, i);
		}
		if (!(m->flags & CREM_REPAIR_F_INFO)) {
			r->symbol_len = 1 + test_prng_below(p, sizeof(c->symbol));
			test_prng_fill(p, c->symbol, r->symbol_len);
			r->symbol = c->symbol;
		}
		break;
	}
	case CREM_MSG_HELLO:
		m->hello.flow_kind = CREM_FLOW_ROCEV2;
		m->hello.af = test_prng_below(p, 2) ? CREM_AF_INET : CREM_AF_INET6;
		m->hello.schemes = (u16)test_prng_next(p);
		m->hello.max_k = 1 + test_prng_below(p, 255);
		m->hello.max_m = (u8)test_prng_next(p);
		m->hello.max_t = (u16)test_prng_next(p);
		m->hello.rdma_mtu = 1024;
		m->hello.nonce = test_prng_next(p);
		random_addr(p, m->hello.af, m->hello.src, m->hello.dst);
		m->hello.flow_label = test_prng_next(p) & 0xffffff;
		break;
	case CREM_MSG_HELLO_ACK:
		m->hello_ack.flow_kind = CREM_FLOW_ROCEV2;
		m->hello_ack.af = test_prng_below(p, 2) ? CREM_AF_INET : CREM_AF_INET6;
		m->hello_ack.schemes = (u16)test_prng_next(p);
		m->hello_ack.max_k = 1 + test_prng_below(p, 255);
		m->hello_ack.max_m = (u8)test_prng_next(p);
		m->hello_ack.max_t = (u16)test_prng_next(p);
		m->hello_ack.rdma_mtu = 4096;
		m->hello_ack.nonce = test_prng_next(p);
		m->hello_ack.max_open_blocks = (u16)test_prng_next(p);
		break;
	case CREM_MSG_PARAM_UPDATE:
		m->param_update.config_id = (u8)test_prng_next(p);
		m->param_update.scheme = CREM_FEC_CAUCHY_RS;
		m->param_update.k = 1 + test_prng_below(p, 255);
		m->param_update.m = test_prng_below(p, 257 - m->param_update.k);
		m->param_update.symbol_len = 1 + (u16)test_prng_below(p, 9000);
		m->param_update.effective_psn = test_prng_next(p) & 0xffffff;
		break;
	case CREM_MSG_PARAM_ACK:
		m->param_ack.config_id = (u8)test_prng_next(p);
		m->param_ack.status = test_prng_below(p, 4);
		break;
	case CREM_MSG_REPAIR_REQUEST:
		m->request.request_id = (u16)test_prng_next(p);
		m->flags = test_prng_below(p, 2) ? CREM_REQ_F_FALLBACK : 0;
		if (test_prng_below(p, 2)) {
			m->flags |= CREM_REQ_F_RANGES;
			m->request.nranges = 1 + test_prng_below(p, ARRAY_SIZE(c->ranges));
			for (i = 0; i < m->request.nranges; i++) {
				c->ranges[i].start = test_prng_next(p) & 0xffffff;
				c->ranges[i].count = 1 + test_prng_below(p, 255);
			}
			m->request.ranges = c->ranges;
		} else {
			m->request.config_id = (u8)test_prng_next(p);
			m->request.scheme = CREM_FEC_CAUCHY_RS;
			m->request.k = 1 + test_prng_below(p, 255);
			m->request.repairs_held = test_prng_below(p, 8);
			m->request.block_start = test_prng_next(p) & 0xffffff;
			random_set(p, &m->request.lost, m->request.k);
			m->request.suggested_m =
				test_prng_below(p, crem_set_count(&m->request.lost) + 1);
		}
		break;
	case CREM_MSG_LOSS_REPORT:
		test_prng_fill(p, (u8 *)&m->loss_report, sizeof(m->loss_report));
		break;
	case CREM_MSG_PATH_REPORT: {
		struct crem_wire_path_report *r = &m->path_report;

		m->flags = test_prng_below(p, 2) ? CREM_PATH_F_TRUNCATED : 0;
		r->method = 1 + test_prng_below(p, 3);
		r->af = test_prng_below(p, 2) ? CREM_AF_INET : CREM_AF_INET6;
		random_addr(p, r->af, r->src, r->dst);
		r->flow_label = test_prng_next(p) & 0xffffff;
		r->nentries = 1 + test_prng_below(p, CREM_PATH_MAX_ENTRIES);
		for (e = 0; e < r->nentries; e++) {
			struct crem_wire_hop *h = &r->hop[e];

			h->node_id = (u32)test_prng_next(p);
			h->period = (u32)test_prng_next(p);
			h->lost_count = (u32)test_prng_next(p);
			h->delay_change_us = (s32)test_prng_next(p);
			h->cause = test_prng_below(p, 3);
			h->npsns = test_prng_below(p, 9);
			for (i = 0; i < h->npsns; i++)
				c->dropped[e][i] = test_prng_next(p) & 0xffffff;
			h->dropped = c->dropped[e];
		}
		break;
	}
	default:
		m->close.reason = test_prng_below(p, 5);
		break;
	}
}

/* Point a parsed message's raw lists at arrays, so that it can be rebuilt. */
static void lists_from_raw(struct wire_case *c, struct crem_msg *m)
{
	unsigned int i, e;

	if (m->type == CREM_MSG_REPAIR_REQUEST && (m->flags & CREM_REQ_F_RANGES)) {
		for (i = 0; i < m->request.nranges && i < ARRAY_SIZE(c->ranges); i++)
			c->ranges[i] = crem_wire_range(m, i);
		m->request.ranges = c->ranges;
	}
	if (m->type == CREM_MSG_PATH_REPORT) {
		for (e = 0; e < m->path_report.nentries; e++) {
			struct crem_wire_hop *h = &m->path_report.hop[e];

			for (i = 0; i < h->npsns && i < 8; i++)
				c->dropped[e][i] = crem_wire_dropped_psn(h, i);
			h->dropped = c->dropped[e];
		}
	}
}

static void wire_draft_example_header(struct kunit *test)
{
	static const u8 want[28] = {
		0x11, 0x80, 0x00, 0x2c, 0x00, 0x00, 0xbe, 0xef,
		0x01, 0x01, 0x04, 0x02, 0x00, 0x10, 0x00, 0x00,
		0x00, 0x07, 0x00, 0x10, 0xf0, 0x00, 0x00, 0x00,
		0xe0, 0x00, 0x00, 0x00,
	};
	struct crem_msg m = {
		.type = CREM_MSG_REPAIR, .flags = CREM_REPAIR_F_RETX,
		.flow_id = 0xbeef,
		.repair = {
			.config_id = 1, .scheme = CREM_FEC_CAUCHY_RS, .k = 4,
			.index = 2, .block_start = 0x001000, .session_id = 7,
			.symbol_len = EX_T, .symbol = ex_r2_lost,
		},
	};
	struct crem_msg back;
	u8 buf[64];
	int j;

	for (j = 0; j < 4; j++)
		crem_set_add(&m.repair.present, j);
	for (j = 0; j < 3; j++)
		crem_set_add(&m.repair.lost, j);
	KUNIT_ASSERT_EQ(test, crem_wire_build(&m, buf, sizeof(buf)), 44);
	KUNIT_EXPECT_EQ(test, memcmp(buf, want, sizeof(want)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 28, ex_r2_lost, EX_T), 0);
	KUNIT_ASSERT_EQ(test, crem_wire_parse(buf, 44, &back, NULL), CREM_WIRE_OK);
	KUNIT_EXPECT_EQ(test, back.flow_id, 0xbeefu);
	KUNIT_EXPECT_EQ(test, back.repair.session_id, 7);
	KUNIT_EXPECT_EQ(test, back.repair.block_start, 0x1000u);
	KUNIT_EXPECT_EQ(test, crem_set_count(&back.repair.lost), 3u);
	KUNIT_EXPECT_PTR_EQ(test, back.repair.symbol, (const u8 *)buf + 28);
	KUNIT_EXPECT_EQ(test, crem_wire_build(&m, buf, 43), -ENOSPC);
}

/* Build, parse, rebuild: the same bytes, for every type, many times. */
static void wire_round_trip_every_type(struct kunit *test)
{
	struct wire_case *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct test_prng p = { .state = 0xc3e05eed };
	struct crem_wire_stats stats = { 0 };
	unsigned int type, trial;

	KUNIT_ASSERT_NOT_NULL(test, c);
	for (type = CREM_MSG_REPAIR; type <= CREM_MSG_CLOSE; type++) {
		for (trial = 0; trial < 200; trial++) {
			struct crem_msg back;
			int len, again;

			random_msg(&p, c, type);
			len = crem_wire_build(&c->msg, c->buf, BUF);
			KUNIT_ASSERT_GT_MSG(test, len, 0, "type %u trial %u", type, trial);
			KUNIT_ASSERT_EQ_MSG(test, crem_wire_parse(c->buf, len, &back, &stats),
					    CREM_WIRE_OK, "type %u trial %u", type, trial);
			KUNIT_ASSERT_EQ(test, back.type, type);
			KUNIT_ASSERT_EQ(test, back.length, len);
			lists_from_raw(c, &back);
			again = crem_wire_build(&back, c->again, BUF);
			KUNIT_ASSERT_EQ(test, again, len);
			KUNIT_ASSERT_EQ_MSG(test, memcmp(c->buf, c->again, len), 0,
					    "type %u trial %u", type, trial);
		}
	}
	KUNIT_EXPECT_EQ(test, stats.result[CREM_WIRE_OK], 9u * 200);
}

/* Cut every valid message at every length: always rejected, with why. */
static void wire_every_truncation_rejected(struct kunit *test)
{
	struct wire_case *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct test_prng p = { .state = 77 };
	unsigned int type, trial;

	KUNIT_ASSERT_NOT_NULL(test, c);
	for (type = CREM_MSG_REPAIR; type <= CREM_MSG_CLOSE; type++) {
		for (trial = 0; trial < 10; trial++) {
			struct crem_msg back;
			int len, cut;

			random_msg(&p, c, type);
			len = crem_wire_build(&c->msg, c->buf, BUF);
			KUNIT_ASSERT_GT(test, len, 0);
			for (cut = 0; cut < len; cut++) {
				enum crem_wire_reason why;

				/* As received: the Length field now lies. */
				why = crem_wire_parse(c->buf, cut, &back, NULL);
				KUNIT_ASSERT_EQ_MSG(test, why, cut < CREM_COMMON_HDR_LEN ?
						    CREM_WIRE_SHORT_DATAGRAM :
						    CREM_WIRE_LENGTH_MISMATCH,
						    "type %u cut %d", type, cut);
				if (cut < CREM_COMMON_HDR_LEN)
					continue;
				/* Consistent Length: the layout itself must fail. */
				memcpy(c->again, c->buf, cut);
				crem_put16(c->again + 2, cut);
				why = crem_wire_parse(c->again, cut, &back, NULL);
				KUNIT_ASSERT_NE_MSG(test, why, CREM_WIRE_OK,
						    "type %u cut %d of %d", type, cut, len);
				KUNIT_ASSERT_NE(test, why, CREM_WIRE_LENGTH_MISMATCH);
			}
		}
	}
}

/* Parse @buf after @mutate; expect @why. */
#define EXPECT_REJECT(test, c, len, why) \
	KUNIT_EXPECT_EQ(test, crem_wire_parse((c)->again, len, &back, NULL), why)

static int build_one(struct wire_case *c, struct test_prng *p, u8 type)
{
	int len;

	random_msg(p, c, type);
	len = crem_wire_build(&c->msg, c->buf, BUF);
	memcpy(c->again, c->buf, len);
	return len;
}

static void wire_named_rejections(struct kunit *test)
{
	struct wire_case *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct test_prng p = { .state = 5 };
	struct crem_msg back;
	int len;

	KUNIT_ASSERT_NOT_NULL(test, c);
	/* Version and type. */
	len = build_one(c, &p, CREM_MSG_CLOSE);
	c->again[0] = 0x29;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_VERSION);
	c->again[0] = 0x10;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_TYPE);
	c->again[0] = 0x1a;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_TYPE);
	/* Bytes beyond a fixed-size message. */
	c->again[0] = c->buf[0];
	c->again[len] = 0;
	crem_put16(c->again + 2, len + 1);
	EXPECT_REJECT(test, c, len + 1, CREM_WIRE_BAD_SIZE);

	/* REPAIR: k, index, bitmaps, symbol length. */
	do {
		len = build_one(c, &p, CREM_MSG_REPAIR);
	} while (c->msg.flags & (CREM_REPAIR_F_INFO | CREM_REPAIR_F_RETX) ||
		 c->msg.repair.scheme != CREM_FEC_CAUCHY_RS || c->msg.repair.k < 2);
	c->again[8 + 2] = 0;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_K);
	c->again[8 + 2] = c->buf[8 + 2];
	c->again[8 + 3] = 256 - c->msg.repair.k;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_INDEX);
	c->again[8 + 3] = c->buf[8 + 3];
	c->again[8 + 1] = CREM_FEC_SOURCE_COPY;
	c->again[8 + 3] = c->msg.repair.k;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_INDEX);
	memcpy(c->again, c->buf, len);
	memset(c->again + 8 + 12, 0, 4 * CREM_WIRE_BITMAP_WORDS(c->msg.repair.k));
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_BITMAP);
	memcpy(c->again, c->buf, len);
	crem_put16(c->again + 8 + 10, c->msg.repair.symbol_len + 1);
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_SYMBOL_LENGTH);
	c->again[1] = CREM_REPAIR_F_INFO;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_SYMBOL_LENGTH);
	/* A lost source that is not present. */
	memcpy(c->again, c->buf, len);
	{
		struct crem_msg m = c->msg;
		unsigned int j;

		m.flags = CREM_REPAIR_F_RETX;
		crem_set_clear(&m.repair.present);
		crem_set_add(&m.repair.present, 0);
		m.repair.lost = m.repair.present;
		len = crem_wire_build(&m, c->again, BUF);
		KUNIT_ASSERT_GT(test, len, 0);
		j = 12 + 4 * CREM_WIRE_BITMAP_WORDS(m.repair.k);
		c->again[8 + j] |= 0x40;	/* lost position 1, absent */
		EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_BITMAP);
		m.repair.lost.w[0] = 2;
		KUNIT_EXPECT_EQ(test, crem_wire_build(&m, c->again, BUF), -EINVAL);
	}

	/* HELLO and PATH_REPORT: AF; PATH_REPORT: entries. */
	len = build_one(c, &p, CREM_MSG_HELLO);
	c->again[8 + 1] = 5;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_AF);
	c->again[8 + 1] = c->buf[8 + 1];
	c->again[8 + 4] = 0;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_K);
	len = build_one(c, &p, CREM_MSG_HELLO_ACK);
	c->again[8 + 1] = 0;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_AF);
	len = build_one(c, &p, CREM_MSG_PATH_REPORT);
	c->again[8 + 2] = 16;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_AF);
	c->again[8 + 2] = c->buf[8 + 2];
	c->again[8 + 1] = CREM_PATH_MAX_ENTRIES + 1;
	EXPECT_REJECT(test, c, len, CREM_WIRE_TOO_MANY_ENTRIES);
	c->again[8 + 1] = c->buf[8 + 1] + 1;
	EXPECT_REJECT(test, c, len, c->buf[8 + 1] == CREM_PATH_MAX_ENTRIES ?
		      CREM_WIRE_TOO_MANY_ENTRIES : CREM_WIRE_BAD_ENTRIES);
	c->again[8 + 1] = 0;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_ENTRIES);

	/* REPAIR_REQUEST: ranges, suggested M, empty lost set. */
	do {
		len = build_one(c, &p, CREM_MSG_REPAIR_REQUEST);
	} while (!(c->msg.flags & CREM_REQ_F_RANGES));
	crem_put16(c->again + 8 + 2, c->msg.request.nranges + 1);
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_RANGES);
	crem_put16(c->again + 8 + 2, 0);
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_RANGES);
	memcpy(c->again, c->buf, len);
	c->again[8 + 4 + 3] = 0;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_RANGES);
	do {
		len = build_one(c, &p, CREM_MSG_REPAIR_REQUEST);
	} while (c->msg.flags & CREM_REQ_F_RANGES);
	c->again[8 + 7] = crem_set_count(&c->msg.request.lost) + 1;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_SUGGESTED_M);
	c->again[8 + 7] = 0;
	memset(c->again + 8 + 12, 0, len - 8 - 12);
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_BITMAP);
	c->msg.request.suggested_m = crem_set_count(&c->msg.request.lost) + 1;
	KUNIT_EXPECT_EQ(test, crem_wire_build(&c->msg, c->again, BUF), -EINVAL);

	/* PARAM_UPDATE: k, index rule, T. */
	len = build_one(c, &p, CREM_MSG_PARAM_UPDATE);
	c->again[8 + 2] = 0;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_K);
	c->again[8 + 2] = 200;
	c->again[8 + 3] = 57;
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_INDEX);
	c->again[8 + 3] = 56;
	crem_put16(c->again + 8 + 4, 0);
	EXPECT_REJECT(test, c, len, CREM_WIRE_BAD_SYMBOL_LENGTH);
}

/* Reserved fields and undefined flags: written as zero, ignored on input. */
static void wire_reserved_bits_ignored(struct kunit *test)
{
	struct wire_case *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct test_prng p = { .state = 31 };
	struct crem_msg back;
	int len;

	KUNIT_ASSERT_NOT_NULL(test, c);
	len = build_one(c, &p, CREM_MSG_CLOSE);
	KUNIT_EXPECT_EQ(test, c->buf[1], 0);
	KUNIT_EXPECT_EQ(test, crem_get16(c->buf + 10), 0);
	c->again[1] = 0xff;
	crem_put16(c->again + 10, 0xabcd);
	KUNIT_ASSERT_EQ(test, crem_wire_parse(c->again, len, &back, NULL), CREM_WIRE_OK);
	KUNIT_EXPECT_EQ(test, back.close.reason, c->msg.close.reason);

	c->msg.flags = 0xff;
	len = crem_wire_build(&c->msg, c->buf, BUF);
	KUNIT_EXPECT_EQ(test, c->buf[1], 0);

	do {
		len = build_one(c, &p, CREM_MSG_REPAIR);
	} while (c->msg.flags & CREM_REPAIR_F_INFO);
	KUNIT_EXPECT_EQ(test, c->buf[8 + 7], 0);
	c->again[8 + 7] = 0x5a;		/* reserved octet after the PSN */
	c->again[1] |= 0x1f;		/* undefined flag bits */
	KUNIT_ASSERT_EQ(test, crem_wire_parse(c->again, len, &back, NULL), CREM_WIRE_OK);
	KUNIT_EXPECT_EQ(test, back.repair.block_start, c->msg.repair.block_start);
}

static void wire_psn_fields_wrap(struct kunit *test)
{
	struct crem_msg m = {
		.type = CREM_MSG_PARAM_UPDATE,
		.param_update = { .k = 32, .m = 4, .symbol_len = 1100,
				  .scheme = CREM_FEC_CAUCHY_RS,
				  .effective_psn = 0x1ffffff },
	};
	struct crem_msg back;
	u8 buf[64];
	int len = crem_wire_build(&m, buf, sizeof(buf));

	KUNIT_ASSERT_EQ(test, len, 20);
	KUNIT_ASSERT_EQ(test, crem_wire_parse(buf, len, &back, NULL), CREM_WIRE_OK);
	/* Only the low 24 bits travel. */
	KUNIT_EXPECT_EQ(test, back.param_update.effective_psn, 0xffffffu);
}

/* HELLO_ACK echoes the nonce and is never larger than the smallest HELLO. */
static void wire_hello_ack_not_larger_than_hello(struct kunit *test)
{
	struct crem_msg hello = {
		.type = CREM_MSG_HELLO,
		.hello = { .flow_kind = CREM_FLOW_ROCEV2, .af = CREM_AF_INET,
			   .max_k = 64, .nonce = 0x0123456789abcdefull },
	};
	struct crem_msg ack = {
		.type = CREM_MSG_HELLO_ACK,
		.hello_ack = { .flow_kind = CREM_FLOW_ROCEV2, .af = CREM_AF_INET6,
			       .max_k = 255, .max_open_blocks = 0xffff },
	};
	struct crem_msg back;
	u8 a[64], b[64];
	int hello_len, ack_len;

	hello_len = crem_wire_build(&hello, a, sizeof(a));
	ack.hello_ack.nonce = hello.hello.nonce;
	ack_len = crem_wire_build(&ack, b, sizeof(b));
	KUNIT_EXPECT_EQ(test, hello_len, 40);
	KUNIT_EXPECT_EQ(test, ack_len, 32);
	KUNIT_EXPECT_LE(test, ack_len, hello_len);
	KUNIT_ASSERT_EQ(test, crem_wire_parse(b, ack_len, &back, NULL), CREM_WIRE_OK);
	KUNIT_EXPECT_EQ(test, back.hello_ack.nonce, 0x0123456789abcdefull);
	hello.hello.af = CREM_AF_INET6;
	KUNIT_EXPECT_EQ(test, crem_wire_build(&hello, a, sizeof(a)), 64);
}

static void wire_reason_names(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < CREM_WIRE_NR_REASONS; i++) {
		KUNIT_ASSERT_NOT_NULL(test, crem_wire_reason_name(i));
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, crem_wire_reason_name(i),
					    crem_wire_reason_name(j));
	}
	KUNIT_EXPECT_NULL(test, crem_wire_reason_name(CREM_WIRE_NR_REASONS));
}

static struct kunit_case crem_wire_test_cases[] = {
	KUNIT_CASE(wire_draft_example_header),
	KUNIT_CASE(wire_round_trip_every_type),
	KUNIT_CASE(wire_every_truncation_rejected),
	KUNIT_CASE(wire_named_rejections),
	KUNIT_CASE(wire_reserved_bits_ignored),
	KUNIT_CASE(wire_psn_fields_wrap),
	KUNIT_CASE(wire_hello_ack_not_larger_than_hello),
	KUNIT_CASE(wire_reason_names),
	{}
};

static struct kunit_suite crem_wire_test_suite = {
	.name = "crem_wire",
	.test_cases = crem_wire_test_cases,
};

kunit_test_suite(crem_wire_test_suite);
