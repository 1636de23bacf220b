// SPDX-License-Identifier: GPL-2.0
/*
 * The CREM receiver function for one flow (see crf.h).
 */
#include "bytes.h"
#include "crf.h"
#include "policy.h"
#include "psn.h"

/* p above one percent: ask for one symbol more than the minimum. */
#define DELTA_LOSS (CREM_Q31 / 100)
/* SRTTs an older configuration is kept after the newest is in use. */
#define CONFIG_GRACE_SRTTS 8
/* Range requests per message, and attempts per gap. */
#define MAX_RANGES 32
#define RANGE_TRIES 3

/*
 * What became of a position's source, for the loss breakdown: set as the
 * flow learns it, read once by loss_final() when the position is reused
 * or the flow ends (engine.rst, "Every loss accounted for").
 */
enum {
	FATE_MISSED = 1 << 0,		/* not here when a later PSN came */
	FATE_RESTORED = 1 << 1,		/* before a later PSN went on */
	FATE_RESTORED_LATE = 1 << 2,
	FATE_UNPROTECTED = 1 << 3,	/* missed with no repairs coming */
	FATE_BLOCK = 1 << 4,		/* a REPAIR or INFO named its block */
	FATE_ASKED = 1 << 5,		/* in a REPAIR_REQUEST while missing */
	FATE_GAVE_UP = 1 << 6,		/* its block ran out of rounds */
	FATE_LIMITED = 1 << 7,		/* its block lost its slot or memory */
};

static u64 now(const struct crem_crf *crf)
{
	return crf->env->ops->now_ns(crf->env->ctx);
}

static u64 min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

/* An RTT sample of one of the engine's own exchanges. */
static void rtt_sample(struct crem_crf *crf, u64 sample)
{
	crem_srtt_sample(&crf->srtt_ns, &crf->have_srtt, sample);
	crem_min_rtt_sample(&crf->min_rtt_ns, sample);
}

/*
 * The flow's k for its timing: the newest configuration's, or the one's
 * before it if larger, because its blocks still come for a round trip
 * after a change; before any, ours.
 */
static unsigned int flow_k(const struct crem_crf *crf)
{
	return crf->param.hold_k ? crf->param.hold_k : crf->cfg.k;
}

/*
 * The flow's H (crem_flow_hold_ns()): from its k, the sources' pace and
 * the minimum RTT.
 */
static u64 hold_ns(const struct crem_crf *crf)
{
	return crem_flow_hold_ns(&crf->cfg, flow_k(crf),
				 crem_pace_gap_ns(&crf->pace, crf->gap_ns),
				 crem_timing_rtt_ns(crf->min_rtt_ns,
						    crf->srtt_ns));
}

u64 crem_crf_hold_ns(const struct crem_crf *crf)
{
	return hold_ns(crf);
}

static u64 reorder_ns(const struct crem_crf *crf)
{
	return crem_flow_reorder_ns(&crf->cfg, hold_ns(crf));
}

static void *alloc(struct crem_crf *crf, size_t size)
{
	return crf->env->ops->alloc(crf->env->ctx, crf->owner, size);
}

/* Zeroed: what crem_crf_destroy() walks must be, even if a start fails. */
static void *zalloc(struct crem_crf *crf, size_t size)
{
	void *mem = alloc(crf, size);

	if (mem)
		memset(mem, 0, size);
	return mem;
}

static void release(struct crem_crf *crf, void *mem, size_t size)
{
	if (mem)
		crf->env->ops->free(crf->env->ctx, crf->owner, mem, size);
}

static struct crem_crf_pos *pos_of(struct crem_crf *crf, u32 psn)
{
	return &crf->pos[psn & (crf->window - 1)];
}

static struct crem_crf_slot *slot_of_psn(struct crem_crf *crf, u32 psn);

static void loss_count(struct crem_crf *crf, enum crem_flow_stat end)
{
	crf->stats.v[CREM_FS_LOSSES]++;
	crf->stats.v[end]++;
}

/* The open block that codes @psn's source, if any (per loss, not packet). */
static struct crem_crf_slot *open_block_of(struct crem_crf *crf, u32 psn)
{
	struct crem_crf_slot *s;

	if (!crf->nopen)
		return NULL;
	s = slot_of_psn(crf, psn);
	if (!s || s->state != CREM_SLOT_OPEN ||
	    !crem_set_has(&s->present, crem_psn_offset(psn, s->start)))
		return NULL;
	return s;
}

/*
 * The end of a loss whose fate is @f: restored, else the furthest step
 * crem took for it, in this order.
 */
static enum crem_flow_stat fate_end(u8 f)
{
	if (f & FATE_RESTORED)
		return CREM_FS_LOSSES_RESTORED;
	if (f & FATE_RESTORED_LATE)
		return CREM_FS_LOSSES_RESTORED_LATE;
	if (f & FATE_LIMITED)
		return CREM_FS_LOSSES_RDMA_LIMITS;
	if (f & FATE_GAVE_UP)
		return CREM_FS_LOSSES_RDMA_INCOMPLETE;
	if (f & FATE_ASKED)
		return CREM_FS_LOSSES_RDMA_CODED_LATE;
	if (f & FATE_BLOCK)
		return CREM_FS_LOSSES_RDMA_HOLD_EXPIRED;
	if (f & FATE_UNPROTECTED)
		return CREM_FS_LOSSES_RDMA_UNPROTECTED;
	return CREM_FS_LOSSES_RDMA_NO_REPAIRS;
}

/* The fate of a loss block @s kept past the window: how far @s got. */
static u8 block_fate(const struct crem_crf_slot *s)
{
	if (s->state == CREM_SLOT_FELL_BACK)
		return FATE_GAVE_UP;
	if (s->rounds || s->fallback_sent)
		return FATE_ASKED;
	return FATE_BLOCK;
}

static struct crem_crf_pin *pin_of(struct crem_crf *crf, u32 psn);

/*
 * A miss no block explains leaves the window (m = 0: no REPAIR came to
 * explain it; or a READ response's position).  Under a range request's
 * pin its answer may still restore it, the window being shorter than a
 * round trip: it waits there (pin_restored(), pin_free()).  Otherwise
 * it is counted as unconfirmed now.
 */
static void unconfirmed(struct crem_crf *crf, u32 psn)
{
	struct crem_crf_pin *pin = crf->npins ? pin_of(crf, psn) : NULL;
	u32 off;

	if (!pin) {
		crf->stats.v[CREM_FS_MISSES_UNCONFIRMED]++;
		return;
	}
	off = crem_psn_offset(psn, pin->start);
	pin->unconfirmed[off / 8] |= 1u << (off % 8);
}

/*
 * Count the end of @q's source if it was lost: restored in time or late,
 * else left to the RDMA transport, under the furthest step crem took for
 * it.  A source missed and then come within the reordering allowance was
 * not lost (its fate was cleared then).  A miss is a loss only once
 * something showed a source was there: a block that codes it, its
 * restoration, or its late arrival (the RDMA transport's resend).  A PSN
 * missed and never shown may have carried nothing: the responses of a
 * lost READ request take PSNs the CRF cannot tell from sources.
 */
static void loss_final(struct crem_crf *crf, struct crem_crf_pos *q)
{
	bool came = q->state == CREM_POS_RECEIVED && q->late;
	struct crem_crf_slot *s;
	u8 f = q->fate;

	q->fate = 0;
	if (!(f & FATE_MISSED))
		return;
	/*
	 * Still missing, in a block still open: a coded answer may restore
	 * it after the window moved on (the window is shorter than a round
	 * trip), so its block keeps it until its end (loss_later()).
	 */
	if (q->state == CREM_POS_EMPTY) {
		s = open_block_of(crf, q->psn);
		if (s) {
			crem_set_add(&s->lost_later,
				     crem_psn_offset(q->psn, s->start));
			return;
		}
	}
	if (!came && !(f & (FATE_BLOCK | FATE_RESTORED | FATE_RESTORED_LATE))) {
		unconfirmed(crf, q->psn);
		return;
	}
	loss_count(crf, fate_end(f));
}

/*
 * The end @end of a loss @s kept (loss_final()) at @psn, if it kept one.
 * Return: whether it did.
 */
static bool loss_later(struct crem_crf *crf, struct crem_crf_slot *s,
		       u32 psn, enum crem_flow_stat end)
{
	u32 j = crem_psn_offset(psn, s->start);

	if (j >= s->k || !crem_set_has(&s->lost_later, j))
		return false;
	crem_set_del(&s->lost_later, j);
	loss_count(crf, end);
	return true;
}

/* @s ends, @limited if for want of a slot or memory: so do its losses. */
static void losses_later_end(struct crem_crf *crf, struct crem_crf_slot *s,
			     bool limited)
{
	enum crem_flow_stat end = fate_end(block_fate(s) |
					   (limited ? FATE_LIMITED : 0));
	unsigned int j;

	crem_set_for_each(j, &s->lost_later)
		loss_later(crf, s, crem_psn_add(s->start, j), end);
}

/* @q is to describe @psn: the PSN it described before has its end now. */
static void pos_claim(struct crem_crf *crf, struct crem_crf_pos *q, u32 psn)
{
	if (q->psn != psn) {
		loss_final(crf, q);
		q->psn = psn;
		q->kept = false;
	}
}

/*
 * Does @q describe a PSN newer than @psn?  Restorations and REPAIRs take
 * positions ahead of the frontier, whose older PSN may still be in play.
 */
static bool pos_newer(const struct crem_crf_pos *q, u32 psn)
{
	return q->psn != psn && (q->state != CREM_POS_EMPTY || q->fate) &&
	       crem_psn_before(psn, q->psn);
}

/* Mark the positions @set names of the block at @start, while missing. */
static void fate_mark(struct crem_crf *crf, u32 start,
		      const struct crem_fec_set *set, u8 bits)
{
	unsigned int j;

	crem_set_for_each(j, set) {
		u32 psn = crem_psn_add(start, j);
		struct crem_crf_pos *q = pos_of(crf, psn);

		if (q->psn == psn && q->state == CREM_POS_EMPTY)
			q->fate |= bits;
	}
}

/*
 * The window's symbols live in chunks of chunk_syms symbols, each taken
 * when a source first lands in it (see crf.h, Memory): a flow costs no
 * symbol memory before its traffic does.  NULL if @psn's chunk is not
 * there.
 */
static u8 *symbol_of(struct crem_crf *crf, u32 psn)
{
	u32 i = psn & (crf->window - 1);
	u8 *chunk = crf->chunk[i / crf->chunk_syms];

	return chunk ? chunk + (size_t)(i % crf->chunk_syms) * crf->stride :
		       NULL;
}

/* The symbol buffer for a source at @psn, taking its chunk if need be. */
static u8 *symbol_for(struct crem_crf *crf, u32 psn)
{
	u32 c = (psn & (crf->window - 1)) / crf->chunk_syms;

	if (!crf->chunk[c]) {
		crf->chunk[c] = alloc(crf, crf->chunk_size);
		if (!crf->chunk[c]) {
			crf->stats.v[CREM_FS_MEMORY_REFUSED]++;
			return NULL;
		}
		crf->nchunks_live++;
	}
	return symbol_of(crf, psn);
}

/*
 * A quiet flow gives its symbol chunks back: nothing waits for them (no
 * open block, pin or held packet), and its traffic has stopped for the
 * idle grace.  Positions stay as they were, for ordering and duplicates;
 * their symbols are gone, so a block asked about later falls back.
 */
static void window_shrink(struct crem_crf *crf, u64 t)
{
	u32 c;

	if (!crf->nchunks_live || crf->nopen || crf->npins || crf->nheld ||
	    t - crf->last_source_ns < crf->cfg.window_idle_ns)
		return;
	for (c = 0; c < crf->nchunks; c++) {
		release(crf, crf->chunk[c], crf->chunk_size);
		crf->chunk[c] = NULL;
	}
	crf->nchunks_live = 0;
	for (c = 0; c < crf->window; c++)
		crf->pos[c].kept = false;
}

/* What reserve() takes, with the symbols in the window. */
static void release_traffic_state(struct crem_crf *crf)
{
	u32 i;

	for (i = 0; crf->pos && i < crf->window; i++)
		loss_final(crf, &crf->pos[i]);
	if (crf->chunk) {
		u32 c;

		for (c = 0; c < crf->nchunks; c++)
			release(crf, crf->chunk[c], crf->chunk_size);
		crf->nchunks_live = 0;
	}
	release(crf, crf->pos, crf->window * sizeof(*crf->pos));
	release(crf, crf->chunk, crf->nchunks * sizeof(*crf->chunk));
	release(crf, crf->slots, crf->cfg.max_open_blocks * sizeof(*crf->slots));
	release(crf, crf->pins, crf->cfg.max_open_blocks * sizeof(*crf->pins));
	release(crf, crf->held, (crf->cfg.max_held + 1) * sizeof(*crf->held));
	release(crf, crf->pkt, crf->pkt_size);
	release(crf, crf->ip_id, crf->window * sizeof(*crf->ip_id));
	crf->ip_id = NULL;
	crf->resending = false;
	crf->pos = NULL;
	crf->chunk = NULL;
	crf->slots = NULL;
	crf->pins = NULL;
	crf->held = NULL;
	crf->pkt = NULL;
}

