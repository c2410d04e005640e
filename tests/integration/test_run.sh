#!/bin/sh
# tests/integration/test_run.sh - the quick suite: `boardbench run -o DIR
# --label rev=C` writes exactly one DIR/<host>-rev=C-<UTC>.json holding one
# result per applet of the suite, prints its summary on stdout, shows no
# progress when stderr is not a terminal and leaves no temporary file.
. tests/integration/lib.sh

OUT="$TMPD/results"
t0=$(date +%s)
expect_exit 0 "run -o DIR --label rev=C exits 0" -- $BB run -o "$OUT" --label rev=C
t1=$(date +%s)
cp "$TMPD/out" "$TMPD/stdout"
cp "$TMPD/err" "$TMPD/stderr"
echo "# the quick suite took $((t1 - t0)) s"
[ $((t1 - t0)) -le 60 ]
tap $? "the quick suite finishes within 60 s"

set -- "$OUT"/*.json
[ $# -eq 1 ] && [ -f "$1" ]
tap $? "run writes exactly one JSON file (found $# in $OUT)"
json=$1
name=$(basename "$json")
host=$(uname -n | sed 's/[^A-Za-z0-9._=,+-]/_/g')
echo "$name" | grep -Eq "^${host}-rev=C-[0-9]{8}T[0-9]{6}Z\.json\$"
tap $? "the file is named <host>-rev=C-<UTC>.json ($name)"
jq -e . "$json" >/dev/null 2>&1
tap $? "the file parses with jq"
stamp=$(jq -r '.system.utc // .started_utc // empty' "$json" 2>/dev/null | tr -d ':-')
case $name in
*"-$stamp.json") tap 0 "the file name carries the run's UTC time ($stamp)" ;;
*) tap 1 "the file name carries the run's UTC time (JSON says '$stamp')" ;;
esac
jq -e '.labels.rev == "C"' "$json" >/dev/null 2>&1
tap $? "the label rev=C is in the JSON"

# The suite's applets, as `run --help` names them.
$BB run --help >"$TMPD/help" 2>/dev/null
suite=$(sed -n 's/^Applets in the quick suite: *//p' "$TMPD/help")
[ -n "$suite" ]
tap $? "run --help names the applets of the quick suite ($suite)"
got=$(jq -r '[.results[].applet | select(. != "calib")] | unique | join(" ")' "$json" 2>/dev/null)
want=$(printf '%s\n' $suite | sort | tr '\n' ' ' | sed 's/ $//')
[ -n "$got" ] && [ "$got" = "$want" ]
tap $? "the JSON has results of every quick applet (got '$got', want '$want')"
n=$(jq '[.results[] | select(.applet != "ttcp" and .applet != "calib")] | length' "$json" 2>/dev/null)
[ "$n" = $(($(echo $suite | wc -w) - 1)) ]
tap $? "  ... one result each, ttcp aside ($n)"

# The CPU's own speed, timed before each applet and after the last.
napplets=$(echo $suite | wc -w)
jq -e --argjson n $((3 * (napplets + 1))) '[.results[] | select(.applet == "calib")] as $c
	| ($c | length) == 1 and $c[0].status == "ok" and ($c[0].series[0].name == "add_chain")
	  and ($c[0].series[0].samples | length) == $n and ($c[0].series[0].samples | all(. > 0))' \
	"$json" >/dev/null 2>&1
tap $? "one calib result with 3 samples before each of $napplets applets and after the last"
expect_grep "^calib .* ns per dependent add" "$TMPD/stdout" "  ... and a summary line"

# ttcp: the seed's one stream, then (more than one CPU) one stream per CPU.
cpus=$(nproc)
want_streams=1
[ "$cpus" -gt 1 ] && want_streams="1 $([ "$cpus" -lt 16 ] && echo "$cpus" || echo 16)"
got=$(jq -r '[.results[] | select(.applet == "ttcp") | .params.streams] | join(" ")' "$json")
[ "$got" = "$want_streams" ]
tap $? "ttcp results with streams $want_streams on $cpus CPUs (got '$got')"
jq -e '[.results[] | select(.applet == "ttcp") | .series[]
	| select(.name == "transfer" and .variant == "total") | (.samples | length) == 21]
	| length > 0 and all' "$json" >/dev/null 2>&1
tap $? "  ... each keeps 21 transfers (the first a warm-up)"
if [ "$cpus" -gt 1 ]; then
	expect_grep "^ttcp .* streams of 8192 x 2048 bytes" "$TMPD/stdout" \
		"  ... and the summary has a line for the streams at once"
fi
for a in $suite; do
	jq -e --arg a "$a" '.results[] | select(.applet == $a) | .status == "ok"' \
		"$json" >/dev/null 2>&1
	tap $? "the $a result is ok"
	jq -e --arg a "$a" '[.results[] | select(.applet == $a) | .series[].samples | length]
			    | length > 0 and all(. > 0)' "$json" >/dev/null 2>&1
	tap $? "the $a result keeps its samples"
done

expect_grep "^boardbench quick suite on " "$TMPD/stdout" "the summary header is on stdout"
expect_grep "^stream .*validates" "$TMPD/stdout" "the summary has the stream line"
expect_grep "^suite took " "$TMPD/stdout" "the summary gives the suite's duration"
expect_grep "^results: .*$name\$" "$TMPD/stdout" "the summary names the results file"
! grep -q '^\[[0-9]*/[0-9]*\]' "$TMPD/stderr"
tap $? "no progress lines on stderr when it is not a terminal"
[ -z "$(find "$OUT" -name '*.tmp.*')" ]
tap $? "no temporary files are left in the results directory"

# ---- --only: a part of the suite ----
expect_exit 0 "run --only csum,stream exits 0" -- \
	$BB run --only csum,stream --json "$TMPD/only.json"
got=$(jq -r '[.results[].applet | select(. != "calib")] | join(" ")' "$TMPD/only.json" 2>/dev/null)
[ "$got" = "stream csum" ]
tap $? "  ... runs just those, in the suite's order (got '$got')"
for bad in foo "stream,,csum" "stream," "" "run"; do
	expect_exit 2 "run --only '$bad' exits 2" -- $BB run --only "$bad" --json "$TMPD/bad.json"
	expect_grep "--only" "$TMPD/err" "  ... and names --only"
	[ ! -e "$TMPD/bad.json" ]
	tap $? "  ... and writes no file"
done
