// SPDX-License-Identifier: GPL-2.0
/*
 * engine_bench: the engine's packet path on one core, natively.
 *
 * One sender flow (crem_csf_source() for every RoCEv2 packet leaving) and
 * one receiver flow (crem_crf_source() for every packet arriving), joined
 * by a path without delay that loses a share of the data packets.  RDMA
 * WRITEs of 64 KiB at the RoCE MTU T; k = 32, m fixed; RDMA ACKs reach
 * the sender every 16 packets, 512 packets behind, as from a receiver a
 * round trip away; the engines' clock advances by one packet time at
 * 100 Gb/s per packet.  Each side's time counts everything the kernel
 * would run on that side's CPU for the traffic: its packet calls, the
 * CREM messages it takes, its timeouts, and on the receiver the decoding.
 *
 * The reference, measured in the same run over the same packets, is a
 * memcpy() of each packet into a 16 MiB ring, touched beforehand: the least any scheme that
 * keeps a copy of what it protects must pay.  Printed per row: ns per
 * packet, million packets per second per core, allocations per packet
 * (the environment's alloc()), and the ratio to the reference.
 *
 * Usage: engine_bench [PACKETS]   (default 400000 a row)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crem/core/csf.h"
#include "crem/core/crf.h"
#include "crem/core/psn.h"
#include "crem/fec/fec.h"
#include "tests/harness/traffic.h"

#define BATCH 256
#define MAX_PKT 4200
#define QUEUE 4096
#define ACK_LAG 512
#define ACK_EVERY 16
#define COPY_RING (16u << 20)

struct msg {
	u16 len;
	u8 data[MAX_PKT];
};

struct side {
	u64 ns;			/* time spent on this side */
	u64 allocs;
	u64 armed;		/* its deadline */
};

struct bench {
	u64 now;		/* the engines' clock */
	u64 gap;		/* one packet at 100 Gb/s */
	struct crem_csf csf;
	struct crem_crf crf;
	struct crem_csf_slot *ring;
	bool crf_up;
	struct side tx, rx;
	struct crem_env csf_env, crf_env;
	struct crem_fec_work *work;
	struct msg *fwd, *rev;	/* CREM messages on their way */
	unsigned int nfwd, nrev;
	u64 rng;
	u64 released, delivered;
};

static int held_token;

static u64 wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void *xalloc(size_t n)
{
	void *p = calloc(1, n);

	if (!p) {
		perror("engine_bench");
		exit(1);
	}
	return p;
}

static u64 env_now(void *ctx)
{
	return ((struct bench *)ctx)->now;
}

static struct side *side_of(struct bench *b, void *owner)
{
	return owner == &b->csf ? &b->tx : &b->rx;
}

static void env_arm(void *ctx, void *owner, u64 deadline)
{
	side_of(ctx, owner)->armed = deadline;
}

static int queue_msg(struct msg *q, unsigned int *n, const u8 *m, size_t len)
{
	if (*n == QUEUE || len > MAX_PKT)
		return -ENOBUFS;
	q[*n].len = len;
	memcpy(q[*n].data, m, len);
	(*n)++;
	return 0;
}

static int csf_send(void *ctx, void *owner, const u8 *m, size_t len, u8 dscp)
{
	struct bench *b = ctx;

	return queue_msg(b->fwd, &b->nfwd, m, len);
}

static int crf_send(void *ctx, void *owner, const u8 *m, size_t len, u8 dscp)
{
	struct bench *b = ctx;

	return queue_msg(b->rev, &b->nrev, m, len);
}

static void crf_deliver(void *ctx, void *owner, const u8 *pkt, size_t len)
{
	((struct bench *)ctx)->delivered++;
}

static void crf_release(void *ctx, void *owner, void *held)
{
	((struct bench *)ctx)->released++;
}

static void env_random(void *ctx, void *buf, size_t len)
{
	struct bench *b = ctx;
	u8 *p = buf;

	while (len--) {
		b->rng = b->rng * 6364136223846793005ull + 1442695040888963407ull;
		*p++ = b->rng >> 56;
	}
}

static void *env_alloc(void *ctx, void *owner, size_t size)
{
	side_of(ctx, owner)->allocs++;
	return malloc(size);
}

static void env_free(void *ctx, void *owner, void *mem, size_t size)
{
	free(mem);
}

static struct crem_fec_work *env_work(void *ctx)
{
	return ((struct bench *)ctx)->work;
}

static const struct crem_env_ops csf_ops = {
	.now_ns = env_now, .arm = env_arm, .send = csf_send,
	.random = env_random, .alloc = env_alloc, .free = env_free,
	.work = env_work,
};

static const struct crem_env_ops crf_ops = {
	.now_ns = env_now, .arm = env_arm, .send = crf_send,
	.deliver = crf_deliver, .release = crf_release,
	.random = env_random, .alloc = env_alloc, .free = env_free,
	.work = env_work,
};

static bool in_use(void *ctx, u32 id)
{
	return false;
}

