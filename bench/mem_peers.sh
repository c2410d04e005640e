#!/bin/bash
# bench/mem_peers.sh - measures `boardbench mem` side by side with
# `perf bench mem`, in one run, and prints a markdown section for
# docs/benchmarks/mem.md.
#
# At 64 B, 4 KiB, 1 MiB and 64 MiB it runs, RUNS times (default 5),
# round-robin so that drift on a shared machine hits every tool alike (the
# starting tool rotates every round):
#
#   boardbench mem sweep --sizes 64,4K,1M,64M --op memcpy,memset -n SAMPLES
#       every variant this CPU runs (libc = glibc's memcpy/memset)
#   perf bench --format=simple mem memcpy -f all -s SIZE -l LOOPS
#   perf bench --format=simple mem memset -f all -s SIZE -l LOOPS
#
# It also gives boardbench's 64 MiB figures in tinymembench's convention
# (MB/s, MB = 10^6, bytes counted once per copy, best of several runs).
# tinymembench itself is not packaged and is not run: no tinymembench
# figure appears in the output.
#
# Usage: bench/mem_peers.sh [-r RUNS] [-n SAMPLES] [-k DIR]
#   -r RUNS     rounds of every tool (default 5)
#   -n SAMPLES  boardbench samples per cell after its warm-up (default 10)
#   -k DIR      keep every raw output in DIR (default: a temporary
#               directory, removed at the end)
# Environment: BB (boardbench binary; default: ./boardbench at the top of
# the tree, built with make when missing), PERF (default perf; installed
# from the linux-perf package when missing and possible).
#
# Markdown goes to stdout; progress goes to stderr.  Needs bash, awk, jq.
set -eu

prog=mem_peers
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5
samples=10
keep=
while getopts "r:n:k:h" opt; do
	case $opt in
	r) runs=$OPTARG ;;
	n) samples=$OPTARG ;;
	k) keep=$OPTARG ;;
	h) usage; exit 0 ;;
	*) exit 2 ;;
	esac
done
need_count -r "$runs" round 1
need_count -n "$samples" sample 1 1000

PERF=${PERF:-perf}
need_boardbench
make_work "$keep"

# ---- the sizes, as each tool spells them, and perf's loops per size ----
# perf times one block of LOOPS calls with gettimeofday (1 us steps): the
# loops make every block 0.5..1 GiB of copying, tens of milliseconds here.
sizes=(64 4096 1048576 67108864)
labels=("64 B" "4 KiB" "1 MiB" "64 MiB")
perf_size=(64B 4KB 1MB 64MB)
perf_loops=(8000000 262144 1024 16)
bb_sizes=64,4K,1M,64M

# ---- perf, from apt when missing ----
have_perf=1
command -v "$PERF" >/dev/null || apt_install linux-perf || true
"$PERF" bench --format=simple mem memcpy -f default -s 64B -l 1 >/dev/null 2>&1 || have_perf=0

# ---- one run of each tool; every one appends "tool op size name GB/s" ----
# GB = 10^9 bytes throughout; each tool counts an n-byte call as n bytes.
# tool: bb (median of the run's samples), bbbest (best sample), perf.
figures="$work/figures.txt"
: >"$figures"

run_bb() {  # round
	local out="$work/bb-$1"
	"$BB" mem sweep --sizes "$bb_sizes" --op memcpy,memset -n "$samples" \
		--json "$out.json" >"$out.txt" 2>"$out.err" ||
		die "boardbench mem failed (round $1); see $out.err"
	jq -r '.results[0].series[] | (.name | split(":")) as $k
		| "bb \($k[0]) \(.values.size_bytes) \(.variant) \(.values.median_GBps)",
		  "bbbest \($k[0]) \(.values.size_bytes) \(.variant) \(.values.best_GBps)"' \
		"$out.json" >>"$figures"
}

run_perf() {  # op round
	local i out
	for i in "${!sizes[@]}"; do
		out="$work/perf-$1-${perf_size[$i]}-$2.txt"
		"$PERF" bench --format=simple mem "$1" -f all -s "${perf_size[$i]}" \
			-l "${perf_loops[$i]}" >"$out" 2>&1 ||
			die "perf bench mem $1 -s ${perf_size[$i]} failed (round $2); see $out"
		# --format=simple: "# function 'NAME' (...)" then bytes per second
		awk -v op="$1" -v n="${sizes[$i]}" '
			/^# function / { split($0, q, "\047"); fn = q[2]; next }
			fn != "" && $1 ~ /^[0-9.]+$/ { print "perf", op, n, fn, $1 / 1e9; fn = "" }
		' "$out" >>"$figures"
	done
}

