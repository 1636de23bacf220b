/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A namespace's configuration.
 *
 * Lifetime: a struct crem_cfg is immutable once published.  Writers
 * (netlink, under crem_net.cfg_mutex) copy it, change the copy and publish
 * it with rcu_replace_pointer(); the old one is freed after a grace
 * period.  Readers (the datapath) use it under rcu_read_lock().
 */
#ifndef CREM_CONFIG_H
#define CREM_CONFIG_H

#include <linux/rcupdate.h>
#include <linux/types.h>

#include "core/engine.h"
#include "core/prefix.h"

#define CREM_MAX_PREFIXES	32
#define CREM_MAX_REPORTERS	16

#define CREM_ROLE_SENDER	0x1
#define CREM_ROLE_RECEIVER	0x2

/*
 * The largest hello_rate: a configured peer's four times as many are then
 * a million a second, one per microsecond.
 */
#define CREM_HELLO_RATE_MAX 250000

struct crem_cfg {
	struct rcu_head rcu;
	u16 port;		/* 0: off; there is no default port */
	u8 role;
	bool enabled;
	u32 max_flows;
	u64 mem_limit;
	u64 flow_mem_limit;
	/*
	 * New receiver flows a second, and at once, that one stranger's
	 * address may start; a configured peer's four times as many
	 * (security.rst, HELLO floods).  In a namespace other than the
	 * initial one, the initial one's applies if smaller.
	 */
	u32 hello_rate;
	u16 rdma_mtu;		/* for READ spans: the RoCE path MTU */
	struct crem_engine_config eng;
	unsigned int nprefixes, nreporters;
	struct crem_prefix prefix[CREM_MAX_PREFIXES];
	struct crem_prefix reporter[CREM_MAX_REPORTERS];
};

void crem_cfg_default(struct crem_cfg *cfg);

/* The protected prefix @dst falls in (longest match), or NULL. */
const struct crem_prefix *crem_cfg_protected(const struct crem_cfg *cfg,
					     u8 af, const u8 *dst);

/* Is @addr an allowed PATH_REPORT source? */
bool crem_cfg_reporter(const struct crem_cfg *cfg, u8 af, const u8 *addr);

/* crem_prefix_known_peer() of the protected prefixes. */
bool crem_cfg_known_peer(const struct crem_cfg *cfg, u8 af, const u8 *addr);

/* crem_prefix_may_start() of the protected prefixes. */
bool crem_cfg_may_start(const struct crem_cfg *cfg, u8 src_af, const u8 *src,
			u8 af, const u8 *from);

#endif /* CREM_CONFIG_H */
