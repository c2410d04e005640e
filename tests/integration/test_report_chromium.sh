#!/bin/sh
# tests/integration/test_report_chromium.sh - reports as headless Chromium
# lays them out: reports of 1, 2, 3 and 10 runs (made from two real quick-
# suite runs, report_runs.py; and the saved runs of every applet in
# tests/fuzz/corpus), each copied with a small measuring script injected
# (report_dom_check.py: the report itself has no script), rendered with
# --dump-dom, and checked: no two SVG text boxes intersect, every series of
# a chart has a colour of its own, a run keeps its colour in every chart.
# report --by opens with the verdict table, the forest plot (at most 24
# rows) and the headline table, before the charts.  Skipped without
# chromium or python3.
. tests/integration/lib.sh

CHROME=$(command -v chromium || command -v chromium-browser || true)
PY=$(command -v python3 || true)
if [ -z "$CHROME" ] || [ -z "$PY" ]; then
	echo "ok 1 # SKIP chromium or python3 is not installed"
	exit 0
fi
if $BB report -o "$TMPD/x.html" "$TMPD/x.json" 2>&1 | grep -q "without cJSON"; then
	echo "ok 1 # SKIP built without cJSON"
	exit 0
fi
HERE=tests/integration
mkdir "$TMPD/profile"

chrome() {  # chrome ARGS...: headless, no network, no profile left behind
	timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$TMPD/profile" --window-size=1400,4000 "$@" 2>>"$TMPD/chrome.log"
}

# layout NAME: NAME.html laid out by Chromium, text boxes and colours checked
layout() {
	"$PY" $HERE/report_dom_check.py inject "$TMPD/$1.html" "$TMPD/$1.t.html"
	chrome --run-all-compositor-stages-before-draw --virtual-time-budget=5000 --dump-dom \
		"file://$TMPD/$1.t.html" >"$TMPD/$1.dom"
	"$PY" $HERE/report_dom_check.py check "$TMPD/$1.dom" >"$TMPD/$1.check"
	rc=$?
	sed 's/^/# /' "$TMPD/$1.check" | tail -12
	tap $rc "$2: no two text boxes intersect, no two series of a chart share a colour, every table fits, no bar chart flat, no line hidden"
}

# same_colour NAME: each series name has one colour in every chart
same_colour() {
	"$PY" - "$TMPD/$1.html" <<'EOF'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
seen, bad = {}, 0
for m in re.finditer(r'class="series" data-series="([^"]*)"([^>]*)>', page):
    col = re.search(r'(?:stroke|fill)="(#[0-9a-f]{6})"', m.group(2)).group(1)
    if seen.setdefault(m.group(1), col) != col:
        print("# %s: %s and %s" % (m.group(1), seen[m.group(1)], col))
        bad = 1
sys.exit(bad or len(seen) < 2)
EOF
	tap $? "$2: a run keeps its colour in every chart"
}

for n in 1 2 3 10; do
	"$PY" $HERE/report_runs.py "$TMPD/r$n" $n -
done
# a lat level past the caches sysfs names (empty sysfs) is not drawn
"$PY" - "$TMPD/r1/run-0.json" <<'EOF'
import json, sys
run = json.load(open(sys.argv[1]))
for res in run["results"]:
    if res["applet"] == "lat":
        p = res["params"]
        n = int(p["levels"]) + 1
        p.update({"levels": n, "level%d_name" % n: "L4", "level%d_sysfs" % n: "",
                  "level%d_first_bytes" % n: 2 ** 25, "level%d_last_bytes" % n: 2 ** 26})
