// SPDX-License-Identifier: GPL-2.0
/*
 * Address prefixes, and who may speak for a flow (see prefix.h).
 */
#include "prefix.h"

bool crem_prefix_match(const struct crem_prefix *p, u8 af, const u8 *addr)
{
	unsigned int full = p->len / 8, rest = p->len % 8;

	if (p->af != af)
		return false;
	if (memcmp(p->addr, addr, full))
		return false;
	return !rest || !((p->addr[full] ^ addr[full]) & (0xff00 >> rest));
}

const struct crem_prefix *crem_prefix_longest(const struct crem_prefix *list,
					      unsigned int n, u8 af,
					      const u8 *addr)
{
	const struct crem_prefix *best = NULL;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (crem_prefix_match(&list[i], af, addr) &&
		    (!best || list[i].len > best->len))
			best = &list[i];
	return best;
}

static bool is_peer_gateway(const struct crem_prefix *list, unsigned int n,
			    u8 af, const u8 *addr)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (list[i].has_peer && list[i].af == af &&
		    !memcmp(list[i].peer, addr, 16))
			return true;
	return false;
}

bool crem_prefix_known_peer(const struct crem_prefix *list, unsigned int n,
			    u8 af, const u8 *addr)
{
	return crem_prefix_longest(list, n, af, addr) ||
	       is_peer_gateway(list, n, af, addr);
}

bool crem_prefix_may_start(const struct crem_prefix *list, unsigned int n,
			   u8 src_af, const u8 *src, u8 af, const u8 *from)
{
	const struct crem_prefix *p = crem_prefix_longest(list, n, src_af, src);
	bool self = src_af == af && !memcmp(src, from, 16);

	if (p && p->has_peer)
		return p->af == af && !memcmp(p->peer, from, 16);
	if (p || is_peer_gateway(list, n, src_af, src))
		return self;
	return true;
}
