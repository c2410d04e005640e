#!/bin/sh
# tests/integration/test_ttcp_server_flood.sh - `ttcp -r --server` when
# descriptors run out.  Under `ulimit -n 32` a python3 flood keeps 200
# silent connections open against the server for 25 s, opening a new one
# as soon as the server closes one; meanwhile legitimate tests (TCP, two
# streams, UDP, a classic ttcp) must complete, because the oldest silent
# connection makes room when the descriptors run out, as at --max-conns
# (the log names why it went).  Then a test that moved 100 bytes and
# stalled gives its place to a new one (--max-tests 1): its log line shows
# the 100 bytes over the time it held the place, not over one read.
# Loopback only; every process bounded by timeout, killed by its pid.
. tests/integration/lib.sh
. tests/integration/net_lib.sh

if ! command -v python3 >/dev/null 2>&1; then
	tap 0 "# SKIP python3 not installed: the connect flood"
	exit 0
fi
PORT=$((PORT + 900))

cat >"$TMPD/flood.py" <<'EOF'
# flood.py PORT SECONDS N: N silent connections kept open; each one the
# server closes is opened again at once.  Prints how many were opened.
import selectors, socket, sys, time
port, until, n = int(sys.argv[1]), time.time() + float(sys.argv[2]), int(sys.argv[3])
sel, opened = selectors.DefaultSelector(), 0
def one():
    global opened
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setblocking(False)
    s.connect_ex(("127.0.0.1", port))
    sel.register(s, selectors.EVENT_READ)
    opened += 1
for _ in range(n):
    one()
while time.time() < until:
    for key, _ in sel.select(0.2):
        s = key.fileobj
        try:
            gone = s.recv(64) == b""
        except OSError:
            gone = True
        if gone:
            sel.unregister(s)
            s.close()
            one()
print(opened)
EOF

# server NAME ARGS...: the server under ulimit -n 32, its pid in SPID.
server() {
	srv_name=$1
	shift
	ttcp_server "$srv_name" 120 32 "$@"
}

# legit NAME ARGS...: a test against the server, bounded; its status in RC.
legit() {
	name=$1
	shift
	timeout 40 "$BB" ttcp "$@" >"$TMPD/$name.out" 2>"$TMPD/$name.err"
	RC=$?
}

server main --handshake-timeout 5
grep -q "RLIMIT_NOFILE 32 leaves room for [0-9]* of --max-conns 64$" "$TMPD/main.err"
tap $? "ulimit -n 32: the server says how many connections the limit leaves"
timeout 60 python3 "$TMPD/flood.py" "$PORT" 25 200 >"$TMPD/flood.n" 2>&1 &
FP=$!
PIDS="$PIDS $FP"
# the flood is on once 50 of its connections are established (accepted or
# waiting in the backlog); the server holds at most what its limit leaves
i=0
while [ "$(ss -Htn state established "dport = :$PORT" 2>/dev/null | wc -l)" -lt 50 ] &&
	[ $i -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ $i -lt 200 ]
tap $? "the flood is on: 50 of its connections established"

legit tcp --to-server 127.0.0.1 -p "$PORT" -n 400
[ "$RC" -eq 0 ] && grep -q "^ttcp-server: received 3276800 bytes" "$TMPD/tcp.out"
tap $? "during the flood: a TCP test completes, every byte counted (rc $RC)"
legit two --to-server 127.0.0.1 -p "$PORT" --streams 2 -n 200
[ "$RC" -eq 0 ] && grep -q "^ttcp-server: received 3276800 bytes" "$TMPD/two.out"
tap $? "during the flood: a two-stream test completes (rc $RC)"
legit udp --to-server 127.0.0.1 -p "$PORT" -u -n 200 -l 1000 --rate 10M
[ "$RC" -eq 0 ] && grep -q "^ttcp-server: cpu: .* complete$" "$TMPD/udp.out"
tap $? "during the flood: a UDP test completes (rc $RC)"
legit classic -t -s -n 100 -p "$PORT" 127.0.0.1
[ "$RC" -eq 0 ] && wait_for " tcp 819200 bytes .* complete$" "$TMPD/main.out" 10
tap $? "during the flood: a classic ttcp sender is served (rc $RC)"
kill -0 "$FP" 2>/dev/null
tap $? "... all while the flood still ran"
grep -q "closed for a newer connection" "$TMPD/main.out"
tap $? "the flood filled every place: the oldest silent connections made room"
wait "$FP"
opened=$(cat "$TMPD/flood.n")
n=$(grep -c "empty: closed for a newer connection (no file descriptor left (RLIMIT_NOFILE 32))" \
	"$TMPD/main.out")
[ "$n" -gt 0 ]
tap $? "the log names why each silent connection went ($n of $opened flood connections)"
! grep -q " incomplete" "$TMPD/main.out"
tap $? "no legitimate test was logged incomplete"
legit after --to-server 127.0.0.1 -p "$PORT" -n 10
[ "$RC" -eq 0 ]
tap $? "after the flood the server still serves"
kill "$SPID"
wait "$TPID" 2>/dev/null

# ---- a stalled test gives its place: its line shows what it moved ----
next_port
server slow --max-tests 1 --idle-timeout 30
timeout 30 python3 -c '
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), 10)
s.sendall(b"\x01" * 100)
time.sleep(20)' "$PORT" &
SL=$!
PIDS="$PIDS $SL"
sleep 2.5
legit place -t -s -n 100 -p "$PORT" 127.0.0.1
kill "$SL" 2>/dev/null
wait_for " tcp 100 bytes .* when a new test needed its place" "$TMPD/slow.out" 10
line=$(grep " tcp 100 bytes .* when a new test needed its place" "$TMPD/slow.out" | head -1)
secs=$(echo "$line" | awk '{ for (i = 1; i < NF; i++) if ($i == "bytes") print $(i + 1) }')
rate=$(echo "$line" | awk '{ for (i = 1; i < NF; i++) if ($i == "s") print $(i + 1) }')
awk -v s="${secs:-0}" -v r="${rate:-x}" 'BEGIN { exit !(s >= 2 && r == "0.00") }'
tap $? "the stalled test's line: 100 bytes over the $secs s it held the place, $rate Mbit/s"
[ "$RC" -eq 0 ] && wait_for " tcp 819200 bytes .* complete$" "$TMPD/slow.out" 10
tap $? "... and the new test took the place and completed"
kill "$SPID"
