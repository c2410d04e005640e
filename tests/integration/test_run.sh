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
got=$(jq -r '[.results[].applet] | sort | join(" ")' "$json" 2>/dev/null)
want=$(printf '%s\n' $suite | sort | tr '\n' ' ' | sed 's/ $//')
[ -n "$got" ] && [ "$got" = "$want" ]
tap $? "the JSON has one result per quick applet (got '$got', want '$want')"
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
