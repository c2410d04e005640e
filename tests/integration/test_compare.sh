#!/bin/sh
# tests/integration/test_compare.sh - the `compare` applet end to end, on
# results files written here with known samples (results_fixture.sh) and
# on two real quick runs of the same build:
#   - a 9% regression is found as "regressed", with the seed-style summary
#     sentence, and --fail-on-regression exits 1 (0 without it);
#   - an improvement, a no-change pair, several runs a side ("--" and
#     directories), --variants, --filter and --csv;
#   - 3 or more runs a side are tested on per-run figures: runs that differ
#     by +-10% are not claimed as changed (3 vs 3: too few samples; 5 vs 5:
#     no significant change), an 8% shift with 6 runs a side is found;
#   - warnings when flags, governor or threads differ; labels in the header;
#   - bad results files and bad usage exit 2 with one line naming the file
#     and the key (or the option).
# A binary built without cJSON must say so and exit 1 instead.
. tests/integration/lib.sh
. tests/integration/results_fixture.sh

# bad CODE NEEDLES -- command...: exits CODE, nothing on stdout, exactly one
# line on stderr holding every '|'-separated needle.
bad() {
	code=$1; needles=$2; shift 3
	"$@" >"$TMPD/out" 2>"$TMPD/err"
	got=$?
	why=""
	[ "$got" -eq "$code" ] || why="$why exit $got;"
	[ -s "$TMPD/out" ] && why="$why stdout not empty;"
	[ "$(wc -l <"$TMPD/err")" -eq 1 ] || why="$why $(wc -l <"$TMPD/err") lines on stderr;"
	rest=$needles
	while [ -n "$rest" ]; do
		n=${rest%%|*}
		case $rest in *"|"*) rest=${rest#*|} ;; *) rest="" ;; esac
		grep -qF -- "$n" "$TMPD/err" || why="$why no '$n';"
	done
	if [ -z "$why" ]; then tap 0 "exit $code, one line: $needles"; else
		tap 1 "exit $code, one line: $needles:$why"
		sed 's/^/#   /' "$TMPD/err" | head -3
	fi
}

# ---- a binary without cJSON says so ----
$BB compare "$TMPD/none-a.json" "$TMPD/none-b.json" >"$TMPD/out" 2>"$TMPD/err"
if [ $? -eq 1 ] && grep -q "built without cJSON" "$TMPD/err"; then
	tap 0 "compare in a binary built without cJSON says so and exits 1"
	expect_exit 0 "compare --help still works" -- $BB compare --help
	bad 2 "--bogus" -- $BB compare --bogus
	bad 1 "built without cJSON" -- $BB report -o "$TMPD/r.html" "$TMPD/x.json"
	exit 0
fi

D=$TMPD/runs
mkdir -p "$D/A" "$D/B"
mkrun "$D/a.json" label=PMU=1
mkrun "$D/a2.json" label=PMU=1 noise=2
mkrun "$D/same.json" label=PMU=0 noise=2
mkrun "$D/slow.json" label=PMU=0 scale=1.1 noise=2
mkrun "$D/fast.json" label=PMU=0 scale=0.95 noise=2
mkrun "$D/fast2.json" label=PMU=0 scale=0.95
mkrun "$D/env.json" label=PMU=0 noise=2 governor=powersave cflags=-O3 threads=1
mkrun "$D/var.json" variants="c fast" fast=0.8

# rows VERDICT FILE: how many metric rows of FILE carry this verdict.
rows() { grep -cE "^  [a-z].*[0-9%]  $1( |\$)" "$2"; }

# ---- a known regression ----
expect_exit 0 "compare a regression exits 0 without --fail-on-regression" -- \
	$BB compare "$D/a.json" "$D/slow.json"
cp "$TMPD/out" "$TMPD/slow.txt"
[ "$(rows regressed "$TMPD/slow.txt")" -eq 4 ]
tap $? "a 9% slower run: all 4 STREAM kernels regressed (and printed: they are claims)"
expect_grep "^  stream.triad.c.bandwidth  *15992  *14545 MB/s  *-9.0% .* regressed  *headline$" \
	"$TMPD/slow.txt" "the change of Triad is -9.0% (14545 / 15992), and Triad is stream's headline"
