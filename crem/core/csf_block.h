/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One source block at the CREM sender (CSF): k PSN positions from the
 * Block Start PSN, the sources seen at them, and the repairs made from
 * them.
 *
 * Position j is PSN start + j (mod 2^24).  A source takes the position of
 * its PSN; a READ request also covers the positions of its responses,
 * which stay absent.  A packet the RDMA transport retransmits with the
 * same PSN takes the same position and changes nothing.  The block closes
 * when k positions are covered, or earlier at the end of a burst, when
 * its k becomes the positions covered so far.
 *
 * The m ordinary repairs (indices 0..m-1) grow with the sources: adding a
 * source only stores its symbol, and crem_csf_block_flush() codes all the
 * stored ones in one pass and one claim of the vector registers (a save
 * and restore costs more than coding one packet), so the engine calls it
 * once per batch of packets; closing the block flushes, so the repairs
 * are ready the moment it closes.  The source symbols stay for
 * coded retransmissions until the RDMA transport has acknowledged the
 * block.  Memory: crem_csf_block_size() bytes, provided by the caller.
 *
 * Locking: none inside; the caller serialises access to a block.
 */
#ifndef CREM_CORE_CSF_BLOCK_H
#define CREM_CORE_CSF_BLOCK_H

#include <linux/crem.h>

#include "../fec/fec.h"

struct crem_csf_block {
	u32 start_psn;
	u8 k;			/* positions; the covered count once closed */
	u8 m;
	u16 symbol_len;		/* T */
	u8 config_id;
	u8 scheme;
	bool closed;
	u8 covered;		/* positions covered from the start */
	u8 next_index;		/* first repair index not yet used */
	size_t stride;		/* bytes per symbol buffer */
	struct crem_fec_set present;
	struct crem_fec_set pending;	/* stored, not yet in the repairs */
	u8 *symbols;		/* k buffers */
	u8 *repair_mem;		/* m buffers */
	u8 *repair[CREM_FEC_MAX_K];
	struct crem_crs_stream stream;
};

enum crem_csf_add {
	CREM_CSF_ADDED,
	CREM_CSF_DUPLICATE,	/* a retransmission of a position held */
	CREM_CSF_BEYOND,	/* at or past the block's end: next block */
	CREM_CSF_BEFORE,	/* before the block's start */
	CREM_CSF_TOO_LONG,	/* payload larger than T - 2 */
};

size_t crem_csf_block_size(unsigned int k, unsigned int m, size_t symbol_len);

/*
 * Start a block in @mem (crem_csf_block_size() bytes).  Return: 0, or
 * -EINVAL for a geometry CREM does not allow (k 1..255, m - 1 + k <= 255,
 * T >= 3).
 */
int crem_csf_block_init(struct crem_csf_block *b, void *mem, u32 start_psn,
			unsigned int k, unsigned int m, size_t symbol_len,
			u8 config_id, u8 scheme);

/*
 * Add a source packet: its PSN, the positions it consumes (1, or a READ
 * request's response count), and its UDP payload.  A span that reaches
 * past the block covers it to the end; the caller carries the rest into
 * the next block (crem_csf_block_carry()).  Closes the block (and
 * flushes) when the last position is covered.
 */
enum crem_csf_add crem_csf_block_add(struct crem_csf_block *b, u32 psn,
				     u32 span, const u8 *payload, size_t len);

/* Positions of @span from @psn that fall after this block's end. */
u32 crem_csf_block_carry(const struct crem_csf_block *b, u32 psn, u32 span);

/* Code the stored sources into the repairs, in one batch. */
void crem_csf_block_flush(struct crem_csf_block *b);

/* Close at the end of a burst: k becomes the positions covered; flushes. */
void crem_csf_block_close(struct crem_csf_block *b);

/* Source symbol of present position @j, or NULL. */
const u8 *crem_csf_block_source(const struct crem_csf_block *b,
				unsigned int j);

/**
 * crem_csf_block_coded() - symbols for a coded retransmission
 * @b: a closed block
 * @lost: the lost set L named by the request (present positions)
 * @count: M, the symbols to make
 * @out: @count buffers of @b->stride bytes
 * @index: receives each symbol's repair index (Cauchy) or source
 *	   position (Source Copy)
 * @work: scratch
 *
 * Uses repair indices never used for the block, with i + k <= 255; when
 * fewer than @count remain, answers with Source Copy of the lost sources
 * instead (then @count is capped at |L|).
 *
 * Return: the scheme used (CREM_FEC_CAUCHY_RS or CREM_FEC_SOURCE_COPY), or
 * -EINVAL if @lost is empty or names an absent position.
 */
int crem_csf_block_coded(struct crem_csf_block *b,
			 const struct crem_fec_set *lost, unsigned int *count,
			 u8 *const *out, u8 *index, struct crem_fec_work *work);

#endif /* CREM_CORE_CSF_BLOCK_H */
