#!/bin/sh
# tests/integration/test_compare_evidence.sh - what `compare` says beyond the
# verdicts, on results files written here (results_fixture.sh):
#   - every printed change is the ratio of the two figures printed beside
#     it (table and summary, to their rounding, with the same sign), over
#     skewed runs pooled and per run;
#   - boots: runs of one boot a side are said to be so; 3 or more boots a
#     side make the boot the unit of replication;
#   - boards: a side holding two boards is refused unless --mixed-boards;
#   - what else used the machine: a side where other processes were busy is
#     named among the differences, and its claims are marked confounded;
#   - --by with a label no run has names the labels there are.
. tests/integration/lib.sh
. tests/integration/results_fixture.sh

if $BB compare "$TMPD/x.json" "$TMPD/y.json" 2>&1 | grep -q "built without cJSON"; then
	tap 0 "compare's evidence # SKIP built without cJSON"
	exit 0
fi
D=$TMPD/runs
mkdir -p "$D"

# skewrun FILE SEED SCALE: a run of one applet "skew" with three series of
# 11 samples each, skewed to the slow side (a few samples far out) and
# different in every run.
skewrun() {
	awk -v seed="$2" -v scale="$3" 'BEGIN {
		srand(seed)
		printf "{\"schema\": \"boardbench-results\", \"schema_version\": 1, \"labels\": {}, "
		printf "\"results\": [{\"applet\": \"skew\", \"status\": \"ok\", \"series\": ["
		for (k = 1; k <= 3; k++) {
			run = 1 + 0.05 * rand()
			printf "%s{\"name\": \"s%d\", \"variant\": \"v\", \"unit\": \"s\", \"work\": 1e6, ", \
			       (k > 1 ? ", " : ""), k
			printf "\"work_unit\": \"bytes\", \"discard\": 0, \"samples\": ["
			for (i = 1; i <= 11; i++) {
				u = rand()
				x = 0.001 * k * scale * run * (1 + 0.02 * u + 0.5 * u * u * u * u * u * u * u * u)
				printf "%s%.9g", (i > 1 ? ", " : ""), x
			}
			printf "]}"
		}
		printf "]}]}\n" }' >"$1"
}

# consistent FILE: every table row and summary headline of FILE prints a
# change within rounding of 100 * (B / A - 1) of the figures beside it, with
# the same sign; fails (printing the row) otherwise or when no row is found.
consistent() {
	awk 'function abs(x) { return x < 0 ? -x : x }
	function check(a, b, ch, line) {
		n++
		want = 100 * (b / a - 1)
		if (abs(want - ch) > 0.06 + 0.11 * b / a || (abs(ch) >= 0.1 && (ch > 0) != (b > a))) {
			print "# inconsistent: " line
			bad = 1
		}
	}
	/^  [a-z][a-z0-9_.*-]+ +[0-9.e+-]+ +[0-9.e+-]+ +[^ ]+ +[+-][0-9.]+%/ {
		ch = $5; sub(/%/, "", ch); check($2, $3, ch + 0, $0)
	}
	/ [0-9.e+-]+ -> [0-9.e+-]+ [^ ]+, [+-][0-9.]+% \[/ {
		for (i = 1; i < NF; i++)
			if ($i == "->") {
				ch = $(i + 3); sub(/%/, "", ch); check($(i - 1), $(i + 1), ch + 0, $0)
			}
	}
	END { exit bad || n == 0 }' "$1"
}

i=0
for s in 11 12 13 14 15; do
	i=$((i + 1))
	skewrun "$D/sa$i.json" "$s" 1
	skewrun "$D/sb$i.json" "$((s + 40))" 1.03
done
$BB compare --all "$D/sa1.json" "$D/sb1.json" >"$TMPD/one.txt" 2>&1
consistent "$TMPD/one.txt"
tap $? "pooled samples (1 run a side): each change is the ratio of its printed medians"
$BB compare --all "$D"/sa?.json -- "$D"/sb?.json >"$TMPD/five.txt" 2>&1
consistent "$TMPD/five.txt"
tap $? "5 runs a side: each change is the ratio of its printed geometric means"
$BB compare --all "$D"/sa1.json "$D"/sa2.json -- "$D"/sb?.json >"$TMPD/mixed.txt" 2>&1
consistent "$TMPD/mixed.txt"
tap $? "2 vs 5 runs (pooled): the same"
$BB compare --csv "$TMPD/five.csv" "$D"/sa?.json -- "$D"/sb?.json >/dev/null 2>&1
awk -F, 'function abs(x) { return x < 0 ? -x : x }
	NR > 1 && $9 != "" { n++; if (abs($14 / ($10 / $9) - 1) > 1e-12) bad = 1 }
	END { exit bad || n == 0 }' "$TMPD/five.csv"
tap $? "--csv: ratio = figure_b / figure_a on every row"
grep -q '^A and B: the geometric mean over runs of each run.s figure' "$TMPD/five.txt"
tap $? "the estimator is named once, above the table"

# ---- boots ----
for k in 1 2 3 4 5; do
	mkrun "$D/oa$k.json" label=X=a boot=bootA
	mkrun "$D/ob$k.json" label=X=b noise=2 boot=bootB
done
$BB compare "$D"/oa?.json -- "$D"/ob?.json >"$TMPD/out" 2>&1
expect_grep "^note: A's runs and B's runs each come from one boot: .*3 or more boots" "$TMPD/out" \
	"runs of one boot a side: one line says so, and what to do"
for k in 1 2 3 4 5 6; do
	g=$(((k + 1) / 2))
	mkrun "$D/ta$k.json" label=X=a boot="a$g" scale="1.0$k"
	mkrun "$D/tb$k.json" label=X=b noise=2 boot="b$g" scale="1.0$k"
done
$BB compare --csv "$TMPD/boots.csv" "$D"/ta?.json -- "$D"/tb?.json >"$TMPD/out" 2>&1
expect_grep "^note: the boot is the unit of replication (3 boots in A, 3 in B)" "$TMPD/out" \
	"3 boots a side: the boot is the unit of replication"
expect_grep "^stream .*(3 boots a side" "$TMPD/out" "  ... and the summary's basis says 3 boots a side"
awk -F, 'NR > 1 && ($25 != "boots" || $26 != 3 || $27 != 3 ||
	$11 != "geomean_of_boot_figures") { bad = 1 } END { exit bad || NR != 5 }' "$TMPD/boots.csv"
