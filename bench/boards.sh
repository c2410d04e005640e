#!/bin/sh
# bench/boards.sh - every board of boards/table.sh, booted and driven by
# lava-run as CI drives aarch64-virt and bamboo: its image (make
# board-image), then the LAVA job (make board-test: facts, selftest, the
# quick suite, ttcp both ways), one line per board for docs/TARGETS.md's
# boards table.  TCG is slow: BOARD_ONLY (default: the whole suite) limits
# the suite.  Boards not listed on the command line are all of them.
#
#   sh bench/boards.sh [BOARD...]          -> build-boards-bench/summary.txt
set -u
cd "$(dirname "$0")/.." || exit 1
. boards/table.sh
OUT=build-boards-bench
mkdir -p "$OUT"
[ $# -gt 0 ] || set -- $(board_names)
: >"$OUT/summary.txt"
for b in "$@"; do
	t0=$(date +%s)
	if ! make --no-print-directory board-image BOARD="$b" >"$OUT/$b-image.log" 2>&1; then
		line="$b | image failed: $(grep -m1 'boards/' "$OUT/$b-image.log" | tail -1)"
	else
		make --no-print-directory board-test BOARD="$b" >"$OUT/$b-test.log" 2>&1
		rc=$?
		. "build-board-$b/board.env"
		res=$(grep -E '^[a-z0-9_-]+: [0-9]+ passed, [0-9]+ failed' "$OUT/$b-test.log" | tail -1)
		notok=$(grep '^not ok' "$OUT/$b-test.log" | sed 's/^not ok - //' | tr '\n' ';')
		line="$b | $KDESC | ${res:-no result (status $rc)} ${notok:+| failed: $notok}"
	fi
	echo "$line | $(($(date +%s) - t0)) s" | tee -a "$OUT/summary.txt"
done
