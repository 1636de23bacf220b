/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CREM's FEC schemes (draft, "Source Blocks and Coding" and "Coded
 * Retransmission"):
 *
 *   0  Source Copy: repair i is source symbol i.
 *   1  Cauchy Reed-Solomon over GF(2^8): C(i, j) = 1 / (x_i + y_j) with
 *      x_i = 255 - i and y_j = j; R_i[L] = sum over j in L of C(i, j) * S_j.
 *      Only repair indices with i + k <= 255 are allowed.  Absent positions
 *      are known zero symbols.
 *   2  XOR parity: one repair, the XOR of the block's sources.
 *
 * Every function here works on caller-provided buffers and a caller-owned
 * workspace: none allocates, none sleeps, so all may run in softirq.
 * Symbols are T bytes; they may be padded by the caller to a multiple of
 * 64 bytes so that no byte takes the scalar path (padding must be zero).
 */
#ifndef CREM_FEC_FEC_H
#define CREM_FEC_FEC_H

#include "dot.h"
#include "set.h"
#include "symbol.h"

#define CREM_FEC_MAX_K		255
#define CREM_FEC_MAX_INDEX	254	/* i + k <= 255 with k >= 1 */

/**
 * crem_fec_init() - build the field tables and choose the coder
 *
 * Context: process.  Call once before anything else of crem/fec/; later
 * calls do nothing.
 */
void crem_fec_init(void);

/*
 * Scratch for one coding operation at a time (about 260 KiB): the kernel
 * keeps one per CPU, so that nothing large lives on the stack.
 */
struct crem_fec_work {
	/* for callers: a block's symbols by position, to pass as @src */
	const u8 *by_position[CREM_FEC_MAX_K];
	const u8 *in[2 * CREM_FEC_MAX_K];
	u8 *out[CREM_FEC_MAX_K];
	unsigned int index[CREM_FEC_MAX_K];
	unsigned int pick[CREM_FEC_MAX_K];
	unsigned int unknown[CREM_FEC_MAX_K];
	u8 coefs[2 * CREM_FEC_MAX_K * CREM_FEC_MAX_K];
	u8 matrix[CREM_FEC_MAX_K * CREM_FEC_MAX_K];
	u8 inverse_work[CREM_FEC_MAX_K * CREM_FEC_MAX_K];
};

/* C(i, j); valid when i + j < 255. */
u8 crem_crs_coef(unsigned int i, unsigned int j);

/**
 * crem_crs_encode() - repair symbols over a set of sources
 * @k: positions in the block, 1..255
 * @lset: the set L: every present position for ordinary repairs, the lost
 *	  set for a coded retransmission; members below @k
 * @src: src[j] is source symbol j, read for j in @lset only
 * @T: symbol length
 * @indices: @m distinct repair indices, each with i + k <= 255
 * @m: number of repairs
 * @out: @m buffers of @T bytes receiving R_i[L]
 * @work: scratch
 *
 * Return: 0, or -EINVAL if an argument breaks the rules above.
 */
int crem_crs_encode(unsigned int k, const struct crem_fec_set *lset,
		    const u8 *const *src, size_t T, const u8 *indices,
		    unsigned int m, u8 *const *out, struct crem_fec_work *work);

/**
 * struct crem_fec_repair - a repair symbol a decoder holds
 * @index: its repair index i
 * @lset: the set L it was computed over
 * @symbol: its T bytes
 */
struct crem_fec_repair {
	unsigned int index;
	struct crem_fec_set lset;
	const u8 *symbol;
};

/**
 * crem_crs_decode() - recover every unknown source of a block
 * @k: positions in the block
 * @present: positions that carry a source
 * @held: positions whose source symbol is held; a subset of @present
 * @src: src[j] is the held symbol j for j in @held, and for j in
 *	 U = @present \ @held a T-byte buffer that receives symbol j
 * @T: symbol length
 * @repairs: repair symbols held, ordinary or coded, with distinct indices
 * @nrep: how many
 * @work: scratch
 *
 * Repairs whose L does not contain U, or contains an absent position,
 * cannot serve and are skipped.  With u = |U| usable repairs, the known
 * sources are subtracted and the u x u Cauchy submatrix of U is inverted;
 * both fold into coefficients of one pass over the inputs.
 *
 * Return: 0 when U is recovered (or empty); -ENODATA when fewer than u
 * repairs can serve; -EINVAL when an argument breaks the rules (index
 * rule, duplicate index, @held not within @present).
 */
int crem_crs_decode(unsigned int k, const struct crem_fec_set *present,
		    const struct crem_fec_set *held, u8 *const *src,
		    size_t T, const struct crem_fec_repair *repairs,
		    unsigned int nrep, struct crem_fec_work *work);

/**
 * struct crem_crs_stream - ordinary repairs built as sources are observed
 * @k: positions in the block
 * @m: repairs, with indices 0..m-1
 * @T: symbol length
 * @present: positions added so far
 * @repair: @m buffers of @T bytes; R_i[present] at every moment
 *
 * The CSF adds each source as its packet passes, so that the repairs are
 * ready the moment the block closes.
 */
struct crem_crs_stream {
	unsigned int k;
	unsigned int m;
	size_t T;
	struct crem_fec_set present;
	u8 *const *repair;
};

int crem_crs_stream_start(struct crem_crs_stream *s, unsigned int k,
			  unsigned int m, size_t T, u8 *const *repair);

/**
 * crem_crs_stream_add() - add sources to the repairs
 * @s: the stream
 * @n: number of sources
 * @pos: their positions
 * @sym: their symbols
 *
 * Takes the vector registers once for the whole batch, so give it the
 * packets of one burst (at most one block) together.  A position already
 * added is skipped: a retransmitted packet takes the same position.
 *
 * Return: the number of sources added, or -EINVAL for a position >= k.
 */
int crem_crs_stream_add(struct crem_crs_stream *s, unsigned int n,
			const unsigned int *pos, const u8 *const *sym);

/* Scheme 2: @out = XOR of src[j] for j in @present. */
void crem_xor_encode(const struct crem_fec_set *present, const u8 *const *src,
		     size_t T, u8 *out, struct crem_fec_work *work);

/*
 * Scheme 2 decode: recover the one unknown of @present \ @held into its
 * src buffer.  Return: 0, -ENODATA if more than one is unknown.
 */
int crem_xor_decode(const struct crem_fec_set *present,
		    const struct crem_fec_set *held, u8 *const *src, size_t T,
		    const u8 *parity, struct crem_fec_work *work);

#endif /* CREM_FEC_FEC_H */