/* Decode what is due, as the kernel's engine work does. */
static void decode_due(struct bench *b)
{
	struct crem_crf_decode job;

	while (b->crf_up && crem_crf_decode_claim(&b->crf, &job)) {
		crem_crf_decode_run(&job, b->work);
		crem_crf_decode_finish(&b->crf, &job);
	}
}

/* The CREM messages on their way, each to its side, until none is left. */
static void deliver_msgs(struct bench *b)
{
	struct crem_msg m;
	unsigned int i, n;
	u64 t;

	while (b->nfwd || b->nrev) {
		t = wall_ns();
		n = b->nfwd;
		b->nfwd = 0;
		for (i = 0; i < n; i++) {
			if (crem_wire_parse(b->fwd[i].data, b->fwd[i].len, &m,
					    NULL) != CREM_WIRE_OK)
				continue;
			if (!b->crf_up && m.type == CREM_MSG_HELLO) {
				b->crf_up = !crem_crf_start(&b->crf, &b->crf_env,
							    &b->crf, &b->csf.cfg,
							    &m, in_use, b);
				if (b->crf_up)
					crem_crf_answer(&b->crf);
			} else if (b->crf_up) {
				crem_crf_receive(&b->crf, &m, false);
				decode_due(b);
			}
		}
		b->rx.ns += wall_ns() - t;
		t = wall_ns();
		n = b->nrev;
		b->nrev = 0;
		for (i = 0; i < n; i++)
			if (crem_wire_parse(b->rev[i].data, b->rev[i].len, &m,
					    NULL) == CREM_WIRE_OK)
				crem_csf_receive(&b->csf, &m, false);
		b->tx.ns += wall_ns() - t;
	}
}

static void timeouts(struct bench *b)
{
	u64 t = wall_ns();

	if (b->tx.armed <= b->now) {
		b->tx.armed = CREM_NO_DEADLINE;
		crem_csf_timeout(&b->csf);
	}
	b->tx.ns += wall_ns() - t;
	t = wall_ns();
	if (b->crf_up && b->rx.armed <= b->now) {
		b->rx.armed = CREM_NO_DEADLINE;
		crem_crf_timeout(&b->crf);
		decode_due(b);
	}
	b->rx.ns += wall_ns() - t;
}

struct row {
	const char *path;
	unsigned int mtu, m;
	double loss;
};

struct result {
	double tx_ns, rx_ns, copy_ns, tx_allocs, rx_allocs;
	u64 restored, lost;
};