/*
 * The traffic state: the window, the block slots, the pins, the hold
 * queue and the buffer restored packets are built in, about 70 KiB at the
 * defaults.  A flow takes it with its first source or REPAIR, not at
 * HELLO: answering a HELLO, which anyone can send, costs the receiver
 * only the flow itself (security.rst, "HELLO floods").  It is kept until
 * the flow ends; only the symbols follow the traffic (window_shrink()).
 * Return: 0, or -ENOMEM with nothing taken (reserve_or_close()).
 */
static int reserve(struct crem_crf *crf)
{
	if (crf->pos)
		return 0;
	crf->chunk = zalloc(crf, crf->nchunks * sizeof(*crf->chunk));
	crf->slots = zalloc(crf, crf->cfg.max_open_blocks *
				 sizeof(*crf->slots));
	crf->pins = zalloc(crf, crf->cfg.max_open_blocks * sizeof(*crf->pins));
	crf->held = alloc(crf, (crf->cfg.max_held + 1) * sizeof(*crf->held));
	crf->pkt = alloc(crf, crf->pkt_size);
	crf->ip_id = alloc(crf, crf->window * sizeof(*crf->ip_id));
	/* Last: a window means the rest is there. */
	crf->pos = zalloc(crf, crf->window * sizeof(*crf->pos));
	if (!crf->chunk || !crf->slots || !crf->pins || !crf->held ||
	    !crf->pkt || !crf->ip_id || !crf->pos) {
		release_traffic_state(crf);
		crf->stats.v[CREM_FS_MEMORY_REFUSED]++;
		return -ENOMEM;
	}
	/* PSN 0 must not look present before it arrives. */
	crf->pos[0].psn = CREM_PSN_MASK + 1;
	return 0;
}

/*
 * The traffic state, or the flow's end, once the sender has sent a
 * PARAM_UPDATE or REPAIR (heard_id): a receiver that cannot take it can
 * protect nothing, and a sender told nothing would go on sending repairs
 * that nobody uses, at the data's own rate.  So it is told, with CLOSE
 * reason 3 (resources exhausted), and stops protecting
 * (crem_csf_receive()).  Only after a message that names the Flow ID:
 * its sender has taken in the HELLO_ACK, and so finds its flow by that ID
 * (in the kernel, but for the moment between taking in the HELLO_ACK and
 * hashing the ID), which a CLOSE sent at a first source right behind the
 * HELLO_ACK may not.  Before, a source that finds no state just passes.
 * One CLOSE per flow, and the flow ends here: nothing to amplify.
 * Return: true if the flow can go on.
 */
static bool reserve_or_close(struct crem_crf *crf)
{
	if (!reserve(crf))
		return true;
	crem_crf_close(crf, CREM_CLOSE_RESOURCES_EXHAUSTED);
	return false;
}

bool crem_crf_reserved(const struct crem_crf *crf)
{
	return crf->pos;
}

size_t crem_crf_traffic_bytes(const struct crem_crf *crf,
			      size_t (*charge)(size_t size))
{
	/* As reserve() asks them, and one chunk of symbols to use them. */
	return charge(crf->nchunks * sizeof(*crf->chunk)) +
	       charge(crf->cfg.max_open_blocks * sizeof(*crf->slots)) +
	       charge(crf->cfg.max_open_blocks * sizeof(*crf->pins)) +
	       charge((crf->cfg.max_held + 1) * sizeof(*crf->held)) +
	       charge(crf->pkt_size) +
	       charge(crf->window * sizeof(*crf->ip_id)) +
	       charge(crf->window * sizeof(*crf->pos)) +
	       charge(crf->chunk_size);
}

/* The position's state if the window still describes @psn. */
static u8 pos_state(struct crem_crf *crf, u32 psn)
{
	const struct crem_crf_pos *p = pos_of(crf, psn);

	return p->psn == psn ? p->state : CREM_POS_EMPTY;
}

static bool pos_known(struct crem_crf *crf, u32 psn)
{
	return pos_state(crf, psn) != CREM_POS_EMPTY;
}

/* Is @psn older than the window reaches? */
static bool before_window(const struct crem_crf *crf, u32 psn)
{
	return crf->have_frontier &&
	       crem_psn_diff(crf->frontier, psn) > (s32)crf->window;
}

/* ---- pinned sources ------------------------------------------------ */

/*
 * A gap with no REPAIR to explain it is asked about by PSN range, and the
 * answer takes a round trip: longer than the window keeps sources at a
 * high rate.  The sources of whatever block holds the gap lie within k - 1
 * positions of it, so those are pinned: copied out of the window into a
 * region of their own until the answer gives the block's geometry.
 */

/*
 * The next pin from index *@i that covers @psn, with @psn's offset in it,
 * or NULL; *@i moves past it.  Pins overlap, so callers that must see
 * every one loop on this.
 */
static struct crem_crf_pin *pin_next(struct crem_crf *crf, u32 psn,
				     unsigned int *i, u32 *off)
{
	while (*i < crf->pins_hi) {
		struct crem_crf_pin *pin = &crf->pins[(*i)++];

		if (pin->symbols &&
		    crem_psn_in_range(psn, pin->start, pin->count)) {
			*off = crem_psn_offset(psn, pin->start);
			return pin;
		}
	}
	return NULL;
}

/* The first pin covering @psn, or NULL. */
static struct crem_crf_pin *pin_of(struct crem_crf *crf, u32 psn)
{
	unsigned int i = 0;
	u32 off;

	return pin_next(crf, psn, &i, &off);
}

static void pin_free(struct crem_crf *crf, struct crem_crf_pin *pin)
{
	u32 j;

	if (pin->symbols) {
		crf->npins--;
		/* Misses its range request's answer did not restore. */
		for (j = 0; j < pin->count; j++)
			if (pin->unconfirmed[j / 8] & 1u << (j % 8))
				crf->stats.v[CREM_FS_MISSES_UNCONFIRMED]++;
	}
	release(crf, pin->symbols, pin->size);
	memset(pin, 0, sizeof(*pin));
	while (crf->pins_hi && !crf->pins[crf->pins_hi - 1].symbols)
		crf->pins_hi--;
}

/*
 * Keep a source arriving inside a pinned region, or one restored there,
 * in the region too.
 */
static void pin_store(struct crem_crf *crf, u32 psn, const u8 *payload,
		      size_t len)
{
	struct crem_crf_pin *pin;
	unsigned int i = 0;
	u32 off;

	while ((pin = pin_next(crf, psn, &i, &off)))
		if (!crem_symbol_from_packet(pin->symbols +
					     (size_t)off * crf->stride,
					     crf->stride, payload, len))
			pin->have[off / 8] |= 1u << (off % 8);
}

/*
 * A pin covering @psn whose bitmap (@late: the late one, else "have")
 * has @psn, or NULL.  Every covering pin is asked: a later one may have
 * missed what left the window before it was made.
 */
static const struct crem_crf_pin *pin_with(struct crem_crf *crf, u32 psn,
					   bool late, u32 *off)
{
	const struct crem_crf_pin *pin;
	unsigned int i = 0;

	while ((pin = pin_next(crf, psn, &i, off)))
		if ((late ? pin->late : pin->have)[*off / 8] & 1u << (*off % 8))
			return pin;
	return NULL;
}

/* The received source symbol of @psn, from the window or a pin. */
static const u8 *source_of(struct crem_crf *crf, u32 psn)
{
	const struct crem_crf_pos *p = pos_of(crf, psn);
	const struct crem_crf_pin *pin;
	u32 off;

	if (p->psn == psn && p->state == CREM_POS_RECEIVED && !p->late &&
	    symbol_of(crf, psn))
		return symbol_of(crf, psn);
	pin = pin_with(crf, psn, false, &off);
	return pin ? pin->symbols + (size_t)off * crf->stride : NULL;
}

/*
 * Arrived late: here, but not the copy the CSF coded (see
 * crem_crf_source()).  The window says so for recent PSNs; for older ones,
 * the pins that keep their block's sources do.
 */
static bool arrived_late(struct crem_crf *crf, u32 psn)
{
	const struct crem_crf_pos *p = pos_of(crf, psn);
	u32 off;

	if (p->psn == psn && p->state == CREM_POS_RECEIVED && p->late)
		return true;
	return pin_with(crf, psn, true, &off);
}

/* Note a late arrival older than the window in the pins that cover it. */
static void pin_late(struct crem_crf *crf, u32 psn)
{
	struct crem_crf_pin *pin;
	unsigned int i = 0;
	u32 off;

	while ((pin = pin_next(crf, psn, &i, &off)))
		pin->late[off / 8] |= 1u << (off % 8);
}

/* Is @psn's source here, as coded: arrived in time, or restored? */
static bool have_source(struct crem_crf *crf, u32 psn)
{
	return pos_state(crf, psn) == CREM_POS_RESTORED || source_of(crf, psn);
}

/* Pin the sources of every block that may hold PSNs @gap..+@count. */
static void pin_around(struct crem_crf *crf, u32 gap, u32 count, u64 t)
{
	unsigned int k = crf->limits.max_k, i, j;
	u32 start = crem_psn_add(gap, -(s32)(k - 1));
	u32 span = count + 2 * (k - 1);
	u64 expires = t + (RANGE_TRIES + 1) *
		      (crf->srtt_ns + crf->srtt_ns / 4 + reorder_ns(crf));
	struct crem_crf_pin *pin = pin_of(crf, start), *victim = NULL;

	if (pin && crem_psn_in_range(crem_psn_add(start, span - 1), pin->start,
				     pin->count)) {
		pin->expires_ns = expires;
		return;
	}
	for (i = 0; i < crf->cfg.max_open_blocks; i++) {
		pin = &crf->pins[i];
		if (!pin->symbols) {
			victim = pin;
			break;
		}
		if (!victim || pin->expires_ns < victim->expires_ns)
			victim = pin;
	}
	pin_free(crf, victim);
	victim->size = (size_t)span * crf->stride + 3 * ((span + 7) / 8);
	victim->symbols = alloc(crf, victim->size);
	if (!victim->symbols) {
		crf->stats.v[CREM_FS_MEMORY_REFUSED]++;
		memset(victim, 0, sizeof(*victim));
		return;
	}
	crf->npins++;
	if (victim - crf->pins >= crf->pins_hi)
		crf->pins_hi = victim - crf->pins + 1;
	victim->count = span;
	victim->have = victim->symbols + (size_t)span * crf->stride;
	victim->late = victim->have + (span + 7) / 8;
	victim->unconfirmed = victim->late + (span + 7) / 8;
	memset(victim->have, 0, 3 * ((span + 7) / 8));
	victim->start = start;
	victim->expires_ns = expires;
	for (j = 0; j < span; j++) {
		u32 psn = crem_psn_add(start, j);
		const u8 *sym = source_of(crf, psn);

		if (sym) {
			memcpy(victim->symbols + (size_t)j * crf->stride, sym,
			       crf->stride);
			victim->have[j / 8] |= 1u << (j % 8);
		} else if (arrived_late(crf, psn)) {
			victim->late[j / 8] |= 1u << (j % 8);
		}
	}
}

static void pins_expire(struct crem_crf *crf, u64 t)
{
	unsigned int i;

	for (i = 0; i < crf->pins_hi; i++)
		if (crf->pins[i].symbols && crf->pins[i].expires_ns <= t)
			pin_free(crf, &crf->pins[i]);
}

static int send_msg(struct crem_crf *crf, struct crem_msg *m)
{
	int len;

	m->flow_id = crf->flow_id;
	len = crem_wire_build(m, crf->msg, crf->msg_size);
	if (CREM_WARN_ON_ONCE(len < 0))
		return len;
	return crem_engine_send(crf->env, crf->owner, &crf->stats, crf->msg,
				len, crf->tmpl.dscp);
}

/* ---- the hold queue ------------------------------------------------ */

/* @psn went on to the RDMA receiver: a restore before it comes late. */
static void passed(struct crem_crf *crf, u32 psn)
{
	if (!crf->have_passed || crem_psn_after(psn, crf->passed_hi)) {
		crf->passed_hi = psn;
		crf->have_passed = true;
	}
}

static void release_held(struct crem_crf *crf, unsigned int i)
{
	struct crem_crf_held h = crf->held[i];
	struct crem_crf_pos *p = pos_of(crf, h.psn);

	memmove(&crf->held[i], &crf->held[i + 1],
		(crf->nheld - i - 1) * sizeof(*crf->held));
	crf->nheld--;
	/* Released well past H: its owner's timer came late (never harm). */
	if (now(crf) - h.arrival_ns > 2 * hold_ns(crf))
		crf->stats.v[CREM_FS_HOLD_LATE]++;
	if (p->psn == h.psn)
		p->held = false;
	passed(crf, h.psn);
	crf->env->ops->release(crf->env->ctx, crf->owner, h.handle);
}

/*
 * Move the in-order point over every position that is settled (arrived,
 * restored or absent), releasing held packets as it passes them.
 */
