#!/bin/sh
# bench/compare_aa.sh - the A/A false-claim rate of `boardbench compare` on
# this machine: PAIRS pairs of real runs of the same build (stream and lat,
# small sizes, A and B taken alternately), each compared, and the share of
# metrics claimed "improved" or "regressed" counted.  On a quiet machine it
# should stay under 5%; on a shared, noisy one it shows how much run-to-run
# noise exceeds the noise within a run.  A measurement, never a test.
#
#   bench/compare_aa.sh [PAIRS]        (default 3; BB=path/to/boardbench)
set -u
BB=${BB:-./boardbench}
PAIRS=${1:-3}
case $PAIRS in ''|*[!0-9]*) echo "compare_aa.sh: PAIRS must be a number: '$PAIRS'" >&2; exit 2;; esac
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
total=0
claimed=0
i=0
while [ "$i" -lt "$PAIRS" ]; do
	for side in a b; do
		"$BB" stream -s 256K -N 12 --json "$D/$side-s.json" >/dev/null 2>&1 || exit 1
		"$BB" lat --min 4K --max 256K --samples 6 --json "$D/$side-l.json" >/dev/null 2>&1 || exit 1
	done
	"$BB" compare --csv "$D/out.csv" "$D/a-s.json" "$D/a-l.json" -- "$D/b-s.json" "$D/b-l.json" \
		>"$D/out.txt" 2>&1
	# Rows from the CSV (key ... verdict in column 23); the CPU-speed row
	# (calib) is the machine, not a metric.
	awk -F, 'NR > 1 && $2 != "calib" { print $1, $23 }' "$D/out.csv" >"$D/rows"
	t=$(grep -c ' \(improved\|regressed\|within noise\|no significant change\)$' "$D/rows")
	c=$(grep -c ' \(improved\|regressed\)$' "$D/rows")
	echo "pair $((i + 1)): $c of $t metrics claimed a change"
	grep -E ' (improved|regressed)$' "$D/rows" | sed 's/^/  claimed: /'
	total=$((total + t))
	claimed=$((claimed + c))
	i=$((i + 1))
done
echo "A/A: $claimed of $total metrics claimed a change over $PAIRS pairs ($(awk -v c="$claimed" -v t="$total" 'BEGIN { printf "%.1f", t ? 100 * c / t : 0 }')%)"
