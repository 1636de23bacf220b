/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Address prefixes, and who may speak for a flow.
 *
 * A node's configuration lists protected prefixes: flows toward one are
 * protected by this node's CSF, their CREM receiver being the prefix's
 * peer gateway if it has one.  The same list tells a CRF which senders
 * it knows (configured peers) and, for a flow's source address it names,
 * which address that flow's CSF must be (crem_prefix_may_start()).
 *
 * Addresses are 16 octets, an IPv4 one in the first 4 and the rest 0;
 * address families are CREM_AF_INET and CREM_AF_INET6.  Pure functions of
 * their arguments: any context, no locking.
 */
#ifndef CREM_CORE_PREFIX_H
#define CREM_CORE_PREFIX_H

#include "port.h"

/**
 * struct crem_prefix - an address prefix, perhaps with a peer
 * @af: CREM_AF_INET or CREM_AF_INET6
 * @len: its length in bits
 * @has_peer: whether @peer is set
 * @addr: the prefix, bits past @len 0
 * @peer: the CREM node at the prefix's side (gateway mode), of family @af
 */
struct crem_prefix {
	u8 af;
	u8 len;
	bool has_peer;
	u8 addr[16];
	u8 peer[16];
};

/**
 * crem_prefix_match() - does an address fall in a prefix?
 * @p: the prefix
 * @af: the address's family
 * @addr: the address
 *
 * Return: true if it does.
 */
bool crem_prefix_match(const struct crem_prefix *p, u8 af, const u8 *addr);

/**
 * crem_prefix_longest() - the longest prefix of a list an address falls in
 * @list: the prefixes
 * @n: how many
 * @af: the address's family
 * @addr: the address
 *
 * Return: that prefix, or NULL.
 */
const struct crem_prefix *crem_prefix_longest(const struct crem_prefix *list,
					      unsigned int n, u8 af,
					      const u8 *addr);

/**
 * crem_prefix_known_peer() - is an address a configured peer?
 * @list: the protected prefixes
 * @n: how many
 * @af: the address's family
 * @addr: the address
 *
 * A configured peer is inside a protected prefix, or the peer gateway of
 * one.  Everyone else is a stranger (security.rst, "HELLO floods").
 *
 * Return: true for a configured peer.
 */
bool crem_prefix_known_peer(const struct crem_prefix *list, unsigned int n,
			    u8 af, const u8 *addr);

/**
 * crem_prefix_may_start() - may an address start flows of a source?
 * @list: the protected prefixes
 * @n: how many
 * @src_af: the flow's address family
 * @src: the flow's source address, as its HELLO names it
 * @af: the HELLO's own address family
 * @from: the HELLO's own source address
 *
 * Whoever sends a HELLO receives its HELLO_ACK and speaks for the flow
 * from then on (security.rst, "Who speaks for a flow").  A source address
 * the configuration names is spoken for only by its CSF: the peer gateway
 * of the longest protected prefix holding it, if that prefix has one
 * (gateway mode), else the address itself (host mode).  A source address
 * no configuration names may be spoken for by anyone, within the limits
 * on strangers: nothing tells which CSF is its own.
 *
 * Return: true if @from may start a flow whose source is @src.
 */
bool crem_prefix_may_start(const struct crem_prefix *list, unsigned int n,
			   u8 src_af, const u8 *src, u8 af, const u8 *from);

#endif /* CREM_CORE_PREFIX_H */
