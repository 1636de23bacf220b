// SPDX-License-Identifier: GPL-2.0
/*
 * The block layer as a pair, over lossy paths: synthetic RoCEv2 traffic is
 * cut into blocks at the CSF, sources and ordinary repairs are lost, the
 * CRF decodes when it holds enough, and otherwise gets X - r coded symbols
 * over its lost set; every restored source is rebuilt into its IP packet,
 * which must equal the one sent, byte for byte.  (make unit)
 */
#include <kunit/test.h>

#include "crem/core/crf_block.h"
#include "crem/core/csf_block.h"
#include "crem/core/psn.h"
#include "crem/core/restore.h"
#include "crem/core/roce.h"
#include "tests/harness/traffic.h"
#include "tests/kunit/test_util.h"

#define K 16
#define M 3
#define T 1100
#define MAX_PKT 2048

struct pair {
	struct crem_traffic traffic;
	struct crem_sim_loss loss;
	struct crem_sim_rng rng;
	struct crem_csf_block csf;
	struct crem_crf_block crf;
	struct crem_fec_work work;
	u8 csf_mem[(K + M) * 1152];
	u8 crf_mem[(K + K) * 1152];
	u8 sent[K][MAX_PKT];
	size_t sent_len[K];
	u8 out[MAX_PKT];
	u8 coded[K][1152];
	/* results */
	unsigned int lost, restored_ordinary, restored_coded, coded_symbols;
	unsigned int blocks;
	unsigned int info_answers;
};

static void template_of(const struct crem_traffic *t, struct crem_ip_template *ip)
{
	memset(ip, 0, sizeof(*ip));
	ip->af = t->af;
	memcpy(ip->src, t->src, 16);
	memcpy(ip->dst, t->dst, 16);
	ip->sport = t->sport;
	ip->dscp = t->dscp;
	ip->ttl = 64;
	ip->df = true;
	ip->id_hint = 0x1234;	/* wrong: the generator's IDs are 0 */
}

/* The packet sent as a restored copy must look: no ECN mark (IPv4). */
static void without_ecn(u8 *pkt)
{
	pkt[1] &= ~3;
	crem_ipv4_set_checksum(pkt);
}

/* Every position restored equals the packet sent, less its ECN mark. */
static void check_restored(struct kunit *test, struct pair *p)
{
	struct crem_ip_template ip;
	unsigned int j;

	template_of(&p->traffic, &ip);
	crem_set_for_each(j, &p->crf.restored) {
		const u8 *sym = crem_crf_block_symbol(&p->crf, j);
		size_t len;
		int n;

		KUNIT_ASSERT_NOT_NULL(test, sym);
		KUNIT_ASSERT_EQ(test, crem_symbol_to_packet(sym, T, &len), 0);
		n = crem_restore_ip(&ip, sym + 2, len, p->out, MAX_PKT, NULL);
		KUNIT_ASSERT_EQ_MSG(test, n, (int)p->sent_len[j], "block %u pos %u",
				    p->blocks, j);
		without_ecn(p->sent[j]);
		KUNIT_ASSERT_EQ_MSG(test, memcmp(p->out, p->sent[j], n), 0,
				    "block %u pos %u", p->blocks, j);
	}
}

/* The receiving side of one closed block, then its checks. */
static void deliver_block(struct kunit *test, struct pair *p)
{
	struct crem_csf_block *c = &p->csf;
	struct crem_fec_set missing;
	unsigned int j, r, held_repairs = 0;

	KUNIT_ASSERT_EQ(test, crem_crf_block_init(&p->crf, p->crf_mem, c->start_psn,
						  K, K, T), 0);
	crem_set_for_each(j, &c->present) {
		if (crem_sim_loss_drop(&p->loss, &p->rng)) {
			p->lost++;
			continue;
		}
		KUNIT_ASSERT_EQ(test, crem_crf_block_add_source(&p->crf,
				crem_psn_add(c->start_psn, j),
				crem_csf_block_source(c, j) + 2,
				crem_csf_block_source(c, j)[0] << 8 |
				crem_csf_block_source(c, j)[1]), 0);
	}
	for (r = 0; r < c->m; r++) {
		if (crem_sim_loss_drop(&p->loss, &p->rng))
			continue;
		KUNIT_ASSERT_EQ(test, crem_crf_block_add_repair(&p->crf, c->k,
				&c->present, T, r, &c->present, c->repair[r]), 0);
		held_repairs++;
	}
	/* No REPAIR came: a range request gets the block's INFO. */
	if (!p->crf.geometry) {
		KUNIT_ASSERT_EQ(test, crem_crf_block_set_geometry(&p->crf, c->k,
				&c->present, T), 0);
		p->info_answers++;
	}
	missing = crem_crf_block_missing(&p->crf);
	if (!crem_set_count(&missing))
		return;
	if (crem_crf_block_decodable(&p->crf)) {
		KUNIT_ASSERT_EQ(test, crem_crf_block_decode(&p->crf, &p->work),
				(int)crem_set_count(&missing));
		p->restored_ordinary += crem_set_count(&missing);
	} else {
		/* Coded retransmission: X - r symbols over L (none lost here). */
		unsigned int x = crem_set_count(&missing);
		unsigned int count = x - held_repairs, i;
		u8 index[K], *out[K];
		int scheme;

		for (i = 0; i < count; i++)
			out[i] = p->coded[i];
		KUNIT_ASSERT_GT(test, count, 0u);
		scheme = crem_csf_block_coded(c, &missing, &count, (u8 *const *)out,
					      index, &p->work);
		KUNIT_ASSERT_EQ(test, scheme, CREM_FEC_CAUCHY_RS);
		for (i = 0; i < count; i++)
			KUNIT_ASSERT_EQ(test, crem_crf_block_add_repair(&p->crf, c->k,
					&c->present, T, index[i], &missing, out[i]), 0);
		KUNIT_ASSERT_TRUE(test, crem_crf_block_decodable(&p->crf));
		KUNIT_ASSERT_EQ(test, crem_crf_block_decode(&p->crf, &p->work), (int)x);
		p->restored_coded += x;
		p->coded_symbols += count;
	}
	check_restored(test, p);
}

