// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration over netlink: get, set, protected prefixes, reporters.
 *
 * Every change copies the namespace's configuration under its cfg_mutex,
 * checks and edits the copy, and publishes it (crem_net_apply()); a bad
 * value leaves everything as it was and says why in the extack.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/stringify.h>
#include <net/genetlink.h>

#include <linux/crem_netlink.h>

#include "../netns.h"
#include "genl.h"
#include "nl_gen.h"

static int put_prefix(struct sk_buff *msg, int type,
		      const struct crem_prefix *p)
{
	struct nlattr *nest = nla_nest_start(msg, type);
	int alen = p->af == CREM_AF_INET ? 4 : 16;

	if (!nest || nla_put_u8(msg, CREM_A_PREFIX_FAMILY, p->af) ||
	    nla_put(msg, CREM_A_PREFIX_ADDR, alen, p->addr) ||
	    nla_put_u8(msg, CREM_A_PREFIX_LEN, p->len) ||
	    (p->has_peer && nla_put(msg, CREM_A_PREFIX_PEER, alen, p->peer)))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int put_config(struct sk_buff *msg, const struct crem_cfg *c)
{
	unsigned int i;

	if (nla_put_u16(msg, CREM_A_PORT, c->port) ||
	    nla_put_u8(msg, CREM_A_ROLE, c->role) ||
	    nla_put_u8(msg, CREM_A_ENABLED, c->enabled) ||
	    nla_put_u8(msg, CREM_A_K, c->eng.k) ||
	    nla_put_u8(msg, CREM_A_M, c->eng.m) ||
	    nla_put_u8(msg, CREM_A_ADAPTIVE, c->eng.adaptive) ||
	    nla_put_u8(msg, CREM_A_M_CONG, c->eng.m_cong) ||
	    nla_put_u32(msg, CREM_A_EPSILON_PPM, c->eng.epsilon_ppm) ||
	    nla_put_u32(msg, CREM_A_HOLD_US, div_u64(c->eng.hold_ns, 1000)) ||
	    nla_put_u32(msg, CREM_A_REORDER_US,
			div_u64(c->eng.reorder_ns, 1000)) ||
	    nla_put_u32(msg, CREM_A_MAX_FLOWS, c->max_flows) ||
	    nla_put_u16(msg, CREM_A_MAX_OPEN_BLOCKS, c->eng.max_open_blocks) ||
	    nla_put_u64_64bit(msg, CREM_A_MEM_LIMIT, c->mem_limit,
			      CREM_A_PAD) ||
	    nla_put_u64_64bit(msg, CREM_A_FLOW_MEM_LIMIT, c->flow_mem_limit,
			      CREM_A_PAD) ||
	    nla_put_u32(msg, CREM_A_HELLO_RATE, c->hello_rate) ||
	    nla_put_u8(msg, CREM_A_AUTO_TIMING, c->eng.auto_timing) ||
	    nla_put_u32(msg, CREM_A_CODER_MBS, c->eng.coder_mbs) ||
	    nla_put_u8(msg, CREM_A_RESEND_COPIES, c->eng.resend_copies))
		return -EMSGSIZE;
	for (i = 0; i < c->nprefixes; i++)
		if (put_prefix(msg, CREM_A_PREFIX, &c->prefix[i]))
			return -EMSGSIZE;
	for (i = 0; i < c->nreporters; i++)
		if (put_prefix(msg, CREM_A_REPORTER, &c->reporter[i]))
			return -EMSGSIZE;
	return 0;
}

static int fill_config(struct sk_buff *msg, struct crem_net *cn)
{
	int ret;

	rcu_read_lock();
	ret = put_config(msg, rcu_dereference(cn->cfg));
	rcu_read_unlock();
	return ret;
}

int crem_nl_get_config_doit(struct sk_buff *skb, struct genl_info *info)
{
	return crem_reply(info, fill_config);
}

/* A copy of the configuration to edit; the caller holds cfg_mutex. */
static struct crem_cfg *cfg_copy(struct crem_net *cn)
{
	const struct crem_cfg *old = rcu_dereference_protected(cn->cfg,
			lockdep_is_held(&cn->cfg_mutex));

	return kmemdup(old, sizeof(*old), GFP_KERNEL);
}

/*
 * Limits are bounded by the machine's memory, and a namespace other than
 * the initial one gets at most what the initial one allows: a user
 * namespace's administrator cannot make crem pin more than that.
 */
static int check_limits(struct crem_net *cn, const struct crem_cfg *c,
			struct genl_info *info)
{
	u64 ram = (u64)totalram_pages() << PAGE_SHIFT;
	const struct crem_cfg *top;
	int ret = 0;

	if (c->mem_limit > ram / 2 || c->flow_mem_limit > c->mem_limit) {
		NL_SET_ERR_MSG(info->extack,
			       "mem-limit is at most half the memory, flow-mem-limit at most mem-limit");
		return -ERANGE;
	}
	if (!c->hello_rate || c->hello_rate > CREM_HELLO_RATE_MAX) {
		NL_SET_ERR_MSG(info->extack, "hello-rate is 1 to "
			       __stringify(CREM_HELLO_RATE_MAX)
			       " new flows a second");
		return -ERANGE;
	}
	if (net_eq(cn->net, &init_net))
		return 0;
	rcu_read_lock();
	top = rcu_dereference(crem_net(&init_net)->cfg);
	if (c->mem_limit > top->mem_limit ||
	    c->flow_mem_limit > top->flow_mem_limit ||
	    c->max_flows > top->max_flows) {
		NL_SET_ERR_MSG(info->extack,
			       "limits above the initial namespace's are not allowed");
		ret = -EPERM;
	}
	rcu_read_unlock();
	return ret;
}

/* Publish @c after the engine's own check of its tunables. */
static int cfg_commit(struct crem_net *cn, struct crem_cfg *c,
		      struct genl_info *info)
{
	const char *why;
	int ret;

	if (crem_unloading() && c->enabled && c->port) {
		NL_SET_ERR_MSG(info->extack, "crem is being unloaded");
		kfree(c);
		return -ESHUTDOWN;
	}
	ret = check_limits(cn, c, info);
	if (ret) {
		kfree(c);
		return ret;
	}
	if (crem_engine_config_check(&c->eng, &why)) {
		/* why is a static string, as NL_SET_ERR_MSG() needs */
		if (info->extack)
			info->extack->_msg = why;
		kfree(c);
		return -EINVAL;
	}
	return crem_net_apply(cn, c, info->extack);
}

int crem_nl_set_config_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct crem_net *cn = crem_net(genl_info_net(info));
	struct nlattr **a = info->attrs;
	struct crem_cfg *c;
	int ret;

	crem_net_stat_inc(cn, CREM_STAT_CTL_REQUESTS);
	mutex_lock(&cn->cfg_mutex);
	c = cfg_copy(cn);
	if (!c) {
		mutex_unlock(&cn->cfg_mutex);
		return -ENOMEM;
	}
	if (a[CREM_A_PORT])
		c->port = nla_get_u16(a[CREM_A_PORT]);
	if (a[CREM_A_ROLE]) {
		c->role = nla_get_u8(a[CREM_A_ROLE]);
		if (!c->role || c->role & ~(CREM_ROLE_SENDER |
					    CREM_ROLE_RECEIVER)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a[CREM_A_ROLE],
					    "role: 1 sender, 2 receiver, 3 both");
			kfree(c);
			mutex_unlock(&cn->cfg_mutex);
			return -EINVAL;
		}
	}
	if (a[CREM_A_ENABLED])
		c->enabled = nla_get_u8(a[CREM_A_ENABLED]);
	if (a[CREM_A_K])
		c->eng.k = nla_get_u8(a[CREM_A_K]);
	if (a[CREM_A_M])
		c->eng.m = nla_get_u8(a[CREM_A_M]);
	if (a[CREM_A_ADAPTIVE])
		c->eng.adaptive = nla_get_u8(a[CREM_A_ADAPTIVE]);
	if (a[CREM_A_M_CONG])
		c->eng.m_cong = nla_get_u8(a[CREM_A_M_CONG]);
	if (a[CREM_A_EPSILON_PPM])
		c->eng.epsilon_ppm = nla_get_u32(a[CREM_A_EPSILON_PPM]);
	if (a[CREM_A_HOLD_US])
		c->eng.hold_ns = nla_get_u32(a[CREM_A_HOLD_US]) * 1000ull;
	if (a[CREM_A_REORDER_US])
		c->eng.reorder_ns = nla_get_u32(a[CREM_A_REORDER_US]) * 1000ull;
	/* A fixed H or allowance asked for is one to be used. */
	if (a[CREM_A_HOLD_US] || a[CREM_A_REORDER_US])
		c->eng.auto_timing = false;
	if (a[CREM_A_AUTO_TIMING])
		c->eng.auto_timing = nla_get_u8(a[CREM_A_AUTO_TIMING]);
	if (a[CREM_A_CODER_MBS])
		c->eng.coder_mbs = nla_get_u32(a[CREM_A_CODER_MBS]);
	if (a[CREM_A_RESEND_COPIES])
		c->eng.resend_copies = nla_get_u8(a[CREM_A_RESEND_COPIES]);
	if (a[CREM_A_MAX_FLOWS])
		c->max_flows = nla_get_u32(a[CREM_A_MAX_FLOWS]);
	if (a[CREM_A_MAX_OPEN_BLOCKS]) {
		c->eng.max_open_blocks = nla_get_u16(a[CREM_A_MAX_OPEN_BLOCKS]);
		c->eng.limits.max_open_blocks = c->eng.max_open_blocks;
	}
	if (a[CREM_A_MEM_LIMIT])
		c->mem_limit = nla_get_u64(a[CREM_A_MEM_LIMIT]);
	if (a[CREM_A_FLOW_MEM_LIMIT])
		c->flow_mem_limit = nla_get_u64(a[CREM_A_FLOW_MEM_LIMIT]);
	if (a[CREM_A_HELLO_RATE])
		c->hello_rate = nla_get_u32(a[CREM_A_HELLO_RATE]);
	/* k can only go up to what we announce. */
	if (c->eng.k > c->eng.limits.max_k)
		c->eng.limits.max_k = c->eng.k;
	ret = cfg_commit(cn, c, info);
	mutex_unlock(&cn->cfg_mutex);
	return ret;
}

