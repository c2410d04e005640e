#!/bin/bash
# bench/tcp_peers.sh - boardbench ttcp against iperf3, iperf2 and nuttcp
# over loopback TCP (127.0.0.1), side by side in one run, and a markdown
# section for docs/BENCHMARKS.md.  Three parts:
#
#   1. Throughput: write sizes LENS (default 8 KiB, 64 KiB, 128 KiB, 1 MiB),
#      STREAMS (default 1 and 4), every tool once a round, ROUNDS rounds
#      (default 5), the first tool rotating every round.  Each figure is
#      what the receiving end counted (boardbench's receiver, first byte to
#      last; iperf3's sum_received; iperf2's server; nuttcp's report), in
#      Gbit/s (10^9 bit/s), and beside it the CPU both ends used per GB
#      (10^9 bytes) received: the cgroup's cpuacct.usage over both
#      processes (on loopback the receive path runs in softirq context on
#      whichever CPU sent, so only the two ends together are fair).
#   2. The cost at a fixed rate: --rate 1G (iperf3 -b 1G, iperf2 -b 1G,
#      nuttcp -R 1g), 1 stream, RATE_LENS (default 8 KiB and 128 KiB):
#      CPU seconds per GB, what a board engineer compares.  boardbench's
#      whole processes include its CPU-speed probe at start and end (about
#      30 ms each); its own transfer-window figure (from its --json) is
#      given beside.
#   3. Classic defaults (8192 x 2048, -s): AGREE runs (default 10): the
#      receiver's rate over the sender's (both first to last byte).
#
# Usage: bench/tcp_peers.sh [-t SECONDS] [-r ROUNDS] [-a RUNS] [-k DIR]
#        bench/tcp_peers.sh -R DIR    (the section again from a kept run)
#   -t SECONDS  each transfer of parts 1 and 2 (default 5)
#   -r ROUNDS   rounds of parts 1 and 2 (default 5); medians are shown
#   -a RUNS     runs of part 3 (default 10; 0 leaves it out)
#   -k DIR      keep every raw output in DIR
#   -R DIR      measure nothing: print the section from DIR (kept by -k)
# Environment: BB (boardbench; default ./boardbench, built when missing);
# LENS, STREAMS, TOOLS, RATE_LENS (empty: no part 2) narrow it.  Needs
# root (cgroup v1 cpu and cpuacct), jq, ss; iperf, iperf3, nuttcp.
# Markdown goes to stdout, progress to stderr.
set -eu
prog=tcp_peers
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

secs=5
rounds=5
agree=10
keep=
again=
while getopts ":t:r:a:k:R:h" opt; do
	case $opt in
	t) need_count -t "$OPTARG" second 1 600; secs=$OPTARG ;;
	r) need_count -r "$OPTARG" round 1 50; rounds=$OPTARG ;;
	a) need_count -a "$OPTARG" run 0 1000; agree=$OPTARG ;;
	k) [ -n "$OPTARG" ] || bad "-k: expected a directory"; keep=$OPTARG ;;
	R) again=$OPTARG ;;
	h) usage; exit 0 ;;
	:) bad "-$OPTARG needs a value" ;;
	*) bad "-$OPTARG: unknown option (see -h)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || bad "unexpected argument '$1'"

