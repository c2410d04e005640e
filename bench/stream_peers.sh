#!/bin/bash
# bench/stream_peers.sh - measures `boardbench stream` side by side with its
# peers, in one run, and prints a markdown section for docs/benchmarks/stream.md.
#
# For one array size (boardbench's default, or -s N), it runs each tool RUNS
# times (default 5), round-robin so that drift on a shared machine hits
# every tool alike (the starting tool rotates every round):
#
#   boardbench stream --pin -t 2      boardbench stream --pin -t 1
#   reference stream.c, 2 threads     reference stream.c, 1 thread
#   mbw (MEMCPY test)                 sysbench memory (write, 2 threads)
#
# The reference STREAM is McCalpin's stream.c; it is not part of boardbench
# and is never vendored.  Point STREAM_C at a copy to include it: it is built
# out of tree in a temporary directory with
#   gcc -O3 -march=native -fopenmp -DSTREAM_ARRAY_SIZE=<n> -DNTIMES=10
# and run with OMP_NUM_THREADS=2 and 1, OMP_PROC_BIND=true, OMP_PLACES=cores.
# Without STREAM_C its rows are left out and the output says so.
#
# Usage: bench/stream_peers.sh [-s N] [-r RUNS] [-k DIR]
#   -s N     elements per array, as boardbench stream -s takes it (K/M/G are
#            binary); default: boardbench's own default for this machine
#   -r RUNS  runs of each tool (default 5)
#   -k DIR   keep every raw output in DIR (default: a temporary directory,
#            removed at the end)
# Environment: BB (boardbench binary; default: ./boardbench at the top of the
# tree, built with make when missing), STREAM_C, CC (default gcc).
#
# Markdown goes to stdout; progress goes to stderr.  Needs bash, awk, jq.
set -eu

prog=stream_peers
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
need_boardbench
make_work "$keep"

# ---- peers from apt, installed when missing ----
have_mbw=1
have_sysbench=1
command -v mbw >/dev/null || apt_install mbw || true
command -v mbw >/dev/null || have_mbw=0
command -v sysbench >/dev/null || apt_install sysbench || true
command -v sysbench >/dev/null || have_sysbench=0

# ---- the array size: boardbench resolves it (default or -s), we read it back ----
say "resolving the array size"
"$BB" stream --pin -t 2 -N 2 ${size_opt:+-s "$size_opt"} --json "$work/probe.json" \
	>"$work/probe.txt" || die "boardbench stream failed; see $work/probe.txt"
n=$(jq -r '.results[0].params.array_size' "$work/probe.json")
case $n in ''|*[!0-9]*) die "cannot read array_size from boardbench --json" ;; esac
array_bytes=$((n * 8))
# mbw takes whole MiB per array; sysbench one block per thread of that size.
mbw_mib=$(( (array_bytes + 1048575) / 1048576 ))
sysb_block=$mbw_mib
# 64 blocks (32 per thread), but no more than 16 GiB unless blocks are huge
sysb_total=$((sysb_block * 64))
[ "$sysb_total" -le 16384 ] || sysb_total=16384
[ "$sysb_total" -ge $((sysb_block * 4)) ] || sysb_total=$((sysb_block * 4))

# ---- the reference stream.c, built out of tree ----
have_ref=0
ref_note=
ref_flags="-O3 -march=native -fopenmp -DSTREAM_ARRAY_SIZE=$n -DNTIMES=10"
if [ -z "$STREAM_C" ]; then
	ref_note="STREAM_C was not given: the reference stream.c was not run and its rows are left out."
elif [ ! -r "$STREAM_C" ]; then
	ref_note="STREAM_C=$STREAM_C cannot be read: the reference stream.c was not run and its rows are left out."
else
	# static arrays beyond 2 GiB need the medium code model
	[ $((3 * array_bytes)) -lt 2000000000 ] || ref_flags="$ref_flags -mcmodel=medium"
	mkdir -p "$work/ref"
	cp "$STREAM_C" "$work/ref/stream.c"
	say "building the reference: $CC $ref_flags"
	# shellcheck disable=SC2086
	if (cd "$work/ref" && $CC $ref_flags stream.c -o stream_ref -lm) >"$work/ref/build.log" 2>&1; then
		have_ref=1
	else
		ref_note="the reference stream.c did not build (see the log kept with -k): its rows are left out."
	fi
fi

# ---- one run of each tool; every one appends "tool figure value" lines ----
figures="$work/figures.txt"
: >"$figures"

