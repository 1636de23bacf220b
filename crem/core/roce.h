/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCEv2 packets as CREM observes them: an IPv4 or IPv6 UDP datagram to
 * port 4791 whose payload is the InfiniBand Base Transport Header (BTH),
 * the extension headers its opcode implies, the data, the pad and the
 * 4-byte invariant CRC (ICRC).
 *
 * The parser reads only what the lengths allow and checks the layout its
 * opcode implies, so that a packet CREM protects, restores or counts is
 * one rxe would accept.  Two extensions are recognised by size after the
 * headers that always precede them:
 *  - masked atomics (seed 002): a CmpSwap AtomicETH of 44 bytes carries
 *    swap and compare masks after the standard 28; a FetchAdd's second
 *    operand is its add mask when the peer uses masked FetchAdd;
 *  - the T/C AETH of seed 004: 30 bytes after the AETH of an ACK or an
 *    atomic ACK (its fields take 27; the rest is reserved).  Such a packet
 *    is an acknowledgement, never a source.
 */
#ifndef CREM_CORE_ROCE_H
#define CREM_CORE_ROCE_H

#include "port.h"

#define CREM_ROCE_BTH_LEN	12
#define CREM_ROCE_ICRC_LEN	4
#define CREM_ROCE_TC_AETH_LEN	30

/* Base opcodes (the low five bits) and transports (the high three). */
enum {
	CREM_ROCE_OP_SEND_FIRST = 0x00,
	CREM_ROCE_OP_SEND_MIDDLE = 0x01,
	CREM_ROCE_OP_SEND_LAST = 0x02,
	CREM_ROCE_OP_SEND_LAST_IMM = 0x03,
	CREM_ROCE_OP_SEND_ONLY = 0x04,
	CREM_ROCE_OP_SEND_ONLY_IMM = 0x05,
	CREM_ROCE_OP_WRITE_FIRST = 0x06,
	CREM_ROCE_OP_WRITE_MIDDLE = 0x07,
	CREM_ROCE_OP_WRITE_LAST = 0x08,
	CREM_ROCE_OP_WRITE_LAST_IMM = 0x09,
	CREM_ROCE_OP_WRITE_ONLY = 0x0a,
	CREM_ROCE_OP_WRITE_ONLY_IMM = 0x0b,
	CREM_ROCE_OP_READ_REQUEST = 0x0c,
	CREM_ROCE_OP_READ_RESPONSE_FIRST = 0x0d,
	CREM_ROCE_OP_READ_RESPONSE_MIDDLE = 0x0e,
	CREM_ROCE_OP_READ_RESPONSE_LAST = 0x0f,
	CREM_ROCE_OP_READ_RESPONSE_ONLY = 0x10,
	CREM_ROCE_OP_ACK = 0x11,
	CREM_ROCE_OP_ATOMIC_ACK = 0x12,
	CREM_ROCE_OP_CMP_SWAP = 0x13,
	CREM_ROCE_OP_FETCH_ADD = 0x14,
	CREM_ROCE_OP_SEND_LAST_INV = 0x16,
	CREM_ROCE_OP_SEND_ONLY_INV = 0x17,
	CREM_ROCE_OP_FLUSH = 0x1c,
	CREM_ROCE_OP_ATOMIC_WRITE = 0x1d,
};

#define CREM_ROCE_RC	0x00
#define CREM_ROCE_UC	0x20
#define CREM_ROCE_UD	0x60
#define CREM_ROCE_CNP	0x81

/* Extension headers present in a parsed packet. */
#define CREM_ROCE_H_RETH	0x001
#define CREM_ROCE_H_ATOMIC	0x002
#define CREM_ROCE_H_MASKED	0x004	/* 44-byte CmpSwap AtomicETH */
#define CREM_ROCE_H_IMMDT	0x008
#define CREM_ROCE_H_IETH	0x010
#define CREM_ROCE_H_AETH	0x020
#define CREM_ROCE_H_ATOMIC_ACK	0x040
#define CREM_ROCE_H_TC_AETH	0x080
#define CREM_ROCE_H_DETH	0x100
#define CREM_ROCE_H_FETH	0x200

