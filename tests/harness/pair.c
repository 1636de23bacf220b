// SPDX-License-Identifier: GPL-2.0
/*
 * The pair harness (see pair.h).
 */
#include <stdlib.h>
#include <string.h>

#include "crem/core/bytes.h"
#include "crem/core/psn.h"
#include "pair.h"

#define MAX_PKT 9200
#define WRAP_HDR 20

static void csf_hook_and_send(struct crem_pair *p, struct crem_pair_rec *rec);

#define pair_of(ptr, member) \
	((struct crem_pair *)((u8 *)(ptr) - offsetof(struct crem_pair, member)))

void crem_pair_params_default(struct crem_pair_params *par)
{
	memset(par, 0, sizeof(*par));
	crem_engine_config_default(&par->csf_cfg);
	par->csf_cfg.k = 4;
	par->csf_cfg.m = 2;
	par->csf_cfg.adaptive = false;
	/* The scenarios' timing is theirs: a fixed H, unless they ask. */
	par->csf_cfg.auto_timing = false;
	par->csf_cfg.limits.max_t = 1024 + 64 + 2;
	par->csf_cfg.initial_rtt_ns = 10 * CREM_MS;
	par->crf_cfg = par->csf_cfg;
	par->data.delay_ns = 5 * CREM_MS;
	par->ack = par->data;
	par->fwd = par->data;
	par->rev = par->data;
	par->seed = 1;
	par->ack_every = 4;
	par->rdma_rto_ns = 0;
}

struct crem_pair_rec *crem_pair_rec(struct crem_pair *p, u32 psn)
{
	struct crem_pair_rec *r = &p->rec[psn % CREM_PAIR_RECS];

	return r->used && r->psn == psn ? r : NULL;
}

static void log_msg(struct crem_pair *p, int dir, const struct crem_msg *m,
		    bool dropped, u8 dscp)
{
	unsigned int i;
	struct crem_pair_event *e;

	if (!p->keep_log)
		return;
	if (p->nlog == p->log_cap) {
		size_t cap = p->log_cap ? 2 * p->log_cap : 256;
		struct crem_pair_event *l = realloc(p->log, cap * sizeof(*l));

		if (!l)
			return;
		p->log = l;
		p->log_cap = cap;
	}
	e = &p->log[p->nlog++];
	e->at_ns = p->sim.now_ns;
	e->dir = dir;
	e->type = m->type;
	e->flags = m->flags;
	e->dropped = dropped;
	e->dscp = dscp;
	e->msg = *m;
	e->nranges = 0;
	if (m->type == CREM_MSG_REPAIR_REQUEST &&
	    (m->flags & CREM_REQ_F_RANGES))
		for (i = 0; i < m->request.nranges && i < 8; i++)
			e->ranges[e->nranges++] = crem_wire_range(m, i);
}

unsigned int crem_pair_count(const struct crem_pair *p, int dir, u8 type)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < p->nlog; i++)
		n += p->log[i].dir == dir && p->log[i].type == type;
	return n;
}

/* ---- the RDMA receiver and requester ------------------------------ */

static void csf_hook_and_send(struct crem_pair *p, struct crem_pair_rec *rec);

/* The next packet of the requester's paced resend round. */
static void resend_tick(struct crem_sim *sim, void *arg, const u8 *data,
			size_t len)
{
	struct crem_pair *p = arg;

	p->resend_tick_armed = false;
	while (p->resending && crem_psn_before(p->round_next, p->next_psn)) {
		struct crem_pair_rec *rec = crem_pair_rec(p, p->round_next);

		p->round_next = crem_psn_add(p->round_next, 1);
		if (!rec || rec->absent || !rec->pkt)
			continue;
		p->rdma_resent++;
		rec->last_sent_ns = sim->now_ns;
		csf_hook_and_send(p, rec);
		p->resend_tick_armed = !crem_sim_at(sim, sim->now_ns +
						    p->par.rdma_resend_gap_ns,
						    resend_tick, p, NULL, 0);
		/* With no next tick, the round ends here. */
		p->resending = p->resend_tick_armed;
		return;
	}
	p->resending = false;
}

static void rdma_go_back(struct crem_pair *p, u32 from)
{
	u32 psn;

	if (p->par.rdma_resend_gap_ns) {
		p->resending = true;
		p->round_next = from;
		if (!p->resend_tick_armed)
			resend_tick(&p->sim, p, NULL, 0);
		return;
	}
	for (psn = from; crem_psn_before(psn, p->next_psn);
	     psn = crem_psn_add(psn, 1)) {
		struct crem_pair_rec *rec = crem_pair_rec(p, psn);

		if (!rec || rec->absent || !rec->pkt)
			continue;
		p->rdma_resent++;
		rec->last_sent_ns = p->sim.now_ns;
		csf_hook_and_send(p, rec);
	}
}

