/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CREM receiver function (CRF) for one protected flow.
 *
 * States: a CRF is created ACTIVE by the HELLO it answers and becomes
 * CLOSED on CLOSE (either way) or idleness; the owner then destroys it.
 *
 * Data: every source packet of the flow is copied, as its source symbol,
 * into a window of the last W PSN positions (W a power of two, at least
 * four blocks of the largest k), because block boundaries are learnt only
 * from REPAIR messages, which follow their block.  A block is tracked from
 * its first REPAIR (or INFO) in one of Max Open Blocks slots; only a block
 * that misses sources takes a decoding buffer (crf_block.h), filled from
 * the window.  It decodes as soon as its symbols number its present
 * positions; each restored packet is rebuilt (restore.h), its ICRC checked,
 * and delivered; one that fails is discarded and asked for with FALLBACK.
 *
 * A block is incomplete when a packet beyond it, or all its repairs, came
 * and the reordering allowance passed: the CRF sends the block-form
 * REPAIR_REQUEST, at most two coded rounds, then FALLBACK (Source Copy) or
 * release.  A gap that no REPAIR explains gets the PSN-range form.
 *
 * Ordering: with a hold time H, packets after a gap are held (the caller
 * keeps them; the engine has their handle) and released in PSN order as
 * the gap fills, or when the oldest has waited H.  Restored packets are
 * delivered in place; late ones still go.
 *
 * Memory: the structure, the window (W symbols), a packet buffer, and one
 * decoding buffer per incomplete block, all from the environment's alloc().
 *
 * Locking: as the CSF: the caller serialises every call for one flow.
 */
#ifndef CREM_CORE_CRF_H
#define CREM_CORE_CRF_H

#include "crf_block.h"
#include "engine.h"
#include "param.h"
#include "restore.h"
#include "roce.h"

enum crem_crf_state {
	CREM_CRF_ACTIVE,
	CREM_CRF_CLOSED,
};

/* What to do with a source packet the CRF has seen. */
enum crem_crf_verdict {
	CREM_CRF_PASS,		/* let it go on now */
	CREM_CRF_HOLD,		/* the engine keeps @held; release() later */
};

enum crem_crf_pos_state {
	CREM_POS_EMPTY,
	CREM_POS_RECEIVED,
	CREM_POS_ABSENT,	/* a READ response's PSN, or INFO said so */
	CREM_POS_RESTORED,
};

struct crem_crf_pos {
	u32 psn;
	u8 state;
	bool held;		/* its packet waits in the hold queue */
	bool late;		/* arrived after it was missed: not for decoding */
	u8 gap;			/* missing when a later PSN came: 1 + asks */
	u64 missing_ns;		/* when it was first missed */
};

enum crem_crf_slot_state {
	CREM_SLOT_FREE,
	CREM_SLOT_OPEN,
	CREM_SLOT_DONE,		/* every present source held */
	CREM_SLOT_FELL_BACK,	/* left to the RDMA transport */
};

struct crem_crf_slot {
	u8 state;
	u8 k, config_id, m;
	u16 symbol_len;
	u32 start;
	struct crem_fec_set present;
	struct crem_crf_block *block;	/* decoding buffer, or NULL */
	size_t size;
	u8 ordinary_seen;
	u8 rounds;			/* coded requests sent */
	bool fallback_sent;
	bool counted_incomplete;
	bool decode_due;		/* decodable: decode at the timeout */
	u64 deadline_ns;		/* next step, or CREM_NO_DEADLINE */
	u64 created_ns;
};

/* Sources kept for a gap asked about by PSN range (see crf.c). */
struct crem_crf_pin {
	u32 start;
	u32 count;
	u64 expires_ns;
	u8 *symbols;		/* count symbols, then the bitmaps below */
	u8 *have;		/* sources kept (as coded) */
	u8 *late;		/* arrived late: not as coded */
	size_t size;
};

struct crem_crf_held {
	u32 psn;
	u64 arrival_ns;
	void *handle;
};

