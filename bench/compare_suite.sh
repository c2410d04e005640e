#!/bin/bash
# bench/compare_suite.sh - how `boardbench compare` behaves over whole
# quick suites, 5 runs a side, on this machine:
#   aa    COUNT comparisons of one build against itself: how many claim
#         anything (the goal: at most 1 in 20) and how many rows in all;
#   o0    the same source built with KERNEL_OPT=-O0 as B: the measured
#         kernels get much slower, so the affected csum/mem/stream variants
#         must be claimed regressed, and little else;
#   busy  B with one CPU taken by a busy loop: stream and the ttcp run
#         with a stream per CPU must be claimed regressed;
#   rrbusy  rr alone (rr --loopback, its client pinned to CPU 0, 3 s) with
#         a busy loop on the other CPU in A (an idle vCPU's wake-ups would
#         otherwise set the pace), moved onto the client's CPU in B: rr's
#         rate must be claimed regressed and the client's wait for its CPU
#         named among the differences;
#   rrhog   rr alone with both its ends on CPU 0 (rr --loopback --pin 0,0,
#         as on a one-CPU board), nothing else in A, a busy loop on CPU 0 in
#         B: rr's rate must be claimed regressed and the loop named.
# The runs of each comparison alternate A, B, A, B ... so that drift of the
# machine falls on both sides alike; each run is labelled side=A or side=B
# and compared with `compare DIR --by side --base A`.  A measurement, never
# a test: a shared machine can make a check fail, and it says so.
#
#   bench/compare_suite.sh [-n RUNS] [-c COUNT] [-o DIR] [-p PHASES] [-a]
#
#   -n RUNS    runs a side in every comparison (default 5)
#   -c COUNT   A/A comparisons (default 20)
#   -o DIR     keep the runs and outputs in DIR (default: temporary)
#   -p PHASES  which phases, comma-separated (default aa,o0,busy; rrbusy, rrhog too)
#   -a         analyse the runs already in DIR, run nothing new
#   BB=path    the boardbench binary (default: ./boardbench, built if missing)
#   BUSY_CPU=N the CPU the busy loop is pinned to (default: the last)
set -eu
prog=compare_suite.sh
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5
count=20
dir=
phases=aa,o0,busy
analyse_only=0
while getopts n:c:o:p:ah opt; do
	case $opt in
	n) need_count -n "$OPTARG" run 2 100; runs=$OPTARG ;;
	c) need_count -c "$OPTARG" comparison 1 1000; count=$OPTARG ;;
	o) dir=$OPTARG ;;
	p) phases=$OPTARG ;;
	a) analyse_only=1 ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || bad "unexpected argument '$1'"
for ph in ${phases//,/ }; do
	case $ph in aa|o0|busy|rrbusy|rrhog) ;; *) bad "-p: unknown phase '$ph' (aa, o0, busy, rrbusy, rrhog)" ;; esac
done
[ "$analyse_only" -eq 0 ] || [ -n "$dir" ] || bad "-a needs -o DIR with the runs"
has_phase() { case ",$phases," in *",$1,"*) return 0 ;; esac; return 1; }
need_boardbench
make_work "$dir"
ncpu=$(getconf _NPROCESSORS_ONLN)

trap 'busy_stop; [ -n "$dir" ] || rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# One quick-suite run into DIR, labelled side=SIDE (RR_ONLY=1: rr alone,
# pinned as RR_PIN says: its client to CPU 0 by default).
one_run() {  # bin dir side index
	if [ "${RR_ONLY:-0}" = 1 ]; then
		"$1" rr --loopback --pin "${RR_PIN:-0}" --time 3 --json "$2/run-$4.json" --label "side=$3" \
			>"$2/run-$4.txt" 2>&1 || die "rr $4 ($3) failed: see $2/run-$4.txt"
		return
	fi
	"$1" run --json "$2/run-$4.json" --label "side=$3" >"$2/run-$4.txt" 2>&1 ||
		die "run $4 ($3) failed: see $2/run-$4.txt"
}

# RUNS pairs of runs, A then B; hooks before_b and after_b wrap every B.
collect() {  # dir bin_a bin_b
	local i
	mkdir -p "$1"
	for ((i = 0; i < runs; i++)); do
		before_a
		one_run "$2" "$1" A $((2 * i))
		after_a
		before_b
		one_run "$3" "$1" B $((2 * i + 1))
		after_b
	done
}
before_a() { :; }
after_a() { :; }
before_b() { :; }
after_b() { :; }

# compare's output for one directory, kept beside its runs (text and CSV).
analyse() {  # dir
	"$BB" compare "$1" --by side --base A --csv "$1/compare.csv" >"$1/compare.txt" 2>&1 || true
	[ -s "$1/compare.csv" ] || die "compare wrote no CSV for $1: $(head -1 "$1/compare.txt")"
}

