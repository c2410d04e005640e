#!/bin/sh
# scripts/golden.sh - records what boardbench shows a user, in files that a
# restructuring of the tree must leave byte for byte as they were
# (docs/DESIGN.md, "Moving code"):
#   list.txt          boardbench --list
#   version.txt       --version: the release and the names of its fields
#   help/NAME.txt     every applet's --help (ttcp's server and client too)
#   compare-*.txt     compare on known results files (results_fixture.sh
#                     and the saved runs in tests/fuzz/corpus): summaries,
#                     --all, --by, --variants, and --csv
#   report-*.html     report on the same files, version and git revision
#                     left out
#   shape-NAME.txt    the key paths of each applet's quick-profile result
#                     in a run's JSON (arrays as [], numbers in names as
#                     N: lat finds as many levels as it finds; values left
#                     out; what a machine records varies by machine)
#
#   scripts/golden.sh [-q] OUTDIR      BB=path/to/boardbench (./boardbench)
#
# -q leaves out the shapes, which run the quick suite (a minute).  Compare
# two records with `diff -r`; tests/integration/test_golden.sh compares a
# fresh record with tests/golden/.
set -eu
BB=${BB:-./boardbench}
case $BB in /*) ;; *) BB=$PWD/$BB ;; esac   # also a bare name: this directory's
quick=0
[ "${1:-}" = -q ] && { quick=1; shift; }
[ $# -eq 1 ] || { echo "usage: scripts/golden.sh [-q] OUTDIR" >&2; exit 2; }
OUT=$1
mkdir -p "$OUT/help"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=/dev/null
. tests/integration/results_fixture.sh

"$BB" --list >"$OUT/list.txt"
"$BB" --version | sed 's/ (git [^)]*)$//; s/^\([^:]*\): .*/\1:/' >"$OUT/version.txt"
for a in $("$BB" --list | awk '{print $1}'); do
	"$BB" "$a" --help >"$OUT/help/$a.txt" 2>&1 || true
done
"$BB" ttcp -r --server --help >"$OUT/help/ttcp-server.txt" 2>&1 || true
"$BB" ttcp --to-server host.invalid --help >"$OUT/help/ttcp-client.txt" 2>&1 || true

# Known results: five runs a side of a STREAM-like suite, B 4% slower, and
# the saved runs of every applet.
R=$WORK/r
mkdir -p "$R/ab" "$R/corpus"
for k in 1 2 3 4 5; do
	mkrun "$R/ab/a$k.json" label=side=A noise=$((k % 2 + 1)) calib=1 boot=boot-a$k
	mkrun "$R/ab/b$k.json" label=side=B scale=1.04 noise=$(((k + 1) % 2 + 1)) calib=1 boot=boot-b$k
done
mkrun "$R/v.json" variants="c fast" fast=0.8
cp tests/fuzz/corpus/*.json "$R/corpus/"

# cmp NAME ARGS...: compare's output (stdout and stderr) and status.
cmp_out() {
	name=$1
	shift
	(cd "$R" && "$BB" compare "$@") >"$OUT/compare-$name.txt" 2>&1 || echo "exit $?" >>"$OUT/compare-$name.txt"
}
cmp_out ab ab --by side --base A
cmp_out ab-all --all ab --by side --base A
cmp_out ab-files ab/a1.json ab/a2.json ab/a3.json -- ab/b1.json ab/b2.json ab/b3.json
cmp_out ab-one ab/a1.json ab/b1.json
cmp_out variants --variants v.json c fast
cmp_out corpus-all --all corpus/stream.json corpus/csum.json corpus/mem-tot.json -- \
	corpus/stream.json corpus/csum.json corpus/mem-tot.json
cmp_out ab-csv --csv - ab --by side --base A
cmp_out corpus-lat --all corpus/lat.json corpus/lat.json

# report NAME ARGS...: the HTML with the version and revision left out.
rep_out() {
	name=$1
	shift
	(cd "$R" && "$BB" report -o "$WORK/$name.html" "$@") >"$OUT/report-$name.txt" 2>&1 ||
		echo "exit $?" >>"$OUT/report-$name.txt"
	sed 's/written by boardbench [^ ]* (git [^)]*)/written by boardbench/' "$WORK/$name.html" \
		>"$OUT/report-$name.html" 2>/dev/null || true
	sed -i "s#$WORK#WORK#g" "$OUT/report-$name.txt"
}
rep_out corpus corpus
rep_out ab --by side --base A ab
rep_out ab-sides ab/a1.json ab/a2.json ab/a3.json -- ab/b1.json ab/b2.json ab/b3.json

[ "$quick" -eq 1 ] && exit 0
# The shape of each applet's quick-profile result: its key paths.
"$BB" run --json "$WORK/run.json" -o "$WORK/results" >/dev/null 2>&1 || true
for a in $(jq -r '.results[].applet' "$WORK/run.json" | sort -u); do
	jq -r --arg a "$a" '[.results[] | select(.applet == $a)][0] |
		[paths | map(if type == "number" then "[]" else . end) | join(".")] | unique[]' \
		"$WORK/run.json" | sed 's/[0-9][0-9]*/N/g' | sort -u >"$OUT/shape-$a.txt"
done
