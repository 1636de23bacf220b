/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sets of source positions 0..255 of a block: present positions, the lost
 * set L of a coded retransmission, the unknowns U of a decoder.
 */
#ifndef CREM_FEC_SET_H
#define CREM_FEC_SET_H

#include "../core/port.h"

struct crem_fec_set {
	u64 w[4];
};

static inline void crem_set_clear(struct crem_fec_set *s)
{
	memset(s, 0, sizeof(*s));
}

static inline void crem_set_add(struct crem_fec_set *s, unsigned int j)
{
	s->w[(j >> 6) & 3] |= 1ull << (j & 63);
}

static inline void crem_set_del(struct crem_fec_set *s, unsigned int j)
{
	s->w[(j >> 6) & 3] &= ~(1ull << (j & 63));
}

static inline bool crem_set_has(const struct crem_fec_set *s, unsigned int j)
{
	return j < 256 && (s->w[j >> 6] >> (j & 63)) & 1;
}

static inline unsigned int crem_set_count(const struct crem_fec_set *s)
{
	return crem_popcount64(s->w[0]) + crem_popcount64(s->w[1]) +
	       crem_popcount64(s->w[2]) + crem_popcount64(s->w[3]);
}

/* a \ b */
static inline struct crem_fec_set crem_set_minus(const struct crem_fec_set *a,
						 const struct crem_fec_set *b)
{
	struct crem_fec_set d;
	int i;

	for (i = 0; i < 4; i++)
		d.w[i] = a->w[i] & ~b->w[i];
	return d;
}

/* Is every member of a in b? */
static inline bool crem_set_subset(const struct crem_fec_set *a,
				   const struct crem_fec_set *b)
{
	int i;

	for (i = 0; i < 4; i++)
		if (a->w[i] & ~b->w[i])
			return false;
	return true;
}

/* Every member is below k. */
static inline bool crem_set_within(const struct crem_fec_set *s, unsigned int k)
{
	unsigned int j;

	for (j = k; j < 256; j++)
		if (crem_set_has(s, j))
			return false;
	return true;
}

/* for (j = first; j < 256; j = next) over the members in order. */
static inline unsigned int crem_set_next(const struct crem_fec_set *s,
					 unsigned int from)
{
	while (from < 256) {
		u64 rest = s->w[from >> 6] >> (from & 63);

		if (rest)
			return from + __builtin_ctzll(rest);
		from = (from | 63) + 1;
	}
	return 256;
}

#define crem_set_for_each(j, s)						\
	for ((j) = crem_set_next((s), 0); (j) < 256;			\
	     (j) = crem_set_next((s), (j) + 1))

#endif /* CREM_FEC_SET_H */
