// SPDX-License-Identifier: GPL-2.0
/*
 * The CRF's source blocks (see crf_block.h).
 */
#include "crf_block.h"
#include "psn.h"

size_t crem_crf_block_size(unsigned int k, unsigned int max_repairs,
			   size_t max_symbol_len)
{
	return (k + max_repairs) * crem_symbol_stride(max_symbol_len);
}

int crem_crf_block_init(struct crem_crf_block *b, void *mem, u32 start_psn,
			unsigned int k, unsigned int max_repairs,
			size_t max_symbol_len)
{
	if (!k || k > CREM_FEC_MAX_K || max_repairs > CREM_FEC_MAX_K ||
	    max_symbol_len < 3 || max_symbol_len > CREM_SYMBOL_MAX_PAYLOAD)
		return -EINVAL;
	memset(b, 0, sizeof(*b));
	b->start_psn = start_psn & CREM_PSN_MASK;
	b->k = k;
	b->max_repairs = max_repairs;
	b->stride = crem_symbol_stride(max_symbol_len);
	b->symbols = mem;
	b->repair_mem = b->symbols + (size_t)k * b->stride;
	/* Symbols are zero beyond their length: padding takes part in coding. */
	memset(mem, 0, crem_crf_block_size(k, max_repairs, max_symbol_len));
	return 0;
}

int crem_crf_block_add_source(struct crem_crf_block *b, u32 psn,
			      const u8 *payload, size_t len)
{
	s32 off = crem_psn_diff(psn, b->start_psn);

	if (off < 0 || off >= b->k)
		return -ERANGE;
	if (crem_set_has(&b->held, off))
		return -EEXIST;
	if (crem_symbol_from_packet(b->symbols + (size_t)off * b->stride,
				    b->stride, payload, len))
		return -EMSGSIZE;
	crem_set_add(&b->held, off);
	if (!b->geometry)
		crem_set_add(&b->present, off);
	return 0;
}

int crem_crf_block_set_geometry(struct crem_crf_block *b, unsigned int k,
				const struct crem_fec_set *present,
				size_t symbol_len)
{
	if (b->geometry)
		return k == b->k && symbol_len == b->symbol_len &&
		       !memcmp(present, &b->present, sizeof(*present)) ?
		       0 : -EINVAL;
	/* Sources already held must be where the CSF says. */
	if (!k || k > b->k || symbol_len > b->stride ||
	    !crem_set_within(present, k) || !crem_set_subset(&b->held, present))
		return -EINVAL;
	b->k = k;
	b->symbol_len = symbol_len;
	b->present = *present;
	b->geometry = true;
	return 0;
}

int crem_crf_block_add_repair(struct crem_crf_block *b, unsigned int k,
			      const struct crem_fec_set *present,
			      size_t symbol_len, unsigned int index,
			      const struct crem_fec_set *lset,
			      const u8 *symbol)
{
	struct crem_fec_repair *r;
	unsigned int t;

	if (crem_crf_block_set_geometry(b, k, present, symbol_len))
		return -EINVAL;
	if (!crem_set_subset(lset, present))
		return -EINVAL;
	for (t = 0; t < b->nr_repairs; t++)
		if (b->repair[t].index == index)
			return -EEXIST;
	if (b->nr_repairs == b->max_repairs)
		return -ENOSPC;
	r = &b->repair[b->nr_repairs];
	memcpy(b->repair_mem + (size_t)b->nr_repairs * b->stride, symbol,
	       symbol_len);
	r->index = index;
	r->lset = *lset;
	r->symbol = b->repair_mem + (size_t)b->nr_repairs * b->stride;
	b->nr_repairs++;
	return 0;
}

struct crem_fec_set crem_crf_block_missing(const struct crem_crf_block *b)
{
	return crem_set_minus(&b->present, &b->held);
}

bool crem_crf_block_decodable(const struct crem_crf_block *b)
{
	struct crem_fec_set missing = crem_crf_block_missing(b);
	unsigned int u = crem_set_count(&missing), t, serve = 0;

	if (!b->geometry || !u)
		return false;
	for (t = 0; t < b->nr_repairs; t++)
		serve += crem_set_subset(&missing, &b->repair[t].lset) &&
			 crem_set_subset(&b->repair[t].lset, &b->present);
	return serve >= u;
}

int crem_crf_block_decode(struct crem_crf_block *b, struct crem_fec_work *work)
{
	struct crem_fec_set missing = crem_crf_block_missing(b);
	u8 **io = (u8 **)work->by_position;
	unsigned int j;
	int ret;

	for (j = 0; j < b->k; j++)
		io[j] = b->symbols + (size_t)j * b->stride;
	ret = crem_crs_decode(b->k, &b->present, &b->held, io,
			      b->symbol_len ? b->stride : 0, b->repair,
			      b->nr_repairs, work);
	if (ret)
		return ret;
	crem_set_for_each(j, &missing) {
		crem_set_add(&b->restored, j);
		crem_set_add(&b->held, j);
	}
	return crem_set_count(&missing);
}

const u8 *crem_crf_block_symbol(const struct crem_crf_block *b,
				unsigned int j)
{
	if (j >= b->k || !crem_set_has(&b->held, j))
		return NULL;
	return b->symbols + (size_t)j * b->stride;
}
