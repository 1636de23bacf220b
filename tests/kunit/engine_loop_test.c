// SPDX-License-Identifier: GPL-2.0
/*
 * The CSF and CRF engines joined back to back by a minimal environment
 * that needs nothing but KUnit: a hand-driven clock, a short queue of
 * packets and messages in flight with a fixed one-way delay, and hand-built
 * RoCEv2 writes.  It runs the scenarios that need no modelled paths in the
 * kernel as in userspace; tests/harness/engine_test.c runs them all with
 * the full pair harness.
 */
#include <kunit/test.h>

#include "crem/core/bytes.h"
#include "crem/core/crf.h"
#include "crem/core/csf.h"
#include "crem/core/psn.h"
#include "test_util.h"

#define LOOP_ITEMS	64
#define LOOP_MAX	1200
#define LOOP_PKTS	32
#define ONE_WAY_NS	(5 * CREM_MS)

enum { TO_CRF_DATA, TO_CRF_MSG, TO_CSF_MSG };

struct loop_item {
	bool used;
	u8 kind;
	u16 len;
	u64 at;
	u8 buf[LOOP_MAX];
};

struct loop {
	struct kunit *test;
	u64 now;
	struct crem_env csf_env, crf_env;
	struct crem_csf csf;
	struct crem_csf_slot ring[16];
	struct crem_crf crf;
	bool crf_up;
	u64 csf_deadline, crf_deadline;
	struct loop_item items[LOOP_ITEMS];
	struct crem_fec_work *work;
	struct test_prng prng;
	/* the flow */
	u32 base, next_psn;
	u8 sent[LOOP_PKTS][LOOP_MAX];
	u16 sent_len[LOOP_PKTS];
	u32 drop_data;			/* bit n: lose PSN base + n once */
	u32 late_data;			/* bit n: PSN base + n comes late */
	int forge;			/* flip a byte of the next REPAIR */
	bool drop_ordinary;		/* lose every ordinary REPAIR */
	unsigned int lose_ordinary;	/* lose the next n ordinary REPAIRs */
	/* a retransmission that differs (rxe sets AckReq afresh) */
	u8 variant[LOOP_MAX];
	u16 variant_len;
	u32 variant_off;
	/* what reached the RDMA receiver */
	u8 arrived[LOOP_PKTS];		/* times delivered */
	u8 restored[LOOP_PKTS];
	unsigned int corrupt, requests, fallbacks, retx;
	/* matrix coding, and how much of it ran inside a packet call */
	bool in_packet_call;
	unsigned int coded, coded_in_packet_call;
	u64 mem;
	unsigned int allocs;
};

static const u8 loop_src[4] = { 192, 0, 2, 1 }, loop_dst[4] = { 192, 0, 2, 2 };

/* An IPv4 RoCEv2 RDMA WRITE Only of @len bytes at @psn, ICRC set. */
static size_t build_write(struct loop *l, u32 psn, size_t len, u8 *buf)
{
	size_t ip_len = 20 + 8 + CREM_ROCE_BTH_LEN + 16 + len + 4;
	u8 *u = buf + 20, *b = u + 8;
	u32 icrc;

	memset(buf, 0, ip_len);
	buf[0] = 0x45;
	buf[1] = 26 << 2 | 2;		/* DSCP 26, ECT(0) */
	crem_put16(buf + 2, ip_len);
	crem_put16(buf + 4, (u16)psn);	/* an ID per packet, as rxe */
	crem_put16(buf + 6, 0x4000);
	buf[8] = 64;
	buf[9] = 17;
	memcpy(buf + 12, loop_src, 4);
	memcpy(buf + 16, loop_dst, 4);
	crem_ipv4_set_checksum(buf);
	crem_put16(u, 49200);
	crem_put16(u + 2, CREM_ROCEV2_PORT);
	crem_put16(u + 4, ip_len - 20);
	b[0] = CREM_ROCE_OP_WRITE_ONLY;
	crem_put16(b + 2, 0xffff);
	crem_put24(b + 5, 0x12);
	b[8] = 0x80;
	crem_put24(b + 9, psn);
	crem_put64(b + 12, 0x7f0000001000ull + psn * 4096ull);
	crem_put32(b + 20, 0x77);
	crem_put32(b + 24, len);
	test_prng_fill(&l->prng, b + 28, len);
	icrc = crem_roce_icrc(buf, ip_len);
	buf[ip_len - 4] = icrc;
	buf[ip_len - 3] = icrc >> 8;
	buf[ip_len - 2] = icrc >> 16;
	buf[ip_len - 1] = icrc >> 24;
	return ip_len;
}

