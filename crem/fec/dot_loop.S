/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loop every GF(2^8) dot-product kernel shares (see dot_abi.h),
 * included by the dot_<isa>.S files (the kernel's convention for
 * assembly-only includes).  An ISA
 * file defines these hooks, then instantiates DOT_FUNC once per row count:
 *
 *   DOT_SETUP			constants; %r12 = the ISA's table in gf.c
 *   LOAD_SRC s, disp		source slot s (0, 1) = bytes at disp(%r11,%r10)
 *   MUL_ROW r, a0, a1, ns	accumulator a0 (and a1 when ns = 2) ^=
 *				coefficient r of this source * slot 0 (slot 1);
 *				the coefficient byte is at r(%rdx)
 *
 * The accumulator hooks (ZERO_ACC, LOAD_ACC, STORE_ACC) and DOT_TEARDOWN
 * come from the stripe width: %xmm with SSE, %ymm and %zmm with VEX and
 * EVEX encodings.
 *
 * Row r owns accumulators r (stripe 0) and r + 8 (stripe 1).  With PAIR
 * set, the main loop covers two stripes per pass so that each coefficient
 * is loaded once for both; single stripes finish the length.
 *
 * An ISA that defines DOT_PAIRED_SOURCES before including this file also
 * walks the sources two at a time, so that one three-way XOR folds both
 * products into the accumulator.  It then provides:
 *
 *   LOAD_SRC s, disp		for slots 2 and 3 too: the second source
 *   MUL_ROW_PAIR r, a0, a1, ns	as MUL_ROW for both sources; the second's
 *				coefficient is at r(%rdx,%rbx), and %r11 is
 *				free for it
 *
 * Registers: %rdi args, %r8 dst array, %r9 end, %r10 position, %r11 row or
 * source pointer, %rbx coefficient stride, %rcx/%rsi source array walk and
 * end, %rdx coefficients of the current source, %rax scratch, %r12 table.
 * No stack use beyond saving %rbx and %r12.
 */
#ifndef CREM_FEC_DOT_LOOP_S
#define CREM_FEC_DOT_LOOP_S

#include "dot_abi.h"

/*
 * The platform: the kernel's linkage macros in crem.ko, equivalents in
 * userspace.  This is to the assembly what crem/core/port.h is to C.
 */
#ifdef __KERNEL__
#include <linux/linkage.h>
#else
#define SYM_FUNC_START(name)	\
	.globl name;		\
	.type name, @function;	\
	.p2align 4;		\
	name:
#define SYM_FUNC_END(name)	.size name, .-name
#define RET			ret
#endif

#if !defined(__KERNEL__) || defined(CONFIG_UML)
/* Linked into a userspace program: the stack is not executable. */
	.section .note.GNU-stack, "", @progbits
#endif


#if DOT_WIDTH == 64
.macro ZERO_ACC a
	vpxorq	%zmm\a, %zmm\a, %zmm\a
.endm
.macro LOAD_ACC a, disp
	vmovdqu64 \disp(%r11,%r10), %zmm\a
.endm
.macro STORE_ACC a, disp
	vmovdqu64 %zmm\a, \disp(%r11,%r10)
.endm
.macro DOT_TEARDOWN
	vzeroupper
.endm
#elif DOT_WIDTH == 32
.macro ZERO_ACC a
	vpxor	%ymm\a, %ymm\a, %ymm\a
.endm
.macro LOAD_ACC a, disp
	vmovdqu	\disp(%r11,%r10), %ymm\a
.endm
.macro STORE_ACC a, disp
	vmovdqu	%ymm\a, \disp(%r11,%r10)
.endm
.macro DOT_TEARDOWN
	vzeroupper
.endm
#else
.macro ZERO_ACC a
	pxor	%xmm\a, %xmm\a
.endm
.macro LOAD_ACC a, disp
	movdqu	\disp(%r11,%r10), %xmm\a
.endm
.macro STORE_ACC a, disp
	movdqu	%xmm\a, \disp(%r11,%r10)
.endm
.macro DOT_TEARDOWN
.endm
#endif

/* Invoke \op for each row r < M with its accumulators r and r + 8. */
.macro FOR_ROWS M, op, ns
	.if \M > 0
	\op 0, 0, 8, \ns
	.endif
	.if \M > 1
	\op 1, 1, 9, \ns
	.endif
	.if \M > 2
	\op 2, 2, 10, \ns
	.endif
	.if \M > 3
	\op 3, 3, 11, \ns
	.endif
	.if \M > 4
	\op 4, 4, 12, \ns
	.endif
	.if \M > 5
	\op 5, 5, 13, \ns
	.endif
	.if \M > 6
	\op 6, 6, 14, \ns
	.endif
	.if \M > 7
	\op 7, 7, 15, \ns
	.endif
.endm

.macro ROW_IN r, a0, a1, ns
	mov	8*\r(%r8), %r11
	LOAD_ACC \a0, 0
	.if \ns == 2
	LOAD_ACC \a1, DOT_WIDTH
	.endif
.endm

.macro ROW_ZERO r, a0, a1, ns
	ZERO_ACC \a0
	.if \ns == 2
	ZERO_ACC \a1
	.endif
.endm

.macro ROW_OUT r, a0, a1, ns
	mov	8*\r(%r8), %r11
	STORE_ACC \a0, 0
	.if \ns == 2
	STORE_ACC \a1, DOT_WIDTH
	.endif
.endm

/* One pass over every source for ns stripes at the current position. */
.macro DOT_PASS M, ns
	cmpq	$0, DOT_ACCUMULATE(%rdi)
	je	1f
	FOR_ROWS \M, ROW_IN, \ns
	jmp	2f
