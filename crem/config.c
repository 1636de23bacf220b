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

const struct crem_prefix *crem_cfg_protected(const struct crem_cfg *cfg,
					     u8 af, const u8 *dst)
{
	return crem_prefix_longest(cfg->prefix, cfg->nprefixes, af, dst);
}

bool crem_cfg_reporter(const struct crem_cfg *cfg, u8 af, const u8 *addr)
{
	return crem_prefix_longest(cfg->reporter, cfg->nreporters, af, addr);
}

bool crem_cfg_known_peer(const struct crem_cfg *cfg, u8 af, const u8 *addr)
{
	return crem_prefix_known_peer(cfg->prefix, cfg->nprefixes, af, addr);
}

bool crem_cfg_may_start(const struct crem_cfg *cfg, u8 src_af, const u8 *src,
			u8 af, const u8 *from)
{
	return crem_prefix_may_start(cfg->prefix, cfg->nprefixes, src_af, src,
				     af, from);
}
