// SPDX-License-Identifier: GPL-2.0
/*
 * The CSF's source blocks (see csf_block.h).
 */
#include "csf_block.h"
#include "psn.h"

size_t crem_csf_block_size(unsigned int k, unsigned int m, size_t symbol_len)
{
	return (k + m) * crem_symbol_stride(symbol_len);
}

int crem_csf_block_init(struct crem_csf_block *b, void *mem, u32 start_psn,
			unsigned int k, unsigned int m, size_t symbol_len,
			u8 config_id, u8 scheme)
{
	unsigned int r;

	if (!k || k > CREM_FEC_MAX_K || m > 256 - k || symbol_len < 3 ||
	    symbol_len > CREM_SYMBOL_MAX_PAYLOAD)
		return -EINVAL;
	memset(b, 0, sizeof(*b));
	b->start_psn = start_psn & CREM_PSN_MASK;
	b->k = k;
	b->m = m;
	b->symbol_len = symbol_len;
	b->config_id = config_id;
	b->scheme = scheme;
	b->stride = crem_symbol_stride(symbol_len);
	b->symbols = mem;
	b->repair_mem = b->symbols + (size_t)k * b->stride;
	b->next_index = m;
	for (r = 0; r < m; r++)
		b->repair[r] = b->repair_mem + (size_t)r * b->stride;
	/* Repairs cover the padded length: padding is zero in every symbol. */
	return crem_crs_stream_start(&b->stream, k, m, b->stride, b->repair);
}

u32 crem_csf_block_carry(const struct crem_csf_block *b, u32 psn, u32 span)
{
	u32 off = crem_psn_offset(psn, b->start_psn);

	return off + span > b->k ? off + span - b->k : 0;
}

enum crem_csf_add crem_csf_block_add(struct crem_csf_block *b, u32 psn,
				     u32 span, const u8 *payload, size_t len)
{
	s32 off = crem_psn_diff(psn, b->start_psn);
	u8 *sym;
	unsigned int j;
	u32 end;

	if (off < 0)
		return CREM_CSF_BEFORE;
	if (off >= b->k)
		return CREM_CSF_BEYOND;
	j = off;
	if (crem_set_has(&b->present, j))
		return CREM_CSF_DUPLICATE;
	if (len + 2 > b->symbol_len)
		return CREM_CSF_TOO_LONG;
	sym = b->symbols + (size_t)j * b->stride;
	crem_symbol_from_packet(sym, b->stride, payload, len);
	crem_set_add(&b->present, j);
	crem_set_add(&b->pending, j);
	end = off + (span ? span : 1);
	if (end > b->k)
		end = b->k;
	if (end > b->covered)
		b->covered = end;
	if (b->covered == b->k)
		crem_csf_block_close(b);
	return CREM_CSF_ADDED;
}

/* Sources coded per claim of the vector registers; bounds the stack. */
#define FLUSH_BATCH 32

void crem_csf_block_flush(struct crem_csf_block *b)
{
	const u8 *sym[FLUSH_BATCH];
	unsigned int pos[FLUSH_BATCH], n = 0, j;

	crem_set_for_each(j, &b->pending) {
		pos[n] = j;
		sym[n++] = b->symbols + (size_t)j * b->stride;
		if (n == FLUSH_BATCH) {
			crem_crs_stream_add(&b->stream, n, pos, sym);
			n = 0;
		}
	}
	if (n)
		crem_crs_stream_add(&b->stream, n, pos, sym);
	crem_set_clear(&b->pending);
}

void crem_csf_block_close(struct crem_csf_block *b)
{
	crem_csf_block_flush(b);
	if (b->closed)
		return;
	b->closed = true;
	if (b->covered)
		b->k = b->covered;
}

const u8 *crem_csf_block_source(const struct crem_csf_block *b,
				unsigned int j)
{
	if (!crem_set_has(&b->present, j) || j >= b->k)
		return NULL;
	return b->symbols + (size_t)j * b->stride;
}

int crem_csf_block_coded(struct crem_csf_block *b,
			 const struct crem_fec_set *lost, unsigned int *count,
			 u8 *const *out, u8 *index, struct crem_fec_work *work)
{
	unsigned int x = crem_set_count(lost), i, j, n = 0;

	if (!x || !crem_set_subset(lost, &b->present) || !crem_set_within(lost, b->k))
		return -EINVAL;
	if (*count > x)
		*count = x;
	if (b->next_index + *count + b->k <= 256) {
		for (i = 0; i < *count; i++)
			index[i] = b->next_index + i;
		for (j = 0; j < b->k; j++)
			work->by_position[j] = b->symbols + (size_t)j * b->stride;
		if (crem_crs_encode(b->k, lost, work->by_position, b->stride,
				    index, *count, out, work))
			return -EINVAL;
		b->next_index += *count;
		return CREM_FEC_CAUCHY_RS;
	}
	/* Out of indices: the lost sources themselves. */
	crem_set_for_each(j, lost) {
		if (n == *count)
			break;
		memcpy(out[n], b->symbols + (size_t)j * b->stride, b->stride);
		index[n++] = j;
	}
	return CREM_FEC_SOURCE_COPY;
}
