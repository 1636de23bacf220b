/* SPDX-License-Identifier: GPL-2.0 */
/* The x86-64 assembly kernels (dot_<isa>.S), as C sees them. */
#ifndef CREM_FEC_DOT_X86_H
#define CREM_FEC_DOT_X86_H

#include "dot.h"

#define DECLARE_KERNELS(isa)							\
	void crem_gf_dot_##isa##_m1(const struct crem_gf_dot_args *args);	\
	void crem_gf_dot_##isa##_m2(const struct crem_gf_dot_args *args);	\
	void crem_gf_dot_##isa##_m3(const struct crem_gf_dot_args *args);	\
	void crem_gf_dot_##isa##_m4(const struct crem_gf_dot_args *args);	\
	void crem_gf_dot_##isa##_m5(const struct crem_gf_dot_args *args);	\
	void crem_gf_dot_##isa##_m6(const struct crem_gf_dot_args *args);	\
	void crem_gf_dot_##isa##_m7(const struct crem_gf_dot_args *args);	\
	void crem_gf_dot_##isa##_m8(const struct crem_gf_dot_args *args);	\
	void crem_gf_dot_##isa##_mad1(const struct crem_gf_dot_args *args);	\
	void crem_gf_dot_##isa##_mad2(const struct crem_gf_dot_args *args);	\
	void crem_gf_dot_##isa##_mad3(const struct crem_gf_dot_args *args);	\
	void crem_gf_dot_##isa##_mad4(const struct crem_gf_dot_args *args);	\
	void crem_gf_dot_##isa##_mad5(const struct crem_gf_dot_args *args);	\
	void crem_gf_dot_##isa##_mad6(const struct crem_gf_dot_args *args);	\
	void crem_gf_dot_##isa##_mad7(const struct crem_gf_dot_args *args);	\
	void crem_gf_dot_##isa##_mad8(const struct crem_gf_dot_args *args)

DECLARE_KERNELS(ssse3);
DECLARE_KERNELS(avx2);
DECLARE_KERNELS(gfni_avx2);
DECLARE_KERNELS(avx512bw);
DECLARE_KERNELS(gfni_avx512);

#endif /* CREM_FEC_DOT_X86_H */
