/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rate limits by peer address, for what anyone who can send to the CREM
 * port can make a node do: create a receiver flow (HELLO), or answer a
 * message for a Flow ID it does not know (CLOSE).
 *
 * One meter is a GCRA (the ATM Forum's virtual scheduling algorithm): a
 * single u64, the time at which the meter would be empty again.  An event
 * is allowed if that time is at most burst - 1 intervals ahead of now, and
 * then moves it one interval on.  A table keeps CREM_ADMIT_SLOTS meters,
 * chosen by a hash of the address under a key the caller draws at random,
 * so that a sender cannot aim at another address's meter; addresses that
 * share a slot share its rate.  No allocation, constant time.
 *
 * Locking: the caller serialises calls on one meter or table.
 */
#ifndef CREM_CORE_ADMIT_H
#define CREM_CORE_ADMIT_H

#include "port.h"

struct crem_rate {
	u64 interval_ns;	/* one event per interval, on average */
	u32 burst;		/* events allowed at once; 0 allows none */
};

#define CREM_ADMIT_SLOTS 256

struct crem_admit {
	u64 key;
	u8 v6_octets;			/* of an IPv6 address that count */
	u64 tat[CREM_ADMIT_SLOTS];	/* theoretical arrival times */
};

/**
 * crem_rate_take() - take one event from a meter
 * @tat: the meter; 0 at first
 * @rate: its rate and burst
 * @now_ns: the time
 *
 * Return: true if the event is within the rate (the meter then counts it).
 */
bool crem_rate_take(u64 *tat, const struct crem_rate *rate, u64 now_ns);

/**
 * crem_admit_init() - empty an admission table
 * @a: the table
 * @key: chooses the slots of addresses; random and kept secret, so that
 *	a sender cannot pick addresses that share one
 * @v6_prefix: how many leading bits of an IPv6 address tell senders
 *	apart, a multiple of 8 up to 128.  64 for strangers: one host
 *	commonly holds a whole /64, and counted by /128 it would spread over
 *	every slot.  128 for configured peers, many of which may share a
 *	site's /64.
 */
void crem_admit_init(struct crem_admit *a, u64 key, unsigned int v6_prefix);

/**
 * crem_admit() - take one event for a peer address
 * @a: the table
 * @rate: the rate and burst of each address (of each slot)
 * @af: CREM_AF_INET or CREM_AF_INET6
 * @addr: the address, 16 octets (an IPv4 one in the first 4, the rest 0)
 * @now_ns: the time
 *
 * Return: true if the event is within @addr's rate.
 */
bool crem_admit(struct crem_admit *a, const struct crem_rate *rate, u8 af,
		const u8 *addr, u64 now_ns);

#endif /* CREM_CORE_ADMIT_H */