static void advance(struct crem_crf *crf)
{
	while (crf->have_next && crf->have_frontier &&
	       crem_psn_before(crf->next_deliver, crf->frontier)) {
		struct crem_crf_pos *p = pos_of(crf, crf->next_deliver);

		if (p->psn != crf->next_deliver || p->state == CREM_POS_EMPTY)
			break;
		while (crf->nheld &&
		       !crem_psn_after(crf->held[0].psn, crf->next_deliver))
			release_held(crf, 0);
		crf->next_deliver = crem_psn_add(crf->next_deliver, 1);
		/* A new first gap, behind packets held: judge it. */
		if (crf->nheld)
			crf->gaps_unjudged = true;
	}
}

static bool hold(struct crem_crf *crf, u32 psn, void *handle, u64 t)
{
	unsigned int i;

	if (crf->nheld == crf->cfg.max_held) {
		crf->stats.v[CREM_FS_HOLD_FULL]++;
		return false;
	}
	for (i = crf->nheld; i > 0 && crem_psn_after(crf->held[i - 1].psn, psn);
	     i--)
		crf->held[i] = crf->held[i - 1];
	crf->held[i] = (struct crem_crf_held){
		.psn = psn, .arrival_ns = t, .handle = handle,
	};
	crf->nheld++;
	pos_of(crf, psn)->held = true;
	crf->stats.v[CREM_FS_HELD]++;
	return true;
}

/*
 * Give up ordering up to @upto: every held packet up to it goes on, in PSN
 * order, and the gaps before it are left to whatever fills them later.
 */
static void give_up_to(struct crem_crf *crf, u32 upto)
{
	while (crf->nheld && !crem_psn_after(crf->held[0].psn, upto))
		release_held(crf, 0);
	if (crem_psn_after(crem_psn_add(upto, 1), crf->next_deliver))
		crf->next_deliver = crem_psn_add(upto, 1);
	advance(crf);
}

/*
 * H passed for the packet that has waited longest: release, in PSN order,
 * every held packet up to it, and give up ordering the gap before it.
 */
static void hold_expired(struct crem_crf *crf, u64 t)
{
	unsigned int i, oldest = 0;
	u64 hold = hold_ns(crf);

	while (crf->nheld) {
		for (i = 1; i < crf->nheld; i++)
			if (crf->held[i].arrival_ns <
			    crf->held[oldest].arrival_ns)
				oldest = i;
		if (crf->held[oldest].arrival_ns + hold > t)
			return;
		crf->stats.v[CREM_FS_HOLD_EXPIRED]++;
		give_up_to(crf, crf->held[oldest].psn);
		oldest = 0;
	}
}

void crem_crf_release_held(struct crem_crf *crf)
{
	if (crf->nheld)
		give_up_to(crf, crf->held[crf->nheld - 1].psn);
}

/* Missed, and nothing has come for it yet. */
static bool pos_missing(const struct crem_crf_pos *q, u32 psn)
{
	return q->psn == psn && q->state == CREM_POS_EMPTY && q->gap;
}

/*
 * Is the first gap, at the in-order point, wider than its block's
 * repairs can fill?  Then nothing fills it within H: only a coded
 * retransmission, a round trip away, or the RDMA transport's own resend.
 * Holding the packets behind it would only hold back the RDMA receiver's
 * NAK by H, and the go-back-N behind that NAK comes anyway.
 *
 * Only a block a REPAIR has named is judged: more of its coded sources are
 * missing than its m and than the symbols it has.  A run of missed
 * positions no REPAIR names says nothing certain: a lost READ request
 * leaves its responses' span missed, blocks close early, m may exceed k.
 * Nor is anything judged when @hold_time is longer than a round trip (a
 * fixed H): a coded answer may then come in time.  What the judgement
 * cannot see: a source reordered past its block's REPAIR, and the extra
 * repairs a PATH_REPORT brings; such a gap goes to the RDMA transport.
 * Only the first gap: a later one, past its repairs too, waits until the
 * one before it is filled (advance() marks it for judgement), so that the
 * RDMA receiver's NAK, if any, names the first.  Cost: one slot lookup
 * and the block's positions, once per new gap or REPAIR while holding.
 *
 * Return: true, with @upto set to the block's last missing PSN.
 */
static bool gap_beyond_repairs(struct crem_crf *crf, u64 hold_time,
			       u32 *upto)
{
	u32 from = crf->next_deliver, p;
	unsigned int j, missing = 0;
	struct crem_crf_slot *s;

	if (!crf->nopen || !crf->have_frontier ||
	    !crem_psn_before(from, crf->frontier) ||
	    !pos_missing(pos_of(crf, from), from) ||
	    crem_timing_rtt_ns(crf->min_rtt_ns, crf->srtt_ns) < hold_time)
		return false;
	s = slot_of_psn(crf, from);
	/* Out being decoded (it had enough), or not waiting for symbols. */
	if (!s || s->state != CREM_SLOT_OPEN || s->busy)
		return false;
	crem_set_for_each(j, &s->present) {
		p = crem_psn_add(s->start, j);
		if (!crem_psn_before(p, crf->frontier))
			break;
		if (!crem_psn_before(p, from) && pos_missing(pos_of(crf, p), p)) {
			missing++;
			*upto = p;
		}
	}
	return missing > s->m &&
	       missing > (s->block ? s->block->nr_repairs : 0u);
}

/*
 * Before holding a packet after new gaps (or, with @force, after a
 * REPAIR): is the first gap past its repairs?  Then give up ordering
 * through its block, and judge the next gap in turn.  Return: whether
 * anything was given up.
 */
static bool give_up_past_repairs(struct crem_crf *crf, u64 hold_time,
				 bool force)
{
	bool gave_up = false;
	u32 upto;

	if (!crf->gaps_unjudged && !force)
		return false;
	while (gap_beyond_repairs(crf, hold_time, &upto)) {
		crf->stats.v[CREM_FS_HOLD_BEYOND_REPAIRS]++;
		give_up_to(crf, upto);
		gave_up = true;
	}
	/* Judged, and so is any gap give_up_to()'s advance() marked. */
	crf->gaps_unjudged = false;
	return gave_up;
}

static void arm_flow(struct crem_crf *crf);
static void arm_at(struct crem_crf *crf, u64 d);

void crem_crf_expire_held(struct crem_crf *crf, u32 psn)
{
	u64 t = now(crf);

	if (crf->state != CREM_CRF_ACTIVE || !crf->nheld ||
	    t < crf->armed_ns || psn == crf->next_deliver)
		return;
	hold_expired(crf, t);
	/* The next deadline, so that the next source does not scan again. */
	arm_flow(crf);
}

/* ---- resends --------------------------------------------------------- */

/*
 * A go-back-N RDMA receiver (rxe, most RoCE NICs) takes nothing past a
 * gap: when a source reaches it behind later PSNs (H ran out, and it came
 * by the sender's resend or a late restoration), it has discarded those
 * later ones, NAKs the gap, and its sender resends the whole window.  On
 * a lossy path that resend loses packets again, and each loss costs
 * another NAK, round trip and window: a cascade that crem's blocks, which
 * protect each PSN once, do not cover.  The CRF still has those later
 * sources: their symbols stay in the window (kept) until their positions
 * are reused.  So once the receiver has asked again (its NAK,
 * crem_crf_asked_again()), the CRF follows the sender's resend round
 * (resend_next: the PSN the receiver expects next), and where a resend
 * comes behind a gap of the round, it hands on its copies of the gap
 * first: the receiver loses nothing of the round.  The round starts with
 * the sender's resend of the PSN asked for, a round trip (the least the
 * CRF measured; none measured, no copies) after the NAK or later
 * (resend_round()).
 *
 * Only behind a resend, never ahead of one.  A copy handed on ahead of
 * the sender's resend (the NAK's whole window at once, as crem did
 * before) lets the receiver acknowledge a message whose resend has not
 * gone out yet, and 6.12's rxe requester, retrying that message later,
 * then sent a zero-length WRITE_ONLY at the next message's first PSN and
 * numbered everything after it one too high: the receiver failed the
 * work request (IBV_WC_REM_INV_REQ_ERR; engine.rst, "Resends").  On a
 * path that keeps order, behind a resend of the round every copy is of a
 * PSN the sender has sent again in this round already, or had
 * acknowledged: nothing the receiver acknowledges from copies is news to
 * it.  The round's tail, lost, is filled when the sender's first new
 * source shows the round over.  The copies stop at the first PSN the CRF
 * lacks or may not hand on, which the receiver NAKs again or its
 * sender's timer resends.
 *
 * A receiver with selective retransmission sends no such NAK and gets no
 * copies.  Only with cfg.resend_copies.
 */

/* Keep @psn's symbol, just written to the window, to hand on again. */
static void keep_copy(struct crem_crf *crf, struct crem_crf_pos *p, u32 psn,
		      const u8 *ip, u8 af)
{
	p->kept = true;
	crf->ip_id[psn & (crf->window - 1)] = af == 4 ? crem_get16(ip + 4) : 0;
}

/* Rebuild the kept copy of @psn and hand it on; false if there is none. */
static bool resend_copy(struct crem_crf *crf, u32 psn)
{
	struct crem_ip_template t = crf->tmpl;
	const u8 *sym = symbol_of(crf, psn);
	struct crem_roce_pkt bth;
	size_t len;
	int n;

	/*
	 * The window's symbol must still be this PSN's, and a duplicate of it
	 * harmless: a READ request or atomic would be executed again.
	 */
	if (!sym || crem_symbol_to_packet(sym, crf->stride, &len) ||
	    crem_roce_parse_bth(sym + 2, len, &bth) != CREM_ROCE_OK ||
	    bth.psn != psn || !crem_roce_duplicate_harmless(&bth))
		return false;
	t.id_hint = crf->ip_id[psn & (crf->window - 1)];
	n = crem_restore_ip(&t, sym + 2, len, crf->pkt, crf->pkt_size, NULL);
	if (n < 0)
		return false;
	crf->env->ops->deliver(crf->env->ctx, crf->owner, crf->pkt, n);
	crf->stats.v[CREM_FS_COPIES_RESENT]++;
	return true;
}

/*
 * Hand on the kept copies from resend_next up to (not including) upto,
 * skipping PSNs no packet carries (a span's) and those copied within the
 * last SRTT (the receiver has them: whoever can forge NAKs or sources
 * into the flow gets at most a window of copies a round trip).  Stops at
 * the first copy the CRF lacks or may not hand on, and leaves
 * resend_next there.  True if the gap is filled.
 */
static bool fill_from_copies(struct crem_crf *crf, u32 upto, u64 t)
{
	bool recent = crf->have_copied && t - crf->copied_ns < crf->srtt_ns;
	u32 g = crf->resend_next;
	unsigned int n;

	for (n = 0; n < crf->window && g != upto; n++, g = crem_psn_add(g, 1)) {
		const struct crem_crf_pos *p = pos_of(crf, g);

		if (p->psn != g || p->held)
			break;
		if (p->state == CREM_POS_ABSENT ||
		    (recent && !crem_psn_after(g, crf->copied_hi)))
			continue;
		if ((p->state != CREM_POS_RECEIVED &&
		     p->state != CREM_POS_RESTORED) || !p->kept ||
		    !resend_copy(crf, g))
			break;
		crf->copied_hi = g;
		crf->copied_ns = t;
		crf->have_copied = true;
	}
	crf->resend_next = g;
	return g == upto;
}

/*
 * Source @psn came while the receiver waits for a resend round: follow
 * the round, and fill what it lost behind @psn.
 *
 * The round starts with the sender's resend of the PSN asked for, come at
 * least a round trip (the least the CRF measured) after the NAK.  That
 * PSN was missing when the receiver asked, so on a path that keeps order
 * nothing the sender sent before it went back can bring it; an original
 * reordered past the NAK can, but only sooner than a round trip.  From
 * there on, on a path that keeps order, everything comes after that
 * resend: a go-back-N sender sends in PSN order, so behind each later
 * source it has sent every PSN of the round before it again (or had it
 * acknowledged before it went back).  Anything before the start, however
 * late (a queue's worth of the previous round, originals in flight),
 * starts and fills nothing.
 */
static void resend_round(struct crem_crf *crf, u32 psn, u64 t)
{
	s32 ahead = crem_psn_diff(psn, crf->resend_next);
	bool seen = crf->have_frontier && crem_psn_before(psn, crf->frontier);

	if (ahead < 0)
		return;		/* a duplicate, or an older round's */
	if (ahead >= (s32)crf->window) {
		crf->resending = false;
		return;
	}
	if (!crf->resend_started) {
		if (!ahead && seen && t - crf->resend_asked_ns >= crf->min_rtt_ns) {
			crf->resend_started = true;
			crf->resend_next = crem_psn_add(psn, 1);
		}
		return;
	}
	if (seen) {
		/* The round's next resend: fill its gap behind it. */
		if (fill_from_copies(crf, psn, t))
			crf->resend_next = crem_psn_add(psn, 1);
		return;
	}
	/* New: the round is over, and its lost tail is filled. */
	fill_from_copies(crf, crem_psn_add(crf->passed_hi, 1), t);
	crf->resending = false;
}

