#!/usr/bin/python3
"""boards/lava_check.py - reads what lava-run printed (LOG: one JSON object
a line, the job's log with its LAVA results and the board's console), writes the files the
board printed between markers (boards/lava/board.sh dump) into FILESDIR,
checked against their size and MD5, and checks the LAVA results against
them, one TAP line per check (boards/lava.sh runs it):

  lava_check.py LOG FILESDIR NET NBUF BUFLEN

Every check holds at any speed: the job completed; every test case passed;
facts named the device tree's model and the CPU; selftest passed; each
applet of the quick suite has a test case with a measurement, equal to the
headline in the results JSON (stream-triad: the median Triad rate); the byte
counts of both network tests are exact at both ends.
"""
import base64, gzip, hashlib, json, os, sys
import yaml

checks = []


def tap(ok, what):
    checks.append(bool(ok))
    print("%s - %s" % ("ok" if ok else "not ok", what))


def read_log(path):
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except ValueError:  # lava-run writes some lines in YAML's flow style
                    try:
                        out.append(yaml.safe_load(line))
                    except yaml.YAMLError:
                        pass
    return out


def target_lines(log):
    for e in log:
        if e.get("lvl") == "target":
            msg = e.get("msg")
            if isinstance(msg, str):
                yield msg.rstrip("\r\n")


def results(log):
    return [e["msg"] for e in log if e.get("lvl") == "results" and isinstance(e.get("msg"), dict)]


def extract_files(lines, filesdir):
    """The files between BOARDBENCH-FILE-BEGIN NAME SIZE MD5 and -END NAME."""
    got, cur, buf = {}, None, []
    for line in lines:
        s = line.strip()
        if s.startswith("BOARDBENCH-FILE-BEGIN "):
            cur, buf = s.split()[1:4], []
        elif s.startswith("BOARDBENCH-FILE-END ") and cur:
            name, size, md5 = cur
            try:
                data = gzip.decompress(base64.b64decode("".join(buf)))
            except Exception as e:  # a mangled block: reported below
                data = b""
                print("# %s: %s" % (name, e))
            ok = len(data) == int(size) and hashlib.md5(data).hexdigest() == md5
            if ok:
                with open(os.path.join(filesdir, name), "wb") as f:
                    f.write(data)
            got[name] = ok
            cur = None
        elif cur:
            buf.append(s)
    return got


def load(filesdir, name):
    try:
        with open(os.path.join(filesdir, name)) as f:
            return json.load(f) if name.endswith(".json") else f.read()
    except (OSError, ValueError):
        return None


