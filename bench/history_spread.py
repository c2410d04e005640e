#!/usr/bin/env python3
"""bench/history_spread.py - the spreads that bench/history_sim.c builds
its synthetic histories from, measured on a history database (SQLite):
for every metric, between runs: the standard deviation of the log of each
run's median, estimated robustly (1.4826 x the median absolute deviation,
so that a disturbed run does not set it); within runs: the same over the
log samples of a run around their median, the median over the runs.
Prints a line per metric, then the quartiles of both over the metrics.

    python3 bench/history_spread.py DB [LIKE]    (LIKE: an SQL pattern for keys)
"""
import math
import sqlite3
import struct
import sys


def mad_sd(v):
    v = sorted(v)
    n = len(v)
    med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    d = sorted(abs(x - med) for x in v)
    return 1.4826 * (d[n // 2] if n % 2 else (d[n // 2 - 1] + d[n // 2]) / 2)


def quartiles(v):
    v = sorted(v)
    return v[(len(v) - 1) // 4], v[(len(v) - 1) // 2], v[3 * (len(v) - 1) // 4]


def main():
    db = sqlite3.connect(sys.argv[1])
    like = sys.argv[2] if len(sys.argv) > 2 else "%"
    rows = db.execute("SELECT m.key, s.median, s.vals FROM samples s JOIN metrics m ON m.id = s.metric_id "
                      "JOIN runs r ON r.id = s.run_id WHERE m.aux = 0 AND m.key LIKE ? "
                      "ORDER BY m.key, r.started", (like,))
    per = {}
    for key, median, vals in rows:
        samples = struct.unpack("<%dd" % (len(vals) // 8), vals)
        if median > 0 and all(x > 0 for x in samples):
            per.setdefault(key, []).append((math.log(median), [math.log(x) for x in samples]))
    between, within = [], []
    for key, runs in sorted(per.items()):
        if len(runs) < 5:
            continue
        b = mad_sd([m for m, _ in runs])
        w = sorted(mad_sd(s) for _, s in runs if len(s) >= 3)
        w = w[len(w) // 2] if w else float("nan")
        between.append(b)
        within.append(w)
        print("%-44s %4d runs  between %.4f  within %.4f" % (key, len(runs), b, w))
    print("quartiles over %d metrics: between %.4f %.4f %.4f, within %.4f %.4f %.4f"
          % ((len(between),) + quartiles(between) + quartiles(within)))


if __name__ == "__main__":
    main()