void crem_crf_asked_again(struct crem_crf *crf, u32 psn)
{
	/* No round trip measured yet: no telling a round's resends apart. */
	if (!crf->cfg.resend_copies || crf->state != CREM_CRF_ACTIVE ||
	    !crf->pos || !crf->have_passed || !crf->min_rtt_ns ||
	    crem_psn_after(psn, crf->passed_hi) ||
	    crem_psn_diff(crf->passed_hi, psn) >= (s32)crf->window)
		return;
	crf->resending = true;
	crf->resend_started = false;
	crf->resend_next = psn;
	crf->resend_asked_ns = now(crf);
}

/* ---- restoring ------------------------------------------------------ */

static void learn_ip(struct crem_crf *crf, const u8 *ip,
		     const struct crem_roce_pkt *pkt)
{
	struct crem_ip_template *t = &crf->tmpl;

	t->sport = pkt->sport;
	t->dscp = pkt->dscp;
	if (pkt->af == 4) {
		t->id_hint = (u16)(ip[4] << 8 | ip[5]);
		t->df = ip[6] & 0x40;
		t->ttl = ip[8];
		crf->id_psn = pkt->psn;
	} else {
		t->flow_label = (ip[1] & 0x0f) << 16 | ip[2] << 8 | ip[3];
		t->ttl = ip[7];
	}
}

static void send_fallback(struct crem_crf *crf, struct crem_crf_slot *s,
			  const struct crem_fec_set *lost);
static void report_wake(struct crem_crf *crf, u64 t);
static void report_unsettled(struct crem_crf *crf, u64 t);

/*
 * Position @q, for @psn, turns out absent (a READ request's span, a
 * REPAIR's Present Bitmap).  If the frontier counted it as an expected gap
 * in the current report interval, that count goes: it never carried a
 * packet.  A count in an earlier interval stands (that report may be
 * gone), and so does any other count.
 */
static void uncount_absent(struct crem_crf *crf,
			   const struct crem_crf_pos *q, u32 psn)
{
	if (q->psn == psn && q->state == CREM_POS_EMPTY && q->gap &&
	    q->missing_ns >= crf->report_start_ns && crf->report.expected)
		crf->report.expected--;
}
static void cover(struct crem_crf *crf, u32 psn, u32 span, u64 t);
static u64 gap_wait(const struct crem_crf *crf);
static bool repairs_may_fill(const struct crem_crf *crf);
static struct crem_fec_set slot_missing(struct crem_crf *crf,
					const struct crem_crf_slot *s);
static void fate_mark_limited(struct crem_crf *crf,
			      const struct crem_crf_slot *s);

/*
 * Was position @p, for @psn, missed (a later PSN came) no longer than the
 * reordering allowance before @t?  A packet for it then was reordered.
 */
static bool missed_within_allowance(const struct crem_crf *crf,
				    const struct crem_crf_pos *p, u32 psn,
				    u64 t)
{
	return p->psn == psn && p->gap &&
	       t - p->missing_ns <= reorder_ns(crf);
}

/*
 * @psn, restored after its window position went, was a miss waiting in a
 * pin (unconfirmed()): it was a loss, and it ends restored.
 */
static void pin_restored(struct crem_crf *crf, u32 psn, bool late)
{
	struct crem_crf_pin *pin;
	unsigned int i = 0;
	u32 off;

	while ((pin = pin_next(crf, psn, &i, &off))) {
		if (!(pin->unconfirmed[off / 8] & 1u << (off % 8)))
			continue;
		pin->unconfirmed[off / 8] &= ~(1u << (off % 8));
		loss_count(crf, late ? CREM_FS_LOSSES_RESTORED_LATE :
				       CREM_FS_LOSSES_RESTORED);
		return;
	}
}

/*
 * Rebuild and deliver the packet of @sym, restored at @psn.  Return: 0, or
 * -EBADMSG when its ICRC fails (it is not delivered).
 */
static int deliver(struct crem_crf *crf, u32 psn, const u8 *sym,
		   size_t stride)
{
	struct crem_ip_template t = crf->tmpl;
	struct crem_crf_pos *p = pos_of(crf, psn);
	struct crem_roce_pkt bth;
	bool late;
	size_t len;
	u8 *win;
	int n;

	if (crem_symbol_to_packet(sym, stride, &len)) {
		crf->stats.v[CREM_FS_ICRC_FAILURES]++;
		return -EBADMSG;
	}
	/* rxe numbers IPv4 IDs per packet: predict, else solve. */
	t.id_hint += (u16)crem_psn_diff(psn, crf->id_psn);
	n = crem_restore_ip(&t, sym + 2, len, crf->pkt, crf->pkt_size, NULL);
	if (n < 0) {
		crf->stats.v[CREM_FS_ICRC_FAILURES]++;
		return -EBADMSG;
	}
	crf->env->ops->deliver(crf->env->ctx, crf->owner, crf->pkt, n);
	crf->stats.v[CREM_FS_RESTORED]++;
	crf->stats.v[CREM_FS_RESTORED_BYTES] += len;
	crf->report.restored++;
	/* A later PSN went on before it: the RDMA receiver saw the gap. */
	late = crf->have_passed && crem_psn_before(psn, crf->passed_hi);
	if (late)
		crf->stats.v[CREM_FS_RESTORED_LATE]++;
	passed(crf, psn);
	/* The window notes it; the symbol itself stays in the block. */
	if (!pos_newer(p, psn) &&
	    (p->psn == psn || !before_window(crf, psn))) {
		u64 at = now(crf);
		/* Nothing after it came yet: a REPAIR overtook it. */
		bool unseen = !crf->have_frontier ||
			      !crem_psn_before(psn, crf->frontier);

		/*
		 * Its original may still come if nothing missed it yet, or
		 * if a later PSN did within the allowance; a source missed
		 * for longer comes, if at all, as the RDMA transport's
		 * retransmission, which must not hide the loss.
		 */
		p->original_due = unseen ||
				  (p->state == CREM_POS_EMPTY &&
				   missed_within_allowance(crf, p, psn, at));
		if (unseen)
			p->missing_ns = at;
		if (p->original_due)
			report_unsettled(crf, at);
		pos_claim(crf, p, psn);
		p->state = CREM_POS_RESTORED;
		p->gap = 0;
		p->fate |= FATE_MISSED |
			   (late ? FATE_RESTORED_LATE : FATE_RESTORED);
		/* A copy for a resend (see "Resends"). */
		win = symbol_for(crf, psn);
		if (win && !crem_symbol_from_packet(win, crf->stride, sym + 2,
						    len))
			keep_copy(crf, p, psn, crf->pkt, crf->tmpl.af);
	} else {
		struct crem_crf_slot *s = slot_of_psn(crf, psn);

		if (!s || !loss_later(crf, s, psn, late ?
				      CREM_FS_LOSSES_RESTORED_LATE :
				      CREM_FS_LOSSES_RESTORED))
			pin_restored(crf, psn, late);
	}
	if (crf->npins)
		pin_store(crf, psn, sym + 2, len);
	if (crem_roce_parse_bth(sym + 2, len, &bth) == CREM_ROCE_OK)
		cover(crf, psn, crem_roce_psn_span(&bth, crf->desc.rdma_mtu),
		      now(crf));
	advance(crf);
	return 0;
}

/* ---- blocks ----------------------------------------------------------- */

static struct crem_crf_slot *find_slot(struct crem_crf *crf, u32 start)
{
	unsigned int i;

	for (i = 0; i < crf->cfg.max_open_blocks; i++)
		if (crf->slots[i].state != CREM_SLOT_FREE &&
		    crf->slots[i].start == start)
			return &crf->slots[i];
	return NULL;
}

static struct crem_crf_slot *slot_of_psn(struct crem_crf *crf, u32 psn)
{
	unsigned int i;

	for (i = 0; i < crf->cfg.max_open_blocks; i++) {
		struct crem_crf_slot *s = &crf->slots[i];

		if (s->state != CREM_SLOT_FREE &&
		    crem_psn_in_range(psn, s->start, s->k))
			return s;
	}
	return NULL;
}

/* A busy slot's block is out being decoded: the decode frees it. */
static void free_slot(struct crem_crf *crf, struct crem_crf_slot *s)
{
	if (s->state == CREM_SLOT_OPEN)
		crf->nopen--;
	if (!s->busy)
		release(crf, s->block, s->size);
	memset(s, 0, sizeof(*s));
}

/* A block is done, or given up: its decoding buffer goes now. */
static void settle(struct crem_crf *crf, struct crem_crf_slot *s, u8 state)
{
	if (s->state == CREM_SLOT_OPEN)
		crf->nopen--;
	release(crf, s->block, s->size);
	s->block = NULL;
	s->size = 0;
	s->state = state;
	s->deadline_ns = CREM_NO_DEADLINE;
	s->decode_due = false;
	s->overtaken = (struct crem_fec_set){ 0 };
	if (state == CREM_SLOT_FELL_BACK)
		crf->stats.v[CREM_FS_BLOCKS_FELL_BACK]++;
	losses_later_end(crf, s, false);
}

/*
 * A slot for a new block: a free one, else the oldest settled one, else
 * the oldest open one, which is then left to the RDMA transport; never a
 * busy one (its block is being decoded).  NULL if every slot is busy.
 */
static struct crem_crf_slot *new_slot(struct crem_crf *crf)
{
	struct crem_crf_slot *s, *victim = NULL;
	unsigned int i, pass;

	for (i = 0; i < crf->cfg.max_open_blocks; i++)
		if (crf->slots[i].state == CREM_SLOT_FREE)
			return &crf->slots[i];
	for (pass = 0; pass < 2 && !victim; pass++) {
		for (i = 0; i < crf->cfg.max_open_blocks; i++) {
			s = &crf->slots[i];
			if (s->busy || (s->state == CREM_SLOT_OPEN) != pass)
				continue;
			if (!victim || crem_psn_before(s->start, victim->start))
				victim = s;
		}
	}
	if (!victim)
		return NULL;
	if (victim->state == CREM_SLOT_OPEN) {
		fate_mark_limited(crf, victim);
		losses_later_end(crf, victim, true);
		crf->stats.v[CREM_FS_BLOCKS_DROPPED]++;
		crf->stats.v[CREM_FS_BLOCKS_FELL_BACK]++;
	}
	free_slot(crf, victim);
	return victim;
}

/* Missing present positions of @s, by the window. */
static struct crem_fec_set slot_missing(struct crem_crf *crf,
					const struct crem_crf_slot *s)
{
	struct crem_fec_set missing = { 0 }, late = { 0 };
	unsigned int j;

	crem_set_for_each(j, &s->present) {
		u32 psn = crem_psn_add(s->start, j);

		if (arrived_late(crf, psn))
			crem_set_add(&late, j);
		else if (!have_source(crf, psn))
			crem_set_add(&missing, j);
	}
	/*
	 * A late copy is not a source to decode with, but nothing to restore
	 * either: it is unknown only while something else is missing.
	 */
	if (crem_set_count(&missing))
		crem_set_for_each(j, &late)
			crem_set_add(&missing, j);
	return missing;
}

/* @s lost its slot or its decoding buffer: so did what it misses. */
static void fate_mark_limited(struct crem_crf *crf,
			      const struct crem_crf_slot *s)
{
	struct crem_fec_set lost = slot_missing(crf, s);

	fate_mark(crf, s->start, &lost, FATE_LIMITED);
}

/* Give the block a decoding buffer holding every source it has. */
static int ensure_block(struct crem_crf *crf, struct crem_crf_slot *s)
{
	unsigned int j;
	size_t hdr, size;
	u8 *mem;

	if (s->block)
		return 0;
	hdr = crem_symbol_stride(sizeof(struct crem_crf_block));
	size = hdr + crem_crf_block_size(s->k, s->k, s->symbol_len);
	mem = alloc(crf, size);
	if (!mem) {
		fate_mark_limited(crf, s);
		crf->stats.v[CREM_FS_MEMORY_REFUSED]++;
		return -ENOMEM;
	}
	s->block = (struct crem_crf_block *)mem;
	s->size = size;
	if (crem_crf_block_init(s->block, mem + hdr, s->start, s->k, s->k,
				s->symbol_len)) {
		CREM_WARN_ON_ONCE(1);
		settle(crf, s, CREM_SLOT_FELL_BACK);
		return -EINVAL;
	}
	crem_set_for_each(j, &s->present) {
		u32 psn = crem_psn_add(s->start, j);
		const u8 *sym = source_of(crf, psn);
		size_t len;

		if (sym && !crem_symbol_to_packet(sym, crf->stride, &len))
			crem_crf_block_add_source(s->block, psn, sym + 2, len);
	}
	return crem_crf_block_set_geometry(s->block, s->k, &s->present,
					   s->symbol_len);
}

/*
 * Position @j of @b was restored but failed its ICRC: it is missing
 * again, and the repairs that produced it cannot be trusted either.
 */
static void restore_failed(struct crem_crf_block *b, unsigned int j)
{
	crem_set_del(&b->held, j);
	crem_set_del(&b->restored, j);
	b->nr_repairs = 0;
}

/*
 * Has no packet after @psn come yet?  Then a REPAIR that lets @psn be
 * restored overtook its original, which is most likely on its way.
 */
static bool not_yet_missed(const struct crem_crf *crf, u32 psn)
{
	return !crf->have_frontier || !crem_psn_before(psn, crf->frontier);
}

