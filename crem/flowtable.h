/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A namespace's flow tables: flows by key, by (role, Flow ID), sender flows
 * by address pair (for the RDMA ACKs, which name the requester's QP), and
 * the list of all of them.
 *
 * Locking: writers hold crem_net.flows_lock (BH); readers walk the RCU
 * hash lists under rcu_read_lock() and must check the flow they find is
 * not dead under its own lock before using its engine.
 */
#ifndef CREM_FLOWTABLE_H
#define CREM_FLOWTABLE_H

#include <linux/jhash.h>

#include "flow.h"
#include "netns.h"

void crem_flowtable_init(struct crem_net *cn);

struct crem_flow *crem_flow_lookup(struct crem_net *cn,
				   const struct crem_flow_key *key);
struct crem_flow *crem_flow_by_id(struct crem_net *cn, u8 role, u32 id);

/*
 * Publish @flow unless @max_flows are there, @key is taken or the
 * namespace is closing.  Return: true if it is in the tables.
 */
bool crem_flowtable_publish(struct crem_net *cn, struct crem_flow *flow,
			    u32 max_flows);

/* Also find @flow by its Flow ID, once HELLO_ACK assigned it. */
void crem_flowtable_hash_id(struct crem_flow *flow);

/*
 * Take @flow out of the tables, summing its counters into the
 * namespace's.  Return: false if it was out already.
 */
bool crem_flowtable_unlink(struct crem_flow *flow);

/**
 * crem_flowtable_promote() - make a candidate the live flow of its key
 * @candidate: the candidate receiver flow
 * @live: set to the live flow it replaced, now out of the tables (the
 *	caller ends it), or NULL if there was none
 *
 * It takes the place of the live flow of its key if that flow's peer is
 * the candidate's.  A candidate already out of the tables, or no longer
 * one, is left as it is.  Takes flows_lock.
 *
 * Return: true if it was promoted, or left as it is; false if the live
 * flow is another peer's: the candidate stays one, and can never be
 * confirmed while that flow lives.
 */
bool crem_flowtable_promote(struct crem_flow *candidate,
			    struct crem_flow **live);

/*
 * The receiver flows that strangers' HELLOs may make, of @max_flows: half,
 * so that configured peers always have the other half.
 */
static inline u32 crem_stranger_share(u32 max_flows)
{
	return max_flows / 2;
}

/* Stop new flows (crem_flowtable_publish() refuses) or allow them. */
void crem_flowtable_close(struct crem_net *cn, bool closing);

/*
 * The bucket of flows from @src to @dst, either role.  Iterate it with
 * hash_for_each_possible_rcu(cn->by_pair, flow, by_pair, hash).
 */
static inline u32 crem_flow_pair_hash(u8 af, const u8 *src, const u8 *dst)
{
	return jhash(src, 16, jhash(dst, 16, af));
}

#endif /* CREM_FLOWTABLE_H */
