#!/bin/sh
# tests/integration/test_ttcp_server.sh - `ttcp -r --server` and
# `ttcp --to-server` over loopback only: tests in both directions and both
# at once with both ends printed; then the server under abuse - a port
# scan, a stranger joining a running test, a slow sender and a silent one,
# a garbage handshake, 500 connection attempts, a killed client, 30
# clients with `ulimit -n 16`, SIGTERM mid-test - each while a legitimate
# test from another client completes with exact byte counts; --allow and
# --key; and afterwards the server still serves, with its descriptors and
# RSS back to their baseline.  Raw clients are a small python3 script.
# Every process is bounded by timeout and killed by its pid on exit.
. tests/integration/lib.sh
. tests/integration/net_lib.sh

[ -n "${BB_ABS:-}" ] || BB_ABS=$(cd "$(dirname "$BB")" && pwd)/$(basename "$BB")

if ! command -v python3 >/dev/null 2>&1; then
	echo "ok - ttcp server tests # SKIP no python3 for the raw clients"
	exit 0
fi

cat >"$TMPD/peer.py" <<'EOF'
# peer.py MODE PORT [ARGS]: raw clients of a ttcp server.
import socket, sys, time
mode, port = sys.argv[1], int(sys.argv[2])
args = sys.argv[3:]
def conn(src=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if src:
        s.bind((src, 0))
    s.settimeout(30)
    s.connect(("127.0.0.1", port))
    return s
def msg(t, payload):
    return b"BBcp\x03" + bytes([t]) + len(payload).to_bytes(2, "big") + payload
if mode == "scan":
    for _ in range(int(args[0])):
        conn().close()
elif mode == "garbage":
    s = conn()
    s.sendall(b"BBcp" + b"\xff\x00junk junk")
    print(s.recv(600))
elif mode == "token":
    s = conn(args[0] if args else None)
    s.sendall(msg(8, bytes([5, 16]) + bytes(16) + bytes([13, 1, 0])) + b"A" * 100000)
    print(s.recv(600))
elif mode == "slow" or mode == "silent":
    s = conn()
    t = time.time()
    try:
        while time.time() - t < 30:
            if mode == "slow":
                s.send(b"x")
                time.sleep(0.5)
            elif s.recv(100) == b"":
                break
        print("held 30 s")
    except OSError as e:
        print("dropped after %.1f s" % (time.time() - t))
elif mode == "many":
    n, batch = int(args[0]), int(args[1])
    while n > 0:
        k = min(n, batch)
        held = []
        for _ in range(k):
            try:
                held.append(conn())
            except OSError:
                pass
        for s in held:
            s.close()
        n -= k
elif mode == "fuzz":
    import random
    rnd = random.Random(int(args[1]))
    for i in range(int(args[0])):
        s = conn()
        body = bytes(rnd.randrange(256) for _ in range(rnd.randrange(0, 600)))
        head = b"BBcp\x03" + bytes([rnd.randrange(0, 12)]) + rnd.randrange(0, 700).to_bytes(2, "big")
        try:
            s.sendall(head[: rnd.randrange(4, 9)] + body)
            s.shutdown(socket.SHUT_WR)
            s.recv(600)
        except OSError:
            pass
        s.close()
elif mode == "classic":
    s = conn(args[1] if len(args) > 1 else None)
    s.sendall(b" " * int(args[0]))
    s.close()
EOF
peer() {
	timeout 60 python3 "$TMPD/peer.py" "$@"
}

# Under AddressSanitizer, freed memory waits in a quarantine: RSS would
# not come back.  (No effect on a build without it.)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
export ASAN_OPTIONS

# server NAME ARGS...: a server in the background (output in
# $TMPD/NAME.out and .err), its pid in SPID once it serves.
server() {
	name=$1
	shift
	timeout 600 "$BB" ttcp -r --server -p "$PORT" "$@" >"$TMPD/$name.out" 2>"$TMPD/$name.err" &
	TPID=$!
	PIDS="$PIDS $TPID"
	wait_for "serving on port" "$TMPD/$name.err" 20
	SPID=$(cat "/proc/$TPID/task/$TPID/children" 2>/dev/null | awk '{print $1}')
	[ -n "$SPID" ] || SPID=$TPID
	PIDS="$SPID $PIDS"
}

# client NAME ARGS...: a boardbench client to the current port; its status in RC.
client() {
	name=$1
	shift
	timeout 60 "$BB" ttcp --to-server 127.0.0.1 -p "$PORT" "$@" >"$TMPD/$name.out" \
		2>"$TMPD/$name.err"
	RC=$?
}

fds() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }
rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# wait_fds N: until the server has N descriptors open (a test runs).
wait_fds() {
	_i=0
	while [ "$(fds "$SPID")" -lt "$1" ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}
# wait_threads N: until the server runs N threads (one per stream, and its own).
wait_threads() {
	_i=0
	while [ "$(ls "/proc/$SPID/task" 2>/dev/null | wc -l)" -lt "$1" ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}
count() { grep -c -- "$1" "$2" 2>/dev/null || true; }

# legit TAG: a legitimate test (-n 1000 -l 8192: 8192000 bytes) from
# 127.0.0.1; checks both ends and the server's log line count exactly.
legit() {
	client "legit-$1" -n 1000
	before=$(count "bb-tcp 8192000 bytes .* complete$" "$TMPD/main.out")
	if [ "$RC" -eq 0 ] && grep -q "^ttcp-t: 8192000 bytes" "$TMPD/legit-$1.out" &&
	    grep -q "^ttcp-server: received 8192000 bytes" "$TMPD/legit-$1.out" &&
	    grep -q "server process .* complete$" "$TMPD/legit-$1.out"; then
		tap 0 "$1: a legitimate test completes with 8192000 bytes at both ends"
	else
		tap 1 "$1: a legitimate test completes with 8192000 bytes at both ends (rc $RC)"
		sed 's/^/#   /' "$TMPD/legit-$1.out" "$TMPD/legit-$1.err" | tail -8
	fi
	[ "$before" -ge 1 ] || tap 1 "$1: the server logged the legitimate test"
}

# ---- the main server: both directions, the log line, results files ----
mkdir "$TMPD/results"
server main --json-dir "$TMPD/results" --handshake-timeout 2 --rate-window 2 \
	--idle-timeout 5
[ -d "/proc/$SPID" ]
tap $? "the server starts and serves (pid $SPID)"

legit warmup
BASE_FD=$(fds "$SPID")
BASE_RSS=$(rss_kib "$SPID")

client reverse -R -n 500 -l 4096
if [ "$RC" -eq 0 ] && grep -q "^ttcp-r: 2048000 bytes" "$TMPD/reverse.out" &&
    grep -q "^ttcp-server: sent 2048000 bytes" "$TMPD/reverse.out"; then
	tap 0 "-R: the server sends 2048000 bytes, both ends print them"
else
	tap 1 "-R: the server sends 2048000 bytes, both ends print them (rc $RC)"
	sed 's/^/#   /' "$TMPD/reverse.out" "$TMPD/reverse.err" | tail -8
fi
client bidir --bidir --streams 2 --time 1
[ "$RC" -eq 0 ] && [ "$(count '^ttcp-server: cpu: server process' "$TMPD/bidir.out")" -eq 2 ] &&
	[ "$(count '^ttcp-server: \(sent\|received\)' "$TMPD/bidir.out")" -eq 2 ]
tap $? "--bidir: both directions at once, the server's bytes and CPU for each"
wait_for "bb-tcp-bidir .* complete$" "$TMPD/main.out" 10
tap $? "the server's log line: time, client, mode, bytes, seconds, rate, verdict"
grep -q '^20[0-9-]*T[0-9:]*Z 127\.0\.0\.1:[0-9]* bb-tcp 8192000 bytes [0-9.]* s [0-9.]* Mbit/s complete$' \
	"$TMPD/main.out"
tap $? "a log line reads TIME ADDR:PORT MODE BYTES bytes SECONDS s RATE Mbit/s VERDICT"
n=$(ls "$TMPD/results" | grep -c '^ttcp-.*\.json$')
[ "$n" -eq 3 ] && python3 -c '
import json, sys, glob
for f in glob.glob(sys.argv[1] + "/*.json"):
    json.load(open(f))' "$TMPD/results"
tap $? "--json-dir: one whole results file per test ($n)"

# ---- a port scan ----
peer scan "$PORT" 20
wait_for_count() {  # N PATTERN FILE
	_i=0
	while [ $_i -lt 200 ]; do
		[ "$(count "$2" "$3")" -ge "$1" ] && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
wait_for_count 20 " empty$" "$TMPD/main.out"
tap $? "port scan: 20 connect-and-close logged empty"
legit scan

# ---- a stranger joining a running test ----
client join-legit --time 2 &
JP=$!
PIDS="$PIDS $JP"
wait_fds $((BASE_FD + 2))
peer token "$PORT" >"$TMPD/token.out"
peer token "$PORT" 127.0.0.3 >"$TMPD/token3.out"
peer classic "$PORT" 5000000
wait "$JP"
grep -q "no test of this address has this token" "$TMPD/token.out" &&
	grep -q "no test of this address has this token" "$TMPD/token3.out"
tap $? "join: a DATA with a wrong token is refused with the reason"
sent=$(sed -n 's/^ttcp-t: \([0-9]*\) bytes in.*/\1/p' "$TMPD/join-legit.out")
got=$(sed -n 's/^ttcp-server: received \([0-9]*\) bytes.*/\1/p' "$TMPD/join-legit.out")
[ -n "$sent" ] && [ "$sent" = "$got" ] && grep -q " bb-tcp $sent bytes .* complete$" "$TMPD/main.out"
tap $? "join: the running test counts exactly what its client sent ($sent = $got)"
grep -q " tcp 5000000 bytes .* complete$" "$TMPD/main.out"
tap $? "join: the stranger's classic connection is a test of its own (5000000 bytes)"
[ "$(count 'refused: no test of this address has this token' "$TMPD/main.out")" -eq 2 ]
tap $? "join: both strangers logged as refused"

# ---- a slow sender and a silent one ----
peer slow "$PORT" >"$TMPD/slow.out" &
SLP=$!
peer silent "$PORT" >"$TMPD/silent.out" &
SIP=$!
PIDS="$PIDS $SLP $SIP"
legit slowloris
wait "$SLP" "$SIP"
grep -q "dropped after" "$TMPD/slow.out" &&
	grep -q "below the minimum rate" "$TMPD/main.out"
tap $? "slowloris: 1 byte per 0.5 s dropped after the 2 s window ($(cat "$TMPD/slow.out"))"
grep -q "dropped after\|held" "$TMPD/silent.out" &&
	grep -q "empty: nothing within 2 s" "$TMPD/main.out"
tap $? "a silent connection is closed after --handshake-timeout and logged empty"

# ---- a garbage handshake ----
peer garbage "$PORT" >"$TMPD/garbage.out"
grep -q "protocol version 255 not supported" "$TMPD/garbage.out" &&
	grep -q "refused: protocol version 255 not supported" "$TMPD/main.out"
tap $? "garbage handshake: REFUSE with the reason, logged refused"
legit garbage

# ---- 500 connection attempts, 100 held at once ----
before=$(wc -l <"$TMPD/main.out")
peer many "$PORT" 500 100
wait_for_count $((before + 500)) "" "$TMPD/main.out"
tap $? "500 connection attempts: each logged (empty or refused)"
! grep -q "refused: too many connections open" "$TMPD/main.out"
tap $? "100 held at once: those above --max-conns wait in the backlog while a silent one can go, none refused"
legit many

# ---- random control messages ----
before=$(wc -l <"$TMPD/main.out")
peer fuzz "$PORT" 200 $$
wait_for_count $((before + 200)) "" "$TMPD/main.out"
tap $? "200 random control messages: each refused or logged, the server alive"
legit fuzz

# ---- a killed client ----
timeout 60 "$BB" ttcp --to-server 127.0.0.1 -p "$PORT" --time 20 >"$TMPD/killed.out" 2>&1 &
KP=$!
PIDS="$PIDS $KP"
wait_fds $((BASE_FD + 2))
KCHILD=$(cat "/proc/$KP/task/$KP/children" 2>/dev/null | awk '{print $1}')
kill -9 "${KCHILD:-$KP}" 2>/dev/null
wait "$KP" 2>/dev/null
wait_for "bb-tcp .* incomplete: the client.* control connection" "$TMPD/main.out" 15
tap $? "a killed client: its test logged incomplete"
legit killed

# ---- the server still serves; descriptors and memory back to baseline ----
legit after
i=0
while [ "$(fds "$SPID")" -gt "$BASE_FD" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ "$(fds "$SPID")" -le "$BASE_FD" ]
tap $? "descriptors back to the baseline ($(fds "$SPID") <= $BASE_FD)"
RSS=$(rss_kib "$SPID")
[ "$RSS" -le $((BASE_RSS + 8192)) ]
tap $? "RSS back near the baseline (${RSS} KiB, baseline ${BASE_RSS} KiB, 8 MiB allowed)"

# ---- SIGTERM mid-test ----
client term-bb --time 30 &
T1=$!
timeout 60 "$BB" ttcp -t -s --time 30 -p "$PORT" 127.0.0.1 >"$TMPD/term-classic.out" 2>&1 &
T2=$!
PIDS="$PIDS $T1 $T2"
wait_threads 3                   # the main thread and both tests' streams
nfiles=$(ls "$TMPD/results" | wc -l)
kill -TERM "$SPID"
wait "$TPID"
rc=$?
[ "$rc" -eq 0 ]
tap $? "SIGTERM: the server exits 0 ($rc)"
if [ "$(count 'incomplete: .*interrupted' "$TMPD/main.out")" -ge 2 ]; then
	tap 0 "SIGTERM: both running tests logged incomplete (interrupted)"
else
	tap 1 "SIGTERM: both running tests logged incomplete (interrupted)"
	tail -4 "$TMPD/main.out" "$TMPD/main.err" | sed 's/^/#   /'
fi
[ "$(ls "$TMPD/results" | wc -l)" -ge $((nfiles + 2)) ] && ! ls "$TMPD/results" | grep -q -v '\.json$'
tap $? "SIGTERM: their results files written whole, no temporary left"
wait "$T1" "$T2" 2>/dev/null

# ---- --max-tests ----
next_port
server busy --max-tests 1
timeout 60 "$BB" ttcp --to-server 127.0.0.1 -p "$PORT" --time 3 >"$TMPD/busy1.out" 2>&1 &
B1=$!
PIDS="$PIDS $B1"
wait_threads 2
client busy2 -n 10
peer classic "$PORT" 1000
[ "$RC" -ne 0 ] && grep -q "the server refused: busy" "$TMPD/busy2.err"
tap $? "--max-tests 1: a second boardbench client gets a REFUSE saying busy"
if wait_for_count 2 "refused: busy" "$TMPD/busy.out"; then
	tap 0 "--max-tests 1: it and a classic client logged refused"
else
	tap 1 "--max-tests 1: it and a classic client logged refused"
	sed 's/^/#   /' "$TMPD/busy.out"
fi
wait "$B1"
tap $? "--max-tests 1: the running test completes"
kill "$SPID"

# ---- --allow ----
next_port
server allow --allow 10.0.0.0/8,fd00::/8
client allow-out -n 10
[ "$RC" -ne 0 ] && grep -q "refused: address not allowed (--allow)" "$TMPD/allow.out"
tap $? "--allow: a client outside the prefixes is refused and logged"
kill "$SPID"
next_port
server allow2 --allow 127.0.0.0/8,::1
client allow-in -n 10
[ "$RC" -eq 0 ]
tap $? "--allow: a client inside them is served"
kill "$SPID"

# ---- --key ----
next_port
printf 'our secret\n' >"$TMPD/key"
printf 'not it\n' >"$TMPD/badkey"
server keyed --key "$TMPD/key"
client nokey -n 10
grep -q "asks for its key" "$TMPD/nokey.err"
tap $? "--key: a client without a key is told to give one"
client badkey -n 10 --key "$TMPD/badkey"
[ "$RC" -ne 0 ] && grep -q "refused: authentication failed" "$TMPD/badkey.err" &&
	grep -q "refused: authentication failed" "$TMPD/keyed.out"
tap $? "--key: a wrong key is refused, with the reason at both ends"
client goodkey -n 10 --key "$TMPD/key"
[ "$RC" -eq 0 ]
tap $? "--key: the right key is served"
peer classic "$PORT" 1000
wait_for "refused: a client without the handshake" "$TMPD/keyed.out" 10
tap $? "--key: a classic client is refused and logged"
kill "$SPID"

# ---- 30 clients with ulimit -n 16 ----
next_port
( ulimit -n 16 && exec timeout 600 "$BB" ttcp -r --server -p "$PORT" --max-tests 64 \
	--handshake-timeout 3 ) >"$TMPD/lim.out" 2>"$TMPD/lim.err" &
TPID=$!
PIDS="$PIDS $TPID"
wait_for "serving on port" "$TMPD/lim.err" 20
SPID=$(cat "/proc/$TPID/task/$TPID/children" 2>/dev/null | awk '{print $1}')
PIDS="$SPID $PIDS"
cpu0=$(cpu_ticks "$SPID")
t0=$(awk '{print $1}' /proc/uptime)
CL=""
for i in $(seq 1 15); do
	timeout 60 "$BB" ttcp --to-server 127.0.0.1 -p "$PORT" --streams 2 -n 100 \
		>"$TMPD/lim-bb$i.out" 2>&1 &
	CL="$CL $!"
	timeout 60 "$BB" ttcp -t -s -n 10 -l 1000 -p "$PORT" 127.0.0.1 >"$TMPD/lim-cl$i.out" 2>&1 &
	CL="$CL $!"
done
PIDS="$PIDS $CL"
wait $CL
wait_for_count 30 "" "$TMPD/lim.out"
tap $? "ulimit -n 16, 30 clients: every test logged ($(wc -l <"$TMPD/lim.out") lines)"
cpu1=$(cpu_ticks "$SPID")
t1=$(awk '{print $1}' /proc/uptime)
hz=$(getconf CLK_TCK)
busy=$(awk -v c=$((cpu1 - cpu0)) -v hz="$hz" -v a="$t0" -v b="$t1" \
	'BEGIN { printf "%d", 100 * c / hz / (b - a) }')
[ "$busy" -lt 50 ]
tap $? "ulimit -n 16: no busy loop (server CPU ${busy}% of the elapsed time)"
bad=$(grep ' complete$' "$TMPD/lim.out" | grep -v -c ' bb-tcp 1638400 bytes \| tcp 10000 bytes ')
[ "$bad" -eq 0 ]
tap $? "ulimit -n 16: no test says complete with bytes missing"
grep -q "EMFILE\|Too many open files\|RLIMIT_NOFILE 16" "$TMPD/lim.out" "$TMPD/lim.err"
tap $? "ulimit -n 16: the lack of descriptors is reported"
okc=0
for i in $(seq 1 15); do
	if grep -q "^ttcp-server: received 1638400 bytes" "$TMPD/lim-bb$i.out" &&
	    grep -q "server process .* complete$" "$TMPD/lim-bb$i.out"; then
		okc=$((okc + 1))
	fi
done
echo "# ulimit -n 16: $okc of 15 boardbench clients complete at both ends"
client lim-after -n 10
[ "$RC" -eq 0 ]
tap $? "ulimit -n 16: the server still serves afterwards"
kill "$SPID"