static void rdma_ack_at_csf(struct crem_sim *sim, void *arg, const u8 *data,
			    size_t len)
{
	struct crem_pair *p = arg;
	struct crem_roce_pkt ack;

	if (crem_roce_parse_ip(data, len, &ack) != CREM_ROCE_OK)
		return;
	if (p->resending && !crem_roce_asks_again(&ack) &&
	    !crem_psn_before(crem_csf_ack_psn(&ack), p->round_next))
		p->acked_ahead++;
	if (crem_psn_after(crem_psn_add(crem_csf_ack_psn(&ack), 1),
			   p->acked)) {
		p->acked = crem_psn_add(crem_csf_ack_psn(&ack), 1);
		p->ack_progress_ns = sim->now_ns;
	}
	if (p->csf_up) {
		p->in_packet_call = true;
		crem_csf_rdma_ack(&p->csf, &ack);
		p->in_packet_call = false;
	}
	/* Go-back-N: a sequence NAK sends everything from its PSN again. */
	if (crem_roce_asks_again(&ack))
		rdma_go_back(p, ack.psn);
}

static void rdma_send_nak(struct crem_pair *p)
{
	u8 buf[128];
	size_t n = crem_traffic_ack(&p->traffic, p->rdma_next,
				    CREM_ROCE_AETH_NAK_PSN_SEQUENCE, 0, buf,
				    sizeof(buf));

	p->nak_sent = true;
	p->naks++;
	if (p->crf_up)
		crem_crf_asked_again(&p->crf, p->rdma_next);
	crem_sim_path_send(&p->sim, &p->par.ack, buf, n, rdma_ack_at_csf, p);
}

static void rdma_send_ack(struct crem_pair *p)
{
	u8 buf[128];
	size_t n = crem_traffic_ack(&p->traffic, crem_psn_add(p->rdma_next, -1),
				    0x1f, 0, buf, sizeof(buf));

	p->since_ack = 0;
	crem_sim_path_send(&p->sim, &p->par.ack, buf, n, rdma_ack_at_csf, p);
}

/* A packet reached the RDMA receiver: check it, and acknowledge. */
static void rdma_receive(struct crem_pair *p, const u8 *pkt, size_t len,
			 bool restored)
{
	struct crem_roce_pkt r, o;
	struct crem_pair_rec *rec;
	u32 before = p->rdma_next;

	if (crem_roce_parse_ip(pkt, len, &r) != CREM_ROCE_OK) {
		p->restored_bad += restored;
		return;
	}
	rec = crem_pair_rec(p, r.psn);
	if (!rec || crem_roce_parse_ip(rec->pkt, rec->len, &o) != CREM_ROCE_OK)
		return;
	/* Byte-exact from the BTH through the ICRC, and the same flow. */
	if (r.ip_len != o.ip_len || memcmp(r.src, o.src, 16) ||
	    memcmp(r.dst, o.dst, 16) || r.sport != o.sport ||
	    memcmp(pkt + (len - r.payload_len), rec->pkt + (rec->len -
							   o.payload_len),
		   r.payload_len) ||
	    !crem_roce_icrc_ok(pkt, r.ip_len)) {
		p->restored_bad += restored;
		return;
	}
	/*
	 * A go-back-N receiver takes nothing past a gap, and asks for the
	 * gap with one NAK until it fills, as rxe does.  crem's hook sees the
	 * NAK leave (hooks.c, crf_asked()).
	 */
	if (p->par.go_back_n && !rec->delivered && r.psn != p->rdma_next) {
		p->discarded++;
		if (!p->nak_sent)
			rdma_send_nak(p);
		return;
	}
	if (restored) {
		if (rec->restored || rec->delivered)
			p->restored_twice++;
		rec->restored = true;
		p->restored++;
		if (!rec->requested)
			p->restored_unrequested++;
		if (rec->lost && p->nlatency < p->latency_cap)
			p->latency_ns[p->nlatency++] = p->sim.now_ns -
				(rec->sent_ns + p->par.data.delay_ns);
	}
	if (rec->delivered) {
		/* As an RC responder does: a duplicate is acknowledged again. */
		p->duplicates++;
		rdma_send_ack(p);
		return;
	}
	rec->delivered = true;
	rec->done_ns = p->sim.now_ns;
	if (p->keep_log) {
		if (p->nrx == p->rx_cap) {
			size_t cap = p->rx_cap ? 2 * p->rx_cap : 256;
			struct crem_pair_rx *x = realloc(p->rx, cap * sizeof(*x));

			if (x) {
				p->rx = x;
				p->rx_cap = cap;
			}
		}
		if (p->nrx < p->rx_cap)
			p->rx[p->nrx++] = (struct crem_pair_rx){
				.at_ns = p->sim.now_ns, .psn = r.psn,
				.restored = restored,
			};
	}
	p->delivered++;
	p->passed += !restored;
	while (1) {
		struct crem_pair_rec *n = crem_pair_rec(p, p->rdma_next);

		if (!n || !(n->delivered || n->absent))
			break;
		p->rdma_next = crem_psn_add(p->rdma_next, 1);
	}
	if (p->rdma_next != before)
		p->nak_sent = false;
	if (p->rdma_next != before && ++p->since_ack >= p->par.ack_every)
		rdma_send_ack(p);
}

