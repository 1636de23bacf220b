/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GF(2^8) dot products with AVX2: 32-byte stripes, one per pass.
 * Split-nibble VPSHUFB multiply as in dot_avx512bw.S.  Needs AVX2.
 */
#define DOT_WIDTH 32
#include "dot_loop.S"

/*
 * %ymm8/9: source low/high nibbles; %ymm10/11: the coefficient's tables;
 * %ymm12/13: products; %ymm15: 0x0f in every byte.
 */
.macro DOT_SETUP
	lea	crem_gf_nibble_table(%rip), %r12
	mov	$0x0f, %eax
	vmovd	%eax, %xmm15
	vpbroadcastb %xmm15, %ymm15
.endm

.macro LOAD_SRC s, disp
	vmovdqu	\disp(%r11,%r10), %ymm8
	vpsrlw	$4, %ymm8, %ymm9
	vpand	%ymm15, %ymm8, %ymm8
	vpand	%ymm15, %ymm9, %ymm9
.endm

.macro MUL_ROW r, a0, a1, ns
	movzbl	\r(%rdx), %eax
	shl	$5, %eax
	vbroadcasti128 (%r12,%rax), %ymm10
	vbroadcasti128 16(%r12,%rax), %ymm11
	vpshufb	%ymm8, %ymm10, %ymm12
	vpshufb	%ymm9, %ymm11, %ymm13
	vpxor	%ymm12, %ymm\a0, %ymm\a0
	vpxor	%ymm13, %ymm\a0, %ymm\a0
.endm

	.text
DOT_FUNCS(crem_gf_dot_avx2, 0)
