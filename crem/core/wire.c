// SPDX-License-Identifier: GPL-2.0
/*
 * CREM message parsing and building (see wire.h).  Offsets are the draft's
 * figures, counted from the end of the 8-byte common header.
 */
#include "bytes.h"
#include "wire.h"

#define HDR		CREM_COMMON_HDR_LEN
#define REPAIR_FIXED	12
#define HELLO_FIXED	24	/* plus two addresses */
#define HELLO_ACK_LEN	24
#define PARAM_UPDATE_LEN 12
#define PARAM_ACK_LEN	4
#define REQUEST_FIXED	12
#define RANGES_FIXED	4
#define LOSS_REPORT_LEN	32
#define PATH_FIXED	8	/* plus two addresses */
#define HOP_FIXED	20
#define CLOSE_LEN	4

static const char *const reason_names[] = {
	[CREM_WIRE_OK] = "ok",
	[CREM_WIRE_SHORT_DATAGRAM] = "short_datagram",
	[CREM_WIRE_BAD_VERSION] = "bad_version",
	[CREM_WIRE_BAD_TYPE] = "bad_type",
	[CREM_WIRE_LENGTH_MISMATCH] = "length_mismatch",
	[CREM_WIRE_SHORT_FOR_TYPE] = "short_for_type",
	[CREM_WIRE_BAD_SIZE] = "bad_size",
	[CREM_WIRE_BAD_K] = "bad_k",
	[CREM_WIRE_BAD_INDEX] = "bad_index",
	[CREM_WIRE_BAD_BITMAP] = "bad_bitmap",
	[CREM_WIRE_BAD_SYMBOL_LENGTH] = "bad_symbol_length",
	[CREM_WIRE_BAD_AF] = "bad_af",
	[CREM_WIRE_TOO_MANY_ENTRIES] = "too_many_entries",
	[CREM_WIRE_BAD_ENTRIES] = "bad_entries",
	[CREM_WIRE_BAD_RANGES] = "bad_ranges",
	[CREM_WIRE_BAD_SUGGESTED_M] = "bad_suggested_m",
};

_Static_assert(ARRAY_SIZE(reason_names) == CREM_WIRE_NR_REASONS, "a name for each");

const char *crem_wire_reason_name(unsigned int reason)
{
	return reason < CREM_WIRE_NR_REASONS ? reason_names[reason] : NULL;
}

static unsigned int addr_len(u8 af)
{
	return af == CREM_AF_INET ? 4 : af == CREM_AF_INET6 ? 16 : 0;
}

/* Bit j of a bitmap is bit 31 - j % 32 of big-endian word j / 32. */
static void get_bitmap(const u8 *p, unsigned int k, struct crem_fec_set *s)
{
	unsigned int j;

	crem_set_clear(s);
	for (j = 0; j < k; j++)
		if (p[j / 8] & (0x80 >> (j % 8)))
			crem_set_add(s, j);
}

static void put_bitmap(u8 *p, unsigned int k, const struct crem_fec_set *s)
{
	unsigned int j;

	memset(p, 0, 4 * CREM_WIRE_BITMAP_WORDS(k));
	for (j = 0; j < k; j++)
		if (crem_set_has(s, j))
			p[j / 8] |= 0x80 >> (j % 8);
}

static enum crem_wire_reason fixed_size(size_t have, size_t want)
{
	if (have < want)
		return CREM_WIRE_SHORT_FOR_TYPE;
	return have > want ? CREM_WIRE_BAD_SIZE : CREM_WIRE_OK;
}

/* Scheme 0 copies source i, so i < k; the coding schemes need i + k <= 255. */
static bool repair_index_ok(u8 scheme, unsigned int index, unsigned int k)
{
	if (scheme == CREM_FEC_SOURCE_COPY)
		return index < k;
	return index + k <= 255;
}

