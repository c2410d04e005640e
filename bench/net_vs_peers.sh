#!/bin/bash
# bench/net_vs_peers.sh - measures `boardbench ttcp` side by side with the
# network tools it replaces, in one run, over loopback (127.0.0.1), and
# prints a markdown section for docs/benchmarks/ttcp.md.
#
# Tools (both ends of each on this machine):
#   boardbench ttcp -r -s / ttcp -t -s      iperf3 -s -1 / iperf3 -c
#   iperf -s (2.1.x)  / iperf -c            nuttcp -1 / nuttcp -t
# Rows: write size -l 1500, 8192 and 131072 bytes; 1 and 2 streams; each
# without a CPU limit and with both ends of the tool in one cgroup (v1
# cpu.cfs_quota_us) allowed 25% of one CPU, as on a slow board where the
# tool's own cost decides the result.  Every run lasts SECONDS (-t); the
# tools run round-robin inside each row, the first one rotating every round.
#
# Each figure is what the receiving end counted (boardbench's receiver,
# iperf3's sum_received, iperf2's server, nuttcp's report), in Gbit/s of
# 10^9 bits; CPU is what the cgroup's cpuacct.usage counted for both ends
# together, in CPU seconds per GB (10^9 bytes) received.
#
# Usage: bench/net_vs_peers.sh [-t SECONDS] [-r ROUNDS] [-k DIR]
#        bench/net_vs_peers.sh -R DIR    (the tables again from a kept run)
#   -t SECONDS  length of each transfer (default 5)
#   -r ROUNDS   rounds over every row and tool (default 2); medians are shown
#   -k DIR      keep every raw output in DIR (default: a temporary directory)
#   -R DIR      measure nothing: print the section again from DIR, kept by -k
# Environment: BB (boardbench binary; default ./boardbench at the top of the
# tree, built with make when missing); LENS, STREAMS, CAPS (100 and/or 25)
# and TOOLS narrow the table for a quick look, e.g. LENS=1500 CAPS=25.  Needs root (cgroups), bash, awk, jq,
# ss; installs iperf, iperf3 and nuttcp with apt-get when missing.
# Markdown goes to stdout; progress to stderr.
set -eu

die() { echo "net_vs_peers: $*" >&2; exit 1; }
bad() { echo "net_vs_peers: $*" >&2; exit 2; }
say() { echo "net_vs_peers: $*" >&2; }

top=$(cd "$(dirname "$0")/.." && pwd)
secs=5
rounds=2
keep=
again=
while getopts "t:r:k:R:h" opt; do
	case $opt in
	R) again=$OPTARG ;;
	t) secs=$OPTARG ;;
	r) rounds=$OPTARG ;;
	k) keep=$OPTARG ;;
	h) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) exit 2 ;;
	esac
