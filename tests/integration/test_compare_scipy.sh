#!/bin/sh
# tests/integration/test_compare_scipy.sh - the p-values, U statistics,
# figures, ratios and intervals of `boardbench compare` checked against
# SciPy and NumPy (Debian's python3-scipy) by scipy_check.py, on synthetic
# samples: exact and normal cases, with and without ties, pooled and per
# run.
# Skipped when SciPy or cJSON is not there.
. tests/integration/lib.sh

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
if $BB compare --help >/dev/null 2>&1 && $BB compare "$TMPD/x" "$TMPD/y" 2>&1 | grep -q "without cJSON"; then
	tap 0 "compare against SciPy # SKIP built without cJSON"
	exit 0
fi
"$PY" tests/integration/scipy_check.py "$BB" "$TMPD" >"$TMPD/check" 2>&1
rc=$?
if grep -q '^SKIP' "$TMPD/check"; then
	tap 0 "compare against SciPy # SKIP $(sed -n 's/^SKIP //p' "$TMPD/check")"
	exit 0
fi
[ "$rc" -eq 0 ] && grep -q '^PASS' "$TMPD/check"
tap $? "scipy_check.py ran"
while read -r word rest; do
	case $word in
	PASS) tap 0 "$rest" ;;
	FAIL) tap 1 "$rest" ;;
	*) echo "# $word $rest" ;;
	esac
done <"$TMPD/check"
