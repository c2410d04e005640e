#!/bin/bash
# bench/compare_busy.sh - the two real-run checks of `boardbench compare`,
# measured on this machine with the quick suite:
#   A/A   two sets of quiet runs of the same build compare as "no
#         significant change" or "within noise" on almost every metric;
#   busy  runs with one CPU taken by a busy loop compare as "regressed" on
#         the metrics that suffer from it.
# Each round takes one quiet run for A1, one with the busy loop for B and
# one quiet run for A2, in that order, so that drift over the rounds falls
# on both quiet sets alike.  It then prints `compare A1 A2` and
# `compare A1 B` and what each check found.  A measurement, never a test:
# a shared machine can make either check fail, and it says so.
#
#   bench/compare_busy.sh [-n ROUNDS] [-o DIR] [-c CPU] [-e KEYS] [-- RUN-ARGS]
#
#   -n ROUNDS  rounds (default 5; compare needs 5 runs a side for a verdict)
#   -o DIR     keep the runs and compare outputs in DIR (default: temporary)
#   -c CPU     the CPU the busy loop is pinned to (default: the last one)
#   -e KEYS    metrics (compare's keys, comma-separated, '*' as a wildcard)
#              expected to regress (default: stream's four kernels and
#              ttcp with one stream per CPU)
#   RUN-ARGS   passed to `boardbench run`, e.g. -- --only stream,ttcp
#   BB=path    the boardbench binary (default: ./boardbench, built if missing)
set -eu
prog=compare_busy.sh
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

rounds=5
dir=
cpu=
expect='stream.*.bandwidth,ttcp.tcp.transmit.streams[0-9].throughput,ttcp.tcp.transmit.streams[0-9][0-9].throughput'
while getopts n:o:c:e:h opt; do
	case $opt in
	n) need_count -n "$OPTARG" round 1 1000; rounds=$OPTARG ;;
	o) dir=$OPTARG ;;
	c) need_count -c "$OPTARG" CPU 0; cpu=$OPTARG ;;
	e) [ -n "$OPTARG" ] || bad "-e: expected metric keys"; expect=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
need_boardbench
make_work "$dir"
ncpu=$(getconf _NPROCESSORS_ONLN)
[ "$ncpu" -ge 2 ] || die "one CPU only: a busy loop would take the whole machine"
cpu=${cpu:-$((ncpu - 1))}
[ "$cpu" -lt "$ncpu" ] || bad "-c: CPU $cpu is not online (CPUs 0..$((ncpu - 1)))"

trap 'busy_stop; [ -n "$dir" ] || rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

one_run() {  # side round [args]
	local side=$1 i=$2
	shift 2
	mkdir -p "$work/$side"
	"$BB" run --json "$work/$side/$i.json" --label "set=$side" "$@" \
		>"$work/$side/$i.txt" 2>&1 || die "run $i of $side failed: see $work/$side/$i.txt"
}

say "$rounds rounds of A1, B (busy loop on CPU $cpu), A2; CPUs busy before: $(cpu_busy)%"
for i in $(seq 1 "$rounds"); do
	one_run A1 "$i" "$@"
	busy_start "$cpu"
	one_run B "$i" "$@"
	busy_stop
	one_run A2 "$i" "$@"
	say "round $i of $rounds done"
done

"$BB" compare --csv "$work/aa.csv" "$work"/A1/*.json -- "$work"/A2/*.json >"$work/aa.txt" 2>&1 ||
	die "compare A1 A2 failed: $(tail -n1 "$work/aa.txt")"
"$BB" compare --csv "$work/busy.csv" "$work"/A1/*.json -- "$work"/B/*.json >"$work/busy.txt" 2>&1 ||
	die "compare A1 B failed: $(tail -n1 "$work/busy.txt")"

# The compared rows of a compare run, from the CSV beside its text: key
# and verdict (the CPU-speed row is the machine, not a metric: compare
# turns it into a warning).
verdicts() {  # file.txt (its CSV is file.csv)
	awk -F, 'NR > 1 && $2 != "calib" && $23 != "not compared" { print $1, $23 }' "${1%.txt}.csv"
}

matches_expect() {  # key
	local IFS=, k
	for k in $expect; do
		# shellcheck disable=SC2254
		case $1 in $k) return 0 ;; esac
	done
	return 1
}

fail=0
echo "== A/A: compare A1 -- A2 =="
sed -n '/^Summary/,$p' "$work/aa.txt"
total=$(verdicts "$work/aa.txt" | grep -vc ' too few samples$' || true)
claimed=$(verdicts "$work/aa.txt" | grep -c ' \(improved\|regressed\)$' || true)
pct=$(awk -v c="$claimed" -v t="$total" 'BEGIN { printf "%.1f", t ? 100 * c / t : 0 }')
echo "A/A: $claimed of $total compared rows claimed a change ($pct%)"
if awk -v p="$pct" -v t="$total" 'BEGIN { exit !(t > 0 && p <= 5) }'; then
	echo "check A/A: passed (at most 5% claimed)"
else
	echo "check A/A: FAILED (more than 5% claimed, or nothing tested)"
	fail=1
fi

# The issue's literal A/A: two single runs, round by round.  Within-run
# samples cannot see run-to-run noise; the CPU-speed warning says when the
# machine itself changed between the two.
echo
echo "== A/A, single runs: compare A1/i -- A2/i =="
for i in $(seq 1 "$rounds"); do
	"$BB" compare --csv "$work/pair$i.csv" "$work/A1/$i.json" "$work/A2/$i.json" >"$work/pair$i.txt" 2>&1 ||
		die "compare A1/$i A2/$i failed: $(tail -n1 "$work/pair$i.txt")"
	t=$(verdicts "$work/pair$i.txt" | grep -vc ' too few samples$' || true)
	c=$(verdicts "$work/pair$i.txt" | grep -c ' \(improved\|regressed\)$' || true)
	cpu_said=$(sed -n 's/^warning: the CPU itself ran \([0-9.]*% [a-z]*\) in B.*/\1/p' "$work/pair$i.txt")
	floor=$(sed -n 's/^Summary: .*, \([0-9]*%\) on pooled samples.*/\1/p' "$work/pair$i.txt")
	echo "pair $i: $c of $t rows claimed a change; CPU speed: ${cpu_said:-no significant difference}; threshold ${floor:-as given}"
done

echo
echo "== busy: compare A1 -- B (busy loop on CPU $cpu) =="
sed -n '/^Summary/,$p' "$work/busy.txt"
n_exp=0
n_reg=0
while read -r key verdict; do
	matches_expect "$key" || continue
	n_exp=$((n_exp + 1))
	if [ "$verdict" = regressed ]; then
		n_reg=$((n_reg + 1))
	else
		echo "  expected to regress: $key: $verdict"
	fi
done <<EOF
$(verdicts "$work/busy.txt")
EOF
echo "busy: $n_reg of $n_exp expected metrics ($expect) regressed"
if [ "$n_exp" -gt 0 ] && [ "$n_reg" -eq "$n_exp" ]; then
	echo "check busy: passed"
else
	echo "check busy: FAILED"
	fail=1
fi
[ -z "$dir" ] || echo "runs and compare outputs kept in $work"
exit "$fail"