run_tool() {  # tool round
	case $1 in
	bb) run_bb "$2" ;;
	perf-memcpy) run_perf memcpy "$2" ;;
	perf-memset) run_perf memset "$2" ;;
	esac
}

tool_list=(bb)
[ "$have_perf" -eq 1 ] && tool_list+=(perf-memcpy perf-memset)
run_rounds "$runs"

# ---- statistics over the rounds ----
stats() {  # tool op size name -> "median min max cv% n"
	awk -v t="$1" -v o="$2" -v s="$3" -v f="$4" '
		$1 == t && $2 == o && $3 == s && $4 == f { print $5 }' "$figures" | summary %.6g
}

names() {  # tool op -> the names measured, in first-seen order
	awk -v t="$1" -v o="$2" '$1 == t && $2 == o && !seen[$4]++ { print $4 }' "$figures"
}

cell() {  # tool op size name -> "median (min..max)" in GB/s
	local med min max cnt
	read -r med min max _ cnt <<<"$(stats "$@")"
	if [ "$cnt" -eq 0 ]; then
		echo "n/a"
	else
		awk -v a="$med" -v b="$min" -v c="$max" 'BEGIN { printf "%.2f (%.2f..%.2f)", a, b, c }'
	fi
}

best_of() {  # tool op size [exclude] -> "name median" with the highest median
	local n m bestn=- bestm=-
	while read -r n; do
		[ "$n" != "${4:-}" ] || continue
		m=$(median "$1" "$2" "$3" "$n")
		[ "$m" != "-" ] || continue
		if awk -v a="$m" -v b="$bestm" 'BEGIN { exit !(b == "-" || a + 0 > b + 0) }'; then
			bestn=$n
			bestm=$m
		fi
	done < <(names "$1" "$2")
	echo "$bestn $bestm"
}

fmt2() { awk -v a="$1" 'BEGIN { if (a == "-") print "n/a"; else printf "%.2f", a }'; }

# ---- the markdown section ----
glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null || echo unknown)

machine_head
echo "- C library: $glibc (boardbench's \`libc\` variant and perf's \`default\` call it)"
echo "- boardbench: $("$BB" --version | head -n1)"
[ "$have_perf" -eq 1 ] && echo "- perf: $("$PERF" --version 2>/dev/null)"
machine_load "$runs"
echo
echo "Each tool ran $runs times, round-robin, the starting tool rotating every round."
echo
echo "Commands (one round):"
echo
echo '```sh'
echo "boardbench mem sweep --sizes $bb_sizes --op memcpy,memset -n $samples --json bb.json"
if [ "$have_perf" -eq 1 ]; then
	for op in memcpy memset; do
		for i in "${!sizes[@]}"; do
			echo "perf bench --format=simple mem $op -f all -s ${perf_size[$i]} -l ${perf_loops[$i]}"
		done
	done
fi
echo '```'
echo
[ "$have_perf" -eq 1 ] ||
	{ echo "**Note:** perf is not installed and could not be; its rows are left out."; echo; }
echo "How each tool counts (every figure below is GB/s, GB = 10^9 bytes):"
echo
echo "- boardbench: an n-byte memcpy or memset counts n bytes. A sample is as many"
echo "  calls as last at least 1 ms, one warm-up sample dropped, then $samples kept;"
echo "  the figure of a run is the median of its samples. memset writes 0."
echo "- perf bench: size x loops / time of one block of loops (gettimeofday), bytes"
echo "  counted once per call. Its default output says GB/sec for 2^30 bytes;"
echo "  \`--format=simple\` prints bytes per second, converted here to 10^9."
echo "  memset writes the loop counter (0, 1, 2, ...), memcpy copies zeroes."
echo "- Both call the same function again and again on the same buffers, so"
echo "  64 B, 4 KiB and 1 MiB stay in the caches; 64 MiB goes to memory."
echo
echo "Table cells: median over the runs (min..max)."
for op in memcpy memset; do
	echo
	echo "#### $op"
	echo
	echo "| tool | variant | ${labels[0]} | ${labels[1]} | ${labels[2]} | ${labels[3]} |"
	echo "|---|---|---|---|---|---|"
	for tool in bb perf; do
		label="boardbench mem"
		[ "$tool" = perf ] && label="perf bench mem"
		while read -r n; do
			printf '| %s | %s |' "$label" "$n"
			for s in "${sizes[@]}"; do
				printf ' %s |' "$(cell "$tool" "$op" "$s" "$n")"
			done
			echo
		done < <(names "$tool" "$op")
	done
