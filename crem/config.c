// SPDX-License-Identifier: GPL-2.0
/*
 * A namespace's configuration (see config.h).
 */
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "config.h"

/*
 * The memory crem may take by default: 256 MiB, but no more than a
 * sixteenth of the machine's.  256 MiB would be a quarter of a 1 GiB host,
 * taken from the RDMA transport and everything else running there; a
 * sixteenth still holds 1024 flows of 64 KiB on it.
 */
#define CREM_MEM_LIMIT_MAX	(256ull << 20)
#define CREM_MEM_LIMIT_SHARE	16

static u64 default_mem_limit(void)
{
	u64 ram = (u64)totalram_pages() << PAGE_SHIFT;

	return min_t(u64, CREM_MEM_LIMIT_MAX, ram / CREM_MEM_LIMIT_SHARE);
}

void crem_cfg_default(struct crem_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->role = CREM_ROLE_SENDER | CREM_ROLE_RECEIVER;
	cfg->enabled = true;
	cfg->max_flows = 1024;
	cfg->mem_limit = default_mem_limit();
	/* A quarter for one flow: 64 MiB at most. */
	cfg->flow_mem_limit = cfg->mem_limit / 4;
	cfg->hello_rate = 250;
	cfg->rdma_mtu = 1024;
	crem_engine_config_default(&cfg->eng);
	/* A 1024-byte RDMA MTU: T of 1090 fits a 1500-byte path MTU. */
	cfg->eng.limits.max_t = 1024 + 64 + 2;
}

bool crem_prefix_match(const struct crem_prefix *p, u8 af, const u8 *addr)
{
	unsigned int full = p->len / 8, rest = p->len % 8;

	if (p->af != af)
		return false;
	if (memcmp(p->addr, addr, full))
		return false;
	return !rest || !((p->addr[full] ^ addr[full]) & (0xff00 >> rest));
}

const struct crem_prefix *crem_cfg_protected(const struct crem_cfg *cfg,
					     u8 af, const u8 *dst)
{
	const struct crem_prefix *best = NULL;
	unsigned int i;

	for (i = 0; i < cfg->nprefixes; i++)
		if (crem_prefix_match(&cfg->prefix[i], af, dst) &&
		    (!best || cfg->prefix[i].len > best->len))
			best = &cfg->prefix[i];
	return best;
}

bool crem_cfg_reporter(const struct crem_cfg *cfg, u8 af, const u8 *addr)
{
	unsigned int i;

	for (i = 0; i < cfg->nreporters; i++)
		if (crem_prefix_match(&cfg->reporter[i], af, addr))
			return true;
	return false;
}

bool crem_cfg_known_peer(const struct crem_cfg *cfg, u8 af, const u8 *addr)
{
	unsigned int i;

	if (crem_cfg_protected(cfg, af, addr))
		return true;
	for (i = 0; i < cfg->nprefixes; i++)
		if (cfg->prefix[i].has_peer && cfg->prefix[i].af == af &&
		    !memcmp(cfg->prefix[i].peer, addr, 16))
			return true;
	return false;
}

bool crem_cfg_may_start(const struct crem_cfg *cfg, u8 src_af, const u8 *src,
			u8 af, const u8 *from)
{
	const struct crem_prefix *p;

	if (src_af == af && !memcmp(src, from, 16))
		return true;
	p = crem_cfg_protected(cfg, src_af, src);
	if (p && p->has_peer)
		return p->af == af && !memcmp(p->peer, from, 16);
	return !crem_cfg_known_peer(cfg, src_af, src) &&
	       crem_cfg_known_peer(cfg, af, from);
}
