#!/bin/sh
# tests/integration/test_run.sh - the quick suite: `boardbench run -o DIR
# --label rev=C` writes exactly one DIR/<host>-rev=C-<UTC>.json holding one
# result per applet of the suite, prints its summary on stdout, shows no
# progress when stderr is not a terminal and leaves no temporary file.
# --repeat N writes N runs, each a file of its own with the same labels and
# its repetition recorded; a taken file name is never written over.
. tests/integration/lib.sh

OUT="$TMPD/results"
t0=$(date +%s)
expect_exit 0 "run -o DIR --label rev=C exits 0" -- $BB run -o "$OUT" --label rev=C
t1=$(date +%s)
cp "$TMPD/out" "$TMPD/stdout"
cp "$TMPD/err" "$TMPD/stderr"
echo "# the quick suite took $((t1 - t0)) s (how long is measured in bench/, not here)"
grep -Eq '^suite took [0-9.]+ s$' "$TMPD/stdout"
tap $? "the quick suite says how long it took"

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

# ttcp: the classic report's one stream, then (more than one CPU) one stream per CPU.
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

# ---- --repeat N: N runs, each a file of its own ----
RD="$TMPD/repeat"
expect_exit 0 "run --repeat 3 --only csum -o DIR --label PMU=1 exits 0" -- \
	$BB run --repeat 3 --only csum -o "$RD" --label PMU=1
