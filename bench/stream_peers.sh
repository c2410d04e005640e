#!/bin/bash
# bench/stream_peers.sh - measures `boardbench stream` side by side with its
# peers, in one run, and prints a markdown section for docs/BENCHMARKS.md.
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

die() { echo "stream_peers: $*" >&2; exit 1; }
bad() { echo "stream_peers: $*" >&2; exit 2; }
say() { echo "stream_peers: $*" >&2; }

top=$(cd "$(dirname "$0")/.." && pwd)
size_opt=
runs=5
keep=
while getopts "s:r:k:h" opt; do
	case $opt in
	s) size_opt=$OPTARG ;;
	r) runs=$OPTARG ;;
	k) keep=$OPTARG ;;
	h) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) exit 2 ;;
	esac
done
case $runs in ''|*[!0-9]*) bad "-r: expected a number of runs, got '$runs'" ;; esac
[ "$runs" -ge 1 ] || bad "-r: expected at least 1 run"

BB=${BB:-$top/boardbench}
CC=${CC:-gcc}
STREAM_C=${STREAM_C:-}

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
	work=$(mktemp -d "${TMPDIR:-/tmp}/stream_peers.XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi

# ---- peers from apt, installed when missing ----
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

tools="bb2 bb1"
[ "$have_ref" -eq 1 ] && tools="$tools ref2 ref1"
[ "$have_mbw" -eq 1 ] && tools="$tools mbw"
[ "$have_sysbench" -eq 1 ] && tools="$tools sysbench"
read -r -a tool_list <<<"$tools"
ntools=${#tool_list[@]}

# How busy the machine was just before we started: other work on a small
# board (or a shared VM) moves every figure below, the 2-thread ones most.
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
		bb2) run_bb 2 "$r" ;;
		bb1) run_bb 1 "$r" ;;
		ref2) run_ref 2 "$r" ;;
		ref1) run_ref 1 "$r" ;;
		mbw) run_mbw "$r" ;;
		sysbench) run_sysbench "$r" ;;
		esac
	done
done
t_end=$(date +%s)
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- statistics over the runs: median, min, max, CV (sample stddev / mean) ----
stats() {  # tool figure -> "median min max cv% n"
	awk -v t="$1" -v f="$2" '$1 == t && $2 == f { x[++n] = $3 }
	END {
		if (n == 0) { print "- - - - 0"; exit }
		for (i = 2; i <= n; i++) for (j = i; j > 1 && x[j-1] > x[j]; j--) {
			s = x[j]; x[j] = x[j-1]; x[j-1] = s }
		med = n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
		for (i = 1; i <= n; i++) sum += x[i]
		mean = sum / n
		for (i = 1; i <= n; i++) ss += (x[i] - mean) ^ 2
		cv = n > 1 ? 100 * sqrt(ss / (n - 1)) / mean : 0
		printf "%.1f %.1f %.1f %.1f %d\n", med, x[1], x[n], cv, n
	}' "$figures"
}

row() {  # label threads figure unit tool figkey [scale note]
	local s med min max cv cnt
	s=$(stats "$5" "$6")
	read -r med min max cv cnt <<<"$s"
	[ "$cnt" -gt 0 ] || return 0
	printf '| %s | %s | %s | %s | %s | %s..%s | %s%% | %s |\n' \
		"$1" "$2" "$3" "$4" "$med" "$min" "$max" "$cv" "$cnt"
}

ratio() {  # tool-a tool-b figure -> median(a)/median(b)
	local a b
	a=$(stats "$1" "$3" | cut -d' ' -f1)
	b=$(stats "$2" "$3" | cut -d' ' -f1)
	awk -v a="$a" -v b="$b" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "n/a";
		else printf "%.3f", a / b }'
}

# ---- the markdown section ----
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
size_arg=" -s $n"

echo "### Run of $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo
echo "Machine:"
echo
echo "- CPU: ${cpu:-unknown}, $(nproc) online CPUs; $(uname -m)"
echo "- kernel: $(uname -sr) $(uname -v)"
echo "- boardbench: $("$BB" --version | head -n1)"
echo "  ($("$BB" --version | sed -n 's/^cflags: //p'); measured kernels add KERNEL_OPT, -O3 by default)"
echo "- compiler: $($CC --version | head -n1)"
[ "$have_mbw" -eq 1 ] && echo "- mbw: $(dpkg-query -W -f '${Version}' mbw 2>/dev/null || echo unknown)"
[ "$have_sysbench" -eq 1 ] && echo "- sysbench: $(sysbench --version 2>/dev/null)"
echo "- CPUs busy in the second before the run: ${busy_before}% of $(nproc)" \
	"(other processes; 0% is a quiet machine)"
echo "- load average before / after: $load_before / $load_after;" \
	"$((t_end - t_start)) s for $runs rounds"
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
	m=$(stats mbw MEMCPY | cut -d' ' -f1)
	echo "mbw's median in STREAM Copy terms (read + write counted, MB = 10^6):" \
		"$(awk -v m="$m" 'BEGIN { printf "%.1f", m * 2 * 1.048576 }') MB/s."
fi
if [ "$have_sysbench" -eq 1 ]; then
	s=$(stats sysbench write | cut -d' ' -f1)
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
		echo "| $t | $(ratio bb-t$t ref-t$t Triad) | $(ratio bb-t$t ref-t$t Copy)" \
			"| $(ratio bb-t$t ref-t$t Scale) | $(ratio bb-t$t ref-t$t Add) |"
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
