/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Arithmetic in GF(2^8) with the primitive polynomial
 * x^8 + x^4 + x^3 + x^2 + 1 (0x11D), as CREM's Cauchy Reed-Solomon scheme
 * requires.  Addition is exclusive-or.
 *
 * The tables are generated, not typed: crem_gf_init() computes them once
 * from the polynomial (module init, or the first crem_fec_init() in
 * userspace).  Nothing here may be used before it.
 */
#ifndef CREM_FEC_GF_H
#define CREM_FEC_GF_H

#include "../core/port.h"

#define CREM_GF_POLY	0x11d

/* exp table twice over, so that exp[log a + log b] needs no reduction. */
extern u8 crem_gf_exp[512];
extern u8 crem_gf_log[256];
extern u8 crem_gf_inv_table[256];
/* Row c: c times every field element; the scalar coder's table. */
extern u8 crem_gf_mul_table[256][256];
/*
 * Split-nibble tables for PSHUFB coders: bytes 0..15 hold c * x and bytes
 * 16..31 hold c * (x << 4) for x = 0..15.
 */
extern _Alignas(64) u8 crem_gf_nibble_table[256][32];
/*
 * 8x8 bit matrices for GF2P8AFFINEQB: multiplying by c in the 0x11D field
 * (the instruction's own multiply is wired to 0x11B).  Byte 7 - i of the
 * qword is row i: bit j of it is bit i of c * 2^j.
 */
extern _Alignas(64) u64 crem_gf_affine_table[256];

void crem_gf_init(void);

static inline u8 crem_gf_mul(u8 a, u8 b)
{
	return crem_gf_mul_table[a][b];
}

/* Multiplicative inverse; 0 has none and maps to 0. */
static inline u8 crem_gf_inv(u8 a)
{
	return crem_gf_inv_table[a];
}

/**
 * crem_gf_invert_matrix() - invert a square matrix in place
 * @a: n x n matrix, row-major; replaced by its inverse
 * @work: n x n bytes of scratch
 * @n: order
 *
 * Gauss-Jordan elimination, O(n^3).  The decoder uses it on the u x u
 * Cauchy submatrix of the unknown sources only, never on a k x k matrix.
 *
 * Return: 0, or -1 if @a is singular (then @a is garbage).
 */
int crem_gf_invert_matrix(u8 *a, u8 *work, unsigned int n);

#endif /* CREM_FEC_GF_H */
