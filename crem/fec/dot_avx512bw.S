/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GF(2^8) dot products with AVX-512BW: 64-byte stripes, two per pass.
 *
 * Split-nibble multiply, the raid6_vgfmul layout: c * x is
 * lo[x & 15] ^ hi[x >> 4], two VPSHUFB lookups in the coefficient's 16-byte
 * tables (crem_gf_nibble_table) broadcast to every lane, folded into the
 * accumulator with one VPTERNLOGQ.  Needs AVX512F and AVX512BW.
 */
#define DOT_WIDTH 64
#include "dot_loop.S"

/* %zmm16/17: slot 0 low/high nibbles; %zmm18/19: slot 1; %zmm26: 0x0f. */
.macro DOT_SETUP
	lea	crem_gf_nibble_table(%rip), %r12
	mov	$0x0f, %eax
	vpbroadcastb %eax, %zmm26
.endm

.macro SPLIT lo, hi, disp
	vmovdqu64 \disp(%r11,%r10), \lo
	vpsrlw	$4, \lo, \hi
	vpandq	%zmm26, \lo, \lo
	vpandq	%zmm26, \hi, \hi
.endm

.macro LOAD_SRC s, disp
	.if \s == 0
	SPLIT	%zmm16, %zmm17, \disp
	.else
	SPLIT	%zmm18, %zmm19, \disp
	.endif
.endm

.macro MUL_ROW r, a0, a1, ns
	movzbl	\r(%rdx), %eax
	shl	$5, %eax
	vbroadcasti32x4 (%r12,%rax), %zmm20
	vbroadcasti32x4 16(%r12,%rax), %zmm21
	vpshufb	%zmm16, %zmm20, %zmm22
	vpshufb	%zmm17, %zmm21, %zmm23
	vpternlogq $0x96, %zmm23, %zmm22, %zmm\a0
	.if \ns == 2
	vpshufb	%zmm18, %zmm20, %zmm24
	vpshufb	%zmm19, %zmm21, %zmm25
	vpternlogq $0x96, %zmm25, %zmm24, %zmm\a1
	.endif
.endm

	.text
DOT_FUNCS(crem_gf_dot_avx512bw, 1)
