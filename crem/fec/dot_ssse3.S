/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GF(2^8) dot products with SSSE3: 16-byte stripes, one per pass.
 * Split-nibble PSHUFB multiply as in dot_avx512bw.S.  Needs SSSE3.
 */
#define DOT_WIDTH 16
#include "dot_loop.S"

/*
 * %xmm8/9: source low/high nibbles; %xmm10/11: table copies that PSHUFB
 * turns into products; %xmm15: 0x0f in every byte.
 */
.macro DOT_SETUP
	lea	crem_gf_nibble_table(%rip), %r12
	mov	$0x0f0f0f0f, %eax
	movd	%eax, %xmm15
	pshufd	$0, %xmm15, %xmm15
.endm

.macro LOAD_SRC s, disp
	movdqu	\disp(%r11,%r10), %xmm8
	movdqa	%xmm8, %xmm9
	psrlw	$4, %xmm9
	pand	%xmm15, %xmm8
	pand	%xmm15, %xmm9
.endm

.macro MUL_ROW r, a0, a1, ns
	movzbl	\r(%rdx), %eax
	shl	$5, %eax
	movdqa	(%r12,%rax), %xmm10
	movdqa	16(%r12,%rax), %xmm11
	pshufb	%xmm8, %xmm10
	pshufb	%xmm9, %xmm11
	pxor	%xmm10, %xmm\a0
	pxor	%xmm11, %xmm\a0
.endm

	.text
DOT_FUNCS(crem_gf_dot_ssse3, 0)
