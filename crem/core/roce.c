// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2 parsing, classification and the invariant CRC (see roce.h).
 */
#include <linux/crem.h>

#include "bytes.h"
#include "roce.h"

#define IPV4_MIN	20
#define IPV6_LEN	40
#define UDP_LEN		8
#define RETH_LEN	16
#define ATOMIC_LEN	28
#define MASKED_CAS_LEN	44
#define AETH_LEN	4
#define ATOMIC_ACK_LEN	8
#define DETH_LEN	8
#define CNP_RSVD_LEN	16

static const char *const result_names[] = {
	[CREM_ROCE_OK] = "ok",
	[CREM_ROCE_NOT_IP] = "not_ip",
	[CREM_ROCE_BAD_IP] = "bad_ip",
	[CREM_ROCE_FRAGMENT] = "fragment",
	[CREM_ROCE_NOT_UDP] = "not_udp",
	[CREM_ROCE_NOT_ROCEV2] = "not_rocev2",
	[CREM_ROCE_BAD_UDP] = "bad_udp",
	[CREM_ROCE_SHORT] = "short",
	[CREM_ROCE_BAD_OPCODE] = "bad_opcode",
	[CREM_ROCE_BAD_LENGTH] = "bad_length",
};

_Static_assert(ARRAY_SIZE(result_names) == CREM_ROCE_NR_RESULTS, "a name for each");

const char *crem_roce_result_name(unsigned int result)
{
	return result < CREM_ROCE_NR_RESULTS ? result_names[result] : NULL;
}

/*
 * What follows the BTH for each base opcode: fixed extension headers,
 * whether data may follow, and the class of the packet.  Variable parts
 * (the atomic ETH's size, the T/C AETH) are resolved in parse_ext().
 */
struct op_info {
	u16 headers;
	bool data;
	bool valid;
	u8 class;
};

#define OP(h, d, c) { .headers = (h), .data = (d), .valid = true, .class = (c) }
#define REQ CREM_ROCE_REQUEST
#define RSP CREM_ROCE_READ_RESPONSE

static const struct op_info op_info[32] = {
	[CREM_ROCE_OP_SEND_FIRST] = OP(0, true, REQ),
	[CREM_ROCE_OP_SEND_MIDDLE] = OP(0, true, REQ),
	[CREM_ROCE_OP_SEND_LAST] = OP(0, true, REQ),
	[CREM_ROCE_OP_SEND_LAST_IMM] = OP(CREM_ROCE_H_IMMDT, true, REQ),
	[CREM_ROCE_OP_SEND_ONLY] = OP(0, true, REQ),
	[CREM_ROCE_OP_SEND_ONLY_IMM] = OP(CREM_ROCE_H_IMMDT, true, REQ),
	[CREM_ROCE_OP_WRITE_FIRST] = OP(CREM_ROCE_H_RETH, true, REQ),
	[CREM_ROCE_OP_WRITE_MIDDLE] = OP(0, true, REQ),
	[CREM_ROCE_OP_WRITE_LAST] = OP(0, true, REQ),
	[CREM_ROCE_OP_WRITE_LAST_IMM] = OP(CREM_ROCE_H_IMMDT, true, REQ),
	[CREM_ROCE_OP_WRITE_ONLY] = OP(CREM_ROCE_H_RETH, true, REQ),
	[CREM_ROCE_OP_WRITE_ONLY_IMM] =
		OP(CREM_ROCE_H_RETH | CREM_ROCE_H_IMMDT, true, REQ),
	[CREM_ROCE_OP_READ_REQUEST] = OP(CREM_ROCE_H_RETH, false, REQ),
	[CREM_ROCE_OP_READ_RESPONSE_FIRST] = OP(CREM_ROCE_H_AETH, true, RSP),
	[CREM_ROCE_OP_READ_RESPONSE_MIDDLE] = OP(0, true, RSP),
	[CREM_ROCE_OP_READ_RESPONSE_LAST] = OP(CREM_ROCE_H_AETH, true, RSP),
	[CREM_ROCE_OP_READ_RESPONSE_ONLY] = OP(CREM_ROCE_H_AETH, true, RSP),
	[CREM_ROCE_OP_ACK] = OP(CREM_ROCE_H_AETH, false, CREM_ROCE_ACK),
	[CREM_ROCE_OP_ATOMIC_ACK] = OP(CREM_ROCE_H_AETH | CREM_ROCE_H_ATOMIC_ACK,
				       false, CREM_ROCE_ATOMIC_ACKNOWLEDGE),
	[CREM_ROCE_OP_CMP_SWAP] = OP(CREM_ROCE_H_ATOMIC, false, REQ),
	[CREM_ROCE_OP_FETCH_ADD] = OP(CREM_ROCE_H_ATOMIC, false, REQ),
	[CREM_ROCE_OP_SEND_LAST_INV] = OP(CREM_ROCE_H_IETH, true, REQ),
	[CREM_ROCE_OP_SEND_ONLY_INV] = OP(CREM_ROCE_H_IETH, true, REQ),
	[CREM_ROCE_OP_FLUSH] = OP(CREM_ROCE_H_FETH | CREM_ROCE_H_RETH, false, REQ),
	[CREM_ROCE_OP_ATOMIC_WRITE] = OP(CREM_ROCE_H_RETH, true, REQ),
};

