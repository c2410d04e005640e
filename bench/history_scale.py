#!/usr/bin/env python3
"""bench/history_scale.py - how `boardbench history` scales
(docs/benchmarks/history.md, "Scale"), on generated results files:

  1. ingest: BOARDS x RUNS copies of a real results file TEMPLATE (each
     with its own board.id, boot.id, start time and samples scaled by a
     run factor), `history add DB DIR` timed; the database size per run;
  2. show: one series of that database (`history show METRIC --board B`),
     timed after the lab's analysis is kept, best of 5;
  3. changes: a lab of 200 metrics x 10 boards x 365 runs (files of 50
     STREAM-like variants, 4 kernels each), `history changes` timed when
     it analyses the whole lab and again when it reads the kept analysis.

    python3 bench/history_scale.py BOARDBENCH TEMPLATE.json WORKDIR [BOARDS RUNS [WIDE-BOARDS WIDE-RUNS]]
"""
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time


def stamp(i):
    m = i * 10
    return "2026-%02d-%02dT%02d:%02d:00Z" % (1 + m // 43200, 1 + (m // 1440) % 30, (m // 60) % 24, m % 60)


def write_copies(template, out, boards, runs, kinds=64):
    """Copies of template: each takes one of `kinds` versions with its
    samples scaled by a run factor, then its own start, board and boot."""
    base = json.load(open(template))
    rnd = random.Random(1)
    os.makedirs(out, exist_ok=True)
    base["started_utc"] = "@STARTED@"
    base["system"]["board.id"] = "@BOARD@"
    base["system"]["boot.id"] = "@BOOT@"
    texts = []
    for _ in range(kinds):
        d = json.loads(json.dumps(base))
        f = 1 + 0.02 * rnd.gauss(0, 1)
        for r in d["results"]:
            for s in r["series"]:
                s["samples"] = [x * f * (1 + 0.001 * rnd.gauss(0, 1)) for x in s["samples"]]
        texts.append(json.dumps(d))
    for b in range(boards):
        for i in range(runs):
            t = texts[rnd.randrange(kinds)].replace("@STARTED@", stamp(i)).replace(
                "@BOARD@", "board%02d" % b).replace("@BOOT@", "board%02d-boot%d" % (b, i // 3))
            with open(os.path.join(out, "b%02d-r%04d.json" % (b, i)), "w") as fh:
                fh.write(t)


def write_wide(out, boards, runs, variants=50):
    rnd = random.Random(2)
    os.makedirs(out, exist_ok=True)
    names = ["Copy", "Scale", "Add", "Triad"]
    for b in range(boards):
        for i in range(runs):
            f = 1 + 0.01 * rnd.gauss(0, 1)
            series = []
            for v in range(variants):
                for k, n in enumerate(names):
                    t = 0.01 * (1 + k % 2 * 0.5) * f * (1.1 if (b == 3 and i >= 200 and v < 5) else 1)
                    series.append({"name": n, "variant": "v%02d" % v, "unit": "s", "work": 160000000,
                                   "work_unit": "bytes", "discard": 0,
                                   "samples": [t * (1 + 0.003 * rnd.gauss(0, 1)) for _ in range(5)]})
            d = {"schema": "boardbench-results", "schema_version": 1,
                 "tool": {"name": "boardbench", "version": "0.1.0"}, "command": ["run"],
                 "started_utc": stamp(i), "labels": {},
                 "system": {"hostname": "h", "board.id": "wide%02d" % b},
                 "results": [{"applet": "stream", "status": "ok", "message": "", "params": {},
                              "series": series}]}
            with open(os.path.join(out, "w%02d-r%04d.json" % (b, i)), "w") as fh:
                json.dump(d, fh)


CPU = []   # the CPU time (user + system) of the last command timed


def timed(cmd, repeat=1):
    """The best wall time of `repeat` runs (the machine is shared: the CPU
    time of the best one is kept in CPU[-1] too)."""
    best = None
    for _ in range(repeat):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        dt = time.monotonic() - t0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
        if best is None or dt < best:
            CPU.append(cpu)
        if p.returncode != 0:
            sys.exit("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr[-500:]))
        best = dt if best is None else min(best, dt)
    return best, p.stdout


def main():
    bb, template, work = sys.argv[1:4]
    boards = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    runs = int(sys.argv[5]) if len(sys.argv) > 5 else 1000
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    files, db = os.path.join(work, "files"), os.path.join(work, "lab.sqlite")
    t0 = time.monotonic()
    write_copies(template, files, boards, runs)
    print("generated %d files (%.0f MB) in %.0f s" % (boards * runs, sum(
        os.path.getsize(os.path.join(files, f)) for f in os.listdir(files)) / 1e6, time.monotonic() - t0))
    dt, out = timed([bb, "history", "add", db, files])
    print("add: %.1f s (CPU %.1f s) for %d files (%s)" % (dt, CPU[-1], boards * runs, out.strip()))
    size = sum(os.path.getsize(db + s) for s in ("", "-wal") if os.path.exists(db + s))
    print("database: %.1f MB, %.1f KB a run" % (size / 1e6, size / 1e3 / (boards * runs)))
    dt, _ = timed([bb, "history", "changes", db])
    print("changes, analysing the lab: %.2f s (CPU %.2f s)" % (dt, CPU[-1]))
    dt, _ = timed([bb, "history", "changes", db], 3)
    print("changes, analysis kept: %.3f s (CPU %.3f s)" % (dt, CPU[-1]))
    dt, _ = timed([bb, "history", "show", db, "stream.triad.c.bandwidth", "--board",
                   "board%02d" % (boards - 1)], 5)
    print("show one series (%d runs): %.3f s (CPU %.3f s)" % (runs, dt, CPU[-1]))
    wide, wdb = os.path.join(work, "wide"), os.path.join(work, "wide.sqlite")
    wb, wr = (10, 365) if len(sys.argv) <= 6 else (int(sys.argv[6]), int(sys.argv[7]))
    write_wide(wide, wb, wr)
    dt, _ = timed([bb, "history", "add", wdb, wide])
    print("wide lab (200 metrics x %d boards x %d runs): add %.1f s (CPU %.1f s)" % (wb, wr, dt, CPU[-1]))
    dt, out = timed([bb, "history", "changes", wdb])
    print("wide lab: changes, analysing the lab: %.2f s (CPU %.2f s; %s)" % (dt, CPU[-1], out.splitlines()[0]))
    dt, _ = timed([bb, "history", "changes", wdb], 3)
    print("wide lab: changes, analysis kept: %.3f s (CPU %.3f s)" % (dt, CPU[-1]))
    dt, _ = timed([bb, "history", "show", wdb, "stream.triad.v03.bandwidth", "--board",
                   "wide%02d" % (wb - 1)], 5)
    print("wide lab: show one series: %.3f s (CPU %.3f s)" % (dt, CPU[-1]))
    size = os.path.getsize(wdb) + (os.path.getsize(wdb + "-wal") if os.path.exists(wdb + "-wal") else 0)
    print("wide lab database: %.1f MB, %.1f KB a run" % (size / 1e6, size / 1e3 / (wb * wr)))


if __name__ == "__main__":
    main()