run_bb() {  # threads run#
	local out="$work/bb-t$1-$2"
	"$BB" stream --pin -t "$1" -s "$n" --json "$out.json" >"$out.txt" ||
		die "boardbench stream -t $1 failed (run $2); see $out.txt"
	jq -r --arg t "bb-t$1" '.results[0].series[] | select(.variant == "c")
		| "\($t) \(.name) \(.values.best_rate_Bps / 1e6)"' "$out.json" >>"$figures"
}

run_ref() {  # threads run#
	local out="$work/ref-t$1-$2.txt"
	OMP_NUM_THREADS=$1 OMP_PROC_BIND=true OMP_PLACES=cores "$work/ref/stream_ref" >"$out" ||
		die "reference stream -t $1 failed (run $2); see $out"
	grep -q '^Solution Validates' "$out" || die "reference stream did not validate; see $out"
	awk -v t="ref-t$1" '/^(Copy|Scale|Add|Triad):/ { sub(":", "", $1); print t, $1, $2 }' \
		"$out" >>"$figures"
}

run_mbw() {  # run#
	local out="$work/mbw-$1.txt"
	mbw -q -n 10 -t0 "$mbw_mib" >"$out" || die "mbw failed (run $1); see $out"
	# best of the 10 iterations (the STREAM convention), in MiB/s as mbw prints it
	awk '$1 ~ /^[0-9]+$/ && /Method: MEMCPY/ {
		for (i = 1; i < NF; i++) if ($i == "Copy:") v = $(i + 1)
		if (v > best) best = v }
		END { if (best > 0) print "mbw MEMCPY", best }' "$out" >>"$figures"
}

run_sysbench() {  # run#
	local out="$work/sysbench-$1.txt"
	sysbench memory --threads=2 --memory-scope=local --memory-oper=write \
		--memory-access-mode=seq --memory-block-size="${sysb_block}M" \
		--memory-total-size="${sysb_total}M" run >"$out" 2>&1 ||
		die "sysbench failed (run $1); see $out"
	sed -n 's/.*MiB transferred (\([0-9.]*\) MiB\/sec).*/sysbench write \1/p' "$out" >>"$figures"
}

run_tool() {  # tool round
	case $1 in
	bb2) run_bb 2 "$2" ;;
	bb1) run_bb 1 "$2" ;;
	ref2) run_ref 2 "$2" ;;
	ref1) run_ref 1 "$2" ;;
	mbw) run_mbw "$2" ;;
	sysbench) run_sysbench "$2" ;;
	esac
}

tool_list=(bb2 bb1)
[ "$have_ref" -eq 1 ] && tool_list+=(ref2 ref1)
[ "$have_mbw" -eq 1 ] && tool_list+=(mbw)
[ "$have_sysbench" -eq 1 ] && tool_list+=(sysbench)
run_rounds "$runs"

# ---- statistics over the runs: median, min, max, CV (sample stddev / mean) ----
stats() {  # tool figure -> "median min max cv% n"
	awk -v t="$1" -v f="$2" '$1 == t && $2 == f { print $3 }' "$figures" | summary %.1f
}

row() {  # label threads figure unit tool figkey [scale note]
	local s med min max cv cnt
	s=$(stats "$5" "$6")
	read -r med min max cv cnt <<<"$s"
	[ "$cnt" -gt 0 ] || return 0
	printf '| %s | %s | %s | %s | %s | %s..%s | %s%% | %s |\n' \
		"$1" "$2" "$3" "$4" "$med" "$min" "$max" "$cv" "$cnt"
}

median_ratio() {  # tool-a tool-b figure -> median(a)/median(b)
	ratio "$(median "$1" "$3")" "$(median "$2" "$3")" %.3f
}

# ---- the markdown section ----
size_arg=" -s $n"

machine_head
echo "- boardbench: $("$BB" --version | head -n1)"
echo "  ($("$BB" --version | sed -n 's/^cflags: //p'); measured kernels add KERNEL_OPT, -O3 by default)"
echo "- compiler: $($CC --version | head -n1)"
[ "$have_mbw" -eq 1 ] && echo "- mbw: $(dpkg-query -W -f '${Version}' mbw 2>/dev/null || echo unknown)"
[ "$have_sysbench" -eq 1 ] && echo "- sysbench: $(sysbench --version 2>/dev/null)"
machine_load "$runs"
echo
echo "Array size: $n elements per array ($array_bytes bytes = $mbw_mib MiB per array," \
	"3 arrays). Each tool ran $runs times, round-robin, the starting tool rotating every round."