def median_triad(run):
    """stream-triad as src/applets/run/lava.c computes it: the median of the kept
    Triad rates of the plain C variant, MB = 10^6 bytes."""
    for r in run.get("results", []):
        if r.get("applet") != "stream":
            continue
        for s in r.get("series", []):
            if s.get("name") == "Triad" and s.get("variant") == "c":
                rates = sorted(s["work"] / t / 1e6 for t in s["samples"][s.get("discard", 0) or 0:])
                n = len(rates)
                if not n:
                    return None
                return rates[n // 2] if n % 2 else (rates[n // 2 - 1] + rates[n // 2]) / 2
    return None


def ttcp_bytes(doc):
    """The payload bytes of the transfer (series "transfer", variant
    "total": work per sample) of the first ttcp result of a file."""
    for r in (doc or {}).get("results", []):
        if r.get("applet") != "ttcp":
            continue
        for s in r.get("series", []):
            if s.get("name") == "transfer" and s.get("variant") == "total":
                return int(s.get("work", -1))
    return None


def main():
    logpath, filesdir, net, nbuf, buflen = sys.argv[1:6]
    want_bytes = int(nbuf) * int(buflen)
    os.makedirs(filesdir, exist_ok=True)
    log = read_log(logpath)
    lines = list(target_lines(log))
    res = results(log)
    job = [r for r in res if r.get("definition") == "lava" and r.get("case") == "job"]
    tap(job and job[-1].get("result") == "pass", "the LAVA job completed (lava job %s)"
        % (job[-1].get("result") if job else "absent"))
    cases = {}
    for r in res:
        if r.get("definition") != "lava":
            cases.setdefault(r["definition"], {})[r["case"]] = r
    for d, cs in sorted(cases.items()):
        bad = sorted(c for c, r in cs.items() if r.get("result") != "pass")
        tap(not bad, "%s: all %d test cases pass%s" % (d, len(cs), (" (not: %s)" % ", ".join(bad)) if bad else ""))
    files = extract_files(lines, filesdir)
    tap(files and all(files.values()), "the board's files came back whole: %s"
        % ", ".join("%s%s" % (n, "" if ok else " (corrupt)") for n, ok in sorted(files.items())))
    chk = cases.get("0_boardbench-checks", {}) or cases.get("1_boardbench-checks", {})
    for c in ("facts-dt-model", "facts-cpu", "selftest"):
        tap(chk.get(c, {}).get("result") == "pass", "%s passes" % c)
    facts = load(filesdir, "facts.txt") or ""
    def fact(*keys):
        for key in keys:
            v = [l.split(": ", 1)[1] for l in facts.splitlines() if l.startswith(key + ": ")]
            if v and v[0].strip():
                return key, v[0].strip()
        return "/".join(keys), None
    for keys in (("dt.model", "board.product_name"), ("cpu.cores", "cpu.name")):
        k, v = fact(*keys)
        tap(v, "facts names %s: %s" % (k, v or "absent"))
    suite = [c for d, cs in cases.items() if d.endswith("_boardbench") for c in cs.values()]
    run = load(filesdir, "boardbench.json")
    tap(run is not None, "the quick suite's results JSON came back")
    # calib is the CPU's own speed, timed before the suite: no test case
    applets = sorted({r.get("applet") for r in (run or {}).get("results", [])} - {"run", "calib", None})
    for a in applets:
        m = [c for c in suite if c["case"].startswith(a + "-") and c.get("measurement") not in (None, "")]
        tap(m, "%s: a LAVA test case with a measurement (%s)" % (a, ", ".join(
            "%s %s %s" % (c["case"], c["measurement"], c.get("units", "")) for c in m) or "none"))
    tri = median_triad(run or {})
    lt = [c for c in suite if c["case"] == "stream-triad"]
    if tri is not None or lt:
        ok = tri and lt and abs(float(lt[0]["measurement"]) / tri - 1) < 1e-3
        tap(ok, "stream-triad's measurement (%s) is the JSON's median Triad (%s MB/s)"
            % (lt[0]["measurement"] if lt else "absent", tri))
    if net == "1":
        nc = cases.get("2_boardbench-net", {})
        tap(nc.get("ttcp-to-host", {}).get("result") == "pass", "ttcp board -> host passes")
        tap(ttcp_bytes(load(filesdir, "ttcp-to-host.json")) == want_bytes,
            "board -> host: the board sent %d bytes (%s)" % (want_bytes, ttcp_bytes(load(filesdir, "ttcp-to-host.json"))))
        tap(ttcp_bytes(load(filesdir, "host-rx.json")) == want_bytes,
            "board -> host: the host received %d bytes (%s)" % (want_bytes, ttcp_bytes(load(filesdir, "host-rx.json"))))
        tap(nc.get("to-server-from-host", {}).get("result") == "pass", "host -> board's server passes")
        tap(ttcp_bytes(load(filesdir, "host-tx.json")) == want_bytes,
            "host -> board: the host sent %d bytes (%s)" % (want_bytes, ttcp_bytes(load(filesdir, "host-tx.json"))))
        tap(ttcp_bytes(load(filesdir, "server-test.json")) == want_bytes,
            "host -> board: the board's server counted %d bytes (%s)" % (want_bytes, ttcp_bytes(load(filesdir, "server-test.json"))))
    return 0 if all(checks) else 1


if __name__ == "__main__":
    sys.exit(main())
