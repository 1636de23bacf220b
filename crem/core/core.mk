# SPDX-License-Identifier: GPL-2.0
#
# The portable core: sources with no kernel includes (see port.h and
# crem/fec/dot_loop.S).  These lists feed crem.ko (Kbuild), libcremcore.a
# (Makefile) and the KUnit build (tests/kunit/Kbuild).  Paths are relative
# to the repository root.
CREM_CORE_OBJS := crem/core/stats.o crem/core/wire.o crem/core/roce.o \
		  crem/core/restore.o crem/core/csf_block.o crem/core/crf_block.o \
		  crem/core/hello.o crem/core/param.o crem/core/policy.o \
		  crem/core/admit.o crem/core/prefix.o \
		  crem/core/engine.o crem/core/csf.o crem/core/crf.o \
		  crem/fec/gf.o crem/fec/dot.o crem/fec/crs.o crem/fec/symbol.o

# The x86-64 coders: one assembly file per instruction set.
CREM_CORE_X86_OBJS := crem/fec/dot_x86.o crem/fec/dot_ssse3.o \
		      crem/fec/dot_avx2.o crem/fec/dot_gfni_avx2.o \
		      crem/fec/dot_avx512bw.o crem/fec/dot_gfni_avx512.o

# The core's environment in userspace; the kernel's is crem/simd.c.
CREM_USER_ENV_OBJS := crem/core/port_user.o crem/fec/simd_user.o
