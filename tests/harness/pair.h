/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pair harness: one CSF and one CRF engine (crem/core/csf.h, crf.h)
 * joined by modelled paths on the simulator's virtual clock.
 *
 *   requester --data--> [CSF hook] ==data path==> [CRF hook] --> RDMA rx
 *        ^                  |  ^                     |  ^          |
 *        |                  fwd rev (CREM port)      |  |          |
 *        +-----------ack path (RDMA ACKs)-------------------------+
 *
 * The requester sends synthetic RoCEv2 (traffic.h); the RDMA receiver
 * model acknowledges what reached it in PSN order, and the requester, like
 * the RDMA transport, resends the first unacknowledged packet when
 * acknowledgements stall.  Every packet the receiver gets is checked
 * against what was sent: passed through untouched, restored byte-exact, or
 * left to the RDMA transport.  CREM messages travel in an IPv4 header with
 * ECT(0) so that the paths can mark them.  Tests drop chosen packets and
 * messages through hooks and read a log of every CREM message.
 * Userspace only; deterministic for a seed.
 */
#ifndef CREM_HARNESS_PAIR_H
#define CREM_HARNESS_PAIR_H

#include "crem/core/crf.h"
#include "crem/core/csf.h"
#include "sim.h"
#include "traffic.h"

#define CREM_PAIR_RECS (1u << 16)	/* PSNs remembered */
#define CREM_PAIR_WINDOW (1u << 14)	/* the requester's unacknowledged PSNs */

enum { CREM_PAIR_FWD, CREM_PAIR_REV };	/* CSF -> CRF, CRF -> CSF */

struct crem_pair_params {
	struct crem_engine_config csf_cfg, crf_cfg;
	struct crem_sim_path data, ack, fwd, rev;
	u64 seed;
	u32 first_psn;
	u64 rdma_rto_ns;	/* 0: the requester never resends */
	u32 ack_every;		/* the receiver acknowledges every n */
	bool ipv6;
	bool manual_start;	/* crem_pair_start() starts the CSF */
	/*
	 * The CRF's timer fires this late, as the kernel's timeout may on a
	 * busy CPU.
	 */
	u64 crf_timer_late_ns;
	u64 csf_timer_late_ns;	/* the same for the CSF's */
	/* The n-th allocation of either engine fails (0: none does). */
	u64 fail_alloc_nth;
	/* The CRF's allocations fail past this many octets (0: never). */
	u64 crf_mem_limit;
	/*
	 * The RDMA receiver takes only the next PSN in order and discards
	 * the rest, as a go-back-N transport does (rxe); else it takes each
	 * PSN once, as one with selective retransmission does.
	 */
	bool go_back_n;
	/*
	 * A go-back-N requester resends one packet every this many ns, as
	 * rxe's requester works through its window; 0: all at once.
	 */
	u64 rdma_resend_gap_ns;
};

/* Defaults: 5 ms each way, no loss, k=4 m=2 fixed, a mix of traffic. */
void crem_pair_params_default(struct crem_pair_params *par);

struct crem_pair_rec {
	u32 psn;
	bool used;
	bool absent;		/* a READ response PSN */
	bool lost;		/* the data path dropped it at least once */
	bool delivered;		/* reached the RDMA receiver */
	bool restored;
	bool requested;		/* named in a REPAIR_REQUEST */
	u8 sends;
	u16 len;
	u8 *pkt;
	u64 sent_ns;		/* first transmission */
	u64 last_sent_ns;
	u64 done_ns;
};

struct crem_pair_event {
	u64 at_ns;
	u8 dir;			/* CREM_PAIR_FWD or CREM_PAIR_REV */
	u8 type, flags;
	bool dropped;
	u8 dscp;
	struct crem_msg msg;	/* pointers inside are not kept */
	u8 nranges;		/* a range request's first ranges */
	struct crem_psn_range ranges[8];
};

struct crem_pair {
	struct crem_pair_params par;
	struct crem_sim sim;
	struct crem_sim_rng rng;
	struct crem_env csf_env, crf_env;
	struct crem_csf csf;
	struct crem_csf_slot *ring;
	bool csf_up;
	struct crem_crf crf;
	bool crf_up;
	struct crem_sim_timer csf_timer, crf_timer, rdma_timer;
	struct crem_traffic traffic;
	struct crem_fec_work *work;
	struct crem_pair_rec *rec;

	/* test hooks; return true to drop */
	bool (*drop_data)(struct crem_pair *p, u32 psn, unsigned int sends);
	/*
	 * Extra delay for a source's send on the data path; @sends counts
	 * its earlier sends (drop_data's count, kept while either is set).
	 */
	u64 (*delay_data)(struct crem_pair *p, u32 psn, unsigned int sends);
	bool (*drop_msg)(struct crem_pair *p, int dir, const struct crem_msg *m);
	/* may change a message's bytes on the wire (a forgery) */
	void (*mangle_msg)(struct crem_pair *p, int dir, u8 *msg, size_t len);
	void *user;
	/* what reached the RDMA receiver, in order (with keep_log) */
	struct crem_pair_rx {
		u64 at_ns;
		u32 psn;
		bool restored;
	} *rx;
	size_t nrx, rx_cap;

