// SPDX-License-Identifier: GPL-2.0
/*
 * The CREM port (see sock.h): receiving and dispatching CREM messages,
 * sending them, and handing restored and held packets to the stack.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/route.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>

#include "flow.h"
#include "netns.h"
#include "sock.h"

/*
 * Where a queued message (a HELLO for the HELLO work, any other for a
 * flow's engine work) came from, in its skb's control block.
 */
struct crem_msg_cb {
	u8 af;
	u8 addr[16];
	__be16 port;
	bool ce;
};

#define CREM_MSG_CB(skb) ((struct crem_msg_cb *)(skb)->cb)

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

/* Parse the CREM message in @skb (data at its UDP header). */
static enum crem_wire_reason parse_msg(const struct sk_buff *skb,
				       struct crem_msg *m)
{
	size_t len = ntohs(udp_hdr(skb)->len);

	if (len < sizeof(struct udphdr) || len > skb->len)
		return CREM_WIRE_SHORT_DATAGRAM;
	return crem_wire_parse(skb->data + sizeof(struct udphdr),
			       len - sizeof(struct udphdr), m, NULL);
}

static bool from_peer(const struct crem_flow *flow, u8 af, const u8 *addr)
{
	return flow->peer_af == af && !memcmp(flow->peer, addr, 16);
}

/* The sender flow a HELLO_ACK answers: the one waiting with its nonce. */
static struct crem_flow *by_nonce(struct crem_net *cn, u64 nonce)
{
	struct crem_flow *flow;

	list_for_each_entry_rcu(flow, &cn->flows, list)
		if (flow->key.role == CREM_ROLE_SENDER &&
		    READ_ONCE(flow->csf.state) == CREM_CSF_NEGOTIATING &&
		    READ_ONCE(flow->csf.hello.nonce) == nonce)
			return flow;
	return NULL;
}

static struct crem_flow *receiver_of_hello(struct crem_net *cn,
					   const struct crem_msg *m)
{
	struct crem_flow_key key;

	crem_flow_key_init(&key, CREM_ROLE_RECEIVER, m->hello.af,
			   m->hello.flow_label, m->hello.src, m->hello.dst);
	return crem_flow_lookup(cn, &key);
}

/* The flow a message is for, or NULL; under rcu_read_lock(). */
static struct crem_flow *flow_of(struct crem_net *cn, const struct crem_msg *m,
				 u8 af, const u8 *addr)
{
	const struct crem_cfg *cfg = rcu_dereference(cn->cfg);
	const struct crem_wire_path_report *pr = &m->path_report;
	struct crem_flow_key key;
	struct crem_flow *flow;

	switch (m->type) {
	case CREM_MSG_HELLO:
		return receiver_of_hello(cn, m);
	case CREM_MSG_HELLO_ACK:
		return by_nonce(cn, m->hello_ack.nonce);
	case CREM_MSG_PATH_REPORT:
		if (!crem_cfg_reporter(cfg, af, addr)) {
			crem_net_stat_inc(cn, CREM_STAT_REPORTS_REFUSED);
			return NULL;
		}
		crem_flow_key_init(&key, CREM_ROLE_SENDER, pr->af,
				   pr->flow_label, pr->src, pr->dst);
		return crem_flow_lookup(cn, &key);
	case CREM_MSG_PARAM_UPDATE:
	case CREM_MSG_REPAIR:
		return crem_flow_by_id(cn, CREM_ROLE_RECEIVER, m->flow_id);
	case CREM_MSG_CLOSE:
		flow = crem_flow_by_id(cn, CREM_ROLE_RECEIVER, m->flow_id);
		if (flow && from_peer(flow, af, addr))
			return flow;
		fallthrough;
	default:
		return crem_flow_by_id(cn, CREM_ROLE_SENDER, m->flow_id);
	}
}

/* A HELLO for no flow: the HELLO work makes its receiver flow. */
static void queue_hello(struct crem_net *cn, struct sk_buff *skb)
{
	spin_lock_bh(&cn->hello_lock);
	if (skb_queue_len(&cn->hellos) < 64) {
		__skb_queue_tail(&cn->hellos, skb);
		skb = NULL;
	}
	spin_unlock_bh(&cn->hello_lock);
	if (skb) {
		crem_net_stat_inc(cn, CREM_STAT_HELLO_REFUSED);
		kfree_skb(skb);
		return;
	}
	queue_work(crem_wq, &cn->hello_work);
}

