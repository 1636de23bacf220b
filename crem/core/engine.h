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
	/*
	 * A coder speed, crem_gf_measure()'s MB/s (source bytes into two
	 * rows), at which the policy prices each repair's coding
	 * (crem_policy_priced_m()).  0, the default: coding is taken to
	 * cost nothing, and m is the draft's.
	 */
	u32 coder_mbs;
	/* CRF (and the CSF's block timing, which must beat H) */
	bool auto_timing;	/* H, allowance and k per flow (engine.rst) */
	u64 hold_ns;		/* fixed H; 0 holds nothing */
	u64 reorder_ns;		/* fixed reordering allowance; RECOMMENDED H */
	u16 max_open_blocks;
	bool fallback_source_copy;	/* ask for Source Copy, not release */
	/*
	 * Hand on the kept copies of a window when the RDMA receiver asks
	 * for a PSN again (engine.rst, "Resends"): off by default, since
	 * rxe on 6.12 failed work requests with them (never harm).
	 */
	bool resend_copies;
	/* Both */
	struct crem_limits limits;	/* what this side supports */
	u64 initial_rtt_ns;	/* SRTT before the first sample */
	u64 idle_ns;		/* a flow silent this long ends */
	u64 burst_gap_ns;	/* the CSF closes a block after this silence */
	u16 max_blocks;		/* CSF: blocks kept for retransmission */
	u16 max_held;		/* CRF: packets held for ordering */
	u32 window;		/* CRF: PSN positions of sources kept */
	u64 window_idle_ns;	/* CRF: quiet this long, its symbols go */
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
enum crem_flow_stat {
	CREM_FS_SOURCES,
	CREM_FS_SOURCE_BYTES,
	CREM_FS_SOURCES_RETRANSMITTED,
	CREM_FS_SOURCES_UNPROTECTED,
	CREM_FS_BLOCKS,
	CREM_FS_BLOCKS_CLOSED_EARLY,
	CREM_FS_BLOCKS_ACKED,
	CREM_FS_BLOCKS_GIVEN_UP,
	CREM_FS_ACKS_IGNORED,		/* outside crem_csf_ack_range() */
	CREM_FS_MEMORY_REFUSED,
	CREM_FS_REPAIRS_SENT,
	CREM_FS_REPAIR_BYTES_SENT,
	CREM_FS_REPAIRS_DEFERRED,
	/*
	 * Due, never sent: the rate held them too long, H passed, or a
	 * coded answer covered their block.
	 */
	CREM_FS_REPAIRS_RATE_DROPPED,
	CREM_FS_REPAIRS_PROACTIVE,
	CREM_FS_REPAIRS_WITHHELD,
	CREM_FS_REPAIRS_SCALED,		/* fewer for a block cut short */
	CREM_FS_REQUESTS_ANSWERED,
	CREM_FS_REQUESTS_RATE_LIMITED,
	CREM_FS_REQUESTS_UNKNOWN_BLOCK,
	CREM_FS_REQUESTS_REFUSED,
	CREM_FS_CODED_RETX,
	CREM_FS_CODED_RETX_SYMBOLS,
	CREM_FS_CODED_RETX_LOST,
	CREM_FS_SOURCE_COPY_SYMBOLS,
	CREM_FS_INFO_SENT,
	CREM_FS_FALLBACKS,
	CREM_FS_CONFIG_CHANGES,
	CREM_FS_BREAKER_TRIPS,
	CREM_FS_PATH_REPORTS,
	CREM_FS_REPAIRS_RECEIVED,
	CREM_FS_REPAIRS_CE,
	CREM_FS_REPAIRS_USELESS,
	CREM_FS_REPAIRS_REJECTED,
	CREM_FS_SOURCES_CE,
	CREM_FS_SOURCES_DUPLICATE,
	CREM_FS_SOURCES_LATE,
	CREM_FS_SOURCES_REORDERED,	/* originals of early restores */
	CREM_FS_RESTORED,
	CREM_FS_RESTORED_LATE,
	CREM_FS_RESTORED_BYTES,
	/* copies of delivered sources handed on again behind a resend */
	CREM_FS_COPIES_RESENT,
	/*
	 * Every source lost on the link, by its end (engine.rst, "Every loss
	 * accounted for"): losses is the sum of the others.  Counted when
	 * its window position is reused or the flow ends.
	 */
	CREM_FS_LOSSES,
	CREM_FS_LOSSES_RESTORED,	/* before a later PSN went on */
	CREM_FS_LOSSES_RESTORED_LATE,
	CREM_FS_LOSSES_RDMA_UNPROTECTED, /* no configuration with repairs */
	CREM_FS_LOSSES_RDMA_NO_REPAIRS,	/* nothing of its block came */
	CREM_FS_LOSSES_RDMA_HOLD_EXPIRED, /* its repairs came too late */
	CREM_FS_LOSSES_RDMA_CODED_LATE,	/* asked for; RDMA's resend first */
	CREM_FS_LOSSES_RDMA_INCOMPLETE,	/* its block ran out of rounds */
	CREM_FS_LOSSES_RDMA_LIMITS,	/* its block lost its slot or memory */
	/* missed, never shown to be a source: no loss, or one not seen */
	CREM_FS_MISSES_UNCONFIRMED,
	CREM_FS_ICRC_FAILURES,
	CREM_FS_BLOCKS_DECODED,
	CREM_FS_BLOCKS_INCOMPLETE,
	CREM_FS_BLOCKS_FELL_BACK,
	CREM_FS_BLOCKS_DROPPED,
	CREM_FS_REQUESTS_SENT,
	CREM_FS_RANGE_REQUESTS_SENT,
	CREM_FS_FALLBACK_REQUESTS_SENT,
	CREM_FS_HELD,
	CREM_FS_HOLD_EXPIRED,
	CREM_FS_HOLD_FULL,
	CREM_FS_HOLD_LATE,
	/* blocks past their repairs whose held packets went at once */
	CREM_FS_HOLD_BEYOND_REPAIRS,
	CREM_FS_LOSS_REPORTS_SENT,
	CREM_FS_LOSS_REPORTS_RECEIVED,
	CREM_FS_MSGS_SENT,
	CREM_FS_MSGS_RECEIVED,
	CREM_FS_MSGS_IGNORED,
	CREM_FS_SEND_ERRORS,
	CREM_FS_CLOSES_SENT,
	CREM_FS_CLOSES_RECEIVED,
	CREM_FS_HELLO_ACKS_LATE,
	CREM_FS_SILENCE_PROBES,
	CREM_FLOW_STAT_COUNT
};

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