/*
 * The requester, like an RDMA transport with selective retransmission,
 * resends each packet the receiver lacks once it has gone unacknowledged
 * for the retransmission timeout; the receiver acknowledges on a timer too.
 */
static void rdma_timer_fire(struct crem_sim_timer *t)
{
	struct crem_pair *p = pair_of(t, rdma_timer);
	unsigned int budget = 4096;
	u32 psn;

	if (p->since_ack)
		rdma_send_ack(p);
	/*
	 * No acknowledgement for a timeout: resend the oldest, even if it
	 * arrived (its ACK may be what was lost).
	 */
	if (crem_psn_before(p->acked, p->next_psn) &&
	    p->sim.now_ns - p->ack_progress_ns >= p->par.rdma_rto_ns) {
		struct crem_pair_rec *rec = crem_pair_rec(p, p->acked);

		if (rec && rec->pkt && rec->delivered) {
			p->rdma_resent++;
			csf_hook_and_send(p, rec);
		}
		p->ack_progress_ns = p->sim.now_ns;
	}
	for (psn = p->acked; crem_psn_before(psn, p->next_psn) && budget;
	     psn = crem_psn_add(psn, 1)) {
		struct crem_pair_rec *rec = crem_pair_rec(p, psn);

		if (!rec || rec->absent || rec->delivered || !rec->pkt ||
		    p->sim.now_ns - rec->last_sent_ns < p->par.rdma_rto_ns)
			continue;
		budget--;
		p->rdma_resent++;
		rec->last_sent_ns = p->sim.now_ns;
		csf_hook_and_send(p, rec);
	}
	crem_sim_timer_arm(&p->sim, t, p->sim.now_ns + p->par.rdma_rto_ns / 4);
}

/* ---- the data path --------------------------------------------------- */

static void *held_copy(const u8 *pkt, size_t len)
{
	u8 *h = malloc(sizeof(size_t) + len);

	if (h) {
		memcpy(h, &len, sizeof(len));
		memcpy(h + sizeof(len), pkt, len);
	}
	return h;
}

static void crf_decode(struct crem_pair *p);

/* Keep a copy of what the CRF delivers inside its source call. */
static void queue_delivery(struct crem_pair *p, const u8 *pkt, size_t len,
			   bool restored)
{
	struct crem_pair_queued *q;

	if (p->nqueued == p->queued_cap) {
		size_t cap = p->queued_cap ? 2 * p->queued_cap : 64;

		q = realloc(p->queued, cap * sizeof(*q));
		if (!q)
			abort();
		p->queued = q;
		p->queued_cap = cap;
	}
	q = &p->queued[p->nqueued++];
	q->pkt = malloc(len);
	if (!q->pkt)
		abort();
	memcpy(q->pkt, pkt, len);
	q->len = len;
	q->restored = restored;
}

/*
 * Hand on what the source call queued, from the start, while its PSN is
 * before @psn (all of it with @all): the kernel's hook puts the source
 * after those and ahead of the rest (hooks.c, crf_source()).
 */
static void deliver_queued(struct crem_pair *p, u32 psn, bool all)
{
	struct crem_roce_pkt r;
	size_t i, n;

	for (i = 0; i < p->nqueued; i++) {
		if (!all &&
		    (crem_roce_parse_ip(p->queued[i].pkt, p->queued[i].len,
					&r) != CREM_ROCE_OK ||
		     !crem_psn_before(r.psn, psn)))
			break;
		rdma_receive(p, p->queued[i].pkt, p->queued[i].len,
			     p->queued[i].restored);
		free(p->queued[i].pkt);
	}
	n = p->nqueued - i;
	if (i && n)
		memmove(p->queued, p->queued + i, n * sizeof(*p->queued));
	p->nqueued = n;
}

