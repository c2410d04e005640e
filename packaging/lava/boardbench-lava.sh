#!/bin/sh
# boardbench-lava.sh - runs boardbench's quick suite on a LAVA device and
# reports it: a test case "boardbench-run" (pass when the suite exited 0),
# then one test case per headline metric from `boardbench run --lava FILE`.
# Outside LAVA (no lava-test-case in PATH) it prints the lines instead.
#
#   boardbench-lava.sh [-b BOARDBENCH] [-l "KEY=VALUE ..."] [-o APPLETS] [-d DIR]
set -u

BB=boardbench
LABELS=""
ONLY=""
OUT=./output

usage() {
	echo "usage: $0 [-b BOARDBENCH] [-l \"KEY=VALUE ...\"] [-o APPLETS] [-d OUTPUT_DIR]" >&2
	exit 2
}

while getopts "b:l:o:d:h" opt; do
	case $opt in
	b) BB=$OPTARG ;;
	l) LABELS=$OPTARG ;;
	o) ONLY=$OPTARG ;;
	d) OUT=$OPTARG ;;
	*) usage ;;
	esac
done
[ -n "$BB" ] || usage

report() {  # NAME RESULT
	if command -v lava-test-case >/dev/null 2>&1; then
		lava-test-case "$1" --result "$2"
	else
		echo "lava-test-case $1 --result $2"
	fi
}

mkdir -p "$OUT" || exit 1
set -- run --json "$OUT/boardbench.json" --lava "$OUT/lava-test-cases.sh"
[ -n "$ONLY" ] && set -- "$@" --only "$ONLY"
for l in $LABELS; do
	set -- "$@" --label "$l"
done

"$BB" --version
rm -f "$OUT/lava-test-cases.sh"
"$BB" "$@"
rc=$?
if [ "$rc" -eq 0 ]; then
	report boardbench-run pass
else
	report boardbench-run fail
fi
# Whatever completed is reported even after a failure: the failed applets'
# own test cases say fail.
if [ -f "$OUT/lava-test-cases.sh" ]; then
	if command -v lava-test-case >/dev/null 2>&1; then
		sh "$OUT/lava-test-cases.sh"
	else
		cat "$OUT/lava-test-cases.sh"
	fi
fi
exit 0