/*
 * A flow's pace over windows of about an RTT: the mean time between its
 * sources.  An EWMA of single gaps follows the last few of them, and a
 * sender that sends in clumps (soft-RoCE does) makes it swing between the
 * clump's spacing and its pauses; how long a block takes to fill is the
 * mean.  A silence of a whole window is no pace: the window starts again
 * after it, and the last mean stands.
 */
struct crem_pace {
	u64 start_ns;		/* the window's start, 0 before a source */
	u64 last_ns;		/* the last source */
	u32 sources;		/* after start_ns */
	u64 gap_ns;		/* the last window's mean gap; 0: none yet */
};

static inline void crem_pace_source(struct crem_pace *pace, u64 t,
				    u64 window_ns)
{
	if (!pace->start_ns || t - pace->last_ns >= window_ns) {
		pace->start_ns = t;
		pace->last_ns = t;
		pace->sources = 0;
		return;
	}
	pace->last_ns = t;
	pace->sources++;
	if (t - pace->start_ns >= window_ns) {
		pace->gap_ns = crem_div64(t - pace->start_ns, pace->sources);
		pace->start_ns = t;
		pace->sources = 0;
	}
}

/* The pace for H: the window's mean, else (early on) the EWMA's. */
static inline u64 crem_pace_gap_ns(const struct crem_pace *pace,
				   u64 ewma_gap_ns)
{
	return pace->gap_ns ? pace->gap_ns : ewma_gap_ns;
}

/* The shortest hold time crem derives: timer and scheduling slack. */
#define CREM_HOLD_MIN_NS (100 * CREM_US)

/**
 * crem_flow_hold_ns() - the hold time H of one flow
 * @cfg: the side's configuration
 * @k: PSN positions per block of the flow's configuration
 * @gap_ns: the flow's pace, a mean gap between sources; 0 if not known yet
 * @min_rtt_ns: the flow's minimum RTT
 *
 * With @cfg->auto_timing off, the configured H.  Otherwise the draft's
 * RECOMMENDED H, one block at the flow's rate, at most a quarter of the
 * minimum RTT, taken twice over: a source lost at the start of its block
 * waits for the whole block and then its REPAIRs, so one block's time
 * would run out just as they come.  At least CREM_HOLD_MIN_NS, unless a
 * quarter RTT is shorter; a flow whose pace is not known yet gets the
 * quarter RTT.  The CSF closes its blocks by H/2 with the same estimate
 * of its own, so their repairs beat the CRF's H.
 *
 * Return: H in nanoseconds.
 */
u64 crem_flow_hold_ns(const struct crem_engine_config *cfg, unsigned int k,
		      u64 gap_ns, u64 min_rtt_ns);

/**
 * crem_flow_reorder_ns() - the reordering allowance of one flow
 * @cfg: the side's configuration
 * @hold_ns: the flow's H (crem_flow_hold_ns())
 *
 * Return: the configured allowance, or with @cfg->auto_timing, the draft's
 * RECOMMENDED H.
 */
static inline u64 crem_flow_reorder_ns(const struct crem_engine_config *cfg,
				       u64 hold_ns)
{
	return cfg->auto_timing ? hold_ns : cfg->reorder_ns;
}

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

/*
 * The minimum RTT, which bounds the derived H: from the engines' own
 * exchanges only (HELLO, PARAM_UPDATE, coded retransmission), never from
 * RDMA ACKs, which may be another QP's between the same hosts and would
 * lower it for good.  0: none yet.
 */
static inline void crem_min_rtt_sample(u64 *min_rtt, u64 sample)
{
	if (sample && (!*min_rtt || sample < *min_rtt))
		*min_rtt = sample;
}

/* The minimum RTT to derive timing from: before a sample, the SRTT. */
static inline u64 crem_timing_rtt_ns(u64 min_rtt, u64 srtt)
{
	return min_rtt ? min_rtt : srtt;
}

#endif /* CREM_CORE_ENGINE_H */
