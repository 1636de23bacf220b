// SPDX-License-Identifier: GPL-2.0
/*
 * Cauchy Reed-Solomon and XOR parity on top of the dot product.
 */
#include "fec.h"
#include "gf.h"

void crem_fec_init(void)
{
	static bool done;

	if (done)
		return;
	crem_gf_init();
	crem_gf_select_best();
	done = true;
}

u8 crem_crs_coef(unsigned int i, unsigned int j)
{
	return crem_gf_inv((u8)((255 - i) ^ j));
}

/* Every index satisfies i + k <= 255 and none repeats. */
static bool indices_valid(unsigned int k, const unsigned int *idx,
			  unsigned int n)
{
	struct crem_fec_set seen;
	unsigned int r;

	crem_set_clear(&seen);
	for (r = 0; r < n; r++) {
		if (idx[r] + k > 255 || crem_set_has(&seen, idx[r]))
			return false;
		crem_set_add(&seen, idx[r]);
	}
	return true;
}

int crem_crs_encode(unsigned int k, const struct crem_fec_set *lset,
		    const u8 *const *src, size_t T, const u8 *indices,
		    unsigned int m, u8 *const *out, struct crem_fec_work *work)
{
	unsigned int n = 0, j, r;

	if (!k || k > CREM_FEC_MAX_K || m > CREM_FEC_MAX_K ||
	    !crem_set_within(lset, k))
		return -EINVAL;
	for (r = 0; r < m; r++)
		work->index[r] = indices[r];
	if (!indices_valid(k, work->index, m))
		return -EINVAL;

	crem_set_for_each(j, lset) {
		work->in[n] = src[j];
		for (r = 0; r < m; r++)
			work->coefs[n * m + r] = crem_crs_coef(work->index[r], j);
		n++;
	}
	crem_gf_dot(m, n, T, work->coefs, work->in, out, false);
	return 0;
}

/*
 * Choose u repairs that can solve for U: L contains U and no absent
 * position.  Fills @pick with their positions in @repairs.
 */
static unsigned int pick_repairs(const struct crem_fec_set *present,
				 const struct crem_fec_set *unknown,
				 const struct crem_fec_repair *repairs,
				 unsigned int nrep, unsigned int u,
				 unsigned int *pick)
{
	unsigned int t, n = 0;

	for (t = 0; t < nrep && n < u; t++)
		if (crem_set_subset(unknown, &repairs[t].lset) &&
		    crem_set_subset(&repairs[t].lset, present))
			pick[n++] = t;
	return n;
}

int crem_crs_decode(unsigned int k, const struct crem_fec_set *present,
		    const struct crem_fec_set *held, u8 *const *src,
		    size_t T, const struct crem_fec_repair *repairs,
		    unsigned int nrep, struct crem_fec_work *work)
{
	unsigned int *pick = work->pick, *unk = work->unknown;
	struct crem_fec_set unknown;
	unsigned int u = 0, n = 0, q, t, j;

	if (!k || k > CREM_FEC_MAX_K || nrep > CREM_FEC_MAX_K ||
	    !crem_set_within(present, k) || !crem_set_subset(held, present))
		return -EINVAL;
	for (t = 0; t < nrep; t++)
		work->index[t] = repairs[t].index;
	if (!indices_valid(k, work->index, nrep))
		return -EINVAL;

	unknown = crem_set_minus(present, held);
	crem_set_for_each(j, &unknown) {
		work->out[u] = src[j];
		unk[u++] = j;
	}
	if (!u)
		return 0;
	if (pick_repairs(present, &unknown, repairs, nrep, u, pick) < u)
		return -ENODATA;

	/* The u x u system: row t is repair pick[t], column q unknown q. */
	for (t = 0; t < u; t++)
		for (q = 0; q < u; q++)
			work->matrix[t * u + q] =
				crem_crs_coef(repairs[pick[t]].index, unk[q]);
	if (crem_gf_invert_matrix(work->matrix, work->inverse_work, u))
		return -EINVAL;	/* impossible for a Cauchy matrix */

	/*
	 * S_U = A^-1 (R - known), folded into one pass: repair t enters with
	 * column t of A^-1; held source j with the sum over the repairs whose
	 * L holds j of A^-1[q][t] * C(i_t, j).
	 */
	for (t = 0; t < u; t++) {
		work->in[n] = repairs[pick[t]].symbol;
		for (q = 0; q < u; q++)
			work->coefs[n * u + q] = work->matrix[q * u + t];
		n++;
	}
	crem_set_for_each(j, held) {
		bool used = false;

		for (q = 0; q < u; q++)
			work->coefs[n * u + q] = 0;
		for (t = 0; t < u; t++) {
			const struct crem_fec_repair *rp = &repairs[pick[t]];
			u8 c;

			if (!crem_set_has(&rp->lset, j))
				continue;
			c = crem_crs_coef(rp->index, j);
			for (q = 0; q < u; q++)
				work->coefs[n * u + q] ^=
					crem_gf_mul(work->matrix[q * u + t], c);
			used = true;
		}
		if (used)
			work->in[n++] = src[j];
	}
	crem_gf_dot(u, n, T, work->coefs, work->in, work->out, false);
	return 0;
}