enum crem_roce_class {
	CREM_ROCE_REQUEST,	/* source: a request, new PSN(s) */
	CREM_ROCE_READ_RESPONSE,	/* source in the responder direction */
	CREM_ROCE_ACK,
	CREM_ROCE_NAK,
	CREM_ROCE_ATOMIC_ACKNOWLEDGE,
	CREM_ROCE_CNP_PACKET,
};

/* Parse results; crem_roce_result_name() gives each a counter name. */
enum crem_roce_result {
	CREM_ROCE_OK,
	CREM_ROCE_NOT_IP,
	CREM_ROCE_BAD_IP,
	CREM_ROCE_FRAGMENT,
	CREM_ROCE_NOT_UDP,
	CREM_ROCE_NOT_ROCEV2,
	CREM_ROCE_BAD_UDP,
	CREM_ROCE_SHORT,
	CREM_ROCE_BAD_OPCODE,
	CREM_ROCE_BAD_LENGTH,
	CREM_ROCE_NR_RESULTS
};

const char *crem_roce_result_name(unsigned int result);

struct crem_roce_pkt {
	/* From the IP and UDP headers (crem_roce_parse_ip() only). */
	u8 af;			/* 4 or 6 */
	u8 src[16];
	u8 dst[16];
	u8 dscp;
	u8 ecn;
	u16 sport;
	u16 ip_len;		/* IP header through ICRC */
	/* BTH */
	u8 opcode;
	bool solicited, migreq, fecn, becn, ackreq;
	u8 pad;
	u8 tver;
	u16 pkey;
	u32 dest_qp;
	u32 psn;
	/* Extension headers, as flagged in @headers. */
	u32 headers;
	struct {
		u64 va;
		u32 rkey;
		u32 dma_len;
	} reth;
	struct {
		u64 va;
		u32 rkey;
		u64 swap_add;
		u64 compare;	/* or a masked FetchAdd's add mask */
		u64 swap_mask;	/* H_MASKED only */
		u64 compare_mask;
	} atomic;
	u32 immdt;
	u32 ieth_rkey;
	u32 deth_qkey;
	u32 deth_src_qp;
	u8 aeth_syndrome;
	u32 aeth_msn;
	u64 atomic_ack_orig;
	struct {
		u32 segments;	/* 1..4 valid; others reserved */
		u32 last_finished;
		u32 left[3];
		u32 right[3];
	} tc;
	const u8 *payload;
	u32 payload_len;
	u32 icrc;		/* as carried: the wire's little-endian word */
	enum crem_roce_class class;
};

/**
 * crem_roce_parse_ip() - parse an IP packet carrying RoCEv2
 * @pkt: from the IPv4 or IPv6 header on
 * @len: bytes available (link padding beyond the IP length is ignored)
 * @out: the packet's fields; pointers refer into @pkt
 *
 * Return: CREM_ROCE_OK or why the packet is not (valid) RoCEv2.
 */
enum crem_roce_result crem_roce_parse_ip(const u8 *pkt, size_t len,
					 struct crem_roce_pkt *out);

/* The same from the UDP payload on (BTH through ICRC). */
enum crem_roce_result crem_roce_parse_bth(const u8 *bth, size_t len,
					  struct crem_roce_pkt *out);

/**
 * crem_roce_psn_span() - PSN positions a packet consumes
 * @p: a packet crem_roce_parse_ip() or crem_roce_parse_bth() accepted
 *	(whose READ requests always carry a RETH)
 * @rdma_mtu: the connection's RDMA MTU in bytes (from HELLO), 0 if unknown
 *
 * An RDMA READ request consumes max(1, ceil(DMA Length / MTU)) positions,
 * one per expected response; every other packet one, and so does a READ
 * request while the MTU is unknown.
 */
u32 crem_roce_psn_span(const struct crem_roce_pkt *p, u32 rdma_mtu);

