/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the CSF and CRF engines share: their tunables, with the draft's
 * recommended defaults, and the per-flow counters.
 *
 * A struct crem_engine_config is copied into each flow when it is created,
 * so a configuration change applies to new flows and never races with a
 * running one.
 */
#ifndef CREM_CORE_ENGINE_H
#define CREM_CORE_ENGINE_H

#include "hello.h"
#include "stats.h"

#define CREM_MS 1000000ull
#define CREM_US 1000ull

struct crem_engine_config {
	/* Policy (CSF) */
	u8 scheme;		/* CREM_FEC_CAUCHY_RS (XOR is optional) */
	u8 k;			/* RECOMMENDED 32 */
	u8 m;			/* fixed m, or the adaptive policy's start */
	bool adaptive;		/* m follows the redundancy policy */
	u8 m_cong;		/* RECOMMENDED 1 */
	u32 epsilon_ppm;	/* RECOMMENDED 100 (1e-4) */
	/* CRF */
	u64 hold_ns;		/* H; 0 holds nothing */
	u64 reorder_ns;		/* reordering allowance; RECOMMENDED H */
	u16 max_open_blocks;
	bool fallback_source_copy;	/* ask for Source Copy, not release */
	/* Both */
	struct crem_limits limits;	/* what this side supports */
	u64 initial_rtt_ns;	/* SRTT before the first sample */
	u64 idle_ns;		/* a flow silent this long ends */
	u64 burst_gap_ns;	/* the CSF closes a block after this silence */
	u16 max_blocks;		/* CSF: blocks kept for retransmission */
	u16 max_held;		/* CRF: packets held for ordering */
	u32 window;		/* CRF: PSN positions of sources kept */
};

/* The draft's recommendations and crem's defaults for the rest. */
void crem_engine_config_default(struct crem_engine_config *cfg);

/*
 * Check a configuration.  Return: 0, or -EINVAL with @why (if not NULL)
 * naming the bad field.
 */
int crem_engine_config_check(const struct crem_engine_config *cfg,
			     const char **why);

/*
 * Per-flow counters.  The glue sums them into the namespace's totals when
 * a flow ends, and exports both by name (crem_flow_stat_name()).
 */
