# SPDX-License-Identifier: GPL-2.0
#
# The portable core: sources with no kernel includes (see port.h).  This one
# list feeds crem.ko (Kbuild), libcremcore.a (Makefile) and the KUnit build
# (tests/kunit/Kbuild).  Paths are relative to the repository root.
CREM_CORE_OBJS := crem/core/stats.o