expect_grep "^stream  B slower: stream.triad.c.bandwidth 15992 -> 14545 MB/s, -9.0% \[" \
	"$TMPD/slow.txt" "the summary quotes Triad in MB/s, B relative to A"
expect_grep "^stream .*(pooled samples, 1 run a side, p<0.001); 4 of 4 metrics slower, -9.0%$" \
	"$TMPD/slow.txt" "  ... with the basis, the p bound and how many metrics"
expect_grep "^Summary: B against A (alpha 0.05 over the whole suite, shared by 1 applet;" \
	"$TMPD/slow.txt" "  ... under a header that names the suite-wide control"
[ "$(grep -n '^Summary' "$TMPD/slow.txt" | cut -d: -f1)" -lt \
  "$(grep -n '^  metric ' "$TMPD/slow.txt" | head -1 | cut -d: -f1)" ]
tap $? "the summary comes before the table"
expect_grep "^A: PMU=1 " "$TMPD/slow.txt" "the header shows A's label"
expect_grep "^B: PMU=0 " "$TMPD/slow.txt" "the header shows B's label"
expect_exit 1 "--fail-on-regression exits 1 on a regression" -- \
	$BB compare --fail-on-regression "$D/a.json" "$D/slow.json"
expect_exit 0 "--fail-on-regression exits 0 when nothing regressed" -- \
	$BB compare --fail-on-regression "$D/a.json" "$D/fast.json"
expect_exit 0 "a 10% change under a 15% threshold is not a regression" -- \
	$BB compare --fail-on-regression --threshold 15% --all "$D/a.json" "$D/slow.json"
[ "$(rows 'within noise .*held by the 15% noise threshold' "$TMPD/out")" -eq 4 ]
tap $? "  ... each row says the 15% noise threshold held it"
expect_grep "^stream  no change found in 4 metrics (4 held by a threshold)" "$TMPD/out" \
	"  ... and the summary says so"

# ---- improvement, no change ----
$BB compare "$D/a.json" "$D/fast.json" >"$TMPD/fast.txt" 2>&1
expect_grep "^stream  B faster: stream.triad.c.bandwidth 15992 -> 16842 MB/s, +5.3% " \
	"$TMPD/fast.txt" "a 5% faster run: B faster, Triad +5.3%"
[ "$(rows improved "$TMPD/fast.txt")" -eq 4 ]
tap $? "  ... improved on all 4 kernels"
$BB compare "$D/a.json" "$D/same.json" >"$TMPD/same.txt" 2>&1
[ "$(rows 'no significant change' "$TMPD/same.txt")" -eq 1 ]
tap $? "the same samples in another order: only the headline row is printed, unclaimed"
expect_grep "^(3 more metrics with no claim: --all prints them)$" "$TMPD/same.txt" \
	"  ... and the others are counted"
$BB compare --all "$D/a.json" "$D/same.json" >"$TMPD/all.txt" 2>&1
[ "$(rows 'no significant change' "$TMPD/all.txt")" -eq 4 ]
tap $? "  ... --all prints all 4, no significant change"
expect_grep "^stream  no change found in 4 metrics; power unknown: fewer than 3 runs a side" \
	"$TMPD/same.txt" "  ... the summary says so, and that one run cannot tell the power"
! grep -v "^warning: a side is a single run" "$TMPD/same.txt" | grep -q "^warning"
tap $? "no warning when only the label differs (beyond the single-run one)"
expect_grep "^warning: a side is a single run" "$TMPD/same.txt" \
	"  ... one run a side: warns that run-to-run noise is not seen"

# ---- several runs a side ----
expect_exit 0 "compare A1 A2 -- B1 B2 exits 0" -- \
	$BB compare --csv "$TMPD/pooled.csv" "$D/a.json" "$D/a2.json" -- "$D/fast.json" "$D/fast2.json"
