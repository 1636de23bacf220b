/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic RoCEv2 traffic for the pair harness: the packets one RC queue
 * pair's requester sends (writes and sends split by the MTU, READ requests
 * that consume one PSN per expected response, atomics), as complete IP
 * packets with a correct ICRC, and acknowledgements for the reverse path.
 */
#ifndef CREM_HARNESS_TRAFFIC_H
#define CREM_HARNESS_TRAFFIC_H

#include "sim.h"

enum crem_traffic_kind {
	CREM_TRAFFIC_WRITE,
	CREM_TRAFFIC_SEND,
	CREM_TRAFFIC_READ,
	CREM_TRAFFIC_ATOMIC,
	CREM_TRAFFIC_NR_KINDS
};

struct crem_traffic {
	struct crem_sim_rng rng;
	u8 af;			/* 4 or 6 */
	u8 src[16], dst[16];
	u16 sport;
	u8 dscp;
	bool ect;		/* send ECT(0) */
	u32 dest_qp;
	u32 psn;		/* next PSN */
	u32 mtu;
	u32 max_msg;		/* bytes per message, at least 1 */
	unsigned int weight[CREM_TRAFFIC_NR_KINDS];
	/* the message in progress */
	enum crem_traffic_kind kind;
	u32 left;		/* bytes still to send */
	bool started;
};

struct crem_traffic_pkt {
	u32 psn;
	u32 span;		/* PSN positions consumed */
	u8 opcode;
	bool last;		/* ends a message */
};

/* Defaults: IPv4, a mix of all kinds, MTU 1024, messages up to 8 KiB. */
void crem_traffic_init(struct crem_traffic *t, u64 seed, u32 first_psn);

/* The next packet into @buf; returns its length, or 0 if @cap is short. */
size_t crem_traffic_next(struct crem_traffic *t, u8 *buf, size_t cap,
			 struct crem_traffic_pkt *info);

/*
 * An acknowledgement from the responder back to @t's requester: ACK or
 * NAK by @syndrome (0x1f ACK, 0x60 PSN sequence error), for @psn.
 */
size_t crem_traffic_ack(const struct crem_traffic *t, u32 psn, u8 syndrome,
			u32 msn, u8 *buf, size_t cap);

#endif /* CREM_HARNESS_TRAFFIC_H */
