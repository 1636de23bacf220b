# SPDX-License-Identifier: GPL-2.0
#
# Count the results of a KTAP or TAP stream, nested to any depth.
# Prints "PASSED FAILED SKIPPED".
#
# Each leaf result (one with no subtests) counts once.  A parent result
# counts only when it fails although none of its subtests did, for example
# when a suite's setup failed or a guest died before printing everything.
function indent(line)
{
	match(line, /^ */)
	return RLENGTH
}

/^ *(ok|not ok) [0-9]+/ {
	d = indent($0)
	failing = ($0 ~ /^ *not ok/)
	if (!has_children[d]) {
		if ($0 ~ /# *SKIP/)
			skipped++
		else if (failing)
			failed++
		else
			passed++
	} else if (failing && !failed_below[d]) {
		failed++
	}
	for (k in has_children)
		if (k + 0 >= d) {
			has_children[k] = 0
			failed_below[k] = 0
		}
	for (k = 0; k < d; k++) {
		has_children[k] = 1
		if (failing)
			failed_below[k] = 1
	}
}

END { print passed + 0, failed + 0, skipped + 0 }