# ---- the cgroup both ends of one run live in ----
CPU_ROOT=/sys/fs/cgroup/cpu
ACCT_ROOT=/sys/fs/cgroup/cpuacct
CG=bbtcp$$
SERVER=
cg_make() {
	mkdir -p "$CPU_ROOT/$CG" "$ACCT_ROOT/$CG"
	echo 0 >"$ACCT_ROOT/$CG/cpuacct.usage"
}
cg_usage_ns() { cat "$ACCT_ROOT/$CG/cpuacct.usage"; }
cg_drop() {  # gone once its last task has (at most 5 s)
	local i
	for ((i = 0; i < 50; i++)); do
		rmdir "$CPU_ROOT/$CG" "$ACCT_ROOT/$CG" 2>/dev/null || true
		[ -d "$CPU_ROOT/$CG" ] || [ -d "$ACCT_ROOT/$CG" ] || return 0
		sleep 0.1
	done
	die "cannot remove the cgroup $CG: a process is left in it"
}
# incg COMMAND...: runs the command in the cgroup (sh execs it).
incg() {
	sh -c 'echo $$ >"$1/cgroup.procs" && echo $$ >"$2/cgroup.procs" && shift 2 && exec "$@"' \
		sh "$CPU_ROOT/$CG" "$ACCT_ROOT/$CG" "$@"
}
server() {  # OUT COMMAND...: a server in the cgroup, its pid in SERVER
	local out=$1
	shift
	# not through incg: a function in the background is a subshell of its
	# own; sh execs the server, so $! is the server's pid
	sh -c 'echo $$ >"$1/cgroup.procs" && echo $$ >"$2/cgroup.procs" && shift 2 && exec "$@"' \
		sh "$CPU_ROOT/$CG" "$ACCT_ROOT/$CG" "$@" >"$out" 2>&1 &
	SERVER=$!
}
server_stop() {  # iperf 2.1 ignores SIGTERM: SIGINT, then SIGKILL
	local i
	[ -n "$SERVER" ] || return 0
	for ((i = 0; i < 100; i++)); do
		kill -0 "$SERVER" 2>/dev/null || break
		[ "$1" = wait ] || break
		sleep 0.05
	done
	kill -INT "$SERVER" 2>/dev/null || true
	for ((i = 0; i < 20; i++)); do
		kill -0 "$SERVER" 2>/dev/null || break
		sleep 0.05
	done
	kill -KILL "$SERVER" 2>/dev/null || true
	wait "$SERVER" 2>/dev/null || true
	SERVER=
}
wait_listen() {  # PORT
	local i
	for ((i = 0; i < 100; i++)); do
		ss -Hltn "sport = :$1" 2>/dev/null | grep -q . && return 0
		sleep 0.05
	done
	return 1
}

# ---- one run of each tool: prints "bytes seconds bits_per_s [window_cpu_s]" ----
run_bb() {  # LEN STREAMS OUT [RATE]
	server "$3.rx" "$BB" ttcp -r -s -p "$PORT" --streams "$2" --accept-timeout 30 \
		--idle-timeout 30 --json "$3.rx.json"
	wait_listen "$PORT" || die "boardbench ttcp -r did not listen; see $3.rx"
	incg timeout $((secs + 60)) "$BB" ttcp -t -s -l "$1" --streams "$2" --time "$secs" \
		${4:+--rate "$4"} -p "$PORT" --json "$3.tx.json" 127.0.0.1 >"$3.tx" 2>&1 ||
		die "boardbench ttcp -t failed; see $3.tx"
	server_stop wait
	jq -r -s '[.[].results[0].series[] | select(.name == "transfer" and .variant == "total")
		.values] | "\(.[0].bytes) \(.[0].real_s) \(.[0].bits_per_s) \(.[0].cpu_user_s +
		.[0].cpu_sys_s + .[1].cpu_user_s + .[1].cpu_sys_s)"' "$3.rx.json" "$3.tx.json"
}
run_iperf3() {
	server "$3.srv" iperf3 -s -1 -p "$PORT"
	wait_listen "$PORT" || die "iperf3 -s did not listen; see $3.srv"
	incg timeout $((secs + 60)) iperf3 -c 127.0.0.1 -p "$PORT" -l "$1" -P "$2" -t "$secs" \
		${4:+-b "$4"} -J >"$3.json" 2>"$3.err" || die "iperf3 -c failed; see $3.json"
	server_stop wait
	jq -r '.end.sum_received | "\(.bytes) \(.seconds) \(.bits_per_second)"' "$3.json"
}
run_iperf2() {
	local i
	server "$3.srv" iperf -s -p "$PORT" -y C
	wait_listen "$PORT" || die "iperf -s did not listen; see $3.srv"
	incg timeout $((secs + 60)) iperf -c 127.0.0.1 -p "$PORT" -l "$1" -P "$2" -t "$secs" \
		${4:+-b "$4"} >"$3.cli" 2>&1 || die "iperf -c failed; see $3.cli"
	for ((i = 0; i < 100; i++)); do   # its CSV lines come as each stream ends
		[ "$(grep -c ',' "$3.srv" 2>/dev/null)" -ge "$2" ] && break
		sleep 0.05
	done
	server_stop now
	awk -F, -v n="$2" 'NF >= 9 && $6 != "-1" && k < n { k++; b += $8; bps += $9
		split($7, iv, "-"); if (iv[2] > s) s = iv[2] }
		END { if (k == n) printf "%.0f %s %.0f\n", b, s, bps }' "$3.srv"
}
run_nuttcp() {
	server "$3.srv" nuttcp --nofork -1 -P "$PORT" -p $((PORT + 1))
	wait_listen "$PORT" || die "nuttcp -1 did not listen; see $3.srv"
	incg timeout $((secs + 60)) nuttcp -t -T "$secs" -l "$1" -N "$2" ${4:+-R "$4"} \
		-P "$PORT" -p $((PORT + 1)) -fparse 127.0.0.1 >"$3.out" 2>&1 ||
		die "nuttcp -t failed; see $3.out"
	server_stop wait
	sed -n 's/.*megabytes=\([0-9.]*\) real_seconds=\([0-9.]*\) rate_Mbps=\([0-9.]*\).*/\1 \2 \3/p' \
		"$3.out" | awk '{ printf "%.0f %s %.0f\n", $1 * 1048576, $2, $3 * 1e6 }'
}

