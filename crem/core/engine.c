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
	/* H per flow, from its pace and minimum RTT (crem_flow_hold_ns()). */
	cfg->auto_timing = true;
	/* With auto_timing off: one block at 10 Gb/s, under a WAN RTT / 4. */
	cfg->hold_ns = 100 * CREM_US;
	cfg->reorder_ns = 100 * CREM_US;
	cfg->max_open_blocks = 256;
	cfg->fallback_source_copy = true;
	/* Off: no gain measured in the lab (engine.rst, "Resends"). */
	cfg->resend_copies = false;
	cfg->limits.schemes = 1u << CREM_FEC_SOURCE_COPY |
			      1u << CREM_FEC_CAUCHY_RS;
	cfg->limits.max_k = 64;
	cfg->limits.max_m = 16;
	/* A 4096-byte RDMA MTU plus the largest headers and the length. */
	cfg->limits.max_t = 4096 + 64 + 2;
	cfg->limits.max_open_blocks = 256;
	/* Long links: a round trip of milliseconds; learnt from then on. */
	cfg->initial_rtt_ns = 10 * CREM_MS;
	cfg->idle_ns = 10000 * CREM_MS;
	cfg->burst_gap_ns = 50 * CREM_US;
	cfg->max_blocks = 256;
	cfg->max_held = 256;
	cfg->window = 1024;
	cfg->window_idle_ns = 1000 * CREM_MS;
}

u64 crem_flow_hold_ns(const struct crem_engine_config *cfg, unsigned int k,
		      u64 gap_ns, u64 min_rtt_ns)
{
	u64 cap = min_rtt_ns / 4, hold;

	if (!cfg->auto_timing)
		return cfg->hold_ns;
	if (!k || !gap_ns || gap_ns >= crem_div64(cap, 2 * k))
		return cap;
	hold = 2 * (u64)k * gap_ns;
	if (hold < CREM_HOLD_MIN_NS)
		hold = CREM_HOLD_MIN_NS;
	return hold < cap ? hold : cap;
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
	else if (!cfg->initial_rtt_ns || !cfg->idle_ns || !cfg->burst_gap_ns ||
		 !cfg->window_idle_ns)
		bad = "initial_rtt, idle, burst_gap and window_idle must be non-zero";
	if (why)
		*why = bad;
	return bad ? -EINVAL : 0;
}

