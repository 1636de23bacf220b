// SPDX-License-Identifier: GPL-2.0
/*
 * A namespace's flow tables (see flowtable.h).
 */
#include "flowtable.h"

/* A candidate is in its live flow's bucket (struct crem_flow_key). */
static u32 key_hash(const struct crem_flow_key *key)
{
	struct crem_flow_key k = *key;

	k.candidate = 0;
	return jhash(&k, sizeof(k), 0);
}

static u32 id_hash(u8 role, u32 id)
{
	return jhash_2words(role, id, 0);
}

void crem_flowtable_init(struct crem_net *cn)
{
	spin_lock_init(&cn->flows_lock);
	hash_init(cn->by_key);
	hash_init(cn->by_id);
	hash_init(cn->by_pair);
	INIT_LIST_HEAD(&cn->flows);
	atomic64_set(&cn->mem, 0);
}

/*
 * Is @key @flow's?  The candidate mark is the one part that changes while
 * readers look (crem_flowtable_promote() clears it under RCU), so it is
 * read once, on its own.
 */
static bool key_matches(const struct crem_flow *flow,
			const struct crem_flow_key *key)
{
	const struct crem_flow_key *k = &flow->key;

	return READ_ONCE(k->candidate) == key->candidate &&
	       k->af == key->af && k->role == key->role && k->qp == key->qp &&
	       !memcmp(k->src, key->src, sizeof(k->src)) &&
	       !memcmp(k->dst, key->dst, sizeof(k->dst));
}

/* Context: under rcu_read_lock() or flows_lock. */
struct crem_flow *crem_flow_lookup(struct crem_net *cn,
				   const struct crem_flow_key *key)
{
	struct crem_flow *flow;

	hash_for_each_possible_rcu(cn->by_key, flow, by_key, key_hash(key),
				   lockdep_is_held(&cn->flows_lock))
		if (key_matches(flow, key))
			return flow;
	return NULL;
}

/* Context: under rcu_read_lock(). */
struct crem_flow *crem_flow_by_id(struct crem_net *cn, u8 role, u32 id)
{
	struct crem_flow *flow;

	hash_for_each_possible_rcu(cn->by_id, flow, by_id, id_hash(role, id))
		if (flow->key.role == role && READ_ONCE(flow->flow_id) == id)
			return flow;
	return NULL;
}

bool crem_flowtable_publish(struct crem_net *cn, struct crem_flow *flow,
			    u32 max_flows)
{
	bool ok = false;

	spin_lock_bh(&cn->flows_lock);
	if (cn->nflows >= max_flows) {
		crem_net_stat_inc(cn, CREM_STAT_FLOW_LIMIT);
	} else if (flow->stranger &&
		   cn->nstrangers >= crem_stranger_share(max_flows)) {
		crem_net_stat_inc(cn, CREM_STAT_STRANGER_FLOW_LIMIT);
	} else if (!cn->closing && !crem_flow_lookup(cn, &flow->key)) {
		hash_add_rcu(cn->by_key, &flow->by_key, key_hash(&flow->key));
		hash_add_rcu(cn->by_pair, &flow->by_pair,
			     crem_flow_pair_hash(flow->key.af, flow->key.src,
						 flow->key.dst));
		if (flow->flow_id) {
			hash_add_rcu(cn->by_id, &flow->by_id,
				     id_hash(flow->key.role, flow->flow_id));
			flow->id_hashed = true;
		}
		list_add_tail_rcu(&flow->list, &cn->flows);
		WRITE_ONCE(cn->nstrangers, cn->nstrangers + flow->stranger);
		cn->nflows++;
		cn->flows_created++;
		ok = true;
	}
	spin_unlock_bh(&cn->flows_lock);
	return ok;
}

void crem_flowtable_hash_id(struct crem_flow *flow)
{
	struct crem_net *cn = flow->cn;

	spin_lock_bh(&cn->flows_lock);
	if (!flow->unlinked && !flow->id_hashed) {
		hash_add_rcu(cn->by_id, &flow->by_id,
			     id_hash(flow->key.role, flow->flow_id));
		flow->id_hashed = true;
	}
	spin_unlock_bh(&cn->flows_lock);
}

/* Take @flow out of the tables.  Under flows_lock; false if it was out. */
static bool unlink_locked(struct crem_flow *flow)
{
	struct crem_net *cn = flow->cn;
	const struct crem_flow_stats *st;
	unsigned int i;

	lockdep_assert_held(&cn->flows_lock);
	if (flow->unlinked)
		return false;
	flow->unlinked = true;
	hash_del_rcu(&flow->by_key);
	if (flow->id_hashed)
		hash_del_rcu(&flow->by_id);
	hash_del_rcu(&flow->by_pair);
	list_del_rcu(&flow->list);
	WRITE_ONCE(cn->nstrangers, cn->nstrangers - flow->stranger);
	cn->nflows--;
	st = crem_flow_stats(flow);
	for (i = 0; i < CREM_FLOW_STAT_COUNT; i++)
		cn->ended[i] += READ_ONCE(st->v[i]);
	cn->flows_ended++;
	return true;
}

bool crem_flowtable_unlink(struct crem_flow *flow)
{
	bool unlinked;

	spin_lock_bh(&flow->cn->flows_lock);
	unlinked = unlink_locked(flow);
	spin_unlock_bh(&flow->cn->flows_lock);
	return unlinked;
}

static bool same_peer(const struct crem_flow *a, const struct crem_flow *b)
{
	return a->peer_af == b->peer_af && !memcmp(a->peer, b->peer, 16);
}

bool crem_flowtable_promote(struct crem_flow *candidate,
			    struct crem_flow **live)
{
	struct crem_net *cn = candidate->cn;
	struct crem_flow_key key;

	*live = NULL;
	spin_lock_bh(&cn->flows_lock);
	if (!candidate->unlinked && candidate->key.candidate) {
		key = candidate->key;
		key.candidate = 0;
		*live = crem_flow_lookup(cn, &key);
		/*
		 * Only its own peer replaces a live flow.  receive.c makes
		 * no candidate from another address, but the live flow may
		 * have ended after this candidate was made, and another
		 * address negotiated the descriptor afresh meanwhile.
		 */
		if (*live && !same_peer(*live, candidate)) {
			spin_unlock_bh(&cn->flows_lock);
			*live = NULL;
			return false;
		}
		if (*live && !unlink_locked(*live))
			*live = NULL;
		/*
		 * The same bucket: lookups see the live flow, then none, then
		 * this one; never both.
		 */
		WRITE_ONCE(candidate->key.candidate, 0);
	}
	spin_unlock_bh(&cn->flows_lock);
	return true;
}

void crem_flowtable_close(struct crem_net *cn, bool closing)
{
	spin_lock_bh(&cn->flows_lock);
	cn->closing = closing;
	spin_unlock_bh(&cn->flows_lock);
}