#undef OP
#undef REQ
#undef RSP

/* The base opcodes a transport allows. */
static bool op_allowed(u8 opcode)
{
	u8 base = opcode & 0x1f;

	switch (opcode & 0xe0) {
	case CREM_ROCE_RC:
		return op_info[base].valid;
	case CREM_ROCE_UC:	/* sends and writes only */
		return base <= CREM_ROCE_OP_WRITE_ONLY_IMM;
	case CREM_ROCE_UD:
		return base == CREM_ROCE_OP_SEND_ONLY ||
		       base == CREM_ROCE_OP_SEND_ONLY_IMM;
	default:
		return false;
	}
}

static void parse_tc_aeth(struct crem_roce_pkt *p, const u8 *h)
{
	int i;

	p->tc.segments = crem_get24(h);
	p->tc.last_finished = crem_get24(h + 3);
	for (i = 0; i < 3; i++) {
		p->tc.left[i] = crem_get24(h + 6 + 6 * i);
		p->tc.right[i] = crem_get24(h + 9 + 6 * i);
	}
	p->headers |= CREM_ROCE_H_TC_AETH;
}

/* Consume @need bytes of the extension headers; false if they are absent. */
static bool take(size_t *pos, size_t end, size_t need)
{
	if (end - *pos < need)
		return false;
	*pos += need;
	return true;
}

/*
 * Parse the extension headers after the BTH, in their fixed order, between
 * @pos and @end (the start of the ICRC).  Leaves @pos at the data.
 */
static bool parse_ext(struct crem_roce_pkt *p, const u8 *b, size_t *pos,
		      size_t end, u16 headers)
{
	const u8 *h;

	if (headers & CREM_ROCE_H_DETH) {
		h = b + *pos;
		if (!take(pos, end, DETH_LEN))
			return false;
		p->deth_qkey = crem_get32(h);
		p->deth_src_qp = crem_get24(h + 5);
	}
	if (headers & CREM_ROCE_H_FETH && !take(pos, end, 4))
		return false;
	if (headers & CREM_ROCE_H_RETH) {
		h = b + *pos;
		if (!take(pos, end, RETH_LEN))
			return false;
		p->reth.va = crem_get64(h);
		p->reth.rkey = crem_get32(h + 8);
		p->reth.dma_len = crem_get32(h + 12);
	}
	if (headers & CREM_ROCE_H_ATOMIC) {
		size_t size = end - *pos;

		h = b + *pos;
		if (size != ATOMIC_LEN &&
		    !(size == MASKED_CAS_LEN &&
		      (p->opcode & 0x1f) == CREM_ROCE_OP_CMP_SWAP))
			return false;
		p->atomic.va = crem_get64(h);
		p->atomic.rkey = crem_get32(h + 8);
		p->atomic.swap_add = crem_get64(h + 12);
		if (size == MASKED_CAS_LEN) {
			/* Seed 002's order: data, its mask, compare, its mask. */
			p->atomic.swap_mask = crem_get64(h + 20);
			p->atomic.compare = crem_get64(h + 28);
			p->atomic.compare_mask = crem_get64(h + 36);
			p->headers |= CREM_ROCE_H_MASKED;
		} else {
			p->atomic.compare = crem_get64(h + 20);
		}
		*pos = end;
	}
	if (headers & CREM_ROCE_H_AETH) {
		h = b + *pos;
		if (!take(pos, end, AETH_LEN))
			return false;
		p->aeth_syndrome = h[0];
		p->aeth_msn = crem_get24(h + 1);
		/* ACK and atomic ACK: a T/C AETH follows the AETH, or not. */
		if ((p->opcode & 0x1f) == CREM_ROCE_OP_ACK ||
		    (p->opcode & 0x1f) == CREM_ROCE_OP_ATOMIC_ACK) {
			size_t tail = headers & CREM_ROCE_H_ATOMIC_ACK ?
				      ATOMIC_ACK_LEN : 0;

			if (end - *pos == tail + CREM_ROCE_TC_AETH_LEN) {
				parse_tc_aeth(p, b + *pos);
				*pos += CREM_ROCE_TC_AETH_LEN;
			}
		}
	}
	if (headers & CREM_ROCE_H_ATOMIC_ACK) {
		h = b + *pos;
		if (!take(pos, end, ATOMIC_ACK_LEN))
			return false;
		p->atomic_ack_orig = crem_get64(h);
	}
	if (headers & CREM_ROCE_H_IMMDT) {
		h = b + *pos;
		if (!take(pos, end, 4))
			return false;
		p->immdt = crem_get32(h);
	}
	if (headers & CREM_ROCE_H_IETH) {
		h = b + *pos;
		if (!take(pos, end, 4))
			return false;
		p->ieth_rkey = crem_get32(h);
	}
	p->headers |= headers;
	return true;
}