static const char *const crem_flow_stat_names[] = {
	[CREM_FS_SOURCES] = "sources",
	[CREM_FS_SOURCE_BYTES] = "source_bytes",
	[CREM_FS_SOURCES_RETRANSMITTED] = "sources_retransmitted",
	[CREM_FS_SOURCES_UNPROTECTED] = "sources_unprotected",
	[CREM_FS_BLOCKS] = "blocks",
	[CREM_FS_BLOCKS_CLOSED_EARLY] = "blocks_closed_early",
	[CREM_FS_BLOCKS_ACKED] = "blocks_acked",
	[CREM_FS_BLOCKS_GIVEN_UP] = "blocks_given_up",
	[CREM_FS_ACKS_IGNORED] = "acks_ignored",
	[CREM_FS_MEMORY_REFUSED] = "memory_refused",
	[CREM_FS_REPAIRS_SENT] = "repairs_sent",
	[CREM_FS_REPAIR_BYTES_SENT] = "repair_bytes_sent",
	[CREM_FS_REPAIRS_DEFERRED] = "repairs_deferred",
	[CREM_FS_REPAIRS_RATE_DROPPED] = "repairs_rate_dropped",
	[CREM_FS_REPAIRS_PROACTIVE] = "repairs_proactive",
	[CREM_FS_REPAIRS_WITHHELD] = "repairs_withheld",
	[CREM_FS_REPAIRS_SCALED] = "repairs_scaled",
	[CREM_FS_REQUESTS_ANSWERED] = "requests_answered",
	[CREM_FS_REQUESTS_RATE_LIMITED] = "requests_rate_limited",
	[CREM_FS_REQUESTS_UNKNOWN_BLOCK] = "requests_unknown_block",
	[CREM_FS_REQUESTS_REFUSED] = "requests_refused",
	[CREM_FS_CODED_RETX] = "coded_retx",
	[CREM_FS_CODED_RETX_SYMBOLS] = "coded_retx_symbols",
	[CREM_FS_CODED_RETX_LOST] = "coded_retx_lost",
	[CREM_FS_SOURCE_COPY_SYMBOLS] = "source_copy_symbols",
	[CREM_FS_INFO_SENT] = "info_sent",
	[CREM_FS_FALLBACKS] = "fallbacks",
	[CREM_FS_CONFIG_CHANGES] = "config_changes",
	[CREM_FS_BREAKER_TRIPS] = "breaker_trips",
	[CREM_FS_PATH_REPORTS] = "path_reports",
	[CREM_FS_REPAIRS_RECEIVED] = "repairs_received",
	[CREM_FS_REPAIRS_CE] = "repairs_ce",
	[CREM_FS_REPAIRS_USELESS] = "repairs_useless",
	[CREM_FS_REPAIRS_REJECTED] = "repairs_rejected",
	[CREM_FS_SOURCES_CE] = "sources_ce",
	[CREM_FS_SOURCES_DUPLICATE] = "sources_duplicate",
	[CREM_FS_SOURCES_LATE] = "sources_late",
	[CREM_FS_SOURCES_REORDERED] = "sources_reordered",
	[CREM_FS_RESTORED] = "restored",
	[CREM_FS_RESTORED_LATE] = "restored_late",
	[CREM_FS_RESTORED_BYTES] = "restored_bytes",
	[CREM_FS_COPIES_RESENT] = "copies_resent",
	[CREM_FS_LOSSES] = "losses",
	[CREM_FS_LOSSES_RESTORED] = "losses_restored",
	[CREM_FS_LOSSES_RESTORED_LATE] = "losses_restored_late",
	[CREM_FS_LOSSES_RDMA_UNPROTECTED] = "losses_rdma_unprotected",
	[CREM_FS_LOSSES_RDMA_NO_REPAIRS] = "losses_rdma_no_repairs",
	[CREM_FS_LOSSES_RDMA_HOLD_EXPIRED] = "losses_rdma_hold_expired",
	[CREM_FS_LOSSES_RDMA_CODED_LATE] = "losses_rdma_coded_late",
	[CREM_FS_LOSSES_RDMA_INCOMPLETE] = "losses_rdma_incomplete",
	[CREM_FS_LOSSES_RDMA_LIMITS] = "losses_rdma_limits",
	[CREM_FS_MISSES_UNCONFIRMED] = "misses_unconfirmed",
	[CREM_FS_ICRC_FAILURES] = "icrc_failures",
	[CREM_FS_BLOCKS_DECODED] = "blocks_decoded",
	[CREM_FS_BLOCKS_INCOMPLETE] = "blocks_incomplete",
	[CREM_FS_BLOCKS_FELL_BACK] = "blocks_fell_back",
	[CREM_FS_BLOCKS_DROPPED] = "blocks_dropped",
	[CREM_FS_REQUESTS_SENT] = "requests_sent",
	[CREM_FS_RANGE_REQUESTS_SENT] = "range_requests_sent",
	[CREM_FS_FALLBACK_REQUESTS_SENT] = "fallback_requests_sent",
	[CREM_FS_HELD] = "held",
	[CREM_FS_HOLD_EXPIRED] = "hold_expired",
	[CREM_FS_HOLD_FULL] = "hold_full",
	[CREM_FS_HOLD_LATE] = "hold_late",
	[CREM_FS_HOLD_BEYOND_REPAIRS] = "hold_beyond_repairs",
	[CREM_FS_LOSS_REPORTS_SENT] = "loss_reports_sent",
	[CREM_FS_LOSS_REPORTS_RECEIVED] = "loss_reports_received",
	[CREM_FS_MSGS_SENT] = "msgs_sent",
	[CREM_FS_MSGS_RECEIVED] = "msgs_received",
	[CREM_FS_MSGS_IGNORED] = "msgs_ignored",
	[CREM_FS_SEND_ERRORS] = "send_errors",
	[CREM_FS_CLOSES_SENT] = "closes_sent",
	[CREM_FS_CLOSES_RECEIVED] = "closes_received",
	[CREM_FS_HELLO_ACKS_LATE] = "hello_acks_late",
	[CREM_FS_SILENCE_PROBES] = "silence_probes",
};

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
