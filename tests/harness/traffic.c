// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include <linux/crem.h>

#include "crem/core/bytes.h"
#include "crem/core/psn.h"
#include "crem/core/roce.h"
#include "traffic.h"

void crem_traffic_init(struct crem_traffic *t, u64 seed, u32 first_psn)
{
	static const u8 a[4] = { 192, 0, 2, 1 }, b[4] = { 192, 0, 2, 2 };
	unsigned int k;

	memset(t, 0, sizeof(*t));
	t->rng.state = seed;
	t->af = 4;
	memcpy(t->src, a, 4);
	memcpy(t->dst, b, 4);
	t->sport = 49152 + (u16)(seed & 0x3fff);
	t->dscp = 26;
	t->ect = true;
	t->dest_qp = 0x11 + (u32)(seed & 0xffff);
	t->psn = first_psn & CREM_PSN_MASK;
	t->mtu = 1024;
	t->max_msg = 8192;
	for (k = 0; k < CREM_TRAFFIC_NR_KINDS; k++)
		t->weight[k] = 1;
}

/*
 * One RoCEv2 packet from @src to @dst: IP, UDP, BTH, the extension header
 * bytes @ext, @data_len bytes of data (random), the pad and the ICRC.
 */
static size_t build(struct crem_sim_rng *rng, u8 af, const u8 *src,
		    const u8 *dst, u16 sport, u8 tos, u8 opcode, bool ackreq,
		    u32 dest_qp, u32 psn, const u8 *ext, size_t ext_len,
		    size_t data_len, u8 *buf, size_t cap)
{
	size_t ip_hdr = af == 4 ? 20 : 40, pad = (4 - data_len % 4) % 4;
	size_t udp_len = 8 + CREM_ROCE_BTH_LEN + ext_len + data_len + pad +
			 CREM_ROCE_ICRC_LEN;
	size_t len = ip_hdr + udp_len, i;
	u8 *u = buf + ip_hdr, *b = u + 8, *d;
	u32 icrc;

	if (len > cap || len > 0xffff)
		return 0;
	memset(buf, 0, ip_hdr + 8 + CREM_ROCE_BTH_LEN);
	if (af == 4) {
		buf[0] = 0x45;
		buf[1] = tos;
		crem_put16(buf + 2, len);
		crem_put16(buf + 6, 0x4000);		/* DF */
		buf[8] = 64;
		buf[9] = 17;
		memcpy(buf + 12, src, 4);
		memcpy(buf + 16, dst, 4);
		crem_ipv4_set_checksum(buf);
	} else {
		buf[0] = 0x60 | tos >> 4;
		buf[1] = tos << 4;
		crem_put16(buf + 4, udp_len);
		buf[6] = 17;
		buf[7] = 64;
		memcpy(buf + 8, src, 16);
		memcpy(buf + 24, dst, 16);
	}
	crem_put16(u, sport);
	crem_put16(u + 2, CREM_ROCEV2_PORT);
	crem_put16(u + 4, udp_len);
	b[0] = opcode;
	b[1] = pad << 4;
	crem_put16(b + 2, 0xffff);
	crem_put24(b + 5, dest_qp);
	b[8] = ackreq ? 0x80 : 0;
	crem_put24(b + 9, psn);
	memcpy(b + CREM_ROCE_BTH_LEN, ext, ext_len);
	d = b + CREM_ROCE_BTH_LEN + ext_len;
	for (i = 0; i < data_len; i++)
		d[i] = (u8)crem_sim_rng_next(rng);
	memset(d + data_len, 0, pad);
	icrc = crem_roce_icrc(buf, len);
	d += data_len + pad;
	d[0] = icrc;
	d[1] = icrc >> 8;
	d[2] = icrc >> 16;
	d[3] = icrc >> 24;
	return len;
}

static enum crem_traffic_kind pick_kind(struct crem_traffic *t)
{
	unsigned int total = 0, k, r;