expect_grep "(2 runs: " "$TMPD/out" "the header counts 2 runs a side"
awk -F, 'NR > 1 && ($6 != 20 || $7 != 20) { bad = 1 } END { exit bad || NR != 5 }' "$TMPD/pooled.csv"
tap $? "--csv: 4 rows, each pooling 20 samples a side"
head -1 "$TMPD/pooled.csv" |
	grep -q '^key,applet,quantity,unit,better,n_a,n_b,headline,figure_a,figure_b,estimator,'
tap $? "--csv has its header"
cp "$D/a.json" "$D/a2.json" "$D/A/"
cp "$D/fast.json" "$D/fast2.json" "$D/B/"
expect_exit 0 "compare DIR_A DIR_B exits 0" -- $BB compare "$D/A" "$D/B"
expect_grep "^stream  B faster: .* +5.3% .*(pooled samples, 2 runs a side" "$TMPD/out" \
	"  ... and pools the files of each directory"
awk -F, 'NR > 1 && ($25 != "samples" || $11 != "median_of_samples") { bad = 1 } END { exit bad }' \
	"$TMPD/pooled.csv"
tap $? "--csv: 2 runs a side are tested on pooled samples (basis column)"
expect_grep "^note: tested on pooled samples (fewer than 3 runs a side): the medians' ratio, Mann-Whitney U$" "$TMPD/out" \
	"  ... and the output says so"

# ---- 3 or more runs a side: the run is the unit of replication ----
# Runs that differ by up to +-10% from run to run, each with the tight
# spread (0.4%) of the fixture within the run.
mkdir -p "$D/R"
i=0; for s in 0.9 1.0 1.1; do i=$((i+1)); mkrun "$D/R/a$i.json" scale=$s; done
i=0; for s in 0.95 1.05 1.1; do i=$((i+1)); mkrun "$D/R/b$i.json" scale=$s noise=2; done
expect_exit 0 "2 of those runs a side, pooled, exits 0" -- \
	$BB compare "$D/R/a1.json" "$D/R/a2.json" -- "$D/R/b2.json" "$D/R/b3.json"
[ "$(rows regressed "$TMPD/out")" -eq 4 ]
tap $? "  ... pooled samples claim a regression on all 4 kernels"
expect_exit 0 "3 runs a side with run-to-run noise exits 0" -- \
	$BB compare --all --csv "$TMPD/perrun.csv" "$D/R/a1.json" "$D/R/a2.json" "$D/R/a3.json" -- \
	"$D/R/b1.json" "$D/R/b2.json" "$D/R/b3.json"
cp "$TMPD/out" "$TMPD/perrun.txt"
[ "$(rows 'no significant change' "$TMPD/perrun.txt")" -eq 4 ]
tap $? "  ... per-run medians (Welch), 3 vs 3: the +-10% between runs is no claim"
expect_grep "^note: 4 metrics tested on per-run figures (Welch's t on their logs)$" \
	"$TMPD/perrun.txt" "  ... the note names the basis"
! grep -q "^warning: a side is a single run" "$TMPD/perrun.txt"
tap $? "  ... no single-run warning"
expect_grep "^stream  no change found in 4 metrics: no change larger than [0-9.]*% (3 runs a side, 80% power); to see 2% you need about [0-9]* runs a side; headline" \
	"$TMPD/perrun.txt" "  ... the summary gives the power and the runs a 2% change needs"
awk -F, 'NR > 1 && ($6 != 30 || $25 != "runs" || $19 != "welch" || $26 != 3 ||
	$11 != "geomean_of_run_figures") { bad = 1 } END { exit bad || NR != 5 }' "$TMPD/perrun.csv"
tap $? "--csv: n_a stays the sample count, basis is runs (3 a side), test welch"
i=3; for s in 0.95 1.05; do i=$((i+1)); mkrun "$D/R/a$i.json" scale=$s; done
i=3; for s in 0.92 1.02; do i=$((i+1)); mkrun "$D/R/b$i.json" scale=$s noise=2; done
expect_exit 0 "5 runs a side with run-to-run noise exits 0" -- \
	$BB compare --all "$D/R/a"?.json -- "$D/R/b"?.json
