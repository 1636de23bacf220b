# SPDX-License-Identifier: GPL-2.0
#
# crem: top-level build and test entry points.  `make help` lists them.
#
# The kernel module builds with Kbuild (see Kbuild) in a copy of the sources
# per kernel release under $(BUILD)/kmod-<release>/, so that builds against
# several kernels do not clobber each other's objects.  Everything userspace
# builds under $(BUILD)/user/.

BUILD ?= $(CURDIR)/build
CREM_CACHE ?= $(HOME)/.cache/crem
export CREM_CACHE

# Kernel to build against: the running kernel's build tree if it has one,
# else the newest Debian linux-headers installed.
KDIR ?= $(shell d=/lib/modules/$$(uname -r)/build; \
	if [ -d "$$d" ]; then echo "$$d"; else \
	ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1; fi)
kernel_release = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
	$(1)/include/generated/utsrelease.h 2>/dev/null)
KVER := $(call kernel_release,$(KDIR))

# The two Debian 12 kernel series crem must build against with W=1.
KDIR_61 ?= $(lastword $(sort $(wildcard /usr/src/linux-headers-6.1.*-amd64)))
KDIR_612 ?= $(lastword $(sort $(wildcard /usr/src/linux-headers-6.12.*-amd64)))

PYTHON := /usr/bin/python3
NLSPEC := Documentation/netlink/specs/crem.yaml
NLGEN_OUT := include/uapi/linux/crem_netlink.h crem/netlink/nl_gen.c \
	     crem/netlink/nl_gen.h

include crem/core/core.mk
include tests/kunit/suites.mk

CC ?= gcc
USER_CFLAGS := -std=gnu11 -g -Wall -Wextra -Wno-unused-parameter -Werror -Wshadow \
	       -Wmissing-prototypes -Wstrict-prototypes \
	       -I$(CURDIR) -I$(CURDIR)/include/uapi
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	     -fno-omit-frame-pointer

UDIR := $(BUILD)/user
ifeq ($(shell uname -m),x86_64)
USER_CORE_OBJS := $(CREM_CORE_OBJS) $(CREM_CORE_X86_OBJS) $(CREM_USER_ENV_OBJS)
else
USER_CORE_OBJS := $(CREM_CORE_OBJS) $(CREM_USER_ENV_OBJS)
endif
CORE_LIB := $(UDIR)/libcremcore.a
UNIT_BIN := $(UDIR)/crem_unit
CREMCTL := $(BUILD)/cremctl
CREMCTL_SRCS := $(wildcard tools/cremctl/*.c)
CREMCTL_HDRS := $(wildcard tools/cremctl/*.h) include/uapi/linux/crem_netlink.h

.PHONY: mqp labbench copy-bench all module modules-all print-kdir-61 print-kdir-612 sparse \
	lib unit-bin cremctl cremsend unit kunit selftests \
	check demo deps nlgen nlgen-check vectors vectors-check capture clean \
	help

all: module cremctl lib unit-bin

help:
	@echo "make              build crem.ko (KDIR=$(KDIR)), cremctl, libcremcore.a, tests"
	@echo "make deps         install the Debian packages everything needs"
	@echo "make modules-all  build crem.ko with W=1 against 6.1 and 6.12 headers"
	@echo "make unit         portable core suites in userspace (ASan, UBSan)"
	@echo "make kunit        the same suites as KUnit in the lab's debug kernel"
	@echo "make selftests    the two-guest soft-RoCE lab (LAB_KERNEL=6.1|6.12)"
	@echo "make mqp          the multi-QP loop in full (8 and 32 QPs, 20 runs)"
	@echo "make sparse       sparse (C=2) over crem.ko: no finding"
	@echo "make check        deps, then every test layer; ends 'N passed, N failed'"
	@echo "make demo         deps, then ib_write_bw across a 10 ms, 1 % loss link"
	@echo "make labbench     deps, then the lab's goodput matrix (hours; LABBENCH_*)"
	@echo "make fuzz-coverage the fuzz corpus takes every parser branch (gcov)"
	@echo "make nlgen        regenerate the netlink code from $(NLSPEC)"
	@echo "make bench        FEC coders against ISA-L (BENCH_RUNS=7), the engine's"
	@echo "                  packet path against memcpy (ENGINE_BENCH_PACKETS)"
	@echo "make copy-bench   copy idioms' cost in the lab's emulated CPU, with"
	@echo "                  QEMU's max CPU and the lab's default"
	@echo "make vectors      regenerate the RoCEv2 test vectors with scapy"
	@echo "make capture      capture rxe packets in the lab for the vectors"

deps:
	tools/deps.sh

# $(call kbuild_copy,OUTDIR): the module's sources, copied to OUTDIR.
define kbuild_copy
	@mkdir -p $(1)
	@rsync -a --delete --exclude='/build/' --exclude='/tests/' \
		--exclude='/tools/' --exclude='/Documentation/' --exclude='.*' \
		--include='*/' --include='Kbuild' --include='*.[chS]' \
		--include='*.mk' --exclude='*' --prune-empty-dirs \
		./ $(1)/
endef

# $(call kbuild,KDIR,OUTDIR): copy the sources and run Kbuild there.
define kbuild
	@test -d "$(1)" || { echo "no kernel headers at '$(1)' (make deps)" >&2; exit 1; }
	$(call kbuild_copy,$(2))
	$(MAKE) -C $(1) M=$(2) $(if $(W),W=$(W)) modules
endef

module:
	$(call kbuild,$(KDIR),$(BUILD)/kmod-$(KVER))
	@echo "built $(BUILD)/kmod-$(KVER)/crem.ko"

print-kdir-61:
	@echo $(KDIR_61)
print-kdir-612:
	@echo $(KDIR_612)

# W=1 and no warnings at all, against both series; a series whose headers
# are missing is a failure, not a pass.
modules-all:
	@test -n "$(KDIR_61)" || { echo "FAIL: no 6.1 headers (make deps)" >&2; exit 1; }
	@test -n "$(KDIR_612)" || { echo "FAIL: no 6.12 headers (make deps)" >&2; exit 1; }
	@set -e; mkdir -p $(BUILD); for kdir in $(KDIR_61) $(KDIR_612); do \
		rel=$$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
			$$kdir/include/generated/utsrelease.h); \
		out=$(BUILD)/kmod-$$rel; log=$(BUILD)/kmod-$$rel.log; \
		$(MAKE) --no-print-directory module KDIR=$$kdir W=1 \
			>$$log 2>$$log.err || { cat $$log $$log.err; exit 1; }; \
		if grep -q 'warning:' $$log.err; then cat $$log.err; \
			echo "FAIL: warnings against $$rel" >&2; exit 1; fi; \
		echo "ok: crem.ko builds against $$rel with W=1 and no warnings"; \
	done

