#!/bin/sh
# tests/integration/test_mem.sh - the `mem` applet end to end: the seed
# report's comparison table (tot), the page and sweep modes on small sizes
# (the doubling series and an explicit --sizes list),
# --list, --json with every sample, the quick-suite row, the selftest row,
# and exit status 2 with one line for every bad value.  The variants of a
# row alternate round by round: the text says so, the JSON records it,
# and every series keeps the same samples, in the same order, as when the
# variants ran one after another.
. tests/integration/lib.sh

# ---- tot: the seed's table ----
expect_exit 0 "mem tot --variant libc,words exits 0" -- $BB mem tot --variant libc,words -n 2
cp "$TMPD/out" "$TMPD/tot"
expect_grep "^  *libc  *words  improvement$" "$TMPD/tot" \
	"tot prints the seed's header: one column per variant, then improvement"
# A row as src/bench/mem_render.c prints it: a count is "%.0f" from 100 up
# (any number of digits: ns on a slow board run to 10^8 and more) and
# "%.1f" below (86.5 ticks per page on an AVX-512 Xeon, 0.4 on a board
# whose timer ticks slower than it copies; 99.96 rounds to "100.0"); the
# improvement is "%5.1f%%", any sign and width (-276.7% when the variant
# is slower).  "n/a" is left out: libc and words have code for every row.
COUNT='([1-9][0-9]{2,}|[1-9]?[0-9]\.[0-9]|100\.0)'
IMPROVEMENT='-?(0|[1-9][0-9]*)\.[0-9]%'
tot_row() {  # row -> the ERE of that row with two counts and an improvement
	echo "^$1 +$COUNT +$COUNT +$IMPROVEMENT\$"
}
for line in "tot_copy_page    86.5     326 -276.7%" "tot_clear_page    0.4     0.3  25.0%" \
	"tot_memcpy      123456789 100.0  100.0%" "tot_memset        99.9     100  -0.1%"; do
	echo "$line" | grep -Eq "$(tot_row "${line%% *}")"
	tap $? "the row pattern accepts a form the renderer prints: '$line'"
done
for line in "tot_copy_page    86     326   5.0%" "tot_copy_page    n/a     326   n/a" \
	"tot_copy_page  1e+05     326   5.0%" "tot_copy_page    086.5   326   5.0%" \
	"tot_copy_page    86.5    326  05.0%" \
	"tot_copy_page    86.5    326   5%" "tot_copy_page    inf     326   5.0%" \
	"tot_copy_page    86.5    326"; do
	! echo "$line" | grep -Eq "$(tot_row "${line%% *}")"
	tap $? "the row pattern rejects what the renderer never prints: '$line'"
done
for row in tot_memcpy tot_memset tot_copy_page tot_clear_page; do
	grep -Eq "$(tot_row $row)" "$TMPD/tot"
	tap $? "tot has a $row row with two counts and an improvement"
	grep -Eq "$(tot_row $row)" "$TMPD/tot" || grep "^$row " "$TMPD/tot" | sed 's/^/#   /'
done
expect_grep "every length 2\.\.4095, 4 times" "$TMPD/tot" "tot says how the total is made"
expect_grep "^counts: .* \(cycles\|ticks\|ns\) at " "$TMPD/tot" "tot names the counter and its unit"
expect_grep "^validation: every result checked" "$TMPD/tot" "tot says results were validated"
expect_grep "^rounds: variants alternate round by round (ABAB\.\.\., the first rotating)$" \
	"$TMPD/tot" "tot says the variants alternate round by round"
[ ! -s "$TMPD/err" ]
tap $? "mem tot prints nothing on stderr"

expect_exit 0 "mem with three variants exits 0" -- $BB mem --variant libc,bytes,words -n 1 \
	--op memcpy
expect_grep "^improvement against libc:$" "$TMPD/out" \
	"more than two variants: an improvement block against the baseline"
expect_exit 0 "--baseline words puts words first" -- $BB mem --variant libc,words \
	--baseline words -n 1 --op memset
expect_grep "^  *words  *libc  improvement$" "$TMPD/out" "the baseline is the first column"

# ---- JSON: every sample of every cell ----
expect_exit 0 "mem tot --json exits 0" -- $BB mem tot --variant libc,words -n 3 \
	--json "$TMPD/m.json" --label board=test