[ "$(rows 'no significant change' "$TMPD/out")" -eq 4 ]
tap $? "  ... per-run medians, 5 vs 5: no significant change"
mkdir -p "$D/S"
i=0; for s in 1.0 0.97 1.03 0.99 1.02 0.98; do
	i=$((i+1))
	mkrun "$D/S/a$i.json" scale=$s
	mkrun "$D/S/b$i.json" scale="$(awk -v s=$s 'BEGIN { print s / 1.08 }')" noise=2
done
expect_exit 0 "6 runs a side, B 8% faster with +-3% run-to-run noise, exits 0" -- \
	$BB compare "$D/S/a"?.json -- "$D/S/b"?.json
[ "$(rows improved "$TMPD/out")" -eq 4 ]
tap $? "  ... per-run medians, 6 vs 6: all 4 kernels improved"
expect_grep "^stream  B faster: stream.triad.c.bandwidth .* +8.1% .*(6 runs a side, p<0.0*1); 4 of 4 metrics faster" \
	"$TMPD/out" "  ... the summary says 8.1% faster, 6 runs a side"

# ---- a view never changes a verdict ----
# Single runs whose clock moved 50% in B: the CPU-speed row (outside any
# --filter) raises the threshold of every pooled row, filtered or not.
mkrun "$D/cal_a.json" calib=1
mkrun "$D/cal_d.json" calib=1 calibslow=1.5 scale=1.1
verdicts() {  # CSV -> "key verdict" lines of the stream rows
	awk -F, 'NR > 1 && $2 == "stream" { print $1, $24 }' "$1" | sort
}
$BB compare --csv "$TMPD/v_all.csv" "$D/cal_a.json" "$D/cal_d.json" >/dev/null 2>&1
$BB compare --csv "$TMPD/v_f.csv" --filter triad "$D/cal_a.json" "$D/cal_d.json" >"$TMPD/out" 2>&1
[ "$(verdicts "$TMPD/v_f.csv")" = "$(verdicts "$TMPD/v_all.csv" | grep triad)" ] &&
	[ "$(verdicts "$TMPD/v_f.csv")" = "stream.triad.c.bandwidth within noise" ]
tap $? "--filter triad keeps Triad's verdict (within noise under the CPU-speed threshold)"
[ "$(grep -c 'bandwidth' "$TMPD/out")" -eq 2 ]
tap $? "  ... and prints only Triad (its row and the summary line)"
$BB compare --csv "$TMPD/v_o.csv" --only stream "$D/cal_a.json" "$D/cal_d.json" >"$TMPD/out" 2>&1
[ "$(verdicts "$TMPD/v_o.csv")" = "$(verdicts "$TMPD/v_all.csv")" ]
tap $? "--only stream keeps every verdict"
! grep -q '^  calib' "$TMPD/out" && ! grep -q '^calib' "$TMPD/out"
tap $? "  ... and prints no calib row"
$BB compare --all --csv "$TMPD/v_a.csv" "$D/cal_a.json" "$D/cal_d.json" >/dev/null 2>&1
[ "$(verdicts "$TMPD/v_a.csv")" = "$(verdicts "$TMPD/v_all.csv")" ]
tap $? "--all keeps every verdict"
$BB compare --filter bogus "$D/a.json" "$D/slow.json" >"$TMPD/out" 2>&1
! grep -q 'bandwidth' "$TMPD/out"
tap $? "--filter matching nothing prints no metric"

# ---- --by KEY: one directory, split by a label ----
mkdir -p "$D/by"
i=0; for s in 1.0 0.97 1.03 0.99 1.02; do
	i=$((i+1))
	mkrun "$D/by/p1-$i.json" label=PMU=1 scale=$s
	mkrun "$D/by/p0-$i.json" label=PMU=0 scale="$(awk -v s=$s 'BEGIN { print s * 1.1 }')" noise=2
