#!/bin/sh
# tests/integration/test_stream.sh - the `stream` applet end to end: the
# classic STREAM text layout and its validation, the JSON (system info and
# every sample) and CSV outputs, labels, the `stream` symlink form, tuned
# variants, --list, pinned threads, and the selftest applet.
. tests/integration/lib.sh

KERNELS="Copy Scale Add Triad"
[ -n "${BB_ABS:-}" ] || BB_ABS=$(cd "$(dirname "$BB")" && pwd)/$(basename "$BB")

# ---- the classic text output ----
expect_exit 0 "stream -s 1M -N 3 exits 0" -- $BB stream -s 1M -N 3
cp "$TMPD/out" "$TMPD/text"
expect_grep "^Solution Validates" "$TMPD/text" "stream -s 1M -N 3 prints Solution Validates"
expect_grep "^This system uses 8 bytes per DOUBLE PRECISION word\.$" "$TMPD/text" \
	"stream prints the bytes per DOUBLE PRECISION word line"
expect_grep "^Array size = 1048576, Offset = 0$" "$TMPD/text" "stream prints the array size line"
expect_grep "^Function  *Rate (MB/s)  *Avg time  *Min time  *Max time$" "$TMPD/text" \
	"stream prints the Function/Rate (MB/s) table header"
for k in $KERNELS; do
	expect_grep "^$k: *[0-9][0-9.]* *[0-9.]* *[0-9.]* *[0-9.]*$" "$TMPD/text" \
		"stream table has a $k row with rate and times"
done
expect_grep "clock granularity/precision appears to be" "$TMPD/text" \
	"stream prints the clock granularity lines"
[ ! -s "$TMPD/err" ]
tap $? "stream -s 1M -N 3 prints nothing on stderr"

# ---- JSON, CSV and labels ----
N=4
expect_exit 0 "stream with --json, --csv and --label exits 0" -- \
	$BB stream -s 1M -N $N --json "$TMPD/s.json" --csv "$TMPD/s.csv" --label PMU=0
expect_grep "^Solution Validates" "$TMPD/out" "text output is still printed with --json"
jq -e . "$TMPD/s.json" >/dev/null 2>&1
tap $? "--json output parses with jq"

jqt() {  # jq-expression description: passes when the expression is true
	jq -e "$1" "$TMPD/s.json" >/dev/null 2>&1
	tap $? "$2"
}
jqt '.schema_version | type == "number"' "JSON has a numeric schema_version"
jqt '.system.cpu_model | type == "string" and length > 0' "JSON system has cpu_model"
jqt '.system.caches | type == "array"' "JSON system has caches"
jqt '.system.mem_total_bytes > 0' "JSON system has mem_total_bytes"
jqt '.system.hostname | type == "string" and length > 0' "JSON system has hostname"
jqt '.system.compiler | test("^(gcc|clang) ")' "JSON system has the compiler"
jqt '.labels.PMU == "0"' "--label PMU=0 is in the JSON labels"
jqt '[.results[] | select(.applet == "stream")] | length == 1' "JSON has one stream result"
jqt '.results[0].status == "ok"' "JSON stream result is ok"
for k in $KERNELS; do
	jqt "[.results[0].series[] | select(.name == \"$k\" and .variant == \"c\")] | length == 1" \
		"JSON has one $k series"
	jqt ".results[0].series[] | select(.name == \"$k\") |
	     (.samples | length == $N) and .discard == 1 and all(.samples[]; . > 0)" \
		"JSON $k series holds exactly $N positive samples with discard 1"
	jqt ".results[0].series[] | select(.name == \"$k\") | .values.best_rate_Bps > 0" \
		"JSON $k series has a best rate"
done

rows=$(grep -vc '^calib,' "$TMPD/s.csv")
[ "$rows" -eq $((1 + 4 * N)) ]
tap $? "--csv has a header and 4*$N sample rows (got $rows lines)"
[ "$(grep -c '^calib,add_chain,' "$TMPD/s.csv")" -eq 6 ]
tap $? "--csv also has the 6 timings of the CPU's speed, before and after"
jqt '.results[-1].applet == "calib" and (.results[-1].series[0].samples | length) == 6' \
	"JSON ends with the calib result: 3 timings before the measurement, 3 after"
head -1 "$TMPD/s.csv" | grep -q '^applet,'
tap $? "--csv starts with a header row"
[ "$(grep -c '^stream,Triad,c,' "$TMPD/s.csv")" -eq $N ]
tap $? "--csv has $N Triad rows"
[ -z "$(find "$TMPD" -name '*.tmp.*')" ]
tap $? "no temporary files left after writing JSON and CSV"

