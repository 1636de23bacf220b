/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CREM port of a namespace: a kernel UDP socket per address family,
 * receiving through the UDP tunnel encap_rcv hook (as VXLAN and WireGuard
 * do) and sending with udp_tunnel_xmit_skb().  What is received goes to
 * receive.c; nothing here knows CREM's messages.
 *
 * Lifetime: opened and closed under the namespace's cfg_mutex.  Closing
 * has two steps: crem_socket_unpublish() stops senders and the receive
 * hook from reaching the namespace; crem_socket_release(), a grace period
 * later, frees the sockets.
 */
#ifndef CREM_SOCKET_H
#define CREM_SOCKET_H

#include <linux/types.h>
#include <net/udp_tunnel.h>

struct crem_net;
struct netlink_ext_ack;
struct socket;

/* Sockets taken out of service, waiting for their grace period. */
struct crem_socket_pair {
	struct socket *s4, *s6;
};

/* Open the sockets on @port, handing datagrams to @rcv. */
int crem_socket_open(struct crem_net *cn, u16 port, udp_tunnel_encap_rcv_t rcv,
		     struct netlink_ext_ack *extack);
/* Take them out of service.  Context: process, under cfg_mutex. */
void crem_socket_unpublish(struct crem_net *cn);
/* Free what unpublish retired, a grace period later.  Under cfg_mutex. */
void crem_socket_release(struct crem_net *cn);

/*
 * Send a CREM message to @peer:@port with DSCP @dscp and ECT(0), without
 * fragmentation.  Context: any but hard interrupts.  Return: 0 or -errno.
 */
int crem_socket_send(struct crem_net *cn, u8 af, const u8 *peer, __be16 port,
		     const u8 *msg, size_t len, u8 dscp);

#endif /* CREM_SOCKET_H */