	struct crem_pair_event *log;
	size_t nlog, log_cap;
	bool keep_log;

	/* the requester and the RDMA receiver */
	u32 next_psn;		/* the requester's next new PSN */
	u32 rdma_next;		/* receiver: next PSN expected in order */
	u32 acked;		/* requester: acknowledged through acked - 1 */
	u64 ack_progress_ns;
	u32 since_ack;
	u32 to_send;
	u64 send_gap_ns;

	/* results */
	u64 sources, first_lost, delivered, passed, restored, restored_bad;
	u64 restored_twice, restored_unrequested, duplicates, rdma_resent;
	u64 mem_now, mem_peak, allocs;
	u64 crf_mem_now;	/* of mem_now, the CRF's */
	u64 alloc_calls;	/* with fail_alloc_nth: allocations asked */
	u64 left_finalized;	/* left to RDMA, among forgotten records */
	u64 *latency_ns;
	size_t nlatency, latency_cap;
	u64 repair_bytes;	/* REPAIR messages sent by the CSF */
	u64 closes_unknown;	/* CLOSEs for Flow IDs the CRF lacks */
	u64 events[CREM_EV_BREAKER + 1];	/* engine events by type */
	u64 source_bytes;	/* UDP payloads of first transmissions */
	/*
	 * matrix coding (scratch taken), and how much inside packet calls
	 * and timeouts, which run in softirq or the tick work in the kernel
	 */
	bool in_packet_call;
	/*
	 * What the CRF delivers inside its source call goes on around that
	 * source in PSN order, as the kernel's hook queues it (hooks.c,
	 * crf_source()).
	 */
	bool in_source_call;
	struct crem_pair_queued {
		u8 *pkt;
		size_t len;
		bool restored;
	} *queued;
	size_t nqueued, queued_cap;
	u64 discarded;		/* go_back_n: out of order, not taken */
	bool nak_sent;		/* go_back_n: a NAK for rdma_next is out */
	u64 naks;
	/* rdma_resend_gap_ns: the requester's resend round, from round_next */
	bool resending, resend_tick_armed;
	u32 round_next;
	/*
	 * ACKs for a PSN the requester has not sent again yet in its resend
	 * round: 6.12's rxe then renumbers its retry (crf.c, "Resends").
	 */
	u64 acked_ahead;
	/* Timeouts that left the deadline at or before now (a busy loop). */
	u64 timeouts_rearmed_past;
	u64 coded, coded_in_packet_call;
	/*
	 * Tests of decoding outside the flow's serialisation: with
	 * defer_decode, a claimed block waits in @deferred until
	 * crem_pair_finish_decode().
	 */
	bool defer_decode, have_deferred;
	/* The owner decodes nothing; the test claims (crem_crf_decode_*). */
	bool no_decode;
	struct crem_crf_decode deferred;
};

/* Build the pair; the CSF starts negotiating at once unless manual_start. */
int crem_pair_init(struct crem_pair *p, const struct crem_pair_params *par);
int crem_pair_start(struct crem_pair *p);
void crem_pair_free(struct crem_pair *p);

/* Run until @until_ns of virtual time. */
void crem_pair_run(struct crem_pair *p, u64 until_ns);

/* Run until HELLO and the first configuration are through (or @limit). */
bool crem_pair_establish(struct crem_pair *p, u64 limit_ns);

/* Send @count new packets, one every @gap_ns, starting now. */
void crem_pair_send(struct crem_pair *p, u32 count, u64 gap_ns);

/* Send one message of @kind and @bytes now (a READ of n MTUs spans n). */
void crem_pair_send_kind(struct crem_pair *p, enum crem_traffic_kind kind,
			 u32 bytes);

/* The record of @psn, or NULL if it was never sent (or is forgotten). */
struct crem_pair_rec *crem_pair_rec(struct crem_pair *p, u32 psn);

/* Messages logged of @type in direction @dir (arriving or not). */
unsigned int crem_pair_count(const struct crem_pair *p, int dir, u8 type);

/* Deliver a PATH_REPORT to the CSF as if from an allowed reporter. */
int crem_pair_path_report(struct crem_pair *p, struct crem_msg *m);

/*
 * Sources that were lost and neither restored nor yet delivered by the
 * RDMA transport's own resend: what crem left to the RDMA transport.
 */
u64 crem_pair_left_to_rdma(const struct crem_pair *p);

/* Decode and hand back the block held by defer_decode, if any. */
void crem_pair_finish_decode(struct crem_pair *p);

/* Does the CRF's count of open slots match its slots? */
bool crem_pair_open_count_ok(const struct crem_pair *p);

/* The @q-th quantile (0..1) of recovery latency, in ns. */
u64 crem_pair_latency(struct crem_pair *p, double q);

#endif /* CREM_HARNESS_PAIR_H */
