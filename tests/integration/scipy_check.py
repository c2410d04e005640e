#!/usr/bin/env python3
# tests/integration/scipy_check.py - checks the statistics of `boardbench
# compare` against SciPy and NumPy, computed independently.  On pooled
# samples: the U statistic and two-sided p-value of scipy.stats.mannwhitneyu
# (exact without ties for small samples, else the normal approximation with
# tie and continuity corrections), the figures (NumPy's medians), their
# ratio and its interval (Price and Bonett: each log median's standard
# error from two order statistics, with SciPy's binomial and normal).
# With 3 or more runs a side: Welch's t-test on the logs of the run
# medians (scipy.stats.ttest_ind, equal_var=False), the figures (their
# geometric means), their ratio and its interval (Student's t with the
# Welch-Satterthwaite degrees of freedom).
# Usage: scipy_check.py BB WORKDIR; prints PASS/FAIL lines, or SKIP.
import csv
import json
import math
import os
import random
import subprocess
import sys

try:
    import numpy as np
    from scipy import stats
except ImportError as e:
    print("SKIP python3-scipy is not installed (%s)" % e)
    sys.exit(0)

BB, WORK = sys.argv[1], sys.argv[2]
ALPHA = 0.05

# (n_a, n_b, kind): continuous values, or ties (rounded to a coarse grid).
CASES = [(5, 5, "cont"), (6, 8, "cont"), (8, 8, "cont"), (10, 12, "cont"), (12, 12, "cont"),
         (25, 25, "cont"), (30, 30, "cont"), (40, 35, "cont"),
         (5, 7, "ties"), (10, 10, "ties"), (20, 25, "ties"), (9, 9, "shift")]


def draw(rng, n, kind, shift):
    x = [100 * (1 + 0.03 * rng.gauss(0, 1)) * shift for _ in range(n)]
    return [round(v, 0) for v in x] if kind == "ties" else x


def results_file(path, samples):
    series = [{"name": "case%d" % i, "variant": "v", "unit": "widgets", "work": 1,
               "work_unit": "things", "discard": 0, "samples": s} for i, s in enumerate(samples)]
    doc = {"schema": "boardbench-results", "schema_version": 1,
           "results": [{"applet": "synthetic", "series": series}]}
    with open(path, "w") as f:
        json.dump(doc, f)


def check(i, a, b, row, out):
    name = "case %d (%d vs %d)" % (i, len(a), len(b))
    ties = len(set(a + b)) < len(a) + len(b)
    exact = not ties and math.log2(math.comb(len(a) + len(b), len(a))) <= 50
    method = "exact" if exact else "asymptotic"
    ref = stats.mannwhitneyu(a, b, alternative="two-sided", method=method, use_continuity=True)
    out.append((row["test"] == ("mwu-exact" if exact else "mwu-normal"), name + ": p method " + method))
    out.append((float(row["u"]) == ref.statistic, name + ": U %s = scipy %s" % (row["u"], ref.statistic)))
    p = float(row["p"])
    out.append((abs(p - ref.pvalue) <= 1e-9 * max(ref.pvalue, 1e-300) + 1e-15,
                name + ": p %.12g = scipy %.12g" % (p, ref.pvalue)))
    ma, mb = float(np.median(a)), float(np.median(b))
    ok = (abs(float(row["figure_a"]) / ma - 1) < 1e-12 and abs(float(row["figure_b"]) / mb - 1) < 1e-12
          and row["estimator"] == "median_of_samples")
    out.append((ok, name + ": figures %s, %s = numpy medians %.15g, %.15g" %
                (row["figure_a"], row["figure_b"], ma, mb)))
    out.append((abs(float(row["ratio"]) / (mb / ma) - 1) < 1e-12,
                name + ": ratio %s = the medians' ratio %.15g" % (row["ratio"], mb / ma)))
    s = math.hypot(median_se(a) / ma, median_se(b) / mb)
    z = stats.norm.ppf(1 - ALPHA / 2)
    lo, hi = mb / ma * math.exp(-z * s), mb / ma * math.exp(z * s)
    ok = abs(float(row["ci_low"]) / lo - 1) < 1e-9 and abs(float(row["ci_high"]) / hi - 1) < 1e-9
    out.append((ok, name + ": interval [%s, %s] = Price-Bonett [%.12g, %.12g]" %
                (row["ci_low"], row["ci_high"], lo, hi)))


def median_se(x):
    """The standard error of a median from two order statistics (Price and
    Bonett), with SciPy's binomial and normal distributions."""
    x, n = np.sort(np.array(x)), len(x)
    k = max(1, math.floor((n - 1.959963984540054 * math.sqrt(n)) / 2 + 0.5))
    p = stats.binom.cdf(k - 1, n, 0.5)
    return (x[n - k] - x[k - 1]) / (2 * stats.norm.ppf(1 - p))


# (runs of A, runs of B, shift of B) for the per-run (Welch) checks.
WELCH_CASES = [(3, 3, 1.0), (5, 5, 1.0), (5, 5, 1.04), (3, 6, 0.97), (8, 7, 1.02)]