static void queue_after(struct loop *l, u8 kind, const u8 *buf, size_t len,
			u64 delay)
{
	unsigned int i;

	for (i = 0; i < LOOP_ITEMS; i++) {
		struct loop_item *it = &l->items[i];

		if (it->used)
			continue;
		KUNIT_ASSERT_LE(l->test, len, LOOP_MAX);
		it->used = true;
		it->kind = kind;
		it->len = len;
		it->at = l->now + delay;
		memcpy(it->buf, buf, len);
		return;
	}
	KUNIT_FAIL(l->test, "more than %d packets in flight", LOOP_ITEMS);
}

static void queue(struct loop *l, u8 kind, const u8 *buf, size_t len)
{
	queue_after(l, kind, buf, len, ONE_WAY_NS);
}

/* ---- the environment ---------------------------------------------- */

static u64 env_now(void *ctx)
{
	return ((struct loop *)ctx)->now;
}

static void env_arm(void *ctx, void *owner, u64 deadline)
{
	struct loop *l = ctx;

	if (owner == &l->csf)
		l->csf_deadline = deadline;
	else
		l->crf_deadline = deadline;
}

static int env_send(void *ctx, void *owner, const u8 *msg, size_t len, u8 dscp)
{
	struct loop *l = ctx;
	u8 copy[LOOP_MAX];

	if (owner == &l->csf) {
		if ((l->drop_ordinary || l->lose_ordinary) &&
		    (msg[0] & 0x0f) == CREM_MSG_REPAIR &&
		    !(msg[1] & (CREM_REPAIR_F_RETX | CREM_REPAIR_F_INFO))) {
			if (l->lose_ordinary)
				l->lose_ordinary--;
			return 0;
		}
		memcpy(copy, msg, len);
		if (l->forge && (msg[0] & 0x0f) == CREM_MSG_REPAIR &&
		    !(msg[1] & (CREM_REPAIR_F_RETX | CREM_REPAIR_F_INFO)) &&
		    len > 60) {
			copy[24 + 40] ^= 0x5a;
			l->forge--;
		}
		l->retx += (msg[0] & 0x0f) == CREM_MSG_REPAIR &&
			   (msg[1] & CREM_REPAIR_F_RETX);
		queue(l, TO_CRF_MSG, copy, len);
	} else {
		if ((msg[0] & 0x0f) == CREM_MSG_REPAIR_REQUEST) {
			l->requests++;
			l->fallbacks += !!(msg[1] & CREM_REQ_F_FALLBACK);
		}
		queue(l, TO_CSF_MSG, msg, len);
	}
	return 0;
}

/* A packet reached the RDMA receiver: it must be one sent, exactly. */
static void receive(struct loop *l, const u8 *pkt, size_t len, bool restored)
{
	struct crem_roce_pkt r;
	u32 off;

	if (crem_roce_parse_ip(pkt, len, &r) != CREM_ROCE_OK ||
	    !crem_roce_icrc_ok(pkt, len)) {
		l->corrupt++;
		return;
	}
	off = crem_psn_offset(r.psn, l->base);
	/* The variant may arrive as itself, never as a restored packet. */
	if (!restored && l->variant_len && off == l->variant_off &&
	    len == l->variant_len && !memcmp(pkt, l->variant, len)) {
		l->arrived[off]++;
		return;
	}
	if (off >= LOOP_PKTS || len != l->sent_len[off] ||
	    memcmp(pkt + 20, l->sent[off] + 20, len - 20)) {
		l->corrupt++;
		return;
	}
	l->arrived[off]++;
	l->restored[off] += restored;
}

static void env_deliver(void *ctx, void *owner, const u8 *pkt, size_t len)
{
	receive(ctx, pkt, len, true);
}

static void env_release(void *ctx, void *owner, void *held)
{
	struct loop *l = ctx;
	u32 off = (u32)(unsigned long)held - 1;

	receive(l, l->sent[off], l->sent_len[off], false);
}