done
mkrun "$D/by/other.json" label=cfg=y
expect_exit 0 "compare DIR --by PMU --base 1 exits 0" -- $BB compare "$D/by" --by PMU --base 1
expect_grep "^A: PMU=1 (5 runs: " "$TMPD/out" "  ... A is PMU=1, 5 runs"
expect_grep "^B: PMU=0 (5 runs: " "$TMPD/out" "  ... B is PMU=0, 5 runs"
expect_grep "^note: 1 run without the label PMU left out$" "$TMPD/out" "  ... the unlabelled run is left out, and said"
expect_grep "^stream  B slower: .* -9.[01]% .*(5 runs a side, p<0.0*1)" "$TMPD/out" \
	"  ... PMU=0 is 9% slower"
expect_exit 0 "--by PMU without --base: the first value in sort order is A" -- \
	$BB compare "$D/by" --by PMU
expect_grep "^A: PMU=0 " "$TMPD/out" "  ... A is PMU=0"
expect_grep "^stream  B faster: .* +\(9.9\|10.0\)% " "$TMPD/out" "  ... and PMU=1 is 10% faster"
mkrun "$D/by/p2-1.json" label=PMU=2 scale=0.5
mkrun "$D/by/p2-2.json" label=PMU=2 scale=0.5 noise=2
mkrun "$D/by/p2-3.json" label=PMU=2 scale=0.51
expect_exit 0 "three values of PMU: each against the base" -- $BB compare "$D/by" --by PMU --base 1
[ "$(grep -c '^==== PMU=[02] against PMU=1$' "$TMPD/out")" -eq 2 ]
tap $? "  ... two comparisons, PMU=0 and PMU=2 against PMU=1"
expect_grep "^stream  B faster: .* +9[0-9].[0-9]% " "$TMPD/out" "  ... PMU=2 about twice as fast"
expect_exit 1 "--by with --fail-on-regression: any regression exits 1" -- \
	$BB compare "$D/by" --by PMU --base 1 --fail-on-regression
bad 2 "--base|'7'" -- $BB compare "$D/by" --by PMU --base 7
bad 2 "--by|nolabel|no run has this label; the runs have the labels" -- $BB compare "$D/by" --by nolabel
bad 2 "--by cfg|1 value" -- $BB compare "$D/by" --by cfg
bad 2 "--base needs --by" -- $BB compare --base 1 "$D/a.json" "$D/slow.json"
bad 2 "--by needs" -- $BB compare --by PMU "$D/a.json" -- "$D/slow.json"
bad 2 "--by|''" -- $BB compare --by "" "$D/by"
bad 2 "--only|''" -- $BB compare --only "" "$D/a.json" "$D/slow.json"

# ---- variants of one run ----
expect_exit 0 "compare --variants RUN c fast exits 0" -- $BB compare --variants "$D/var.json" c fast
expect_grep "^  stream.triad.\*.bandwidth .* improved  *headline$" "$TMPD/out" "--variants: fast beats c on Triad"
expect_grep "^stream  B faster: stream.triad.\*.bandwidth .* +25.0% " "$TMPD/out" \
	"--variants: the summary gives 25%"

# ---- what moves numbers ----
$BB compare "$D/a.json" "$D/env.json" >"$TMPD/env.txt" 2>&1
expect_grep "^A and B differ in [0-9]* recorded fields" "$TMPD/env.txt" \
	"a section names the fields in which A and B differ"
expect_grep "^  cpufreq governor: A performance, B powersave$" \
	"$TMPD/env.txt" "  ... the governor"
expect_grep "^  compiler flags: A -O2, B -O3$" "$TMPD/env.txt" "  ... the compiler flags"
expect_grep "^  stream threads: A 2, B 1$" "$TMPD/env.txt" "  ... the thread count"
$BB compare "$D/a.json" "$D/a.json" >"$TMPD/same.txt" 2>&1
expect_grep "^A and B differ in no recorded field$" "$TMPD/same.txt" \
	"  ... and says so when nothing recorded differs"

# The CPU's own speed (the quick suite's calib result): a slower machine in
# B is said, and so is a clock that moved within a side.
mkrun "$D/cal_b.json" calib=1.25
mkrun "$D/cal_c.json" calib=1 calibslow=1.5
$BB compare --all "$D/cal_a.json" "$D/cal_b.json" >"$TMPD/cal.txt" 2>&1
expect_grep "^  calib.add_chain.time  *0.350[0-9] .* ns/op .* <0.001  -  *the CPU's own speed: evidence about the machine, not a claim$" \
	"$TMPD/cal.txt" "calib: the CPU-speed row is compared (ns per add), as evidence, with no verdict"
