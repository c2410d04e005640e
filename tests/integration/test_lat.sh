#!/bin/sh
# tests/integration/test_lat.sh - the `lat` applet end to end: a small
# curve (--max 4M) with its table and level estimates, the JSON with every
# sample, sequential mode, --hugepages saying what it got, the quick suite
# entry, and one-line exit-2 errors for bad values.
. tests/integration/lib.sh

# ---- a small run: the curve and the levels ----
expect_exit 0 "lat --max 4M exits 0" -- \
	$BB lat --max 4M --samples 3 --json "$TMPD/l.json" --csv "$TMPD/l.csv" --label board=x
cp "$TMPD/out" "$TMPD/text"
expect_grep "^order: random, lines shuffled within each page" "$TMPD/text" \
	"lat says the order is random within and across pages"
expect_grep "^ *size  *MiB  *ns/load  *min  *max$" "$TMPD/text" "lat prints the curve header"
expect_grep "^ *1 KiB  *0\.00098  *[0-9.]*  *[0-9.]*  *[0-9.]*$" "$TMPD/text" \
	"the curve starts at 1 KiB with ns/load, min and max"
expect_grep "^ *4 MiB  *4\.00000  *[0-9.]*" "$TMPD/text" "the curve ends at 4 MiB"
rows=$(grep -c "^ *[0-9.]* [KM]iB  *[0-9]" "$TMPD/text")
[ "$rows" -ge 49 ]
tap $? "at least 4 points per doubling from 1 KiB to 4 MiB ($rows rows)"
expect_grep "^Levels seen" "$TMPD/text" "lat prints the level estimates"
# How many plateaus a curve shows is the machine's (its caches, an
# emulator, a busy neighbour; core/plateau.c is tested on known curves in
# tests/unit/test_lat.c): the table shows what the JSON found, a row per
# level, the first named L1.
nlev=$(jq -r '.results[0].params.levels' "$TMPD/l.json" 2>/dev/null)
rows=$(sed -n '/^Levels seen/,/^sysfs claims/p' "$TMPD/text" | grep -c '^  \(L[0-9]\|past L[0-9]\|memory\)')
[ -n "$nlev" ] && [ "$rows" = "$nlev" ]
tap $? "a row per level the JSON holds ($rows rows, $nlev levels)"
if [ "${nlev:-0}" -gt 0 ]; then
	expect_grep "^  L1  *[0-9.]* [KMG]*i*B  *[0-9.]* [KMG]*i*B  *[0-9.]*  " "$TMPD/text" \
		"an L1 row with its sizes and latency"
else
	expect_grep "^  (no plateau found)$" "$TMPD/text" "no plateau: the table says so"
fi
expect_grep "^sysfs claims: " "$TMPD/text" "lat prints what sysfs claims"
[ ! -s "$TMPD/err" ]
tap $? "lat --max 4M prints nothing on stderr"

# ---- JSON and CSV ----
jqt() {  # jq-expression description
	jq -e "$1" "$TMPD/l.json" >/dev/null 2>&1
	tap $? "$2"
}
jqt '.results[0].applet == "lat"' "JSON has a lat result"
jqt '[.results[0].series[] | .samples | length == 3] | all' "JSON keeps all 3 samples of every size"
jqt '[.results[0].series[] | .work_unit == "loads" and .unit == "s"] | all' \
	"each sample is seconds for a counted number of loads"
jqt '.results[0].series[0].values.size_bytes == 1024' "the first size is 1024 bytes"
jqt '[.results[0].series[] | .values.ns_per_load_median > 0] | all' \
	"every size has a median ns per load"
# shellcheck disable=SC2016  # jq's variables, not the shell's
jqt '.results[0].params as $p | $p.levels >= 0 and
	([range(1; $p.levels + 1) | tostring | $p["level" + . + "_ns_per_load"] > 0] | all)' \
	"JSON holds the level estimates, each with its latency"
jqt '.results[0].params.stride_bytes >= 4' "JSON records the stride"
jqt '.labels.board == "x"' "JSON has the label"
n=$(jq '[.results[0].series[].samples | length] | add' "$TMPD/l.json")
lines=$(($(grep -vc '^calib,' "$TMPD/l.csv") - 1))
[ "$lines" -eq "$n" ]
tap $? "CSV has one row per sample ($lines rows, $n samples)"

# ---- modes and pages ----
expect_exit 0 "lat --mode sequential exits 0" -- $BB lat --mode sequential --max 64K --samples 1
expect_grep "^order: sequential" "$TMPD/out" "sequential mode says so"
expect_exit 0 "lat --hugepages exits 0" -- $BB lat --hugepages --max 256K --samples 1
grep -Eq "^stride: .*pages: (hugetlb|transparent huge pages|base .*no huge pages)" "$TMPD/out"
tap $? "--hugepages says which pages it got"
expect_exit 0 "lat --stride 128 --points-per-doubling 2 exits 0" -- \
	$BB lat --stride 128 --points-per-doubling 2 --min 4K --max 64K --samples 1
expect_grep "^stride: 128 bytes (--stride)" "$TMPD/out" "the stride comes from --stride"
rows=$(grep -c "^ *[0-9.]* [KM]iB  *[0-9]" "$TMPD/out")
[ "$rows" -eq 9 ]
tap $? "2 points per doubling from 4K to 64K give 9 sizes ($rows)"
$BB --list | grep -q "^  lat "
tap $? "boardbench --list shows lat"

# ---- bad values: one line, exit 2 ----
for bad in "--min 0" "--min 1x" "--max -4M" "--max 4Q" "--points-per-doubling 0" \
	"--points-per-doubling 65" "--samples 0" "--samples many" "--stride 48" \
	"--stride 2" "--mode zigzag" "--min 64" "--min 8M --max 4M" "--bogus" "extra"; do
	# shellcheck disable=SC2086
	expect_exit 2 "lat $bad exits 2" -- $BB lat $bad
	[ "$(wc -l <"$TMPD/err")" -eq 1 ]
	tap $? "lat $bad prints one line"
done
expect_exit 2 "lat --max without a value exits 2" -- $BB lat --max
$BB lat --max 4Q 2>&1 | grep -q "invalid value '4Q' for --max"
tap $? "the error names the option and the value"

# ---- a resource failure: exit 1 ----
# Twice MemAvailable, four times what lat may take, whatever the machine has.
avail_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
[ -n "$avail_kb" ] || avail_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
big=$((avail_kb * 2))K
expect_exit 1 "lat --max $big (more than half of MemAvailable) exits 1" -- $BB lat --max "$big"
[ "$(wc -l <"$TMPD/err")" -eq 1 ] && grep -q "more than half of MemAvailable" "$TMPD/err"
tap $? "lat --max $big prints one line saying so"