def welch_check(rng):
    """Each run holds one series per case, its samples around the run's
    median; compare tests the run medians with Welch's t on logs."""
    nmax = max(max(na, nb) for na, nb, _ in WELCH_CASES)
    meds = [([100 * (1 + 0.03 * rng.gauss(0, 1)) for _ in range(na)],
             [100 * sh * (1 + 0.03 * rng.gauss(0, 1)) for _ in range(nb)])
            for na, nb, sh in WELCH_CASES]
    files = {"A": [], "B": []}
    for side, k in (("A", 0), ("B", 1)):
        for j in range(nmax):
            samples = [[m * 0.99, m, m * 1.01] for m in
                       (meds[i][k][j] if j < len(meds[i][k]) else None for i in range(len(meds)))
                       if m is not None]
            cases = [i for i in range(len(meds)) if j < len(meds[i][k])]
            path = os.path.join(WORK, "w%s%d.json" % (side, j))
            series = [{"name": "welch%d" % i, "variant": "v", "unit": "widgets", "work": 1,
                       "work_unit": "things", "discard": 0, "samples": smp}
                      for i, smp in zip(cases, samples)]
            with open(path, "w") as f:
                json.dump({"schema": "boardbench-results", "schema_version": 1,
                           "results": [{"applet": "synthetic", "series": series}]}, f)
            files[side].append(path)
    fc = os.path.join(WORK, "w.csv")
    r = subprocess.run([BB, "compare", "--csv", fc] + files["A"] + ["--"] + files["B"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return [(False, "welch: compare exited %d: %s" % (r.returncode, r.stderr.strip()))]
    rows = {row["key"]: row for row in csv.DictReader(open(fc))}
    out = []
    for i, (a, b) in enumerate(meds):
        name = "welch case %d (%d vs %d runs)" % (i, len(a), len(b))
        row = rows.get("synthetic.welch%d.v.value" % i)
        if row is None:
            out.append((False, name + ": no row in the CSV"))
            continue
        la, lb = np.log(a), np.log(b)
        ref = stats.ttest_ind(lb, la, equal_var=False)
        va, vb = la.var(ddof=1) / len(a), lb.var(ddof=1) / len(b)
        df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
        d, q = lb.mean() - la.mean(), stats.t.ppf(1 - ALPHA / 2, df) * math.sqrt(va + vb)
        out.append((row["test"] == "welch" and row["basis"] == "runs" and
                    row["estimator"] == "geomean_of_run_figures",
                    name + ": tested with welch on run figures"))
        ga, gb = math.exp(la.mean()), math.exp(lb.mean())
        ok = (abs(float(row["figure_a"]) / ga - 1) < 1e-12 and
              abs(float(row["figure_b"]) / gb - 1) < 1e-12 and
              abs(float(row["ratio"]) / (float(row["figure_b"]) / float(row["figure_a"])) - 1) < 1e-12)
        out.append((ok, name + ": figures %s, %s = the geometric means %.15g, %.15g, their ratio the change" %
                    (row["figure_a"], row["figure_b"], ga, gb)))
        p = float(row["p"])
        out.append((abs(p - ref.pvalue) <= 1e-9 * ref.pvalue + 1e-15,
                    name + ": p %.12g = scipy %.12g" % (p, ref.pvalue)))
        out.append((abs(float(row["ratio"]) / math.exp(d) - 1) < 1e-12,
                    name + ": ratio %s = %.15g" % (row["ratio"], math.exp(d))))
        ok = (abs(float(row["ci_low"]) / math.exp(d - q) - 1) < 1e-9 and
              abs(float(row["ci_high"]) / math.exp(d + q) - 1) < 1e-9)
        out.append((ok, name + ": interval [%s, %s] = [%.12g, %.12g]" %
                    (row["ci_low"], row["ci_high"], math.exp(d - q), math.exp(d + q))))
    return out


def main():
    rng = random.Random(20261129)
    a_all, b_all = [], []
    for na, nb, kind in CASES:
        a_all.append(draw(rng, na, kind, 1.0))
        b_all.append(draw(rng, nb, kind, 1.05 if kind == "shift" else 1.0))
    fa, fb, fc = (os.path.join(WORK, f) for f in ("sa.json", "sb.json", "s.csv"))
    results_file(fa, a_all)
    results_file(fb, b_all)
    r = subprocess.run([BB, "compare", "--csv", fc, fa, fb], capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL compare exited %d: %s" % (r.returncode, r.stderr.strip()))
        return
    rows = {row["key"]: row for row in csv.DictReader(open(fc))}
    out = []
    for i in range(len(CASES)):
        row = rows.get("synthetic.case%d.v.value" % i)
        if row is None:
            out.append((False, "case %d: no row in the CSV" % i))
            continue
        check(i, a_all[i], b_all[i], row, out)
    out += welch_check(rng)
    for ok, what in out:
        print(("PASS " if ok else "FAIL ") + what)


main()
