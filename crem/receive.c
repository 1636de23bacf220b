// SPDX-License-Identifier: GPL-2.0
/*
 * Dispatch of CREM messages (see receive.h).
 *
 * In the receive softirq a datagram is parsed (counted by result),
 * matched to its flow and sender, and handed to the flow
 * (crem_flow_post()): run at once if it cannot code and nothing is
 * queued ahead of it, else queued on its inbox for its engine work.
 * Matching:
 *   HELLO          the receiver flow of its descriptor with its nonce, the
 *                  live one or a candidate; else a new flow, live if none
 *                  is, else a candidate (crem_crf_hello_action()), within
 *                  the rate of its source address and, from a stranger,
 *                  the strangers' share (security.rst);
 *   HELLO_ACK      the sender flow with its nonce (negotiating, or given
 *                  up waiting: a late answer still negotiates);
 *   PATH_REPORT    from a configured reporter only, the sender flow of its
 *                  descriptor;
 *   the others     by (role, Flow ID), from the address bound at HELLO;
 *                  a PARAM_UPDATE or REPAIR so found confirms a candidate.
 * A PARAM_UPDATE or REPAIR for a Flow ID this node does not know gets a
 * CLOSE (reason 1), within a rate per address and in all, so that a
 * sender whose receiver flow is gone negotiates again at once.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/sock.h>
#include <net/udp_tunnel.h>

#include "flow.h"
#include "flowtable.h"
#include "netns.h"
#include "receive.h"

static void note_sender(struct sk_buff *skb)
{
	struct crem_msg_cb *cb = CREM_MSG_CB(skb);

	BUILD_BUG_ON(sizeof(*cb) > sizeof(skb->cb));
	memset(cb->addr, 0, 16);
	cb->port = udp_hdr(skb)->source;
	if (ip_hdr(skb)->version == 4) {
		cb->af = CREM_AF_INET;
		memcpy(cb->addr, &ip_hdr(skb)->saddr, 4);
		cb->ce = INET_ECN_is_ce(ip_hdr(skb)->tos);
	} else {
		cb->af = CREM_AF_INET6;
		memcpy(cb->addr, &ipv6_hdr(skb)->saddr, 16);
		cb->ce = INET_ECN_is_ce(ipv6_get_dsfield(ipv6_hdr(skb)));
	}
}

static bool from_peer(const struct crem_flow *flow, u8 af, const u8 *addr)
{
	return flow->peer_af == af && !memcmp(flow->peer, addr, 16);
}

/*
 * The sender flow a HELLO_ACK answers: the one with its nonce (random, 64
 * bits).  Whether the flow still takes it (negotiating, or given up
 * waiting) the engine decides, under the flow's lock.
 */
static struct crem_flow *by_nonce(struct crem_net *cn, u64 nonce)
{
	struct crem_flow *flow;

	list_for_each_entry_rcu(flow, &cn->flows, list)
		if (flow->key.role == CREM_ROLE_SENDER &&
		    READ_ONCE(flow->csf.hello.nonce) == nonce)
			return flow;
	return NULL;
}

/* The receiver flow of @m's descriptor: the live one, or its candidate. */
static struct crem_flow *receiver_of_hello(struct crem_net *cn,
					   const struct crem_msg *m,
					   bool candidate)
{
	struct crem_flow_key key;

	crem_flow_key_init(&key, CREM_ROLE_RECEIVER, m->hello.af,
			   m->hello.flow_label, m->hello.src, m->hello.dst);
	key.candidate = candidate;
	return crem_flow_lookup(cn, &key);
}

static const struct crem_crf *crf_of(const struct crem_flow *flow)
{
	return flow ? &flow->crf : NULL;
}

/*
 * CLOSE for unknown Flow IDs: a sender needs one to negotiate again, so
 * each stranger's address gets a few a second, and all strangers
 * together a thousand.  A configured peer's flows all learn at once that
 * this host forgot them (crem restarted here): from its CREM port, where
 * a real peer's messages come from, it gets as many at once and a second
 * as its HELLO meter lets it open flows (hello_admitted()), on meters of
 * its own, and all peers together a few thousand at once.  Each answers
 * a message at least as long, to the address and port it came from: no
 * amplification, and the meters bound what a spoofer can reflect.
 */