/* The owner's engine work, woken by a packet that made a block due. */
static void decode_event(struct crem_sim *sim, void *arg, const u8 *data,
			 size_t len)
{
	crf_decode(arg);
}

static void data_at_crf(struct crem_sim *sim, void *arg, const u8 *data,
			size_t len)
{
	struct crem_pair *p = arg;
	enum crem_crf_verdict verdict;
	struct crem_roce_pkt r;
	void *h;

	if (crem_roce_parse_ip(data, len, &r) != CREM_ROCE_OK)
		return;
	if (!p->crf_up) {
		rdma_receive(p, data, len, false);
		return;
	}
	h = held_copy(data, len);
	p->in_packet_call = true;
	/* As the kernel's hook: what this lets go goes before the source. */
	crem_crf_expire_held(&p->crf, r.psn);
	p->in_source_call = true;
	verdict = crem_crf_source(&p->crf, data, &r,
				  data + (r.af == 4 ? 20 : 40) + 8,
				  len - (r.af == 4 ? 20 : 40) - 8, h);
	p->in_source_call = false;
	p->in_packet_call = false;
	/* As the kernel's hook: a flow the source ended goes. */
	if (p->crf.state == CREM_CRF_CLOSED)
		p->crf_up = false;
	if (crem_crf_decode_pending(&p->crf))
		crem_sim_at(&p->sim, p->sim.now_ns, decode_event, p, NULL, 0);
	if (verdict != CREM_CRF_HOLD) {
		free(h);
		deliver_queued(p, r.psn, false);
		rdma_receive(p, data, len, false);
	}
	deliver_queued(p, 0, true);
}

static void csf_hook_and_send(struct crem_pair *p, struct crem_pair_rec *rec)
{
	struct crem_roce_pkt r;
	size_t ip = p->par.ipv6 ? 40 : 20;
	unsigned int sends = 0;
	u64 extra = 0;

	if (crem_roce_parse_ip(rec->pkt, rec->len, &r) != CREM_ROCE_OK)
		return;
	if (p->csf_up) {
		p->in_packet_call = true;
		crem_csf_source(&p->csf, &r, rec->pkt + ip + 8,
				rec->len - ip - 8);
		p->in_packet_call = false;
	}
	/* Sends are counted for the hooks that ask (first_lost as before). */
	if (p->drop_data || p->delay_data)
		sends = rec->sends++;
	if (p->delay_data)
		extra = p->delay_data(p, rec->psn, sends);
	p->par.data.delay_ns += extra;
	if ((p->drop_data && p->drop_data(p, rec->psn, sends)) ||
	    !crem_sim_path_send(&p->sim, &p->par.data, rec->pkt, rec->len,
				data_at_crf, p)) {
		if (!rec->lost)
			p->first_lost += rec->sends <= 1;
		rec->lost = true;
	}
	p->par.data.delay_ns -= extra;
}

static void finalize(struct crem_pair *p, struct crem_pair_rec *r)
{
	p->left_finalized += r->lost && !r->restored && !r->absent;
	free(r->pkt);
	memset(r, 0, sizeof(*r));
}

static void send_one(struct crem_pair *p)
{
	struct crem_traffic_pkt info;
	u8 buf[MAX_PKT];
	size_t len = crem_traffic_next(&p->traffic, buf, sizeof(buf), &info);
	struct crem_pair_rec *rec;
	u32 j;

	if (!len)
		return;
	/* Nothing was outstanding: the retransmission timer starts now. */
	if (p->acked == p->next_psn)
		p->ack_progress_ns = p->sim.now_ns;
	for (j = 0; j < info.span; j++) {
		rec = &p->rec[crem_psn_add(info.psn, j) % CREM_PAIR_RECS];
		if (rec->used)
			finalize(p, rec);
		rec->used = true;
		rec->psn = crem_psn_add(info.psn, j);
		rec->absent = j > 0;
		rec->sent_ns = p->sim.now_ns;
		rec->last_sent_ns = p->sim.now_ns;
	}
	rec = &p->rec[info.psn % CREM_PAIR_RECS];
	rec->pkt = malloc(len);
	if (!rec->pkt)
		return;
	memcpy(rec->pkt, buf, len);
	rec->len = len;
	p->sources++;
	p->source_bytes += len - (p->par.ipv6 ? 40 : 20) - 8;
	p->next_psn = crem_psn_add(info.psn, info.span);
	csf_hook_and_send(p, rec);
}

