// SPDX-License-Identifier: GPL-2.0
/*
 * The x86-64 kernels of the GF(2^8) dot product (dot_*.S), by instruction
 * set and row count.
 */
#include "dot_x86.h"

#define KERNELS(isa, stripe) {							\
	.width = (stripe),							\
	.fn = {									\
		crem_gf_dot_##isa##_m1, crem_gf_dot_##isa##_m2,			\
		crem_gf_dot_##isa##_m3, crem_gf_dot_##isa##_m4,			\
		crem_gf_dot_##isa##_m5, crem_gf_dot_##isa##_m6,			\
		crem_gf_dot_##isa##_m7, crem_gf_dot_##isa##_m8,			\
	},									\
	.mad = {								\
		crem_gf_dot_##isa##_mad1, crem_gf_dot_##isa##_mad2,		\
		crem_gf_dot_##isa##_mad3, crem_gf_dot_##isa##_mad4,		\
		crem_gf_dot_##isa##_mad5, crem_gf_dot_##isa##_mad6,		\
		crem_gf_dot_##isa##_mad7, crem_gf_dot_##isa##_mad8,		\
	},									\
}

static const struct crem_gf_kernels x86_kernels[CREM_SIMD_NR_ISA] = {
	[CREM_SIMD_SSSE3] = KERNELS(ssse3, 16),
	[CREM_SIMD_AVX2] = KERNELS(avx2, 32),
	[CREM_SIMD_GFNI_AVX2] = KERNELS(gfni_avx2, 32),
	[CREM_SIMD_AVX512BW] = KERNELS(avx512bw, 64),
	[CREM_SIMD_GFNI_AVX512] = KERNELS(gfni_avx512, 64),
};

const struct crem_gf_kernels *crem_gf_arch_kernels(enum crem_simd_isa isa)
{
	if (isa <= CREM_SIMD_SCALAR || isa >= CREM_SIMD_NR_ISA)
		return NULL;
	return &x86_kernels[isa];
}
