#!/bin/bash
# bench/stream_tuned.sh - STREAM Triad of boardbench's tuned variants against
# McCalpin's stream.c, at 2 and 1 threads, in one run, and a markdown section
# for docs/benchmarks/tuned.md.
#
# Each round runs every program once, round-robin, the first one rotating
# (bench/lib.sh run_rounds), so drift on a shared machine hits them alike:
#
#   boardbench stream --pin -t T --variant c,<ordinary>,<nt>   (T = 2, 1)
#   stream.c built -O3 -march=native -fopenmp    ("native", T = 2, 1)
#   stream.c built -O3 -fopenmp, no -march       ("own flags": boardbench's
#                          kernels are built -O3 without -march, so this is
#                          the reference for the `c` variant)
#
# One boardbench run measures its variants alternating round by round, so
# `c`, the ordinary-store and the non-temporal variants share its moments.
# The variants are every supported tuned row of `stream --list`: ordinary
# (tuned) and non-temporal (tuned,nt), chosen at run time.
#
# stream.c is never vendored: point STREAM_C at a copy (the search tool's
# read_file of jeffhammond/STREAM stream.c, for example).  It is built out of
# tree with -DSTREAM_ARRAY_SIZE=<n> -DNTIMES=10 and run with OMP_NUM_THREADS=T,
# OMP_PROC_BIND=true, OMP_PLACES=cores.
#
# Usage: STREAM_C=/path/stream.c bench/stream_tuned.sh [-s N] [-r RUNS] [-k DIR]
#   -s N     elements per array (boardbench stream -s syntax); default:
#            boardbench's own default for this machine
#   -r RUNS  rounds (default 5)
#   -k DIR   keep every raw output in DIR
# Environment: BB (boardbench binary), STREAM_C (required), CC (default gcc).
# Markdown goes to stdout; progress to stderr.  Needs bash, awk, jq.
set -eu

prog=stream_tuned
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

size_opt=
runs=5
keep=
while getopts "s:r:k:h" opt; do
	case $opt in
	s) size_opt=$OPTARG ;;
	r) runs=$OPTARG ;;
	k) keep=$OPTARG ;;
	h) usage; exit 0 ;;
	*) exit 2 ;;
	esac
done
need_count -r "$runs" run 1

CC=${CC:-gcc}
STREAM_C=${STREAM_C:-}
[ -n "$STREAM_C" ] && [ -r "$STREAM_C" ] || bad "STREAM_C must name a readable copy of stream.c"
need_boardbench
make_work "$keep"

# ---- the variants: every supported tuned row, ordinary and nt ----
"$BB" stream --list >"$work/list.txt"
ordinary=$(awk '$2 == "supported" && $3 == "tuned" { printf "%s%s", sep, $1; sep = "," }' "$work/list.txt")
nt=$(awk '$2 == "supported" && $3 == "tuned,nt" { printf "%s%s", sep, $1; sep = "," }' "$work/list.txt")
variants=c${ordinary:+,$ordinary}${nt:+,$nt}
unsupported=$(awk '$2 == "unsupported" { printf "%s%s", sep, $1; sep = ", " }' "$work/list.txt")

# ---- the array size, resolved by boardbench ----
say "resolving the array size"
"$BB" stream --pin -t 2 -N 2 ${size_opt:+-s "$size_opt"} --json "$work/probe.json" \
	>"$work/probe.txt" || die "boardbench stream failed; see $work/probe.txt"
n=$(jq -r '.results[0].params.array_size' "$work/probe.json")
case $n in ''|*[!0-9]*) die "cannot read array_size from boardbench --json" ;; esac

# ---- the two references ----
flags_native="-O3 -march=native -fopenmp -DSTREAM_ARRAY_SIZE=$n -DNTIMES=10"
flags_own="-O3 -fopenmp -DSTREAM_ARRAY_SIZE=$n -DNTIMES=10"
[ $((3 * n * 8)) -lt 2000000000 ] || {
	flags_native="$flags_native -mcmodel=medium"
	flags_own="$flags_own -mcmodel=medium"
}
mkdir -p "$work/ref"
cp "$STREAM_C" "$work/ref/stream.c"
for kind in native own; do
	eval "flags=\$flags_$kind"
	say "building the reference ($kind): $CC $flags"
	# shellcheck disable=SC2086,SC2154
	(cd "$work/ref" && $CC $flags stream.c -o "stream_$kind" -lm) >"$work/ref/build-$kind.log" 2>&1 ||
		die "the reference stream.c did not build ($kind); see $work/ref/build-$kind.log"