expect_grep "^warning: the CPU itself ran 20.0% slower in B (calib.add_chain.time, p " \
	"$TMPD/cal.txt" "  ... and a slower CPU in B is a warning"
! grep -q "^calib  " "$TMPD/cal.txt"
tap $? "  ... but not a verdict of its own in the summary"
! grep -q "varied" "$TMPD/cal.txt"
tap $? "  ... no note on a steady clock"
expect_exit 0 "--fail-on-regression ignores the CPU-speed row" -- \
	$BB compare --fail-on-regression "$D/cal_a.json" "$D/cal_b.json"
$BB compare "$D/cal_a.json" "$D/cal_c.json" >"$TMPD/cal.txt" 2>&1
expect_grep "^note: the CPU's speed moved by 0% within A and 50% within B (calib.add_chain.time" \
	"$TMPD/cal.txt" "a clock that moved within B is noted"
! grep -q "^warning: the CPU itself" "$TMPD/cal.txt"
tap $? "  ... without a warning when the medians agree"
expect_grep "so 4 metrics tested on them are held to a noise threshold of 50%, not 2%" \
	"$TMPD/cal.txt" "  ... and single runs are held to that much noise"
! grep -q "differ in calib" "$TMPD/cal.txt"
tap $? "  ... and the probe's own settings are no warning"
# Variants of one run alternate round by round: the drift hits both alike.
mkrun "$D/cal_var.json" variants="c fast" fast=0.8 calib=1 calibslow=1.5
expect_exit 0 "--variants in a run whose clock moved 50% exits 0" -- \
	$BB compare --variants "$D/cal_var.json" c fast
expect_grep "^stream  B faster: .* +25.0% " "$TMPD/out" "  ... and still finds the 25% (no raised threshold)"
# A real 9% regression, single runs, the clock moving 50% in B: not claimed.
expect_exit 0 "a 9% slowdown while the clock moved 50%, single runs, exits 0" -- \
	$BB compare --all --fail-on-regression "$D/cal_a.json" "$D/cal_d.json"
[ "$(rows 'within noise .*held by the 50% CPU-speed threshold' "$TMPD/out")" -eq 4 ]
tap $? "  ... all 4 kernels within noise, each held by the 50% CPU-speed threshold"
expect_grep "^Summary: .*noise threshold 2%, 50% on pooled samples" "$TMPD/out" \
	"  ... and the summary header gives the threshold used"
# The same with 3 runs a side: per-run medians see the drift, no floor.
for k in 1 2 3; do cp "$D/cal_a.json" "$D/cal_a$k.json"; cp "$D/cal_d.json" "$D/cal_d$k.json"; done
$BB compare "$D"/cal_a?.json -- "$D"/cal_d?.json >"$TMPD/cal.txt" 2>&1
! grep -q "held to a noise threshold" "$TMPD/cal.txt"
tap $? "  ... with 3 runs a side the threshold stays 2% (per-run medians)"

# ---- run --repeat N into one directory, then compare --by: the workflow ----
# (whatever the verdicts: real runs measure this machine, not compare)
R=$TMPD/repeat
if $BB run --repeat 3 --only csum --label side=a -o "$R" >/dev/null 2>&1 &&
	$BB run --repeat 3 --only csum --label side=b -o "$R" >/dev/null 2>&1; then
	tap 0 "run --repeat 3 --only csum, twice with two labels"
	expect_exit 0 "compare DIR --by side exits 0" -- $BB compare "$R" --by side --csv "$TMPD/rep.csv"
	expect_grep "^A: side=a (3 runs: " "$TMPD/out" "  ... A is the 3 runs labelled side=a"
	expect_grep "^B: side=b (3 runs: " "$TMPD/out" "  ... B the 3 labelled side=b"
	grep "^csum  " "$TMPD/out" | grep "csum.total.generic32 [0-9.]* -> [0-9.]* ns/call, " |
		grep -q "3 runs a side"
	tap $? "  ... the csum line quotes its Total time, 3 runs a side"
	! grep -q "^warning: A and B differ" "$TMPD/out"
	tap $? "  ... no warning: which repetition a file holds is no difference"
	awk -F, 'NR > 1 && $25 != "runs" { bad = 1 } END { exit bad || NR < 2 }' "$TMPD/rep.csv"
	tap $? "  ... every metric tested on per-run figures"