tap $? "  ... --csv: basis boots, 3 units a side, the estimator named"
! grep -q "one boot" "$TMPD/out"
tap $? "  ... and no one-boot note"

# ---- boards ----
mkrun "$D/bx.json" board=1111aaaa
mkrun "$D/by.json" board=2222bbbb
mkrun "$D/bz.json" board=1111aaaa
$BB compare "$D/bx.json" "$D/by.json" -- "$D/bz.json" >"$TMPD/out" 2>"$TMPD/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$TMPD/out" ] && [ "$(wc -l <"$TMPD/err")" -eq 1 ] &&
	grep -q "A holds the runs of 2 or more boards (board.id 1111aaaa and 2222bbbb" "$TMPD/err" &&
	grep -q -- "--mixed-boards" "$TMPD/err"
tap $? "a side with two boards: exit 2, one line naming them and --mixed-boards (rc $rc)"
expect_exit 0 "--mixed-boards pools them" -- \
	$BB compare --mixed-boards "$D/bx.json" "$D/by.json" -- "$D/bz.json"
expect_grep "board.id: A 1111aaaa | 2222bbbb, B 1111aaaa" "$TMPD/out" \
	"  ... and lists the boards among the differences"
expect_exit 0 "one board against another (rev A4 against rev C) is a comparison" -- \
	$BB compare "$D/bx.json" "$D/by.json"

# ---- what else used the machine ----
for k in 1 2 3 4 5; do
	mkrun "$D/qa$k.json" label=hog=no others=0.01
	mkrun "$D/qb$k.json" label=hog=yes noise=2 scale=1.2 others=0.97
done
$BB compare --csv "$TMPD/hog.csv" "$D"/qa?.json -- "$D"/qb?.json >"$TMPD/out" 2>&1
expect_grep "^  other processes' CPU time during stream: A 1%, B 97%  (may explain stream)$" \
	"$TMPD/out" "a busy B is named among the differences, with its size"
expect_grep "^stream  B slower: .*; confounded: B: other processes used 97% of a CPU during stream (A: 1%)$" \
	"$TMPD/out" "  ... its claims are printed as claimed, and marked confounded in the summary"
expect_grep "^  stream.triad.c.bandwidth .* regressed .*confounded: B: other processes used 97%" \
	"$TMPD/out" "  ... and in the table"
awk -F, 'NR > 1 && $8 == 1 && $29 ~ /^B: other processes used 97% of a CPU/ { ok = 1 }
	END { exit !ok }' "$TMPD/hog.csv"
tap $? "  ... and in --csv (confounded column)"
for k in 1 2 3 4 5; do mkrun "$D/qc$k.json" label=hog=no noise=2 others=0.05; done
$BB compare "$D"/qa?.json -- "$D"/qc?.json >"$TMPD/out" 2>&1
! grep -q "other processes" "$TMPD/out"
tap $? "a 4% difference in others' CPU time is no difference"

# ---- --by a label no run has ----
mkrun "$D/l1.json" label=PMU=1
mkrun "$D/l2.json" label=rev=C
$BB compare "$D/l1.json" "$D/l2.json" --by NOPE >"$TMPD/out" 2>"$TMPD/err"
rc=$?
[ $rc -eq 2 ] && grep -q "'NOPE' for --by (no run has this label; the runs have the labels PMU, rev)" \
	"$TMPD/err"
tap $? "--by NOPE: exit 2 and the labels the runs do have (rc $rc)"