static enum crem_roce_class ack_class(u8 syndrome)
{
	/* Syndrome bits 6..5: 00 ACK, 01 RNR NAK, 11 NAK, 10 reserved. */
	return (syndrome >> 5) & 3 ? CREM_ROCE_NAK : CREM_ROCE_ACK;
}

enum crem_roce_result crem_roce_parse_bth(const u8 *b, size_t len,
					  struct crem_roce_pkt *p)
{
	const struct op_info *info;
	size_t pos = CREM_ROCE_BTH_LEN, end;
	u16 headers;

	if (len < CREM_ROCE_BTH_LEN + CREM_ROCE_ICRC_LEN)
		return CREM_ROCE_SHORT;
	p->opcode = b[0];
	p->solicited = b[1] & 0x80;
	p->migreq = b[1] & 0x40;
	p->pad = (b[1] >> 4) & 3;
	p->tver = b[1] & 0x0f;
	p->pkey = crem_get16(b + 2);
	p->fecn = b[4] & 0x80;
	p->becn = b[4] & 0x40;
	p->dest_qp = crem_get24(b + 5);
	p->ackreq = b[8] & 0x80;
	p->psn = crem_get24(b + 9);
	p->headers = 0;
	end = len - CREM_ROCE_ICRC_LEN;
	p->icrc = crem_get_le32(b + end);
	p->payload = NULL;
	p->payload_len = 0;

	if (p->opcode == CREM_ROCE_CNP) {
		if (end - pos != CNP_RSVD_LEN || p->pad)
			return CREM_ROCE_BAD_LENGTH;
		p->class = CREM_ROCE_CNP_PACKET;
		return CREM_ROCE_OK;
	}
	if (!op_allowed(p->opcode))
		return CREM_ROCE_BAD_OPCODE;
	info = &op_info[p->opcode & 0x1f];
	headers = info->headers;
	if ((p->opcode & 0xe0) == CREM_ROCE_UD)
		headers |= CREM_ROCE_H_DETH;
	if (!parse_ext(p, b, &pos, end, headers))
		return CREM_ROCE_BAD_LENGTH;
	if (!info->data) {
		if (pos != end || p->pad)
			return CREM_ROCE_BAD_LENGTH;
	} else {
		if (end - pos < p->pad)
			return CREM_ROCE_BAD_LENGTH;
		p->payload = b + pos;
		p->payload_len = end - pos - p->pad;
	}
	p->class = info->class;
	if (p->class == CREM_ROCE_ACK)
		p->class = ack_class(p->aeth_syndrome);
	return CREM_ROCE_OK;
}

/* Addresses of @n bytes into the 16-byte fields, zero-padded. */
static void set_addrs(struct crem_roce_pkt *p, const u8 *src, const u8 *dst,
		      size_t n)
{
	memset(p->src, 0, sizeof(p->src));
	memset(p->dst, 0, sizeof(p->dst));
	memcpy(p->src, src, n);
	memcpy(p->dst, dst, n);
}

static enum crem_roce_result parse_ipv4(const u8 *pkt, size_t len,
					struct crem_roce_pkt *p, size_t *hdr)
{
	size_t ihl;

	if (len < IPV4_MIN)
		return CREM_ROCE_SHORT;
	ihl = 4 * (size_t)(pkt[0] & 0x0f);
	p->ip_len = crem_get16(pkt + 2);
	if (ihl < IPV4_MIN || p->ip_len < ihl || p->ip_len > len)
		return CREM_ROCE_BAD_IP;
	if (crem_get16(pkt + 6) & 0x3fff)	/* MF or a fragment offset */
		return CREM_ROCE_FRAGMENT;
	if (pkt[9] != 17)
		return CREM_ROCE_NOT_UDP;
	p->af = 4;
	p->dscp = pkt[1] >> 2;
	p->ecn = pkt[1] & 3;
	set_addrs(p, pkt + 12, pkt + 16, 4);
	*hdr = ihl;
	return CREM_ROCE_OK;
}

static enum crem_roce_result parse_ipv6(const u8 *pkt, size_t len,
					struct crem_roce_pkt *p, size_t *hdr)
{
	u8 tclass;