# one PART LEN STREAMS TOOL ROUND [RATE]: a run, appended to figures.txt
# as "part len streams tool round bytes seconds bits_per_s cpu_ns [window_cpu_s]".
one() {
	local out="$work/$1-$4-l$2-P$3-r$5" res cpu rate=${6:-}
	cg_make
	PORT=$((PORT + 2))
	say "round $5: part $1 -l $2 -P $3: $4"
	case $4 in
	boardbench) run_bb "$2" "$3" "$out" "$rate" >"$out.res" ;;
	iperf3) run_iperf3 "$2" "$3" "$out" "${rate:+1G}" >"$out.res" ;;
	iperf2) run_iperf2 "$2" "$3" "$out" "${rate:+1G}" >"$out.res" ;;
	nuttcp) run_nuttcp "$2" "$3" "$out" "${rate:+1g}" >"$out.res" ;;
	esac
	cpu=$(cg_usage_ns)
	res=$(cat "$out.res")
	cg_drop
	case $res in *null*|'') die "$4 gave no result for -l $2 -P $3; see $out.*" ;; esac
	set -- "$1" "$2" "$3" "$4" "$5" $res
	echo "$1 $2 $3 $4 $5 $6 $7 $8 $cpu ${9:-}" >>"$figures"
}

# agree_one N: boardbench at classic defaults; "rx_bps tx_bps rx_s tx_s".
agree_one() {
	local out="$work/agree-$1"
	PORT=$((PORT + 2))
	"$BB" ttcp -r -s -p "$PORT" --accept-timeout 30 --json "$out.rx.json" >"$out.rx" 2>&1 &
	SERVER=$!
	wait_listen "$PORT" || die "boardbench ttcp -r did not listen; see $out.rx"
	timeout 60 "$BB" ttcp -t -s -p "$PORT" --json "$out.tx.json" 127.0.0.1 >"$out.tx" 2>&1 ||
		die "boardbench ttcp -t failed; see $out.tx"
	wait "$SERVER" || die "boardbench ttcp -r failed; see $out.rx"
	SERVER=
	jq -r -s '[.[].results[0].series[] | select(.name == "transfer" and .variant == "total")
		.values] | "\(.[0].bits_per_s) \(.[1].bits_per_s) \(.[0].real_s) \(.[1].real_s)"' \
		"$out.rx.json" "$out.tx.json" >>"$work/agree.txt"
}