/*
 * The UDP tunnel receive hook: every datagram to the CREM port.  In
 * softirq it only checks the message and finds its flow; the flow's
 * engine work runs it (crem_sock_process()).
 */
static int crem_udp_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct crem_net *cn = rcu_dereference_sk_user_data(sk);
	const struct crem_msg_cb *cb = CREM_MSG_CB(skb);
	const struct crem_cfg *cfg;
	struct crem_flow *flow;
	enum crem_wire_reason r;
	struct crem_msg m;

	if (!cn || skb_linearize(skb))
		goto drop;
	crem_net_stat_inc(cn, CREM_STAT_MSGS_RECEIVED);
	r = parse_msg(skb, &m);
	crem_net_wire_inc(cn, r);
	if (r != CREM_WIRE_OK)
		goto drop;
	note_sender(skb);
	cfg = rcu_dereference(cn->cfg);
	flow = flow_of(cn, &m, cb->af, cb->addr);
	if (!flow) {
		if (m.type == CREM_MSG_HELLO && cfg->enabled &&
		    (cfg->role & CREM_ROLE_RECEIVER)) {
			queue_hello(cn, skb);
			return 0;
		}
		crem_net_stat_inc(cn, CREM_STAT_MSGS_NO_FLOW);
		goto drop;
	}
	/* Messages come only from the address bound at HELLO. */
	if (m.type != CREM_MSG_PATH_REPORT && !from_peer(flow, cb->af,
							  cb->addr)) {
		crem_net_stat_inc(cn, CREM_STAT_MSGS_WRONG_PEER);
		goto drop;
	}
	if (crem_flow_post(flow, skb))
		return 0;
drop:
	kfree_skb(skb);
	return 0;
}

void crem_sock_process(struct crem_flow *flow, struct sk_buff *skb)
{
	const struct crem_msg_cb *cb = CREM_MSG_CB(skb);
	struct crem_net *cn = flow->cn;
	bool ended = false;
	struct crem_msg m;
	int err;

	might_sleep();
	/* Parsed before it was queued; the bytes have not changed since. */
	if (WARN_ON_ONCE(parse_msg(skb, &m) != CREM_WIRE_OK))
		goto drop;
	spin_lock_bh(&flow->lock);
	if (flow->dead) {
		spin_unlock_bh(&flow->lock);
		goto drop;
	}
	if (flow->key.role == CREM_ROLE_SENDER) {
		/* The CRF answers from its socket: bind its port. */
		if (m.type == CREM_MSG_HELLO_ACK)
			flow->peer_port = cb->port;
		err = crem_csf_receive(&flow->csf, &m, cb->ce);
		if (!err && m.type == CREM_MSG_HELLO_ACK)
			WRITE_ONCE(flow->flow_id, flow->csf.flow_id);
	} else if (m.type == CREM_MSG_HELLO &&
		   m.hello.nonce != flow->crf.nonce) {
		/* The CSF started over: this flow ends, a new one begins. */
		ended = true;
		err = 0;
	} else {
		err = crem_crf_receive(&flow->crf, &m, cb->ce);
	}
	ended = ended || crem_flow_ended(flow);
	spin_unlock_bh(&flow->lock);
	if (!err && m.type == CREM_MSG_HELLO_ACK)
		crem_flow_hash_id(flow);
	crem_flow_flush(flow);
	if (ended) {
		crem_flow_kill(flow);
		if (m.type == CREM_MSG_HELLO) {
			queue_hello(cn, skb);
			return;
		}
	}
drop:
	kfree_skb(skb);
}