echo
echo "Commands (one round):"
echo
echo '```sh'
echo "$BB stream --pin -t 2$size_arg --json bb.json"
echo "$BB stream --pin -t 1$size_arg --json bb.json"
if [ "$have_ref" -eq 1 ]; then
	echo "$CC $ref_flags stream.c -o stream_ref    # once, out of tree"
	echo "OMP_NUM_THREADS=2 OMP_PROC_BIND=true OMP_PLACES=cores ./stream_ref"
	echo "OMP_NUM_THREADS=1 OMP_PROC_BIND=true OMP_PLACES=cores ./stream_ref"
fi
[ "$have_mbw" -eq 1 ] && echo "mbw -q -n 10 -t0 $mbw_mib"
[ "$have_sysbench" -eq 1 ] && echo "sysbench memory --threads=2 --memory-scope=local --memory-oper=write" \
	"--memory-access-mode=seq --memory-block-size=${sysb_block}M --memory-total-size=${sysb_total}M run"
echo '```'
echo
[ -n "$ref_note" ] && { echo "**Note:** $ref_note"; echo; }
[ "$have_mbw" -eq 1 ] || { echo "**Note:** mbw is not installed and could not be; its row is left out."; echo; }
[ "$have_sysbench" -eq 1 ] || { echo "**Note:** sysbench is not installed and could not be; its row is left out."; echo; }
echo "Each figure is the tool's own per-run result: STREAM's best rate of NTIMES-1"
echo "repetitions; mbw's best of its 10 iterations; sysbench's total over the run."
echo "The table gives the median, min..max and CV (sample stddev / mean) over the runs."
echo
echo "| tool | threads | figure | unit | median | min..max | CV | runs |"
echo "|---|---|---|---|---|---|---|---|"
for f in Copy Scale Add Triad; do
	row "boardbench stream --pin" 2 "$f" "MB/s (10^6)" bb-t2 "$f"
	[ "$have_ref" -eq 1 ] && row "reference stream.c" 2 "$f" "MB/s (10^6)" ref-t2 "$f"
done
for f in Copy Scale Add Triad; do
	row "boardbench stream --pin" 1 "$f" "MB/s (10^6)" bb-t1 "$f"
	[ "$have_ref" -eq 1 ] && row "reference stream.c" 1 "$f" "MB/s (10^6)" ref-t1 "$f"
done
[ "$have_mbw" -eq 1 ] && row "mbw -t0" 1 "MEMCPY, bytes copied once" "MiB/s (2^20)" mbw MEMCPY
[ "$have_sysbench" -eq 1 ] && row "sysbench memory" 2 "write, bytes written" "MiB/s (2^20)" sysbench write
echo
if [ "$have_mbw" -eq 1 ]; then
	m=$(median mbw MEMCPY)
	echo "mbw's median in STREAM Copy terms (read + write counted, MB = 10^6):" \
		"$(awk -v m="$m" 'BEGIN { printf "%.1f", m * 2 * 1.048576 }') MB/s."
fi
if [ "$have_sysbench" -eq 1 ]; then
	s=$(median sysbench write)
	echo "sysbench's median in MB = 10^6: $(awk -v m="$s" 'BEGIN { printf "%.1f", m * 1.048576 }') MB/s" \
		"of stores (no reads counted)."
fi
echo
if [ "$have_ref" -eq 1 ]; then
	echo "boardbench / reference, ratio of the medians:"
	echo
	echo "| threads | Triad | Copy | Scale | Add |"
	echo "|---|---|---|---|---|"
	for t in 2 1; do
		echo "| $t | $(median_ratio bb-t$t ref-t$t Triad) | $(median_ratio bb-t$t ref-t$t Copy)" \
			"| $(median_ratio bb-t$t ref-t$t Scale) | $(median_ratio bb-t$t ref-t$t Add) |"
	done
else
	echo "No boardbench / reference ratio: the reference was not run."
fi
echo
echo "Every run, in the order run (run 1 first), MB/s for STREAM, MiB/s for mbw and sysbench:"
echo
echo "| tool | threads | figure | runs |"
echo "|---|---|---|---|"
per_run() {  # label threads tool figure
	local v
	v=$(awk -v t="$3" -v f="$4" '$1 == t && $2 == f { printf "%s%.1f", sep, $3; sep = ", " }' "$figures")
	[ -z "$v" ] || echo "| $1 | $2 | $4 | $v |"
}
for t in 2 1; do
	for f in Triad Copy; do
		per_run "boardbench stream --pin" "$t" "bb-t$t" "$f"
		[ "$have_ref" -eq 1 ] && per_run "reference stream.c" "$t" "ref-t$t" "$f"
	done
done
[ "$have_mbw" -eq 1 ] && per_run "mbw -t0" 1 mbw MEMCPY
[ "$have_sysbench" -eq 1 ] && per_run "sysbench memory" 2 sysbench write
[ -z "$keep" ] || say "raw outputs kept in $work"
exit 0