/*
 * Deliver what @s restored ahead of its originals (@s->overtaken): each
 * one before @before, the PSN that misses it, or with @all every one (the
 * allowance ran out, and no original came).  A copy does not go while
 * nothing has missed its original: the RDMA receiver would get the
 * packet twice, and executes a second READ request again (every response
 * resent).  (An original that a later PSN overtook, reordered, still
 * gets its copy at once, as a loss would.)  An original here meanwhile
 * makes its copy needless; a copy that fails its ICRC is missing again,
 * for the slot's requests.
 */
static void deliver_overtaken_before(struct crem_crf *crf,
				     struct crem_crf_slot *s, u32 before,
				     bool all)
{
	struct crem_fec_set todo = s->overtaken;
	struct crem_crf_block *b = s->block;
	unsigned int j;

	if (!b || s->busy)
		return;
	crem_set_for_each(j, &todo) {
		u32 psn = crem_psn_add(s->start, j);

		/* A delivery below may have settled @s, or taken @j. */
		if (s->block != b || !crem_set_has(&s->overtaken, j) ||
		    (!all && !crem_psn_before(psn, before)))
			continue;
		crem_set_del(&s->overtaken, j);
		if (arrived_late(crf, psn) || source_of(crf, psn))
			continue;
		if (deliver(crf, psn, crem_crf_block_symbol(b, j), b->stride))
			restore_failed(b, j);
	}
}

/* Deliver what @s restored ahead of its originals that a later PSN missed. */
static void deliver_overtaken(struct crem_crf *crf, struct crem_crf_slot *s,
			      bool all)
{
	if (all || crf->have_frontier)
		deliver_overtaken_before(crf, s, crf->frontier, all);
}

/*
 * The copies restored ahead of their originals, of every open slot, that
 * the packet at @psn misses: oldest slot first, so that they go in PSN
 * order and before it.
 */
static void deliver_missed_overtaken(struct crem_crf *crf, u32 psn)
{
	unsigned int i, round;

	for (round = 0; round < crf->cfg.max_open_blocks; round++) {
		struct crem_crf_slot *first = NULL;

		for (i = 0; i < crf->cfg.max_open_blocks; i++) {
			struct crem_crf_slot *s = &crf->slots[i];

			if (s->state != CREM_SLOT_OPEN || s->busy || !s->block ||
			    !crem_set_count(&s->overtaken) ||
			    !crem_psn_before(s->start, psn))
				continue;
			if (!first || crem_psn_before(s->start, first->start))
				first = s;
		}
		if (!first)
			return;
		deliver_overtaken_before(crf, first, psn, false);
		/* What is left of it is not before @psn. */
		if (crem_set_count(&first->overtaken))
			return;
	}
}

/*
 * The present positions @s still misses (by its decoding buffer, else by
 * the window); with none, and no restored copy waiting for its position
 * to be missed, @s is settled.  Return: true if it was.
 */
static bool settle_if_complete(struct crem_crf *crf, struct crem_crf_slot *s,
			       struct crem_fec_set *missing)
{
	*missing = s->block ? crem_crf_block_missing(s->block) :
			      slot_missing(crf, s);
	if (crem_set_count(missing))
		return false;
	deliver_overtaken(crf, s, false);
	if (crem_set_count(&s->overtaken))
		return false;
	/* A copy that failed its ICRC is missing again. */
	if (s->block) {
		*missing = crem_crf_block_missing(s->block);
		if (crem_set_count(missing))
			return false;
	}
	settle(crf, s, CREM_SLOT_DONE);
	return true;
}

/*
 * Decoding is matrix work, milliseconds for a large block: it never runs
 * inside an engine call, which the owner serialises (in the kernel, under
 * a spinlock with BHs off).  A slot whose symbols suffice is marked due;
 * the owner takes its block out (crem_crf_decode_claim()), decodes it with
 * no serialisation (crem_crf_decode_run()) and hands it back
 * (crem_crf_decode_finish()).  While it is out the slot is busy: its block
 * is neither written nor freed here.
 */
static void decode_later(struct crem_crf *crf, struct crem_crf_slot *s, u64 t)
{
	struct crem_fec_set missing;

	if (s->state != CREM_SLOT_OPEN || s->busy ||
	    settle_if_complete(crf, s, &missing) || !s->block ||
	    !crem_crf_block_decodable(s->block))
		return;
	s->decode_due = true;
	crf->decode_due_ns = min_u64(crf->decode_due_ns, t);
}

bool crem_crf_decode_pending(const struct crem_crf *crf)
{
	return crf->state == CREM_CRF_ACTIVE &&
	       crf->decode_due_ns != CREM_NO_DEADLINE;
}

/* The coding a decode of @b for @missing costs: a pass over k symbols each. */
static size_t decode_cost(const struct crem_crf_block *b,
			  const struct crem_fec_set *missing)
{
	return (size_t)b->k * b->symbol_len * crem_set_count(missing);
}

bool crem_crf_decode_claim(struct crem_crf *crf, struct crem_crf_decode *job)
{
	return crem_crf_decode_claim_within(crf, job, ~(size_t)0);
}

bool crem_crf_decode_claim_within(struct crem_crf *crf,
				  struct crem_crf_decode *job, size_t budget)
{
	struct crem_crf_slot *taken = NULL;
	struct crem_fec_set missing;
	bool more = false, left = false;
	unsigned int i;
	size_t cost;

	if (crf->state != CREM_CRF_ACTIVE ||
	    crf->decode_due_ns == CREM_NO_DEADLINE)
		return false;
	for (i = 0; i < crf->cfg.max_open_blocks && !more; i++) {
		struct crem_crf_slot *s = &crf->slots[i];

		if (!s->decode_due)
			continue;
		if (taken) {
			more = true;	/* the next claim takes it */
			break;
		}
		s->decode_due = false;
		if (s->state != CREM_SLOT_OPEN || s->busy ||
		    settle_if_complete(crf, s, &missing) || !s->block ||
		    !crem_crf_block_decodable(s->block))
			continue;
		cost = decode_cost(s->block, &missing);
		if (cost > budget) {
			/* Left due, for an owner with time for it. */
			s->decode_due = true;
			left = true;
			continue;
		}
		s->busy = true;
		taken = s;
		*job = (struct crem_crf_decode){
			.block = s->block, .size = s->size, .start = s->start,
			.missing = missing, .cost = cost,
		};
	}
	if (!more && !left)
		crf->decode_due_ns = CREM_NO_DEADLINE;
	return taken;
}

void crem_crf_decode_run(struct crem_crf_decode *job,
			 struct crem_fec_work *work)
{
	job->restored = crem_crf_block_decode(job->block, work);
}

void crem_crf_decode_finish(struct crem_crf *crf, struct crem_crf_decode *job)
{
	struct crem_crf_block *b = job->block;
	struct crem_fec_set bad = { 0 };
	struct crem_crf_slot *s;
	struct crem_event ev;
	unsigned int j;

	/* The flow ended while the block was out: it is ours to free. */
	if (crf->state != CREM_CRF_ACTIVE) {
		release(crf, b, job->size);
		return;
	}
	s = find_slot(crf, job->start);
	if (CREM_WARN_ON_ONCE(!s || !s->busy || s->block != b))
		return;
	s->busy = false;
	if (job->restored < 0)
		goto out;
	crf->stats.v[CREM_FS_BLOCKS_DECODED]++;
	ev = (struct crem_event){
		.type = CREM_EV_BLOCK_DECODED, .flow_id = crf->flow_id,
		.block_start = s->start, .a = job->restored,
		.b = b->nr_repairs, .c = decode_cost(b, &job->missing),
	};
	crem_env_event(crf->env, crf->owner, &ev);
	crem_set_for_each(j, &job->missing) {
		u32 psn = crem_psn_add(s->start, j);

		/* Restored only to decode the others, or here meanwhile. */
		if (arrived_late(crf, psn) || source_of(crf, psn))
			continue;
		if (not_yet_missed(crf, psn)) {
			crem_set_add(&s->overtaken, j);
			continue;
		}
		if (deliver(crf, psn, crem_crf_block_symbol(b, j), b->stride))
			crem_set_add(&bad, j);
	}
	/* Positions missed while the block was out go now, in order. */
	deliver_overtaken(crf, s, false);
	if (crem_set_count(&bad)) {
		/*
		 * Corrupt restores are not delivered: ask for the sources.
		 * Copies waiting go when missed, or at the fallback's
		 * deadline (slot_step()).
		 */
		crem_set_for_each(j, &bad)
			restore_failed(b, j);
		send_fallback(crf, s, &bad);
		goto out;
	}
	if (!crem_set_count(&s->overtaken)) {
		struct crem_fec_set missing = crem_crf_block_missing(b);

		if (!crem_set_count(&missing)) {
			settle(crf, s, CREM_SLOT_DONE);
			goto out;
		}
		/* A copy failed its ICRC: the slot's requests ask for it. */
	}
	/*
	 * The originals of waiting copies have the allowance to come, and a
	 * source missing again is asked for then (slot_step()).
	 */
	if (now(crf) + reorder_ns(crf) < s->deadline_ns) {
		s->deadline_ns = now(crf) + reorder_ns(crf);
		arm_at(crf, s->deadline_ns);
	}
out:
	/* The held packets behind what it restored may go on now. */
	hold_expired(crf, now(crf));
	arm_flow(crf);
}

/*
 * A source of open slot @s arrived.  Settling costs nothing and happens
 * now; decoding is due at once.
 */
static void source_arrived(struct crem_crf *crf, struct crem_crf_slot *s,
			   u64 t)
{
	if (!s->busy)
		decode_later(crf, s, t);
}

/*
 * Evidence that @s should be complete: decide after the allowance.  Once
 * a request is out, only its answer (@answer) brings the next step
 * forward; later packets say nothing new.
 */
static void evidence(struct crem_crf *crf, struct crem_crf_slot *s, u64 t,
		     bool answer)
{
	u64 d = t + reorder_ns(crf);

	if (!answer && (s->rounds || s->fallback_sent))
		return;
	if (s->state == CREM_SLOT_OPEN && d < s->deadline_ns) {
		s->deadline_ns = d;
		arm_at(crf, d);
	}
}

static unsigned int repairs_serving(const struct crem_crf_block *b,
				    const struct crem_fec_set *missing)
{
	unsigned int t, n = 0;

	for (t = 0; t < b->nr_repairs; t++)
		n += crem_set_subset(missing, &b->repair[t].lset);
	return n;
}

/*
 * How long an answer may take: a round trip and the allowance, with a
 * quarter SRTT of margin, because the CSF answers at most once per its own
 * SRTT and its estimate may be a little larger than ours.
 */
static u64 retry_ns(const struct crem_crf *crf)
{
	return crf->srtt_ns + crf->srtt_ns / 4 + reorder_ns(crf);
}

static void send_request(struct crem_crf *crf, struct crem_crf_slot *s,
			 const struct crem_fec_set *lost, unsigned int held,
			 bool fallback)
{
	unsigned int x = crem_set_count(lost);
	struct crem_msg m = {
		.type = CREM_MSG_REPAIR_REQUEST,
		.flags = fallback ? CREM_REQ_F_FALLBACK : 0,
		.request = {
			.request_id = ++crf->request_id,
			.config_id = s->config_id,
			.scheme = CREM_FEC_CAUCHY_RS, .k = s->k,
			.repairs_held = held > 255 ? 255 : held,
			.block_start = s->start, .lost = *lost,
		},
	};
	unsigned int ms = x > held ? x - held : 0;

	if (!fallback && crf->p > DELTA_LOSS)
		ms++;
	m.request.suggested_m = ms > x ? x : ms;
	if (fallback)
		m.request.suggested_m = x;
	crf->request_ns = now(crf);
	fate_mark(crf, s->start, lost, FATE_ASKED);
	if (send_msg(crf, &m))
		return;
	crf->stats.v[fallback ? CREM_FS_FALLBACK_REQUESTS_SENT :
		     CREM_FS_REQUESTS_SENT]++;
}

static void send_fallback(struct crem_crf *crf, struct crem_crf_slot *s,
			  const struct crem_fec_set *lost)
{
	send_request(crf, s, lost, 0, true);
	s->fallback_sent = true;
	s->deadline_ns = now(crf) + retry_ns(crf);
}

/*
 * The slot's deadline came: request coded symbols (two rounds), then the
 * fallback, then leave the block to the RDMA transport.
 */
static void slot_step(struct crem_crf *crf, struct crem_crf_slot *s, u64 t)
{
	struct crem_fec_set missing;
	unsigned int held = 0;

	s->deadline_ns = CREM_NO_DEADLINE;
	/* Restored copies whose originals did not come in the allowance. */
	deliver_overtaken(crf, s, true);
	missing = slot_missing(crf, s);
	if (!crem_set_count(&missing)) {
		settle(crf, s, CREM_SLOT_DONE);
		return;
	}
	if (!s->counted_incomplete) {
		s->counted_incomplete = true;
		crf->stats.v[CREM_FS_BLOCKS_INCOMPLETE]++;
		crf->report.incomplete_blocks++;
	}
	if (ensure_block(crf, s)) {
		settle(crf, s, CREM_SLOT_FELL_BACK);
		return;
	}
	missing = crem_crf_block_missing(s->block);
	held = repairs_serving(s->block, &missing);
	if (s->rounds < 2) {
		s->rounds++;
		send_request(crf, s, &missing, held, false);
		s->deadline_ns = t + retry_ns(crf);
	} else if (crf->cfg.fallback_source_copy && !s->fallback_sent) {
		send_fallback(crf, s, &missing);
	} else {
		struct crem_event ev = {
			.type = CREM_EV_FALLBACK, .flow_id = crf->flow_id,
			.block_start = s->start,
			.a = crem_set_count(&missing), .b = 0,
		};

		crem_env_event(crf->env, crf->owner, &ev);
		fate_mark(crf, s->start, &missing, FATE_GAVE_UP);
		settle(crf, s, CREM_SLOT_FELL_BACK);
	}
}

