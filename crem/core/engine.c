// SPDX-License-Identifier: GPL-2.0
/*
 * Shared pieces of the CSF and CRF engines (see engine.h).
 */
#include "engine.h"

void crem_engine_config_default(struct crem_engine_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->scheme = CREM_FEC_CAUCHY_RS;
	cfg->k = 32;
	cfg->m = 2;
	cfg->adaptive = true;
	cfg->m_cong = 1;
	cfg->epsilon_ppm = 100;
	/* H: about one block at 10 Gb/s, well under a quarter of a WAN RTT. */
	cfg->hold_ns = 100 * CREM_US;
	cfg->reorder_ns = 100 * CREM_US;
	cfg->max_open_blocks = 64;
	cfg->fallback_source_copy = true;
	cfg->limits.schemes = 1u << CREM_FEC_SOURCE_COPY |
			      1u << CREM_FEC_CAUCHY_RS;
	cfg->limits.max_k = 64;
	cfg->limits.max_m = 16;
	/* A 4096-byte RDMA MTU plus the largest headers and the length. */
	cfg->limits.max_t = 4096 + 64 + 2;
	cfg->limits.max_open_blocks = 64;
	cfg->initial_rtt_ns = 1 * CREM_MS;
	cfg->idle_ns = 10000 * CREM_MS;
	cfg->burst_gap_ns = 50 * CREM_US;
	cfg->max_blocks = 256;
	cfg->max_held = 256;
	cfg->window = 1024;
}

int crem_engine_config_check(const struct crem_engine_config *cfg,
			     const char **why)
{
	const char *bad = NULL;

	/* Scheme 2 (XOR parity) is OPTIONAL in the draft; crem offers 1. */
	if (cfg->scheme != CREM_FEC_CAUCHY_RS)
		bad = "scheme must be 1 (Cauchy Reed-Solomon)";
	else if (!(cfg->limits.schemes & 1u << cfg->scheme))
		bad = "the scheme is not among the supported schemes";
	else if (!cfg->k || cfg->k > cfg->limits.max_k)
		bad = "k must be 1..max_k";
	else if (cfg->m > cfg->limits.max_m || cfg->m + cfg->k > 255)
		bad = "m must be at most max_m, with k + m <= 255";
	else if (cfg->m_cong > cfg->limits.max_m)
		bad = "m_cong must be at most max_m";
	else if (!cfg->epsilon_ppm || cfg->epsilon_ppm >= 1000000)
		bad = "epsilon must be between 0 and 1";
	else if (cfg->limits.max_t < 3)
		bad = "max_t must be at least 3";
	else if (!cfg->max_open_blocks || !cfg->limits.max_open_blocks)
		bad = "max_open_blocks must be at least 1";
	else if (cfg->window > 1u << 20)
		bad = "window must be at most 2^20 positions";
	else if (cfg->max_blocks < 2)
		bad = "max_blocks must be at least 2";
	else if (!cfg->initial_rtt_ns || !cfg->idle_ns || !cfg->burst_gap_ns)
		bad = "initial_rtt, idle and burst_gap must be non-zero";
	if (why)
		*why = bad;
	return bad ? -EINVAL : 0;
}

#define CREM_FLOW_STAT_NAME(id, name) [CREM_FS_##id] = name,
static const char *const crem_flow_stat_names[] = {
	CREM_FLOW_STATS(CREM_FLOW_STAT_NAME)
};

#undef CREM_FLOW_STAT_NAME

_Static_assert(ARRAY_SIZE(crem_flow_stat_names) == CREM_FLOW_STAT_COUNT,
	       "a name for each");

const char *crem_flow_stat_name(unsigned int stat)
{
	return stat < CREM_FLOW_STAT_COUNT ? crem_flow_stat_names[stat] : NULL;
}

static const char *const crem_msg_type_names[] = {
	[CREM_MSG_REPAIR] = "repair",
	[CREM_MSG_HELLO] = "hello",
	[CREM_MSG_HELLO_ACK] = "hello_ack",
	[CREM_MSG_PARAM_UPDATE] = "param_update",
	[CREM_MSG_PARAM_ACK] = "param_ack",
	[CREM_MSG_REPAIR_REQUEST] = "repair_request",
	[CREM_MSG_LOSS_REPORT] = "loss_report",
	[CREM_MSG_PATH_REPORT] = "path_report",
	[CREM_MSG_CLOSE] = "close",
};

const char *crem_msg_type_name(unsigned int type)
{
	return type < ARRAY_SIZE(crem_msg_type_names) ?
	       crem_msg_type_names[type] : NULL;
}

int crem_engine_send(const struct crem_env *env, void *owner,
		     struct crem_flow_stats *st, const u8 *buf, int len,
		     u8 dscp)
{
	int err;

	if (CREM_WARN_ON_ONCE(len < CREM_COMMON_HDR_LEN))
		return -EINVAL;
	err = env->ops->send(env->ctx, owner, buf, len, dscp);
	if (err) {
		st->v[CREM_FS_SEND_ERRORS]++;
		return err;
	}
	st->v[CREM_FS_MSGS_SENT]++;
	st->sent[buf[0] & 0x0f]++;
	return 0;
}

static u64 sub_now(void *ctx)
{
	const struct crem_sub_env *sub = ctx;

	return sub->parent->ops->now_ns(sub->parent->ctx);
}

static void sub_arm(void *ctx, void *owner, u64 deadline)
{
}

static int sub_send(void *ctx, void *owner, const u8 *msg, size_t len, u8 dscp)
{
	const struct crem_sub_env *sub = ctx;

	return crem_engine_send(sub->parent, sub->owner, sub->stats, msg, len,
				*sub->dscp);
}

static void sub_random(void *ctx, void *buf, size_t len)
{
	const struct crem_sub_env *sub = ctx;

	sub->parent->ops->random(sub->parent->ctx, buf, len);
}

static const struct crem_env_ops crem_sub_env_ops = {
	.now_ns = sub_now,
	.arm = sub_arm,
	.send = sub_send,
	.random = sub_random,
};

void crem_sub_env_init(struct crem_sub_env *sub, const struct crem_env *parent,
		       void *owner, struct crem_flow_stats *stats,
		       const u8 *dscp)
{
	sub->env.ops = &crem_sub_env_ops;
	sub->env.ctx = sub;
	sub->parent = parent;
	sub->owner = owner;
	sub->stats = stats;
	sub->dscp = dscp;
}
