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

# ---- tot: the classic report's table ----
expect_exit 0 "mem tot --variant libc,words exits 0" -- $BB mem tot --variant libc,words -n 2
cp "$TMPD/out" "$TMPD/tot"
expect_grep "^  *libc  *words  improvement$" "$TMPD/tot" \
	"tot prints the classic report's header: one column per variant, then improvement"
# A row as src/applets/mem/mem_render.c prints it: a count is "%.0f" from 100 up
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

# ---- tot: the average of the passes (the report's figure), then the best ----
expect_grep "^tot, the average of 2 passes (as the report printed it):$" "$TMPD/tot" \
	"tot prints the report's table: the average of the passes (-n 2)"
expect_grep "^tot, the best of the 2 passes:$" "$TMPD/tot" "tot prints the best pass's table too"
avg_at=$(grep -n "^tot, the average of" "$TMPD/tot" | cut -d: -f1)
best_at=$(grep -n "^tot, the best of" "$TMPD/tot" | cut -d: -f1)
[ -n "$avg_at" ] && [ -n "$best_at" ] && [ "$avg_at" -lt "$best_at" ]
tap $? "the average comes first, as the report printed it, the best after it"
for row in tot_memcpy tot_copy_page; do
	[ "$(grep -Ec "$(tot_row $row)" "$TMPD/tot")" -eq 2 ]
	tap $? "$row has a row in each table"
done
expect_grep "average and best of 2 samples after a warm-up" "$TMPD/tot" \
	"the note says the table shows the average and the best"

# The default: 4 passes, as the report's "averaged over 4 test runs"; the
# text's average row is the JSON's avg, the mean of the kept samples.
expect_exit 0 "mem tot with the default passes exits 0" -- $BB mem tot --variant libc,words \
	--op memcpy --json "$TMPD/avg.json"
cp "$TMPD/out" "$TMPD/avg.txt"
expect_grep "^tot, the average of 4 passes (as the report printed it):$" "$TMPD/avg.txt" \
	"tot averages 4 passes by default"
jq -e '.results[0].params.repeat == 4 and
	([.results[0].series[] | .samples | length == 5] | all)' "$TMPD/avg.json" >/dev/null 2>&1
tap $? "JSON: 4 passes kept after a warm-up, repeat 4"
jq -e '[.results[0].series[] | (.samples[1:] | add / length) as $m
	| (.values.avg - $m | fabs) <= 1e-9 * $m and .values.avg == .stats.mean
	  and .values.best == (.samples[1:] | min) and .values.avg >= .values.best] | all' \
	"$TMPD/avg.json" >/dev/null 2>&1
tap $? "JSON: values.avg is the mean of the kept passes, values.best their minimum"
# The two rows as mem_render.c formats them: %.0f from 100 up, else %.1f.
fmt() {  # number -> as the table prints it
	awk -v v="$1" 'BEGIN { printf(v >= 100 ? "%.0f" : "%.1f", v) }'
}
for key in avg best; do
	a=$(fmt "$(jq '.results[0].series[0].values.'$key "$TMPD/avg.json")")
	b=$(fmt "$(jq '.results[0].series[1].values.'$key "$TMPD/avg.json")")
	grep -Eq "^tot_memcpy +$a +$b +$IMPROVEMENT\$" "$TMPD/avg.txt"
	tap $? "the text's $key row holds the JSON's $key values ($a, $b)"
done
sed -n '/^tot, the average/,/^tot_memcpy/p' "$TMPD/avg.txt" | grep -Eq "^tot_memcpy +$(fmt \
	"$(jq '.results[0].series[0].values.avg' "$TMPD/avg.json")") "
tap $? "the first table is the average's"

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
cp "$TMPD/out" "$TMPD/list"
expect_exit 0 "selftest --only mem passes" -- $BB selftest --only mem
cp "$TMPD/out" "$TMPD/selftest"
expect_grep "^mem words  *pass " "$TMPD/selftest" "selftest prints a pass line per variant"

# ---- the Geode report's 3dnow row: 32-bit x86 code ----
# An x86-64 build (its row is movsq; i386's is movsl) lists it with its
# operations as unsupported, never leaves it out; a 32-bit build runs it
# where CPUID allows and checks it like every variant.
if grep -q "^  movsq " "$TMPD/list"; then
	expect_grep "^  3dnow  *unsupported  *memcpy,copy_page,clear_page " "$TMPD/list" \
		"x86-64 lists 3dnow (memcpy, copy_page, clear_page) as unsupported"
	expect_grep "^mem 3dnow  *unsupported on this CPU, not checked$" "$TMPD/selftest" \
		"selftest names 3dnow as unsupported, not checked"
	expect_exit 0 "mem tot --variant movsq,3dnow exits 0 on x86-64" -- \
		$BB mem tot --variant movsq,3dnow -n 1 --op memcpy
	expect_grep "^unsupported on this CPU (not run): 3dnow$" "$TMPD/out" \
		"mem tot says 3dnow was not run"
	expect_grep "^ *movsq$" "$TMPD/out" "movsq alone makes the table"
	expect_exit 2 "--baseline 3dnow exits 2 on x86-64" -- $BB mem --baseline 3dnow
elif grep -q "^  movsl " "$TMPD/list"; then
	expect_grep "^  3dnow  *\(un\)\{0,1\}supported  *memcpy,copy_page,clear_page " "$TMPD/list" \
		"a 32-bit x86 build lists 3dnow"
	if grep -q "^  3dnow  *supported " "$TMPD/list"; then
		expect_grep "^mem 3dnow  *pass  *memcpy copy_page clear_page " "$TMPD/selftest" \
			"selftest checks 3dnow's three operations"
		expect_exit 0 "mem tot --variant movsl,3dnow exits 0" -- \
			$BB mem tot --variant movsl,3dnow -n 1
		expect_grep "^  *movsl  *3dnow  improvement$" "$TMPD/out" \
			"the report's No 3DNOW / w/ 3DNOW columns: movsl, 3dnow"
		expect_grep "^validation: every result checked" "$TMPD/out" "3dnow's results validate"
	fi
fi

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