static void run_pair(struct kunit *test, struct pair *p, unsigned int packets)
{
	u8 pkt[MAX_PKT];
	unsigned int i;
	bool open = false;

	for (i = 0; i < packets; i++) {
		struct crem_traffic_pkt info;
		struct crem_roce_pkt r;
		size_t len = crem_traffic_next(&p->traffic, pkt, sizeof(pkt), &info);
		size_t hdr;
		enum crem_csf_add added;

		KUNIT_ASSERT_GT(test, len, (size_t)0);
		KUNIT_ASSERT_EQ(test, crem_roce_parse_ip(pkt, len, &r), CREM_ROCE_OK);
		hdr = 20 + 8;
		if (!open || p->csf.closed) {
			if (open)
				deliver_block(test, p);
			/* A new block starts at the first packet that needs one. */
			KUNIT_ASSERT_EQ(test, crem_csf_block_init(&p->csf, p->csf_mem,
					info.psn, K, M, T, 1, CREM_FEC_CAUCHY_RS), 0);
			p->blocks++;
			open = true;
		}
		added = crem_csf_block_add(&p->csf, info.psn, info.span, pkt + hdr,
					   len - hdr);
		KUNIT_ASSERT_EQ(test, added, CREM_CSF_ADDED);
		memcpy(p->sent[crem_psn_offset(info.psn, p->csf.start_psn)], pkt, len);
		p->sent_len[crem_psn_offset(info.psn, p->csf.start_psn)] = len;
		/* Bursts end every 40 packets or so: blocks close early. */
		if (!(crem_sim_rng_next(&p->rng) % 40))
			crem_csf_block_close(&p->csf);
	}
	if (open) {
		crem_csf_block_close(&p->csf);
		deliver_block(test, p);
	}
}

static void pair_blocks_restore_byte_for_byte(struct kunit *test)
{
	static const struct {
		const char *name;
		double p, burst;
	} cases[] = {
		{ "iid 5%", 0.05, 0 },
		{ "bursty 5%, bursts of 3", 0.05, 3 },
		{ "iid 20%", 0.20, 0 },
	};
	unsigned int c;

	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		struct pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, p);
		crem_traffic_init(&p->traffic, 1000 + c, 0xffff00);
		p->rng.state = 77 + c;
		if (cases[c].burst)
			p->loss = crem_sim_loss_bursty(cases[c].p, cases[c].burst);
		else
			p->loss = (struct crem_sim_loss){ .kind = CREM_SIM_LOSS_IID,
							  .p = cases[c].p };
		run_pair(test, p, 4000);
		kunit_info(test, "%s: %u blocks, %u sources lost, %u restored by ordinary repairs, %u by %u coded symbols; %u INFO answers",
			   cases[c].name, p->blocks, p->lost, p->restored_ordinary,
			   p->restored_coded, p->coded_symbols, p->info_answers);
		KUNIT_EXPECT_GT(test, p->lost, 0u);
		KUNIT_EXPECT_EQ(test, p->restored_ordinary + p->restored_coded, p->lost);
		KUNIT_EXPECT_GT(test, p->restored_ordinary, 0u);
		/* Coded retransmission sends fewer symbols than it restores. */
		if (p->restored_coded)
			KUNIT_EXPECT_LT(test, p->coded_symbols, p->restored_coded);
		kunit_kfree(test, p);
	}
}

static struct kunit_case crem_block_pair_test_cases[] = {
	KUNIT_CASE(pair_blocks_restore_byte_for_byte),
	{}
};

static struct kunit_suite crem_block_pair_test_suite = {
	.name = "crem_block_pair",
	.suite_init = test_fec_suite_init,
	.test_cases = crem_block_pair_test_cases,
};

kunit_test_suite(crem_block_pair_test_suite);