done

figures="$work/figures.txt"
: >"$figures"

run_bb() {  # threads run#
	local out="$work/bb-t$1-$2"
	"$BB" stream --pin -t "$1" -s "$n" --variant "$variants" --json "$out.json" >"$out.txt" ||
		die "boardbench stream -t $1 failed (run $2); see $out.txt"
	jq -r --arg t "$1" '.results[] | select(.applet == "stream") | .series[]
		| select(.name == "Triad")
		| "bb:\(.variant) t\($t) \(.values.best_rate_Bps / 1e6)"' "$out.json" >>"$figures"
}

run_ref() {  # kind threads run#
	local out="$work/ref-$1-t$2-$3.txt"
	OMP_NUM_THREADS=$2 OMP_PROC_BIND=true OMP_PLACES=cores "$work/ref/stream_$1" >"$out" ||
		die "reference stream ($1) -t $2 failed (run $3); see $out"
	grep -q '^Solution Validates' "$out" || die "reference stream did not validate; see $out"
	awk -v t="ref:$1 t$2" '/^Triad:/ { print t, $2 }' "$out" >>"$figures"
}

run_tool() {  # tool round
	case $1 in
	bb2) run_bb 2 "$2" ;;
	bb1) run_bb 1 "$2" ;;
	native2) run_ref native 2 "$2" ;;
	native1) run_ref native 1 "$2" ;;
	own2) run_ref own 2 "$2" ;;
	own1) run_ref own 1 "$2" ;;
	esac
}

tool_list=(bb2 native2 own2 bb1 native1 own1)
run_rounds "$runs"

stats() {  # tool threads -> "median min max cv% n"
	awk -v t="$1" -v th="t$2" '$1 == t && $2 == th { print $3 }' "$figures" | summary %.1f
}
median() { stats "$@" | cut -d' ' -f1; }

machine_head
echo "- boardbench: $("$BB" --version | head -n1)"
echo "- compiler: $($CC --version | head -n1)"
machine_load "$runs"
echo
echo "Array size: $n elements per array. $runs rounds; in each, every program ran once," \
	"round-robin, the first rotating. Figures: STREAM Triad, best of NTIMES-1, MB/s (10^6)."
echo
echo "Commands (one round):"
echo
echo '```sh'
for t in 2 1; do
	echo "$BB stream --pin -t $t -s $n --variant $variants --json bb.json"
	echo "OMP_NUM_THREADS=$t OMP_PROC_BIND=true OMP_PLACES=cores ./stream_native   # $CC $flags_native"
	echo "OMP_NUM_THREADS=$t OMP_PROC_BIND=true OMP_PLACES=cores ./stream_own      # $CC $flags_own"
done
echo '```'
echo
[ -z "$unsupported" ] || echo "Listed unsupported on this CPU, not run: $unsupported."
echo "Non-temporal (nt) variants skip the write-allocate reads: Triad then moves 3/4 of"
echo "the bytes STREAM counts, so up to 4/3 of \`c\` comes from that, not a faster memory."
echo
echo "| program | threads | median | min..max | CV | runs | / native | / own flags |"
echo "|---|---|---|---|---|---|---|---|"
for t in 2 1; do
	nat=$(median ref:native "$t")
	own=$(median ref:own "$t")
	for tool in $(awk '{ print $1 }' "$figures" | awk '!seen[$0]++'); do
		read -r med min max cv cnt <<<"$(stats "$tool" "$t")"
		[ "$cnt" -gt 0 ] || continue
		printf '| %s | %s | %s | %s..%s | %s%% | %s | %s | %s |\n' "$tool" "$t" "$med" "$min" \
			"$max" "$cv" "$cnt" "$(ratio "$med" "$nat" %.3f)" "$(ratio "$med" "$own" %.3f)"
	done
done
echo
echo "Every run, in order (MB/s):"
echo
echo "| program | threads | runs |"
echo "|---|---|---|"
for t in 2 1; do
	for tool in $(awk '{ print $1 }' "$figures" | awk '!seen[$0]++'); do
		v=$(awk -v a="$tool" -v th="t$t" '$1 == a && $2 == th { printf "%s%.0f", sep, $3; sep = ", " }' "$figures")
		[ -z "$v" ] || echo "| $tool | $t | $v |"
	done
done
[ -z "$keep" ] || say "raw outputs kept in $work"
exit 0
