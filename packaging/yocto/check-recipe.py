#!/usr/bin/env python3
"""check-recipe.py - a syntax-level check of the boardbench recipe and layer
without bitbake (no OE build in CI).

    packaging/yocto/check-recipe.py [--selftest] [RECIPE.bb ...]

For each recipe: every line is a comment, an assignment (=, ?=, ??=, :=,
+=, .=, =+, =.), an inherit, a shell function or a continuation; quotes
balance; SUMMARY (at most 80 characters), DESCRIPTION, SECTION, LICENSE and
a source (SRC_URI, or externalsrc) are set; do_compile and do_install are
defined; a versioned file name (boardbench_X.Y.Z.bb) matches BB_VERSION in
src/core/version.h.  Licence: for each file:// entry of LIC_FILES_CHKSUM
the md5 of the file (or of its beginline..endline) must match; LICENSE =
"CLOSED" needs no checksum, but is refused when the source tree holds a
LICENSE or COPYING file.  conf/layer.conf must name its collection and
LAYERSERIES_COMPAT.  --selftest checks that the licence checks fail when
they should, on recipes made up in a temporary directory.
Exit status: 0 clean, 1 a problem (one line each).
"""
import glob
import hashlib
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))

ASSIGN = re.compile(r'^([A-Za-z_][A-Za-z0-9_:${}\-\[\]./]*)\s*'
                    r'(\?\?=|\?=|:=|\+=|\.=|=\+|=\.|=)\s*"(.*)"\s*$', re.S)
FUNC = re.compile(r'^(python\s+)?[A-Za-z_][A-Za-z0-9_:${}-]*\s*\(\)\s*\{\s*$')


def logical_lines(text):
    """Joins backslash continuations; yields (first line number, text)."""
    buf, start = "", None
    for n, line in enumerate(text.splitlines(), 1):
        if start is None:
            start = n
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        yield start, buf + line
        buf, start = "", None
    if start is not None:
        yield start, buf


def parse(path, problems):
    """The recipe's variables and functions; syntax problems appended."""
    text = open(path, encoding="utf-8").read()
    vars_, funcs, inherits = {}, set(), []
    in_func = None
    for n, line in logical_lines(text):
        where = "%s:%d" % (os.path.relpath(path, TOP), n)
        stripped = line.strip()
        if in_func:
            if stripped == "}":
                in_func = None
            continue
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("inherit "):
            inherits += stripped.split()[1:]
            continue
        m = FUNC.match(stripped)
        if m:
            in_func = stripped.split("(")[0].split()[-1]
            funcs.add(in_func)
            continue
        m = ASSIGN.match(stripped)
        if not m:
            problems.append("%s: not an assignment, inherit or function: %s"
                            % (where, stripped[:60]))
            continue
        if m.group(3).count('"') % 2:
            problems.append("%s: unbalanced quotes" % where)
        vars_.setdefault(m.group(1), m.group(3))
    if in_func:
        problems.append("%s: function %s is never closed"
                        % (os.path.relpath(path, TOP), in_func))
    return vars_, funcs, inherits


def md5_of(path, begin=None, end=None):
    with open(path, "rb") as f:
        lines = f.read().splitlines(True)
    if begin or end:
        lines = lines[(int(begin) if begin else 1) - 1:int(end) if end else None]
    return hashlib.md5(b"".join(lines)).hexdigest()


def check_license(vars_, top, problems, name):
    lic = vars_.get("LICENSE", "")
    chk = vars_.get("LIC_FILES_CHKSUM", "").split()
    files = [p for p in ("LICENSE", "LICENCE", "COPYING")
             if glob.glob(os.path.join(top, p + "*"))]
    if lic == "CLOSED":
        if files:
            problems.append("%s: LICENSE is CLOSED, but the source tree has %s"
                            % (name, ", ".join(files)))
        return
    if not chk:
        problems.append("%s: LICENSE %s needs LIC_FILES_CHKSUM" % (name, lic))
    for entry in chk:
        if not entry.startswith("file://"):
            problems.append("%s: LIC_FILES_CHKSUM entry %s is not file://"
                            % (name, entry))
            continue
        parts = entry[len("file://"):].split(";")
        params = dict(p.split("=", 1) for p in parts[1:] if "=" in p)
        path = os.path.join(top, parts[0])
        if not os.path.isfile(path):
            problems.append("%s: LIC_FILES_CHKSUM names %s, not in the tree"
                            % (name, parts[0]))
            continue
        got = md5_of(path, params.get("beginline"), params.get("endline"))
        if params.get("md5") != got:
            problems.append("%s: md5 of %s is %s, LIC_FILES_CHKSUM says %s"
                            % (name, parts[0], got, params.get("md5")))