jqt() {  # jq-expression description
	jq -e "$1" "$TMPD/m.json" >/dev/null 2>&1
	tap $? "$2"
}
jqt '.results[0].applet == "mem" and .results[0].status == "ok"' "JSON has an ok mem result"
jqt '[.results[0].series[] | select(.name == "tot_memcpy")] | length == 2' \
	"JSON has a tot_memcpy series per variant"
jqt '[.results[0].series[] | .samples | length == 4] | all' \
	"every series keeps all 4 samples (1 warm-up + 3)"
jqt '[.results[0].series[] | .discard == 1] | all' "the warm-up sample is marked discarded"
jqt '.results[0].params.baseline == "libc" and .results[0].params.variants == "libc,words"' \
	"JSON records the variants and the baseline"
jqt '.results[0].params.counter_unit | test("^(cycles|ticks|ns)$")' "JSON records the counter unit"
jqt '.labels.board == "test"' "--label is in the JSON"
jqt '.results[0].params.rounds == "alternating"' "JSON records that the variants alternate"
jqt '[.results[0].series[] | "\(.name) \(.variant)"] == ["tot_memcpy libc", "tot_memcpy words",
	"tot_memset libc", "tot_memset words", "tot_copy_page libc", "tot_copy_page words",
	"tot_clear_page libc", "tot_clear_page words"]' \
	"one series per row and variant, in table order, as before the rounds alternated"
jqt '[.results[0].series[] | .values.best > 0 and .values.median > 0] | all' \
	"every tot series has its best and median"

expect_exit 0 "mem with one variant exits 0" -- $BB mem tot --variant libc -n 1 --op memcpy
! grep -q "^rounds:" "$TMPD/out"
tap $? "one variant: no note about alternating"

# ---- page and sweep, kept small ----
expect_exit 0 "mem page with a small arena exits 0" -- $BB mem page --variant libc,words \
	--arena 4M -n 1 --json "$TMPD/p.json"
expect_grep "^rounds: variants alternate round by round" "$TMPD/out" \
	"page says the variants alternate round by round"
jq -e '[.results[0].series[] | "\(.name) \(.variant) \(.samples | length) \(.discard)"] ==
	["copy_page hot libc 2 1", "copy_page cold libc 2 1", "copy_page cold+use libc 2 1",
	 "copy_page hot words 2 1", "copy_page cold words 2 1", "copy_page cold+use words 2 1",
	 "clear_page hot libc 2 1", "clear_page cold libc 2 1", "clear_page cold+use libc 2 1",
	 "clear_page hot words 2 1", "clear_page cold words 2 1", "clear_page cold+use words 2 1"]' \
	"$TMPD/p.json" >/dev/null 2>&1
tap $? "page JSON: the same series in the same order, each 1 warm-up + 1 sample"
for row in "copy_page hot" "copy_page cold" "copy_page cold+use" "clear_page cold+use"; do
	expect_grep "^$row  *[0-9]" "$TMPD/out" "page has a '$row' row"
done
expect_exit 0 "mem sweep exits 0" -- $BB mem sweep --variant libc,words --max-size 8K -n 1 \
	--op memcpy,read --json "$TMPD/s.json"
expect_grep "GB = 10^9 bytes; each byte copied is counted once" "$TMPD/out" \
	"sweep says GB = 10^9 and how bytes are counted"
expect_grep "^ *64 B  *[0-9.]*  *[0-9.]*$" "$TMPD/out" "sweep starts at 64 B"
expect_grep "^ *8 KiB  *[0-9.]*  *[0-9.]*$" "$TMPD/out" "sweep ends at --max-size"
expect_grep "^ *size  *words$" "$TMPD/out" "libc has no read: the read table leaves it out"
jq -e '[.results[0].series[] | select(.name | startswith("memcpy:")) | .values.size_bytes]
	| unique | length == 29' "$TMPD/s.json" >/dev/null 2>&1
tap $? "sweep has 4 points per doubling from 64 B to 8 KiB (29 sizes)"
jq -e '[.results[0].series[] | select(.name | startswith("memcpy:")) | .values.best_GBps > 0]
	| all' "$TMPD/s.json" >/dev/null 2>&1
tap $? "every sweep point has a rate"

