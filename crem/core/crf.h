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
 * Memory: the structure, the window's positions (and the IPv4 ID of each
 * position's kept copy, for resends), a packet buffer, and one
 * decoding buffer per incomplete block, all from the environment's alloc().
 * The window's symbols come in chunks of a few symbols, each taken when a
 * source first lands in it and all given back when the flow has been
 * quiet for window_idle_ns: a flow that carries nothing holds none, and
 * creating one is cheap enough for the receive path.
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
	/* Bit-fields: a third bool would take the entry from 16 to 24 bytes. */
	bool held:1;		/* its packet waits in the hold queue */
	bool late:1;		/* came after it was missed: not decoded */
	/*
	 * Restored while its original may still come: a REPAIR overtook it,
	 * or it was reordered past a later PSN.  An original that follows
	 * within the reordering allowance was not lost.
	 */
	bool original_due:1;
	/* its symbol is in the window, to be handed on again (resend) */
	bool kept:1;
	u8 gap;			/* missing when a later PSN came: 1 + asks */
	u8 fate;		/* for the loss breakdown: crf.c, FATE_* */
	/* when it was first missed, or restored if nothing missed it */
	u64 missing_ns;
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
	bool decode_due;		/* decodable: for crem_crf_decode_claim() */
	bool busy;			/* its block is out being decoded */
	u64 deadline_ns;		/* next step, or CREM_NO_DEADLINE */
	u64 created_ns;
	/* lost, their window positions reused before their end (crf.c) */
	struct crem_fec_set lost_later;
	/* restored before anything missed them, not yet delivered (crf.c) */
	struct crem_fec_set overtaken;
};

/* Sources kept for a gap asked about by PSN range (see crf.c). */
struct crem_crf_pin {
	u32 start;
	u32 count;
	u64 expires_ns;
	u8 *symbols;		/* count symbols, then the bitmaps below */
	u8 *have;		/* sources kept (as coded) */
	u8 *late;		/* arrived late: not as coded */
	u8 *unconfirmed;	/* missed, window position gone, unanswered */
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
	bool repairs_seen;		/* an ordinary REPAIR of one with m > 0 */
	u64 newest_seen_ns;
	u8 hello_ack[CREM_HELLO_ACK_MAX];
	u8 hello_ack_len;
	bool answered;			/* HELLO_ACK sent */
	u64 armed_ns;			/* the deadline the environment has */
	struct crem_ip_template tmpl;
	u32 id_psn;			/* PSN whose IPv4 ID is tmpl.id_hint */

