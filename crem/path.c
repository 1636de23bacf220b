// SPDX-License-Identifier: GPL-2.0
/*
 * Path estimates: the loss a namespace's sender flows measured toward each
 * CREM peer, so that a new flow to that peer starts from it rather than
 * from nothing (crem_csf_set_prior(), engine.rst "Feedback").
 *
 * RDMA users open QPs in bursts and often for short transfers: a flow that
 * started at m = 0 and waited for its own first LOSS_REPORT, about a round
 * trip in, left that round trip's losses to coded retransmission, which
 * comes after the hold time, and so to the RDMA transport's go-back-N.
 * Loss belongs to the path, not to one QP.  This is local to the sender:
 * nothing goes on the wire, and the receiver sees only a first
 * configuration with m above zero, as the draft allows at any time.
 *
 * An estimate older than CREM_PATH_FRESH is not used: the path may have
 * changed, and a flow then starts at m = 0 as before.  Only a flow that
 * measured the path itself notes an estimate (crem_policy_estimate()), so
 * a chain of short flows does not keep an old one alive.  A wrong
 * estimate lasts until the flow's own reports move the averages (an
 * EWMA: a few samples of CREM_POLICY_SAMPLE packets), and one made under
 * the circuit breaker or REPAIR trouble seeds nothing.
 *
 * Locking: @paths->lock is taken under a flow's lock, never the other
 * way, and nothing is taken under it.  The table lives in the namespace's
 * crem_net and goes with it.
 */
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/string.h>

#include "path.h"

#define CREM_PATH_FRESH (30 * HZ)

void crem_paths_init(struct crem_paths *paths)
{
	spin_lock_init(&paths->lock);
	memset(paths->slot, 0, sizeof(paths->slot));
}

static struct crem_path *slot_of(struct crem_paths *paths, u8 af,
				 const u8 *peer)
{
	u32 h = jhash(peer, 16, af);

	return &paths->slot[h % CREM_NET_PATHS];
}

/**
 * crem_path_note() - the latest estimate of the path to @peer
 * @paths: the namespace's paths
 * @af: CREM_AF_INET or CREM_AF_INET6
 * @peer: the CREM peer, 16 bytes
 * @est: a sender flow's estimate (crem_csf_path_estimate())
 *
 * Context: process or softirq, not hard interrupt.
 */
void crem_path_note(struct crem_paths *paths, u8 af, const u8 *peer,
		    const struct crem_path_estimate *est)
{
	struct crem_path *p = slot_of(paths, af, peer);

	spin_lock_bh(&paths->lock);
	p->af = af;
	memcpy(p->peer, peer, 16);
	p->est = *est;
	p->stamp = jiffies;
	spin_unlock_bh(&paths->lock);
}

/**
 * crem_path_recall() - the path's estimate, if one is fresh
 * @paths: the namespace's paths
 * @af: CREM_AF_INET or CREM_AF_INET6
 * @peer: the CREM peer, 16 bytes
 * @est: filled in
 *
 * Context: process or softirq, not hard interrupt.
 * Return: true if a flow to @peer noted one within CREM_PATH_FRESH.
 */
bool crem_path_recall(struct crem_paths *paths, u8 af, const u8 *peer,
		      struct crem_path_estimate *est)
{
	struct crem_path *p = slot_of(paths, af, peer);
	bool found;

	spin_lock_bh(&paths->lock);
	found = p->af == af && !memcmp(p->peer, peer, 16) &&
		time_before(jiffies, p->stamp + CREM_PATH_FRESH);
	if (found)
		*est = p->est;
	spin_unlock_bh(&paths->lock);
	return found;
}