static void env_random(void *ctx, void *buf, size_t len)
{
	test_prng_fill(&((struct loop *)ctx)->prng, buf, len);
}

static void *env_alloc(void *ctx, void *owner, size_t size)
{
	struct loop *l = ctx;
	void *mem = kunit_kmalloc(l->test, size, GFP_KERNEL);

	if (mem) {
		/* alloc() promises no contents (env.h). */
		memset(mem, 0x5a, size);
		l->mem += size;
		l->allocs++;
	}
	return mem;
}

static void env_free(void *ctx, void *owner, void *mem, size_t size)
{
	struct loop *l = ctx;

	l->mem -= size;
	l->allocs--;
	kunit_kfree(l->test, mem);
}

static struct crem_fec_work *env_work(void *ctx)
{
	struct loop *l = ctx;

	l->coded++;
	l->coded_in_packet_call += l->in_packet_call;
	return l->work;
}

static const struct crem_env_ops loop_ops = {
	.now_ns = env_now, .arm = env_arm, .send = env_send,
	.deliver = env_deliver, .release = env_release,
	.random = env_random, .alloc = env_alloc, .free = env_free,
	.work = env_work,
};

static bool no_id_in_use(void *ctx, u32 id)
{
	return false;
}

/* ---- running it --------------------------------------------------- */

/* The owner's part of decoding: every due block, after the engine call. */
static void crf_decode(struct loop *l)
{
	struct crem_crf_decode job;

	while (l->crf_up && crem_crf_decode_claim(&l->crf, &job)) {
		crem_crf_decode_run(&job, env_work(l));
		crem_crf_decode_finish(&l->crf, &job);
	}
}

static void arrive(struct loop *l, struct loop_item *it)
{
	struct crem_roce_pkt r;
	struct crem_msg m;
	u32 off;

	switch (it->kind) {
	case TO_CRF_DATA:
		if (crem_roce_parse_ip(it->buf, it->len, &r) != CREM_ROCE_OK)
			break;
		off = crem_psn_offset(r.psn, l->base);
		l->in_packet_call = true;
		if (!l->crf_up ||
		    crem_crf_source(&l->crf, it->buf, &r, it->buf + 28,
				    it->len - 28,
				    (void *)(unsigned long)(off + 1)) ==
		    CREM_CRF_PASS) {
			l->in_packet_call = false;
			receive(l, it->buf, it->len, false);
		}
		l->in_packet_call = false;
		crf_decode(l);
		break;
	case TO_CRF_MSG:
		if (crem_wire_parse(it->buf, it->len, &m, NULL) != CREM_WIRE_OK)
			break;
		if (!l->crf_up && m.type == CREM_MSG_HELLO)
			l->crf_up = !crem_crf_start(&l->crf, &l->crf_env,
						    &l->crf, &l->csf.cfg, &m,
						    no_id_in_use, l) &&
				    !crem_crf_answer(&l->crf);
		else if (l->crf_up)
			crem_crf_receive(&l->crf, &m, false);
		crf_decode(l);
		break;
	case TO_CSF_MSG:
		if (crem_wire_parse(it->buf, it->len, &m, NULL) == CREM_WIRE_OK)
			crem_csf_receive(&l->csf, &m, false);
		break;
	}
}

/* Advance the clock to @until, firing arrivals and deadlines in order. */
static void run_until(struct loop *l, u64 until)
{
	for (;;) {
		struct loop_item *next = NULL;
		u64 at = until;
		unsigned int i;
		int which = 0;

		for (i = 0; i < LOOP_ITEMS; i++)
			if (l->items[i].used && l->items[i].at <= at &&
			    (!next || l->items[i].at < next->at)) {
				next = &l->items[i];
				at = next->at;
			}
		if (l->csf_deadline < at || (!next && l->csf_deadline <= at)) {
			at = l->csf_deadline;
			which = 1;
		}
		if (l->crf_up && (l->crf_deadline < at ||
				  (!next && !which && l->crf_deadline <= at))) {
			at = l->crf_deadline;
			which = 2;
		}
		if (!next && !which)
			break;
		l->now = at;
		if (which == 1) {
			l->csf_deadline = CREM_NO_DEADLINE;
			/* Timeouts never code in the kernel either. */
			l->in_packet_call = true;
			crem_csf_timeout(&l->csf);
			l->in_packet_call = false;
		} else if (which == 2) {
			l->crf_deadline = CREM_NO_DEADLINE;
			l->in_packet_call = true;
			crem_crf_timeout(&l->crf);
			l->in_packet_call = false;
			crf_decode(l);
		} else {
			next->used = false;
			arrive(l, next);
		}
	}
	l->now = until;
}