static enum crem_wire_reason parse_repair(struct crem_msg *m, const u8 *p,
					  size_t n)
{
	struct crem_wire_repair *r = &m->repair;
	bool retx = m->flags & CREM_REPAIR_F_RETX;
	size_t bitmap, need;

	if (n < REPAIR_FIXED)
		return CREM_WIRE_SHORT_FOR_TYPE;
	r->config_id = p[0];
	r->scheme = p[1];
	r->k = p[2];
	r->index = p[3];
	r->block_start = crem_get24(p + 4);
	r->session_id = crem_get16(p + 8);
	r->symbol_len = crem_get16(p + 10);
	if (!r->k)
		return CREM_WIRE_BAD_K;
	if (!repair_index_ok(r->scheme, r->index, r->k))
		return CREM_WIRE_BAD_INDEX;

	bitmap = 4 * CREM_WIRE_BITMAP_WORDS(r->k);
	need = REPAIR_FIXED + bitmap * (retx ? 2 : 1);
	if (n < need)
		return CREM_WIRE_BAD_BITMAP;
	get_bitmap(p + REPAIR_FIXED, r->k, &r->present);
	if (!crem_set_count(&r->present))
		return CREM_WIRE_BAD_BITMAP;
	crem_set_clear(&r->lost);
	if (retx) {
		get_bitmap(p + REPAIR_FIXED + bitmap, r->k, &r->lost);
		if (!crem_set_count(&r->lost) ||
		    !crem_set_subset(&r->lost, &r->present))
			return CREM_WIRE_BAD_BITMAP;
	}
	if (m->flags & CREM_REPAIR_F_INFO) {
		if (r->symbol_len || n != need)
			return CREM_WIRE_BAD_SYMBOL_LENGTH;
		r->symbol = NULL;
		return CREM_WIRE_OK;
	}
	if (!r->symbol_len || n - need != r->symbol_len)
		return CREM_WIRE_BAD_SYMBOL_LENGTH;
	r->symbol = p + need;
	return CREM_WIRE_OK;
}

/* The twelve octets HELLO and HELLO_ACK share. */
static enum crem_wire_reason parse_limits(struct crem_wire_hello *h,
					  const u8 *p)
{
	h->flow_kind = p[0];
	h->af = p[1];
	h->schemes = crem_get16(p + 2);
	h->max_k = p[4];
	h->max_m = p[5];
	h->max_t = crem_get16(p + 6);
	h->rdma_mtu = crem_get16(p + 8);
	return h->max_k ? CREM_WIRE_OK : CREM_WIRE_BAD_K;
}

static enum crem_wire_reason parse_hello(struct crem_msg *m, const u8 *p,
					 size_t n)
{
	struct crem_wire_hello *h = &m->hello;
	enum crem_wire_reason why;
	unsigned int a;

	if (n < 2)
		return CREM_WIRE_SHORT_FOR_TYPE;
	a = addr_len(p[1]);
	if (!a)
		return CREM_WIRE_BAD_AF;
	why = fixed_size(n, HELLO_FIXED + 2 * a);
	if (why)
		return why;
	why = parse_limits(h, p);
	if (why)
		return why;
	h->nonce = crem_get64(p + 12);
	memset(h->src, 0, sizeof(h->src));
	memset(h->dst, 0, sizeof(h->dst));
	memcpy(h->src, p + 20, a);
	memcpy(h->dst, p + 20 + a, a);
	h->flow_label = crem_get32(p + 20 + 2 * a);
	return CREM_WIRE_OK;
}

static enum crem_wire_reason parse_hello_ack(struct crem_msg *m, const u8 *p,
					     size_t n)
{
	struct crem_wire_hello_ack *h = &m->hello_ack;
	struct crem_wire_hello limits;
	enum crem_wire_reason why = fixed_size(n, HELLO_ACK_LEN);

	if (why)
		return why;
	if (!addr_len(p[1]))
		return CREM_WIRE_BAD_AF;
	why = parse_limits(&limits, p);
	if (why)
		return why;
	h->flow_kind = limits.flow_kind;
	h->af = limits.af;
	h->schemes = limits.schemes;
	h->max_k = limits.max_k;
	h->max_m = limits.max_m;
	h->max_t = limits.max_t;
	h->rdma_mtu = limits.rdma_mtu;
	h->nonce = crem_get64(p + 12);
	h->max_open_blocks = crem_get16(p + 20);
	return CREM_WIRE_OK;
}

