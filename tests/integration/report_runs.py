#!/usr/bin/env python3
# tests/integration/report_runs.py - results files for the report's
# browser test, made from two real quick-suite runs of one machine
# (fixtures/quick-run.json.gz: a normal build, labelled side=A;
# fixtures/quick-run-O0.json.gz: kernels built with -O0, side=B).
#
#   report_runs.py DIR N [KEY]
#
# writes N runs into DIR: run i is the A run (even i) or the B run (odd
# i), every sample times 1 + 0.01 i (so that no two runs are the same),
# labelled KEY=A or KEY=B (default key "side"), or, with KEY "-", each
# with a label of its own (run=i).  Standard library only.
import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    with gzip.open(os.path.join(HERE, "fixtures", name), "rt") as f:
        return json.load(f)


def scale(run, factor):
    for res in run["results"]:
        for s in res.get("series", []):
            s["samples"] = [v * factor for v in s["samples"]]
            s.pop("values", None)
            s.pop("stats", None)


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    key = sys.argv[3] if len(sys.argv) > 3 else "side"
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        run = load("quick-run.json.gz" if i % 2 == 0 else "quick-run-O0.json.gz")
        scale(run, 1 + 0.01 * i)
        side = "A" if i % 2 == 0 else "B"
        run["labels"] = {"run": str(i)} if key == "-" else {key: side}
        with open(os.path.join(out, "run-%d.json" % i), "w") as f:
            json.dump(run, f)


main()