static const struct crem_rate close_rate_addr = {
	.interval_ns = 100 * NSEC_PER_MSEC, .burst = 4,
};
static const struct crem_rate close_rate_peers_all = {
	.interval_ns = 100 * NSEC_PER_USEC, .burst = 4096,
};
static const struct crem_rate close_rate_all = {
	.interval_ns = NSEC_PER_MSEC, .burst = 64,
};

/*
 * The rate at which an address may start flows, a configured peer's
 * (@known) four times a stranger's (hello_admitted()); a peer's CLOSEs
 * for unknown Flow IDs follow it too (close_unknown()).  Under RCU.
 */
static struct crem_rate hello_rate(struct crem_net *cn,
				   const struct crem_cfg *cfg, bool known)
{
	u32 n = cfg->hello_rate;

	if (!net_eq(cn->net, &init_net))
		n = min(n, rcu_dereference(crem_net(&init_net)->cfg)->hello_rate);
	if (known)
		n *= 4;
	return (struct crem_rate){ .interval_ns = NSEC_PER_SEC / n, .burst = n };
}

/*
 * May a HELLO from @cb's address make a flow now?  A stranger's address
 * (an IPv6 one by its /64) may start hello-rate flows at once and then
 * hello-rate a second (250 by default); a configured peer (@known), which
 * may open hundreds of QPs at once, four times that, on meters of their
 * own that no stranger spends.  A namespace other than the initial one
 * never above the initial one's rate.  In the socket's receive path,
 * under RCU.
 */
static bool hello_admitted(struct crem_net *cn, const struct crem_cfg *cfg,
			   const struct crem_msg_cb *cb, bool known)
{
	struct crem_admit *table = known ? &cn->peer_hello_admit :
					   &cn->hello_admit;
	struct crem_rate rate = hello_rate(cn, cfg, known);
	bool ok;

	spin_lock_bh(&cn->admit_lock);
	ok = crem_admit(table, &rate, cb->af, cb->addr, ktime_get_ns());
	spin_unlock_bh(&cn->admit_lock);
	if (!ok)
		crem_net_stat_inc(cn, CREM_STAT_HELLO_RATE_LIMITED);
	return ok;
}

/*
 * The flow a message is for, or NULL.  A CLOSE may be for either role:
 * the flow of that Flow ID whose peer sent it, else any of that ID (whose
 * peer then did not send it).
 */
static struct crem_flow *flow_of(struct crem_net *cn, const struct crem_msg *m,
				 u8 af, const u8 *addr)
{
	const struct crem_wire_path_report *pr = &m->path_report;
	struct crem_flow *rx, *tx;
	struct crem_flow_key key;

	switch (m->type) {
	case CREM_MSG_HELLO:
		rx = receiver_of_hello(cn, m, false);
		tx = receiver_of_hello(cn, m, true);
		switch (crem_crf_hello_action(crf_of(rx), crf_of(tx), m)) {
		case CREM_HELLO_TO_LIVE:
			return rx;
		case CREM_HELLO_TO_CANDIDATE:
			return tx;
		default:
			return NULL;	/* new_receiver() decides */
		}
	case CREM_MSG_HELLO_ACK:
		return by_nonce(cn, m->hello_ack.nonce);
	case CREM_MSG_PATH_REPORT:
		crem_flow_key_init(&key, CREM_ROLE_SENDER, pr->af,
				   pr->flow_label, pr->src, pr->dst);
		return crem_flow_lookup(cn, &key);
	case CREM_MSG_PARAM_UPDATE:
	case CREM_MSG_REPAIR:
		return crem_flow_by_id(cn, CREM_ROLE_RECEIVER, m->flow_id);
	case CREM_MSG_CLOSE:
		rx = crem_flow_by_id(cn, CREM_ROLE_RECEIVER, m->flow_id);
		tx = crem_flow_by_id(cn, CREM_ROLE_SENDER, m->flow_id);
		if (rx && (from_peer(rx, af, addr) || !tx))
			return rx;
		return tx;
	default:
		return crem_flow_by_id(cn, CREM_ROLE_SENDER, m->flow_id);
	}
}