struct crem_crf {
	const struct crem_env *env;
	void *owner;
	struct crem_sub_env sub;	/* for param */
	struct crem_engine_config cfg;
	enum crem_crf_state state;
	u16 close_reason;
	u32 flow_id;
	struct crem_flow_desc desc;
	u64 nonce;
	struct crem_limits limits;	/* effective: ours and the CSF's */
	struct crem_crf_param param;
	bool newest_seen;		/* a REPAIR of the newest configuration */
	u64 newest_seen_ns;
	u8 hello_ack[CREM_HELLO_ACK_MAX];
	u8 hello_ack_len;
	u64 armed_ns;			/* the deadline the environment has */
	struct crem_ip_template tmpl;
	u32 id_psn;			/* PSN whose IPv4 ID is tmpl.id_hint */

	/* window of PSN positions */
	struct crem_crf_pos *pos;
	u8 *symbols;
	u32 window;			/* W */
	size_t stride;
	u32 frontier;			/* one past the highest PSN seen */
	bool have_frontier;
	u32 next_deliver;		/* in-order point for the hold queue */
	bool have_next;

	struct crem_crf_slot *slots;	/* cfg.max_open_blocks */
	struct crem_crf_pin *pins;	/* cfg.max_open_blocks */
	unsigned int npins;
	struct crem_crf_held *held;	/* cfg.max_held, PSN order */
	u16 nheld;

	u8 *pkt;			/* a rebuilt IP packet */
	size_t pkt_size;
	u8 *msg;
	size_t msg_size;

	u64 srtt_ns;
	bool have_srtt;
	u64 hello_ack_ns;		/* for the first RTT sample */
	u16 request_id;
	u64 request_ns;			/* when request_id went out */
	u64 p;				/* loss EWMA, Q31, for delta */
	u64 gap_ns;			/* source inter-arrival EWMA */
	u64 last_source_ns;
	u64 last_activity_ns;
	u64 decode_due_ns;		/* a slot's decode_due, or none */
	u16 nopen;			/* slots OPEN (the others need no scan) */
	u16 pins_hi;			/* pins[] in use lie below this */
	u64 gap_due_ns;			/* the next gap to ask about by range */
	/* the LOSS_REPORT interval */
	u64 report_start_ns;
	struct crem_wire_loss_report report;

	struct crem_flow_stats stats;
};

/**
 * crem_crf_start() - create the receiving side of a flow from its HELLO
 * @crf: the flow
 * @env: the environment; must outlive the flow
 * @owner: what the environment knows the flow by
 * @cfg: tunables (checked); copied
 * @hello: the parsed HELLO
 * @in_use: says whether a Flow ID is taken, for crem_crf_hello()
 * @ctx: for @in_use
 *
 * Answers with HELLO_ACK.  Return: 0; -EINVAL; -EPROTONOSUPPORT for a flow
 * kind other than RoCEv2; -EAGAIN with no free Flow ID; -ENOMEM.
 */
int crem_crf_start(struct crem_crf *crf, const struct crem_env *env,
		   void *owner, const struct crem_engine_config *cfg,
		   const struct crem_msg *hello,
		   bool (*in_use)(void *ctx, u32 id), void *ctx);

/* A HELLO for an existing flow: answer again if it is a retransmission. */
int crem_crf_hello_again(struct crem_crf *crf, const struct crem_msg *hello);

/**
 * crem_crf_source() - a packet of the flow arrived from the CSF's side
 * @crf: the flow
 * @ip: the IP packet
 * @pkt: it, parsed by crem_roce_parse_ip()
 * @udp_payload: its UDP payload (BTH through ICRC)
 * @len: the payload's length
 * @handle: the caller's handle for the packet, should the CRF hold it
 *
 * Return: CREM_CRF_PASS, or CREM_CRF_HOLD when the engine keeps @handle
 * and will pass it to the environment's release() (within the hold time,
 * or at destroy).
 */
enum crem_crf_verdict crem_crf_source(struct crem_crf *crf, const u8 *ip,
				      const struct crem_roce_pkt *pkt,
				      const u8 *udp_payload, size_t len,
				      void *handle);

/* A CREM message for the flow, from the bound peer.  Return: 0 or -errno. */
int crem_crf_receive(struct crem_crf *crf, const struct crem_msg *msg, bool ce);

/* The flow's deadline passed. */
void crem_crf_timeout(struct crem_crf *crf);

/* Send CLOSE with @reason, release every held packet and block. */
void crem_crf_close(struct crem_crf *crf, u16 reason);

/* Release held packets and free all memory. */
void crem_crf_destroy(struct crem_crf *crf);

#endif /* CREM_CORE_CRF_H */