/* Send the next write through the CSF and onto the data path. */
static void send_write(struct loop *l, size_t len)
{
	u32 off = crem_psn_offset(l->next_psn, l->base);
	struct crem_roce_pkt r;
	u8 *pkt = l->sent[off];

	l->sent_len[off] = build_write(l, l->next_psn, len, pkt);
	KUNIT_ASSERT_EQ(l->test, crem_roce_parse_ip(pkt, l->sent_len[off], &r),
			CREM_ROCE_OK);
	l->in_packet_call = true;
	crem_csf_source(&l->csf, &r, pkt + 28, l->sent_len[off] - 28);
	l->in_packet_call = false;
	if (l->late_data & 1u << off)
		queue_after(l, TO_CRF_DATA, pkt, l->sent_len[off],
			    ONE_WAY_NS + 80 * CREM_US);
	else if (!(l->drop_data & 1u << off))
		queue(l, TO_CRF_DATA, pkt, l->sent_len[off]);
	l->next_psn = crem_psn_add(l->next_psn, 1);
	run_until(l, l->now + 20 * CREM_US);
}

/* @count writes of @len bytes, 20 us apart. */
static void send_writes(struct loop *l, unsigned int count, size_t len)
{
	while (count--)
		send_write(l, len);
}

static struct loop *loop_start(struct kunit *test, u8 k, u8 m, u32 first_psn)
{
	struct crem_engine_config cfg;
	struct crem_flow_desc desc = { .af = CREM_AF_INET, .dest_qp = 0x12,
				       .rdma_mtu = 1024 };
	struct loop *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, l);
	l->work = kunit_kzalloc(test, sizeof(*l->work), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l->work);
	l->test = test;
	l->prng.state = 7;
	l->csf_env = (struct crem_env){ .ops = &loop_ops, .ctx = l };
	l->crf_env = l->csf_env;
	l->csf_deadline = CREM_NO_DEADLINE;
	l->crf_deadline = CREM_NO_DEADLINE;
	memcpy(desc.src, loop_src, 4);
	memcpy(desc.dst, loop_dst, 4);
	crem_engine_config_default(&cfg);
	cfg.k = k;
	cfg.m = m;
	cfg.adaptive = false;
	cfg.limits.max_t = 1024 + 64 + 2;
	cfg.initial_rtt_ns = 2 * ONE_WAY_NS;
	/* H: the CSF closes no block of these 20 us bursts early for it. */
	cfg.auto_timing = false;
	cfg.hold_ns = 1 * CREM_MS;
	cfg.max_blocks = ARRAY_SIZE(l->ring);
	cfg.max_open_blocks = 16;
	l->base = first_psn & CREM_PSN_MASK;
	l->next_psn = l->base;
	KUNIT_ASSERT_EQ(test, crem_csf_start(&l->csf, &l->csf_env, &l->csf,
					     &cfg, &desc, l->base, l->ring), 0);
	/* HELLO, then the first configuration, each a round trip. */
	run_until(l, 50 * CREM_MS);
	KUNIT_ASSERT_EQ(test, l->csf.state, CREM_CSF_ACTIVE);
	KUNIT_ASSERT_EQ(test, l->csf.param.state, CREM_PARAM_ACKED);
	KUNIT_ASSERT_TRUE(test, l->crf_up);
	return l;
}

