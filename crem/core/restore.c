// SPDX-License-Identifier: GPL-2.0
/*
 * Rebuilding restored packets, with IPv4 ID recovery (see restore.h).
 */
#include <linux/crem.h>

#include "bytes.h"
#include "restore.h"
#include "roce.h"

#define IPV4_LEN 20
#define IPV6_LEN 40
#define UDP_LEN 8

static void set_ipv4_id(u8 *pkt, u16 id)
{
	crem_put16(pkt + 4, id);
	crem_ipv4_set_checksum(pkt);
}

static u32 carried_icrc(const u8 *pkt, size_t len)
{
	return crem_get_le32(pkt + len - CREM_ROCE_ICRC_LEN);
}

/*
 * Find x with icrc(x) == want, given icrc(0) and the column icrc(2^b) ^
 * icrc(0) of each ID bit b: Gaussian elimination over GF(2).
 */
static bool solve_id(const u32 col[16], u32 diff, u16 *id)
{
	u32 basis[32] = { 0 };
	u16 combo[32] = { 0 };
	u32 v;
	u16 c;
	int b, bit;

	for (b = 0; b < 16; b++) {
		v = col[b];
		c = 1u << b;
		for (bit = 31; bit >= 0 && v; bit--) {
			if (!(v >> bit & 1))
				continue;
			if (!basis[bit]) {
				basis[bit] = v;
				combo[bit] = c;
				break;
			}
			v ^= basis[bit];
			c ^= combo[bit];
		}
	}
	c = 0;
	for (bit = 31; bit >= 0; bit--) {
		if (!(diff >> bit & 1))
			continue;
		if (!basis[bit])
			return false;
		diff ^= basis[bit];
		c ^= combo[bit];
	}
	*id = c;
	return true;
}

static int restore_ipv4(const struct crem_ip_template *t, u8 *out, size_t len,
			bool *solved)
{
	u32 base, want = carried_icrc(out, len), col[16];
	u16 id;
	int b;

	set_ipv4_id(out, t->id_hint);
	if (crem_roce_icrc(out, len) == want)
		return 0;
	set_ipv4_id(out, 0);
	base = crem_roce_icrc(out, len);
	for (b = 0; b < 16; b++) {
		crem_put16(out + 4, 1u << b);
		col[b] = crem_roce_icrc(out, len) ^ base;
	}
	if (!solve_id(col, want ^ base, &id))
		return -EBADMSG;
	set_ipv4_id(out, id);
	/* The solution is unique; checking it guards the arithmetic. */
	if (crem_roce_icrc(out, len) != want)
		return -EBADMSG;
	if (solved)
		*solved = true;
	return 0;
}

int crem_restore_ip(const struct crem_ip_template *t, const u8 *payload,
		    size_t len, u8 *out, size_t cap, bool *solved)
{
	size_t ip_hdr = t->af == 4 ? IPV4_LEN : IPV6_LEN;
	size_t total = ip_hdr + UDP_LEN + len;
	u8 *u = out + ip_hdr;

	if (solved)
		*solved = false;
	if ((t->af != 4 && t->af != 6) ||
	    len < CREM_ROCE_BTH_LEN + CREM_ROCE_ICRC_LEN || total > 0xffff)
		return -EINVAL;
	if (total > cap)
		return -ENOSPC;
	memset(out, 0, ip_hdr + UDP_LEN);
	if (t->af == 4) {
		out[0] = 0x45;
		out[1] = t->dscp << 2;		/* no ECN mark */
		crem_put16(out + 2, total);
		crem_put16(out + 6, t->df ? 0x4000 : 0);
		out[8] = t->ttl;
		out[9] = 17;
		memcpy(out + 12, t->src, 4);
		memcpy(out + 16, t->dst, 4);
	} else {
		u8 tclass = t->dscp << 2;	/* no ECN mark */

		out[0] = 0x60 | tclass >> 4;
		out[1] = (tclass & 0x0f) << 4 | (t->flow_label >> 16 & 0x0f);
		crem_put16(out + 2, t->flow_label & 0xffff);
		crem_put16(out + 4, UDP_LEN + len);
		out[6] = 17;
		out[7] = t->ttl;
		memcpy(out + 8, t->src, 16);
		memcpy(out + 24, t->dst, 16);
	}
	crem_put16(u, t->sport);
	crem_put16(u + 2, CREM_ROCEV2_PORT);
	crem_put16(u + 4, UDP_LEN + len);
	memcpy(u + UDP_LEN, payload, len);

	if (t->af == 4) {
		int ret = restore_ipv4(t, out, total, solved);

		return ret ? ret : (int)total;
	}
	return crem_roce_icrc(out, total) == carried_icrc(out, total) ?
	       (int)total : -EBADMSG;
}