static void send_tick(struct crem_sim *sim, void *arg, const u8 *data,
		      size_t len)
{
	struct crem_pair *p = arg;

	if (!p->to_send)
		return;
	/*
	 * Like the RDMA transport, never more than a window unacknowledged,
	 * and nothing new while a resend round runs (go-back-N).
	 */
	if (p->resending ||
	    crem_psn_diff(p->next_psn, p->acked) >= (s32)CREM_PAIR_WINDOW) {
		crem_sim_at(sim, sim->now_ns + p->send_gap_ns, send_tick, p,
			    NULL, 0);
		return;
	}
	p->to_send--;
	send_one(p);
	if (p->to_send)
		crem_sim_at(sim, sim->now_ns + p->send_gap_ns, send_tick, p,
			    NULL, 0);
}

void crem_pair_send_kind(struct crem_pair *p, enum crem_traffic_kind kind,
			 u32 bytes)
{
	p->traffic.kind = kind;
	p->traffic.left = bytes;
	p->traffic.started = false;
	send_one(p);
}

void crem_pair_send(struct crem_pair *p, u32 count, u64 gap_ns)
{
	bool idle = !p->to_send;

	p->to_send += count;
	p->send_gap_ns = gap_ns;
	if (idle && count)
		send_tick(&p->sim, p, NULL, 0);
}

/* ---- CREM messages ----------------------------------------------------- */

static void mark_requested(struct crem_pair *p, const struct crem_msg *m)
{
	const struct crem_wire_request *q = &m->request;
	struct crem_pair_rec *r;
	unsigned int i, j;

	if (m->type != CREM_MSG_REPAIR_REQUEST)
		return;
	if (m->flags & CREM_REQ_F_RANGES) {
		for (i = 0; i < q->nranges; i++) {
			struct crem_psn_range g = crem_wire_range(m, i);

			for (j = 0; j < g.count; j++) {
				r = crem_pair_rec(p, crem_psn_add(g.start, j));
				if (r)
					r->requested = true;
			}
		}
		return;
	}
	crem_set_for_each(j, &q->lost) {
		r = crem_pair_rec(p, crem_psn_add(q->block_start, j));
		if (r)
			r->requested = true;
	}
}

static bool in_use(void *ctx, u32 id)
{
	return false;
}

/*
 * The owner's part of decoding (crem_crf_decode_claim()): every block due
 * is decoded after the engine call that made it due, as the kernel's
 * engine work does, but here at once.
 */
static void crf_decode(struct crem_pair *p)
{
	struct crem_crf_decode job;

	if (p->have_deferred || p->no_decode)
		return;
	while (p->crf_up && crem_crf_decode_claim(&p->crf, &job)) {
		if (p->defer_decode) {
			p->deferred = job;
			p->have_deferred = true;
			return;
		}
		p->coded++;
		p->coded_in_packet_call += p->in_packet_call;
		crem_crf_decode_run(&job, p->work);
		crem_crf_decode_finish(&p->crf, &job);
	}
}

void crem_pair_finish_decode(struct crem_pair *p)
{
	if (!p->have_deferred)
		return;
	p->have_deferred = false;
	p->coded++;
	crem_crf_decode_run(&p->deferred, p->work);
	crem_crf_decode_finish(&p->crf, &p->deferred);
}

static int send_msg(struct crem_pair *p, int dir, const u8 *msg, size_t len,
		    u8 dscp);

/* As the kernel's receive path: a Flow ID it does not have may get CLOSE. */
static void answer_unknown(struct crem_pair *p, const struct crem_msg *m)
{
	u8 buf[CREM_CRF_UNKNOWN_ANSWER_MAX];
	int len = crem_crf_answer_unknown(m, buf, sizeof(buf));

	if (len > 0) {
		p->closes_unknown++;
		send_msg(p, CREM_PAIR_REV, buf, len, 0);
	}
}