static enum crem_wire_reason parse_param_update(struct crem_msg *m,
						const u8 *p, size_t n)
{
	struct crem_wire_param_update *u = &m->param_update;
	enum crem_wire_reason why = fixed_size(n, PARAM_UPDATE_LEN);

	if (why)
		return why;
	u->config_id = p[0];
	u->scheme = p[1];
	u->k = p[2];
	u->m = p[3];
	u->symbol_len = crem_get16(p + 4);
	u->effective_psn = crem_get24(p + 8);
	if (!u->k)
		return CREM_WIRE_BAD_K;
	if (u->m && !repair_index_ok(u->scheme, u->m - 1, u->k))
		return CREM_WIRE_BAD_INDEX;
	return u->symbol_len ? CREM_WIRE_OK : CREM_WIRE_BAD_SYMBOL_LENGTH;
}

static enum crem_wire_reason parse_param_ack(struct crem_msg *m, const u8 *p,
					     size_t n)
{
	enum crem_wire_reason why = fixed_size(n, PARAM_ACK_LEN);

	if (why)
		return why;
	m->param_ack.config_id = p[0];
	m->param_ack.status = p[1];
	return CREM_WIRE_OK;
}

static enum crem_wire_reason parse_ranges(struct crem_wire_request *q,
					  const u8 *p, size_t n)
{
	unsigned int i;

	if (n < RANGES_FIXED)
		return CREM_WIRE_SHORT_FOR_TYPE;
	q->request_id = crem_get16(p);
	q->nranges = crem_get16(p + 2);
	if (!q->nranges || n - RANGES_FIXED != 4 * (size_t)q->nranges)
		return CREM_WIRE_BAD_RANGES;
	q->raw_ranges = p + RANGES_FIXED;
	q->ranges = NULL;
	for (i = 0; i < q->nranges; i++)
		if (!q->raw_ranges[4 * i + 3])
			return CREM_WIRE_BAD_RANGES;
	return CREM_WIRE_OK;
}

static enum crem_wire_reason parse_request(struct crem_msg *m, const u8 *p,
					   size_t n)
{
	struct crem_wire_request *q = &m->request;
	size_t bitmap;

	if (m->flags & CREM_REQ_F_RANGES)
		return parse_ranges(q, p, n);
	if (n < REQUEST_FIXED)
		return CREM_WIRE_SHORT_FOR_TYPE;
	q->config_id = p[0];
	q->scheme = p[1];
	q->k = p[2];
	q->repairs_held = p[3];
	q->block_start = crem_get24(p + 4);
	q->suggested_m = p[7];
	q->request_id = crem_get16(p + 8);
	q->nranges = 0;
	if (!q->k)
		return CREM_WIRE_BAD_K;
	bitmap = 4 * CREM_WIRE_BITMAP_WORDS(q->k);
	if (n < REQUEST_FIXED + bitmap)
		return CREM_WIRE_BAD_BITMAP;
	if (n > REQUEST_FIXED + bitmap)
		return CREM_WIRE_BAD_SIZE;
	get_bitmap(p + REQUEST_FIXED, q->k, &q->lost);
	if (!crem_set_count(&q->lost))
		return CREM_WIRE_BAD_BITMAP;
	if (q->suggested_m > crem_set_count(&q->lost))
		return CREM_WIRE_BAD_SUGGESTED_M;
	return CREM_WIRE_OK;
}

