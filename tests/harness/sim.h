/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pair harness's simulator: a virtual clock, one deterministic event
 * queue, and modelled paths.
 *
 * Everything is driven by seeded PRNGs and a (time, sequence) ordered
 * queue, so a run with the same seed repeats exactly.  A path applies, in
 * order: loss (none, independent, or Gilbert-Elliott bursts), delay plus
 * uniform jitter, occasional extra delay that reorders, and CE marking of
 * ECN-capable IP packets.  Userspace only.
 */
#ifndef CREM_HARNESS_SIM_H
#define CREM_HARNESS_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crem/core/port.h"

struct crem_sim;

typedef void (*crem_sim_fn)(struct crem_sim *sim, void *arg, const u8 *data,
			    size_t len);

struct crem_sim_rng {
	u64 state;
};

u64 crem_sim_rng_next(struct crem_sim_rng *r);
/* Uniform in [0, 1). */
double crem_sim_rng_unit(struct crem_sim_rng *r);

enum crem_sim_loss_kind {
	CREM_SIM_LOSS_NONE,
	CREM_SIM_LOSS_IID,
	CREM_SIM_LOSS_GILBERT_ELLIOTT,
};

/*
 * Gilbert-Elliott: a good and a bad state; each packet first moves the
 * chain (good -> bad with p_gb, bad -> good with p_bg), then is lost with
 * the state's loss probability.
 */
struct crem_sim_loss {
	enum crem_sim_loss_kind kind;
	double p;		/* IID */
	double p_gb, p_bg;	/* Gilbert-Elliott */
	double loss_good, loss_bad;
	bool bad;
};

/* Gilbert-Elliott with a mean loss rate @p and mean burst length @burst. */
struct crem_sim_loss crem_sim_loss_bursty(double p, double burst);

struct crem_sim_path {
	u64 delay_ns;
	u64 jitter_ns;		/* uniform in [0, jitter] added */
	double reorder;		/* probability of extra delay */
	u64 reorder_ns;
	double ce;		/* probability of CE on ECT packets */
	struct crem_sim_loss loss;
	struct crem_sim_rng rng;
	/* counters */
	u64 sent, dropped, marked;
};

struct crem_sim_event;

struct crem_sim {
	u64 now_ns;
	u64 seq;
	struct crem_sim_event **heap;
	size_t nr, cap;
	u64 processed;
};

void crem_sim_init(struct crem_sim *sim);
void crem_sim_free(struct crem_sim *sim);

/* Run @fn(arg, copy of data) at @at_ns (not before now). */
int crem_sim_at(struct crem_sim *sim, u64 at_ns, crem_sim_fn fn, void *arg,
		const u8 *data, size_t len);

/* Process events in order until the queue is empty or past @until_ns. */
void crem_sim_run(struct crem_sim *sim, u64 until_ns);

bool crem_sim_loss_drop(struct crem_sim_loss *loss, struct crem_sim_rng *rng);

/*
 * A deadline the way the engine's environment arms it (crem/core/env.h):
 * one per owner; arming again replaces it, CREM_NO_DEADLINE cancels.  When
 * the current deadline comes, @fire runs once.
 */
struct crem_sim_timer {
	u64 deadline;
	void (*fire)(struct crem_sim_timer *timer);
};

void crem_sim_timer_arm(struct crem_sim *sim, struct crem_sim_timer *timer,
			u64 deadline_ns);

/*
 * Carry an IP packet over @path: deliver it through @fn unless lost.
 * Returns true if it will arrive.
 */
bool crem_sim_path_send(struct crem_sim *sim, struct crem_sim_path *path,
			const u8 *pkt, size_t len, crem_sim_fn fn, void *arg);

#endif /* CREM_HARNESS_SIM_H */