# ---- the symlink form ----
mkdir "$TMPD/bin"
ln -s "$BB_ABS" "$TMPD/bin/stream"
expect_exit 0 "stream symlink: stream -s 1M -N 3 exits 0" -- "$TMPD/bin/stream" -s 1M -N 3
expect_grep "^Solution Validates" "$TMPD/out" "stream symlink validates"
expect_grep "^Array size = 1048576, Offset = 0$" "$TMPD/out" "stream symlink prints the STREAM layout"
sed -n '/^Function/,/^Triad:/s/ .*//p' "$TMPD/out" >"$TMPD/rows.link"
sed -n '/^Function/,/^Triad:/s/ .*//p' "$TMPD/text" >"$TMPD/rows.cmd"
cmp -s "$TMPD/rows.link" "$TMPD/rows.cmd" && [ -s "$TMPD/rows.cmd" ]
tap $? "stream symlink prints the same table as boardbench stream"
expect_exit 0 "stream symlink --help exits 0" -- "$TMPD/bin/stream" --help
expect_grep "usage: boardbench stream" "$TMPD/out" "stream symlink --help is the stream help"
expect_exit 2 "stream symlink rejects a bad option with exit 2" -- "$TMPD/bin/stream" -N 1

# ---- variants: --list and --tuned ----
expect_exit 0 "stream --list exits 0" -- $BB stream --list
cp "$TMPD/out" "$TMPD/list"
expect_grep "^  c  *supported " "$TMPD/list" "stream --list shows the plain C variant as supported"
# The tuned variants depend on the CPU (SSE2, AVX, ...): each is listed as
# one or the other, never assumed present or absent.
awk '/^  / { n++; if ($2 != "supported" && $2 != "unsupported") bad = 1 } END { exit bad || n < 1 }' \
	"$TMPD/list"
tap $? "stream --list says supported or unsupported for every variant"
tuned_ok=$(awk '$2 == "supported" && $3 ~ /^tuned/ { print $1 }' "$TMPD/list")
tuned_no=$(awk '$2 == "unsupported" && $3 ~ /^tuned/ { print $1 }' "$TMPD/list")
nt_ok=$(awk '$2 == "supported" && $3 == "tuned,nt" { print $1 }' "$TMPD/list")
# Non-temporal rows say, in --list, that they skip the write-allocate reads.
awk '$3 == "tuned,nt" && !/write-allocate/ { bad = 1 } END { exit bad }' "$TMPD/list"
tap $? "stream --list: every nt variant's description names the write-allocate reads it skips"
expect_exit 0 "stream --tuned exits 0" -- $BB stream -s 1M -N 3 --tuned --json "$TMPD/tuned.json"
for v in $tuned_ok; do
	expect_grep "^tuned STREAM: $v " "$TMPD/out" "stream --tuned prints \"tuned STREAM\" for $v"
done
for v in $nt_ok; do
	expect_grep "^note: $v's non-temporal stores skip the write-allocate read" "$TMPD/out" \
		"stream --tuned notes that $v skips the write-allocate reads"
	jq -e --arg v "$v" '[.results[] | select(.applet == "stream") | .series[]
		| select(.variant == $v) | .values.skips_write_allocate] | all(. == 1)' \
		"$TMPD/tuned.json" >/dev/null 2>&1
	tap $? "stream --json: $v's series say skips_write_allocate = 1"
done
jq -e '[.results[] | select(.applet == "stream") | .series[] | select(.variant == "c")
	| .values.skips_write_allocate] | all(. == 0)' "$TMPD/tuned.json" >/dev/null 2>&1
tap $? "stream --json: the c variant's series say skips_write_allocate = 0"
! grep -q "^note: c's" "$TMPD/out"
tap $? "stream --tuned prints no write-allocate note for c"
for v in $tuned_no; do
	grep "^unsupported on this CPU" "$TMPD/out" | grep -q "$v"
	tap $? "stream --tuned lists $v as unsupported"
done
want=$((1 + $(echo $tuned_ok | wc -w)))
[ "$(grep -c '^Solution Validates' "$TMPD/out")" -eq "$want" ]
tap $? "stream --tuned validates each of its $want variants"
if [ -n "$tuned_ok" ]; then
	v=$(echo $tuned_ok | cut -d' ' -f1)
	expect_exit 0 "stream --variant $v exits 0" -- $BB stream -s 64K -N 3 --variant "$v"
	expect_grep "^tuned STREAM: $v " "$TMPD/out" "stream --variant $v is labelled tuned STREAM"
else
	tap 0 "no tuned variant on this CPU # SKIP"
fi

# ---- threads and pinning ----
expect_exit 0 "stream -t 1 --pin exits 0" -- $BB stream -s 1M -N 3 -t 1 --pin
expect_grep "^Solution Validates" "$TMPD/out" "stream -t 1 --pin validates"
expect_grep "^Number of Threads requested = 1$" "$TMPD/out" "stream -t 1 runs one thread"
expect_grep "^Threads pinned = yes" "$TMPD/out" "stream --pin reports the threads pinned"
expect_exit 0 "stream -t 2 --pin exits 0" -- $BB stream -s 1M -N 3 -t 2 --pin
expect_grep "^Solution Validates" "$TMPD/out" "stream -t 2 --pin validates"
expect_exit 0 "stream -t 3 (odd split, 16 elements) exits 0" -- $BB stream -s 16 -N 2 -t 3
expect_grep "^Solution Validates" "$TMPD/out" "stream with more threads than blocks validates"

# ---- selftest ----
expect_exit 0 "selftest exits 0" -- $BB selftest
expect_grep "all checks passed" "$TMPD/out" "selftest reports all checks passed"
expect_exit 0 "selftest --only stream -v exits 0" -- $BB selftest --only stream -v