	if (len < IPV6_LEN)
		return CREM_ROCE_SHORT;
	if ((size_t)crem_get16(pkt + 4) + IPV6_LEN > len)
		return CREM_ROCE_BAD_IP;
	p->ip_len = crem_get16(pkt + 4) + IPV6_LEN;
	if (pkt[6] != 17)		/* no extension headers on RoCEv2 */
		return CREM_ROCE_NOT_UDP;
	tclass = (pkt[0] & 0x0f) << 4 | pkt[1] >> 4;
	p->af = 6;
	p->dscp = tclass >> 2;
	p->ecn = tclass & 3;
	set_addrs(p, pkt + 8, pkt + 24, 16);
	*hdr = IPV6_LEN;
	return CREM_ROCE_OK;
}

enum crem_roce_result crem_roce_parse_ip(const u8 *pkt, size_t len,
					 struct crem_roce_pkt *p)
{
	enum crem_roce_result why;
	size_t hdr = 0, udp_len;

	if (!len)
		return CREM_ROCE_SHORT;
	switch (pkt[0] >> 4) {
	case 4:
		why = parse_ipv4(pkt, len, p, &hdr);
		break;
	case 6:
		why = parse_ipv6(pkt, len, p, &hdr);
		break;
	default:
		return CREM_ROCE_NOT_IP;
	}
	if (why)
		return why;
	if (p->ip_len - hdr < UDP_LEN)
		return CREM_ROCE_SHORT;
	if (crem_get16(pkt + hdr + 2) != CREM_ROCEV2_PORT)
		return CREM_ROCE_NOT_ROCEV2;
	udp_len = crem_get16(pkt + hdr + 4);
	if (udp_len != p->ip_len - hdr)
		return CREM_ROCE_BAD_UDP;
	p->sport = crem_get16(pkt + hdr);
	return crem_roce_parse_bth(pkt + hdr + UDP_LEN, udp_len - UDP_LEN, p);
}

u32 crem_roce_psn_span(const struct crem_roce_pkt *p, u32 rdma_mtu)
{
	u32 len = p->reth.dma_len;

	if ((p->opcode & 0x1f) != CREM_ROCE_OP_READ_REQUEST || !rdma_mtu || !len)
		return 1;
	return len / rdma_mtu + (len % rdma_mtu != 0);
}

u32 crem_roce_icrc(const u8 *ip, size_t len)
{
	/* The masked copy of IP, UDP and BTH: at most 60 + 8 + 12 bytes. */
	u8 hdr[60 + UDP_LEN + CREM_ROCE_BTH_LEN];
	static const u8 lrh[8] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	size_t ip_hdr, n;
	u32 crc;

	if (!len)
		return 0;
	ip_hdr = (ip[0] >> 4) == 4 ? 4 * (size_t)(ip[0] & 0x0f) : IPV6_LEN;
	n = ip_hdr + UDP_LEN + CREM_ROCE_BTH_LEN;
	/* hdr holds the longest: IHL 15, 60 bytes of IPv4. */
	if (ip_hdr < IPV4_MIN || len < n + CREM_ROCE_ICRC_LEN)
		return 0;
	memcpy(hdr, ip, n);
	if ((ip[0] >> 4) == 4) {
		hdr[1] = 0xff;			/* TOS */
		hdr[8] = 0xff;			/* TTL */
		hdr[10] = 0xff;			/* header checksum */
		hdr[11] = 0xff;
	} else {
		hdr[0] |= 0x0f;			/* traffic class ... */
		hdr[1] = 0xff;			/* ... and flow label */
		hdr[2] = 0xff;
		hdr[3] = 0xff;
		hdr[7] = 0xff;			/* hop limit */
	}
	hdr[ip_hdr + 6] = 0xff;			/* UDP checksum */
	hdr[ip_hdr + 7] = 0xff;
	hdr[ip_hdr + UDP_LEN + 4] = 0xff;	/* BTH reserved octet */

	crc = crem_crc32_le(0xffffffff, lrh, sizeof(lrh));
	crc = crem_crc32_le(crc, hdr, n);
	crc = crem_crc32_le(crc, ip + n, len - n - CREM_ROCE_ICRC_LEN);
	return ~crc;
}

bool crem_roce_icrc_ok(const u8 *ip, size_t len)
{
	u32 carried;

	if (len < CREM_ROCE_ICRC_LEN)
		return false;
	carried = crem_get_le32(ip + len - CREM_ROCE_ICRC_LEN);
	return carried != 0 && crem_roce_icrc(ip, len) == carried;
}

void crem_ipv4_set_checksum(u8 *ip)
{
	size_t i, ihl = 4 * (size_t)(ip[0] & 0x0f);
	u32 sum = 0;

	crem_put16(ip + 10, 0);
	for (i = 0; i + 1 < ihl; i += 2)
		sum += crem_get16(ip + i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	crem_put16(ip + 10, ~sum);
}