/* The geometry a REPAIR or INFO gives; a new slot, or the known one. */
static struct crem_crf_slot *geometry(struct crem_crf *crf,
				      const struct crem_wire_repair *r,
				      const struct crem_config *c, u64 t)
{
	struct crem_crf_slot *s = find_slot(crf, r->block_start);
	unsigned int j;

	if (s)
		return s->k == r->k && s->config_id == r->config_id &&
		       !memcmp(&s->present, &r->present, sizeof(s->present)) ?
		       s : NULL;
	if (before_window(crf, r->block_start) && !pin_of(crf, r->block_start))
		return NULL;
	s = new_slot(crf);
	if (!s)
		return NULL;
	s->state = CREM_SLOT_OPEN;
	crf->nopen++;
	s->start = r->block_start;
	s->k = r->k;
	s->m = c->m;
	s->config_id = r->config_id;
	s->symbol_len = c->symbol_len;
	s->present = r->present;
	s->deadline_ns = CREM_NO_DEADLINE;
	s->created_ns = t;
	for (j = 0; j < s->k; j++) {
		u32 psn = crem_psn_add(s->start, j);
		struct crem_crf_pos *p = pos_of(crf, psn);

		if (crem_set_has(&s->present, j)) {
			if (p->psn == psn)
				p->fate |= FATE_BLOCK;
			continue;
		}
		/* A pinned old block must not overwrite newer positions. */
		if (pos_known(crf, psn) || before_window(crf, psn) ||
		    pos_newer(p, psn))
			continue;
		/*
		 * Absent: neither coded nor expected; ordering passes it.  A
		 * missed one keeps its fate: a source the CSF did not code
		 * shows itself by its resend (crem_crf_source()).
		 */
		uncount_absent(crf, p, psn);
		pos_claim(crf, p, psn);
		p->state = CREM_POS_ABSENT;
		p->held = false;
	}
	advance(crf);
	/* A packet beyond the block came already. */
	if (crf->have_frontier &&
	    !crem_psn_before(crf->frontier, crem_psn_add(s->start, s->k)))
		evidence(crf, s, t, false);
	return s;
}

static int repair(struct crem_crf *crf, const struct crem_msg *msg, bool ce)
{
	const struct crem_wire_repair *r = &msg->repair;
	const struct crem_config *c = crem_crf_param_find(&crf->param,
							 r->config_id);
	bool retx = msg->flags & CREM_REPAIR_F_RETX;
	bool info = msg->flags & CREM_REPAIR_F_INFO;
	struct crem_fec_set lset;
	struct crem_crf_slot *s;
	u64 t = now(crf);

	if (!info && c && c->m)
		crf->repairs_seen = true;
	if (!info) {
		report_wake(crf, t);
		crf->stats.v[CREM_FS_REPAIRS_RECEIVED]++;
		crf->report.repairs_received++;
		if (ce) {
			crf->stats.v[CREM_FS_REPAIRS_CE]++;
			crf->report.repairs_ce_marked++;
		}
	}
	if (!c || !c->k || r->k > c->k ||
	    (!info && r->symbol_len != c->symbol_len) ||
	    (r->scheme != CREM_FEC_CAUCHY_RS &&
	     !(retx && r->scheme == CREM_FEC_SOURCE_COPY))) {
		crf->stats.v[CREM_FS_REPAIRS_REJECTED]++;
		return -EINVAL;
	}
	if (r->config_id == crf->param.config[crf->param.newest].id &&
	    !crf->newest_seen) {
		crf->newest_seen = true;
		crf->newest_seen_ns = t;
	}
	s = geometry(crf, r, c, t);
	if (!s) {
		crf->stats.v[CREM_FS_REPAIRS_REJECTED]++;
		return -EINVAL;
	}
	if (retx && r->session_id == crf->request_id && crf->request_ns) {
		struct crem_event ev = {
			.type = CREM_EV_CODED_RETX_ANSWERED,
			.flow_id = crf->flow_id, .block_start = r->block_start,
			.a = crem_set_count(&r->lost), .c = r->session_id,
		};

		crem_env_event(crf->env, crf->owner, &ev);
		rtt_sample(crf, t - crf->request_ns);
		crf->request_ns = 0;
	}
	if (info) {
		/* Keep its sources now: the window moves on before the answer. */
		lset = slot_missing(crf, s);
		if (crem_set_count(&lset) && !s->block && ensure_block(crf, s))
			return -ENOMEM;
		if (crem_set_count(&s->present))
			evidence(crf, s, t, false);
		decode_later(crf, s, t);
		return 0;
	}
	if (s->state != CREM_SLOT_OPEN || s->busy) {
		crf->stats.v[CREM_FS_REPAIRS_USELESS]++;
		return 0;
	}
	if (!retx && r->index < s->m && ++s->ordinary_seen == s->m)
		evidence(crf, s, t, false);
	if (msg->flags & CREM_REPAIR_F_LAST)
		evidence(crf, s, t, retx);
	lset = slot_missing(crf, s);
	if (!crem_set_count(&lset) && !s->block) {
		crf->stats.v[CREM_FS_REPAIRS_USELESS]++;
		settle(crf, s, CREM_SLOT_DONE);
		return 0;
	}
	if (ensure_block(crf, s))
		return -ENOMEM;
	if (r->scheme == CREM_FEC_SOURCE_COPY) {
		u32 psn = crem_psn_add(s->start, r->index);
		size_t len;

		if (r->index >= s->k || !crem_set_has(&s->present, r->index) ||
		    crem_set_has(&s->block->held, r->index) ||
		    crem_symbol_to_packet(r->symbol, r->symbol_len, &len)) {
			crf->stats.v[CREM_FS_REPAIRS_USELESS]++;
			return 0;
		}
		/* The coded copy of one that came late: decode with it. */
		if (arrived_late(crf, psn)) {
			crem_crf_block_add_source(s->block, psn, r->symbol + 2,
						  len);
		} else if (!deliver(crf, psn, r->symbol, r->symbol_len)) {
			crem_crf_block_add_source(s->block, psn, r->symbol + 2,
						  len);
			crem_set_add(&s->block->restored, r->index);
		}
		decode_later(crf, s, t);
		return 0;
	}
	lset = retx ? r->lost : r->present;
	switch (crem_crf_block_add_repair(s->block, r->k, &r->present,
					  r->symbol_len, r->index, &lset,
					  r->symbol)) {
	case 0:
		break;
	case -EEXIST:
	case -ENOSPC:
		crf->stats.v[CREM_FS_REPAIRS_USELESS]++;
		return 0;
	default:
		crf->stats.v[CREM_FS_REPAIRS_REJECTED]++;
		return -EINVAL;
	}
	decode_later(crf, s, t);
	return 0;
}

/* ---- sources ---------------------------------------------------------- */

/* Positions the frontier jumps over are gaps: dated for range requests. */
static void move_frontier(struct crem_crf *crf, u32 psn, u32 span, u64 t)
{
	u32 end = crem_psn_add(psn, span), p;
	unsigned int i;
	u8 unprotected;

	if (!crf->have_frontier) {
		crf->frontier = end;
		crf->have_frontier = true;
		crf->report.expected++;
		return;
	}
	/* A late or retransmitted packet: counted when it was missed. */
	if (!crem_psn_after(end, crf->frontier))
		return;
	/*
	 * Copies restored ahead of what this packet misses go first, and
	 * count as arrived: a READ request's covers its responses' positions,
	 * which are not to count as missed (cover()).
	 */
	if (crf->nopen) {
		deliver_missed_overtaken(crf, psn);
		if (!crem_psn_after(end, crf->frontier))
			return;
	}
	p = crf->frontier;
	/*
	 * Only the PSNs of the jump whose positions the packet and its span
	 * (cover()) do not hold get one: fewer than W before the span's
	 * end.  Older ones would take a position only to give it up in the
	 * same pass, or take the packet's own.  They are counted, as missed
	 * and unconfirmed (nothing will show them now), not visited: one
	 * packet costs at most W steps.
	 */
	if (crem_psn_diff(end, p) > (s32)crf->window - 1) {
		u32 skip = crem_psn_diff(end, p) - (crf->window - 1), w;

		/* A jump of a window: no copy kept is of this run of PSNs. */
		for (w = 0; w < crf->window; w++)
			crf->pos[w].kept = false;

		if (skip > (u32)crem_psn_diff(psn, p))
			skip = crem_psn_diff(psn, p);
		crf->report.expected += skip;
		crf->stats.v[CREM_FS_MISSES_UNCONFIRMED] += skip;
		p = crem_psn_add(p, skip);
	}
	unprotected = repairs_may_fill(crf) ? 0 : FATE_UNPROTECTED;
	for (; crem_psn_before(p, psn); p = crem_psn_add(p, 1)) {
		struct crem_crf_pos *q = pos_of(crf, p);

		/*
		 * Shown absent before the frontier came (a REPAIR's Present
		 * Bitmap overtook its block's sources): no packet is expected.
		 */
		if (q->psn == p && q->state == CREM_POS_ABSENT)
			continue;
		crf->report.expected++;
		if (q->psn == p && q->state != CREM_POS_EMPTY)
			continue;
		if (q->held)
			continue;
		pos_claim(crf, q, p);
		q->state = CREM_POS_EMPTY;
		q->gap = 1;
		q->missing_ns = t;
		q->fate |= FATE_MISSED | unprotected |
			   (open_block_of(crf, p) ? FATE_BLOCK : 0);
		crf->gaps_unjudged = true;
		report_unsettled(crf, t);
		if (t + gap_wait(crf) < crf->gap_due_ns) {
			crf->gap_due_ns = t + gap_wait(crf);
			arm_at(crf, crf->gap_due_ns);
		}
	}
	crf->report.expected++;
	crf->frontier = end;
	/* Every block that ends at or before the new frontier is due. */
	for (i = 0; crf->nopen && i < crf->cfg.max_open_blocks; i++) {
		struct crem_crf_slot *s = &crf->slots[i];

		if (s->state == CREM_SLOT_OPEN &&
		    !crem_psn_before(psn, crem_psn_add(s->start, s->k)))
			evidence(crf, s, t, false);
	}
}

/*
 * The packet at @psn is here (arrived or restored): the PSNs its span
 * consumes after it (a READ request's responses) are absent, and the
 * frontier moves past them.
 */
static void cover(struct crem_crf *crf, u32 psn, u32 span, u64 t)
{
	u32 j;

	if (before_window(crf, psn))
		return;
	/*
	 * The first W - 1 of the span: the rest would take the same
	 * positions again (and the W-th the packet's own).  A position a
	 * newer PSN took ahead of the frontier stays that PSN's.
	 */
	for (j = 1; j < span && j < crf->window; j++) {
		struct crem_crf_pos *q = pos_of(crf, crem_psn_add(psn, j));

		if (pos_newer(q, crem_psn_add(psn, j)))
			continue;
		uncount_absent(crf, q, crem_psn_add(psn, j));
		pos_claim(crf, q, crem_psn_add(psn, j));
		q->state = CREM_POS_ABSENT;
		q->held = false;
		q->gap = 0;
		q->fate = 0;	/* carried no packet */
	}
	move_frontier(crf, psn, span, t);
}

/*
 * Holding a packet is worth it only if its gap may be filled within H,
 * that is by ordinary repairs: the newest configuration sends some, and
 * they have been seen arriving.  Otherwise a packet after a gap goes on
 * at once, as if crem were not there.
 */
static bool repairs_may_fill(const struct crem_crf *crf)
{
	return crf->repairs_seen && crf->param.config[crf->param.newest].m;
}

bool crem_crf_may_hold(const struct crem_crf *crf, u32 psn)
{
	return crf->state == CREM_CRF_ACTIVE && hold_ns(crf) &&
	       repairs_may_fill(crf) && crf->have_next &&
	       crem_psn_after(psn, crf->next_deliver) &&
	       crf->nheld < crf->cfg.max_held;
}