/* Every case: nothing corrupt, no matrix coding in the packet path. */
static void loop_end(struct kunit *test, struct loop *l)
{
	KUNIT_EXPECT_EQ(test, l->corrupt, 0);
	KUNIT_EXPECT_EQ(test, l->coded_in_packet_call, 0);
	if (l->crf_up && crem_crf_reserved(&l->crf)) {
		unsigned int i, open = 0;

		for (i = 0; i < l->crf.cfg.max_open_blocks; i++)
			open += l->crf.slots[i].state == CREM_SLOT_OPEN;
		KUNIT_EXPECT_EQ(test, l->crf.nopen, open);
	}
	crem_csf_close(&l->csf, CREM_CLOSE_NORMAL);
	run_until(l, l->now + 20 * CREM_MS);
	KUNIT_EXPECT_FALSE(test, l->crf_up && l->crf.state == CREM_CRF_ACTIVE);
	KUNIT_EXPECT_EQ(test, l->mem, 0);
	KUNIT_EXPECT_EQ(test, l->allocs, 0);
}

/*
 * The draft's example: k = 4, m = 2, sources 0-2 lost; X = 3, r = 2, one
 * coded symbol, all three restored a round trip after the request.
 */
static void loop_draft_example(struct kunit *test)
{
	struct loop *l = loop_start(test, 4, 2, 100);
	unsigned int i;

	l->drop_data = 0x7;
	send_writes(l, 4, 200);
	run_until(l, l->now + 40 * CREM_MS);
	KUNIT_EXPECT_EQ(test, l->requests, 1);
	KUNIT_EXPECT_EQ(test, l->retx, 1);
	KUNIT_EXPECT_EQ(test, l->csf.stats.v[CREM_FS_CODED_RETX_SYMBOLS], 1);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, l->arrived[i], 1);
		KUNIT_EXPECT_EQ(test, l->restored[i], i < 3);
	}
	KUNIT_EXPECT_EQ(test, l->crf.stats.v[CREM_FS_RESTORED], 3);
	loop_end(test, l);
}

/* Blocks across the PSN wrap; one loss on each side of it. */
static void loop_psn_wrap(struct kunit *test)
{
	struct loop *l = loop_start(test, 4, 1, CREM_PSN_MASK - 5);
	unsigned int i;

	l->drop_data = 1u << 3 | 1u << 9;	/* 2^24 - 3 and 3 */
	send_writes(l, 12, 300);
	run_until(l, l->now + 40 * CREM_MS);
	KUNIT_EXPECT_EQ(test, l->requests, 0);
	for (i = 0; i < 12; i++)
		KUNIT_EXPECT_EQ(test, l->arrived[i], 1);
	KUNIT_EXPECT_EQ(test, l->restored[3], 1);
	KUNIT_EXPECT_EQ(test, l->restored[9], 1);
	loop_end(test, l);
}

/* A forged REPAIR: the restored ICRC fails, FALLBACK fetches the source. */
static void loop_forged_repair(struct kunit *test)
{
	struct loop *l = loop_start(test, 4, 1, 5000);

	l->drop_data = 1u << 1;
	l->forge = 1;
	send_writes(l, 4, 700);
	run_until(l, l->now + 60 * CREM_MS);
	KUNIT_EXPECT_EQ(test, l->forge, 0);
	KUNIT_EXPECT_EQ(test, l->crf.stats.v[CREM_FS_ICRC_FAILURES], 1);
	KUNIT_EXPECT_EQ(test, l->fallbacks, 1);
	KUNIT_EXPECT_EQ(test, l->csf.stats.v[CREM_FS_SOURCE_COPY_SYMBOLS], 1);
	KUNIT_EXPECT_EQ(test, l->arrived[1], 1);
	KUNIT_EXPECT_EQ(test, l->restored[1], 1);
	loop_end(test, l);
}

/*
 * The RDMA transport's late retransmission of a lost packet may differ
 * from the copy the CSF coded (here its AckReq bit and so its ICRC).  The
 * CRF must not decode with it: the other lost packet of the block is
 * restored exactly, and the late one is not delivered twice.
 */
/* Send PSN base + @off again with AckReq flipped, as rxe resends it. */
static void send_variant(struct loop *l, u32 off)
{
	u8 *v = l->variant;
	u32 icrc;

	l->variant_off = off;
	l->variant_len = l->sent_len[off];
	memcpy(v, l->sent[off], l->variant_len);
	v[28 + 8] ^= 0x80;
	icrc = crem_roce_icrc(v, l->variant_len);
	v[l->variant_len - 4] = icrc;
	v[l->variant_len - 3] = icrc >> 8;
	v[l->variant_len - 2] = icrc >> 16;
	v[l->variant_len - 1] = icrc >> 24;
	queue(l, TO_CRF_DATA, v, l->variant_len);
}