static enum crem_wire_reason parse_loss_report(struct crem_msg *m,
					       const u8 *p, size_t n)
{
	struct crem_wire_loss_report *l = &m->loss_report;
	enum crem_wire_reason why = fixed_size(n, LOSS_REPORT_LEN);

	if (why)
		return why;
	l->interval_us = crem_get32(p);
	l->expected = crem_get32(p + 4);
	l->received = crem_get32(p + 8);
	l->restored = crem_get32(p + 12);
	l->incomplete_blocks = crem_get32(p + 16);
	l->ce_marked = crem_get32(p + 20);
	l->repairs_received = crem_get32(p + 24);
	l->repairs_ce_marked = crem_get32(p + 28);
	return CREM_WIRE_OK;
}

static enum crem_wire_reason parse_path_report(struct crem_msg *m,
					       const u8 *p, size_t n)
{
	struct crem_wire_path_report *r = &m->path_report;
	size_t pos;
	unsigned int a, e;

	if (n < 4)
		return CREM_WIRE_SHORT_FOR_TYPE;
	r->method = p[0];
	r->nentries = p[1];
	r->af = p[2];
	a = addr_len(r->af);
	if (!a)
		return CREM_WIRE_BAD_AF;
	if (r->nentries > CREM_PATH_MAX_ENTRIES)
		return CREM_WIRE_TOO_MANY_ENTRIES;
	pos = PATH_FIXED + 2 * a;
	if (n < pos)
		return CREM_WIRE_SHORT_FOR_TYPE;
	memset(r->src, 0, sizeof(r->src));
	memset(r->dst, 0, sizeof(r->dst));
	memcpy(r->src, p + 4, a);
	memcpy(r->dst, p + 4 + a, a);
	r->flow_label = crem_get32(p + 4 + 2 * a);
	if (!r->nentries)
		return CREM_WIRE_BAD_ENTRIES;
	for (e = 0; e < r->nentries; e++) {
		struct crem_wire_hop *h = &r->hop[e];

		if (n - pos < HOP_FIXED)
			return CREM_WIRE_BAD_ENTRIES;
		h->node_id = crem_get32(p + pos);
		h->period = crem_get32(p + pos + 4);
		h->lost_count = crem_get32(p + pos + 8);
		h->delay_change_us = (s32)crem_get32(p + pos + 12);
		h->cause = p[pos + 16];
		h->npsns = p[pos + 17];
		pos += HOP_FIXED;
		if (n - pos < 4 * (size_t)h->npsns)
			return CREM_WIRE_BAD_ENTRIES;
		h->raw_dropped = p + pos;
		h->dropped = NULL;
		pos += 4 * (size_t)h->npsns;
	}
	return pos == n ? CREM_WIRE_OK : CREM_WIRE_BAD_ENTRIES;
}

static enum crem_wire_reason parse_close(struct crem_msg *m, const u8 *p,
					 size_t n)
{
	enum crem_wire_reason why = fixed_size(n, CLOSE_LEN);

	if (why)
		return why;
	m->close.reason = crem_get16(p);
	return CREM_WIRE_OK;
}

static enum crem_wire_reason parse(const u8 *buf, size_t len,
				   struct crem_msg *m)
{
	const u8 *p = buf + HDR;
	size_t n;

	if (len < HDR)
		return CREM_WIRE_SHORT_DATAGRAM;
	if (buf[0] >> 4 != CREM_VERSION_1)
		return CREM_WIRE_BAD_VERSION;
	m->type = buf[0] & 0x0f;
	m->flags = buf[1];
	m->length = crem_get16(buf + 2);
	m->flow_id = crem_get32(buf + 4);
	if (m->type < CREM_MSG_REPAIR || m->type > CREM_MSG_CLOSE)
		return CREM_WIRE_BAD_TYPE;
	if (m->length != len)
		return CREM_WIRE_LENGTH_MISMATCH;
	n = len - HDR;