int crem_crs_stream_start(struct crem_crs_stream *s, unsigned int k,
			  unsigned int m, size_t T, u8 *const *repair)
{
	unsigned int r;

	/* Indices 0..m-1: the largest must satisfy i + k <= 255. */
	if (!k || k > CREM_FEC_MAX_K || m > 256 - k)
		return -EINVAL;
	s->k = k;
	s->m = m;
	s->T = T;
	s->repair = repair;
	crem_set_clear(&s->present);
	for (r = 0; r < m; r++)
		memset(repair[r], 0, T);
	return 0;
}

int crem_crs_stream_add(struct crem_crs_stream *s, unsigned int n,
			const unsigned int *pos, const u8 *const *sym)
{
	u8 coefs[CREM_FEC_MAX_K];
	unsigned int p, r, added = 0;
	bool simd;

	for (p = 0; p < n; p++)
		if (pos[p] >= s->k)
			return -EINVAL;
	simd = crem_simd_begin();
	for (p = 0; p < n; p++) {
		if (crem_set_has(&s->present, pos[p]))
			continue;
		for (r = 0; r < s->m; r++)
			coefs[r] = crem_crs_coef(r, pos[p]);
		if (simd)
			crem_gf_dot_held(s->m, 1, s->T, coefs, &sym[p],
					 s->repair, true);
		else
			crem_gf_dot_isa(CREM_SIMD_SCALAR, s->m, 1, s->T, coefs,
					&sym[p], s->repair, true);
		crem_set_add(&s->present, pos[p]);
		added++;
	}
	if (simd)
		crem_simd_end();
	return added;
}

/* All-ones coefficients: the XOR of every input. */
static void xor_into(u8 *out, unsigned int n, size_t T,
		     struct crem_fec_work *work)
{
	memset(work->coefs, 1, n);
	crem_gf_dot(1, n, T, work->coefs, work->in, &out, false);
}

void crem_xor_encode(const struct crem_fec_set *present, const u8 *const *src,
		     size_t T, u8 *out, struct crem_fec_work *work)
{
	unsigned int n = 0, j;

	crem_set_for_each(j, present)
		work->in[n++] = src[j];
	xor_into(out, n, T, work);
}

int crem_xor_decode(const struct crem_fec_set *present,
		    const struct crem_fec_set *held, u8 *const *src, size_t T,
		    const u8 *parity, struct crem_fec_work *work)
{
	struct crem_fec_set unknown = crem_set_minus(present, held);
	unsigned int n = 0, j;

	if (!crem_set_subset(held, present))
		return -EINVAL;
	if (!crem_set_count(&unknown))
		return 0;
	if (crem_set_count(&unknown) > 1)
		return -ENODATA;
	work->in[n++] = parity;
	crem_set_for_each(j, held)
		work->in[n++] = src[j];
	xor_into(src[crem_set_next(&unknown, 0)], n, T, work);
	return 0;
}
