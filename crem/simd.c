// SPDX-License-Identifier: GPL-2.0
/*
 * The SIMD environment of the portable core in the kernel (see
 * crem/fec/simd.h): CPU features, and the FPU claimed with
 * kernel_fpu_begin() where may_use_simd() allows it.
 */
#include <linux/bug.h>
#include <linux/hardirq.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/simd.h>

#include "fec/simd.h"

#ifdef CONFIG_UML
/* UML runs as a host process: the host saves every register it has. */
static bool os_saves(bool zmm)
{
	return true;
}
#else
#include <asm/fpu/xstate.h>

static bool os_saves(bool zmm)
{
	u64 mask = XFEATURE_MASK_SSE | XFEATURE_MASK_YMM;

	if (zmm)
		mask |= XFEATURE_MASK_AVX512;
	return cpu_has_xfeatures(mask, NULL);
}
#endif

bool crem_simd_cpu_supports(enum crem_simd_isa isa)
{
	switch (isa) {
	case CREM_SIMD_SCALAR:
		return true;
	case CREM_SIMD_SSSE3:
		return boot_cpu_has(X86_FEATURE_SSSE3);
	case CREM_SIMD_AVX2:
		return boot_cpu_has(X86_FEATURE_AVX2) && os_saves(false);
	case CREM_SIMD_GFNI_AVX2:
		return boot_cpu_has(X86_FEATURE_AVX2) &&
		       boot_cpu_has(X86_FEATURE_GFNI) && os_saves(false);
	case CREM_SIMD_AVX512BW:
		return boot_cpu_has(X86_FEATURE_AVX512F) &&
		       boot_cpu_has(X86_FEATURE_AVX512BW) && os_saves(true);
	case CREM_SIMD_GFNI_AVX512:
		return boot_cpu_has(X86_FEATURE_AVX512F) &&
		       boot_cpu_has(X86_FEATURE_GFNI) && os_saves(true);
	default:
		return false;
	}
}

bool crem_simd_begin(void)
{
	if (WARN_ON_ONCE(in_nmi()) || !may_use_simd())
		return false;
	kernel_fpu_begin();
	return true;
}

void crem_simd_end(void)
{
	kernel_fpu_end();
}