# Rows claimed in a comparison (calib, the CPU's speed, is the machine and
# never claimed; --csv: verdict is column 24, ratio 14, confounded 29).
claims() {  # dir
	awk -F, 'NR > 1 && $2 != "calib" && ($24 == "improved" || $24 == "regressed" ||
		$24 == "differs")' "$1/compare.csv" | wc -l
}

# Its claimed rows as "key verdict change% [confounded: why]".
claimed_rows() {  # dir
	awk -F, 'NR > 1 && $2 != "calib" && ($24 == "improved" || $24 == "regressed" ||
		$24 == "differs") { printf "%s %s %+.1f%%%s\n", $1, $24, 100 * ($14 - 1),
		$29 != "" ? " (confounded: " $29 ")" : "" }' "$1/compare.csv"
}

if has_phase o0; then
	if [ "$analyse_only" -eq 0 ]; then
		say "o0: building with KERNEL_OPT=-O0"
		make -C "$top" -s BUILD="$work/build-O0" KERNEL_OPT=-O0 >&2 || die "the -O0 build failed"
		collect "$work/o0" "$BB" "$work/build-O0/boardbench"
	fi
	analyse "$work/o0"
fi
if has_phase busy; then
	[ "$ncpu" -ge 2 ] || die "one CPU only: a busy loop would take the whole machine"
	if [ "$analyse_only" -eq 0 ]; then
		before_b() { busy_start "${BUSY_CPU:-$((ncpu - 1))}"; }
		after_b() { busy_stop; }
		collect "$work/busy" "$BB" "$BB"
		before_b() { :; }
		after_b() { :; }
	fi
	analyse "$work/busy"
fi
if has_phase rrbusy; then
	[ "$ncpu" -ge 2 ] || die "one CPU only: a busy loop would take the whole machine"
	if [ "$analyse_only" -eq 0 ]; then
		before_a() { busy_start 1; }
		after_a() { busy_stop; }
		before_b() { busy_start 0; }
		after_b() { busy_stop; }
		RR_ONLY=1 collect "$work/rrbusy" "$BB" "$BB"
		before_a() { :; }
		after_a() { :; }
		before_b() { :; }
		after_b() { :; }
	fi
	analyse "$work/rrbusy"
fi
if has_phase rrhog; then
	if [ "$analyse_only" -eq 0 ]; then
		before_b() { busy_start 0; }
		after_b() { busy_stop; }
		RR_ONLY=1 RR_PIN=0,0 collect "$work/rrhog" "$BB" "$BB"
		before_b() { :; }
		after_b() { :; }
	fi
	analyse "$work/rrhog"
fi
if has_phase aa; then
	for ((k = 1; k <= count; k++)); do
		d=$(printf '%s/aa/%03d' "$work" "$k")
		if [ "$analyse_only" -eq 0 ]; then
			say "aa: comparison $k/$count"
			collect "$d" "$BB" "$BB"
		fi
		analyse "$d"
	done
fi

# ---- what was found ----
echo "## compare over whole quick suites, $runs runs a side"
echo
machine_head | sed 1d
echo
if has_phase aa; then
	n=0 any=0 rows=0
	for d in "$work"/aa/[0-9]*; do
		[ -f "$d/compare.csv" ] || continue
		c=$(claims "$d")
		n=$((n + 1))
		rows=$((rows + c))
		[ "$c" -eq 0 ] || any=$((any + 1))
		echo "- A/A $(basename "$d"): $c rows claimed"
		claimed_rows "$d" | sed 's/^/    - /'
	done
	echo
	echo "A/A: $any of $n comparisons claimed anything ($rows rows in all); goal at most 1 in 20"
	if [ $((any * 20)) -le "$n" ]; then echo "A/A check: PASS"; else echo "A/A check: FAIL"; fi
fi
for ph in o0 busy rrbusy rrhog; do
	has_phase $ph || continue
	[ -f "$work/$ph/compare.csv" ] || continue
	echo
	echo "### $ph: what compare claimed"
	echo
	echo '```'
	sed -n '/^Summary/,/^$/p' "$work/$ph/compare.txt"
	echo '```'
	echo
	echo "Claimed rows ($(claims "$work/$ph")):"
	echo
	claimed_rows "$work/$ph" | sed 's/^/- /'
	if [ "$ph" != o0 ]; then
		echo
		grep -q "^rr.tcp.1x1.rate,.*,regressed," "$work/$ph/compare.csv" &&
			echo "$ph: rr's rate claimed regressed: yes" || echo "$ph: rr's rate claimed regressed: NO"
		grep -Eq "^  (other processes' CPU time|time tasks waited for a CPU \(PSI\)) during " \
			"$work/$ph/compare.txt" &&
			echo "$ph: the busy loop named among the differences: yes" ||
			echo "$ph: the busy loop named among the differences: NO"
		grep -E "^  (other processes' CPU time|time tasks waited for a CPU \(PSI\)) during " \
			"$work/$ph/compare.txt" | sed 's/^/    /'
	fi
done