cp "$TMPD/out" "$TMPD/rep.out"
set -- "$RD"/*.json
[ $# -eq 3 ] && [ -f "$1" ] && [ -f "$2" ] && [ -f "$3" ]
tap $? "  ... writes 3 files (found $# in $RD)"
bad_names=0
for f in "$@"; do
	echo "$(basename "$f")" | grep -Eq "^${host}-PMU=1-[0-9]{8}T[0-9]{6}Z-r[123]\.json\$" ||
		bad_names=$((bad_names + 1))
done
[ $bad_names -eq 0 ]
tap $? "  ... named <host>-PMU=1-<UTC>-rK.json"
got=$(jq -s -r '[.[].labels | tojson] | unique | join(" ")' "$@" 2>/dev/null)
[ "$got" = '{"PMU":"1"}' ]
tap $? "  ... all with the same labels, PMU=1 alone (got '$got')"
got=$(jq -s -r '[.[] | .results[] | select(.applet == "run") | .params.repeat] | sort
		| map(tostring) | join(" ")' "$@" 2>/dev/null)
[ "$got" = "1 2 3" ]
tap $? "  ... repetition indices 1 2 3 (got '$got')"
jq -s -e 'all(.[]; [.results[] | select(.applet == "run")] as $r | ($r | length) == 1
		and $r[0].params.repeats == 3 and $r[0].status == "ok")' "$@" >/dev/null 2>&1
tap $? "  ... each records one run result with repeats 3"
for f in "$@"; do
	k=$(jq -r '.results[] | select(.applet == "run") | .params.repeat' "$f" 2>/dev/null)
	stamp=$(jq -r '.started_utc' "$f" 2>/dev/null | tr -d ':-')
	case $(basename "$f") in
	*"-$stamp-r$k.json") ;;
	*) bad_names=$((bad_names + 1)) ;;
	esac
done
[ $bad_names -eq 0 ]
tap $? "  ... each file named after its own start time and repetition"
jq -s -e 'all(.[]; [.results[] | select(.applet == "csum")] | length == 1 and .[0].status == "ok")' \
	"$@" >/dev/null 2>&1
tap $? "  ... each a whole run of the suite (--only csum: one csum result, ok)"
for k in 1 2 3; do
	expect_grep "^run $k of 3\$" "$TMPD/rep.out" "  ... stdout says 'run $k of 3'"
done
[ "$(grep -c '^suite took ' "$TMPD/rep.out")" -eq 3 ] && [ "$(grep -c '^csum ' "$TMPD/rep.out")" -eq 3 ]
tap $? "  ... and gives each run's summary"
expect_grep "^3 of 3 runs in .* files written:\$" "$TMPD/rep.out" "  ... and ends with the files written"
listed=0
for f in "$@"; do grep -qxF "  $f" "$TMPD/rep.out" && listed=$((listed + 1)); done
[ $listed -eq 3 ]
tap $? "  ... listing each of the 3 ($listed)"
[ -z "$(find "$RD" -name '*.tmp.*')" ]
tap $? "  ... leaving no temporary file"

for bad in 0 -1 abc 1001 "" 2.5; do
	expect_exit 2 "run --repeat '$bad' exits 2" -- \
		$BB run --repeat "$bad" --only csum --json "$TMPD/bad.json"
	[ "$(wc -l <"$TMPD/err")" -eq 1 ] && grep -qF -- "--repeat" "$TMPD/err" &&
		grep -qF -- "'$bad'" "$TMPD/err" && [ ! -s "$TMPD/out" ]
	tap $? "  ... with one line naming --repeat and '$bad'"
	[ ! -e "$TMPD/bad.json" ] && [ ! -e "$TMPD/bad-1.json" ]
	tap $? "  ... and writes no file"
done

# Several runs cannot be one document on standard output.
for opt in --json --csv; do
	expect_exit 2 "run --repeat 2 $opt - exits 2" -- \
		sh -c "cd '$TMPD' && exec '$BB_ABS' run --repeat 2 --only csum $opt -"
	[ "$(wc -l <"$TMPD/err")" -eq 1 ] && grep -qF -- "$opt" "$TMPD/err" && [ ! -s "$TMPD/out" ] &&
		[ ! -e "$TMPD/--1" ] && [ ! -e "$TMPD/-1" ]
	tap $? "  ... with one line naming $opt, before any run, and no file named after '-'"
done

# --json FILE and --csv FILE with --repeat N > 1: FILE-1.json ... FILE-N.json.
expect_exit 0 "run --repeat 2 --json F.json --csv F.csv exits 0" -- \
	$BB run --repeat 2 --only csum --json "$TMPD/rep.json" --csv "$TMPD/rep.csv"
[ -f "$TMPD/rep-1.json" ] && [ -f "$TMPD/rep-2.json" ] && [ ! -e "$TMPD/rep.json" ] &&
	[ ! -e "$TMPD/rep-3.json" ]
tap $? "  ... writes F-1.json and F-2.json, not F.json"
[ -s "$TMPD/rep-1.csv" ] && [ -s "$TMPD/rep-2.csv" ] && [ ! -e "$TMPD/rep.csv" ]
tap $? "  ... and F-1.csv and F-2.csv, not F.csv"
got=$(for k in 1 2; do jq -r '.results[] | select(.applet == "run") | .params.repeat' \
	"$TMPD/rep-$k.json" 2>/dev/null; done | tr '\n' ' ')
[ "$got" = "1 2 " ]
tap $? "  ... F-K.json holds repetition K (got '$got')"
expect_exit 0 "run --repeat 1 --json F.json exits 0" -- \
	$BB run --repeat 1 --only csum --json "$TMPD/one.json"
[ -f "$TMPD/one.json" ] && [ ! -e "$TMPD/one-1.json" ]
tap $? "  ... and writes F.json as given"
jq -e '[.results[] | select(.applet == "run")] | length == 0' "$TMPD/one.json" >/dev/null 2>&1
tap $? "  ... a single run, as without --repeat (no run result)"

# A taken name is never written over: files (and a directory) already hold
# the default names of the next seconds.
CD="$TMPD/collide"
mkdir -p "$CD"
now=$(date +%s)
for i in 0 1 2 3 4 5 6 7 8 9; do
	u=$(date -u -d "@$((now + i))" +%Y%m%dT%H%M%SZ)
	echo keep >"$CD/${host}-c=1-$u.json"
	mkdir "$CD/${host}-c=1-$u-2.json"
done
expect_exit 0 "run -o DIR with its file names taken exits 0" -- \
	$BB run --only csum --label c=1 -o "$CD"
[ "$(cat "$CD"/*-c=1-*Z.json | grep -c '^keep$')" -eq 10 ]
tap $? "  ... leaves the files already there as they were"
set -- "$CD"/*Z-3.json
[ $# -eq 1 ] && jq -e '.labels.c == "1"' "$1" >/dev/null 2>&1
tap $? "  ... and writes its run to <host>-c=1-<UTC>-3.json ($(basename "$1"))"
expect_grep "^results: $1\$" "$TMPD/out" "  ... which it names"

# A failed run ends the series: the files already written are kept, exit 1.
mkdir "$TMPD/fail-2.json"
expect_exit 1 "run --repeat 3 exits 1 when run 2's file cannot be written" -- \
	$BB run --repeat 3 --only csum --json "$TMPD/fail.json"
jq -e '.results[] | select(.applet == "run") | .params.repeat == 1' "$TMPD/fail-1.json" \
	>/dev/null 2>&1
tap $? "  ... keeps run 1's file"
[ ! -e "$TMPD/fail-3.json" ]
tap $? "  ... and runs no third"
grep -q "fail-2.json" "$TMPD/err" && grep -q "stopped after run 2 of 3" "$TMPD/err"
tap $? "  ... saying what failed and where it stopped"
expect_grep "^2 of 3 runs in .* files written:\$" "$TMPD/out" "  ... and listing what was written"

# Killed in the middle of a series: every file left is whole.
KD="$TMPD/killed"
$BB run --repeat 1000 --only csum -o "$KD" >/dev/null 2>&1 &
pid=$!
sleep 2
kill -TERM $pid 2>/dev/null
{ wait $pid; } 2>/dev/null   # no "Terminated" from the shell
whole=0
set -- "$KD"/*.json
for f in "$@"; do jq -e '.results' "$f" >/dev/null 2>&1 && whole=$((whole + 1)); done
[ -f "$1" ] && [ $whole -eq $# ] && [ -z "$(find "$KD" -name '*.tmp.*')" ]
tap $? "a series killed midway leaves whole files only ($whole of $#), no temporary"
