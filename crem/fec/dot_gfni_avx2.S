/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GF(2^8) dot products with AVX2 and GFNI: 32-byte stripes, one per pass
 * (sixteen registers hold eight accumulators and the working set).
 * VEX-encoded VGF2P8AFFINEQB with the 0x11D matrices of
 * crem_gf_affine_table.  Needs AVX2 and GFNI.
 */
#define DOT_WIDTH 32
#include "dot_loop.S"

/* %ymm8: the source stripe; %ymm9: the matrix; %ymm10: the product. */
.macro DOT_SETUP
	lea	crem_gf_affine_table(%rip), %r12
.endm

.macro LOAD_SRC s, disp
	vmovdqu	\disp(%r11,%r10), %ymm8
.endm

.macro MUL_ROW r, a0, a1, ns
	movzbl	\r(%rdx), %eax
	vpbroadcastq (%r12,%rax,8), %ymm9
	vgf2p8affineqb $0, %ymm9, %ymm8, %ymm10
	vpxor	%ymm10, %ymm\a0, %ymm\a0
.endm

	.text
DOT_FUNCS(crem_gf_dot_gfni_avx2, 0)