measure() {
	local r k p len t
	[ "$(id -u)" -eq 0 ] || die "needs root: both ends of each tool run in a cgroup"
	command -v ss >/dev/null || die "ss (iproute2) is needed to see when a server listens"
	need_boardbench
	for p in iperf iperf3 nuttcp; do
		command -v "$p" >/dev/null || apt_install "$p" || die "cannot install $p"
	done
	[ -w "$CPU_ROOT" ] && [ -w "$ACCT_ROOT" ] ||
		die "needs the cgroup v1 cpu and cpuacct hierarchies at $CPU_ROOT and $ACCT_ROOT"
	make_work "$keep"
	trap 'server_stop now; rmdir "$CPU_ROOT/$CG" "$ACCT_ROOT/$CG" 2>/dev/null || true
		[ -n "$keep" ] || rm -rf "$work"' EXIT
	figures="$work/figures.txt"
	: >"$figures"
	: >"$work/agree.txt"
	PORT=$(sh "$top/tests/port_base.sh" $$)
	read -r -a tools <<<"${TOOLS:-boardbench iperf3 iperf2 nuttcp}"
	read -r -a lens <<<"${LENS:-8192 65536 131072 1048576}"
	read -r -a nstreams <<<"${STREAMS:-1 4}"
	read -r -a rlens <<<"${RATE_LENS-8192 131072}"
	busy_before=$(cpu_busy)
	load_before=$(cut -d' ' -f1-3 /proc/loadavg)
	t_start=$(date +%s)
	for ((r = 1; r <= rounds; r++)); do
		for len in "${lens[@]}"; do
			for p in "${nstreams[@]}"; do
				for ((k = 0; k < ${#tools[@]}; k++)); do
					one tput "$len" "$p" "${tools[$(( (k + r - 1) % ${#tools[@]} ))]}" "$r"
				done
			done
		done
		for len in "${rlens[@]}"; do
			for ((k = 0; k < ${#tools[@]}; k++)); do
				one rate "$len" 1 "${tools[$(( (k + r - 1) % ${#tools[@]} ))]}" "$r" 1G
			done
		done
	done
	for ((r = 1; r <= agree; r++)); do
		say "classic defaults $r/$agree"
		agree_one "$r"
	done
	t_end=$(date +%s)
	load_after=$(cut -d' ' -f1-3 /proc/loadavg)
	{
		printf 'secs=%q rounds=%q agree=%q busy_before=%q\n' "$secs" "$rounds" "$agree" \
			"$busy_before"
		printf 'load_before=%q load_after=%q t_start=%q t_end=%q\n' "$load_before" \
			"$load_after" "$t_start" "$t_end"
		printf 'tools=(%s) lens=(%s) nstreams=(%s) rlens=(%s)\n' "${tools[*]}" \
			"${lens[*]}" "${nstreams[*]}" "${rlens[*]}"
		printf 'cpu_model=%q ncpu=%q kernel=%q\n' \
			"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)" "$(nproc)" \
			"$(uname -sr)"
		printf 'bb_version=%q commit=%q peers=%q run_date=%q\n' \
			"$("$BB" --version | head -n1)" \
			"$(git -C "$top" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)" \
			"$(iperf3 -v | head -n1 | cut -d' ' -f1-2), $(iperf -v 2>&1 | head -n1 |
			cut -d' ' -f1-3), $(nuttcp -V 2>&1 | head -n1)" \
			"$(date -u -d "@$t_start" +%Y-%m-%dT%H:%M:%SZ)"
	} >"$work/meta.sh"
}

if [ -n "$again" ]; then
	[ -r "$again/meta.sh" ] && [ -r "$again/figures.txt" ] ||
		die "-R $again: no meta.sh and figures.txt there (keep a run with -k)"
	work=$(cd "$again" && pwd)
else
	measure
fi
figures="$work/figures.txt"
# shellcheck disable=SC1091
. "$work/meta.sh"

# ---- the section ----

# med PART LEN STREAMS TOOL FIELD: the median of gbps | cpugb (both ends'
# cgroup CPU s per GB) | wcpugb (boardbench's window CPU s per GB); "-".
med() {
	awk -v pt="$1" -v l="$2" -v p="$3" -v t="$4" -v f="$5" '
		$1 == pt && $2 == l && $3 == p && $4 == t {
			if (f == "gbps") v = $8 / 1e9
			else if (f == "cpugb") v = $6 > 0 ? ($9 / 1e9) / ($6 / 1e9) : 0
			else if ($10 == "") next
			else v = $6 > 0 ? $10 / ($6 / 1e9) : 0
			x[++n] = v }
		END {
			if (n == 0) { print "-"; exit }
			for (i = 2; i <= n; i++) for (j = i; j > 1 && x[j-1] > x[j]; j--) {
				s = x[j]; x[j] = x[j-1]; x[j-1] = s }
			printf "%.3f\n", n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2 }' "$figures"
}
# range PART LEN STREAMS TOOL: "min-max" Gbit/s over the rounds.
range() {
	awk -v pt="$1" -v l="$2" -v p="$3" -v t="$4" '
		$1 == pt && $2 == l && $3 == p && $4 == t { v = $8 / 1e9
			if (n++ == 0 || v < lo) lo = v; if (n == 1 || v > hi) hi = v }
		END { if (n) printf "%.1f-%.1f", lo, hi; else print "-" }' "$figures"
}
best_peer() {  # LEN STREAMS: "gbps tool" of the best peer by median
	local b=0 bt=- v t
	for t in "${tools[@]}"; do
		[ "$t" != boardbench ] || continue
		v=$(med tput "$1" "$2" "$t" gbps)
		if awk -v a="$b" -v v="$v" 'BEGIN { exit !(v != "-" && v + 0 > a + 0) }'; then
			b=$v
			bt=$t
		fi
	done
	echo "$b $bt"
}
# round_ratio LEN STREAMS PEER: the median over rounds of boardbench /
# PEER in the same round (the interleaved rounds pair them), and its range.
round_ratio() {
	awk -v l="$1" -v p="$2" -v peer="$3" '$1 == "tput" && $2 == l && $3 == p {
			if ($4 == "boardbench") bb[$5] = $8; else if ($4 == peer) best[$5] = $8 }
		END { for (r in bb) if (best[r] > 0) x[++n] = bb[r] / best[r]
			if (n == 0) { print "-"; exit }
			for (i = 2; i <= n; i++) for (j = i; j > 1 && x[j-1] > x[j]; j--) {
				s = x[j]; x[j] = x[j-1]; x[j-1] = s }
			lo = x[1]; hi = x[n]
			printf "%.2f (%.2f-%.2f)\n", n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2, lo, hi }' \
		"$figures"
}
kib() { awk -v b="$1" 'BEGIN { if (b >= 1048576) printf "%d MiB", b / 1048576; else printf "%d KiB", b / 1024 }'; }

echo "### Run of $run_date"
echo
echo "- CPU: ${cpu_model:-unknown}, $ncpu online CPUs; $kernel"
echo "- boardbench: $bb_version (commit $commit); peers: $peers"
echo "- CPUs busy in the second before the run: ${busy_before}% of $ncpu; load average" \
	"before / after: $load_before / $load_after (\`uptime\`); $((t_end - t_start)) s in all"
echo "- $rounds interleaved rounds of ${secs}-second transfers (the first tool rotating" \
	"every round); medians of the rounds"
echo
echo "Commands (LEN, P streams, S seconds; both ends of each pair in one cgroup):"
echo
echo '```sh'
echo "boardbench ttcp -r -s -p PORT --streams P --json rx.json  &  boardbench ttcp -t -s -l LEN --streams P --time S -p PORT 127.0.0.1"
echo "iperf3 -s -1 -p PORT  &  iperf3 -c 127.0.0.1 -p PORT -l LEN -P P -t S -J"
echo "iperf -s -p PORT -y C  &  iperf -c 127.0.0.1 -p PORT -l LEN -P P -t S"
echo "nuttcp --nofork -1 -P PORT -p PORT+1  &  nuttcp -t -T S -l LEN -N P -P PORT -p PORT+1 -fparse 127.0.0.1"
echo "# part 2 adds --rate 1G, -b 1G, -b 1G, -R 1g"
echo '```'
echo
echo "Throughput, Gbit/s as the receiver counted it (median, and min-max of the rounds);"
echo "CPU s per GB received, both ends together (lower is better):"
echo
printf '| write | streams |'
for t in "${tools[@]}"; do printf ' %s Gbit/s | CPU s/GB |' "$t"; done
echo " best peer (by median) | boardbench / it: medians | the rounds' ratios: median (range) |"
printf '|---|---|'
for t in "${tools[@]}"; do printf -- '---|---|'; done
echo '---|---|---|'
for len in "${lens[@]}"; do
	for p in "${nstreams[@]}"; do
		printf '| %s | %s |' "$(kib "$len")" "$p"
		for t in "${tools[@]}"; do
			printf ' %s (%s) | %s |' "$(med tput "$len" "$p" "$t" gbps)" \
				"$(range tput "$len" "$p" "$t")" "$(med tput "$len" "$p" "$t" cpugb)"
		done
		read -r bp bt <<<"$(best_peer "$len" "$p")"
		echo " $bt | $(ratio "$(med tput "$len" "$p" boardbench gbps)" "$bp") |" \
			"$(round_ratio "$len" "$p" "$bt") |"
	done
done
if [ ${#rlens[@]} -gt 0 ]; then
	echo
	echo "At a fixed 1 Gbit/s, 1 stream: CPU s per GB received, both ends together (the"
	echo "cgroup; lower is better), and the rate each reached, Gbit/s:"
	echo
	printf '| write |'
	for t in "${tools[@]}"; do printf ' %s |' "$t"; done
	echo ' boardbench, its transfer window only | boardbench / iperf3 |'
	printf '|---|'
	for t in "${tools[@]}"; do printf -- '---|'; done
	echo '---|---|'
	for len in "${rlens[@]}"; do
		printf '| %s |' "$(kib "$len")"
		for t in "${tools[@]}"; do
			printf ' %s (%s Gbit/s) |' "$(med rate "$len" 1 "$t" cpugb)" "$(med rate "$len" 1 "$t" gbps)"
		done
		echo " $(med rate "$len" 1 boardbench wcpugb) | $(ratio "$(med rate "$len" 1 boardbench cpugb)" \
			"$(med rate "$len" 1 iperf3 cpugb)") |"
	done
fi
if [ "$agree" -gt 0 ] && [ -s "$work/agree.txt" ]; then
	echo
	echo "Classic defaults (\`ttcp -r -s\` and \`ttcp -t -s 127.0.0.1\`: 8192 x 2048 bytes), $agree runs:"
	echo "the receiver's rate over the sender's, both first byte to last:"
	echo
	awk '{ x[++n] = $1 / $2; rx[n] = $1 / 1e9; tx[n] = $2 / 1e9 }
		END {
			for (i = 2; i <= n; i++) for (j = i; j > 1 && x[j-1] > x[j]; j--) {
				s = x[j]; x[j] = x[j-1]; x[j-1] = s }
			for (i = 1; i <= n; i++) if (x[i] >= 0.95 && x[i] <= 1.05) w++
			printf "| runs | receiver / sender: median | min | max | within 5%% |\n|---|---|---|---|---|\n"
			printf "| %d | %.3f | %.3f | %.3f | %d of %d |\n", n,
				n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2, x[1], x[n], w, n }' \
		"$work/agree.txt"
fi
[ -z "$keep" ] || say "raw outputs kept in $work"
exit 0
