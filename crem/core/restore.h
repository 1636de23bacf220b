/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rebuilding the IP packet of a restored source.
 *
 * A source symbol carries the packet's UDP payload (BTH through ICRC).  The
 * CRF rebuilds the rest from what it knows of the flow: addresses, the UDP
 * source port, the DSCP, no ECN mark.  The ICRC the payload carries must
 * then match the rebuilt packet, or the packet is corrupt and must not be
 * delivered.
 *
 * IPv4 needs one more field: the ICRC covers the Identification, which
 * rxe changes from packet to packet.  crem_restore_ip() first tries the
 * caller's predicted ID (a full 32-bit ICRC check), then solves for it:
 * the ICRC is affine in the ID's 16 bits and CRC-32 detects every burst of
 * up to 32 bits, so at most one ID fits.  Solving spends 16 of the ICRC's
 * 32 bits on finding the ID; a payload that no ID fits is rejected.
 */
#ifndef CREM_CORE_RESTORE_H
#define CREM_CORE_RESTORE_H

#include "port.h"

struct crem_ip_template {
	u8 af;			/* 4 or 6 */
	u8 src[16];		/* 4 bytes used for IPv4 */
	u8 dst[16];
	u16 sport;		/* the flow's UDP source port */
	u8 dscp;
	u8 ttl;			/* or hop limit; masked by the ICRC */
	u32 flow_label;		/* IPv6; masked by the ICRC */
	u16 id_hint;		/* IPv4: the ID to try first */
	bool df;		/* IPv4: Don't Fragment, as the flow sends */
};

/**
 * crem_restore_ip() - rebuild a restored RoCEv2 packet
 * @t: the flow's header template
 * @payload: the UDP payload, BTH through ICRC
 * @len: its length
 * @out: receives the IP packet
 * @cap: room in @out
 * @solved: set when the IPv4 ID was solved for rather than predicted
 *	    (may be NULL)
 *
 * Return: the packet's length; -EBADMSG if no header makes its ICRC
 * match (the payload is not the original); -ENOSPC; -EINVAL for a bad
 * template or a payload too short for RoCEv2.
 */
int crem_restore_ip(const struct crem_ip_template *t, const u8 *payload,
		    size_t len, u8 *out, size_t cap, bool *solved);

#endif /* CREM_CORE_RESTORE_H */