else
	tap 1 "run --repeat 3 --only csum, twice with two labels"
fi

# Real runs of the same build are a measurement on whatever machine runs
# the tests, not a test: bench/compare_suite.sh measures that rate, and the
# unit test tests/unit/test_multi.c the rate over synthetic suites.

# ---- bad results files: exit 2, one line naming the file and the key ----
good=$D/a.json
printf 'not json' >"$TMPD/notjson.json"
bad 2 "notjson.json|not valid JSON" -- $BB compare "$TMPD/notjson.json" "$good"
: >"$TMPD/empty.json"
bad 2 "empty.json: empty file" -- $BB compare "$good" "$TMPD/empty.json"
bad 2 "nosuch.json: cannot open" -- $BB compare "$good" "$TMPD/nosuch.json"
sed 's/boardbench-results/other-results/' "$good" >"$TMPD/schema.json"
bad 2 "schema.json: schema:|not a boardbench results file" -- $BB compare "$TMPD/schema.json" "$good"
sed 's/"schema_version": 1/"schema_version": 9/' "$good" >"$TMPD/version.json"
bad 2 "version.json: schema_version:|version 9" -- $BB compare "$good" "$TMPD/version.json"
sed '0,/"work": 160000000/s//"work": "many"/' "$good" >"$TMPD/type.json"
bad 2 "type.json: results[0].series[0].work: expected a finite number, got a string" -- \
	$BB compare "$good" "$TMPD/type.json"
sed '0,/"samples": /s//"samplez": /' "$good" >"$TMPD/missing.json"
bad 2 "missing.json: results[0].series[0]: missing key \"samples\"" -- \
	$BB compare "$good" "$TMPD/missing.json"
sed '0,/"samples": \[/s//"samples": [null, /' "$good" >"$TMPD/nan.json"
bad 2 "nan.json: results[0].series[0].samples[0]: expected a finite number, got null" -- \
	$BB compare "$good" "$TMPD/nan.json"
awk 'BEGIN { printf "{\"schema\": \"boardbench-results\", \"schema_version\": 1, \"results\": "
	printf "[{\"applet\": \"x\", \"series\": [{\"name\": \"n\", \"variant\": \"v\", \"unit\": \"s\", "
	printf "\"work\": 1, \"work_unit\": \"b\", \"discard\": 0, \"samples\": [1"
	for (i = 0; i < 1048576; i++) printf ",1"
	printf "]}]}]}\n" }' >"$TMPD/huge.json"
bad 2 "huge.json: results[0].series[0].samples: 1048577 elements, more than" -- \
	$BB compare "$good" "$TMPD/huge.json"
awk 'BEGIN { printf "{\"schema\": \"boardbench-results\", \"schema_version\": 1, \"labels\": {\"x\": "
	for (i = 0; i < 5000; i++) printf "["
	for (i = 0; i < 5000; i++) printf "]"
	printf "}, \"results\": []}\n" }' >"$TMPD/deep.json"
bad 2 "deep.json: labels.x[0]|nested deeper than 32 levels" -- $BB compare "$good" "$TMPD/deep.json"
mkdir "$TMPD/nojson"
bad 2 "nojson: no *.json results files" -- $BB compare "$TMPD/nojson" "$D/B"

