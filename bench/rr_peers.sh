#!/bin/bash
# bench/rr_peers.sh - boardbench rr against sockperf ping-pong and iperf2's
# --bounceback (its -e report) on loopback, TCP, one transaction in
# flight: transactions/s, p50 and p99 round-trip latency at a small size
# and at 1 KiB, unpinned and pinned (client on CPU 0, server on CPU 1),
# each program twice, alternating, in one run; then a markdown table of
# medians and the ratios to the best peer.
#
#   bench/rr_peers.sh [-t SECONDS] [-r ROUNDS] [-k WORKDIR]
#
# Each tool runs as two processes (server, client); SECONDS per run
# (default 3).  How each one counts:
#   boardbench rr -s / rr HOST: every transaction after its 0.5 s warm-up;
#     p50/p99 of the round trip by nearest rank; transactions / elapsed.
#   sockperf sr / pp --tcp: its "Valid Duration" (after its own 400 ms warm-up);
#     it prints latency as HALF the round trip, doubled here; its smallest
#     message is 14 bytes, so the small size is 14 B for it (boardbench runs
#     at 1 B and at 14 B).  Transactions/s = ReceivedMessages / RunTime.
#   iperf -s -e / iperf -c --bounceback --bounceback-period 0 -e: the bounce
#     count over the interval and its mean round trip; its histogram bins are
#     100 us wide, so it gives no p50/p99 on loopback; below 100 bytes its
#     client hung here, so its small size is 100 B.
# Needs sockperf (apt-get install sockperf) and iperf (2.x); a missing peer
# is left out with a note.  Ports from tests/port_base.sh.
set -eu
prog=rr_peers
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

secs=3
rounds=2
keep=
while getopts "t:r:k:h" opt; do
	case $opt in
	t) secs=$OPTARG ;;
	r) need_count -r "$OPTARG" round 1 20; rounds=$OPTARG ;;
	k) keep=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
case $secs in ''|*[!0-9]*) bad "-t: expected whole seconds, got '$secs'" ;; esac
need_boardbench
make_work "$keep"
port=$(( $(sh "$top/tests/port_base.sh" $$) + 200 ))
have_sockperf=0; command -v sockperf >/dev/null && have_sockperf=1
have_iperf=0; iperf -v 2>&1 | grep -q 'iperf version 2' && have_iperf=1
[ $have_sockperf = 1 ] || say "sockperf not installed: left out (apt-get install sockperf)"
[ $have_iperf = 1 ] || say "iperf 2 not installed: left out"