/*
 * A HELLO with a nonce no flow of its descriptor has: a new receiver
 * flow, answered from here; beside a live flow, and only from that flow's
 * peer, a candidate, in place of an earlier candidate.
 */
static void new_receiver(struct crem_net *cn, const struct crem_msg *m,
			 const struct crem_msg_cb *cb)
{
	const struct crem_cfg *cfg = rcu_dereference(cn->cfg);
	struct crem_flow *live, *candidate;
	bool known;
	int err;

	if (!cfg->enabled || !(cfg->role & CREM_ROLE_RECEIVER)) {
		crem_net_stat_inc(cn, CREM_STAT_HELLO_REFUSED);
		return;
	}
	/*
	 * Whoever sends the HELLO receives its HELLO_ACK and speaks for the
	 * flow: it must be where the flow's sources come from.  Then only
	 * the live flow's own peer may start its replacement.  Any other
	 * address would confirm the candidate with the Flow ID it was told,
	 * and take the flow's place: its sources' reports, and REPAIRs that
	 * hold them (security.rst, "Who speaks for a flow").
	 */
	if (!crem_cfg_may_start(cfg, m->hello.af, m->hello.src, cb->af,
				cb->addr)) {
		crem_net_stat_inc(cn, CREM_STAT_MSGS_WRONG_PEER);
		return;
	}
	live = receiver_of_hello(cn, m, false);
	if (live && !from_peer(live, cb->af, cb->addr)) {
		crem_net_stat_inc(cn, CREM_STAT_MSGS_WRONG_PEER);
		return;
	}
	/*
	 * The strangers' share, before a meter is spent or anything is
	 * allocated; publishing checks it again under the lock.
	 */
	known = crem_cfg_known_peer(cfg, cb->af, cb->addr);
	if (!known &&
	    READ_ONCE(cn->nstrangers) >= crem_stranger_share(cfg->max_flows)) {
		crem_net_stat_inc(cn, CREM_STAT_STRANGER_FLOW_LIMIT);
		return;
	}
	if (!hello_admitted(cn, cfg, cb, known))
		return;
	if (live) {
		candidate = receiver_of_hello(cn, m, true);
		if (candidate)
			crem_flow_kill(candidate);
	}
	err = crem_flow_new_crf(cn, m, cb->af, cb->addr, cb->port, !!live);
	if (!err && live)
		crem_net_stat_inc(cn, CREM_STAT_FLOW_CANDIDATES);
	/*
	 * -EEXIST: not published.  Another CPU made it from the same
	 * HELLO's twin, or a limit refused it, counted under its own
	 * reason by crem_flowtable_publish().
	 */
	if (err && err != -EEXIST)
		crem_net_stat_inc(cn, CREM_STAT_HELLO_REFUSED);
}

/*
 * A message for a Flow ID no receiver flow here has: its sender's flow is
 * gone here (idled out, ended while CLOSE was lost, or never made), and
 * the sender would go on sending for it.  crem_crf_answer_unknown() says
 * which messages get a CLOSE; here it is rate-limited, per address and in
 * all, so that spoofed messages cannot make it an amplifier.
 */