# sweep --sizes: exactly the sizes listed, ascending, each once
expect_exit 0 "mem sweep --sizes exits 0" -- $BB mem sweep --variant libc,words \
	--sizes 4K,64,1K,64 -n 1 --op memcpy,memset --json "$TMPD/z.json"
expect_grep "^ *64 B  *[0-9.]*  *[0-9.]*$" "$TMPD/out" "--sizes measures 64 B"
expect_grep "^ *4 KiB  *[0-9.]*  *[0-9.]*$" "$TMPD/out" "--sizes measures 4 KiB (K is binary)"
jq -e '[.results[0].series[] | select(.name | startswith("memcpy:")) | .values.size_bytes]
	| unique == [64, 1024, 4096]' "$TMPD/z.json" >/dev/null 2>&1
tap $? "--sizes measures only the sizes given, duplicates once"
jq -e '[.results[0].series[] | .name] == ["memcpy:64", "memcpy:64", "memset:64", "memset:64",
	"memcpy:1024", "memcpy:1024", "memset:1024", "memset:1024",
	"memcpy:4096", "memcpy:4096", "memset:4096", "memset:4096"]' "$TMPD/z.json" >/dev/null 2>&1
tap $? "--sizes runs in ascending order, every op and variant at each size"
jq -e '[.results[0].series[] | (.samples | length) == 2 and .discard == 1] | all' \
	"$TMPD/z.json" >/dev/null 2>&1
tap $? "every sweep series keeps 1 warm-up + 1 sample"
expect_grep "^rounds: variants alternate round by round" "$TMPD/out" \
	"sweep says the variants alternate round by round"
jq -e '.results[0].params.sizes == "64,1024,4096" and .results[0].params.max_size == 4096
	and (.results[0].params | has("points_per_doubling") | not)' "$TMPD/z.json" >/dev/null 2>&1
tap $? "JSON records the --sizes list and no doubling series"
jq -e '[.results[0].series[] | .values.best_GBps > 0 and .values.median_GBps > 0] | all' \
	"$TMPD/z.json" >/dev/null 2>&1
tap $? "every --sizes point has a best and a median rate"

# ---- --list, selftest, quick suite ----
expect_exit 0 "mem --list exits 0" -- $BB mem --list
for v in libc bytes words; do
	expect_grep "^  $v  *supported " "$TMPD/out" "--list shows $v as supported"
done
# The arch variants (avx2, avx512, neon, ...) depend on the CPU: each is
# listed as one or the other, never assumed present or absent.
awk 'NR > 1 && $2 != "supported" && $2 != "unsupported" { bad = 1 } END { exit bad || NR < 4 }' \
	"$TMPD/out"
tap $? "--list says supported or unsupported for every variant"
expect_exit 0 "selftest --only mem passes" -- $BB selftest --only mem
expect_grep "^mem words  *pass " "$TMPD/out" "selftest prints a pass line per variant"

# ---- bad input: one line, exit 2 ----
bad() {  # description, arguments...
	what=$1
	shift
	expect_exit 2 "$what exits 2" -- $BB mem "$@"
	[ "$(wc -l <"$TMPD/err")" -eq 1 ]
	tap $? "$what: one line on stderr"
}
bad "unknown variant" --variant libc,nosuch
bad "empty variant list" --variant ""
bad "unknown baseline" --baseline nosuch
bad "unknown mode" nosuch
bad "two modes" tot page
bad "--repeat 0" -n 0
bad "--repeat junk" --repeat 5x
bad "--op for the wrong mode" page --op memcpy
bad "unknown --op" --op memmove
bad "--min-size too small" sweep --min-size 1
bad "--max-size below --min-size" sweep --min-size 4K --max-size 1K
bad "--arena too small" page --arena 4K
bad "--sizes below 16 bytes" sweep --sizes 64,8
bad "--sizes junk" sweep --sizes 64,4Q
bad "--sizes empty item" sweep --sizes 64,,4K
bad "--sizes empty" sweep --sizes ""
bad "--sizes trailing comma" sweep --sizes 64,
bad "--sizes above 1T" sweep --sizes 2048G
bad "--sizes in tot mode" tot --sizes 64
bad "--sizes with --max-size" sweep --sizes 64 --max-size 1M
bad "--sizes with --min-size" sweep --sizes 64 --min-size 64
bad "more than 32 --sizes" sweep --sizes \
	16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48
bad "unknown option" --frobnicate
