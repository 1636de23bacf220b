/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * CREM, the Congestion-Aware Reliability Enhancement Mechanism: the
 * protocol's constants, with the draft's values (section "Message Formats"
 * and the "CREM Parameters" registries).  Shared by crem.ko, cremctl and
 * the tests.  The generic netlink family is in crem_netlink.h.
 *
 * Every CREM message starts with the common header, in network byte order:
 *
 *	 0                   1                   2                   3
 *	+-------+-------+---------------+-------------------------------+
 *	|Version| Type  |     Flags     |            Length             |
 *	+-------+-------+---------------+-------------------------------+
 *	|                            Flow ID                            |
 *	+---------------------------------------------------------------+
 */
#ifndef _UAPI_LINUX_CREM_H
#define _UAPI_LINUX_CREM_H

#include <linux/crem_netlink.h>

#define CREM_VERSION_1		1
#define CREM_COMMON_HDR_LEN	8

/* RoCEv2's UDP destination port.  The CREM port has no default. */
#define CREM_ROCEV2_PORT	4791

/* Message types (4 bits). */
enum crem_msg_type {
	CREM_MSG_REPAIR = 1,
	CREM_MSG_HELLO = 2,
	CREM_MSG_HELLO_ACK = 3,
	CREM_MSG_PARAM_UPDATE = 4,
	CREM_MSG_PARAM_ACK = 5,
	CREM_MSG_REPAIR_REQUEST = 6,
	CREM_MSG_LOSS_REPORT = 7,
	CREM_MSG_PATH_REPORT = 8,
	CREM_MSG_CLOSE = 9,
};

/* Flags, per message type. */
#define CREM_REPAIR_F_RETX	0x80	/* coded retransmission; lost bitmap */
#define CREM_REPAIR_F_LAST	0x40	/* last symbol of the block this round */
#define CREM_REPAIR_F_INFO	0x20	/* block information only, no symbol */
#define __CREM_REPAIR_F_ALL	0xe0

#define CREM_REQ_F_FALLBACK	0x20	/* send Source Copy symbols */
#define CREM_REQ_F_RANGES	0x10	/* PSN-range form */
#define __CREM_REQ_F_ALL	0x30

#define CREM_PATH_F_TRUNCATED	0x80	/* dropped-PSN lists cut to fit */
#define __CREM_PATH_F_ALL	0x80

/* FEC schemes (8 bits). */
enum crem_fec_scheme {
	CREM_FEC_SOURCE_COPY = 0,
	CREM_FEC_CAUCHY_RS = 1,
	CREM_FEC_XOR_PARITY = 2,
};

/* Flow kinds (8 bits). */
enum crem_flow_kind {
	CREM_FLOW_ROCEV2 = 1,
};

/* Address families in HELLO and PATH_REPORT. */
#define CREM_AF_INET	4
#define CREM_AF_INET6	6

/* Measurement methods of PATH_REPORT (8 bits). */
enum crem_measure_method {
	CREM_MEASURE_ALT_MARKING = 1,
	CREM_MEASURE_CLUSTERED_ALT_MARKING = 2,
	CREM_MEASURE_NODE_DROPS = 3,
};

/* Loss causes of a PATH_REPORT hop entry (8 bits). */
enum crem_loss_cause {
	CREM_CAUSE_UNKNOWN = 0,
	CREM_CAUSE_QUEUE_OVERFLOW = 1,
	CREM_CAUSE_TRANSMISSION_ERROR = 2,
};

/* PARAM_ACK status codes (8 bits). */
enum crem_param_status {
	CREM_PARAM_ACCEPTED = 0,
	CREM_PARAM_UNSUPPORTED_SCHEME = 1,
	CREM_PARAM_LIMITS_EXCEEDED = 2,
	CREM_PARAM_RESOURCES_EXHAUSTED = 3,
};

/* CLOSE reasons (16 bits). */
enum crem_close_reason {
	CREM_CLOSE_NORMAL = 0,
	CREM_CLOSE_FLOW_ENDED = 1,
	CREM_CLOSE_PARAM_SYNC_FAILED = 2,
	CREM_CLOSE_RESOURCES_EXHAUSTED = 3,
	CREM_CLOSE_CIRCUIT_BREAKER = 4,
};

/* At most this many hop entries in one PATH_REPORT. */
#define CREM_PATH_MAX_ENTRIES	16

#endif /* _UAPI_LINUX_CREM_H */