1:	FOR_ROWS \M, ROW_ZERO, \ns
2:	mov	DOT_SRC(%rdi), %rcx
	mov	DOT_NSRC(%rdi), %rsi
	lea	(%rcx,%rsi,8), %rsi
	mov	DOT_COEFS(%rdi), %rdx
#ifdef DOT_PAIRED_SOURCES
3:	lea	8(%rcx), %rax
	cmp	%rsi, %rax
	jae	8f
	mov	(%rcx), %r11
	LOAD_SRC 0, 0
	.if \ns == 2
	LOAD_SRC 1, DOT_WIDTH
	.endif
	mov	8(%rcx), %r11
	LOAD_SRC 2, 0
	.if \ns == 2
	LOAD_SRC 3, DOT_WIDTH
	.endif
	FOR_ROWS \M, MUL_ROW_PAIR, \ns
	lea	(%rdx,%rbx,2), %rdx
	add	$16, %rcx
	jmp	3b
8:	cmp	%rsi, %rcx
	jae	9f
#else
3:
#endif
	mov	(%rcx), %r11
	LOAD_SRC 0, 0
	.if \ns == 2
	LOAD_SRC 1, DOT_WIDTH
	.endif
	FOR_ROWS \M, MUL_ROW, \ns
	add	%rbx, %rdx
	add	$8, %rcx
#ifndef DOT_PAIRED_SOURCES
	cmp	%rsi, %rcx
	jb	3b
#endif
9:	FOR_ROWS \M, ROW_OUT, \ns
.endm

/*
 * A kernel: the stripe loop around one kind of pass.  @args loads the
 * registers the pass reads from the arguments beyond dst, start and end;
 * @pass codes M rows for ns stripes at %r10.
 */
.macro PASS_LOOP name, M, pair, args, pass
SYM_FUNC_START(\name)
	push	%rbx
	push	%r12
	DOT_SETUP
	mov	DOT_END(%rdi), %r9
	mov	DOT_DST(%rdi), %r8
	mov	DOT_START(%rdi), %r10
	\args
	.if \pair
4:	lea	2*DOT_WIDTH(%r10), %rax
	cmp	%r9, %rax
	ja	5f
	\pass \M, 2
	add	$2*DOT_WIDTH, %r10
	jmp	4b
5:
	.endif
6:	lea	DOT_WIDTH(%r10), %rax
	cmp	%r9, %rax
	ja	7f
	\pass \M, 1
	add	$DOT_WIDTH, %r10
	jmp	6b
7:	DOT_TEARDOWN
	pop	%r12
	pop	%rbx
	RET
SYM_FUNC_END(\name)
.endm

/* The general pass walks the sources itself; it needs the stride. */
.macro DOT_ARGS
	mov	DOT_STRIDE(%rdi), %rbx
.endm

.macro DOT_FUNC name, M, pair
	PASS_LOOP \name, \M, \pair, DOT_ARGS, DOT_PASS
.endm

/*
 * One source added into M rows (nsrc = 1, accumulate): the streaming
 * encoder's per-packet update.  The source's stripes are loaded once per
 * pass and each row is read, updated and written back, with none of the
 * general loop's per-pass source walk.
 */
.macro ROW_MAD r, a0, a1, ns
	mov	8*\r(%r8), %r11
	LOAD_ACC \a0, 0
	.if \ns == 2
	LOAD_ACC \a1, DOT_WIDTH
	.endif
	MUL_ROW \r, \a0, \a1, \ns
	STORE_ACC \a0, 0
	.if \ns == 2
	STORE_ACC \a1, DOT_WIDTH
	.endif
.endm

.macro MAD_PASS M, ns
	mov	(%rcx), %r11
	LOAD_SRC 0, 0
	.if \ns == 2
	LOAD_SRC 1, DOT_WIDTH
	.endif
	FOR_ROWS \M, ROW_MAD, \ns
.endm

/* The single source and its coefficients stay put for the whole call. */
.macro MAD_ARGS
	mov	DOT_SRC(%rdi), %rcx
	mov	DOT_COEFS(%rdi), %rdx
.endm

.macro MAD_FUNC name, M, pair
	PASS_LOOP \name, \M, \pair, MAD_ARGS, MAD_PASS
.endm

/*
 * All eight row counts of one ISA: name_m1 .. name_m8, and the
 * single-source accumulate forms name_mad1 .. name_mad8.
 */
#define DOT_FUNCS(name, pair)			\
	DOT_FUNC name##_m1, 1, pair;		\
	DOT_FUNC name##_m2, 2, pair;		\
	DOT_FUNC name##_m3, 3, pair;		\
	DOT_FUNC name##_m4, 4, pair;		\
	DOT_FUNC name##_m5, 5, pair;		\
	DOT_FUNC name##_m6, 6, pair;		\
	DOT_FUNC name##_m7, 7, pair;		\
	DOT_FUNC name##_m8, 8, pair;		\
	MAD_FUNC name##_mad1, 1, pair;		\
	MAD_FUNC name##_mad2, 2, pair;		\
	MAD_FUNC name##_mad3, 3, pair;		\
	MAD_FUNC name##_mad4, 4, pair;		\
	MAD_FUNC name##_mad5, 5, pair;		\
	MAD_FUNC name##_mad6, 6, pair;		\
	MAD_FUNC name##_mad7, 7, pair;		\
	MAD_FUNC name##_mad8, 8, pair

#endif /* CREM_FEC_DOT_LOOP_S */