	switch (m->type) {
	case CREM_MSG_REPAIR:
		return parse_repair(m, p, n);
	case CREM_MSG_HELLO:
		return parse_hello(m, p, n);
	case CREM_MSG_HELLO_ACK:
		return parse_hello_ack(m, p, n);
	case CREM_MSG_PARAM_UPDATE:
		return parse_param_update(m, p, n);
	case CREM_MSG_PARAM_ACK:
		return parse_param_ack(m, p, n);
	case CREM_MSG_REPAIR_REQUEST:
		return parse_request(m, p, n);
	case CREM_MSG_LOSS_REPORT:
		return parse_loss_report(m, p, n);
	case CREM_MSG_PATH_REPORT:
		return parse_path_report(m, p, n);
	default:
		return parse_close(m, p, n);
	}
}

enum crem_wire_reason crem_wire_parse(const u8 *buf, size_t len,
				      struct crem_msg *msg,
				      struct crem_wire_stats *stats)
{
	enum crem_wire_reason why = parse(buf, len, msg);

	if (stats)
		stats->result[why]++;
	return why;
}

struct crem_psn_range crem_wire_range(const struct crem_msg *msg,
				      unsigned int i)
{
	const u8 *e = msg->request.raw_ranges + 4 * i;
	struct crem_psn_range r = { .start = crem_get24(e), .count = e[3] };

	return r;
}

u32 crem_wire_dropped_psn(const struct crem_wire_hop *hop, unsigned int i)
{
	return crem_get24(hop->raw_dropped + 4 * i + 1);
}

/*
 * Builders.  Each checks the rules its parser enforces, returns the body's
 * size, and writes the body when @p is not NULL, so that sizing and writing
 * share one layout.
 */
static int build_repair(const struct crem_msg *m, u8 *p)
{
	const struct crem_wire_repair *r = &m->repair;
	bool retx = m->flags & CREM_REPAIR_F_RETX;
	bool info = m->flags & CREM_REPAIR_F_INFO;
	size_t bitmap = 4 * CREM_WIRE_BITMAP_WORDS(r->k);
	size_t size = REPAIR_FIXED + bitmap * (retx ? 2 : 1);

	if (!r->k || !repair_index_ok(r->scheme, r->index, r->k) ||
	    !crem_set_count(&r->present) || !crem_set_within(&r->present, r->k))
		return -EINVAL;
	if (retx && (!crem_set_count(&r->lost) ||
		     !crem_set_subset(&r->lost, &r->present)))
		return -EINVAL;
	if (info ? r->symbol_len != 0 : !r->symbol_len || !r->symbol)
		return -EINVAL;
	if (!info)
		size += r->symbol_len;
	if (!p)
		return size;
	p[0] = r->config_id;
	p[1] = r->scheme;
	p[2] = r->k;
	p[3] = r->index;
	crem_put24(p + 4, r->block_start);
	p[7] = 0;
	crem_put16(p + 8, r->session_id);
	crem_put16(p + 10, r->symbol_len);
	put_bitmap(p + REPAIR_FIXED, r->k, &r->present);
	if (retx)
		put_bitmap(p + REPAIR_FIXED + bitmap, r->k, &r->lost);
	if (!info)
		memcpy(p + REPAIR_FIXED + bitmap * (retx ? 2 : 1), r->symbol,
		       r->symbol_len);
	return size;
}

static void put_limits(u8 *p, u8 flow_kind, u8 af, u16 schemes, u8 max_k,
		       u8 max_m, u16 max_t, u16 mtu)
{
	p[0] = flow_kind;
	p[1] = af;
	crem_put16(p + 2, schemes);
	p[4] = max_k;
	p[5] = max_m;
	crem_put16(p + 6, max_t);
	crem_put16(p + 8, mtu);
	crem_put16(p + 10, 0);
}

static int build_hello(const struct crem_msg *m, u8 *p)
{
	const struct crem_wire_hello *h = &m->hello;
	unsigned int a = addr_len(h->af);

	if (!a || !h->max_k)
		return -EINVAL;
	if (!p)
		return HELLO_FIXED + 2 * a;
	put_limits(p, h->flow_kind, h->af, h->schemes, h->max_k, h->max_m,
		   h->max_t, h->rdma_mtu);
	crem_put64(p + 12, h->nonce);
	memcpy(p + 20, h->src, a);
	memcpy(p + 20 + a, h->dst, a);
	crem_put32(p + 20 + 2 * a, h->flow_label);
	return HELLO_FIXED + 2 * a;
}

