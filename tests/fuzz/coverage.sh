#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The minimised corpus must reach every branch of the parsers, both ways.
# Builds each fuzz target with gcc's coverage instrumentation and a small
# driver that feeds it the files of corpus/TARGET and regressions/TARGET,
# then reads gcov's branch counts for the parsing functions of wire.c and
# roce.c.  The builders, the checksum writer and the name tables are not
# parsers (the unit suites cover them).
# Usage: tests/fuzz/coverage.sh OUT_DIR
# Prints, per file, the branches taken both ways, lists any that is not
# (file, line, function), and exits non-zero then.

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=$1
rc=0

# Functions that are not parsing: building messages, writing checksums,
# naming results.
not_parsers='^(build_.*|crem_wire_build|crem_ipv4_set_checksum|crem_wire_reason_name|crem_roce_result_name)$'

for target in wire roce; do
	dir=$out/$target
	rm -rf "$dir"
	mkdir -p "$dir"
	cat > "$dir/replay.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Each file named is one input, as libFuzzer gives it. */
int main(int argc, char **argv)
{
	static uint8_t buf[1 << 20];
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		size_t n;

		if (!f)
			return 2;
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
	}
	return 0;
}
EOF
	(cd "$dir" && gcc -O0 --coverage -I"$repo" -I"$repo/include/uapi" \
		replay.c "$repo/tests/fuzz/fuzz_$target.c" "$repo/crem/core/wire.c" \
		"$repo/crem/core/roce.c" "$repo/crem/core/port_user.c" -o replay)
	find "$here/corpus/$target" "$here/regressions/$target" -type f ! -name '.*' \
		-print0 2>/dev/null | (cd "$dir" && xargs -0 ./replay)
	(cd "$dir" && gcov -b -o "replay-$target.gcda" "$repo/crem/core/$target.c" > gcov.log)
	# Per branch of a parsing function: "LINE FUNCTION" when it was never
	# taken; a count of the branches seen on the first line.
	awk -v skip="$not_parsers" '
		/^function / { fn = $2; parser = fn !~ skip; next }
		/^ *[-#0-9=]+\*?: *[0-9]+:/ { split($0, f, ":"); line = f[2] + 0; next }
		/^branch / && parser {
			n++
			if ($0 ~ /never executed|taken 0%/) { miss[++m] = line " " fn }
		}
		END {
			print n + 0
			for (i = 1; i <= m; i++) print miss[i]
		}' "$dir/$target.c.gcov" > "$dir/branches"
	total=$(head -n 1 "$dir/branches")
	missed=$(tail -n +2 "$dir/branches" | sort -n | uniq -c)
	if [ "$total" -gt 0 ] && [ -z "$missed" ]; then
		echo "$target.c: the corpus takes all $total branches of its parsers"
	else
		echo "$target.c: of $total branches of its parsers, some were never taken (count, line, function):"
		echo "$missed" | sed 's/^/  /'
		rc=1
	fi
done
exit "$rc"