	/* window of PSN positions */
	struct crem_crf_pos *pos;	/* NULL: no traffic state yet */
	bool reserve_failed;		/* a source found none to be had */
	bool heard_id;			/* a PARAM_UPDATE or REPAIR came */
	u8 **chunk;			/* symbols, chunk_syms each, or NULL */
	u32 nchunks;
	u32 nchunks_live;
	u16 chunk_syms;
	size_t chunk_size;
	u32 window;			/* W */
	size_t stride;
	u32 frontier;			/* one past the highest PSN seen */
	bool have_frontier;
	u32 next_deliver;		/* in-order point for the hold queue */
	bool have_next;
	/* a gap was missed since gap_beyond_repairs() last looked (crf.c) */
	bool gaps_unjudged;
	u32 passed_hi;			/* the highest PSN gone on to RDMA */
	bool have_passed;
	/* resends (crf.c, "Resends") */
	bool resending;			/* the receiver asked again ... */
	bool resend_started;		/* ... and the round has started */
	u32 resend_next;		/* the PSN the receiver expects */
	u64 resend_asked_ns;		/* when it asked */
	bool have_copied;
	u32 copied_hi;			/* the last copy handed on, ... */
	u64 copied_ns;			/* ... and when */
	u16 *ip_id;			/* per position: its kept copy's IPv4 ID */

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
	u64 min_rtt_ns;			/* own exchanges', for H; 0: none */
	bool have_srtt;
	u64 hello_ack_ns;		/* for the first RTT sample */
	u16 request_id;
	u64 request_ns;			/* when request_id went out */
	u64 p;				/* loss EWMA, Q31, for delta */
	u64 gap_ns;			/* source inter-arrival EWMA */
	struct crem_pace pace;		/* for H */
	u64 last_source_ns;
	u64 last_activity_ns;
	u64 decode_due_ns;		/* a slot's decode_due, or none */
	u16 nopen;			/* slots OPEN (the others need no scan) */
	u16 pins_hi;			/* pins[] in use lie below this */
	u64 gap_due_ns;			/* the next gap to ask about by range */
	/* the LOSS_REPORT interval */
	u64 report_start_ns;
	/* until when a position this interval counts may still come */
	u64 report_settle_ns;
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
 * Sends nothing: the owner answers with crem_crf_answer() once messages
 * to the new Flow ID can find the flow.  Return: 0; -EINVAL;
 * -EPROTONOSUPPORT for a flow kind other than RoCEv2; -EAGAIN with no free
 * Flow ID; -ENOMEM.
 */
int crem_crf_start(struct crem_crf *crf, const struct crem_env *env,
		   void *owner, const struct crem_engine_config *cfg,
		   const struct crem_msg *hello,
		   bool (*in_use)(void *ctx, u32 id), void *ctx);

/*
 * Send the HELLO_ACK that crem_crf_start() built, once: the CSF starts
 * sending to the Flow ID as soon as it arrives, so the owner calls this
 * only after the flow is where those messages look for it.  Return: 0,
 * -EALREADY if answered before, or the send's error.
 */
int crem_crf_answer(struct crem_crf *crf);

/*
 * Let every held packet go now, in PSN order, as if H had passed for all
 * of them (for instance, the device they came on is going away).
 */
void crem_crf_release_held(struct crem_crf *crf);

/**
 * crem_crf_asked_again() - the RDMA receiver asked its sender for @psn again
 * @crf: the flow
 * @psn: the PSN it wants next
 *
 * The owner calls this when the receiver of the flow's sources sends a NAK
 * for a PSN sequence error, or retries a READ request from @psn: it has
 * discarded what came after a gap (go-back-N), and its sender will send
 * everything again from @psn.  If the flow's configuration has
 * resend_copies (off by default), @psn lies within a window below the
 * highest PSN passed on, and the CRF has measured a round trip, the CRF
 * follows that resend round and hands on its kept copies of what the
 * round loses, each behind a later resend (crf.c, "Resends").
 *
 * Context: serialised with the flow's other calls.  Neither delivers nor
 * arms the timer: the owner may call it from the receiver's own send
 * path.
 */
void crem_crf_asked_again(struct crem_crf *crf, u32 psn);

/**
 * crem_crf_expire_held() - keep H when the flow's timer is late
 * @crf: the receiver
 * @psn: PSN of the source about to be given to crem_crf_source()
 *
 * Lets go, in PSN order, the held packets whose H has passed, if the
 * flow's deadline is overdue: in the kernel the timeout runs in a work or
 * a softirq that a busy CPU can delay for milliseconds, and the traffic
 * keeps H meanwhile.  The owner calls it before the source, and hands on what it
 * releases before that source (PSN order); nothing happens when @psn is
 * the gap they wait for (crem_crf_source() then lets them go behind it).
 */
void crem_crf_expire_held(struct crem_crf *crf, u32 psn);

/* A block taken out of the flow to be decoded (crem_crf_decode_claim()). */
struct crem_crf_decode {
	struct crem_crf_block *block;
	size_t size;
	u32 start;
	struct crem_fec_set missing;	/* what it restores */
	size_t cost;			/* octets of symbols it passes over */
	int restored;			/* crem_crf_block_decode()'s result */
};

/**
 * crem_crf_decode_claim() - take out a block that is due for decoding
 * @crf: the flow
 * @job: filled with the block
 *
 * Decoding is the CRF's matrix work (up to milliseconds for k = 255), so
 * it runs outside the serialisation of the flow's other calls: after any
 * engine call that leaves crem_crf_decode_pending(), the owner claims each
 * due block, decodes it with
 * crem_crf_decode_run() while other calls for the flow may run, and hands
 * it back with crem_crf_decode_finish().  Until then the block is the
 * job's: the CRF neither writes nor frees it, even if the flow ends.
 *
 * Context: serialised like every other call for the flow.
 * Return: true if @job holds a block to decode.
 */
bool crem_crf_decode_claim(struct crem_crf *crf, struct crem_crf_decode *job);

/**
 * crem_crf_decode_claim_within() - crem_crf_decode_claim() for a small job
 * @crf: the flow
 * @job: filled with the block
 * @budget: the most coding the owner will do now, in octets of symbols
 *	    passed over (k * T per restored source)
 *
 * An owner that cannot afford a long decode where it runs (a softirq)
 * claims only blocks within @budget; bigger ones stay due, for
 * crem_crf_decode_claim() elsewhere.  @job->cost says what the claimed
 * one costs, so that the owner can keep a total.
 *
 * Context: as crem_crf_decode_claim().
 *
 * Return: true if @job holds a block.
 */
bool crem_crf_decode_claim_within(struct crem_crf *crf,
				  struct crem_crf_decode *job, size_t budget);

/*
 * Is a block due for decoding?  The owner asks after every call (packet,
 * message, timeout) and then claims it; the engine's deadline never
 * stands for decoding, so that a timer does not fire again and again
 * while the owner has yet to decode.
 */
bool crem_crf_decode_pending(const struct crem_crf *crf);

/*
 * Decode @job's block with the coding scratch @work.  Touches only the
 * block and @work: needs no serialisation with the flow's other calls.
 */
void crem_crf_decode_run(struct crem_crf_decode *job,
			 struct crem_fec_work *work);

/*
 * Hand the decoded block back: deliver what it restored (what arrived
 * meanwhile is not delivered again), release held packets behind it.  If
 * the flow ended meanwhile, the block is only freed.  Context: serialised
 * like crem_crf_decode_claim(); exactly once per claimed job, before
 * crem_crf_destroy() frees the flow's memory, or after it.
 */
void crem_crf_decode_finish(struct crem_crf *crf, struct crem_crf_decode *job);

/* A HELLO for an existing flow: answer again if it is a retransmission. */
int crem_crf_hello_again(struct crem_crf *crf, const struct crem_msg *hello);

/*
 * The replacement rule (security.rst, "A HELLO for a live flow"): what a
 * HELLO does, given the receiver flows of its descriptor.  A HELLO with a
 * nonce that neither has does not replace a live flow on its own word:
 * anyone who can put the sender's address on a datagram can send one.  It
 * makes a candidate beside the live flow, in place of any earlier
 * candidate; the owner makes one only for a HELLO from the live flow's own
 * peer.  The candidate takes the live flow's place only when its bound
 * peer sends with the Flow ID that the candidate's HELLO_ACK gave
 * (crem_crf_confirms()), which only whoever received that HELLO_ACK knows.
 * A candidate answers its own nonce even once its live flow has ended.
 */
enum crem_hello_action {
	CREM_HELLO_NEW_FLOW,		/* no live flow: a new one, live */
	CREM_HELLO_TO_LIVE,		/* the live flow's nonce: it answers */
	CREM_HELLO_TO_CANDIDATE,	/* the candidate's nonce: it answers */
	CREM_HELLO_NEW_CANDIDATE,	/* a new nonce: a (new) candidate */
};

/**
 * crem_crf_hello_action() - apply the replacement rule
 * @live: the flow that takes the descriptor's packets, or NULL
 * @candidate: the candidate beside it, or NULL
 * @hello: the HELLO
 *
 * Context: the nonces are fixed when a flow starts; no lock is needed.
 * Return: what the owner does with @hello.
 */
enum crem_hello_action crem_crf_hello_action(const struct crem_crf *live,
					     const struct crem_crf *candidate,
					     const struct crem_msg *hello);

/**
 * crem_crf_confirms() - does a message confirm a candidate flow?
 * @msg: a message carrying the candidate's Flow ID, from its bound peer
 *
 * A PARAM_UPDATE or a REPAIR does: only the sender that received the
 * candidate's HELLO_ACK uses that Flow ID.
 *
 * Return: true if @msg confirms the candidate.
 */
bool crem_crf_confirms(const struct crem_msg *msg);

/* Room for crem_crf_answer_unknown()'s answer: a CLOSE. */
#define CREM_CRF_UNKNOWN_ANSWER_MAX	(CREM_COMMON_HDR_LEN + 4)

/**
 * crem_crf_answer_unknown() - a receiver's answer to a Flow ID it lacks
 * @msg: a parsed message for which no receiver flow exists
 * @buf: where the answer is built
 * @size: room at @buf; CREM_CRF_UNKNOWN_ANSWER_MAX is enough
 *
 * A PARAM_UPDATE or a REPAIR comes from a sender that holds @msg's Flow
 * ID, one the receiver forgot (restarted, or ended the flow and its CLOSE
 * was lost).  It gets a CLOSE with reason 1, so that it negotiates again
 * rather than protect into nothing.  Nothing else is answered: a HELLO
 * makes a flow, and the receiver's own message types never reach it from
 * a sender.  The caller rate-limits what it sends.
 *
 * Return: the answer's length; 0 for none; -ENOSPC if @size is too small.
 */
int crem_crf_answer_unknown(const struct crem_msg *msg, u8 *buf, size_t size);

/**
 * crem_crf_reserved() - has the flow taken its traffic state?
 * @crf: the receiver flow
 *
 * The traffic state is the window, block slots, pins and hold queue.  A
 * flow takes it with its first source or REPAIR, not at HELLO, so that a
 * flow nobody sends on costs little.
 *
 * Return: true once it has.
 */
bool crem_crf_reserved(const struct crem_crf *crf);

/**
 * crem_crf_traffic_bytes() - what the traffic state will take
 * @crf: a flow crem_crf_start() made
 * @charge: what the owner's allocator takes for an allocation of a size
 *
 * The traffic state that the first source, PARAM_UPDATE or REPAIR asks
 * of the environment, and one chunk of the window's symbols, each
 * allocation as @charge counts it: an owner whose limit this exceeds
 * could never protect the flow, and refuses its HELLO.
 *
 * Return: the octets charged.
 */
size_t crem_crf_traffic_bytes(const struct crem_crf *crf,
			      size_t (*charge)(size_t size));

/*
 * Could crem_crf_source() hold a packet at @psn now?  The owner needs a
 * handle for it only then.  False means it will not.
 */
bool crem_crf_may_hold(const struct crem_crf *crf, u32 psn);

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

/*
 * A CREM message for the flow, from the bound peer.  The flow may be
 * CLOSED on return: a CLOSE, or a PARAM_UPDATE or REPAIR for which the
 * traffic state could not be had (CLOSE reason 3 sent).
 * Return: 0 or -errno.
 */
int crem_crf_receive(struct crem_crf *crf, const struct crem_msg *msg, bool ce);

/* The flow's deadline passed. */
void crem_crf_timeout(struct crem_crf *crf);

/* Send CLOSE with @reason, release every held packet and block. */
void crem_crf_close(struct crem_crf *crf, u16 reason);

/* Release held packets and free all memory. */
void crem_crf_destroy(struct crem_crf *crf);

/**
 * crem_crf_hold_ns() - the flow's hold time H now
 * @crf: the flow
 *
 * Fixed, or derived from the flow's pace and minimum RTT
 * (crem_flow_hold_ns()).  Context: the flow's serialisation, as the other
 * calls (its lock, in the kernel).
 *
 * Return: H in nanoseconds; 0 holds nothing.
 */
u64 crem_crf_hold_ns(const struct crem_crf *crf);

#endif /* CREM_CORE_CRF_H */
