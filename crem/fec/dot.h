/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GF(2^8) dot products: the one coding primitive.
 *
 * Every operation of the FEC schemes is a dot product of a few coefficient
 * rows with a set of symbols: ordinary repairs (rows = repair indices,
 * sources = present positions), coded retransmissions (sources = the lost
 * set), decoding (rows = the unknowns), the streaming encoder (one source,
 * accumulated into the m repairs).  One implementation per instruction set
 * lives in its own dot_<isa>.S; the scalar code here is the reference the
 * others are tested against.  One is chosen once, at init: the widest the
 * CPU offers (crem_gf_select_best()), or in the kernel the fastest as
 * measured there (crem_gf_select_fastest()).
 */
#ifndef CREM_FEC_DOT_H
#define CREM_FEC_DOT_H

#include "dot_abi.h"
#include "simd.h"

/* The assembly kernels of one instruction set (see dot_abi.h). */
struct crem_gf_kernels {
	/* fn[m - 1] handles m rows */
	void (*fn[DOT_MAX_ROWS])(const struct crem_gf_dot_args *args);
	/* mad[m - 1]: one source added into m rows (nsrc 1, accumulate) */
	void (*mad[DOT_MAX_ROWS])(const struct crem_gf_dot_args *args);
	unsigned int width;	/* stripe width in bytes */
};

/* From dot_x86.c; NULL if this build has no kernels for @isa. */
const struct crem_gf_kernels *crem_gf_arch_kernels(enum crem_simd_isa isa);

const char *crem_gf_isa_name(enum crem_simd_isa isa);
bool crem_gf_isa_available(enum crem_simd_isa isa);
enum crem_simd_isa crem_gf_isa(void);
/*
 * The speed of the coder in use, as crem_gf_select_fastest() measured it
 * (crem_gf_measure()'s MB/s), or 0 if it was chosen without measuring.
 */
u32 crem_gf_isa_mbs(void);
int crem_gf_set_isa(enum crem_simd_isa isa);
/*
 * Choose the best coder this machine offers that agrees with the scalar
 * code on a self-test (a disagreement also warns).  Context: process.
 */
void crem_gf_select_best(void);

/* What crem_gf_measure() codes: a block flush's shape at a 1 KiB MTU. */
#define CREM_GF_MEASURE_SRCS 4
#define CREM_GF_MEASURE_ROWS 2
#define CREM_GF_MEASURE_LEN 1104
#define CREM_GF_MEASURE_BYTES \
	((CREM_GF_MEASURE_SRCS + CREM_GF_MEASURE_ROWS) * CREM_GF_MEASURE_LEN)

/**
 * crem_gf_measure() - how fast one instruction set codes on this machine
 * @isa: the instruction set
 * @buf: CREM_GF_MEASURE_BYTES of scratch
 * @now_ns: a monotonic clock
 * @budget_ns: how long to keep coding
 *
 * Four sources of 1104 bytes into two rows, accumulated, over and over
 * for @budget_ns after one untimed pass.
 *
 * Context: process.  Return: source bytes coded per microsecond (MB/s),
 * or 0 if @isa is not available.
 */
u32 crem_gf_measure(enum crem_simd_isa isa, u8 *buf, u64 (*now_ns)(void),
		    u64 budget_ns);

/**
 * crem_gf_select_fastest() - choose the coder by its speed, as lib/raid6 does
 * @buf: CREM_GF_MEASURE_BYTES of scratch
 * @now_ns: a monotonic clock
 * @budget_ns: time to measure each instruction set in each of three
 *	       rounds
 * @mbs: filled with each one's speed, its best round (crem_gf_measure()),
 *	 0 where it is not available or failed its self-test
 *
 * The widest instruction set is not always the fastest: under a binary
 * translator (QEMU's TCG, where the lab's guests run) each vector
 * instruction may cost more than the bytes it saves, and some CPUs slow
 * down for their widest registers.  Only a coder that agrees with the
 * scalar one on the self-test is measured.
 *
 * Context: process.  Return: the instruction set now used.
 */
enum crem_simd_isa crem_gf_select_fastest(u8 *buf, u64 (*now_ns)(void),
					  u64 budget_ns,
					  u32 mbs[CREM_SIMD_NR_ISA]);

/**
 * crem_gf_dot() - multiply-accumulate symbols by coefficient rows
 * @m: rows (output symbols), any number
 * @nsrc: input symbols, any number (0 zeroes the outputs)
 * @len: bytes per symbol, any length
 * @coefs: @nsrc x @m coefficients, source-major: coefs[j * m + r]
 * @src: @nsrc input symbols
 * @dst: @m output symbols; none may overlap an input
 * @accumulate: add to @dst instead of overwriting it
 *
 * Computes dst[r][b] (^)= sum over j of coefs[j * m + r] * src[j][b] with
 * the selected instruction set.  Buffers need no alignment.
 *
 * Context: any but NMI.  Claims the vector registers in sections of about
 * 64 KiB of source data, and codes with the scalar path where SIMD may not
 * be used.
 */
void crem_gf_dot(unsigned int m, unsigned int nsrc, size_t len,
		 const u8 *coefs, const u8 *const *src, u8 *const *dst,
		 bool accumulate);

/* The same with a given instruction set; for tests and benchmarks. */
void crem_gf_dot_isa(enum crem_simd_isa isa, unsigned int m,
		     unsigned int nsrc, size_t len, const u8 *coefs,
		     const u8 *const *src, u8 *const *dst, bool accumulate);

/*
 * The same inside a section the caller opened with crem_simd_begin(), so
 * that a batch of small products pays for one FPU save (about 200 ns).
 * The caller bounds the work of the section.
 */
void crem_gf_dot_held(unsigned int m, unsigned int nsrc, size_t len,
		      const u8 *coefs, const u8 *const *src, u8 *const *dst,
		      bool accumulate);

#endif /* CREM_FEC_DOT_H */
