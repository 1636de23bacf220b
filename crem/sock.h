/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CREM port of a namespace: a kernel UDP socket per address family,
 * receiving through the UDP tunnel encap_rcv hook (as VXLAN and WireGuard
 * do) and sending with udp_tunnel_xmit_skb(); and the way restored and
 * held packets go back into the stack.
 */
#ifndef CREM_SOCK_H
#define CREM_SOCK_H

#include <linux/skbuff.h>

struct crem_net;
struct netlink_ext_ack;

/* Open the sockets on @port.  Context: process, under cfg_mutex. */
int crem_sock_open(struct crem_net *cn, u16 port,
		   struct netlink_ext_ack *extack);
/* Close them; no receive runs after this returns.  Context: process. */
void crem_sock_close(struct crem_net *cn);

/*
 * Send a CREM message to @peer:@port with DSCP @dscp and ECT(0).
 * Context: any but hard interrupts.  Return: 0 or -errno.
 */
int crem_sock_send(struct crem_net *cn, u8 af, const u8 *peer, __be16 port,
		   const u8 *msg, size_t len, u8 dscp);

/*
 * A restored packet (the IP packet in @skb's data) goes into the stack as
 * if it had arrived on @ifindex, after PRE_ROUTING: crem's hooks never see
 * it again.  Consumes @skb.
 */
void crem_sock_inject(struct crem_net *cn, u8 af, int ifindex,
		      struct sk_buff *skb);

/* A held packet goes on from where PRE_ROUTING stole it.  Consumes @skb. */
void crem_sock_reinject(struct crem_net *cn, struct sk_buff *skb);

struct crem_flow;

/*
 * Run CREM message @skb, queued by the receive hook, through @flow's
 * engine.  Consumes @skb.  Context: process (the flow's engine work), no
 * locks held.
 */
void crem_sock_process(struct crem_flow *flow, struct sk_buff *skb);

/* Make the receiver flows for queued HELLOs (the namespace's work). */
void crem_sock_hello_work(struct work_struct *work);

#endif /* CREM_SOCK_H */
