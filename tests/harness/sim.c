// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "crem/core/roce.h"
#include "sim.h"

struct crem_sim_event {
	u64 at;
	u64 seq;
	crem_sim_fn fn;
	void *arg;
	size_t len;
	u8 data[];
};

u64 crem_sim_rng_next(struct crem_sim_rng *r)
{
	u64 z = (r->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double crem_sim_rng_unit(struct crem_sim_rng *r)
{
	return (crem_sim_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

struct crem_sim_loss crem_sim_loss_bursty(double p, double burst)
{
	struct crem_sim_loss l = {
		.kind = CREM_SIM_LOSS_GILBERT_ELLIOTT,
		.loss_good = 0.0,
		.loss_bad = 1.0,
	};

	/* Bad state lasts 1 / p_bg packets; it is occupied a fraction p. */
	l.p_bg = 1.0 / burst;
	l.p_gb = p * l.p_bg / (1.0 - p);
	return l;
}

void crem_sim_init(struct crem_sim *sim)
{
	memset(sim, 0, sizeof(*sim));
}

void crem_sim_free(struct crem_sim *sim)
{
	while (sim->nr)
		free(sim->heap[--sim->nr]);
	free(sim->heap);
	sim->heap = NULL;
	sim->cap = 0;
}

static bool earlier(const struct crem_sim_event *a,
		    const struct crem_sim_event *b)
{
	return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

static void swap_events(struct crem_sim *sim, size_t a, size_t b)
{
	struct crem_sim_event *t = sim->heap[a];

	sim->heap[a] = sim->heap[b];
	sim->heap[b] = t;
}

int crem_sim_at(struct crem_sim *sim, u64 at_ns, crem_sim_fn fn, void *arg,
		const u8 *data, size_t len)
{
	struct crem_sim_event *e;
	size_t i;

	if (sim->nr == sim->cap) {
		size_t cap = sim->cap ? 2 * sim->cap : 256;
		struct crem_sim_event **h = realloc(sim->heap, cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		sim->heap = h;
		sim->cap = cap;
	}
	e = malloc(sizeof(*e) + len);
	if (!e)
		return -ENOMEM;
	e->at = at_ns < sim->now_ns ? sim->now_ns : at_ns;
	e->seq = sim->seq++;
	e->fn = fn;
	e->arg = arg;
	e->len = len;
	if (len)
		memcpy(e->data, data, len);
	i = sim->nr++;
	sim->heap[i] = e;
	while (i && earlier(sim->heap[i], sim->heap[(i - 1) / 2])) {
		swap_events(sim, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	return 0;
}

static struct crem_sim_event *pop(struct crem_sim *sim)
{
	struct crem_sim_event *top = sim->heap[0];
	size_t i = 0;

	sim->heap[0] = sim->heap[--sim->nr];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < sim->nr && earlier(sim->heap[l], sim->heap[m]))
			m = l;
		if (r < sim->nr && earlier(sim->heap[r], sim->heap[m]))
			m = r;
		if (m == i)
			break;
		swap_events(sim, i, m);
		i = m;
	}
	return top;
}

void crem_sim_run(struct crem_sim *sim, u64 until_ns)
{
	while (sim->nr && sim->heap[0]->at <= until_ns) {
		struct crem_sim_event *e = pop(sim);

		sim->now_ns = e->at;
		sim->processed++;
		e->fn(sim, e->arg, e->data, e->len);
		free(e);
	}
	if (sim->now_ns < until_ns && until_ns != (u64)~0ull)
		sim->now_ns = until_ns;
}

bool crem_sim_loss_drop(struct crem_sim_loss *loss, struct crem_sim_rng *rng)
{
	switch (loss->kind) {
	case CREM_SIM_LOSS_IID:
		return crem_sim_rng_unit(rng) < loss->p;
	case CREM_SIM_LOSS_GILBERT_ELLIOTT:
		if (loss->bad ? crem_sim_rng_unit(rng) < loss->p_bg :
				crem_sim_rng_unit(rng) < loss->p_gb)
			loss->bad = !loss->bad;
		return crem_sim_rng_unit(rng) <
		       (loss->bad ? loss->loss_bad : loss->loss_good);
	default:
		return false;
	}
}

/* Set CE on an ECN-capable IPv4 or IPv6 packet; true if marked. */
static bool mark_ce(u8 *pkt, size_t len)
{
	if (len >= 20 && pkt[0] >> 4 == 4) {
		size_t ihl = 4 * (size_t)(pkt[0] & 0x0f);

		if (!(pkt[1] & 3) || ihl < 20 || ihl > len)
			return false;
		pkt[1] |= 3;
		crem_ipv4_set_checksum(pkt);
		return true;
	}
	if (len >= 40 && pkt[0] >> 4 == 6) {
		if (!(pkt[1] & 0x30))
			return false;
		pkt[1] |= 0x30;
		return true;
	}
	return false;
}

bool crem_sim_path_send(struct crem_sim *sim, struct crem_sim_path *path,
			const u8 *pkt, size_t len, crem_sim_fn fn, void *arg)
{
	u64 at = sim->now_ns + path->delay_ns;
	u8 *copy;
	bool ok;

	path->sent++;
	if (crem_sim_loss_drop(&path->loss, &path->rng)) {
		path->dropped++;
		return false;
	}
	if (path->jitter_ns)
		at += crem_sim_rng_next(&path->rng) % (path->jitter_ns + 1);
	if (path->reorder > 0 && crem_sim_rng_unit(&path->rng) < path->reorder)
		at += path->reorder_ns;
	copy = malloc(len ? len : 1);
	if (!copy)
		return false;
	memcpy(copy, pkt, len);
	if (path->ce > 0 && crem_sim_rng_unit(&path->rng) < path->ce &&
	    mark_ce(copy, len))
		path->marked++;
	ok = !crem_sim_at(sim, at, fn, arg, copy, len);
	free(copy);
	return ok;
}

/* An armed deadline's event: stale if the timer was re-armed since. */
static void timer_event(struct crem_sim *sim, void *arg, const u8 *data,
			size_t len)
{
	struct crem_sim_timer *timer = arg;
	u64 when;

	memcpy(&when, data, sizeof(when));
	if (timer->deadline != when)
		return;
	timer->deadline = ~0ull;
	timer->fire(timer);
}

void crem_sim_timer_arm(struct crem_sim *sim, struct crem_sim_timer *timer,
			u64 deadline_ns)
{
	timer->deadline = deadline_ns;
	if (deadline_ns != ~0ull)
		crem_sim_at(sim, deadline_ns, timer_event, timer,
			    (const u8 *)&deadline_ns, sizeof(deadline_ns));
}