enum crem_crf_verdict crem_crf_source(struct crem_crf *crf, const u8 *ip,
				      const struct crem_roce_pkt *pkt,
				      const u8 *udp_payload, size_t len,
				      void *handle)
{
	u64 t = now(crf), hold_time, reorder;
	u32 psn = pkt->psn;
	struct crem_crf_pos *p;
	struct crem_crf_slot *s;
	bool in_order, late, absent, uncoded, may_hold;
	u8 *sym;
	u32 span;

	if (crf->state != CREM_CRF_ACTIVE || !crem_roce_is_source(pkt))
		return CREM_CRF_PASS;
	if (!crf->pos) {
		/*
		 * Once a PARAM_UPDATE or REPAIR has come, the sender can hear
		 * CLOSE; before, the failure waits for one (and is not tried
		 * again with every source).
		 */
		if (crf->heard_id) {
			if (!reserve_or_close(crf))
				return CREM_CRF_PASS;
		} else if (crf->reserve_failed || reserve(crf)) {
			crf->reserve_failed = true;
			crf->last_activity_ns = t;
			return CREM_CRF_PASS;
		}
	}
	report_wake(crf, t);
	crf->last_activity_ns = t;
	if (crf->last_source_ns) {
		u64 gap = t - crf->last_source_ns;

		if (gap > crf->gap_ns)
			crf->gap_ns += (gap - crf->gap_ns) >> 3;
		else
			crf->gap_ns -= (crf->gap_ns - gap) >> 3;
	}
	crem_pace_source(&crf->pace, t, crf->srtt_ns);
	crf->last_source_ns = t;
	/* H and the allowance once a packet: nothing below changes them. */
	hold_time = hold_ns(crf);
	reorder = crem_flow_reorder_ns(&crf->cfg, hold_time);
	if (pkt->ecn == 3) {
		crf->stats.v[CREM_FS_SOURCES_CE]++;
		crf->report.ce_marked++;
	}
	/* Copies of what a resend round lost go on before this source. */
	if (crf->resending)
		resend_round(crf, psn, t);
	p = pos_of(crf, psn);
	if (p->psn == psn && (p->state == CREM_POS_RECEIVED ||
			      p->state == CREM_POS_RESTORED)) {
		crf->stats.v[CREM_FS_SOURCES_DUPLICATE]++;
		/*
		 * The original of a restored source, within the allowance: it
		 * was reordered, not lost, and counting it lost would raise m
		 * on a lossless path.
		 */
		if (p->state == CREM_POS_RESTORED && p->original_due &&
		    t - p->missing_ns <= reorder) {
			p->original_due = false;
			p->fate = 0;
			crf->report.received++;
			crf->stats.v[CREM_FS_SOURCES_REORDERED]++;
		}
		return CREM_CRF_PASS;
	}
	/*
	 * Older than the window (the RDMA transport's own retransmission,
	 * long after), or older than its position's PSN, which a burst
	 * longer than the window let a newer PSN take (move_frontier()): its
	 * window position belongs to a newer PSN now.  It only matters to a
	 * block still waiting for it.
	 */
	if (before_window(crf, psn) ||
	    (crf->have_frontier && crem_psn_before(psn, crf->frontier) &&
	     pos_newer(p, psn))) {
		crf->stats.v[CREM_FS_SOURCES_LATE]++;
		pin_late(crf, psn);
		s = crf->nopen ? slot_of_psn(crf, psn) : NULL;
		if (s)
			loss_later(crf, s, psn, fate_end(block_fate(s)));
		return CREM_CRF_PASS;
	}
	crf->stats.v[CREM_FS_SOURCES]++;
	crf->stats.v[CREM_FS_SOURCE_BYTES] += len;
	/*
	 * Received, for the loss rate: new, or reordered within the
	 * allowance.  A packet missed for longer is a recovery (the RDMA
	 * transport's retransmission): counting it would hide the loss.
	 */
	late = crf->have_frontier && crem_psn_before(psn, crf->frontier) &&
	       !missed_within_allowance(crf, p, psn, t);
	/*
	 * Repairs follow their block on the wire: a source a reordering
	 * allowance after its block's first REPAIR is a retransmission, though
	 * nothing after it saw it missing (a block's last packets).  Per
	 * packet: the slot scan only when some block is open.
	 */
	s = crf->nopen ? slot_of_psn(crf, psn) : NULL;
	if (s && s->state == CREM_SLOT_OPEN &&
	    t - s->created_ns > reorder)
		late = true;
	if (late)
		crf->stats.v[CREM_FS_SOURCES_LATE]++;
	else
		crf->report.received++;
	learn_ip(crf, ip, pkt);
	if (p->held) {
		/* Its slot is reused: the old packet goes first. */
		unsigned int i;

		for (i = 0; i < crf->nheld; i++)
			if (crf->held[i].psn == p->psn)
				release_held(crf, i);
	}
	/*
	 * Missed, then shown absent: a source the CSF did not code.  Absent
	 * and never missed: a PSN of an earlier READ request's span, which a
	 * retried READ starts at when a response was lost; no loss here.
	 */
	absent = p->psn == psn && p->state == CREM_POS_ABSENT;
	uncoded = absent && (p->fate & FATE_MISSED);
	pos_claim(crf, p, psn);
	p->state = CREM_POS_RECEIVED;
	p->held = false;
	p->gap = 0;
	p->late = late;
	/* A copy restored ahead of it and waiting is needless now. */
	if (s && crem_psn_in_range(psn, s->start, s->k))
		crem_set_del(&s->overtaken, crem_psn_offset(psn, s->start));
	/* Late: the RDMA transport's resend of a lost one; else not lost. */
	if (!late || (absent && !uncoded))
		p->fate = 0;
	else if (uncoded)
		p->fate |= FATE_MISSED | FATE_UNPROTECTED;
	else if (s && !crem_set_has(&s->present,
				    crem_psn_offset(psn, s->start)))
		p->fate = 0;	/* its block did not code it: nothing shown */
	else
		p->fate |= FATE_MISSED | (s ? FATE_BLOCK : 0);
	sym = symbol_for(crf, psn);
	if (!sym || crem_symbol_from_packet(sym, crf->stride, udp_payload,
					    len)) {
		p->state = CREM_POS_EMPTY;	/* larger than T: not coded */
	} else {
		keep_copy(crf, p, psn, ip, pkt->af);
		if (crf->npins && !late)
			pin_store(crf, psn, udp_payload, len);
	}
	span = crem_roce_psn_span(pkt, crf->desc.rdma_mtu);
	cover(crf, psn, span, t);

	/*
	 * A late packet is the RDMA transport's retransmission, which may
	 * differ from the copy the CSF coded (rxe sets AckReq afresh): never
	 * a source to decode with.  @s may have changed state in cover().
	 */
	if (s && s->state == CREM_SLOT_OPEN && !s->busy &&
	    crem_psn_in_range(psn, s->start, s->k)) {
		if (s->block && !late)
			crem_crf_block_add_source(s->block, psn, udp_payload,
						  len);
		source_arrived(crf, s, t);
	}

	if (!crf->have_next) {
		crf->next_deliver = psn;
		crf->have_next = true;
	}
	in_order = !crem_psn_after(psn, crf->next_deliver);
	may_hold = !in_order && hold_time && handle && repairs_may_fill(crf);
	if (may_hold && give_up_past_repairs(crf, hold_time, false))
		may_hold = crem_psn_after(psn, crf->next_deliver);
	if (!may_hold || !hold(crf, psn, handle, t)) {
		passed(crf, psn);
		advance(crf);
		return CREM_CRF_PASS;
	}
	arm_at(crf, t + hold_time);
	advance(crf);
	return CREM_CRF_HOLD;
}

/* ---- timers and messages -------------------------------------------- */

/*
 * How long a gap waits before the PSN-range request: the allowance, and
 * with repairs on the way, time for its block to close and its REPAIR to
 * explain it.
 */
static u64 gap_wait(const struct crem_crf *crf)
{
	u64 wait = reorder_ns(crf);

	if (crf->param.config[crf->param.newest].m)
		wait += wait + flow_k(crf) * crf->gap_ns;
	return wait;
}

/* PSN ranges missing with no block to explain them, past the wait. */
static void range_requests(struct crem_crf *crf, u64 t)
{
	struct crem_psn_range ranges[MAX_RANGES];
	struct crem_msg m = { .type = CREM_MSG_REPAIR_REQUEST,
			      .flags = CREM_REQ_F_RANGES };
	u64 wait = gap_wait(crf), next = CREM_NO_DEADLINE;
	unsigned int n = 0, i;
	u32 p, lo;

	if (!crf->have_frontier || t < crf->gap_due_ns)
		return;
	lo = crem_psn_add(crf->frontier, -(s32)crf->window + 1);
	for (p = lo; crem_psn_before(p, crf->frontier); p = crem_psn_add(p, 1)) {
		struct crem_crf_pos *q = pos_of(crf, p);

		if (q->psn != p || q->state != CREM_POS_EMPTY || !q->gap)
			continue;
		if (q->missing_ns + wait > t) {
			if (q->missing_ns + wait < next)
				next = q->missing_ns + wait;
			continue;
		}
		if (slot_of_psn(crf, p)) {
			q->gap = 0;	/* its block's REPAIR explains it */
			continue;
		}
		if (n && crem_psn_add(ranges[n - 1].start,
				      ranges[n - 1].count) == p &&
		    ranges[n - 1].count < 255) {
			ranges[n - 1].count++;
		} else if (n < MAX_RANGES) {
			ranges[n].start = p;
			ranges[n++].count = 1;
		} else {
			next = t;
			break;
		}
		/* One question per gap per round trip, RANGE_TRIES in all. */
		q->missing_ns = t + crf->srtt_ns + crf->srtt_ns / 4;
		if (++q->gap > RANGE_TRIES)
			q->gap = 0;
		else if (q->missing_ns + wait < next)
			next = q->missing_ns + wait;
	}
	crf->gap_due_ns = next;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		pin_around(crf, ranges[i].start, ranges[i].count, t);
	m.request.request_id = ++crf->request_id;
	m.request.nranges = n;
	m.request.ranges = ranges;
	crf->request_ns = t;
	if (!send_msg(crf, &m))
		crf->stats.v[CREM_FS_RANGE_REQUESTS_SENT]++;
}

static u64 report_interval(const struct crem_crf *crf)
{
	return crf->srtt_ns;
}

/*
 * A report is due an SRTT after the last, later by up to a reordering
 * allowance while a position it counts as expected may still come (a gap,
 * or a restored source whose original may follow): cut between the two,
 * reordering would be reported as loss, and m raised for it.
 */
static u64 report_due(const struct crem_crf *crf)
{
	u64 due = crf->report_start_ns + report_interval(crf);

	if (crf->report_settle_ns <= due)
		return due;
	return min_u64(crf->report_settle_ns, due + reorder_ns(crf));
}

/* A position counted now settles within the reordering allowance. */
static void report_unsettled(struct crem_crf *crf, u64 t)
{
	crf->report_settle_ns = t + reorder_ns(crf);
}

/* Has the current interval anything to report? */
static bool report_pending(const struct crem_crf *crf)
{
	return crf->report.expected || crf->report.repairs_received;
}

/* Something to report after a quiet spell: the interval starts now. */
static void report_wake(struct crem_crf *crf, u64 t)
{
	if (report_pending(crf))
		return;
	crf->report_start_ns = t;
	arm_at(crf, t + report_interval(crf));
}

static void loss_report(struct crem_crf *crf, u64 t)
{
	struct crem_msg m = { .type = CREM_MSG_LOSS_REPORT };
	struct crem_wire_loss_report *r = &crf->report;
	u64 loss;

	if (r->expected || r->repairs_received) {
		r->interval_us = crem_div64(t - crf->report_start_ns, 1000);
		m.loss_report = *r;
		if (!send_msg(crf, &m))
			crf->stats.v[CREM_FS_LOSS_REPORTS_SENT]++;
		if (r->expected) {
			u64 got = r->received < r->expected ? r->received :
				  r->expected;

			loss = crem_div64((r->expected - got) * CREM_Q31,
					  r->expected);
			if (loss > crf->p)
				crf->p += (loss - crf->p) >> 3;
			else
				crf->p -= (crf->p - loss) >> 3;
		}
	}
	memset(r, 0, sizeof(*r));
	crf->report_start_ns = t;
}

/*
 * Does configuration @id still have blocks?  Its open slots say so, and so
 * does the CSF until well after it is seen using the newest configuration:
 * blocks it started before the Effective PSN keep their configuration, and
 * their coded retransmissions may come rounds later, for a gap the CRF
 * asked about by PSN range before it had a slot for the block.
 */
static bool config_open(void *ctx, u8 id)
{
	struct crem_crf *crf = ctx;
	unsigned int i;

	if (!crf->newest_seen || now(crf) - crf->newest_seen_ns <
				 CONFIG_GRACE_SRTTS * crf->srtt_ns +
				 reorder_ns(crf))
		return true;
	for (i = 0; crf->nopen && i < crf->cfg.max_open_blocks; i++)
		if (crf->slots[i].state == CREM_SLOT_OPEN &&
		    crf->slots[i].config_id == id)
			return true;
	return false;
}

/* Tell the environment about @d if it is earlier than what it has. */
static void arm_at(struct crem_crf *crf, u64 d)
{
	if (d < crf->armed_ns) {
		crf->armed_ns = d;
		crf->env->ops->arm(crf->env->ctx, crf->owner, d);
	}
}

