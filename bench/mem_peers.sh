#!/bin/bash
# bench/mem_peers.sh - measures `boardbench mem` side by side with
# `perf bench mem`, in one run, and prints a markdown section for
# docs/BENCHMARKS.md.
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

die() { echo "mem_peers: $*" >&2; exit 1; }
bad() { echo "mem_peers: $*" >&2; exit 2; }
say() { echo "mem_peers: $*" >&2; }

top=$(cd "$(dirname "$0")/.." && pwd)
runs=5
samples=10
keep=
while getopts "r:n:k:h" opt; do
	case $opt in
	r) runs=$OPTARG ;;
	n) samples=$OPTARG ;;
	k) keep=$OPTARG ;;
	h) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) exit 2 ;;
	esac
done
case $runs in ''|*[!0-9]*) bad "-r: expected a number of rounds, got '$runs'" ;; esac
[ "$runs" -ge 1 ] || bad "-r: expected at least 1 round"
case $samples in ''|*[!0-9]*) bad "-n: expected a number of samples, got '$samples'" ;; esac
if [ "$samples" -lt 1 ] || [ "$samples" -gt 1000 ]; then
	bad "-n: expected 1..1000 samples"
fi

BB=${BB:-$top/boardbench}
PERF=${PERF:-perf}

command -v jq >/dev/null || die "jq is needed to read boardbench --json"
if [ ! -x "$BB" ]; then
	say "building boardbench with make"
	make -C "$top" >&2 || die "make failed"
fi
[ -x "$BB" ] || die "no boardbench binary at $BB"

if [ -n "$keep" ]; then
	mkdir -p "$keep"
	work=$(cd "$keep" && pwd)
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/mem_peers.XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi

# ---- the sizes, as each tool spells them, and perf's loops per size ----
# perf times one block of LOOPS calls with gettimeofday (1 us steps): the
# loops make every block 0.5..1 GiB of copying, tens of milliseconds here.
sizes=(64 4096 1048576 67108864)
labels=("64 B" "4 KiB" "1 MiB" "64 MiB")
perf_size=(64B 4KB 1MB 64MB)
perf_loops=(8000000 262144 1024 16)
bb_sizes=64,4K,1M,64M

# ---- perf, from apt when missing ----
apt_install() {  # package
	command -v apt-get >/dev/null || return 1
	if [ "$(id -u)" -eq 0 ]; then
		apt-get install -y -q "$1" >&2
	elif command -v sudo >/dev/null; then
		sudo -n apt-get install -y -q "$1" >&2
	else
		return 1
	fi
}
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

tool_list=(bb)
[ "$have_perf" -eq 1 ] && tool_list+=(perf-memcpy perf-memset)
ntools=${#tool_list[@]}

# How busy the machine was just before we started: other work on a shared
# machine moves every figure below.
cpu_busy() {  # percent of all CPUs busy over the next second
	{ head -n1 /proc/stat; sleep 1; head -n1 /proc/stat; } | awk '
		{ idle = $5 + $6; tot = 0; for (i = 2; i <= NF; i++) tot += $i
		  if (NR == 1) { i0 = idle; t0 = tot } else { i1 = idle; t1 = tot } }
		END { if (t1 > t0) printf "%.0f", 100 * (1 - (i1 - i0) / (t1 - t0)); else print "?" }'
}
busy_before=$(cpu_busy)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
t_start=$(date +%s)
for ((r = 1; r <= runs; r++)); do
	for ((k = 0; k < ntools; k++)); do
		tool=${tool_list[$(( (k + r - 1) % ntools ))]}
		say "round $r/$runs: $tool"
		case $tool in
		bb) run_bb "$r" ;;
		perf-memcpy) run_perf memcpy "$r" ;;
		perf-memset) run_perf memset "$r" ;;
		esac
	done
done
t_end=$(date +%s)
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- statistics over the rounds ----
stats() {  # tool op size name -> "median min max best n"
	awk -v t="$1" -v o="$2" -v s="$3" -v f="$4" '
	$1 == t && $2 == o && $3 == s && $4 == f { x[++n] = $5 }
	END {
		if (n == 0) { print "- - - - 0"; exit }
		for (i = 2; i <= n; i++) for (j = i; j > 1 && x[j-1] > x[j]; j--) {
			v = x[j]; x[j] = x[j-1]; x[j-1] = v }
		med = n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
		printf "%.6g %.6g %.6g %.6g %d\n", med, x[1], x[n], x[n], n
	}' "$figures"
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

median() { stats "$@" | cut -d' ' -f1; }

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

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "n/a";
	else printf "%.2f", a / b }'; }
fmt2() { awk -v a="$1" 'BEGIN { if (a == "-") print "n/a"; else printf "%.2f", a }'; }

# ---- the markdown section ----
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null || echo unknown)

echo "### Run of $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo
echo "Machine:"
echo
echo "- CPU: ${cpu:-unknown}, $(nproc) online CPUs; $(uname -m)"
echo "- kernel: $(uname -sr) $(uname -v)"
echo "- C library: $glibc (boardbench's \`libc\` variant and perf's \`default\` call it)"
echo "- boardbench: $("$BB" --version | head -n1)"
[ "$have_perf" -eq 1 ] && echo "- perf: $("$PERF" --version 2>/dev/null)"
echo "- CPUs busy in the second before the run: ${busy_before}% of $(nproc)" \
	"(other processes; 0% is a quiet machine)"
echo "- load average before / after: $load_before / $load_after;" \
	"$((t_end - t_start)) s for $runs rounds"
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
