#!/bin/bash
# bench/ttcp_server_hostile.sh - `boardbench ttcp -r --server` under mixed
# hostile load on loopback, printed as a markdown section for
# docs/benchmarks/ttcp-server.md.
#
# First legitimate tests alone: `ttcp --to-server 127.0.0.1 --time T`, back
# to back, for the same number of seconds as the load lasts; then the same
# tests back to back while, for SECONDS, python3 clients keep up:
#   a port scan        connect and close, in a loop
#   slowloris          8 connections sending one byte a second
#   silent             8 connections sending nothing
#   garbage            random control messages ("BBcp" and random bytes)
#   strangers          DATA messages with a wrong token and 100 KB behind them
#   a flood            100 connections opened at once, then closed, in a loop
# and reports how many legitimate tests completed, their rates against the
# rates without the load (median), the server's CPU (its own, over the
# whole window) and its largest RSS, and how many lines of each verdict the
# server logged.
#
# Usage: bench/ttcp_server_hostile.sh [-s SECONDS] [-t T] [-k DIR]
#   -s SECONDS  the load, and the baseline, last this long (default 60)
#   -t T        each legitimate test's --time (default 5)
#   -k DIR      keep every raw output in DIR (default: a temporary one)
# Environment: BB (boardbench binary; default ./boardbench at the top of
# the tree, built with make when missing).  Needs python3 and jq.
# Markdown goes to stdout; progress to stderr.
set -eu

prog=ttcp_server_hostile.sh
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

secs=60
each=5
keep=
while getopts ":s:t:k:h" opt; do
	case $opt in
	s) need_count -s "$OPTARG" second 5 3600; secs=$OPTARG ;;
	t) need_count -t "$OPTARG" second 1 600; each=$OPTARG ;;
	k) [ -n "$OPTARG" ] || bad "-k: expected a directory"; keep=$OPTARG ;;
	h) usage; exit 0 ;;
	:) bad "-$OPTARG needs a value" ;;
	*) bad "-$OPTARG: unknown option (see -h)" ;;
	esac
done
command -v python3 >/dev/null || die "python3 is needed for the hostile clients"
need_boardbench
make_work "$keep"
port=$(sh "$top/tests/port_base.sh" $$)
pids=""
stop_all() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
}
trap 'stop_all; [ -n "$keep" ] || rm -rf "$work"' EXIT

cat >"$work/hostile.py" <<'EOF'
import random, socket, sys, time
mode, port, until = sys.argv[1], int(sys.argv[2]), time.time() + float(sys.argv[3])
rnd = random.Random(hash(mode))
def conn():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    return s
def msg(t, payload):
    return b"BBcp\x01" + bytes([t]) + len(payload).to_bytes(2, "big") + payload
while time.time() < until:
    try:
        if mode == "scan":
            conn().close()
        elif mode in ("slow", "silent"):
            s = conn()
            while time.time() < until:
                if mode == "slow":
                    s.send(b"x")
                elif s.recv(10) == b"":
                    break
                time.sleep(1)
        elif mode == "garbage":
            s = conn()
            n = rnd.randrange(0, 600)
            s.sendall(b"BBcp" + bytes(rnd.randrange(256) for _ in range(n)))
            s.close()
        elif mode == "stranger":
            s = conn()
            s.sendall(msg(8, bytes([5, 16]) + rnd.randbytes(16) + bytes([13, 1, 0])) + b"A" * 100000)
            s.close()
        elif mode == "flood":
            held = [conn() for _ in range(100)]
            for s in held:
                s.close()
    except OSError:
        time.sleep(0.05)
EOF

srv_pid() {  # the boardbench under timeout's pid
	awk '{print $1}' "/proc/$1/task/$1/children" 2>/dev/null
}

timeout $((secs * 3 + 300)) "$BB" ttcp -r --server -p "$port" >"$work/server.log" \
	2>"$work/server.err" &
tpid=$!
pids="$tpid"
for _ in $(seq 1 100); do
	grep -q "serving on port" "$work/server.err" 2>/dev/null && break
	sleep 0.1
done
spid=$(srv_pid "$tpid")
[ -n "$spid" ] || die "the server did not start: $(cat "$work/server.err")"