static void arm_flow(struct crem_crf *crf)
{
	u64 d = crf->last_activity_ns + crf->cfg.idle_ns, hold = hold_ns(crf);
	unsigned int i;

	crf->armed_ns = CREM_NO_DEADLINE;
	if (crf->state != CREM_CRF_ACTIVE) {
		crf->env->ops->arm(crf->env->ctx, crf->owner, CREM_NO_DEADLINE);
		return;
	}
	/*
	 * A report is due an SRTT after the last while there is something to
	 * report; a quiet flow's timer does not tick for nothing (a source
	 * arms it again).
	 */
	if (report_pending(crf))
		d = min_u64(d, report_due(crf));
	for (i = 0; i < crf->nheld; i++)
		d = min_u64(d, crf->held[i].arrival_ns + hold);
	/* A busy slot's steps wait until its block is back. */
	for (i = 0; crf->nopen && i < crf->cfg.max_open_blocks; i++)
		if (crf->slots[i].state == CREM_SLOT_OPEN &&
		    !crf->slots[i].busy)
			d = min_u64(d, crf->slots[i].deadline_ns);
	d = min_u64(d, crf->gap_due_ns);
	/*
	 * Only a deadline the timeout acts on: a window that cannot shrink yet
	 * (window_shrink()) would put the deadline in the past for good, and
	 * the timer would fire again and again in softirq.
	 */
	if (crf->nchunks_live && !crf->nopen && !crf->npins && !crf->nheld)
		d = min_u64(d, crf->last_source_ns + crf->cfg.window_idle_ns);
	crf->armed_ns = d;
	crf->env->ops->arm(crf->env->ctx, crf->owner, d);
}

void crem_crf_timeout(struct crem_crf *crf)
{
	u64 t = now(crf);
	unsigned int i;

	crf->armed_ns = CREM_NO_DEADLINE;
	if (crf->state != CREM_CRF_ACTIVE)
		return;
	if (t - crf->last_activity_ns >= crf->cfg.idle_ns) {
		crem_crf_close(crf, CREM_CLOSE_FLOW_ENDED);
		return;
	}
	/*
	 * H is the limit even with a decode due: its worker may not run
	 * before this softirq ends (never harm), and a held deadline that
	 * stayed in the past would fire the timer again and again.
	 */
	hold_expired(crf, t);
	pins_expire(crf, t);
	for (i = 0; crf->nopen && i < crf->cfg.max_open_blocks; i++) {
		struct crem_crf_slot *s = &crf->slots[i];

		if (s->state == CREM_SLOT_OPEN && !s->busy &&
		    s->deadline_ns <= t)
			slot_step(crf, s, t);
	}
	range_requests(crf, t);
	if (!report_pending(crf))
		crf->report_start_ns = t;
	else if (t >= report_due(crf))
		loss_report(crf, t);
	crem_crf_param_release(&crf->param, config_open, crf);
	window_shrink(crf, t);
	arm_flow(crf);
}

int crem_crf_receive(struct crem_crf *crf, const struct crem_msg *msg, bool ce)
{
	u8 newest;
	int err = 0;

	crf->stats.v[CREM_FS_MSGS_RECEIVED]++;
	if (msg->type <= CREM_MSG_CLOSE)
		crf->stats.received[msg->type]++;
	if (crf->state != CREM_CRF_ACTIVE ||
	    (msg->type != CREM_MSG_HELLO && msg->flow_id != crf->flow_id)) {
		crf->stats.v[CREM_FS_MSGS_IGNORED]++;
		return -ENOENT;
	}
	crf->last_activity_ns = now(crf);
	switch (msg->type) {
	case CREM_MSG_HELLO:
		err = crem_crf_hello_again(crf, msg);
		break;
	case CREM_MSG_PARAM_UPDATE:
		/*
		 * The CSF proposes its first configuration as HELLO_ACK
		 * arrives: the first round trip this side can time.
		 */
		if (!crf->have_srtt && crf->hello_ack_ns &&
		    msg->param_update.config_id == 1) {
			rtt_sample(crf, now(crf) - crf->hello_ack_ns);
			crf->hello_ack_ns = 0;
		}
		/* The state a source could not have: tell the sender now. */
		crf->heard_id = true;
		if (crf->reserve_failed && !reserve_or_close(crf))
			return 0;
		newest = crf->param.newest;
		crem_crf_param_update(&crf->param, &crf->sub.env, crf, msg,
				      &crf->limits);
		if (crf->param.newest != newest)
			crf->newest_seen = false;
		break;
	case CREM_MSG_REPAIR:
		crf->heard_id = true;
		if (!reserve_or_close(crf))
			return 0;
		err = repair(crf, msg, ce);
		/*
		 * Its block may show a gap its repairs cannot fill: judge
		 * now for the packets held, or with the next one to hold.
		 */
		if (!err && crf->state == CREM_CRF_ACTIVE) {
			if (crf->nheld)
				give_up_past_repairs(crf, hold_ns(crf), true);
			else
				crf->gaps_unjudged = true;
		}
		break;
	case CREM_MSG_CLOSE:
		crf->stats.v[CREM_FS_CLOSES_RECEIVED]++;
		crf->close_reason = msg->close.reason;
		crem_crf_destroy(crf);
		return 0;
	default:
		err = -EPROTO;
		break;
	}
	if (err)
		crf->stats.v[CREM_FS_MSGS_IGNORED]++;
	arm_flow(crf);
	return err;
}

/* ---- life --------------------------------------------------------------- */

/*
 * Symbols per chunk of the window.  The kernel's kmalloc() serves up to
 * 8 KiB from its slab caches, which hand a buffer just freed by one flow
 * to the next at little cost; a larger one comes from the page allocator
 * each time (in the lab's emulated guests about 100 us, against 35 us of
 * rxe's own work per packet).  So a chunk is 8 KiB when that holds its
 * symbols to within an eighth (seven of T 1090), else the smallest power
 * of two that does (seven of T 4162 in 32 KiB, not one in 8 KiB).
 */
#define CREM_CHUNK_BYTES 8192

static u16 chunk_syms(size_t stride, u32 window)
{
	size_t alloc = CREM_CHUNK_BYTES, n;

	for (;;) {
		n = alloc / stride;
		/* Ends: from 8 strides up, less than one stride is left. */
		if (n && (alloc - n * stride) * 8 <= alloc)
			break;
		alloc *= 2;
	}
	return n < window ? n : window;
}

static u32 window_for(const struct crem_engine_config *cfg)
{
	u32 w = 64;

	while (w < 4u * cfg->limits.max_k || w < cfg->window)
		w *= 2;
	return w;
}

int crem_crf_start(struct crem_crf *crf, const struct crem_env *env,
		   void *owner, const struct crem_engine_config *cfg,
		   const struct crem_msg *hello,
		   bool (*in_use)(void *ctx, u32 id), void *ctx)
{
	const struct crem_wire_hello *h = &hello->hello;
	struct crem_config none = { 0 };
	s64 id;
	int len;

	if (crem_engine_config_check(cfg, NULL) || hello->type != CREM_MSG_HELLO)
		return -EINVAL;
	if (h->flow_kind != CREM_FLOW_ROCEV2)
		return -EPROTONOSUPPORT;
	memset(crf, 0, sizeof(*crf));
	crf->env = env;
	crf->owner = owner;
	crf->cfg = *cfg;
	crf->state = CREM_CRF_CLOSED;
	crem_sub_env_init(&crf->sub, env, owner, &crf->stats, &crf->tmpl.dscp);
	crf->desc.af = h->af;
	memcpy(crf->desc.src, h->src, sizeof(h->src));
	memcpy(crf->desc.dst, h->dst, sizeof(h->dst));
	crf->desc.dest_qp = h->flow_label & 0xffffff;
	crf->desc.rdma_mtu = h->rdma_mtu;
	crf->nonce = h->nonce;
	crf->limits = cfg->limits;
	crf->limits.schemes &= h->schemes;
	crf->limits.max_k = min_u64(cfg->limits.max_k, h->max_k);
	crf->limits.max_m = min_u64(cfg->limits.max_m, h->max_m);
	crf->limits.max_t = min_u64(cfg->limits.max_t, h->max_t);
	crf->tmpl.af = h->af;
	memcpy(crf->tmpl.src, h->src, sizeof(h->src));
	memcpy(crf->tmpl.dst, h->dst, sizeof(h->dst));
	crf->tmpl.ttl = 64;
	crf->srtt_ns = cfg->initial_rtt_ns;
	crf->window = window_for(cfg);
	crf->stride = crem_symbol_stride(crf->limits.max_t);
	crf->chunk_syms = chunk_syms(crf->stride, crf->window);
	crf->chunk_size = (size_t)crf->chunk_syms * crf->stride;
	crf->nchunks = (crf->window + crf->chunk_syms - 1) / crf->chunk_syms;
	crf->pkt_size = 40 + 8 + crf->limits.max_t;
	crf->msg_size = CREM_COMMON_HDR_LEN + 8 + 3 * MAX_RANGES + 64;
	/* The traffic state waits for traffic: reserve(). */
	crf->msg = alloc(crf, crf->msg_size);
	if (!crf->msg) {
		crem_crf_destroy(crf);
		return -ENOMEM;
	}
	crem_crf_param_init(&crf->param, &none);

	id = crem_crf_hello_id(env, hello, in_use, ctx);
	if (id < 0) {
		crem_crf_destroy(crf);
		return id;
	}
	crf->flow_id = id;
	/* Sent by crem_crf_answer(), and again for a retransmitted HELLO. */
	len = crem_crf_hello_ack_build(hello, &cfg->limits, id, crf->hello_ack,
				       sizeof(crf->hello_ack));
	if (len < 0) {
		crem_crf_destroy(crf);
		return len;
	}
	crf->hello_ack_len = len;
	crf->state = CREM_CRF_ACTIVE;
	crf->last_activity_ns = now(crf);
	crf->report_start_ns = crf->last_activity_ns;
	crf->armed_ns = CREM_NO_DEADLINE;
	crf->gap_due_ns = CREM_NO_DEADLINE;
	crf->decode_due_ns = CREM_NO_DEADLINE;
	arm_flow(crf);
	return 0;
}

int crem_crf_answer(struct crem_crf *crf)
{
	if (crf->state != CREM_CRF_ACTIVE || crf->answered)
		return -EALREADY;
	crf->answered = true;
	crf->hello_ack_ns = now(crf);
	return crem_engine_send(crf->env, crf->owner, &crf->stats,
				crf->hello_ack, crf->hello_ack_len, 0);
}

int crem_crf_hello_again(struct crem_crf *crf, const struct crem_msg *hello)
{
	if (hello->hello.nonce != crf->nonce)
		return -ESTALE;
	if (!crf->answered)
		return crem_crf_answer(crf);
	crf->hello_ack_ns = 0;		/* Karn: a repeated exchange */
	return crem_engine_send(crf->env, crf->owner, &crf->stats,
				crf->hello_ack, crf->hello_ack_len, 0);
}

enum crem_hello_action crem_crf_hello_action(const struct crem_crf *live,
					     const struct crem_crf *candidate,
					     const struct crem_msg *hello)
{
	/*
	 * A candidate whose live flow has ended is still the flow of its
	 * nonce: a second flow for the same HELLO would be answered with
	 * another Flow ID.
	 */
	if (candidate && hello->hello.nonce == candidate->nonce)
		return CREM_HELLO_TO_CANDIDATE;
	if (!live)
		return CREM_HELLO_NEW_FLOW;
	if (hello->hello.nonce == live->nonce)
		return CREM_HELLO_TO_LIVE;
	return CREM_HELLO_NEW_CANDIDATE;
}

bool crem_crf_confirms(const struct crem_msg *msg)
{
	return msg->type == CREM_MSG_PARAM_UPDATE ||
	       msg->type == CREM_MSG_REPAIR;
}

int crem_crf_answer_unknown(const struct crem_msg *msg, u8 *buf, size_t size)
{
	struct crem_msg close = {
		.type = CREM_MSG_CLOSE, .flow_id = msg->flow_id,
		.close = { .reason = CREM_CLOSE_FLOW_ENDED },
	};
	int len;

	if (!crem_crf_confirms(msg))
		return 0;
	len = crem_wire_build(&close, buf, size);
	return len < 0 ? -ENOSPC : len;
}

void crem_crf_close(struct crem_crf *crf, u16 reason)
{
	struct crem_msg m = { .type = CREM_MSG_CLOSE,
			      .close = { .reason = reason } };

	if (crf->state != CREM_CRF_ACTIVE)
		return;
	if (!send_msg(crf, &m))
		crf->stats.v[CREM_FS_CLOSES_SENT]++;
	crf->close_reason = reason;
	crem_crf_destroy(crf);
}

void crem_crf_destroy(struct crem_crf *crf)
{
	unsigned int i;

	while (crf->nheld)
		release_held(crf, 0);
	if (crf->slots)
		for (i = 0; i < crf->cfg.max_open_blocks; i++) {
			losses_later_end(crf, &crf->slots[i], false);
			free_slot(crf, &crf->slots[i]);
		}
	if (crf->pins)
		for (i = 0; i < crf->cfg.max_open_blocks; i++)
			pin_free(crf, &crf->pins[i]);
	release_traffic_state(crf);
	release(crf, crf->msg, crf->msg_size);
	crf->msg = NULL;
	crf->state = CREM_CRF_CLOSED;
	crf->env->ops->arm(crf->env->ctx, crf->owner, CREM_NO_DEADLINE);
}
