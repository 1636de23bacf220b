/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CREM messages (draft, "Message Formats"): one parser and one builder for
 * all nine types.
 *
 * The parser never reads past the datagram and checks every field before it
 * uses it.  A message is accepted only when its Length equals the
 * datagram's and every part of its layout fits exactly; each rejection has
 * its own reason, counted by the caller's struct crem_wire_stats.
 * Reserved fields and unknown flag bits are ignored when parsing and
 * written as zero when building.  Variable parts (symbols, PSN ranges,
 * dropped-PSN lists) are not copied: the parsed message points into the
 * datagram, which must outlive it.
 */
#ifndef CREM_CORE_WIRE_H
#define CREM_CORE_WIRE_H

#include <linux/crem.h>

#include "../fec/set.h"
#include "port.h"

/*
 * Parse results; crem_wire_reason_name() gives each a counter name.
 * SHORT_DATAGRAM: shorter than the common header; LENGTH_MISMATCH: Length
 * is not the datagram's; SHORT_FOR_TYPE: below the type's minimum;
 * BAD_SIZE: bytes beyond the type's fields; BAD_INDEX: i + k > 255 (i >= k
 * for Source Copy); BAD_SUGGESTED_M: M_s > X.
 */
enum crem_wire_reason {
	CREM_WIRE_OK,
	CREM_WIRE_SHORT_DATAGRAM,
	CREM_WIRE_BAD_VERSION,
	CREM_WIRE_BAD_TYPE,
	CREM_WIRE_LENGTH_MISMATCH,
	CREM_WIRE_SHORT_FOR_TYPE,
	CREM_WIRE_BAD_SIZE,
	CREM_WIRE_BAD_K,
	CREM_WIRE_BAD_INDEX,
	CREM_WIRE_BAD_BITMAP,
	CREM_WIRE_BAD_SYMBOL_LENGTH,
	CREM_WIRE_BAD_AF,
	CREM_WIRE_TOO_MANY_ENTRIES,
	CREM_WIRE_BAD_ENTRIES,
	CREM_WIRE_BAD_RANGES,
	CREM_WIRE_BAD_SUGGESTED_M,
	CREM_WIRE_NR_REASONS
};

const char *crem_wire_reason_name(unsigned int reason);

struct crem_wire_stats {
	u64 result[CREM_WIRE_NR_REASONS];	/* [CREM_WIRE_OK]: accepted */
};

#define CREM_WIRE_BITMAP_WORDS(k) (((k) + 31) / 32)

struct crem_wire_repair {
	u8 config_id;
	u8 scheme;
	u8 k;
	u8 index;
	u32 block_start;		/* 24 bits */
	u16 session_id;
	u16 symbol_len;			/* T; 0 with INFO */
	struct crem_fec_set present;
	struct crem_fec_set lost;	/* RETX only */
	const u8 *symbol;		/* T bytes */
};

struct crem_wire_hello {
	u8 flow_kind;
	u8 af;				/* CREM_AF_INET or CREM_AF_INET6 */
	u16 schemes;			/* bit s: scheme s */
	u8 max_k;
	u8 max_m;
	u16 max_t;
	u16 rdma_mtu;
	u64 nonce;
	u8 src[16];			/* 4 bytes used with CREM_AF_INET */
	u8 dst[16];
	u32 flow_label;			/* RoCEv2: destination QP, low 24 bits */
};

struct crem_wire_hello_ack {
	u8 flow_kind;
	u8 af;
	u16 schemes;
	u8 max_k;
	u8 max_m;
	u16 max_t;
	u16 rdma_mtu;			/* echoed */
	u64 nonce;			/* echoed */
	u16 max_open_blocks;
};

struct crem_wire_param_update {
	u8 config_id;
	u8 scheme;
	u8 k;
	u8 m;
	u16 symbol_len;
	u32 effective_psn;		/* 24 bits */
};

struct crem_wire_param_ack {
	u8 config_id;
	u8 status;
};

struct crem_psn_range {
	u32 start;			/* 24 bits */
	u8 count;
};

/* Block form, or PSN-range form with CREM_REQ_F_RANGES. */
struct crem_wire_request {
	u16 request_id;
	/* block form */
	u8 config_id;
	u8 scheme;
	u8 k;
	u8 repairs_held;		/* r */
	u32 block_start;
	u8 suggested_m;			/* M_s <= X = |lost| */
	struct crem_fec_set lost;
	/* range form: build from ranges[], parsed as raw (see crem_wire_range) */
	u16 nranges;
	const struct crem_psn_range *ranges;
	const u8 *raw_ranges;
};

struct crem_wire_loss_report {
	u32 interval_us;
	u32 expected;
	u32 received;
	u32 restored;
	u32 incomplete_blocks;
	u32 ce_marked;
	u32 repairs_received;
	u32 repairs_ce_marked;
};

struct crem_wire_hop {
	u32 node_id;
	u32 period;
	u32 lost_count;
	s32 delay_change_us;
	u8 cause;
	u8 npsns;
	const u32 *dropped;		/* build: npsns PSNs */
	const u8 *raw_dropped;		/* parsed: see crem_wire_dropped_psn */
};

struct crem_wire_path_report {
	u8 method;
	u8 nentries;
	u8 af;
	u8 src[16];
	u8 dst[16];
	u32 flow_label;
	struct crem_wire_hop hop[CREM_PATH_MAX_ENTRIES];
};

struct crem_wire_close {
	u16 reason;
};

struct crem_msg {
	u8 type;
	u8 flags;
	u16 length;			/* set by parse and build */
	u32 flow_id;
	union {
		struct crem_wire_repair repair;
		struct crem_wire_hello hello;
		struct crem_wire_hello_ack hello_ack;
		struct crem_wire_param_update param_update;
		struct crem_wire_param_ack param_ack;
		struct crem_wire_request request;
		struct crem_wire_loss_report loss_report;
		struct crem_wire_path_report path_report;
		struct crem_wire_close close;
	};
};

/**
 * crem_wire_parse() - check and decode one CREM datagram
 * @buf: the UDP payload
 * @len: its length
 * @msg: filled on success; undefined otherwise
 * @stats: counts the result by reason; may be NULL
 *
 * Return: CREM_WIRE_OK (0) or the reason for the rejection.
 */
enum crem_wire_reason crem_wire_parse(const u8 *buf, size_t len,
				      struct crem_msg *msg,
				      struct crem_wire_stats *stats);

/**
 * crem_wire_build() - encode a message
 * @msg: the message; its length field is ignored and set
 * @buf: output
 * @cap: room in @buf
 *
 * Return: the message's length, -EINVAL if @msg breaks a rule the parser
 * enforces, -ENOSPC if it does not fit in @cap.
 */
int crem_wire_build(struct crem_msg *msg, u8 *buf, size_t cap);

/* Range @i of a parsed PSN-range REPAIR_REQUEST. */
struct crem_psn_range crem_wire_range(const struct crem_msg *msg,
				      unsigned int i);

/* Dropped PSN @i of parsed hop entry @hop. */
u32 crem_wire_dropped_psn(const struct crem_wire_hop *hop, unsigned int i);

#endif /* CREM_CORE_WIRE_H */