static void close_unknown(struct crem_net *cn, const struct crem_msg *m,
			  const struct crem_msg_cb *cb)
{
	const struct crem_cfg *cfg = rcu_dereference(cn->cfg);
	u8 buf[CREM_CRF_UNKNOWN_ANSWER_MAX];
	u64 now = ktime_get_ns();
	struct crem_flow *tx;
	struct crem_rate rate;
	bool ok, known;
	int len;

	if (!cfg->enabled || !(cfg->role & CREM_ROLE_RECEIVER))
		return;
	len = crem_crf_answer_unknown(m, buf, sizeof(buf));
	if (len <= 0)
		return;
	/*
	 * The Flow ID of this host's sender flow to the message's source:
	 * its receiver there chose it, and never sends a PARAM_UPDATE or
	 * REPAIR for it.  Answered, the CLOSE would end that receiver's flow
	 * of the same ID, a real CLOSE from its real peer, at the word of
	 * whoever spoofed the message.
	 */
	tx = crem_flow_by_id(cn, CREM_ROLE_SENDER, m->flow_id);
	if (tx && from_peer(tx, cb->af, cb->addr))
		return;
	/*
	 * A configured peer's answer never waits on the strangers' budget,
	 * which spoofed sources can spend, nor on meters they share: its
	 * own rate, in a table of its own, bounds it.
	 */
	known = crem_cfg_known_peer(cfg, cb->af, cb->addr) &&
		cb->port == htons(cfg->port);
	rate = known ? hello_rate(cn, cfg, true) : close_rate_addr;
	spin_lock_bh(&cn->admit_lock);
	ok = crem_admit(known ? &cn->peer_close_admit : &cn->close_admit,
			&rate, cb->af, cb->addr, now) &&
	     crem_rate_take(known ? &cn->peer_close_tat : &cn->close_tat,
			    known ? &close_rate_peers_all : &close_rate_all,
			    now);
	spin_unlock_bh(&cn->admit_lock);
	if (!ok) {
		crem_net_stat_inc(cn, CREM_STAT_CLOSES_UNKNOWN_LIMITED);
		return;
	}
	if (!crem_socket_send(cn, cb->af, cb->addr, cb->port, buf, len, 0))
		crem_net_stat_inc(cn, CREM_STAT_CLOSES_UNKNOWN_SENT);
}

int crem_receive_datagram(struct sock *sk, struct sk_buff *skb)
{
	struct crem_net *cn = rcu_dereference_sk_user_data(sk);
	const struct crem_msg_cb *cb = CREM_MSG_CB(skb);
	struct crem_flow *flow;
	enum crem_wire_reason r;
	struct crem_msg m;

	/* Our own datagram: linear makes it one buffer to parse. */
	if (!cn || skb_linearize(skb))
		goto drop;
	crem_net_stat_inc(cn, CREM_STAT_MSGS_RECEIVED);
	r = crem_inbox_parse(skb, &m);
	crem_net_wire_inc(cn, r);
	if (r != CREM_WIRE_OK)
		goto drop;
	note_sender(skb);
	if (m.type == CREM_MSG_PATH_REPORT &&
	    !crem_cfg_reporter(rcu_dereference(cn->cfg), cb->af, cb->addr)) {
		crem_net_stat_inc(cn, CREM_STAT_REPORTS_REFUSED);
		goto drop;
	}
	flow = flow_of(cn, &m, cb->af, cb->addr);
	if (!flow) {
		if (m.type == CREM_MSG_HELLO) {
			new_receiver(cn, &m, cb);
			goto drop;
		}
		crem_net_stat_inc(cn, CREM_STAT_MSGS_NO_FLOW);
		close_unknown(cn, &m, cb);
		goto drop;
	}
	/* Messages come only from the address bound at HELLO. */
	if (m.type != CREM_MSG_PATH_REPORT && !from_peer(flow, cb->af,
							  cb->addr)) {
		crem_net_stat_inc(cn, CREM_STAT_MSGS_WRONG_PEER);
		goto drop;
	}
	/*
	 * A candidate that cannot take the live flow's place (another
	 * peer's) must not answer as if it had: its sender would show the
	 * flow active, and its sources go to that other peer's flow.
	 */
	if (READ_ONCE(flow->key.candidate) && crem_crf_confirms(&m) &&
	    !crem_flow_promote(flow))
		goto drop;
	if (crem_flow_post(flow, skb, &m))
		return 0;
drop:
	kfree_skb(skb);
	return 0;
}