cpu_ticks() { awk '{print $14 + $15}' "/proc/$spid/stat"; }
rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$spid/status"; }

# legit_loop NAME: back-to-back tests for $secs seconds; one line per
# test: "status bits_per_s" (the sender's SI rate from its JSON).
legit_loop() {
	local name=$1 end=$((SECONDS + secs)) i=0 st
	: >"$work/$name.rates"
	while [ $SECONDS -lt $end ]; do
		i=$((i + 1))
		if timeout $((each + 60)) "$BB" ttcp --to-server 127.0.0.1 -p "$port" --time "$each" \
		    --json "$work/$name-$i.json" >"$work/$name-$i.out" 2>&1; then
			st=complete
		else
			st=failed
		fi
		echo "$st $(jq -r '[.results[0].series[] | select(.name == "transfer" and .variant == "total") | .values.bits_per_s][0] // 0' \
			"$work/$name-$i.json" 2>/dev/null || echo 0)" >>"$work/$name.rates"
	done
}

say "baseline: legitimate tests alone for $secs s"
legit_loop alone
say "the same with hostile load for $secs s"
c0=$(cpu_ticks)
t0=$SECONDS
rss_max=$(rss_kib)
load=""
for m in scan garbage stranger flood; do
	timeout $((secs + 30)) python3 "$work/hostile.py" "$m" "$port" "$secs" &
	load="$load $!"
done
for _ in 1 2 3 4 5 6 7 8; do
	timeout $((secs + 30)) python3 "$work/hostile.py" slow "$port" "$secs" &
	load="$load $!"
	timeout $((secs + 30)) python3 "$work/hostile.py" silent "$port" "$secs" &
	load="$load $!"
done
pids="$pids $load"
( while kill -0 "$spid" 2>/dev/null; do rss_kib; sleep 1; done ) >"$work/rss" &
pids="$pids $!"
legit_loop loaded
wait $load 2>/dev/null || true
c1=$(cpu_ticks)
t1=$SECONDS
rss_max=$(sort -n "$work/rss" | tail -n1)
kill -TERM "$spid"
wait "$tpid" || true

hz=$(getconf CLK_TCK)
med() { awk '$1 == "complete" {print $2}' "$1" | summary %.0f | cut -d' ' -f1; }
done_of() { awk '$1 == "complete"' "$1" | wc -l; }
all_of() { wc -l <"$1"; }
m0=$(med "$work/alone.rates")
m1=$(med "$work/loaded.rates")

machine_head
echo
echo "Server: \`boardbench ttcp -r --server\` with its defaults ($(grep -o 'at most.*' "$work/server.err" | head -n1))."
echo "Legitimate tests: \`ttcp --to-server 127.0.0.1 --time $each\`, back to back for $secs s,"
echo "alone and then under the load described in \`bench/ttcp_server_hostile.sh\`."
echo
echo "| | alone | under load |"
echo "|---|---|---|"
echo "| legitimate tests complete | $(done_of "$work/alone.rates") of $(all_of "$work/alone.rates") | $(done_of "$work/loaded.rates") of $(all_of "$work/loaded.rates") |"
echo "| median rate (sender, SI) | $(awk -v r="$m0" 'BEGIN { printf "%.2f Gbit/s", r / 1e9 }') | $(awk -v r="$m1" 'BEGIN { printf "%.2f Gbit/s", r / 1e9 }') ($(ratio "$m1" "$m0") x) |"
echo "| server CPU over the load | | $(awk -v c=$((c1 - c0)) -v hz="$hz" -v s=$((t1 - t0)) 'BEGIN { printf "%.1f%% of one CPU", 100 * c / hz / s }') |"
echo "| server's largest RSS | | ${rss_max} KiB |"
echo
echo "Server log lines by verdict:"
echo
echo '```'
sed 's/^[^ ]* [^ ]* [^ ]* [0-9]* bytes [0-9.]* s [0-9.-]* Mbit\/s //' "$work/server.log" |
	sed 's/[0-9][0-9.]*/N/g' | sort | uniq -c | sort -rn | head -n 15
echo '```'