	for (k = 0; k < CREM_TRAFFIC_NR_KINDS; k++)
		total += t->weight[k];
	r = total ? crem_sim_rng_next(&t->rng) % total : 0;
	for (k = 0; k < CREM_TRAFFIC_NR_KINDS; k++) {
		if (r < t->weight[k])
			return k;
		r -= t->weight[k];
	}
	return CREM_TRAFFIC_WRITE;
}

/* Opcodes of a multi-packet message: first, middle, last, only. */
static u8 seg_opcode(enum crem_traffic_kind kind, bool first, bool last)
{
	if (kind == CREM_TRAFFIC_SEND)
		return first ? (last ? CREM_ROCE_OP_SEND_ONLY : CREM_ROCE_OP_SEND_FIRST) :
			       (last ? CREM_ROCE_OP_SEND_LAST : CREM_ROCE_OP_SEND_MIDDLE);
	return first ? (last ? CREM_ROCE_OP_WRITE_ONLY : CREM_ROCE_OP_WRITE_FIRST) :
		       (last ? CREM_ROCE_OP_WRITE_LAST : CREM_ROCE_OP_WRITE_MIDDLE);
}

size_t crem_traffic_next(struct crem_traffic *t, u8 *buf, size_t cap,
			 struct crem_traffic_pkt *info)
{
	u8 ext[28], tos = t->dscp << 2 | (t->ect ? 2 : 0), opcode;
	size_t ext_len = 0, data = 0, len;
	u32 span = 1, size;
	bool last = true;

	if (!t->left) {
		t->kind = pick_kind(t);
		t->left = 1 + crem_sim_rng_next(&t->rng) % t->max_msg;
		t->started = false;
	}
	size = t->left;
	switch (t->kind) {
	case CREM_TRAFFIC_READ:
		opcode = CREM_ROCE_OP_READ_REQUEST;
		crem_put64(ext, 0x7f0000000000ull + t->psn);
		crem_put32(ext + 8, 0x1000 + t->dest_qp);
		crem_put32(ext + 12, size);
		ext_len = 16;
		span = size / t->mtu + (size % t->mtu != 0);
		t->left = 0;
		break;
	case CREM_TRAFFIC_ATOMIC:
		opcode = crem_sim_rng_next(&t->rng) & 1 ? CREM_ROCE_OP_FETCH_ADD :
							    CREM_ROCE_OP_CMP_SWAP;
		crem_put64(ext, 0x7f0000000000ull + 8 * (t->psn & 0xff));
		crem_put32(ext + 8, 0x1000 + t->dest_qp);
		crem_put64(ext + 12, crem_sim_rng_next(&t->rng));
		crem_put64(ext + 20, crem_sim_rng_next(&t->rng));
		ext_len = 28;
		t->left = 0;
		break;
	default:
		data = size < t->mtu ? size : t->mtu;
		last = data == size;
		opcode = seg_opcode(t->kind, !t->started, last);
		if (!t->started && t->kind == CREM_TRAFFIC_WRITE) {
			crem_put64(ext, 0x7f0000000000ull + t->psn);
			crem_put32(ext + 8, 0x1000 + t->dest_qp);
			crem_put32(ext + 12, size);
			ext_len = 16;
		}
		t->started = true;
		t->left -= data;
		break;
	}
	len = build(&t->rng, t->af, t->src, t->dst, t->sport, tos, opcode,
		    last, t->dest_qp, t->psn, ext, ext_len, data, buf, cap);
	if (!len)
		return 0;
	info->psn = t->psn;
	info->span = span;
	info->opcode = opcode;
	info->last = last;
	t->psn = crem_psn_add(t->psn, span);
	return len;
}

size_t crem_traffic_ack(const struct crem_traffic *t, u32 psn, u8 syndrome,
			u32 msn, u8 *buf, size_t cap)
{
	struct crem_sim_rng unused = { 0 };
	u8 aeth[4];

	aeth[0] = syndrome;
	crem_put24(aeth + 1, msn);
	return build(&unused, t->af, t->dst, t->src, t->sport, t->dscp << 2,
		     CREM_ROCE_OP_ACK, false, t->dest_qp, psn, aeth,
		     sizeof(aeth), 0, buf, cap);
}
