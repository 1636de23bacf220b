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

#define CREM_MAX_PREFIXES	32
#define CREM_MAX_REPORTERS	16

#define CREM_ROLE_SENDER	0x1
#define CREM_ROLE_RECEIVER	0x2

struct crem_prefix {
	u8 af;			/* CREM_AF_INET or CREM_AF_INET6 */
	u8 len;
	bool has_peer;
	u8 addr[16];
	u8 peer[16];
};

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

/* Does @addr (of family @af) fall in @p? */
bool crem_prefix_match(const struct crem_prefix *p, u8 af, const u8 *addr);

/* The protected prefix @dst falls in (longest match), or NULL. */
const struct crem_prefix *crem_cfg_protected(const struct crem_cfg *cfg,
					     u8 af, const u8 *dst);

/* Is @addr an allowed PATH_REPORT source? */
bool crem_cfg_reporter(const struct crem_cfg *cfg, u8 af, const u8 *addr);

/**
 * crem_cfg_known_peer() - is an address a configured peer?
 * @cfg: the namespace's configuration
 * @af: AF_INET or AF_INET6
 * @addr: the address, 4 or 16 octets
 *
 * A configured peer is inside a protected prefix, or the peer gateway of
 * one.  HELLOs from anyone else (strangers) make flows only within the
 * strangers' share (security.rst, "HELLO floods").
 *
 * Return: true for a configured peer.
 */
bool crem_cfg_known_peer(const struct crem_cfg *cfg, u8 af, const u8 *addr);

/**
 * crem_cfg_may_start() - may an address start flows of a source address?
 * @cfg: the namespace's configuration
 * @src_af: the flow's address family, CREM_AF_INET or CREM_AF_INET6
 * @src: the flow's source address, as its HELLO names it
 * @af: the HELLO's own address family
 * @from: the HELLO's own source address
 *
 * A HELLO's descriptor names any source address it likes, and whoever
 * sent it receives the HELLO_ACK and speaks for the flow from then on
 * (security.rst, "Who speaks for a flow").  So a flow's CSF must be where
 * its sources come from: the RDMA sender itself (host mode), or the peer
 * gateway configured for a protected prefix that holds @src (gateway
 * mode).  A configured peer may also speak for a source address that no
 * configuration names, such as another address of its own host.
 *
 * Return: true if @from may start a flow whose source is @src.
 */
bool crem_cfg_may_start(const struct crem_cfg *cfg, u8 src_af, const u8 *src,
			u8 af, const u8 *from);

#endif /* CREM_CONFIG_H */