static int build_hello_ack(const struct crem_msg *m, u8 *p)
{
	const struct crem_wire_hello_ack *h = &m->hello_ack;

	if (!addr_len(h->af) || !h->max_k)
		return -EINVAL;
	if (!p)
		return HELLO_ACK_LEN;
	put_limits(p, h->flow_kind, h->af, h->schemes, h->max_k, h->max_m,
		   h->max_t, h->rdma_mtu);
	crem_put64(p + 12, h->nonce);
	crem_put16(p + 20, h->max_open_blocks);
	crem_put16(p + 22, 0);
	return HELLO_ACK_LEN;
}

static int build_param_update(const struct crem_msg *m, u8 *p)
{
	const struct crem_wire_param_update *u = &m->param_update;

	if (!u->k || !u->symbol_len ||
	    (u->m && !repair_index_ok(u->scheme, u->m - 1, u->k)))
		return -EINVAL;
	if (!p)
		return PARAM_UPDATE_LEN;
	p[0] = u->config_id;
	p[1] = u->scheme;
	p[2] = u->k;
	p[3] = u->m;
	crem_put16(p + 4, u->symbol_len);
	crem_put16(p + 6, 0);
	crem_put24(p + 8, u->effective_psn);
	p[11] = 0;
	return PARAM_UPDATE_LEN;
}

static int build_param_ack(const struct crem_msg *m, u8 *p)
{
	if (!p)
		return PARAM_ACK_LEN;
	p[0] = m->param_ack.config_id;
	p[1] = m->param_ack.status;
	crem_put16(p + 2, 0);
	return PARAM_ACK_LEN;
}

static int build_ranges(const struct crem_wire_request *q, u8 *p)
{
	unsigned int i;

	if (!q->nranges || !q->ranges)
		return -EINVAL;
	for (i = 0; i < q->nranges; i++)
		if (!q->ranges[i].count)
			return -EINVAL;
	if (!p)
		return RANGES_FIXED + 4 * q->nranges;
	crem_put16(p, q->request_id);
	crem_put16(p + 2, q->nranges);
	for (i = 0; i < q->nranges; i++) {
		crem_put24(p + RANGES_FIXED + 4 * i, q->ranges[i].start);
		p[RANGES_FIXED + 4 * i + 3] = q->ranges[i].count;
	}
	return RANGES_FIXED + 4 * q->nranges;
}

static int build_request(const struct crem_msg *m, u8 *p)
{
	const struct crem_wire_request *q = &m->request;
	size_t size = REQUEST_FIXED + 4 * CREM_WIRE_BITMAP_WORDS(q->k);
	unsigned int x = crem_set_count(&q->lost);

	if (m->flags & CREM_REQ_F_RANGES)
		return build_ranges(q, p);
	if (!q->k || !x || !crem_set_within(&q->lost, q->k) ||
	    q->suggested_m > x)
		return -EINVAL;
	if (!p)
		return size;
	p[0] = q->config_id;
	p[1] = q->scheme;
	p[2] = q->k;
	p[3] = q->repairs_held;
	crem_put24(p + 4, q->block_start);
	p[7] = q->suggested_m;
	crem_put16(p + 8, q->request_id);
	crem_put16(p + 10, 0);
	put_bitmap(p + REQUEST_FIXED, q->k, &q->lost);
	return size;
}

static int build_loss_report(const struct crem_msg *m, u8 *p)
{
	const struct crem_wire_loss_report *l = &m->loss_report;

	if (!p)
		return LOSS_REPORT_LEN;
	crem_put32(p, l->interval_us);
	crem_put32(p + 4, l->expected);
	crem_put32(p + 8, l->received);
	crem_put32(p + 12, l->restored);
	crem_put32(p + 16, l->incomplete_blocks);
	crem_put32(p + 20, l->ce_marked);
	crem_put32(p + 24, l->repairs_received);
	crem_put32(p + 28, l->repairs_ce_marked);
	return LOSS_REPORT_LEN;
}

