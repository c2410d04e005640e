#!/bin/sh
# tests/run.sh - runs every test and ends with "N passed, N failed".
#
# Unit tests are cmocka binaries (UNIT_BINS), run with TAP output;
# integration tests are tests/integration/test_*.sh scripts that run the
# built binary ($BB) and print TAP lines through tests/integration/lib.sh.
# INTEGRATION=0 runs the unit tests alone (make unit).
# A program that exits non-zero without reporting a failing test (a crash,
# a sanitizer abort) counts as one failure of its own.
set -u
: "${BB:=./boardbench}"
: "${UNIT_BINS:=}"
export BB
BB_ABS=$(cd "$(dirname "$BB")" && pwd)/$(basename "$BB")
export BB_ABS
pass=0
fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

count() {  # name, exit code; reads TAP from $log
	p=$(grep -c '^ok ' "$log")
	f=$(grep -c '^not ok ' "$log")
	if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $1 exited with status $2 without a failing test"
		f=1
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $1 ran no test"
		f=1
	fi
	pass=$((pass + p))
	fail=$((fail + f))
}

for t in $UNIT_BINS; do
	echo "# $t"
	CMOCKA_MESSAGE_OUTPUT=TAP "$t" >"$log" 2>&1
	rc=$?
	cat "$log"
	count "$t" "$rc"
done

for t in tests/integration/test_*.sh; do
	[ "${INTEGRATION:-1}" = 0 ] && break
	[ -f "$t" ] || continue
	echo "# $t"
	sh "$t" >"$log" 2>&1
	rc=$?
	cat "$log"
	count "$t" "$rc"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