json.dump(run, open(sys.argv[1], "w"))
EOF
"$PY" $HERE/report_runs.py "$TMPD/ab" 10 side
mkdir "$TMPD/corpus"
cp tests/fuzz/corpus/*.json "$TMPD/corpus/"

for n in 1 2 3 10; do
	expect_exit 0 "report of $n run(s)" -- $BB report "$TMPD/r$n" -o "$TMPD/r$n.html"
done
expect_exit 0 "report --by side of 10 runs" -- $BB report --by side "$TMPD/ab" -o "$TMPD/ab.html"
expect_exit 0 "report of every applet's saved runs" -- $BB report "$TMPD/corpus" -o "$TMPD/corpus.html"

! grep -q 'class="mark-label"[^>]*>L4<' "$TMPD/r1.html" && grep -q 'class="mark-label"[^>]*>L3<' "$TMPD/r1.html"
tap $? "lat marks the levels the machine has (L3) and no L4 where sysfs names none"

for n in 1 2 3 10; do
	layout r$n "$n run(s)"
done
layout ab "10 runs --by side"
layout corpus "every applet's saved runs"
same_colour r3 "3 runs"
same_colour r10 "10 runs"
same_colour ab "--by side"

# ---- A/B first ----
H=$TMPD/ab.html
v=$(grep -n '<table class="verdicts">' "$H" | cut -d: -f1)
fo=$(grep -n '<figure class="forest">' "$H" | cut -d: -f1)
hl=$(grep -n '<table class="headlines">' "$H" | cut -d: -f1)
ch=$(grep -n '<h2>Charts</h2>' "$H" | cut -d: -f1)
[ -n "$v" ] && [ -n "$fo" ] && [ -n "$hl" ] && [ -n "$ch" ] && [ "$v" -lt "$fo" ] && \
	[ "$fo" -lt "$hl" ] && [ "$hl" -lt "$ch" ]
tap $? "--by: verdict table, forest plot, headline table, then the charts"
for a in stream lat csum mem ttcp; do
	grep -q "^<tr><td>$a</td>" "$H"
	tap $? "--by: the verdict table has a line for $a"
done
grep -q '<td class="slower">B slower: [0-9]* of [0-9]* metrics claimed</td>' "$H"
tap $? "--by: -O0 kernels are claimed slower"
rows=$(grep -c 'class="claimed"\|class="unclaimed"' "$H")
[ "$rows" -ge 5 ] && [ "$rows" -le 24 ]
tap $? "--by: the forest plot has 5..24 rows ($rows)"
grep -q 'more claimed metrics\? not drawn (at most 24 rows)' "$H"
tap $? "--by: the forest plot says how many claimed rows it left out"
grep -q 'data-series="side=A"' "$H" && grep -q 'data-series="side=B"' "$H"
tap $? "--by: a series per group in the charts"
A=$TMPD/ab
expect_exit 0 "report A... -- B..." -- $BB report "$A/run-0.json" "$A/run-2.json" "$A/run-4.json" \
	-- "$A/run-1.json" "$A/run-3.json" "$A/run-5.json" -o "$TMPD/sides.html"
grep -q '<h2>B against A</h2>' "$TMPD/sides.html" && \
	grep -q '<table class="verdicts">' "$TMPD/sides.html" && \
	grep -q 'data-series="A"' "$TMPD/sides.html" && grep -q 'data-series="B"' "$TMPD/sides.html"
tap $? "A... -- B...: the verdicts of B against A, a series per side"
expect_exit 2 "A... -- with no B exits 2" -- $BB report "$A" -- -o "$TMPD/x.html"
expect_exit 2 "--by with -- exits 2" -- $BB report --by side "$A" -- "$A" -o "$TMPD/x.html"
expect_exit 2 "--base with a value no run has exits 2" -- \
	$BB report --by side --base C "$TMPD/ab" -o "$TMPD/x.html"
expect_exit 2 "--by a label of one value exits 2" -- \
	$BB report --by run "$TMPD/r1" -o "$TMPD/x.html"
expect_exit 2 "--base without --by exits 2" -- \
	$BB report --base A "$TMPD/ab" -o "$TMPD/x.html"

# ---- a picture, for a person to look at (BB_KEEP_REPORT=DIR keeps it) ----
chrome --screenshot="$TMPD/ab.png" "file://$H" >/dev/null
stats=$("$PY" $HERE/png_stats.py "$TMPD/ab.png" 2>&1)
echo "# $stats"
echo "$stats" | awk '{ exit !($2 >= 50 && $4 >= 0.03) }'
tap $? "the --by report renders to a PNG that is not blank"
if [ -n "${BB_KEEP_REPORT:-}" ]; then
	cp "$TMPD"/*.html "$TMPD/ab.png" "$BB_KEEP_REPORT/"
fi
