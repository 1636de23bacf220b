/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One source block at the CREM receiver (CRF): the sources that arrived,
 * the repairs held (ordinary and coded, each over its own L), and the
 * decoding that restores the rest.
 *
 * The block's geometry (k, the Present Bitmap, T) is known once a REPAIR
 * for it arrives; before that, sources are kept by position.  The block is
 * decodable when the repairs that can serve number the unknown sources: a
 * repair serves when its L contains every unknown and no absent position.
 * Memory: crem_crf_block_size() bytes, provided by the caller, for k
 * sources and up to max_repairs repairs.
 *
 * Locking: none inside; the caller serialises access to a block.
 */
#ifndef CREM_CORE_CRF_BLOCK_H
#define CREM_CORE_CRF_BLOCK_H

#include "../fec/fec.h"

struct crem_crf_block {
	u32 start_psn;
	u8 k;
	u16 symbol_len;		/* T; 0 until a REPAIR gives it */
	u8 config_id;
	bool geometry;		/* k, T and present known from a REPAIR */
	u8 max_repairs;
	u8 nr_repairs;
	size_t stride;
	struct crem_fec_set present;
	struct crem_fec_set held;	/* sources that arrived (or restored) */
	struct crem_fec_set restored;
	u8 *symbols;		/* k buffers */
	u8 *repair_mem;		/* max_repairs buffers */
	struct crem_fec_repair repair[CREM_FEC_MAX_K];
};

size_t crem_crf_block_size(unsigned int k, unsigned int max_repairs,
			   size_t max_symbol_len);

int crem_crf_block_init(struct crem_crf_block *b, void *mem, u32 start_psn,
			unsigned int k, unsigned int max_repairs,
			size_t max_symbol_len);

/*
 * A source arrived: store its payload as the symbol of its position.
 * Return: 0; -EEXIST for a duplicate; -ERANGE outside the block; -EMSGSIZE
 * if it cannot fit the block's symbols.
 */
int crem_crf_block_add_source(struct crem_crf_block *b, u32 psn,
			      const u8 *payload, size_t len);

/*
 * The block's geometry, from a REPAIR or from an INFO answer to a range
 * request when no REPAIR came: k, T and the Present Bitmap.  Return: 0, or
 * -EINVAL if it disagrees with what the block knows (another geometry, or
 * a held source at a position it calls absent).
 */
int crem_crf_block_set_geometry(struct crem_crf_block *b, unsigned int k,
				const struct crem_fec_set *present,
				size_t symbol_len);

/*
 * A REPAIR for this block: its geometry (k, T, Present Bitmap) and one
 * symbol, ordinary or coded, over @lset.  Return: 0; -EEXIST for an index
 * held already; -EINVAL if it disagrees with what the block knows; -ENOSPC
 * when max_repairs are held.
 */
int crem_crf_block_add_repair(struct crem_crf_block *b, unsigned int k,
			      const struct crem_fec_set *present,
			      size_t symbol_len, unsigned int index,
			      const struct crem_fec_set *lset,
			      const u8 *symbol);

/* Unknown sources: present positions that have not arrived. */
struct crem_fec_set crem_crf_block_missing(const struct crem_crf_block *b);

/* Can crem_crf_block_decode() restore every missing source now? */
bool crem_crf_block_decodable(const struct crem_crf_block *b);

/*
 * Restore every missing source into its symbol buffer; the positions
 * restored are added to @b->restored and @b->held.  Return: the number
 * restored, or a negative errno from the decoder.
 */
int crem_crf_block_decode(struct crem_crf_block *b, struct crem_fec_work *work);

/* Symbol of a held position (arrived or restored), or NULL. */
const u8 *crem_crf_block_symbol(const struct crem_crf_block *b,
				unsigned int j);

#endif /* CREM_CORE_CRF_BLOCK_H */
