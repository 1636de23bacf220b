/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CREM messages arriving on the CREM port: checked, matched to their flow
 * and sender, and queued for the flow's engine work (flow.c); a HELLO for
 * no flow makes its receiver flow at once.
 */
#ifndef CREM_RECEIVE_H
#define CREM_RECEIVE_H

struct sock;
struct sk_buff;

/*
 * The UDP tunnel receive hook of the CREM sockets (socket.c).  Always
 * consumes @skb.  Context: softirq, under rcu_read_lock().
 */
int crem_receive_datagram(struct sock *sk, struct sk_buff *skb);

#endif /* CREM_RECEIVE_H */