/* Does the packet carry a new PSN in its direction (CREM protects it)? */
static inline bool crem_roce_is_source(const struct crem_roce_pkt *p)
{
	return p->class == CREM_ROCE_REQUEST ||
	       p->class == CREM_ROCE_READ_RESPONSE;
}

/*
 * Does the packet acknowledge the requests of the other direction up to
 * its PSN?  ACKs, NAKs and atomic acknowledges do; so does a READ
 * response that carries an AETH (first, last or only): a READ is
 * answered with its data, not with an ACK.
 */
static inline bool crem_roce_acknowledges(const struct crem_roce_pkt *p)
{
	u8 op = p->opcode & 0x1f;

	if (p->class == CREM_ROCE_READ_RESPONSE)
		return op == CREM_ROCE_OP_READ_RESPONSE_FIRST ||
		       op == CREM_ROCE_OP_READ_RESPONSE_LAST ||
		       op == CREM_ROCE_OP_READ_RESPONSE_ONLY;
	return p->class == CREM_ROCE_ACK || p->class == CREM_ROCE_NAK ||
	       p->class == CREM_ROCE_ATOMIC_ACKNOWLEDGE;
}

/* The AETH syndrome of a NAK for a PSN sequence error (IBTA 9.7.5.2.4). */
#define CREM_ROCE_AETH_NAK_PSN_SEQUENCE 0x60

/*
 * Does the packet ask the other side to send again from its PSN?  A NAK
 * for a PSN sequence error carries the PSN its responder expects, and a
 * READ request is retried from the first response its requester lacks
 * (a new one names PSNs no response has carried yet).
 */
static inline bool crem_roce_asks_again(const struct crem_roce_pkt *p)
{
	return (p->class == CREM_ROCE_NAK &&
		p->aeth_syndrome == CREM_ROCE_AETH_NAK_PSN_SEQUENCE) ||
	       (p->class == CREM_ROCE_REQUEST &&
		(p->opcode & 0x1f) == CREM_ROCE_OP_READ_REQUEST);
}

/*
 * Does a duplicate of this source cost its receiver only an acknowledgement
 * (IBTA C9-105)?  On a reliable connection a SEND, a WRITE or a READ
 * response does; a duplicate READ request or atomic is answered again
 * with its responses, and on UC or UD a duplicate is delivered again.
 */
static inline bool crem_roce_duplicate_harmless(const struct crem_roce_pkt *p)
{
	u8 op = p->opcode & 0x1f;

	if ((p->opcode & 0xe0) != CREM_ROCE_RC)
		return false;
	if (p->class == CREM_ROCE_READ_RESPONSE)
		return true;
	return p->class == CREM_ROCE_REQUEST &&
	       (op <= CREM_ROCE_OP_WRITE_ONLY_IMM ||
		op == CREM_ROCE_OP_SEND_LAST_INV ||
		op == CREM_ROCE_OP_SEND_ONLY_INV);
}

/**
 * crem_roce_icrc() - the invariant CRC of a RoCEv2 packet, as rxe computes it
 * @ip: the IP packet, from its header through the ICRC
 * @len: its length (the IP length)
 *
 * CRC-32 over eight 0xff octets (the masked LRH), the IP and UDP headers
 * with their variant fields set to ones (IPv4 TOS, TTL and checksum; IPv6
 * traffic class, flow label and hop limit; the UDP checksum), the BTH with
 * its reserved octet set to ones, and the rest up to the ICRC; inverted.
 *
 * Return: the ICRC in the form crem_roce_pkt.icrc holds, or 0 for a packet
 * too short to carry one (check with crem_roce_parse_ip() first).
 */
u32 crem_roce_icrc(const u8 *ip, size_t len);

/* Does the ICRC carried at the end of @ip match its contents? */
bool crem_roce_icrc_ok(const u8 *ip, size_t len);

/*
 * Recompute the header checksum of the IPv4 header @ip (its IHL says how
 * long).  The ICRC masks this field; the IP stack does not.
 */
void crem_ipv4_set_checksum(u8 *ip);

#endif /* CREM_CORE_ROCE_H */