# wait_port PORT: until something listens on the TCP port (at most 10 s).
wait_port() {
	for _ in $(seq 100); do
		ss -Hltn "sport = :$1" 2>/dev/null | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

# pin_cmd WHICH MODE: "taskset -c N" for client (0) or server (1) when pinned.
pin_cmd() {
	[ "$2" = pinned ] && echo "taskset -c $1"
	return 0
}

# Each run_* prints "tps p50_us p99_us mean_us" (- when not given).
run_bb() {  # size mode
	local p=$((port++)) pin= spin= out=$work/bb.$$.json
	[ "$2" = pinned ] && { pin="--pin 0"; spin="--pin 1"; }
	# shellcheck disable=SC2086
	"$BB" rr -s -p $p $spin --accept-timeout 20 --idle-timeout 10 >/dev/null 2>&1 &
	local spid=$!
	wait_port $p || die "boardbench rr -s did not listen on $p"
	# shellcheck disable=SC2086
	"$BB" rr -p $p $pin -l "$1" -L "$1" --time "$secs" --json "$out" 127.0.0.1 >/dev/null ||
		die "boardbench rr failed"
	wait "$spid" || true
	jq -r '.results[0].series[] | select(.name == "latency") | .values |
		"\(.transactions_per_s) \(.p50_s * 1e6) \(.p99_s * 1e6) \(.mean_s * 1e6)"' "$out"
}

run_sockperf() {  # size mode
	local p=$((port++)) s=$1 log=$work/sp.$$.log
	[ "$s" -lt 14 ] && s=14
	# shellcheck disable=SC2046
	timeout $((secs + 20)) $(pin_cmd 1 "$2") sockperf sr --tcp -i 127.0.0.1 -p $p \
		>/dev/null 2>&1 &
	local spid=$!
	wait_port $p || die "sockperf sr did not listen on $p"
	# shellcheck disable=SC2046
	timeout $((secs + 20)) $(pin_cmd 0 "$2") sockperf pp --tcp -i 127.0.0.1 -p $p -m "$s" \
		-t "$secs" >"$log" 2>&1 || die "sockperf pp failed: $(tail -1 "$log")"
	kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null || true
	# half round trips, doubled
	sed 's/\x1b\[[0-9;]*m//g' "$log" | awk '
		/\[Valid Duration\]/ { for (i = 1; i <= NF; i++) { if ($i ~ /^RunTime=/) { sub("RunTime=", "", $i); t = $i }
			if ($i ~ /^ReceivedMessages=/) { sub("ReceivedMessages=", "", $i); n = $i } } }
		/percentile 50.000/ { p50 = $NF } /percentile 99.000/ { p99 = $NF }
		/avg-latency=/ { m = $0; sub(/.*avg-latency=/, "", m); sub(/ .*/, "", m) }
		END { printf "%.2f %.3f %.3f %.3f\n", n / t, 2 * p50, 2 * p99, 2 * m }'
}

run_iperf() {  # size mode
	local p=$((port++)) s=$1 log=$work/ip.$$.log
	[ "$s" -lt 100 ] && s=100
	# shellcheck disable=SC2046
	timeout $((secs + 20)) $(pin_cmd 1 "$2") iperf -s -p $p -e >/dev/null 2>&1 &
	local spid=$!
	wait_port $p || die "iperf -s did not listen on $p"
	# shellcheck disable=SC2046
	timeout $((secs + 20)) $(pin_cmd 0 "$2") iperf -c 127.0.0.1 -p $p --bounceback \
		--bounceback-period 0 -l "$s" -t "$secs" -e >"$log" 2>&1 || die "iperf failed"
	kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null || true
	# "[  1] 0.0000-3.0003 sec ... 56429=0.034/0.020/12.782/0.171 ms" (the total line)
	awk '/sec .*=[0-9.]+\/[0-9.]+\/[0-9.]+\/[0-9.]+ ms/ { line = $0 }
		END { split(line, a, " "); split(a[3], iv, "-"); t = iv[2] - iv[1];
		      for (i = 1; i <= length(a); i++) if (a[i] ~ /^[0-9]+=[0-9.]+\//) { split(a[i], c, "="); split(c[2], m, "/") }
		      printf "%.2f - - %.3f\n", c[1] / t, m[1] * 1000 }' "$log"
}

tools="bb14 bb"
[ $have_sockperf = 1 ] && tools="$tools sockperf"
[ $have_iperf = 1 ] && tools="$tools iperf"

echo "# rr_peers: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
res=$work/results.txt
: >"$res"
for mode in unpinned pinned; do
	for size in 1 1024; do
		for r in $(seq "$rounds"); do
			for t in $tools; do          # alternating: every tool once per round
				case $t in
				bb) [ "$size" = 1 ] || continue; line=$(run_bb 1 $mode) ;;
				bb14) line=$(run_bb $([ "$size" = 1 ] && echo 14 || echo "$size") $mode) ;;
				sockperf) line=$(run_sockperf "$size" $mode) ;;
				iperf) line=$(run_iperf "$size" $mode) ;;
				esac
				echo "$mode $size $t $r $line" >>"$res"
				say "$mode $size $t round $r: $line"
			done
		done
	done
done

# The table: median of the rounds (of 2: their mean) per tool and case.
echo
echo "| pinning | size | tool | bytes | transactions/s | p50 us | p99 us | mean us | runs (tps) |"
echo "|---|---|---|---|---|---|---|---|---|"
awk '
function med(s,   n, a, i, j, x) { n = split(s, a, " "); for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > x + 0; j--) a[j + 1] = a[j]; a[j + 1] = x }
	if (a[1] == "-") return "-"; return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
{ k = $1 " " $2 " " $3; if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
  tps[k] = tps[k] " " sprintf("%.0f", $5); p50[k] = p50[k] " " $6; p99[k] = p99[k] " " $7; mean[k] = mean[k] " " $8 }
END { for (i = 1; i <= nk; i++) { k = order[i]; split(k, f, " ")
	b = f[3] == "bb" ? 1 : f[3] == "bb14" ? (f[2] == 1 ? 14 : f[2]) : f[3] == "sockperf" ? (f[2] < 14 ? 14 : f[2]) : (f[2] < 100 ? 100 : f[2])
	name = f[3] == "bb" || f[3] == "bb14" ? "boardbench rr" : f[3] == "iperf" ? "iperf2 --bounceback" : "sockperf ping-pong"
	m50 = med(p50[k]); m99 = med(p99[k])
	printf "| %s | %s | %s | %d | %.0f | %s | %s | %.2f |%s |\n", f[1], f[2] == 1 ? "small" : "1 KiB", name, b, med(tps[k]),
		m50 == "-" ? "-" : sprintf("%.2f", m50), m99 == "-" ? "-" : sprintf("%.2f", m99), med(mean[k]), tps[k] } }' "$res"