static void loop_late_retransmission_differs(struct kunit *test)
{
	struct loop *l = loop_start(test, 4, 2, 900);

	l->drop_data = 1u << 1 | 1u << 2;
	l->drop_ordinary = true;
	send_writes(l, 4, 600);
	/* PSN base + 1 again, 3 ms later, with AckReq flipped. */
	run_until(l, l->now + 3 * CREM_MS);
	send_variant(l, 1);
	run_until(l, l->now + 60 * CREM_MS);
	KUNIT_EXPECT_EQ(test, l->crf.stats.v[CREM_FS_SOURCES_LATE], 1);
	KUNIT_EXPECT_EQ(test, l->crf.stats.v[CREM_FS_ICRC_FAILURES], 0);
	KUNIT_EXPECT_EQ(test, l->restored[2], 1);
	KUNIT_EXPECT_EQ(test, l->arrived[2], 1);
	KUNIT_EXPECT_EQ(test, l->restored[1], 0);
	KUNIT_EXPECT_EQ(test, l->arrived[1], 1);
	loop_end(test, l);
}

/*
 * The block's last source is lost, and so is a source before it and one
 * of the two repairs.  Nothing after the last one came, so nothing saw it
 * missing; its retransmission (AckReq flipped) comes after the block's
 * REPAIR, which followed the block on the wire: a retransmission, not a
 * source to decode with.  Decoding with it restored a wrong packet (the
 * ICRC caught it; crem_host on 6.1 saw this).
 */
static void loop_tail_retransmission_after_repair(struct kunit *test)
{
	struct loop *l = loop_start(test, 4, 2, 1300);

	l->drop_data = 1u << 1 | 1u << 3;
	l->lose_ordinary = 1;
	send_writes(l, 4, 600);
	/* The REPAIR is in at 5 ms; the resent last source at 11 ms. */
	run_until(l, l->now + 6 * CREM_MS);
	send_variant(l, 3);
	run_until(l, l->now + 60 * CREM_MS);
	KUNIT_EXPECT_EQ(test, l->lose_ordinary, 0);
	KUNIT_EXPECT_EQ(test, l->crf.stats.v[CREM_FS_ICRC_FAILURES], 0);
	KUNIT_EXPECT_EQ(test, l->restored[1], 1);
	KUNIT_EXPECT_EQ(test, l->arrived[1], 1);
	KUNIT_EXPECT_EQ(test, l->arrived[3], 1);
	loop_end(test, l);
}

/*
 * k = 4, m = 1: PSN 1 lost and PSN 2 late, behind the REPAIR, within the
 * reordering allowance.  The late source makes the block decodable; the
 * CRF decodes from its timeout at the same instant, not inside the source
 * call (the kernel's receive softirq), and asks for nothing.
 */
static void loop_source_completes_block(struct kunit *test)
{
	struct loop *l = loop_start(test, 4, 1, 300);
	unsigned int i;

	l->drop_data = 1u << 1;
	l->late_data = 1u << 2;
	send_writes(l, 4, 500);
	run_until(l, l->now + 40 * CREM_MS);
	KUNIT_EXPECT_EQ(test, l->requests, 0);
	KUNIT_EXPECT_EQ(test, l->crf.stats.v[CREM_FS_BLOCKS_DECODED], 1);
	KUNIT_EXPECT_GE(test, l->coded, 1);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, l->arrived[i], 1);
		KUNIT_EXPECT_EQ(test, l->restored[i], i == 1);
	}
	loop_end(test, l);
}

static struct kunit_case crem_engine_loop_test_cases[] = {
	KUNIT_CASE(loop_draft_example),
	KUNIT_CASE(loop_psn_wrap),
	KUNIT_CASE(loop_forged_repair),
	KUNIT_CASE(loop_late_retransmission_differs),
	KUNIT_CASE(loop_tail_retransmission_after_repair),
	KUNIT_CASE(loop_source_completes_block),
	{}
};

static struct kunit_suite crem_engine_loop_test_suite = {
	.name = "crem_engine_loop",
	.suite_init = test_fec_suite_init,
	.test_cases = crem_engine_loop_test_cases,
};

kunit_test_suite(crem_engine_loop_test_suite);
