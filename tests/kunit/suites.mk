# SPDX-License-Identifier: GPL-2.0
#
# KUnit suites of the portable core.  Each file is written once against the
# KUnit API and builds both into the UML KUnit kernel (tests/kunit/run.sh)
# and into the userspace runner (make unit), through shim/kunit/test.h.
CREM_KUNIT_OBJS := tests/kunit/psn_test.o tests/kunit/stats_test.o \
		   tests/kunit/fec_gf_test.o tests/kunit/fec_example_test.o \
		   tests/kunit/fec_isa_test.o tests/kunit/fec_decode_test.o \
		   tests/kunit/wire_test.o tests/kunit/roce_test.o \
		   tests/kunit/restore_test.o tests/kunit/block_test.o \
		   tests/kunit/policy_test.o tests/kunit/engine_loop_test.o \
		   tests/kunit/admit_test.o

# Suites that need the userspace pair harness (tests/harness/): make unit
# only.  CREM_HARNESS_OBJS is the harness itself.
CREM_UNIT_ONLY_OBJS := tests/harness/harness_test.o tests/harness/block_pair_test.o \
		       tests/harness/hello_test.o tests/harness/param_test.o \
		       tests/harness/engine_test.o
CREM_HARNESS_OBJS := tests/harness/sim.o tests/harness/traffic.o \
		     tests/harness/pair.o
