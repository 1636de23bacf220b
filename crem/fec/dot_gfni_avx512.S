/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GF(2^8) dot products with AVX-512 and GFNI: 64-byte stripes, two per pass.
 *
 * Each product is one VGF2P8AFFINEQB with the coefficient's 8x8 bit matrix
 * for the 0x11D field (crem_gf_affine_table); the instruction's own
 * multiply (GF2P8MULB) uses 0x11B and cannot serve.  The matrix is
 * broadcast once per source and row and used for both stripes.
 * Needs AVX512F and GFNI.
 */
/* Stripe width in bytes; the loop in dot_loop.h uses it. */
#define DOT_WIDTH 64
#include "dot_loop.h"

.macro DOT_SETUP
	lea	crem_gf_affine_table(%rip), %r12
.endm

.macro DOT_TEARDOWN
	vzeroupper
.endm

.macro ZERO_ACC a
	vpxorq	%zmm\a, %zmm\a, %zmm\a
.endm

.macro LOAD_ACC a, disp
	vmovdqu64 \disp(%r11,%r10), %zmm\a
.endm

.macro STORE_ACC a, disp
	vmovdqu64 %zmm\a, \disp(%r11,%r10)
.endm

/* Slot 0 is %zmm16, slot 1 is %zmm17. */
.macro LOAD_SRC s, disp
	.if \s == 0
	vmovdqu64 \disp(%r11,%r10), %zmm16
	.else
	vmovdqu64 \disp(%r11,%r10), %zmm17
	.endif
.endm

.macro MUL_ROW r, a0, a1, ns
	movzbl	\r(%rdx), %eax
	vpbroadcastq (%r12,%rax,8), %zmm18
	vgf2p8affineqb $0, %zmm18, %zmm16, %zmm19
	vpxorq	%zmm19, %zmm\a0, %zmm\a0
	.if \ns == 2
	vgf2p8affineqb $0, %zmm18, %zmm17, %zmm20
	vpxorq	%zmm20, %zmm\a1, %zmm\a1
	.endif
.endm

	.text
DOT_FUNCS(crem_gf_dot_gfni_avx512, 1)