#define CREM_FLOW_STATS(X)						\
	X(SOURCES, "sources")						\
	X(SOURCE_BYTES, "source_bytes")					\
	X(SOURCES_RETRANSMITTED, "sources_retransmitted")		\
	X(SOURCES_UNPROTECTED, "sources_unprotected")			\
	X(BLOCKS, "blocks")						\
	X(BLOCKS_CLOSED_EARLY, "blocks_closed_early")			\
	X(BLOCKS_ACKED, "blocks_acked")					\
	X(BLOCKS_GIVEN_UP, "blocks_given_up")				\
	X(MEMORY_REFUSED, "memory_refused")				\
	X(REPAIRS_SENT, "repairs_sent")					\
	X(REPAIR_BYTES_SENT, "repair_bytes_sent")			\
	X(REPAIRS_DEFERRED, "repairs_deferred")				\
	X(REPAIRS_RATE_DROPPED, "repairs_rate_dropped")			\
	X(REPAIRS_PROACTIVE, "repairs_proactive")			\
	X(REPAIRS_WITHHELD, "repairs_withheld")				\
	X(REQUESTS_ANSWERED, "requests_answered")			\
	X(REQUESTS_RATE_LIMITED, "requests_rate_limited")		\
	X(REQUESTS_UNKNOWN_BLOCK, "requests_unknown_block")		\
	X(REQUESTS_REFUSED, "requests_refused")				\
	X(CODED_RETX, "coded_retx")					\
	X(CODED_RETX_SYMBOLS, "coded_retx_symbols")			\
	X(CODED_RETX_LOST, "coded_retx_lost")				\
	X(SOURCE_COPY_SYMBOLS, "source_copy_symbols")			\
	X(INFO_SENT, "info_sent")					\
	X(FALLBACKS, "fallbacks")					\
	X(CONFIG_CHANGES, "config_changes")				\
	X(BREAKER_TRIPS, "breaker_trips")				\
	X(PATH_REPORTS, "path_reports")					\
	X(REPAIRS_RECEIVED, "repairs_received")				\
	X(REPAIRS_CE, "repairs_ce")					\
	X(REPAIRS_USELESS, "repairs_useless")				\
	X(REPAIRS_REJECTED, "repairs_rejected")				\
	X(SOURCES_CE, "sources_ce")					\
	X(SOURCES_DUPLICATE, "sources_duplicate")			\
	X(SOURCES_LATE, "sources_late")					\
	X(RESTORED, "restored")						\
	X(RESTORED_LATE, "restored_late")				\
	X(RESTORED_BYTES, "restored_bytes")				\
	X(ICRC_FAILURES, "icrc_failures")				\
	X(BLOCKS_DECODED, "blocks_decoded")				\
	X(BLOCKS_INCOMPLETE, "blocks_incomplete")			\
	X(BLOCKS_FELL_BACK, "blocks_fell_back")				\
	X(BLOCKS_DROPPED, "blocks_dropped")				\
	X(REQUESTS_SENT, "requests_sent")				\
	X(RANGE_REQUESTS_SENT, "range_requests_sent")			\
	X(FALLBACK_REQUESTS_SENT, "fallback_requests_sent")		\
	X(HELD, "held")							\
	X(HOLD_EXPIRED, "hold_expired")					\
	X(HOLD_FULL, "hold_full")					\
	X(LOSS_REPORTS_SENT, "loss_reports_sent")			\
	X(LOSS_REPORTS_RECEIVED, "loss_reports_received")		\
	X(MSGS_SENT, "msgs_sent")					\
	X(MSGS_RECEIVED, "msgs_received")				\
	X(MSGS_IGNORED, "msgs_ignored")					\
	X(SEND_ERRORS, "send_errors")					\
	X(CLOSES_SENT, "closes_sent")					\
	X(CLOSES_RECEIVED, "closes_received")

#define CREM_FLOW_STAT_ENUM(id, name) CREM_FS_##id,
enum crem_flow_stat {
	CREM_FLOW_STATS(CREM_FLOW_STAT_ENUM)
	CREM_FLOW_STAT_COUNT
};
#undef CREM_FLOW_STAT_ENUM

struct crem_flow_stats {
	u64 v[CREM_FLOW_STAT_COUNT];
	/* by message type, 1..9; [0] unused */
	u64 sent[CREM_MSG_CLOSE + 1];
	u64 received[CREM_MSG_CLOSE + 1];
};

/* The exported name of a per-flow counter, or NULL. */
const char *crem_flow_stat_name(unsigned int stat);

/* "repair", "hello", ... for a message type, or NULL. */
const char *crem_msg_type_name(unsigned int type);

/*
 * Send the built message @buf of @len bytes through @env for @owner and
 * count it in @st (by type, and failures).  Shared by both engines.
 */
int crem_engine_send(const struct crem_env *env, void *owner,
		     struct crem_flow_stats *st, const u8 *buf, int len,
		     u8 dscp);

/*
 * The environment an engine hands to its parts (hello.c, param.c): their
 * messages are sent and counted as the flow's, and their arm() does
 * nothing, because a flow has one deadline, which the engine recomputes
 * from theirs after every event.
 */
struct crem_sub_env {
	struct crem_env env;
	const struct crem_env *parent;
	void *owner;
	struct crem_flow_stats *stats;
	const u8 *dscp;
};

void crem_sub_env_init(struct crem_sub_env *sub, const struct crem_env *parent,
		       void *owner, struct crem_flow_stats *stats,
		       const u8 *dscp);

/* Smoothed RTT in the manner of RFC 6298 (alpha 1/8). */
static inline void crem_srtt_sample(u64 *srtt, bool *have, u64 sample)
{
	if (!*have)
		*srtt = sample;
	else if (sample > *srtt)
		*srtt += (sample - *srtt) >> 3;
	else
		*srtt -= (*srtt - sample) >> 3;
	*have = true;
}

#endif /* CREM_CORE_ENGINE_H */
