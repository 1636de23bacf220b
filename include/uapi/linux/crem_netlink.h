/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit: generated from Documentation/netlink/specs/crem.yaml by tools/nlgen.py (make nlgen). */

/*
 * CREM, the Congestion-Aware Reliability Enhancement Mechanism, protects
 * RoCEv2 flows over long lossy paths with adaptive erasure coding and coded
 * retransmission.  Every command acts on the caller's network namespace and
 * needs CAP_NET_ADMIN in it.
 */
#ifndef _UAPI_LINUX_CREM_NETLINK_H
#define _UAPI_LINUX_CREM_NETLINK_H

#define CREM_GENL_NAME "crem"
#define CREM_GENL_VERSION 1

/* Top-level attributes of every command. */
enum {
	CREM_A_UNSPEC,
	/* string: Version of the crem module, for example "0.1.0". */
	CREM_A_VERSION,
	/*
	 * nest: Counters of the namespace, one nest per counter.  Counters are
	 * named, not numbered, so that new ones need no uapi change.
	 */
	CREM_A_STATS,

	__CREM_A_LAST,
	CREM_A_MAX = (__CREM_A_LAST - 1)
};

/* One counter. */
enum {
	CREM_A_STAT_UNSPEC,
	/* string: Name of the counter, lower-case words joined by '_'. */
	CREM_A_STAT_NAME,
	/* u64: Value of the counter. */
	CREM_A_STAT_VALUE,
	/* pad: Alignment of the 64-bit value. */
	CREM_A_STAT_PAD,

	__CREM_A_STAT_LAST,
	CREM_A_STAT_MAX = (__CREM_A_STAT_LAST - 1)
};

enum {
	CREM_CMD_UNSPEC,
	/* Report the module's version. */
	CREM_CMD_GET_VERSION,
	/* Report the namespace's counters. */
	CREM_CMD_GET_STATS,

	__CREM_CMD_LAST,
	CREM_CMD_MAX = (__CREM_CMD_LAST - 1)
};

#endif /* _UAPI_LINUX_CREM_NETLINK_H */