static void msg_at_crf(struct crem_sim *sim, void *arg, const u8 *data,
		       size_t len)
{
	struct crem_pair *p = arg;
	struct crem_msg m;

	if (len < WRAP_HDR || crem_wire_parse(data + WRAP_HDR, len - WRAP_HDR,
					      &m, NULL) != CREM_WIRE_OK)
		return;
	if (!p->crf_up && m.type == CREM_MSG_HELLO) {
		p->crf_up = !crem_crf_start(&p->crf, &p->crf_env, &p->crf,
					    &p->par.crf_cfg, &m, in_use, p);
		if (p->crf_up)
			crem_crf_answer(&p->crf);
		return;
	}
	if (!p->crf_up ||
	    (m.type != CREM_MSG_HELLO && m.flow_id != p->crf.flow_id)) {
		answer_unknown(p, &m);
		return;
	}
	crem_crf_receive(&p->crf, &m, (data[1] & 3) == 3);
	crf_decode(p);
	if (p->crf.state == CREM_CRF_CLOSED)
		p->crf_up = false;
}

static void msg_at_csf(struct crem_sim *sim, void *arg, const u8 *data,
		       size_t len)
{
	struct crem_pair *p = arg;
	struct crem_msg m;

	if (!p->csf_up || len < WRAP_HDR ||
	    crem_wire_parse(data + WRAP_HDR, len - WRAP_HDR, &m, NULL) !=
	    CREM_WIRE_OK)
		return;
	crem_csf_receive(&p->csf, &m, (data[1] & 3) == 3);
}

int crem_pair_path_report(struct crem_pair *p, struct crem_msg *m)
{
	u8 buf[2048];
	struct crem_msg parsed;
	int len = crem_wire_build(m, buf, sizeof(buf));

	if (len < 0)
		return len;
	if (crem_wire_parse(buf, len, &parsed, NULL) != CREM_WIRE_OK)
		return -EINVAL;
	return crem_csf_receive(&p->csf, &parsed, false);
}

/* A CREM message, wrapped in IPv4 with ECT(0) and the DSCP, onto a path. */
static int send_msg(struct crem_pair *p, int dir, const u8 *msg, size_t len,
		    u8 dscp)
{
	u8 buf[WRAP_HDR + MAX_PKT];
	struct crem_msg m;
	bool drop;

	if (len > MAX_PKT ||
	    crem_wire_parse(msg, len, &m, NULL) != CREM_WIRE_OK)
		return -EINVAL;
	memset(buf, 0, WRAP_HDR);
	buf[0] = 0x45;
	buf[1] = dscp << 2 | 2;
	crem_put16(buf + 2, WRAP_HDR + len);
	buf[8] = 64;
	buf[9] = 17;
	memcpy(buf + WRAP_HDR, msg, len);
	if (p->mangle_msg)
		p->mangle_msg(p, dir, buf + WRAP_HDR, len);
	if (dir == CREM_PAIR_REV)
		mark_requested(p, &m);
	if (dir == CREM_PAIR_FWD && m.type == CREM_MSG_REPAIR)
		p->repair_bytes += len;
	drop = p->drop_msg && p->drop_msg(p, dir, &m);
	if (!drop)
		drop = !crem_sim_path_send(&p->sim,
					   dir == CREM_PAIR_FWD ? &p->par.fwd :
					   &p->par.rev, buf, WRAP_HDR + len,
					   dir == CREM_PAIR_FWD ? msg_at_crf :
					   msg_at_csf, p);
	log_msg(p, dir, &m, drop, dscp);
	return 0;
}

/* ---- the two environments ------------------------------------------- */

static u64 env_now(void *ctx)
{
	return ((struct crem_pair *)ctx)->sim.now_ns;
}

static void csf_arm(void *ctx, void *owner, u64 deadline)
{
	struct crem_pair *p = ctx;

	if (deadline != CREM_NO_DEADLINE)
		deadline += p->par.csf_timer_late_ns;
	crem_sim_timer_arm(&p->sim, &p->csf_timer, deadline);
}

static void crf_arm(void *ctx, void *owner, u64 deadline)
{
	struct crem_pair *p = ctx;

	if (deadline != CREM_NO_DEADLINE)
		deadline += p->par.crf_timer_late_ns;
	crem_sim_timer_arm(&p->sim, &p->crf_timer, deadline);
}

static int csf_send(void *ctx, void *owner, const u8 *msg, size_t len, u8 dscp)
{
	return send_msg(ctx, CREM_PAIR_FWD, msg, len, dscp);
}

static int crf_send(void *ctx, void *owner, const u8 *msg, size_t len, u8 dscp)
{
	return send_msg(ctx, CREM_PAIR_REV, msg, len, dscp);
}

static void crf_deliver(void *ctx, void *owner, const u8 *pkt, size_t len)
{
	struct crem_pair *p = ctx;

	if (p->in_source_call)
		queue_delivery(p, pkt, len, true);
	else
		rdma_receive(p, pkt, len, true);
}

