#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# labbench_report.sh CSV PNG: the table of make labbench's results (one
# line a row: goodput with and without crem as a ratio to the lossless
# runs of the same boot, the spread of the runs with crem, the goal, and
# the data receiver's losses by their end; the spreads are each mode's
# lowest and highest run over the lossless median), and a bar plot of the ratios
# in PNG (gnuplot; left out, with a word, when gnuplot is missing).

set -euo pipefail

csv=$1
png=$2
[ -s "$csv" ] || { echo "labbench: no results in $csv" >&2; exit 1; }

printf '%-44s %12s %6s %10s %7s %10s %7s %6s  %s\n' \
	row "lossless" "off/ll" "off range" "on/ll" "on range" "on/off" goal \
	"losses: restored, late / left to RDMA: unprot, no rep, hold, coded late, incompl, limits"
tail -n +2 "$csv" | awk -F, '{
	name = sprintf("%s -q%s %sms %s%% %s", $1, $2, $3, $4, $5)
	if ($7 > 0) name = name " (" $7 " runs failed)"
	if ($28 > 0) name = name " (" $28 " checks failed)"
	range = $8 > 0 ? sprintf("%.2f-%.2f", $11 / $8, $12 / $8) : "-"
	orange = ($8 > 0 && $31 != "") ? sprintf("%.2f-%.2f", $31 / $8, $32 / $8) : "-"
	met = ""
	if ($16 != "-") {
		got = ($4 == 0) ? $15 : $14
		met = (got >= $16) ? " met" : " MISSED"
	}
	br = ($17 == "") ? "-" : sprintf("%s: %s, %s / %s, %s, %s, %s, %s, %s",
		$17, $18, $19, $20, $21, $22, $23, $24, $25)
	printf "%-44s %7.2f MB/s %5.2f %10s %7.2f %10s %7.2f %6s%s  %s\n",
		name, $8, $13, orange, $14, range, $15, $16, met, br
	if ($26 != "")
		printf "%-44s atomics: %s ops/s off, %s ops/s on\n", "", $26, $27
	if ($4 > 0 && $14 < $13) printf "%-44s crem on below crem off\n", ""
}'

if ! command -v gnuplot > /dev/null; then
	echo "labbench: gnuplot is missing (make deps); no plot" >&2
	exit 0
fi
data=$(mktemp)
trap 'rm -f "$data"' EXIT
tail -n +2 "$csv" | awk -F, '{
	printf "\"%s q%s %sms %s%% %s\" %s %s\n", $1, $2, $3, $4, $5, $13, $14 }' |
	sed 's/ib_\([a-z]*\)_bw/\1/' > "$data"
rows=$(wc -l < "$data")
gnuplot <<EOF
set terminal png size $((640 + 40 * rows)),640
set output "$png"
set title "crem labbench: goodput / lossless, medians (crem's defaults)"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:1.2]
set ylabel "goodput / lossless"
set xtics rotate by -60 font ",8"
set grid ytics
set key top right
plot "$data" using 2:xtic(1) title "crem off", "" using 3 title "crem on"
EOF
echo "labbench: plot $png"