void crem_sock_hello_work(struct work_struct *work)
{
	struct crem_net *cn = container_of(work, struct crem_net, hello_work);
	struct sk_buff *skb;

	for (;;) {
		struct crem_msg_cb *cb;
		struct crem_msg m;

		spin_lock_bh(&cn->hello_lock);
		skb = __skb_dequeue(&cn->hellos);
		spin_unlock_bh(&cn->hello_lock);
		if (!skb)
			break;
		cb = CREM_MSG_CB(skb);
		/*
		 * -EEXIST: a retransmitted HELLO queued before its flow was
		 * made; the flow answers the next one itself.
		 */
		if (parse_msg(skb, &m) == CREM_WIRE_OK) {
			int err = crem_flow_new_crf(cn, &m, cb->af, cb->addr,
						    cb->port);

			if (err && err != -EEXIST)
				crem_net_stat_inc(cn, CREM_STAT_HELLO_REFUSED);
		}
		kfree_skb(skb);
	}
}

/* ---- sending ---------------------------------------------------------- */

static struct sk_buff *msg_skb(const u8 *msg, size_t len)
{
	size_t room = LL_MAX_HEADER + sizeof(struct ipv6hdr) +
		      sizeof(struct udphdr);
	struct sk_buff *skb = alloc_skb(room + len, GFP_ATOMIC);

	if (!skb)
		return NULL;
	skb_reserve(skb, room);
	skb_put_data(skb, msg, len);
	return skb;
}

static int send4(struct crem_net *cn, const u8 *peer, __be16 port,
		 struct sk_buff *skb, u8 tos)
{
	struct socket *sock = READ_ONCE(cn->sock4);
	struct flowi4 fl4 = {
		.flowi4_proto = IPPROTO_UDP,
		.flowi4_tos = RT_TOS(tos),
	};
	struct rtable *rt;

	if (!sock)
		return -ENOTCONN;
	memcpy(&fl4.daddr, peer, 4);
	fl4.fl4_dport = port;
	fl4.fl4_sport = inet_sk(sock->sk)->inet_sport;
	rt = ip_route_output_key(cn->net, &fl4);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	udp_tunnel_xmit_skb(rt, sock->sk, skb, fl4.saddr, fl4.daddr, tos,
			    ip4_dst_hoplimit(&rt->dst), 0,
			    inet_sk(sock->sk)->inet_sport, port, false, false);
	return 0;
}

static int send6(struct crem_net *cn, const u8 *peer, __be16 port,
		 struct sk_buff *skb, u8 tos)
{
	struct socket *sock = READ_ONCE(cn->sock6);
	struct flowi6 fl6 = { .flowi6_proto = IPPROTO_UDP };
	struct dst_entry *dst;

	if (!sock || !ipv6_stub || !ipv6_stub->ipv6_dst_lookup_flow)
		return -ENOTCONN;
	memcpy(&fl6.daddr, peer, 16);
	fl6.fl6_dport = port;
	fl6.fl6_sport = inet_sk(sock->sk)->inet_sport;
	dst = ipv6_stub->ipv6_dst_lookup_flow(cn->net, sock->sk, &fl6, NULL);
	if (IS_ERR(dst))
		return PTR_ERR(dst);
	udp_tunnel6_xmit_skb(dst, sock->sk, skb, dst->dev, &fl6.saddr,
			     &fl6.daddr, tos, ip6_dst_hoplimit(dst), 0,
			     inet_sk(sock->sk)->inet_sport, port, false);
	return 0;
}

int crem_sock_send(struct crem_net *cn, u8 af, const u8 *peer, __be16 port,
		   const u8 *msg, size_t len, u8 dscp)
{
	/* The flow's DSCP, ECN-capable (draft: Congestion Control). */
	u8 tos = dscp << 2 | INET_ECN_ECT_0;
	struct sk_buff *skb = msg_skb(msg, len);
	int err;

	if (!skb) {
		crem_net_stat_inc(cn, CREM_STAT_SEND_ERRORS);
		return -ENOMEM;
	}
	rcu_read_lock();
	if (af == CREM_AF_INET)
		err = send4(cn, peer, port, skb, tos);
	else
		err = send6(cn, peer, port, skb, tos);
	rcu_read_unlock();
	if (err) {
		kfree_skb(skb);
		crem_net_stat_inc(cn, CREM_STAT_SEND_ERRORS);
	}
	return err;
}

/* ---- back into the stack ---------------------------------------------- */

void crem_sock_inject(struct crem_net *cn, u8 af, int ifindex,
		      struct sk_buff *skb)
{
	crem_okfn_t okfn;
	struct net_device *dev;