done
case $secs in ''|*[!0-9]*) bad "-t: expected whole seconds, got '$secs'" ;; esac
case $rounds in ''|*[!0-9]*) bad "-r: expected a number of rounds, got '$rounds'" ;; esac
[ "$secs" -ge 1 ] && [ "$secs" -le 600 ] || bad "-t: expected 1..600 seconds"
[ "$rounds" -ge 1 ] || bad "-r: expected at least 1 round"
# ---- measuring: everything below writes $work/figures.txt and $work/meta.sh ----
measure() {
	[ "$(id -u)" -eq 0 ] || die "needs root: both ends of each tool run in a cgroup"
	command -v jq >/dev/null || die "jq is needed to read boardbench --json and iperf3 -J"
	command -v ss >/dev/null || die "ss (iproute2) is needed to see when a server listens"

	BB=${BB:-$top/boardbench}
	if [ ! -x "$BB" ]; then
		say "building boardbench with make"
		make -C "$top" >&2 || die "make failed"
	fi
	[ -x "$BB" ] || die "no boardbench binary at $BB"

	for p in iperf:iperf iperf3:iperf3 nuttcp:nuttcp; do
		command -v "${p%%:*}" >/dev/null ||
			apt-get install -y -q "${p##*:}" >&2 || die "cannot install ${p##*:}"
	done

	CPU_ROOT=/sys/fs/cgroup/cpu
	ACCT_ROOT=/sys/fs/cgroup/cpuacct
	[ -w "$CPU_ROOT" ] && [ -w "$ACCT_ROOT" ] ||
		die "needs the cgroup v1 cpu and cpuacct hierarchies at $CPU_ROOT and $ACCT_ROOT"

	if [ -n "$keep" ]; then
		mkdir -p "$keep"
		work=$(cd "$keep" && pwd)
	else
		work=$(mktemp -d "${TMPDIR:-/tmp}/net_vs_peers.XXXXXX")
	fi
	CG=bbnet$$
	SERVER=
	cleanup() {
		[ -z "$SERVER" ] || kill -KILL "$SERVER" 2>/dev/null || true
		rmdir "$CPU_ROOT/$CG" "$ACCT_ROOT/$CG" 2>/dev/null || true
		[ -n "$keep" ] || rm -rf "$work"
	}
	trap cleanup EXIT

	# ---- the cgroup both ends of one run live in ----
	cg_make() {  # QUOTA_US (-1: none)
		mkdir -p "$CPU_ROOT/$CG" "$ACCT_ROOT/$CG"
		echo 100000 >"$CPU_ROOT/$CG/cpu.cfs_period_us"
		echo "$1" >"$CPU_ROOT/$CG/cpu.cfs_quota_us"
		echo 0 >"$ACCT_ROOT/$CG/cpuacct.usage"
	}
	cg_usage_ns() { cat "$ACCT_ROOT/$CG/cpuacct.usage"; }
	cg_drop() {  # the cgroups go once their last task has gone (at most 5 s)
		local i=0 d
		while [ $i -lt 50 ]; do
			for d in "$CPU_ROOT/$CG" "$ACCT_ROOT/$CG"; do
				[ ! -d "$d" ] || rmdir "$d" 2>/dev/null || true
			done
			[ -d "$CPU_ROOT/$CG" ] || [ -d "$ACCT_ROOT/$CG" ] || return 0
			sleep 0.1
			i=$((i + 1))
		done
		die "cannot remove the cgroup $CG: a process is left in it"
	}
	# incg COMMAND...: runs the command inside the cgroup.
	incg() {
		sh -c 'echo $$ >"$1/cgroup.procs" && echo $$ >"$2/cgroup.procs" && shift 2 && exec "$@"' \
			sh "$CPU_ROOT/$CG" "$ACCT_ROOT/$CG" "$@"
	}

	PORT=$(sh "$top/tests/port_base.sh" $$)
	wait_listen() {  # PORT
		local i=0
		while [ $i -lt 100 ]; do
			ss -Hltn "sport = :$1" 2>/dev/null | grep -q . && return 0
			sleep 0.05
			i=$((i + 1))
		done
		return 1
	}
	server() {  # OUTFILE COMMAND...: a server in the cgroup, its own pid in SERVER
		local out=$1
		shift
		# not through incg (a function would run in a subshell of its own):
		# sh execs the server, so $! is the server's pid
		sh -c 'echo $$ >"$1/cgroup.procs" && echo $$ >"$2/cgroup.procs" && shift 2 && exec "$@"' \
			sh "$CPU_ROOT/$CG" "$ACCT_ROOT/$CG" "$@" >"$out" 2>&1 &
		SERVER=$!
	}
	server_end() {  # wait for a one-shot server (bounded), else stop it
		local i=0
		while kill -0 "$SERVER" 2>/dev/null && [ $i -lt 100 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		server_stop
	}
	server_stop() {  # iperf 2.1's server ignores SIGTERM: SIGINT, then SIGKILL
		local i=0
		[ -n "$SERVER" ] || return 0
		kill -INT "$SERVER" 2>/dev/null || true
		while kill -0 "$SERVER" 2>/dev/null && [ $i -lt 20 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		kill -KILL "$SERVER" 2>/dev/null || true
		wait "$SERVER" 2>/dev/null || true
		SERVER=
	}

	# ---- one run of each tool on PORT (and PORT+1): prints "bytes seconds
	# bits_per_s" as its receiver counted them.  Run in this shell (not in $(...))
	# so that SERVER stays known to the cleanup. ----
	run_bb() {  # LEN STREAMS OUT
		server "$3.rx" "$BB" ttcp -r -s -p $PORT --streams "$2" --accept-timeout 30 \
			--idle-timeout 30 --json "$3.rx.json"
		wait_listen $PORT || die "boardbench ttcp -r did not listen; see $3.rx"
		incg timeout $((secs + 60)) "$BB" ttcp -t -s -l "$1" --streams "$2" --time "$secs" \
			-p $PORT 127.0.0.1 >"$3.tx" 2>&1 || die "boardbench ttcp -t failed; see $3.tx"
		server_end
		jq -r '.results[0].series[] | select(.name == "transfer" and .variant == "total") |
			"\(.values.bytes) \(.values.real_s) \(.values.bits_per_s)"' "$3.rx.json"
	}

	run_iperf3() {  # LEN STREAMS OUT
		server "$3.srv" iperf3 -s -1 -p $PORT
		wait_listen $PORT || die "iperf3 -s did not listen; see $3.srv"
		incg timeout $((secs + 60)) iperf3 -c 127.0.0.1 -p $PORT -l "$1" -P "$2" -t "$secs" -J \
			>"$3.json" 2>"$3.err" || die "iperf3 -c failed; see $3.json"
		server_end
		jq -r '.end.sum_received | "\(.bytes) \(.seconds) \(.bits_per_second)"' "$3.json"
	}

	run_iperf2() {  # LEN STREAMS OUT
		server "$3.srv" iperf -s -p $PORT -y C
		wait_listen $PORT || die "iperf -s did not listen; see $3.srv"
		incg timeout $((secs + 60)) iperf -c 127.0.0.1 -p $PORT -l "$1" -P "$2" -t "$secs" \
			>"$3.cli" 2>&1 || die "iperf -c failed; see $3.cli"
		# the server's CSV lines, one per stream, come when each stream ends
		local i=0
		while [ "$(grep -c ',' "$3.srv" 2>/dev/null)" -lt "$2" ] && [ $i -lt 100 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		server_stop
		awk -F, -v n="$2" 'NF >= 9 && $6 != "-1" && k < n { k++; b += $8; bps += $9
			split($7, iv, "-"); if (iv[2] > s) s = iv[2] }
			END { if (k == n) printf "%.0f %s %.0f\n", b, s, bps }' "$3.srv"
	}

	run_nuttcp() {  # LEN STREAMS OUT
		server "$3.srv" nuttcp --nofork -1 -P $PORT -p $((PORT + 1))
		wait_listen $PORT || die "nuttcp -1 did not listen; see $3.srv"
		incg timeout $((secs + 60)) nuttcp -t -T "$secs" -l "$1" -N "$2" -P $PORT -p $((PORT + 1)) \
			-fparse 127.0.0.1 >"$3.out" 2>&1 || die "nuttcp -t failed; see $3.out"
		server_end
		sed -n 's/.*megabytes=\([0-9.]*\) real_seconds=\([0-9.]*\) rate_Mbps=\([0-9.]*\).*/\1 \2 \3/p' \
			"$3.out" | awk '{ printf "%.0f %s %.0f\n", $1 * 1048576, $2, $3 * 1e6 }'
	}

	# ---- the rounds ----
	read -r -a tools <<<"${TOOLS:-boardbench iperf3 iperf2 nuttcp}"
	read -r -a lens <<<"${LENS:-1500 8192 131072}"
	read -r -a nstreams <<<"${STREAMS:-1 2}"
	read -r -a caps <<<"${CAPS:-100 25}"
	figures="$work/figures.txt"
	: >"$figures"

	one() {  # CAP LEN STREAMS TOOL ROUND
		local quota=-1 out res cpu
		[ "$1" = 25 ] && quota=25000
		out="$work/$4-cap$1-l$2-P$3-r$5"
		cg_make $quota
		PORT=$((PORT + 2))
		case $4 in
		boardbench) run_bb "$2" "$3" "$out" >"$out.res" ;;
		iperf3) run_iperf3 "$2" "$3" "$out" >"$out.res" ;;
		iperf2) run_iperf2 "$2" "$3" "$out" >"$out.res" ;;
		nuttcp) run_nuttcp "$2" "$3" "$out" >"$out.res" ;;
		esac
		cpu=$(cg_usage_ns)
		res=$(cat "$out.res")
		cg_drop
		case $res in
		*null*|'') die "$4 gave no result for cap $1 -l $2 -P $3; see $out.*" ;;
		esac
		# cap len streams tool round bytes seconds bits/s cpu_ns
		echo "$1 $2 $3 $4 $5 $res $cpu" >>"$figures"
	}

	cpu_busy() {  # percent of all CPUs busy over the next second
		{ head -n1 /proc/stat; sleep 1; head -n1 /proc/stat; } | awk '
			{ idle = $5 + $6; tot = 0; for (i = 2; i <= NF; i++) tot += $i
			  if (NR == 1) { i0 = idle; t0 = tot } else { i1 = idle; t1 = tot } }
			END { if (t1 > t0) printf "%.0f", 100 * (1 - (i1 - i0) / (t1 - t0)); else print "?" }'
	}
	busy_before=$(cpu_busy)
	load_before=$(cut -d' ' -f1-3 /proc/loadavg)
	t_start=$(date +%s)
	for ((r = 1; r <= rounds; r++)); do
		for cap in "${caps[@]}"; do
			for len in "${lens[@]}"; do
				for p in "${nstreams[@]}"; do
					for ((k = 0; k < ${#tools[@]}; k++)); do
						tool=${tools[$(( (k + r - 1) % ${#tools[@]} ))]}
						say "round $r/$rounds: cpu ${cap}% -l $len -P $p: $tool"
						one "$cap" "$len" "$p" "$tool" "$r"
					done
				done
			done
		done
	done
	t_end=$(date +%s)
	busy_after=$(cpu_busy)
	load_after=$(cut -d' ' -f1-3 /proc/loadavg)
	{
		printf 'secs=%q rounds=%q busy_before=%q busy_after=%q\n' "$secs" "$rounds" \
			"$busy_before" "$busy_after"
		printf 'load_before=%q load_after=%q t_start=%q t_end=%q\n' "$load_before" \
			"$load_after" "$t_start" "$t_end"
		printf 'tools=(%s) lens=(%s) nstreams=(%s) caps=(%s)\n' "${tools[*]}" "${lens[*]}" \
			"${nstreams[*]}" "${caps[*]}"
		printf 'cpu_model=%q ncpu=%q machine=%q\n' \
			"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)" "$(nproc)" \
			"$(uname -m); kernel $(uname -r)"
		printf 'bb_version=%q peers=%q run_date=%q\n' "$("$BB" --version | head -n1)" \
			"$(iperf3 -v | head -n1 | cut -d' ' -f1-2), $(iperf -v 2>&1 | head -n1 |
			cut -d' ' -f1-3), $(nuttcp -V 2>&1 | head -n1)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	} >"$work/meta.sh"
}

if [ -n "$again" ]; then
	[ -r "$again/meta.sh" ] && [ -r "$again/figures.txt" ] ||
		die "-R $again: no meta.sh and figures.txt there (keep a run with -k)"
	# shellcheck disable=SC1091
	. "$again/meta.sh"
	figures="$again/figures.txt"
else
	measure
	# shellcheck disable=SC1091
	. "$work/meta.sh"
fi

# ---- medians ----
med() {  # CAP LEN STREAMS TOOL FIELD(gbps|cpugb)
	awk -v c="$1" -v l="$2" -v p="$3" -v t="$4" -v f="$5" '
		$1 == c && $2 == l && $3 == p && $4 == t {
			v = f == "gbps" ? $8 / 1e9 : ($6 > 0 ? ($9 / 1e9) / ($6 / 1e9) : 0)
			x[++n] = v }
		END {
			if (n == 0) { print "-"; exit }
			for (i = 2; i <= n; i++) for (j = i; j > 1 && x[j-1] > x[j]; j--) {
				s = x[j]; x[j] = x[j-1]; x[j-1] = s }
			printf "%.3f\n", n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2 }' "$figures"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else print "n/a" }'; }
best_peer() {  # CAP LEN STREAMS: the best peer's Gbit/s
	local b=0 v
	for t in "${tools[@]}"; do
		[ "$t" != boardbench ] || continue
		v=$(med "$1" "$2" "$3" "$t" gbps)
		b=$(awk -v a="$b" -v v="$v" 'BEGIN { print (v + 0 > a + 0) ? v : a }')
	done
	echo "$b"
}

echo "### Run of $run_date"
echo
echo "- CPU: ${cpu_model:-unknown}, $ncpu online CPUs; $machine"
echo "- boardbench: $bb_version"
echo "- peers: $peers"
echo "- CPUs busy in the second before / after the run: ${busy_before}% / ${busy_after}% of" \
	"$ncpu (other processes; 0% is a quiet machine); load average $load_before / $load_after"
echo "- $rounds rounds of ${secs}-second transfers, $((t_end - t_start)) s in all; medians of the rounds"
echo
echo "Commands (-l LEN, P streams, S seconds; each pair started in one cgroup):"
echo
echo '```sh'
echo "boardbench ttcp -r -s -p PORT --streams P --json rx.json  &  boardbench ttcp -t -s -l LEN --streams P --time S -p PORT 127.0.0.1"
echo "iperf3 -s -1 -p PORT  &  iperf3 -c 127.0.0.1 -p PORT -l LEN -P P -t S -J"
echo "iperf -s -p PORT -y C  &  iperf -c 127.0.0.1 -p PORT -l LEN -P P -t S"
echo "nuttcp --nofork -1 -P PORT -p PORT+1  &  nuttcp -t -T S -l LEN -N P -P PORT -p PORT+1 -fparse 127.0.0.1"
echo "# CPU-capped rows: cpu.cfs_period_us = 100000, cpu.cfs_quota_us = 25000 for the pair"
echo '```'
echo
echo "Throughput, Gbit/s (10^9 bits/s) as the receiver counted it:"
echo
echo "| CPU | -l | streams | boardbench | iperf3 | iperf2 | nuttcp | boardbench / best peer | boardbench / iperf3 |"
echo "|---|---|---|---|---|---|---|---|---|"
for cap in "${caps[@]}"; do
	for len in "${lens[@]}"; do
		for p in "${nstreams[@]}"; do
			bb=$(med $cap "$len" $p boardbench gbps)
			i3=$(med $cap "$len" $p iperf3 gbps)
			echo "| $([ $cap = 25 ] && echo '25% of 1' || echo 'no limit') | $len | $p | $bb | $i3" \
				"| $(med $cap "$len" $p iperf2 gbps) | $(med $cap "$len" $p nuttcp gbps)" \
				"| $(ratio "$bb" "$(best_peer $cap "$len" $p)") | $(ratio "$bb" "$i3") |"
		done
	done
done
echo
echo "CPU seconds per GB (10^9 bytes) received, both ends together (lower is better):"
echo
echo "| CPU | -l | streams | boardbench | iperf3 | iperf2 | nuttcp |"
echo "|---|---|---|---|---|---|---|"
for cap in "${caps[@]}"; do
	for len in "${lens[@]}"; do
		for p in "${nstreams[@]}"; do
			echo "| $([ $cap = 25 ] && echo '25% of 1' || echo 'no limit') | $len | $p" \
				"| $(med $cap "$len" $p boardbench cpugb) | $(med $cap "$len" $p iperf3 cpugb)" \
				"| $(med $cap "$len" $p iperf2 cpugb) | $(med $cap "$len" $p nuttcp cpugb) |"
		done
	done
done
echo
echo "Every run (Gbit/s), in the order of the rounds:"
echo
echo "| CPU | -l | streams | tool | runs |"
echo "|---|---|---|---|---|"
for cap in "${caps[@]}"; do
	for len in "${lens[@]}"; do
		for p in "${nstreams[@]}"; do
			for t in "${tools[@]}"; do
				v=$(awk -v c=$cap -v l="$len" -v p=$p -v t=$t '$1 == c && $2 == l && $3 == p &&
					$4 == t { printf "%s%.3f", sep, $8 / 1e9; sep = ", " }' "$figures")
				echo "| $cap% | $len | $p | $t | $v |"
			done
		done
	done
done
[ -z "$keep" ] || say "raw outputs kept in $work"
exit 0