CORE_HDRS := $(wildcard crem/core/*.h crem/fec/*.h) crem/fec/dot_loop.S

$(UDIR)/%.o: %.c $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -O2 -c $< -o $@

$(UDIR)/%.o: %.S $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) -D__ASSEMBLY__ -c $< -o $@

$(CORE_LIB): $(addprefix $(UDIR)/,$(USER_CORE_OBJS))
	$(AR) rcs $@ $^

lib: $(CORE_LIB)

# The unit runner: every suite plus the core, C under ASan and UBSan (the
# assembly kernels link in as they are).  Like the kernel, the suites build
# without -Wsign-compare; the core keeps it in libcremcore.a.
UNIT_C_SRCS := tests/kunit/shim/shim.c $(CREM_KUNIT_OBJS:.o=.c) \
	       $(CREM_UNIT_ONLY_OBJS:.o=.c) $(CREM_HARNESS_OBJS:.o=.c) \
	       $(patsubst %.o,%.c,$(filter-out %_ssse3.o %_avx2.o %_avx512bw.o %_avx512.o,$(USER_CORE_OBJS)))
UNIT_ASM_OBJS := $(addprefix $(UDIR)/,$(filter %_ssse3.o %_avx2.o %_avx512bw.o %_avx512.o,$(USER_CORE_OBJS)))
$(UNIT_BIN): $(UNIT_C_SRCS) $(UNIT_ASM_OBJS) $(CORE_HDRS) \
	     tests/kunit/shim/kunit/test.h $(wildcard tests/kunit/*.h) \
	     $(wildcard tests/harness/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Wno-sign-compare -Itests/kunit/shim -O1 \
		$(SAN_FLAGS) $(UNIT_C_SRCS) $(UNIT_ASM_OBJS) -o $@

unit-bin: $(UNIT_BIN)

$(CREMCTL): $(CREMCTL_SRCS) $(CREMCTL_HDRS) crem/core/version.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -O2 $(CREMCTL_SRCS) -o $@ \
		$$(pkg-config --cflags --libs libmnl)

cremctl: $(CREMCTL)

# The lab's packet crafter, static for the guests' minimal userland.
CREMSEND := $(BUILD)/cremsend
CREMSEND_SRCS := tests/selftests/lab/cremsend.c crem/core/wire.c \
		 crem/core/roce.c crem/core/port_user.c
$(CREMSEND): $(CREMSEND_SRCS) $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -O2 -static $(CREMSEND_SRCS) -o $@

cremsend: $(CREMSEND)

nlgen:
	$(PYTHON) tools/nlgen.py $(NLSPEC) $(NLGEN_OUT)

nlgen-check:
	$(PYTHON) tools/nlgen.py --check $(NLSPEC) $(NLGEN_OUT)

# RoCEv2 test vectors, built with scapy (tests/vectors/).
ROCE_VECTORS := tests/kunit/roce_vectors.h
vectors:
	$(PYTHON) tests/vectors/gen_roce_vectors.py header $(ROCE_VECTORS)

vectors-check:
	$(PYTHON) tests/vectors/gen_roce_vectors.py check $(ROCE_VECTORS)

# Refresh the captured rxe packets among the vectors (boots the lab).
capture: cremctl
	$(MAKE) module KDIR=$(KDIR_61)
	tools/capture_rocev2.sh
	$(MAKE) vectors

# Each layer writes KTAP/TAP to $(BUILD)/results/<layer>.tap.
unit: $(UNIT_BIN)
	@mkdir -p $(BUILD)/results
	tests/unit.sh $(UNIT_BIN) $(BUILD)/results/unit.tap

kunit: cremctl cremsend
	CREM_DEBUG_SERIES=6.1 tests/selftests/lab/debug-kernel.sh build > /dev/null
	$(MAKE) module KDIR=$$(CREM_DEBUG_SERIES=6.1 tests/selftests/lab/debug-kernel.sh kdir)
	@mkdir -p $(BUILD)/results
	tests/kunit/run.sh $(BUILD)/results/kunit.tap

# sparse (make C=2) over crem.ko against the 6.1 headers: no warning in
# crem's files.
sparse:
	@test -n "$(KDIR_61)" || { echo "FAIL: no 6.1 headers (make deps)" >&2; exit 1; }
	@command -v sparse > /dev/null || { echo "FAIL: sparse is missing (make deps)" >&2; exit 1; }
	$(call kbuild_copy,$(BUILD)/sparse)
	$(MAKE) -C $(KDIR_61) M=$(BUILD)/sparse C=2 modules > $(BUILD)/sparse.log 2>&1
	@if grep -E '^$(BUILD)/sparse/.*(warning|error):' $(BUILD)/sparse.log; then \
		echo "FAIL: sparse has findings" >&2; exit 1; fi
	@echo "ok: sparse finds nothing in crem's files"

# The lab tests on Debian's 6.1 kernel (LAB_KERNEL=6.12 for the other).
LAB_KERNEL ?= 6.1
selftests: cremctl cremsend
	$(MAKE) module KDIR=$(if $(filter 6.12,$(LAB_KERNEL)),$(KDIR_612),$(KDIR_61))
	@mkdir -p $(BUILD)/results
	tests/selftests/run.sh -k $(LAB_KERNEL) $(BUILD)/results/selftests.tap

check: deps
	tests/check.sh

# The multi-QP loop in full: 8 and 32 QPs, twenty runs of each verb at 0 %
# and 1 % loss, then crem on against off with 8 QPs (make check runs a
# short version in crem_mqp).  Its twelve cases alone took about 570 s on
# 6.12: the guests get 3000 s, not the lab's default 600.
mqp: cremctl cremsend
	$(MAKE) module KDIR=$(if $(filter 6.12,$(LAB_KERNEL)),$(KDIR_612),$(KDIR_61))
	@mkdir -p $(BUILD)/results
	CREM_LAB_KVER=$(LAB_KERNEL) \
	CREM_LAB_TIMEOUT=$${CREM_LAB_TIMEOUT:-3000} \
		tests/selftests/lab/lab.sh run crem_mqp.sh \
		$(BUILD)/selftests/mqp mqp_runs=20 mqp_qps=8,32 mqp_ratio=1

# The goodput matrix at crem's defaults (labbench.sh: LABBENCH_* pick the
# rows; make check runs one row, crem_labbench).  Hours in full.
labbench: deps cremctl cremsend
	$(MAKE) module KDIR=$(if $(filter 6.12,$(LAB_KERNEL)),$(KDIR_612),$(KDIR_61))
	CREM_LAB_KVER=$(LAB_KERNEL) tests/selftests/labbench.sh

demo: deps cremctl cremsend
	$(MAKE) module KDIR=$(KDIR_61)
	tests/selftests/demo.sh

clean:
	rm -rf $(BUILD)

# The FEC benchmark against ISA-L (a reference only, never linked into
# crem.ko or cremctl).
BENCH_BIN := $(UDIR)/fec_bench
$(BENCH_BIN): tests/bench/fec_bench.c $(CORE_LIB)
	$(CC) $(USER_CFLAGS) -O2 $< $(CORE_LIB) -lisal -o $@

# The engine's packet path, sender and receiver, against a memcpy() of
# each packet (tests/bench/engine_bench.c).
ENGINE_BENCH_BIN := $(UDIR)/engine_bench
ENGINE_BENCH_SRCS := tests/bench/engine_bench.c tests/harness/traffic.c \
		     tests/harness/sim.c
$(ENGINE_BENCH_BIN): $(ENGINE_BENCH_SRCS) $(CORE_LIB) $(wildcard tests/harness/*.h)
	$(CC) $(USER_CFLAGS) -O2 $(ENGINE_BENCH_SRCS) $(CORE_LIB) -o $@

.PHONY: bench
bench: deps $(BENCH_BIN) $(ENGINE_BENCH_BIN)
	$(BENCH_BIN) $(BENCH_RUNS)
	$(ENGINE_BENCH_BIN) $(ENGINE_BENCH_PACKETS)

# What the lab's emulated CPU makes of the kernel's copy idioms, with
# QEMU's max CPU (ERMS: 6.1's memcpy() is "rep movsb") and with the lab's
# default (testing.rst, "The emulated CPU").  A measurement, not a test.
COPY_BENCH_BIN := $(BUILD)/copy_bench
$(COPY_BENCH_BIN): tests/bench/copy_bench.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -static -Wall -Wextra $< -o $@

copy-bench: $(COPY_BENCH_BIN)
	for cpu in max max,-fsrm,-erms; do \
		echo "== -cpu $$cpu"; \
		CREM_LAB_CPU=$$cpu CREM_LAB_EXTRA_KO=$(COPY_BENCH_BIN) \
			tests/selftests/run.sh -k $(LAB_KERNEL) \
			-t copy_profile.sh $(BUILD)/results/copy_profile.tap || \
			exit 1; \
	done

# libFuzzer targets of the parsers (tests/fuzz/README).
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_CC := clang
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined \
	      -fno-sanitize-recover=all -I$(CURDIR) -I$(CURDIR)/include/uapi
FUZZ_CORE := crem/core/wire.c crem/core/roce.c crem/core/port_user.c
FUZZ_SMOKE_SECONDS ?= 30

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_CORE) $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $< $(FUZZ_CORE) -o $@

.PHONY: fuzz fuzz-smoke fuzz-coverage
fuzz: $(FUZZ_DIR)/fuzz_wire $(FUZZ_DIR)/fuzz_roce
	$(PYTHON) tests/fuzz/make_seeds.py $(FUZZ_DIR)/corpus/wire $(FUZZ_DIR)/corpus/roce

fuzz-smoke: fuzz
	tests/fuzz/smoke.sh $(FUZZ_DIR) $(FUZZ_SMOKE_SECONDS)

# The corpus against the parsers' branches, with gcc's gcov.
fuzz-coverage:
	tests/fuzz/coverage.sh $(FUZZ_DIR)/coverage

# The engine's property run (tests/harness/property.c): optimised, without
# the sanitizers, the two loss models in parallel; PROPERTY_PACKETS per row.
PROPERTY_BIN := $(UDIR)/crem_property
PROPERTY_PACKETS ?= 1000000
PROPERTY_SRCS := tests/harness/property.c tests/harness/pair.c \
		 tests/harness/sim.c tests/harness/traffic.c
$(PROPERTY_BIN): $(PROPERTY_SRCS) $(CORE_LIB) $(wildcard tests/harness/*.h)
	$(CC) $(USER_CFLAGS) -O2 $(PROPERTY_SRCS) $(CORE_LIB) -o $@

.PHONY: property
property: $(PROPERTY_BIN)
	tests/harness/property.sh $(PROPERTY_BIN) $(PROPERTY_PACKETS)
