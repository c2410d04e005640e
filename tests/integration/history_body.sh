# tests/integration/history_body.sh - the checks of `boardbench history`,
# run by test_history.sh against SQLite files and by test_history_pg.sh
# against a PostgreSQL server: both engines must give the same answers.
# Sourced after lib.sh and history_fixture.sh; newdb NAME prints a fresh,
# empty database for a scenario.

# jq_ok FILTER FILE DESCRIPTION: the filter yields true.
jq_ok() {
	if [ "$(jq -r "$1" "$2" 2>/dev/null)" = true ]; then tap 0 "$3"; else
		tap 1 "$3 (jq '$1' on $2 is $(jq -c "$1" "$2" 2>&1 | head -c 300))"; fi
}

hist_suite() {
	F=$TMPD/fix
	mkhist "$F/step" 30 step_at=16 step=1.10
	mkhist "$F/flat" 30 seed=11
	mkhist "$F/boots" 30 boot=3 step_at=16 step=1.05 board=b2
	mkhist "$F/code" 30 board=ba step_at=16 step=1.08 seed=3
	mkhist "$F/code" 30 board=bb step_at=16 step=1.08 seed=5
	mkhist "$F/one" 30 board=bc step_at=16 step=1.08 seed=9
	mkhist "$F/one" 30 board=bd seed=13

	# add: idempotent, refusals in one line each, the rest kept
	D=$(newdb step)
	expect_exit 0 "add: 30 runs" -- "$BB" history add "$D" "$F/step"
	expect_grep "30 runs added, 0 already there, 0 refused" "$TMPD/out" "add: says what it added"
	expect_exit 0 "add again" -- "$BB" history add "$D" "$F/step"
	expect_grep "0 runs added, 30 already there" "$TMPD/out" "add: the same runs are stored once"
	printf '{"schema": "boardbench-results", "schema_version": 1, "results": [' >"$TMPD/bad.json"
	printf 'not json\n' >"$TMPD/worse.json"
	expect_exit 2 "add: invalid files refused, exit 2" -- "$BB" history add "$D" "$TMPD/bad.json" \
		"$F/step/b1-r001.json" "$TMPD/worse.json"
	tap "$([ "$(grep -c 'refused' "$TMPD/err")" -eq 2 ] && echo 0 || echo 1)" \
		"add: one line for each refused file"
	expect_grep "0 runs added, 1 already there, 2 refused" "$TMPD/out" "add: and went on with the rest"

	# list, show
	expect_exit 0 "list --json" -- "$BB" history list "$D" --json
	cp "$TMPD/out" "$TMPD/list.json"
	jq_ok '.runs == 30 and .boards[0].board == "b1" and (.metrics | length) == 4' "$TMPD/list.json" \
		"list: 30 runs, board b1, 4 metrics"
	expect_exit 0 "show --json" -- "$BB" history show "$D" stream.triad.c.bandwidth --json
	cp "$TMPD/out" "$TMPD/show.json"
	jq_ok '.[0].runs | length == 30' "$TMPD/show.json" "show: a run per line"
	jq_ok '[.[0].change_points[].run] == [16]' "$TMPD/show.json" "show: the change point at run 16"
	expect_exit 0 "show, text" -- "$BB" history show "$D" stream.triad.c.bandwidth
	expect_grep "cause: compiler flags of the measured kernels: -O3 -> -O0" "$TMPD/out" \
		"show: the cause beside the point"
	expect_exit 2 "show: an unknown metric" -- "$BB" history show "$D" no.such.metric
	expect_exit 0 "show --label: only some runs" -- "$BB" history show "$D" stream.triad.c.bandwidth \
		--label night=3 --json
	jq_ok '.[0].runs | length == 1' "$TMPD/out" "show --label night=3: one run"

	# changes: the step found at run 16 with its cause, on every STREAM metric
	expect_exit 0 "changes --json" -- "$BB" history changes "$D" --json
	cp "$TMPD/out" "$TMPD/changes.json"
	jq_ok 'length == 4 and all(.[]; .run == 16 and .confirmed and .direction == "worse")' \
		"$TMPD/changes.json" "changes: 4 metrics, each at run 16, worse"
	jq_ok 'all(.[]; any(.causes[]; .field == "compiler flags of the measured kernels" and
		.before == "-O3" and .after == "-O0" and .changed_here))' "$TMPD/changes.json" \
		"changes: the kernels' flags named as the cause"
	jq_ok 'all(.[]; any(.causes[]; .field == "label night" and (.changed_here | not)))' \
		"$TMPD/changes.json" "changes: a label that varies every run is not a cause"
	jq_ok 'all(.[]; .ratio > 0.90 and .ratio < 0.92 and .samples_lo < .samples_ratio and
		.samples_ratio < .samples_hi)' "$TMPD/changes.json" "changes: size 1/1.10, inside its interval"
	expect_exit 0 "changes --since after the step" -- "$BB" history changes "$D" --since 2026-03-02 --json
	jq_ok 'length == 0' "$TMPD/out" "changes --since: only newer points"

	# report: one page, SVG, the cause, no script
	expect_exit 0 "report -o" -- "$BB" history report "$D" -o "$TMPD/trend.html"
	expect_grep "<svg" "$TMPD/trend.html" "report: inline SVG charts"
	expect_grep "stream.triad.c.bandwidth on b1" "$TMPD/trend.html" "report: a chart per series"
	expect_grep "compiler flags of the measured kernels" "$TMPD/trend.html" "report: the cause"
	expect_grep "samples before and after" "$TMPD/trend.html" "report: the A/B view of the point"
	tap "$(grep -qi '<script\|src="http' "$TMPD/trend.html" && echo 1 || echo 0)" \
		"report: self-contained (no script, nothing fetched)"
	expect_exit 2 "report without -o" -- "$BB" history report "$D"
	expect_exit 0 "report --json" -- "$BB" history report "$D" -o "$TMPD/trend2.html" --json
	jq_ok '.change_points == 4 and .charts == 4 and (.output | endswith("trend2.html"))' "$TMPD/out" \
		"report --json: what it wrote"

	# bisect-script: a POSIX sh script whose verdicts come from compare
	expect_exit 0 "bisect-script" -- "$BB" history bisect-script "$D" stream.triad.c.bandwidth \
		--runs 5 -o "$TMPD/bisect.sh"
	tap "$(sh -n "$TMPD/bisect.sh" && echo 0 || echo 1)" "bisect-script: sh -n accepts it"
	expect_exit 0 "bisect-script --json" -- "$BB" history bisect-script "$D" stream.triad.c.bandwidth \
		-o "$TMPD/bisect2.sh" --json
	jq_ok '.change_point.run == 16 and (.script | endswith("bisect2.sh"))' "$TMPD/out" \
		"bisect-script --json: the script and its change point"
	expect_exit 2 "bisect-script --json needs -o" -- "$BB" history bisect-script "$D" \
		stream.triad.c.bandwidth --json
	mkdir -p "$TMPD/ref" "$TMPD/good" "$TMPD/bad" "$TMPD/none"
	cp "$F"/step/b1-r00[1-5].json "$TMPD/ref/"
	cp "$F"/step/b1-r00[6-9].json "$F"/step/b1-r010.json "$TMPD/good/"
	cp "$F"/step/b1-r02[0-4].json "$TMPD/bad/"
	mkhist "$TMPD/none" 5 applet=other
	for side in good:0 bad:1 none:125; do
		BISECT_WORK=$TMPD/bw BISECT_REF=$TMPD/ref BISECT_CUR=$TMPD/${side%:*} BISECT_COMPARE=$BB_ABS \
			sh "$TMPD/bisect.sh" >"$TMPD/bis.out" 2>&1
		rc=$?
		tap "$([ "$rc" -eq "${side#*:}" ] && echo 0 || echo 1)" \
			"bisect-script: ${side%:*} runs exit ${side#*:} (got $rc: $(tail -1 "$TMPD/bis.out"))"
	done
	expect_exit 2 "bisect-script: a metric without a change point" -- "$BB" history bisect-script \
		"$(newdb empty-bisect)" stream.triad.c.bandwidth

	# a flat history: no change point
	D=$(newdb flat)
	"$BB" history add "$D" "$F/flat" >/dev/null
	expect_exit 0 "changes on a flat history" -- "$BB" history changes "$D" --json
	jq_ok 'length == 0' "$TMPD/out" "flat: no change point in 30 runs"

	# boots: three runs a boot are one unit
	D=$(newdb boots)
	"$BB" history add "$D" "$F/boots" >/dev/null
	expect_exit 0 "show, runs in boots" -- "$BB" history show "$D" stream.copy.c.bandwidth --json
	jq_ok '.[0].runs[2].unit_index == 1 and .[0].runs[3].unit_index == 2 and
		.[0].runs[29].unit_index == 10' "$TMPD/out" "boots: 3 runs of a boot are one unit"
	jq_ok '[.[0].change_points[].run] == [16]' "$TMPD/out" "boots: the 5% step at run 16 (boot 6)"
	jq_ok '.[0].units == "boots"' "$TMPD/out" "boots: 10 boots are the units"
	D=$(newdb oneboot)
	mkhist "$F/oneboot" 30 boot=30 step_at=16 step=1.10 board=b3
	"$BB" history add "$D" "$F/oneboot" >/dev/null
	expect_exit 0 "show, every run of one boot" -- "$BB" history show "$D" stream.copy.c.bandwidth --json
	jq_ok '.[0].units == "runs" and [.[0].change_points[].run] == [16]' "$TMPD/out" \
		"one boot: too few boots, so runs are the units; the step at run 16"

	# several boards: the same change on all is the code, on one the board
	D=$(newdb boards)
	"$BB" history add "$D" "$F/code" "$F/one" >/dev/null
	expect_exit 0 "changes over 4 boards" -- "$BB" history changes "$D" --json
	cp "$TMPD/out" "$TMPD/boards.json"
	jq_ok '[.[] | select(.board == "ba" or .board == "bb") | .scope] | length == 8 and
		all(. == "3 of 4 boards")' "$TMPD/boards.json" "boards: ba and bb share it with bc, not bd"
	D=$(newdb code)
	"$BB" history add "$D" "$F/code" >/dev/null
	"$BB" history changes "$D" --json >"$TMPD/code.json"
	jq_ok 'length == 8 and all(.[]; .scope == "code")' "$TMPD/code.json" \
		"boards: the same point on both boards is the code"
	D=$(newdb one)
	"$BB" history add "$D" "$F/one" >/dev/null
	"$BB" history changes "$D" --json >"$TMPD/one.json"
	jq_ok 'length == 4 and all(.[]; .scope == "this board" and .board == "bc")' "$TMPD/one.json" \
		"boards: a point on one board only is the board"

	# LAVA logs: plain console text and log.yaml; the same runs as the files
	D=$(newdb lava)
	lava_log "$TMPD/job.log" "$F"/step/b1-r00[1-3].json
	lava_yaml "$TMPD/job.yaml" "$F"/step/b1-r00[3-5].json
	expect_exit 0 "add a LAVA console log" -- "$BB" history add "$D" "$TMPD/job.log"
	expect_grep "3 runs added" "$TMPD/out" "LAVA log: three runs between the markers"
	expect_exit 0 "add a LAVA log.yaml" -- "$BB" history add "$D" "$TMPD/job.yaml"
	expect_grep "2 runs added, 1 already there" "$TMPD/out" "LAVA log.yaml: the run seen before is the same run"
	expect_exit 0 "add the files after the logs" -- "$BB" history add "$D" "$F"/step/b1-r00[1-6].json
	expect_grep "1 run added, 5 already there" "$TMPD/out" "LAVA: a run's identity is its content"
	printf 'BOARDBENCH-JSON-BEGIN x\n{"schema": 1}\n' >"$TMPD/cut.log"
	expect_exit 2 "a LAVA log cut before its END" -- "$BB" history add "$D" "$TMPD/cut.log"

	# concurrent writers: two adds at once, overlapping, on a new database
	D=$(newdb concurrent)
	"$BB" history add "$D" "$F/code" >"$TMPD/c1" 2>&1 &
	p1=$!
	"$BB" history add "$D" "$F/code" "$F/one" >"$TMPD/c2" 2>&1 &
	p2=$!
	wait $p1
	r1=$?
	wait $p2
	r2=$?
	tap "$([ $r1 -eq 0 ] && [ $r2 -eq 0 ] && echo 0 || echo 1)" \
		"concurrent adds both succeed ($r1, $r2: $(cat "$TMPD/c1" "$TMPD/c2" | tr '\n' ' '))"
	"$BB" history list "$D" --json >"$TMPD/conc.json"
	jq_ok '.runs == 120' "$TMPD/conc.json" "concurrent adds: every run once (120)"

	# bad usage
	expect_exit 2 "an unknown verb" -- "$BB" history frobnicate "$D"
	expect_exit 2 "--fdr out of range" -- "$BB" history changes "$D" --fdr 2
	expect_exit 2 "--min-segment 1" -- "$BB" history changes "$D" --min-segment 1
	expect_exit 2 "show without a metric" -- "$BB" history show --db "$D"
}
