/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface between the C side of the GF(2^8) dot product and its
 * assembly kernels (dot_*.S).  Shared by C and assembly.
 *
 * A kernel computes, for every row r < M (M fixed per function) and every
 * byte b with start <= b < end:
 *
 *	dst[r][b] (^)= sum over j < nsrc of coefs[j * stride + r] * src[j][b]
 *
 * overwriting dst when accumulate is 0 and adding to it otherwise.
 * end - start is a multiple of the kernel's stripe width; nsrc is at least
 * 1; buffers need no alignment.  Coefficients are raw field elements: each kernel indexes
 * its own table in gf.c (GFNI matrices or PSHUFB nibble tables), so that no
 * per-call table expansion is needed.
 */
#ifndef CREM_FEC_DOT_ABI_H
#define CREM_FEC_DOT_ABI_H

#define DOT_SRC		0
#define DOT_DST		8
#define DOT_COEFS	16
#define DOT_NSRC	24
#define DOT_STRIDE	32
#define DOT_START	40
#define DOT_END		48
#define DOT_ACCUMULATE	56

/* Rows one kernel call handles; more rows take several passes. */
#define DOT_MAX_ROWS	8

#ifndef __ASSEMBLY__
#include "../core/port.h"

struct crem_gf_dot_args {
	const u8 *const *src;
	u8 *const *dst;
	const u8 *coefs;
	u64 nsrc;
	u64 stride;
	u64 start;
	u64 end;
	u64 accumulate;
};

_Static_assert(__builtin_offsetof(struct crem_gf_dot_args, src) == DOT_SRC, "abi");
_Static_assert(__builtin_offsetof(struct crem_gf_dot_args, dst) == DOT_DST, "abi");
_Static_assert(__builtin_offsetof(struct crem_gf_dot_args, coefs) == DOT_COEFS, "abi");
_Static_assert(__builtin_offsetof(struct crem_gf_dot_args, nsrc) == DOT_NSRC, "abi");
_Static_assert(__builtin_offsetof(struct crem_gf_dot_args, stride) == DOT_STRIDE, "abi");
_Static_assert(__builtin_offsetof(struct crem_gf_dot_args, start) == DOT_START, "abi");
_Static_assert(__builtin_offsetof(struct crem_gf_dot_args, end) == DOT_END, "abi");
_Static_assert(__builtin_offsetof(struct crem_gf_dot_args, accumulate) == DOT_ACCUMULATE, "abi");
#endif

#endif /* CREM_FEC_DOT_ABI_H */