static void run(const struct row *row, u64 packets, struct result *res)
{
	struct bench *b = xalloc(sizeof(*b));
	struct crem_engine_config cfg;
	struct crem_flow_desc desc = { 0 };
	struct crem_traffic tr;
	struct crem_roce_pkt pkt;
	static u8 (*bufs)[MAX_PKT];
	static size_t lens[BATCH];
	static bool lost[BATCH];
	u8 *copy = xalloc(COPY_RING);
	size_t copy_at = 0;
	u64 sent = 0, copy_ns = 0, t, acked = 0;
	u32 psn0;
	unsigned int i, n;

	if (!bufs)
		bufs = xalloc(BATCH * sizeof(*bufs));
	memset(copy, 1, COPY_RING);
	b->work = xalloc(sizeof(*b->work));
	b->fwd = xalloc(QUEUE * sizeof(*b->fwd));
	b->rev = xalloc(QUEUE * sizeof(*b->rev));
	b->rng = 0x2545f4914f6cdd1dull;
	b->gap = (u64)row->mtu * 8 / 100;
	b->now = 1000000;
	b->tx.armed = b->rx.armed = CREM_NO_DEADLINE;
	b->csf_env = (struct crem_env){ .ops = &csf_ops, .ctx = b };
	b->crf_env = (struct crem_env){ .ops = &crf_ops, .ctx = b };

	crem_engine_config_default(&cfg);
	cfg.k = 32;
	/*
	 * m = 0 is the adaptive policy's on a clean path (a fixed m is at
	 * least 1): the flow starts there and no report raises it.
	 */
	cfg.m = row->m ? row->m : 1;
	cfg.adaptive = !row->m;
	cfg.limits.max_t = row->mtu + 64 + 2;
	cfg.initial_rtt_ns = 100 * CREM_US;
	b->ring = xalloc(cfg.max_blocks * sizeof(*b->ring));

	crem_traffic_init(&tr, 7, 0x123456);
	tr.mtu = row->mtu;
	tr.max_msg = 65536;
	memset(tr.weight, 0, sizeof(tr.weight));
	tr.weight[CREM_TRAFFIC_WRITE] = 1;
	desc.af = tr.af;
	memcpy(desc.src, tr.src, 16);
	memcpy(desc.dst, tr.dst, 16);
	desc.dest_qp = tr.dest_qp;
	desc.rdma_mtu = tr.mtu;
	psn0 = tr.psn;
	if (crem_csf_start(&b->csf, &b->csf_env, &b->csf, &cfg, &desc,
			   tr.psn, b->ring)) {
		fprintf(stderr, "engine_bench: crem_csf_start failed\n");
		exit(1);
	}
	deliver_msgs(b);
	b->tx.ns = b->rx.ns = b->tx.allocs = b->rx.allocs = 0;

	while (sent < packets) {
		struct crem_traffic_pkt info;

		/* The batch's packets and losses, outside the timing. */
		for (n = 0; n < BATCH; n++) {
			lens[n] = crem_traffic_next(&tr, bufs[n], MAX_PKT, &info);
			b->rng = b->rng * 6364136223846793005ull + 1;
			lost[n] = (double)(b->rng >> 11) / (1ull << 53) <
				  row->loss;
		}
		t = wall_ns();
		for (i = 0; i < n; i++) {
			memcpy(copy + copy_at, bufs[i], lens[i]);
			copy_at = copy_at + MAX_PKT > COPY_RING - MAX_PKT ? 0 :
				  copy_at + MAX_PKT;
		}
		copy_ns += wall_ns() - t;
		for (i = 0; i < n; i++) {
			const u8 *payload;
			size_t len;

			b->now += b->gap;
			/* The hook's parse is the kernel's, counted on each side. */
			t = wall_ns();
			crem_roce_parse_ip(bufs[i], lens[i], &pkt);
			payload = bufs[i] + (bufs[i][0] & 0xf) * 4 + 8;
			len = pkt.ip_len - (payload - bufs[i]);
			crem_csf_source(&b->csf, &pkt, payload, len);
			b->tx.ns += wall_ns() - t;
			if (!lost[i] && b->crf_up) {
				t = wall_ns();
				crem_roce_parse_ip(bufs[i], lens[i], &pkt);
				crem_crf_source(&b->crf, bufs[i], &pkt,
						payload, len,
						crem_crf_may_hold(&b->crf,
								  pkt.psn) ?
						&held_token : NULL);
				decode_due(b);
				b->rx.ns += wall_ns() - t;
			}
			res->lost += lost[i];
			deliver_msgs(b);
			timeouts(b);
			deliver_msgs(b);
			/* The RDMA receiver's ACK, a round trip's worth behind. */
			if (++sent % ACK_EVERY == 0 && sent > ACK_LAG) {
				u8 ack[128];
				size_t alen = crem_traffic_ack(&tr,
					crem_psn_add(psn0, sent - ACK_LAG), 0,
					0, ack, sizeof(ack));
				struct crem_roce_pkt a;

				t = wall_ns();
				if (crem_roce_parse_ip(ack, alen, &a) ==
				    CREM_ROCE_OK)
					crem_csf_rdma_ack(&b->csf, &a);
				b->tx.ns += wall_ns() - t;
				acked++;
			}
		}
	}
	res->tx_ns = (double)b->tx.ns / sent;
	res->rx_ns = (double)b->rx.ns / sent;
	res->copy_ns = (double)copy_ns / sent;
	res->tx_allocs = (double)b->tx.allocs / sent;
	res->rx_allocs = (double)b->rx.allocs / sent;
	res->restored = b->delivered;
	crem_csf_destroy(&b->csf);
	if (b->crf_up)
		crem_crf_destroy(&b->crf);
	free(b->ring);
	free(b->fwd);
	free(b->rev);
	free(b->work);
	free(b);
	free(copy);
}

int main(int argc, char **argv)
{
	static const struct row rows[] = {
		{ "clean", 1024, 0, 0 },    { "clean", 4096, 0, 0 },
		{ "clean", 1024, 2, 0 },    { "clean", 1024, 4, 0 },
		{ "clean", 4096, 2, 0 },    { "clean", 4096, 4, 0 },
		{ "1 % loss", 1024, 2, 0.01 }, { "1 % loss", 1024, 4, 0.01 },
		{ "1 % loss", 4096, 2, 0.01 }, { "1 % loss", 4096, 4, 0.01 },
	};
	u64 packets = argc > 1 ? strtoull(argv[1], NULL, 0) : 400000;
	unsigned int i;

	crem_fec_init();
	printf("# crem engine_bench: %llu packets a row, RDMA WRITE of 64 KiB, k 32, one core\n",
	       (unsigned long long)packets);
	printf("# reference: memcpy() of each packet into a 16 MiB ring, same packets, same run\n");
	printf("| side | path | T | m | ns/packet | Mpps/core | allocs/packet | x memcpy | restored/lost |\n");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct result r = { 0 };

		run(&rows[i], packets, &r);
		printf("| sender | %s | %u | %u | %.0f | %.2f | %.4f | %.1f | |\n",
		       rows[i].path, rows[i].mtu, rows[i].m, r.tx_ns,
		       1e3 / r.tx_ns, r.tx_allocs, r.tx_ns / r.copy_ns);
		printf("| receiver | %s | %u | %u | %.0f | %.2f | %.4f | %.1f | %llu/%llu |\n",
		       rows[i].path, rows[i].mtu, rows[i].m, r.rx_ns,
		       1e3 / r.rx_ns, r.rx_allocs, r.rx_ns / r.copy_ns,
		       (unsigned long long)r.restored,
		       (unsigned long long)r.lost);
	}
	return 0;
}
