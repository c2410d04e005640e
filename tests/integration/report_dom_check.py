#!/usr/bin/env python3
# tests/integration/report_dom_check.py - the report as a browser lays it
# out (test_report_chromium.sh).
#
#   report_dom_check.py inject REPORT.html COPY.html
#       writes a test-only copy of the report with its Content-Security-
#       Policy removed and a small script added that measures, after
#       layout, the box of every SVG <text> (getBoundingClientRect) and the
#       colour of every series of every chart, and writes what it found as
#       JSON into <pre id="bbcheck"> (the report itself has no script);
#       also whether every table fits the page's width, whether the tallest
#       bar of each bar chart fills at least a fifth of its plot (a far
#       whisker is cut, not allowed to flatten the bars), and whether in a
#       line chart of two or three series each is drawn wider than the ones
#       after it (A stays visible under B).
#   report_dom_check.py check DOM.html
#       reads Chromium's --dump-dom of that copy; prints one line per
#       finding and "texts N series N charts N"; exit 1 when two text boxes
#       intersect, two series of one chart share a colour (and dash), a
#       table is wider than the page, a bar chart is flat or a line hidden.
import html
import json
import re
import sys

SCRIPT = r"""
<script>
(function () {
  var out = { texts: 0, series: 0, charts: 0, overlaps: [], colours: [], wide: [],
              flat: [], hidden: [] };
  var right = document.body.getBoundingClientRect().right;
  document.querySelectorAll('table').forEach(function (t, i) {
    var r = t.getBoundingClientRect();
    if (r.right > right + 1)
      out.wide.push('table ' + i + ' ends at ' + Math.round(r.right) + ', the page at ' +
                    Math.round(right));
  });
  var svgs = document.querySelectorAll('svg');
  var boxes = [];
  function name(svg) {
    var t = svg.querySelector('.title');
    return t ? t.textContent : '(untitled)';
  }
  svgs.forEach(function (svg) {
    out.charts++;
    svg.querySelectorAll('text').forEach(function (t) {
      var r = t.getBoundingClientRect();
      if (r.width > 0 && r.height > 0)
        boxes.push({ l: r.left, t: r.top, r: r.right, b: r.bottom, s: t.textContent,
                     c: name(svg) });
    });
    var seen = {};
    svg.querySelectorAll('.series').forEach(function (s) {
      var col = (s.getAttribute('stroke') || s.getAttribute('fill') || '') + ' ' +
                (s.getAttribute('stroke-dasharray') || '');
      out.series++;
      if (seen[col])
        out.colours.push(name(svg) + ': "' + seen[col] + '" and "' +
                         s.getAttribute('data-series') + '" share ' + col);
      seen[col] = s.getAttribute('data-series');
    });
    var frame = svg.querySelector('rect[stroke="#444"]');
    var plot = frame ? parseFloat(frame.getAttribute('height')) : 0;
    var tallest = 0, bars = 0;
    svg.querySelectorAll('g.series rect').forEach(function (b) {
      bars++;
      tallest = Math.max(tallest, parseFloat(b.getAttribute('height')));
    });
    if (bars && plot > 0 && tallest < 0.2 * plot)
      out.flat.push(name(svg) + ': tallest bar ' + tallest.toFixed(1) + ' of ' + plot);
    var lines = svg.querySelectorAll('polyline.series');
    if (lines.length >= 2 && lines.length <= 3)
      for (var k = 0; k + 1 < lines.length; k++)
        if (!(parseFloat(lines[k].getAttribute('stroke-width')) >
              parseFloat(lines[k + 1].getAttribute('stroke-width'))))
          out.hidden.push(name(svg) + ': "' + lines[k].getAttribute('data-series') +
                          '" is no wider than the series drawn over it');
  });
  out.texts = boxes.length;
  var e = 0.5;   /* boxes that only touch do not count */
  for (var i = 0; i < boxes.length; i++)
    for (var j = i + 1; j < boxes.length; j++) {
      var a = boxes[i], b = boxes[j];
      if (a.l < b.r - e && b.l < a.r - e && a.t < b.b - e && b.t < a.b - e)
        out.overlaps.push(a.c + ': "' + a.s + '" overlaps "' + b.s + '"');
    }
  var pre = document.createElement('pre');
  pre.id = 'bbcheck';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


def inject(src, dst):
    with open(src, encoding="utf-8") as f:
        page = f.read()
    page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page)
    page = page.replace("</body>", SCRIPT + "</body>")
    with open(dst, "w", encoding="utf-8") as f:
        f.write(page)


def check(dom):
    with open(dom, encoding="utf-8", errors="replace") as f:
        m = re.search(r'<pre id="bbcheck">(.*?)</pre>', f.read(), re.S)
    if not m:
        print("no result from the page's script")
        return 1
    out = json.loads(html.unescape(m.group(1)))
    for o in out["overlaps"][:20]:
        print("overlap: " + o)
    for c in out["colours"][:20]:
        print("colour: " + c)
    for k in ("wide", "flat", "hidden"):
        for c in out[k][:20]:
            print(k + ": " + c)
    print("texts %d series %d charts %d overlaps %d shared-colours %d wide %d flat %d hidden %d" % (
        out["texts"], out["series"], out["charts"], len(out["overlaps"]),
        len(out["colours"]), len(out["wide"]), len(out["flat"]), len(out["hidden"])))
    bad = out["overlaps"] or out["colours"] or out["wide"] or out["flat"] or out["hidden"]
    return 1 if bad or not out["texts"] else 0


if __name__ == "__main__":
    if sys.argv[1] == "inject":
        inject(sys.argv[2], sys.argv[3])
        sys.exit(0)
    sys.exit(check(sys.argv[2]))
