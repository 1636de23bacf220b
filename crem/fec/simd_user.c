// SPDX-License-Identifier: GPL-2.0
/*
 * The SIMD environment in userspace (see simd.h): CPUID for the
 * instructions, XGETBV for the OS's register support.
 */
#include <cpuid.h>

#include "simd.h"

#define XCR0_SSE_YMM		0x06
#define XCR0_AVX512		0xe0	/* opmask, ZMM0-15 upper, ZMM16-31 */

static unsigned long long xcr0(void)
{
	unsigned int eax, edx;

	__asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
	return ((unsigned long long)edx << 32) | eax;
}

struct cpu_features {
	bool ssse3, avx2, avx512f, avx512bw, gfni;
	bool os_ymm, os_zmm;
};

static struct cpu_features read_features(void)
{
	struct cpu_features f = { 0 };
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return f;
	f.ssse3 = c & bit_SSSE3;
	if ((c & bit_OSXSAVE) && (c & bit_AVX)) {
		unsigned long long x = xcr0();

		f.os_ymm = (x & XCR0_SSE_YMM) == XCR0_SSE_YMM;
		f.os_zmm = f.os_ymm && (x & XCR0_AVX512) == XCR0_AVX512;
	}
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
		f.avx2 = b & bit_AVX2;
		f.avx512f = b & bit_AVX512F;
		f.avx512bw = b & bit_AVX512BW;
		f.gfni = c & bit_GFNI;
	}
	return f;
}

bool crem_simd_cpu_supports(enum crem_simd_isa isa)
{
	const struct cpu_features f = read_features();

	switch (isa) {
	case CREM_SIMD_SCALAR:
		return true;
	case CREM_SIMD_SSSE3:
		return f.ssse3;
	case CREM_SIMD_AVX2:
		return f.avx2 && f.os_ymm;
	case CREM_SIMD_GFNI_AVX2:
		return f.avx2 && f.gfni && f.os_ymm;
	case CREM_SIMD_AVX512BW:
		return f.avx512f && f.avx512bw && f.os_zmm;
	case CREM_SIMD_GFNI_AVX512:
		return f.avx512f && f.gfni && f.os_zmm;
	default:
		return false;
	}
}

bool crem_simd_begin(void)
{
	return true;
}

void crem_simd_end(void)
{
}
