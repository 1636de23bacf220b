/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SIMD environment of the portable core.
 *
 * The coders are plain C plus per-ISA assembly; whether an ISA may run and
 * how the vector registers are claimed belongs to the platform.  The kernel
 * glue implements this interface in crem/simd.c (CPU features,
 * kernel_fpu_begin()), the userspace library in crem/fec/simd_user.c
 * (CPUID and XGETBV; the registers are always the process's).
 */
#ifndef CREM_FEC_SIMD_H
#define CREM_FEC_SIMD_H

#include "../core/port.h"

/* Instruction sets with a coder, worst to best. */
enum crem_simd_isa {
	CREM_SIMD_SCALAR,
	CREM_SIMD_SSSE3,
	CREM_SIMD_AVX2,
	CREM_SIMD_GFNI_AVX2,
	CREM_SIMD_AVX512BW,
	CREM_SIMD_GFNI_AVX512,
	CREM_SIMD_NR_ISA
};

/**
 * crem_simd_cpu_supports() - may code for @isa run on this machine?
 * @isa: an instruction set
 *
 * True when the CPU has the instructions and the OS saves their registers.
 * Context: any.
 */
bool crem_simd_cpu_supports(enum crem_simd_isa isa);

/**
 * crem_simd_begin() - claim the vector registers
 *
 * Context: any but NMI.  In the kernel this fails where the FPU may not be
 * used (some softirq contexts on 6.1, for example); the caller then codes
 * with the scalar path.  On success the caller must call crem_simd_end()
 * soon: the section disables preemption, so keep it to about 64 KiB of
 * coding work.
 *
 * Return: true if SIMD may be used until crem_simd_end().
 */
bool crem_simd_begin(void);
void crem_simd_end(void);

#endif /* CREM_FEC_SIMD_H */