# ---- hostile strings and numbers ----
# Labels that differ only after a NUL (\u0000) or in bytes that are not
# UTF-8 stay distinct groups, shown escaped alike by compare and report;
# numbers past 2^63 are refused; an extreme figure within range prints a
# change of a few characters.
mkdir "$TMPD/nul" "$TMPD/ff"
for i in 1 2 3; do
	mkrun "$TMPD/x$i.json" label=L=Ax noise=$((i % 2 + 1))
	mkrun "$TMPD/y$i.json" label=L=Ay noise=$((i % 2 + 1)) scale=1.1
	sed 's/"L": "Ax"/"L": "A\\u0000x"/' "$TMPD/x$i.json" >"$TMPD/nul/x$i.json"
	sed 's/"L": "Ay"/"L": "A\\u0000y"/' "$TMPD/y$i.json" >"$TMPD/nul/y$i.json"
	LC_ALL=C sed "s/\"L\": \"Ax\"/\"L\": \"A$(printf '\377')x\"/" "$TMPD/x$i.json" >"$TMPD/ff/x$i.json"
	LC_ALL=C sed "s/\"L\": \"Ay\"/\"L\": \"A$(printf '\376')y\"/" "$TMPD/y$i.json" >"$TMPD/ff/y$i.json"
done
expect_exit 0 "compare --by L: labels A\\u0000x and A\\u0000y are two groups" -- \
	$BB compare "$TMPD/nul" --by L
grep -q '^A: L=A\\x00x (3 runs' "$TMPD/out" && grep -q '^B: L=A\\x00y (3 runs' "$TMPD/out"
tap $? "compare --by L names both groups, the NUL shown as \\x00"
expect_exit 0 "report --by L of the same runs exits 0" -- \
	$BB report "$TMPD/nul" --by L -o "$TMPD/nul.html"
grep -q 'A\\x00x' "$TMPD/nul.html" && grep -q 'A\\x00y' "$TMPD/nul.html"
tap $? "report --by L shows both groups with the NUL as \\x00, as compare does"
expect_exit 0 "compare --by L with labels holding bytes 0xFF and 0xFE exits 0" -- \
	$BB compare "$TMPD/ff" --by L
LC_ALL=C grep -q "$(printf '[\376\377]')" "$TMPD/out"
[ $? -ne 0 ] && grep -q 'L=A\\xFEy' "$TMPD/out" && grep -q 'L=A\\xFFx' "$TMPD/out"
tap $? "compare prints no raw byte that is not UTF-8: 0xFF as \\xFF"
expect_exit 0 "report --by L with those labels exits 0" -- \
	$BB report "$TMPD/ff" --by L -o "$TMPD/ff.html"
LC_ALL=C grep -q "$(printf '[\376\377]')" "$TMPD/ff.html"
[ $? -ne 0 ] && grep -q 'A\\xFFx' "$TMPD/ff.html" && grep -q 'A\\xFEy' "$TMPD/ff.html"
tap $? "report escapes them exactly as compare does (\\xFF, \\xFE)"
sed '0,/"samples": \[/s//"samples": [1e300, /' "$good" >"$TMPD/e300.json"
bad 2 "e300.json: results[0].series[0].samples[0]: 1e+300 is out of range" -- \
	$BB compare "$good" "$TMPD/e300.json"
sed 's/"work": [0-9]*/"work": 9.2e18/' "$good" >"$TMPD/e18.json"
expect_exit 0 "compare --all of figures 10^10 apart (within range) exits 0" -- \
	$BB compare --all "$good" "$TMPD/e18.json"
grep -q '[0-9]\{12\}' "$TMPD/out"
[ $? -ne 0 ] && grep -q '+[0-9.]*e+1[0-9]%' "$TMPD/out"
tap $? "compare prints such a change in a few characters (+5.75e+12%), never 12 digits in a row"

# ---- bad usage ----
bad 2 "expected two results files" -- $BB compare "$good"
bad 2 "expected two results files" -- $BB compare "$good" "$good" "$good"
bad 2 "'--' needs the runs of A" -- $BB compare "$good" --
bad 2 "--alpha|'2'" -- $BB compare --alpha 2 "$good" "$good"
bad 2 "--threshold|'abc'" -- $BB compare --threshold abc "$good" "$good"
bad 2 "--variants needs" -- $BB compare --variants "$good" c
bad 2 "--csv" -- $BB compare --csv "" "$good" "$good"
bad 2 "--nope" -- $BB compare --nope "$good" "$good"
