#!/bin/sh
# tests/integration/test_report.sh - the `report` applet end to end: one
# HTML file from results of every applet (the saved runs in
# tests/fuzz/corpus, two known STREAM runs and a fresh lat run), which
#   - is self-contained: no script, no external reference of any kind;
#   - has the run metadata table and a chart per measurement, each an
#     inline SVG with its axes labelled with units, a legend, and the
#     expected series (checked in the SVG text and in --svg's files, which
#     must parse as XML);
#   - renders in headless Chromium (when installed) to a PNG that is not
#     blank;
# plus --csv, and bad input and bad usage exiting 2 with one line.
. tests/integration/lib.sh
. tests/integration/results_fixture.sh

if $BB report -o "$TMPD/x.html" "$TMPD/x.json" 2>&1 | grep -q "without cJSON"; then
	tap 0 "report # SKIP built without cJSON"
	exit 0
fi
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

R=$TMPD/runs
mkdir -p "$R"
cp tests/fuzz/corpus/*.json "$R/"
mkrun "$R/pmu1.json" label=PMU=1
mkrun "$R/pmu0.json" label=PMU=0 scale=0.96 noise=2
$BB lat --min 1K --max 128K --samples 3 --json "$R/lat-now.json" >/dev/null 2>&1
tap $? "a fresh lat run for the report"
H=$TMPD/report.html

expect_exit 0 "report of every applet's results exits 0" -- \
	$BB report "$R" -o "$H" --svg "$TMPD/svg" --csv "$TMPD/metrics.csv" --title "Board & <test>"
runs=$(ls "$R" | wc -l)
expect_grep "^report: $H ([0-9]* charts from $runs runs)$" "$TMPD/out" "report says what it wrote"

# ---- self-contained ----
for pat in "<script" "src=" "href=" "url(" "@import" "http:" "https:" "<link" "<iframe" "<object"; do
	! grep -qi -- "$pat" "$H"
	tap $? "report.html has no '$pat'"
done
expect_grep "^<!DOCTYPE html>" "$H" "report.html starts with a doctype"
expect_grep "Content-Security-Policy\" content=\"default-src 'none'" "$H" \
	"report.html forbids fetching anything (CSP)"
expect_grep "<title>Board &amp; &lt;test&gt;</title>" "$H" "the title is escaped"
grep -q "</html>" "$H"
tap $? "report.html is complete"

# ---- metadata ----
for row in "host" "CPU" "kernel" "labels" "compiler" "compiler flags" "governor"; do
	grep -Eq "<tr( class=\"differs\")?><th>$row</th>" "$H"
	tap $? "the runs table has a '$row' row"
done
expect_grep "<td>PMU=1</td>" "$H" "the runs table shows the labels"
grep -q '<tr><th>CPU speed (ns per dependent add)</th>.*<td>[0-9.]* ([0-9.]* to [0-9.]* over 6 samples)</td>' "$H"
tap $? "the runs table gives the CPU's speed of the fresh lat run (6 samples)"

# Board identity and setup: a row for each identity fact some run recorded,
# in bold where the runs differ, and a bold row for every other fact that
# differs (never one that varies by design).
F=$TMPD/facts
mkdir -p "$F"
jq '.system += {"dt.model": "Board rev A4", "soc.revision": "1.0", "net.core.rmem_max": "131071",
	"thermal.zone0.temp_c.now": "41.0", "kernel.hz": "250"}' "$R/pmu1.json" >"$F/a4.json"
jq '.system += {"dt.model": "Board rev C", "soc.revision": "2.1", "net.core.rmem_max": "131071",
	"thermal.zone0.temp_c.now": "57.5", "kernel.hz": "250"}' "$R/pmu0.json" >"$F/c.json"
expect_exit 0 "report of two runs with board facts exits 0" -- $BB report "$F" -o "$F/r.html"
grep -q '<tr class="differs"><th>board (device tree)</th><td>Board rev A4</td><td>Board rev C</td>' \
	"$F/r.html"
tap $? "  ... the board row, in bold: the runs differ"
grep -q '<tr class="differs"><th>SoC revision</th><td>1.0</td><td>2.1</td>' "$F/r.html"
tap $? "  ... the SoC revision row, in bold"
grep -q '<tr><th>kernel HZ</th><td>250</td><td>250</td>' "$F/r.html"
tap $? "  ... a fact both runs share: a plain row"
! grep -q 'net.core.rmem_max' "$F/r.html" && ! grep -q 'temp_c.now' "$F/r.html"
tap $? "  ... no row for a shared sysctl or for a temperature (it varies by design)"
! grep -q '<th>board (device tree)</th>' "$H"
tap $? "  ... and no board row when no run recorded one"
expect_exit 0 "report A -- B with board facts exits 0" -- \
	$BB report "$F/a4.json" -- "$F/c.json" -o "$F/ab.html"
grep -q '<h3>A and B differ in</h3>' "$F/ab.html" &&
	grep -q '<td>dt.model</td><td>Board rev A4</td><td>Board rev C</td>' "$F/ab.html" &&
	grep -q '<td>soc.revision</td><td>1.0</td><td>2.1</td>' "$F/ab.html"
tap $? "  ... its A/B view lists the fields in which A and B differ"
! grep -q '<td>net.core.rmem_max</td>' "$F/ab.html" && ! grep -q 'temp_c.now' "$F/ab.html"
tap $? "  ... but not what they share or what varies by design"

# ---- one chart per measurement ----
# csum: several runs of several variants, a small panel per variant
for chart in stream lat csum.ref16 csum.generic32 csum.latency mem.sweep.memcpy mem.tot.memcpy \
	mem.page.copy_page ttcp ttcp.intervals; do
	grep -q "<figure[^>]* id=\"chart-$chart\">" "$H"
	tap $? "chart $chart is in the report"
	[ -s "$TMPD/svg/$chart.svg" ]
	tap $? "--svg wrote $chart.svg"
done
figs=$(grep -c '<figure[^>]* id="chart-' "$H")
svgs=$(grep -c '^<svg ' "$H")
[ "$figs" -eq "$svgs" ] && [ "$figs" -eq "$(ls "$TMPD/svg" | wc -l)" ]
tap $? "every figure holds one inline SVG and has a file in --svg ($figs)"
"$PY" -c 'import sys, xml.etree.ElementTree as E
for f in sys.argv[1:]: E.parse(f)' "$TMPD"/svg/*.svg
tap $? "every --svg file parses as XML"

# chart FILE: the SVG text of one chart
svg_has() {  # chart text description
	grep -qF -- "$2" "$TMPD/svg/$1.svg"
	tap $? "$1.svg: $3"
}
svg_has stream ">bandwidth (MB/s)</text>" "y axis labelled bandwidth (MB/s)"
svg_has stream ">STREAM kernel</text>" "x axis labelled STREAM kernel"
for k in Copy Scale Add Triad; do
	svg_has stream ">$k</text>" "has the $k bars"
done
svg_has stream "data-series=\"PMU=1\"" "has the PMU=1 series"
svg_has stream "data-series=\"PMU=0\"" "has the PMU=0 series"
svg_has stream "class=\"legend\"" "has a legend"
svg_has lat ">latency (ns/load)</text>" "y axis labelled latency (ns/load)"
svg_has lat ">working set (bytes)</text>" "x axis labelled working set (bytes)"
svg_has lat ">1K</text>" "x axis ticks in binary sizes"
svg_has lat "class=\"mark\"" "marks the cache levels found"
svg_has lat ">L1" "labels the L1 level"
svg_has csum.ref16 ">time (ns/call)</text>" "y axis labelled time (ns/call)"
svg_has csum.ref16 ">bytes per call</text>" "x axis labelled bytes per call"
svg_has csum.ref16 "data-series=\"csum\"" "the ref16 panel has the csum run's series"
svg_has csum.generic32 "data-series=\"csum\"" "the generic32 panel has the csum run's series"
svg_has mem.sweep.memcpy ">bandwidth (GB/s)</text>" "y axis labelled bandwidth (GB/s)"
svg_has mem.sweep.memcpy ">size (bytes)</text>" "x axis labelled size (bytes)"
svg_has mem.tot.memcpy ">counter (" "y axis labelled with the counter's unit"
svg_has ttcp ">throughput (Mbit/s = 10^6 bit/s)</text>" \
	"y axis labelled throughput (Mbit/s = 10^6 bit/s)"
svg_has ttcp.intervals ">elapsed time (s)</text>" "x axis labelled elapsed time (s)"
grep -q "<polyline class=\"series\"" "$TMPD/svg/lat.svg" && \
	[ "$(grep -o 'points="[^"]*"' "$TMPD/svg/lat.svg" | head -1 | wc -w)" -ge 8 ]
tap $? "lat.svg draws its curve through every size"

# ---- CSV ----
head -1 "$TMPD/metrics.csv" | grep -q '^file,run,key,applet,series,variant,quantity,unit,better,n,'
tap $? "--csv has its header"
grep -q ',stream.triad.c.bandwidth,stream,Triad,c,bandwidth,B/s,higher,10,' "$TMPD/metrics.csv"
tap $? "--csv has a row per metric with its key, unit and direction"

# ---- a real browser ----
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
	tap 0 "render in Chromium # SKIP chromium is not installed"
else
	mkdir "$TMPD/profile"
	timeout 180 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$TMPD/profile" --screenshot="$TMPD/report.png" \
		--window-size=1200,3000 "file://$H" >"$TMPD/chrome.log" 2>&1
	[ -s "$TMPD/report.png" ]
	tap $? "Chromium renders report.html to a PNG"
	[ -s "$TMPD/report.png" ] || tail -5 "$TMPD/chrome.log" | sed 's/^/#   /'
	stats=$("$PY" tests/integration/png_stats.py "$TMPD/report.png" 2>&1)
	echo "# $stats"
	echo "$stats" | awk '{ exit !($2 >= 50 && $4 >= 0.03) }'
	tap $? "the PNG is not blank (at least 50 colours, 3% of pixels not white)"
	if [ -n "${BB_KEEP_REPORT:-}" ]; then
		cp "$H" "$TMPD/report.png" "$BB_KEEP_REPORT/"
	fi
fi

# ---- bad input and usage ----
printf '{"schema": "boardbench-results", "schema_version": 1, "results": [{"applet": 5}]}' \
	>"$TMPD/bad.json"
$BB report "$TMPD/bad.json" -o "$TMPD/bad.html" >"$TMPD/out" 2>"$TMPD/err"
[ $? -eq 2 ] && [ "$(wc -l <"$TMPD/err")" -eq 1 ] && \
	grep -qF "bad.json: results[0].applet: expected a string, got a number" "$TMPD/err" && \
	[ ! -e "$TMPD/bad.html" ]
tap $? "a bad results file: exit 2, one line naming the file and the key, no report"
expect_exit 2 "report without -o exits 2" -- $BB report "$R/pmu1.json"
expect_exit 2 "report without results exits 2" -- $BB report -o "$TMPD/r.html"
: >"$TMPD/plainfile"
expect_exit 1 "report --svg onto a file exits 1" -- \
	$BB report "$R/pmu1.json" -o "$TMPD/r.html" --svg "$TMPD/plainfile"
expect_exit 1 "report into a missing directory exits 1" -- \
	$BB report "$R/pmu1.json" -o "$TMPD/no/such/dir/r.html"
[ -z "$(find "$TMPD" -name '*.tmp.*')" ]
tap $? "no temporary files left behind"

# ---- a far whisker does not flatten the bars ----
# One Triad sample 500x as fast as the rest (the bandwidth of a sample that
# the clock cut short; one stalled transaction among 12 us ones does the
# same to rr's chart): the bars keep at least a fifth of the plot,
# the whisker is cut at the axis with an arrowhead, and chart and caption
# say so.  Without the stall, nothing is cut.
W=$TMPD/whisker
mkdir -p "$W"
mkrun "$W/plain.json"
jq '(.results[0].series[] | select(.name == "Triad") | .samples[5]) /= 500' "$W/plain.json" \
	>"$W/stall.json"
expect_exit 0 "report of a run with one stalled sample exits 0" -- \
	$BB report "$W/stall.json" -o "$W/stall.html" --svg "$W/svg"
"$PY" - "$W/svg/stream.svg" <<'PYEOF'
import re, sys
svg = open(sys.argv[1], encoding="utf-8").read()
frame = float(re.search(r'<rect x="[0-9.]+" y="[0-9.]+" width="[0-9.]+" height="([0-9.]+)" '
                        r'fill="none" stroke="#444"/>', svg).group(1))
bars = [float(h) for h in re.findall(r'<rect x="[0-9.]+" y="[0-9.]+" width="[0-9.]+" '
                                      r'height="([0-9.]+)"/>', svg)]
sys.exit(0 if bars and max(bars) >= 0.2 * frame else 1)
PYEOF
tap $? "  ... its tallest bar fills at least a fifth of the plot"
grep -q 'class="cut"' "$W/svg/stream.svg" && grep -q 'whisker cut at the axis' "$W/svg/stream.svg"
tap $? "  ... the whisker is cut with an arrowhead, and the chart says so"
grep -q 'whisker end far beyond the bars is cut at the axis' "$W/stall.html"
tap $? "  ... and so does the caption"
$BB report "$W/plain.json" -o "$W/plain.html" >/dev/null 2>&1
! grep -q 'cut at the axis' "$W/plain.html"
tap $? "  ... a run without the stall has nothing cut"

# ---- the header counts the runs compared ----
mkrun "$W/a.json" label=side=A
mkrun "$W/b.json" label=side=B scale=1.01
mkrun "$W/none.json" label=other=x
$BB report --by side "$W/a.json" "$W/b.json" "$W/none.json" -o "$W/by.html" >/dev/null 2>&1
grep -q '<p>2 runs, written by boardbench .* 1 more without the label <code>side</code> left out.' \
	"$W/by.html"
tap $? "report --by: the header counts the 2 runs compared and the one left out"
