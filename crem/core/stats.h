/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counter identities shared by the engine, the kernel glue and the tests.
 *
 * Counters travel over netlink as (name, value) pairs, so adding one here
 * needs no uapi change: the name is the stable interface.  Names are
 * lower-case words joined by '_'.
 */
#ifndef CREM_CORE_STATS_H
#define CREM_CORE_STATS_H

#include "port.h"

/* Per-netns counters; crem_stat_name() gives each its exported name. */
enum crem_stat {
	CREM_STAT_CTL_REQUESTS,
	CREM_STAT_ROCE_SEEN,		/* RoCEv2 packets at a hook */
	CREM_STAT_ROCE_BAD,		/* to port 4791 but not RoCEv2 */
	CREM_STAT_UNPROTECTED,		/* sources toward no protected prefix */
	CREM_STAT_MSGS_RECEIVED,	/* CREM datagrams */
	CREM_STAT_MSGS_NO_FLOW,		/* well-formed, for no flow here */
	CREM_STAT_MSGS_WRONG_PEER,	/* from other than the bound peer */
	CREM_STAT_MSGS_INBOX_FULL,	/* a flow's engine work is behind */
	CREM_STAT_HELLO_REFUSED,	/* receiver off, or no memory */
	CREM_STAT_REPORTS_REFUSED,	/* PATH_REPORT from no allowed reporter */
	CREM_STAT_FLOW_LIMIT,		/* a flow not made: max_flows */
	CREM_STAT_MEM_LIMIT,		/* engine memory refused: mem_limit */
	CREM_STAT_MEM_LIMIT_PACKETS,	/* a packet or message not kept: the same */
	CREM_STAT_FLOW_MEM_LIMIT,	/* refused: one flow's flow_mem_limit */
	CREM_STAT_RESTORED_INJECTED,	/* restored packets handed on */
	CREM_STAT_HELD_REINJECTED,	/* held packets handed on */
	CREM_STAT_RESTORE_NOMEM,	/* restored packet, no skb */
	CREM_STAT_INJECT_NO_DEV,	/* restored packet, no device yet */
	CREM_STAT_SEND_ERRORS,		/* CREM datagrams not sent */
	CREM_STAT_HANDOFF_DEV_GONE,	/* held or restored, its device went */
	CREM_STAT_RX_PKT_NOMEM,		/* no memory to keep a packet back */
	CREM_STAT_ORDER_KEPT,		/* sources kept behind earlier ones */
	CREM_STAT_GSO_PASSED,		/* GSO packets, not protected */
	CREM_STAT_TOO_LONG,		/* nonlinear and too long to copy */
	CREM_STAT_NONLINEAR_PASSED,	/* nonlinear, BHs on: not read */
	CREM_STAT_MEM_LARGE_ALLOCS,	/* buffers too large for a slab cache */
	CREM_STAT_MEM_POOL_REUSED,	/* of those, from the namespace pool */
	/* Hostile peers (security.rst): HELLO's limits and the answers. */
	CREM_STAT_HELLO_RATE_LIMITED,	/* over its address's rate */
	CREM_STAT_STRANGER_FLOW_LIMIT,	/* strangers' share of max_flows */
	CREM_STAT_STRANGER_MEM_LIMIT,	/* strangers' share of mem_limit */
	CREM_STAT_FLOW_CANDIDATES,	/* a new nonce for a live flow */
	CREM_STAT_FLOWS_REPLACED,	/* a candidate confirmed */
	CREM_STAT_CANDIDATES_REFUSED,	/* confirmed, another peer's flow live */
	CREM_STAT_CLOSES_UNKNOWN_SENT,	/* CLOSE for an unknown Flow ID */
	CREM_STAT_CLOSES_UNKNOWN_LIMITED, /* one not sent: rate limit */
	/*
	 * crem's own time at its hooks, for one RoCEv2 packet in 64 per CPU
	 * and direction (crem/hooks.c): samples taken and nanoseconds spent
	 * in them.  The cost per packet is the second over the first.
	 */
	CREM_STAT_COST_TX_SAMPLES,
	CREM_STAT_COST_TX_NS,
	CREM_STAT_COST_RX_SAMPLES,
	CREM_STAT_COST_RX_NS,
	CREM_STAT_COUNT
};

/**
 * crem_stat_name() - the exported name of a counter
 * @stat: counter identity
 *
 * Return: a static string, or NULL if @stat is not a counter.
 */
const char *crem_stat_name(unsigned int stat);

#endif /* CREM_CORE_STATS_H */