done
echo
echo "The best variant per size against glibc and perf, ratios of the medians."
echo "\"own\" is the best of boardbench's variants other than \`libc\` (its own code);"
echo "the last column compares the two harnesses on the same glibc function."
for op in memcpy memset; do
	echo
	echo "#### $op: best variant per size"
	echo
	echo "| size | best boardbench | GB/s | best own | GB/s | own / libc | perf's best | GB/s | best / perf's best | libc: boardbench / perf |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	for i in "${!sizes[@]}"; do
		s=${sizes[$i]}
		read -r bn bm <<<"$(best_of bb "$op" "$s")"
		read -r on om <<<"$(best_of bb "$op" "$s" libc)"
		libc=$(median bb "$op" "$s" libc)
		if [ "$have_perf" -eq 1 ]; then
			read -r pn pm <<<"$(best_of perf "$op" "$s")"
			pdef=$(median perf "$op" "$s" default)
		else
			pn=n/a; pm=-; pdef=-
		fi
		echo "| ${labels[$i]} | $bn | $(fmt2 "$bm") | $on | $(fmt2 "$om") | $(ratio "$om" "$libc")" \
			"| $pn | $(fmt2 "$pm") | $(ratio "$bm" "$pm") | $(ratio "$libc" "$pdef") |"
	done
done

# ---- tinymembench's convention at 64 MiB ----
big=${sizes[3]}
echo
echo "#### 64 MiB in tinymembench's convention"
echo
echo "tinymembench reports MB/s with MB = 10^6 bytes, counts each byte once per"
echo "copy, and keeps the best of several measurements over a large buffer (its"
echo "own buffers are 32 MiB). tinymembench is not packaged here and was not run;"
echo "these are boardbench's own 64 MiB samples put in that convention: the best"
echo "sample of each run, x 1000. Median over the runs (min..max), and the best of all."
echo
echo "| operation | variant | MB/s, best per run: median (min..max) | MB/s, best of all runs |"
echo "|---|---|---|---|"
for op in memcpy memset; do
	read -r bn _ <<<"$(best_of bb "$op" "$big")"
	for n in libc "$bn"; do
		[ "$n" != - ] || continue
		read -r med min max _ cnt <<<"$(stats bbbest "$op" "$big" "$n")"
		[ "$cnt" -gt 0 ] || continue
		awk -v o="$op" -v v="$n" -v a="$med" -v b="$min" -v c="$max" 'BEGIN {
			printf "| %s | %s | %.0f (%.0f..%.0f) | %.0f |\n", o, v, a * 1e3, b * 1e3, c * 1e3, c * 1e3 }'
		[ "$n" != libc ] || [ "$bn" != libc ] || break
	done
done

# ---- every run, for the rows the ratios rest on ----
echo
echo "Every run, in the order run (GB/s): boardbench \`libc\` (median of its samples)"
echo "and perf's \`default\`, both glibc."
echo
echo "| operation | size | boardbench libc | perf default |"
echo "|---|---|---|---|"
per_run() {  # tool op size name
	awk -v t="$1" -v o="$2" -v s="$3" -v f="$4" '$1 == t && $2 == o && $3 == s && $4 == f {
		printf "%s%.2f", sep, $5; sep = ", " } END { if (!sep) printf "n/a" }' "$figures"
}
for op in memcpy memset; do
	for i in "${!sizes[@]}"; do
		echo "| $op | ${labels[$i]} | $(per_run bb "$op" "${sizes[$i]}" libc)" \
			"| $(per_run perf "$op" "${sizes[$i]}" default) |"
	done
done
[ -z "$keep" ] || say "raw outputs kept in $work"
exit 0