static void crf_release(void *ctx, void *owner, void *held)
{
	struct crem_pair *p = ctx;
	size_t len;

	memcpy(&len, held, sizeof(len));
	if (p->in_source_call)
		queue_delivery(p, (u8 *)held + sizeof(len), len, false);
	else
		rdma_receive(p, (u8 *)held + sizeof(len), len, false);
	free(held);
}

static void env_random(void *ctx, void *buf, size_t len)
{
	struct crem_pair *p = ctx;
	u8 *b = buf;
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = (u8)crem_sim_rng_next(&p->rng);
}

static void *env_alloc(void *ctx, void *owner, size_t size)
{
	struct crem_pair *p = ctx;
	void *mem;

	if (p->par.fail_alloc_nth && ++p->alloc_calls == p->par.fail_alloc_nth)
		return NULL;
	if (owner == &p->crf && p->par.crf_mem_limit &&
	    p->crf_mem_now + size > p->par.crf_mem_limit)
		return NULL;
	mem = malloc(size);
	if (mem) {
		/* alloc() promises no contents: the engine must not rely on any. */
		memset(mem, 0x5a, size);
		if (owner == &p->crf)
			p->crf_mem_now += size;
		p->mem_now += size;
		p->allocs++;
		if (p->mem_now > p->mem_peak)
			p->mem_peak = p->mem_now;
	}
	return mem;
}

static void env_free(void *ctx, void *owner, void *mem, size_t size)
{
	struct crem_pair *p = ctx;

	if (owner == &p->crf)
		p->crf_mem_now -= size;
	p->mem_now -= size;
	p->allocs--;
	free(mem);
}

static struct crem_fec_work *env_work(void *ctx)
{
	struct crem_pair *p = ctx;

	p->coded++;
	p->coded_in_packet_call += p->in_packet_call;
	return p->work;
}

static void env_event(void *ctx, void *owner, const struct crem_event *ev)
{
	struct crem_pair *p = ctx;

	if (ev->type <= CREM_EV_BREAKER)
		p->events[ev->type]++;
}

static const struct crem_env_ops csf_ops = {
	.now_ns = env_now, .arm = csf_arm, .send = csf_send,
	.random = env_random, .alloc = env_alloc, .free = env_free,
	.work = env_work, .event = env_event,
};

static const struct crem_env_ops crf_ops = {
	.now_ns = env_now, .arm = crf_arm, .send = crf_send,
	.deliver = crf_deliver, .release = crf_release,
	.random = env_random, .alloc = env_alloc, .free = env_free,
	.work = env_work, .event = env_event,
};

static void csf_fire(struct crem_sim_timer *t)
{
	struct crem_pair *p = pair_of(t, csf_timer);

	/* The kernel runs timeouts in softirq or its tick work: never coding. */
	p->in_packet_call = true;
	if (p->csf_up) {
		crem_csf_timeout(&p->csf);
		if (p->csf.armed_ns <= p->sim.now_ns)
			p->timeouts_rearmed_past++;
	}
	p->in_packet_call = false;
}

static void crf_fire(struct crem_sim_timer *t)
{
	struct crem_pair *p = pair_of(t, crf_timer);

	if (!p->crf_up)
		return;
	p->in_packet_call = true;
	crem_crf_timeout(&p->crf);
	p->in_packet_call = false;
	/* In the kernel the decode waits for a worker that may not run. */
	if (p->crf.state == CREM_CRF_ACTIVE &&
	    p->crf.armed_ns <= p->sim.now_ns &&
	    ++p->timeouts_rearmed_past > 1000)
		crem_crf_close(&p->crf, CREM_CLOSE_NORMAL);	/* end the loop */
	crf_decode(p);
	if (p->crf.state == CREM_CRF_CLOSED)
		p->crf_up = false;
}