static int build_path_report(const struct crem_msg *m, u8 *p)
{
	const struct crem_wire_path_report *r = &m->path_report;
	unsigned int a = addr_len(r->af), e, i;
	size_t pos = PATH_FIXED + 2 * a;

	if (!a || !r->nentries || r->nentries > CREM_PATH_MAX_ENTRIES)
		return -EINVAL;
	for (e = 0; e < r->nentries; e++) {
		if (r->hop[e].npsns && !r->hop[e].dropped)
			return -EINVAL;
		pos += HOP_FIXED + 4 * (size_t)r->hop[e].npsns;
	}
	if (!p)
		return pos;
	p[0] = r->method;
	p[1] = r->nentries;
	p[2] = r->af;
	p[3] = 0;
	memcpy(p + 4, r->src, a);
	memcpy(p + 4 + a, r->dst, a);
	crem_put32(p + 4 + 2 * a, r->flow_label);
	pos = PATH_FIXED + 2 * a;
	for (e = 0; e < r->nentries; e++) {
		const struct crem_wire_hop *h = &r->hop[e];

		crem_put32(p + pos, h->node_id);
		crem_put32(p + pos + 4, h->period);
		crem_put32(p + pos + 8, h->lost_count);
		crem_put32(p + pos + 12, (u32)h->delay_change_us);
		p[pos + 16] = h->cause;
		p[pos + 17] = h->npsns;
		crem_put16(p + pos + 18, 0);
		pos += HOP_FIXED;
		for (i = 0; i < h->npsns; i++, pos += 4) {
			p[pos] = 0;
			crem_put24(p + pos + 1, h->dropped[i]);
		}
	}
	return pos;
}

static int build_close(const struct crem_msg *m, u8 *p)
{
	if (!p)
		return CLOSE_LEN;
	crem_put16(p, m->close.reason);
	crem_put16(p + 2, 0);
	return CLOSE_LEN;
}

static const struct {
	int (*build)(const struct crem_msg *m, u8 *p);
	u8 flags;		/* the type's defined flag bits */
} builders[] = {
	[CREM_MSG_REPAIR] = { build_repair, __CREM_REPAIR_F_ALL },
	[CREM_MSG_HELLO] = { build_hello, 0 },
	[CREM_MSG_HELLO_ACK] = { build_hello_ack, 0 },
	[CREM_MSG_PARAM_UPDATE] = { build_param_update, 0 },
	[CREM_MSG_PARAM_ACK] = { build_param_ack, 0 },
	[CREM_MSG_REPAIR_REQUEST] = { build_request, __CREM_REQ_F_ALL },
	[CREM_MSG_LOSS_REPORT] = { build_loss_report, 0 },
	[CREM_MSG_PATH_REPORT] = { build_path_report, __CREM_PATH_F_ALL },
	[CREM_MSG_CLOSE] = { build_close, 0 },
};

int crem_wire_build(struct crem_msg *msg, u8 *buf, size_t cap)
{
	int body;
	size_t len;

	if (msg->type < CREM_MSG_REPAIR || msg->type > CREM_MSG_CLOSE)
		return -EINVAL;
	msg->flags &= builders[msg->type].flags;
	body = builders[msg->type].build(msg, NULL);
	if (body < 0)
		return body;
	len = HDR + (size_t)body;
	if (len > 0xffff)
		return -EINVAL;
	if (len > cap)
		return -ENOSPC;
	buf[0] = CREM_VERSION_1 << 4 | msg->type;
	buf[1] = msg->flags;
	crem_put16(buf + 2, len);
	crem_put32(buf + 4, msg->flow_id);
	builders[msg->type].build(msg, buf + HDR);
	msg->length = len;
	return len;
}