/* Parse a prefix nest; @peer_ok: a peer address is allowed. */
static int get_prefix(struct nlattr *nest, bool peer_ok, struct crem_prefix *p,
		      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[CREM_A_PREFIX_MAX + 1];
	unsigned int alen, bits;
	int ret;

	ret = nla_parse_nested(tb, CREM_A_PREFIX_MAX, nest, NULL, extack);
	if (ret)
		return ret;
	memset(p, 0, sizeof(*p));
	if (!tb[CREM_A_PREFIX_FAMILY] || !tb[CREM_A_PREFIX_ADDR]) {
		NL_SET_ERR_MSG(extack, "a prefix needs a family and an address");
		return -EINVAL;
	}
	p->af = nla_get_u8(tb[CREM_A_PREFIX_FAMILY]);
	if (p->af != CREM_AF_INET && p->af != CREM_AF_INET6) {
		NL_SET_ERR_MSG(extack, "family must be 4 or 6");
		return -EINVAL;
	}
	alen = p->af == CREM_AF_INET ? 4 : 16;
	bits = alen * 8;
	if (nla_len(tb[CREM_A_PREFIX_ADDR]) != alen) {
		NL_SET_ERR_MSG(extack, "address length does not match the family");
		return -EINVAL;
	}
	nla_memcpy(p->addr, tb[CREM_A_PREFIX_ADDR], alen);
	p->len = tb[CREM_A_PREFIX_LEN] ? nla_get_u8(tb[CREM_A_PREFIX_LEN]) :
					  bits;
	if (p->len > bits) {
		NL_SET_ERR_MSG(extack, "prefix length too long for the family");
		return -EINVAL;
	}
	if (tb[CREM_A_PREFIX_PEER]) {
		if (!peer_ok) {
			NL_SET_ERR_MSG(extack, "a reporter has no peer");
			return -EINVAL;
		}
		if (nla_len(tb[CREM_A_PREFIX_PEER]) != alen) {
			NL_SET_ERR_MSG(extack,
				       "peer length does not match the family");
			return -EINVAL;
		}
		nla_memcpy(p->peer, tb[CREM_A_PREFIX_PEER], alen);
		p->has_peer = true;
	}
	return 0;
}