	rcu_read_lock();
	dev = dev_get_by_index_rcu(cn->net, ifindex);
	okfn = af == CREM_AF_INET ? READ_ONCE(cn->okfn4) : READ_ONCE(cn->okfn6);
	if (!dev || !okfn) {
		rcu_read_unlock();
		crem_net_stat_inc(cn, CREM_STAT_INJECT_NO_DEV);
		kfree_skb(skb);
		return;
	}
	skb->dev = dev;
	skb->skb_iif = ifindex;
	skb->pkt_type = PACKET_HOST;
	skb_reset_network_header(skb);
	if (af == CREM_AF_INET) {
		skb->protocol = htons(ETH_P_IP);
		skb_set_transport_header(skb, ip_hdrlen(skb));
	} else {
		skb->protocol = htons(ETH_P_IPV6);
		skb_set_transport_header(skb, sizeof(struct ipv6hdr));
		IP6CB(skb)->iif = ifindex;
		IP6CB(skb)->nhoff = offsetof(struct ipv6hdr, nexthdr);
	}
	/* Its ICRC was verified when it was restored. */
	skb->ip_summed = CHECKSUM_UNNECESSARY;
	crem_net_stat_inc(cn, CREM_STAT_RESTORED_INJECTED);
	local_bh_disable();
	okfn(cn->net, NULL, skb);
	local_bh_enable();
	rcu_read_unlock();
}

void crem_sock_reinject(struct crem_net *cn, struct sk_buff *skb)
{
	crem_okfn_t okfn;

	okfn = skb->protocol == htons(ETH_P_IP) ? READ_ONCE(cn->okfn4) :
						  READ_ONCE(cn->okfn6);
	if (WARN_ON_ONCE(!okfn)) {
		kfree_skb(skb);
		return;
	}
	crem_net_stat_inc(cn, CREM_STAT_HELD_REINJECTED);
	rcu_read_lock();
	local_bh_disable();
	okfn(cn->net, NULL, skb);
	local_bh_enable();
	rcu_read_unlock();
}

/* ---- the sockets ---------------------------------------------------- */

static struct socket *open_one(struct crem_net *cn, int family, u16 port,
			       int *err)
{
	struct udp_port_cfg ucfg = {
		.family = family,
		.local_udp_port = htons(port),
		.ipv6_v6only = 1,
	};
	struct udp_tunnel_sock_cfg tcfg = {
		.sk_user_data = cn,
		.encap_type = 1,
		.encap_rcv = crem_udp_rcv,
	};
	struct socket *sock;

	*err = udp_sock_create(cn->net, &ucfg, &sock);
	if (*err)
		return NULL;
	/* The engine sends from softirq and under its locks. */
	sock->sk->sk_allocation = GFP_ATOMIC;
	setup_udp_tunnel_sock(cn->net, sock, &tcfg);
	return sock;
}

int crem_sock_open(struct crem_net *cn, u16 port,
		   struct netlink_ext_ack *extack)
{
	struct socket *s4, *s6 = NULL;
	int err;

	lockdep_assert_held(&cn->cfg_mutex);

	s4 = open_one(cn, AF_INET, port, &err);
	if (!s4) {
		NL_SET_ERR_MSG(extack, "cannot bind the CREM port (IPv4)");
		return err;
	}
	if (ipv6_mod_enabled()) {
		s6 = open_one(cn, AF_INET6, port, &err);
		if (!s6) {
			udp_tunnel_sock_release(s4);
			NL_SET_ERR_MSG(extack,
				       "cannot bind the CREM port (IPv6)");
			return err;
		}
	}
	WRITE_ONCE(cn->sock4, s4);
	WRITE_ONCE(cn->sock6, s6);
	return 0;
}

void crem_sock_close(struct crem_net *cn)
{
	struct socket *s4 = cn->sock4, *s6 = cn->sock6;

	lockdep_assert_held(&cn->cfg_mutex);
	/* Senders read the pointers under RCU: none uses them after this. */
	WRITE_ONCE(cn->sock4, NULL);
	WRITE_ONCE(cn->sock6, NULL);
	synchronize_net();
	if (s4)
		udp_tunnel_sock_release(s4);
	if (s6)
		udp_tunnel_sock_release(s6);
}
