// SPDX-License-Identifier: GPL-2.0
/*
 * The CREM port (see socket.h): the sockets and sending.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/route.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>

#include "netns.h"
#include "socket.h"

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
	struct socket *sock = rcu_dereference(cn->sock4);
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
	/* DF: a CREM message never travels in fragments (draft, MTU). */
	udp_tunnel_xmit_skb(rt, sock->sk, skb, fl4.saddr, fl4.daddr, tos,
			    ip4_dst_hoplimit(&rt->dst), htons(IP_DF),
			    inet_sk(sock->sk)->inet_sport, port, false, false);
	return 0;
}

static int send6(struct crem_net *cn, const u8 *peer, __be16 port,
		 struct sk_buff *skb, u8 tos)
{
	struct socket *sock = rcu_dereference(cn->sock6);
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
	/*
	 * No device: the one given would have its tunnel statistics
	 * updated, and crem has no tunnel device (the egress NIC's per-CPU
	 * area is not a struct pcpu_sw_netstats).
	 */
	udp_tunnel6_xmit_skb(dst, sock->sk, skb, NULL, &fl6.saddr, &fl6.daddr,
			     tos, ip6_dst_hoplimit(dst), 0,
			     inet_sk(sock->sk)->inet_sport, port, false);
	return 0;
}

/**
 * crem_socket_send() - send one CREM message
 * @cn: namespace state
 * @af: CREM_AF_INET or CREM_AF_INET6
 * @peer: the destination address (4 or 16 octets)
 * @port: the destination port
 * @msg: the message
 * @len: its length
 * @dscp: the protected flow's DSCP; the message is ECN capable (ECT(0))
 *
 * Context: any but hard interrupts; may be called under a flow's lock.
 * Return: 0, or -errno (counted as send_errors).
 */
int crem_socket_send(struct crem_net *cn, u8 af, const u8 *peer, __be16 port,
		     const u8 *msg, size_t len, u8 dscp)
{
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

static struct socket *open_one(struct crem_net *cn, int family, u16 port,
			       udp_tunnel_encap_rcv_t rcv, int *err)
{
	struct udp_port_cfg ucfg = {
		.family = family,
		.local_udp_port = htons(port),
		.ipv6_v6only = 1,
	};
	struct udp_tunnel_sock_cfg tcfg = {
		.sk_user_data = cn,
		.encap_type = 1,
		.encap_rcv = rcv,
	};
	struct socket *sock;

	*err = udp_sock_create(cn->net, &ucfg, &sock);
	if (*err)
		return NULL;
	/* Flows send from softirq and under their locks. */
	sock->sk->sk_allocation = GFP_ATOMIC;
	setup_udp_tunnel_sock(cn->net, sock, &tcfg);
	return sock;
}

/**
 * crem_socket_open() - bind the CREM port
 * @cn: namespace state
 * @port: the port, not 0
 * @rcv: what every datagram to the port is handed to (softirq)
 * @extack: for the error message
 *
 * Context: process, under cfg_mutex, with no socket open.
 * Return: 0 or -errno.
 */
int crem_socket_open(struct crem_net *cn, u16 port, udp_tunnel_encap_rcv_t rcv,
		     struct netlink_ext_ack *extack)
{
	struct socket *s4, *s6 = NULL;
	int err;

	lockdep_assert_held(&cn->cfg_mutex);
	s4 = open_one(cn, AF_INET, port, rcv, &err);
	if (!s4) {
		NL_SET_ERR_MSG(extack, "cannot bind the CREM port (IPv4)");
		return err;
	}
	if (ipv6_mod_enabled()) {
		s6 = open_one(cn, AF_INET6, port, rcv, &err);
		if (!s6) {
			udp_tunnel_sock_release(s4);
			NL_SET_ERR_MSG(extack,
				       "cannot bind the CREM port (IPv6)");
			return err;
		}
	}
	rcu_assign_pointer(cn->sock4, s4);
	rcu_assign_pointer(cn->sock6, s6);
	return 0;
}

/*
 * Senders and the receive hook read the namespace's pointers and the
 * sockets' user data under RCU: after this and a grace period none does.
 */
void crem_socket_unpublish(struct crem_net *cn)
{
	struct crem_socket_pair *r = &cn->retired;
	struct socket *s4, *s6;

	lockdep_assert_held(&cn->cfg_mutex);
	s4 = rcu_replace_pointer(cn->sock4, NULL,
				 lockdep_is_held(&cn->cfg_mutex));
	s6 = rcu_replace_pointer(cn->sock6, NULL,
				 lockdep_is_held(&cn->cfg_mutex));
	if (s4) {
		rcu_assign_sk_user_data(s4->sk, NULL);
		WARN_ON_ONCE(r->s4);
		r->s4 = s4;
	}
	if (s6) {
		rcu_assign_sk_user_data(s6->sk, NULL);
		WARN_ON_ONCE(r->s6);
		r->s6 = s6;
	}
}

void crem_socket_release(struct crem_net *cn)
{
	struct crem_socket_pair *r = &cn->retired;

	lockdep_assert_held(&cn->cfg_mutex);
	if (r->s4)
		udp_tunnel_sock_release(r->s4);
	if (r->s6)
		udp_tunnel_sock_release(r->s6);
	r->s4 = NULL;
	r->s6 = NULL;
}