static bool same_prefix(const struct crem_prefix *a,
			const struct crem_prefix *b)
{
	return a->af == b->af && a->len == b->len &&
	       !memcmp(a->addr, b->addr, 16);
}

/* Add or delete @nest in @list (@n entries, room for @max). */
static int edit_list(struct crem_net *cn, struct genl_info *info, int type,
		     bool add)
{
	struct nlattr *nest = info->attrs[type];
	bool reporters = type == CREM_A_REPORTER;
	struct crem_prefix p, *list;
	unsigned int *n, max, i;
	struct crem_cfg *c;
	int ret;

	crem_net_stat_inc(cn, CREM_STAT_CTL_REQUESTS);
	if (!nest) {
		NL_SET_ERR_MSG(info->extack, "no prefix given");
		return -EINVAL;
	}
	ret = get_prefix(nest, !reporters, &p, info->extack);
	if (ret)
		return ret;
	mutex_lock(&cn->cfg_mutex);
	c = cfg_copy(cn);
	if (!c) {
		mutex_unlock(&cn->cfg_mutex);
		return -ENOMEM;
	}
	list = reporters ? c->reporter : c->prefix;
	n = reporters ? &c->nreporters : &c->nprefixes;
	max = reporters ? CREM_MAX_REPORTERS : CREM_MAX_PREFIXES;
	for (i = 0; i < *n && !same_prefix(&list[i], &p); i++)
		;
	if (add && i < *n) {
		list[i] = p;		/* a new peer for a known prefix */
	} else if (add && *n == max) {
		NL_SET_ERR_MSG(info->extack, "too many prefixes");
		ret = -ENOSPC;
	} else if (add) {
		list[(*n)++] = p;
	} else if (i == *n) {
		NL_SET_ERR_MSG(info->extack, "no such prefix");
		ret = -ENOENT;
	} else {
		list[i] = list[--(*n)];
	}
	if (ret)
		kfree(c);
	else
		ret = cfg_commit(cn, c, info);
	mutex_unlock(&cn->cfg_mutex);
	return ret;
}

int crem_nl_protect_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	return edit_list(crem_net(genl_info_net(info)), info, CREM_A_PREFIX,
			 true);
}

int crem_nl_protect_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	return edit_list(crem_net(genl_info_net(info)), info, CREM_A_PREFIX,
			 false);
}

int crem_nl_reporter_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	return edit_list(crem_net(genl_info_net(info)), info, CREM_A_REPORTER,
			 true);
}

int crem_nl_reporter_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	return edit_list(crem_net(genl_info_net(info)), info, CREM_A_REPORTER,
			 false);
}