int crem_pair_init(struct crem_pair *p, const struct crem_pair_params *par)
{
	crem_fec_init();
	memset(p, 0, sizeof(*p));
	p->par = *par;
	crem_sim_init(&p->sim);
	p->rng.state = par->seed * 0x9e3779b97f4a7c15ull + 1;
	p->par.data.rng.state = par->seed + 11;
	p->par.ack.rng.state = par->seed + 12;
	p->par.fwd.rng.state = par->seed + 13;
	p->par.rev.rng.state = par->seed + 14;
	p->csf_env = (struct crem_env){ .ops = &csf_ops, .ctx = p };
	p->crf_env = (struct crem_env){ .ops = &crf_ops, .ctx = p };
	p->csf_timer.fire = csf_fire;
	p->crf_timer.fire = crf_fire;
	p->rdma_timer.fire = rdma_timer_fire;
	p->csf_timer.deadline = CREM_NO_DEADLINE;
	p->crf_timer.deadline = CREM_NO_DEADLINE;
	p->keep_log = true;
	p->work = malloc(sizeof(*p->work));
	p->rec = calloc(CREM_PAIR_RECS, sizeof(*p->rec));
	p->ring = calloc(par->csf_cfg.max_blocks, sizeof(*p->ring));
	p->latency_cap = 1u << 22;
	p->latency_ns = malloc(p->latency_cap * sizeof(*p->latency_ns));
	if (!p->work || !p->rec || !p->ring || !p->latency_ns)
		return -ENOMEM;
	crem_traffic_init(&p->traffic, par->seed, par->first_psn);
	if (par->ipv6) {
		static const u8 a6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
		static const u8 b6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };

		p->traffic.af = 6;
		memcpy(p->traffic.src, a6, 16);
		memcpy(p->traffic.dst, b6, 16);
	}
	p->next_psn = par->first_psn & CREM_PSN_MASK;
	p->rdma_next = p->next_psn;
	p->acked = p->next_psn;
	if (par->rdma_rto_ns)
		crem_sim_timer_arm(&p->sim, &p->rdma_timer,
				   par->rdma_rto_ns / 4);
	return par->manual_start ? 0 : crem_pair_start(p);
}

int crem_pair_start(struct crem_pair *p)
{
	struct crem_flow_desc desc = { 0 };
	int err;

	desc.af = p->traffic.af;
	memcpy(desc.src, p->traffic.src, 16);
	memcpy(desc.dst, p->traffic.dst, 16);
	desc.dest_qp = p->traffic.dest_qp;
	desc.rdma_mtu = p->traffic.mtu;
	err = crem_csf_start(&p->csf, &p->csf_env, &p->csf, &p->par.csf_cfg,
			     &desc, p->next_psn, p->ring);
	if (err)
		return err;
	p->csf_up = true;
	return 0;
}

void crem_pair_run(struct crem_pair *p, u64 until_ns)
{
	crem_sim_run(&p->sim, until_ns);
	if (p->sim.now_ns < until_ns)
		p->sim.now_ns = until_ns;
}

bool crem_pair_establish(struct crem_pair *p, u64 limit_ns)
{
	while (p->sim.now_ns < limit_ns) {
		if (p->csf_up && p->csf.state == CREM_CSF_ACTIVE &&
		    (crem_csf_config(&p->csf)->k ||
		     p->csf.param.state == CREM_PARAM_ACKED))
			return true;
		crem_pair_run(p, p->sim.now_ns + 100 * CREM_US);
	}
	return false;
}

u64 crem_pair_left_to_rdma(const struct crem_pair *p)
{
	u64 n = 0;
	u32 i;

	for (i = 0; i < CREM_PAIR_RECS; i++)
		n += p->rec[i].used && p->rec[i].lost && !p->rec[i].restored &&
		     !p->rec[i].absent;
	return n + p->left_finalized;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

u64 crem_pair_latency(struct crem_pair *p, double q)
{
	size_t i;

	if (!p->nlatency)
		return 0;
	qsort(p->latency_ns, p->nlatency, sizeof(u64), cmp_u64);
	i = (size_t)(q * (p->nlatency - 1) + 0.5);
	return p->latency_ns[i];
}

void crem_pair_free(struct crem_pair *p)
{
	u32 i;

	if (p->csf_up)
		crem_csf_destroy(&p->csf);
	if (p->crf_up)
		crem_crf_destroy(&p->crf);
	p->csf_up = false;
	p->crf_up = false;
	if (p->rec)
		for (i = 0; i < CREM_PAIR_RECS; i++)
			free(p->rec[i].pkt);
	crem_sim_free(&p->sim);
	free(p->rec);
	free(p->ring);
	free(p->work);
	free(p->log);
	free(p->rx);
	free(p->latency_ns);
	free(p->queued);
}

bool crem_pair_open_count_ok(const struct crem_pair *p)
{
	unsigned int i, open = 0;

	if (!p->crf_up || !crem_crf_reserved(&p->crf))
		return p->crf.nopen == 0;
	for (i = 0; i < p->crf.cfg.max_open_blocks; i++)
		open += p->crf.slots[i].state == CREM_SLOT_OPEN;
	return open == p->crf.nopen;
}
