#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The unit layer: the portable core's KUnit suites in userspace under ASan
# and UBSan, then the checks that need no running kernel: the generated
# netlink code agrees with its spec, checkpatch is clean, crem.ko builds
# with W=1 and no warnings against both Debian kernel series and sparse
# finds nothing in it, the RoCEv2
# test vectors agree with their generator, and tshark's InfiniBand
# dissector reads them without a malformed packet, and the parsers survive
# a short fuzzing run (tests/fuzz/) with every past crash replayed, the
# minimised corpus takes every branch of the parsers both ways (gcov), and
# the engine's property run (a million packets per loss rate and model).
# Prints one KTAP stream.
#
# Usage: tests/unit.sh UNIT_BIN [KTAP_OUT]

set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
unit_bin=$1
out=${2:-/dev/null}
failed=0

# make_check NR NAME TARGET: one result from a make target's status.
make_check() {
	if (cd "$repo" && make -s "$3") > "$out.check" 2>&1; then
		echo "ok $1 $2"
	else
		sed 's/^/# /' "$out.check"
		echo "not ok $1 $2"
	fi
}

# skip NR NAME WHY: a check that cannot run.  In make check (the lab
# required, CREM_LAB_REQUIRED=1) that is a failure unless CREM_ALLOW_SKIP=1.
skip() {
	if [ "${CREM_LAB_REQUIRED:-0}" = 1 ] && [ "${CREM_ALLOW_SKIP:-0}" != 1 ]; then
		echo "not ok $1 $2 # cannot run: $3"
	else
		echo "ok $1 $2 # SKIP $3"
	fi
}

run() {
	echo "KTAP version 1"
	echo "1..10"

	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$unit_bin" > "$out.suites" 2>&1
	local rc=$?
	sed 's/^/    /' "$out.suites"
	if [ "$rc" -eq 0 ]; then
		echo "ok 1 core_suites"
	else
		echo "not ok 1 core_suites # exit $rc"
	fi

	make_check 2 netlink_code_matches_spec nlgen-check

	local cp_rc=0
	"$repo/tools/checkpatch.sh" > "$out.checkpatch" 2>&1 || cp_rc=$?
	case $cp_rc in
	0) echo "ok 3 checkpatch_clean" ;;
	4) skip 3 checkpatch_clean "$(tail -n 1 "$out.checkpatch")" ;;
	*)
		sed 's/^/# /' "$out.checkpatch"
		echo "not ok 3 checkpatch_clean"
		;;
	esac

	# One subtest per kernel series, from modules-all's "ok:" lines.
	local kb_rc=0
	(cd "$repo" && make --no-print-directory modules-all) > "$out.kbuild" 2>&1 || kb_rc=$?
	echo "    TAP version 13"
	echo "    1..$(grep -c '^ok: ' "$out.kbuild")"
	grep '^ok: ' "$out.kbuild" | awk '{ sub(/^ok: /, ""); printf "    ok %d %s\n", NR, $0 }'
	if [ "$kb_rc" -eq 0 ]; then
		echo "ok 4 kbuild_w1_both_series"
	else
		tail -n 40 "$out.kbuild" | sed 's/^/# /'
		echo "not ok 4 kbuild_w1_both_series"
	fi

	make_check 5 roce_vectors_match_generator vectors-check

	tshark_check 6
	fuzz_smoke 7
	property_run 8
	make_check 9 sparse_clean sparse
	corpus_coverage 10
}

# The minimised fuzz corpus takes every branch of the parsers both ways.
corpus_coverage() {
	local nr=$1

	if (cd "$repo" && make -s fuzz-coverage) > "$out.corpus" 2>&1; then
		sed 's/^/# /' "$out.corpus"
		echo "ok $nr fuzz_corpus_covers_parsers"
	else
		sed 's/^/# /' "$out.corpus" | tail -n 40
		echo "not ok $nr fuzz_corpus_covers_parsers"
	fi
}

# The engine's property run: its table goes into the log as comments.
property_run() {
	local nr=$1

	if (cd "$repo" && make -s property) > "$out.property" 2>&1; then
		sed 's/^/# /' "$out.property"
		echo "ok $nr engine_property_run"
	else
		sed 's/^/# /' "$out.property" | tail -n 40
		echo "not ok $nr engine_property_run"
	fi
}

fuzz_smoke() {
	local nr=$1

	if ! command -v clang > /dev/null; then
		skip "$nr" fuzz_smoke "clang is not installed"
		return
	fi
	if (cd "$repo" && make -s fuzz-smoke) > "$out.fuzz" 2>&1; then
		grep '^fuzz_' "$out.fuzz" | sed 's/^/# /'
		echo "ok $nr fuzz_smoke"
	else
		sed 's/^/# /' "$out.fuzz" | tail -n 40
		echo "not ok $nr fuzz_smoke"
	fi
}

# The vectors as a pcap: every packet RoCEv2 to tshark, none malformed.
tshark_check() {
	local nr=$1 pcap="$out.pcap" total ib bad

	if ! command -v tshark > /dev/null; then
		skip "$nr" tshark_reads_roce_vectors "tshark is not installed"
		return
	fi
	/usr/bin/python3 "$repo/tests/vectors/gen_roce_vectors.py" pcap "$pcap"
	total=$(tshark -r "$pcap" 2>/dev/null | wc -l)
	ib=$(tshark -r "$pcap" -Y infiniband 2>/dev/null | wc -l)
	bad=$(tshark -r "$pcap" -Y _ws.malformed 2>/dev/null | wc -l)
	echo "# tshark: $ib of $total packets dissected as RoCEv2, $bad malformed"
	if [ "$total" -gt 0 ] && [ "$ib" -eq "$total" ] && [ "$bad" -eq 0 ]; then
		echo "ok $nr tshark_reads_roce_vectors"
	else
		echo "not ok $nr tshark_reads_roce_vectors"
	fi
	rm -f "$pcap"
}

run | tee "$out"
grep -q '^not ok' "$out" && failed=1
rm -f "$out.suites" "$out.check" "$out.checkpatch" "$out.kbuild" "$out.fuzz" \
	"$out.property"
exit "$failed"
