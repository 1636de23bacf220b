/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GF(2^8) dot products with AVX-512 and GFNI: 64-byte stripes, two per pass.
 *
 * Each product is one VGF2P8AFFINEQB with the coefficient's 8x8 bit matrix
 * for the 0x11D field (crem_gf_affine_table); the instruction's own
 * multiply (GF2P8MULB) uses 0x11B and cannot serve.  The matrix comes
 * straight from the table as an embedded broadcast, and sources go in
 * pairs so that one VPTERNLOGQ adds two products.
 * Needs AVX512F and GFNI.
 */
/* Stripe width in bytes; the loop in dot_loop.S uses it. */
#define DOT_WIDTH 64
#define DOT_PAIRED_SOURCES
#include "dot_loop.S"

.macro DOT_SETUP
	lea	crem_gf_affine_table(%rip), %r12
.endm

/* Slots 0 and 1: a source's two stripes in %zmm16/17; 2 and 3: %zmm18/19. */
.macro LOAD_SRC s, disp
	.if \s == 0
	vmovdqu64 \disp(%r11,%r10), %zmm16
	.elseif \s == 1
	vmovdqu64 \disp(%r11,%r10), %zmm17
	.elseif \s == 2
	vmovdqu64 \disp(%r11,%r10), %zmm18
	.else
	vmovdqu64 \disp(%r11,%r10), %zmm19
	.endif
.endm

.macro MUL_ROW r, a0, a1, ns
	movzbl	\r(%rdx), %eax
	vgf2p8affineqb $0, (%r12,%rax,8){1to8}, %zmm16, %zmm20
	vpxorq	%zmm20, %zmm\a0, %zmm\a0
	.if \ns == 2
	vgf2p8affineqb $0, (%r12,%rax,8){1to8}, %zmm17, %zmm21
	vpxorq	%zmm21, %zmm\a1, %zmm\a1
	.endif
.endm

.macro MUL_ROW_PAIR r, a0, a1, ns
	movzbl	\r(%rdx), %eax
	movzbl	\r(%rdx,%rbx), %r11d
	vgf2p8affineqb $0, (%r12,%rax,8){1to8}, %zmm16, %zmm20
	vgf2p8affineqb $0, (%r12,%r11,8){1to8}, %zmm18, %zmm21
	vpternlogq $0x96, %zmm21, %zmm20, %zmm\a0
	.if \ns == 2
	vgf2p8affineqb $0, (%r12,%rax,8){1to8}, %zmm17, %zmm22
	vgf2p8affineqb $0, (%r12,%r11,8){1to8}, %zmm19, %zmm23
	vpternlogq $0x96, %zmm23, %zmm22, %zmm\a1
	.endif
.endm

	.text
DOT_FUNCS(crem_gf_dot_gfni_avx512, 1)