def release():
    text = open(os.path.join(TOP, "src", "core", "version.h")).read()
    m = re.search(r'#define BB_VERSION "([^"]+)"', text)
    return m.group(1) if m else None


def check_recipe(path, top=TOP):
    problems = []
    name = os.path.relpath(path, TOP)
    vars_, funcs, inherits = parse(path, problems)
    for v in ("SUMMARY", "DESCRIPTION", "SECTION", "LICENSE"):
        if not vars_.get(v):
            problems.append("%s: %s is not set" % (name, v))
    if len(vars_.get("SUMMARY", "")) > 80:
        problems.append("%s: SUMMARY is over 80 characters" % name)
    if "SRC_URI" not in vars_ and "externalsrc" not in inherits:
        problems.append("%s: no SRC_URI and no externalsrc" % name)
    for f in ("do_compile", "do_install"):
        if f not in funcs:
            problems.append("%s: %s is not defined" % (name, f))
    m = re.match(r"^[a-z0-9-]+_([0-9][^_]*)\.bb$", os.path.basename(path))
    if m and top == TOP and m.group(1) != release():
        problems.append("%s: version %s, but src/core/version.h says %s"
                        % (name, m.group(1), release()))
    check_license(vars_, top, problems, name)
    return problems


def check_layer():
    conf = os.path.join(HERE, "conf", "layer.conf")
    if not os.path.isfile(conf):
        return ["packaging/yocto/conf/layer.conf is missing"]
    text = open(conf).read()
    return ["layer.conf: no %s" % v for v in
            ("BBFILE_COLLECTIONS", "BBFILE_PATTERN_", "LAYERSERIES_COMPAT_")
            if v not in text]


def selftest():
    """The licence checks fail where they should."""
    bad = []
    base = ('SUMMARY = "s"\nDESCRIPTION = "d"\nSECTION = "benchmark"\n'
            'SRC_URI = "file://x"\ndo_compile() {\n    :\n}\n'
            'do_install() {\n    :\n}\n')
    with tempfile.TemporaryDirectory() as top:
        with open(os.path.join(top, "LICENSE"), "w") as f:
            f.write("line one\nline two\n")
        good = md5_of(os.path.join(top, "LICENSE"))
        cases = [
            ('LICENSE = "MIT"\nLIC_FILES_CHKSUM = "file://LICENSE;md5=%s"\n'
             % good, True),
            ('LICENSE = "MIT"\nLIC_FILES_CHKSUM = "file://LICENSE;md5=%s"\n'
             % ("0" * 32), False),
            ('LICENSE = "MIT"\nLIC_FILES_CHKSUM = "file://LICENSE;'
             'beginline=2;endline=2;md5=%s"\n' % good, False),
            ('LICENSE = "MIT"\n', False),
            ('LICENSE = "CLOSED"\n', False),
            ('LICENSE = "MIT"\nLIC_FILES_CHKSUM = "file://NOPE;md5=%s"\n'
             % good, False),
            ('LICENSE = "MIT"\nSTRAY LINE\n', False),
        ]
        for i, (extra, ok) in enumerate(cases):
            path = os.path.join(top, "t%d_1.0.bb" % i)
            with open(path, "w") as f:
                f.write(base + extra)
            got = check_recipe(path, top)
            if (not got) != ok:
                bad.append("selftest case %d: wanted %s, got %s"
                           % (i, "clean" if ok else "a problem", got))
    return bad


def main(argv):
    problems = []
    if "--selftest" in argv:
        argv = [a for a in argv if a != "--selftest"]
        problems += selftest()
    recipes = argv or sorted(glob.glob(os.path.join(HERE, "recipes-*", "*",
                                                    "*.bb")))
    if not recipes:
        problems.append("no recipe found under packaging/yocto")
    for r in recipes:
        problems += check_recipe(r)
    problems += check_layer()
    for p in problems:
        print(p)
    print("%d recipe(s) checked, %d problem(s)" % (len(recipes), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
