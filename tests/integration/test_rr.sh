#!/bin/sh
# tests/integration/test_rr.sh - the `rr` applet end to end on loopback:
# TCP and UDP against --loopback and against `rr -s` in another process,
# the JSON (jq): percentiles in order, transaction counts that agree with
# each other and with the duration (never a speed); K in flight; the
# faults: a server that dies mid-test (a python3 peer that serves some
# transactions, then closes) gives exit 1 and a partial result marked
# incomplete; a UDP server that drops every other request (python3) gives
# as many lost as answered; a refused connection; a server with no client
# ends at its accept timeout; a peer that is no rr server; bad options
# (exit 2, one line); and compare and report over two quick-suite runs.
# Every background process is started here, waited for with a bound and
# killed by its pid on exit.
. tests/integration/lib.sh
. tests/integration/net_lib.sh

if ! command -v jq >/dev/null 2>&1; then
	echo "ok 1 - # SKIP jq not installed"
	exit 0
fi

# jq_true FILE FILTER DESCRIPTION: the filter yields true.
jq_true() {
	if [ "$(jq -r "$2" "$1" 2>/dev/null)" = true ]; then
		tap 0 "$3"
	else
		tap 1 "$3 ($2 on $1: $(jq -c "$2" "$1" 2>&1 | head -c 300))"
	fi
}

# The latency series' figures in order and consistent with the samples.
LAT='.results[0].series[] | select(.name == "latency") | .values'
ORDERED="[$LAT | .min_s, .p50_s, .p90_s, .p99_s, .p99_9_s, .max_s] |
	(.[0] > 0) and (. == sort)"
check_figures() {  # FILE WHAT
	jq_true "$1" "$ORDERED" "$2: min <= p50 <= p90 <= p99 <= p99.9 <= max, all > 0"
	jq_true "$1" "[.results[0].series[] | select(.name == \"histogram_count\") | .samples |
		add] == [$LAT | .transactions]" "$2: the histogram counts every transaction"
	jq_true "$1" "[.results[0].series[] | select(.name == \"latency\") |
		(.samples | length) == .values.samples_kept and .values.samples_kept <=
		.values.transactions] == [true]" "$2: the samples kept are those counted"
	jq_true "$1" "[$LAT | (.transactions_per_s * .elapsed_s - .transactions) | fabs < 1] ==
		[true]" "$2: transactions/s x elapsed = transactions"
	jq_true "$1" "[.results[0].params.clock, ([$LAT | .client_overhead_s > 0] | .[0]),
		.results[0].params.overhead_subtracted] == [\"CLOCK_MONOTONIC\", true, false]" \
		"$2: the clock and the client's overhead (measured, not subtracted) are recorded"
}

# ---- TCP on --loopback, for a time ----
expect_exit 0 "tcp --loopback --time 1 exits 0" -- \
	"$BB" rr --loopback --time 1 --warmup 0.1 --json "$TMPD/t.json"
cp "$TMPD/out" "$TMPD/t.out"
expect_grep 'Trans\.' "$TMPD/t.out" "netperf's RR table header"
expect_grep '^rr-c: latency us: min .* p50 .* p90 .* p99 .* p99.9 .* max' "$TMPD/t.out" \
	"latency percentiles line"
expect_grep '^rr-c: client overhead' "$TMPD/t.out" "client overhead line"
jq_true "$TMPD/t.json" '.results[0] | .applet == "rr" and .status == "ok" and
	.params.protocol == "tcp" and .params.nodelay and .params.request_bytes == 1 and
	.params.response_bytes == 1 and .params.inflight == 1' "tcp: applet, status and settings"
check_figures "$TMPD/t.json" tcp
# Time mode ends with the first response after --time: elapsed is at least
# the time asked and at most one transaction (and some slack) beyond it.
jq_true "$TMPD/t.json" "[$LAT | .elapsed_s >= 1 and .elapsed_s <= 1 + .max_s + 0.5] ==
	[true]" "tcp: elapsed between --time and --time + the slowest transaction"
jq_true "$TMPD/t.json" "($LAT) as \$l | [.results[0].series[] |
	select(.name == \"interval_transactions\") | (.samples | add) <= \$l.transactions and
	(.samples | length) == (\$l.elapsed_s / 0.1 | floor) and .work == 0.1] == [true]" \
	"tcp: every whole 100 ms interval, their transactions within the total"
jq_true "$TMPD/t.json" "[$LAT | .server_transactions >= .transactions] == [true]" \
	"tcp: the loopback server served at least every transaction measured"

# ---- TCP against a server process, a count, K in flight ----
next_port
"$BB" rr -s -p "$PORT" --accept-timeout 30 --idle-timeout 10 --json "$TMPD/s.json" \
	>"$TMPD/s.out" 2>"$TMPD/s.err" &
SPID=$!
PIDS="$PIDS $SPID"
wait_for '^rr-s: serving TCP' "$TMPD/s.out" 20
expect_exit 0 "tcp client -n 3000 --inflight 4 against rr -s exits 0" -- \
	"$BB" rr -p "$PORT" -n 3000 --inflight 4 --warmup 0.05 -l 100 -L 1000 \
	--json "$TMPD/n.json" 127.0.0.1
wait "$SPID"
tap $? "the server exits 0 when its one client has ended"
jq_true "$TMPD/n.json" "[$LAT | .transactions == 3000 and .sent == 3000 and .lost == 0]
	== [true]" "-n 3000: exactly 3000 transactions measured"
jq_true "$TMPD/n.json" '.results[0].params.inflight == 4 and .results[0].params.request_bytes
	== 100 and .results[0].params.response_bytes == 1000' "-n: settings recorded"
check_figures "$TMPD/n.json" "tcp -n"
jq_true "$TMPD/s.json" "[.results[] | select(.applet == \"rr\") | .params |
	.role == \"server\" and .transactions >= 3000 and .request_bytes == 100 and
	.inflight == 4] == [true]" "the server's JSON: one session, every transaction served"
expect_grep '^rr-s: 127.0.0.1 port' "$TMPD/s.out" "the server's session line"

# ---- UDP on --loopback ----
expect_exit 0 "udp --loopback --time 1 --inflight 2 exits 0" -- \
	"$BB" rr --loopback -u --time 1 --warmup 0.1 --inflight 2 -l 64 -L 1K \
	--json "$TMPD/u.json"
cp "$TMPD/out" "$TMPD/u.out"
expect_grep '^rr-c: UDP: .* lost' "$TMPD/u.out" "udp: the lost/late/foreign line"
jq_true "$TMPD/u.json" '.results[0] | .status == "ok" and .params.protocol == "udp" and
	.params.response_bytes == 1024 and .params.timeout_s > 0' "udp: status and settings"
check_figures "$TMPD/u.json" udp
jq_true "$TMPD/u.json" "[$LAT | .transactions + .lost <= .sent and
	.sent <= .transactions + .lost + 2 and .foreign == 0] == [true]" \
	"udp: answered + lost <= sent <= answered + lost + in flight"

# ---- faults ----
cat >"$TMPD/peer.py" <<'PYEOF'
# Misbehaving rr peers (the wire format of src/applets/rr/rr_proto.h), on a port of the
# kernel's choosing (printed: "listening PORT"; each peer its own file,
# so no earlier peer's line is read), so no other program's port can be
# taken for theirs:
#   tcpdie N: serves N transactions of a TCP client, then closes
#   udpdrop:  answers the even sequence numbers only
#   notrr:    a TCP server that answers the hello with garbage
import socket, struct, sys, time
mode = sys.argv[1]
def ack():
    return bytes([0xBB, ord('R'), ord('R'), ord('A')]) + struct.pack('>5I', 1, 0, 0, 0, 0)
def readn(c, n):
    b = b''
    while len(b) < n:
        x = c.recv(n - len(b))
        if not x:
            raise EOFError
        b += x
    return b
if mode in ('tcpdie', 'notrr', 'tcpmute'):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(('127.0.0.1', 0)); s.listen(1); s.settimeout(60)
    print('listening', s.getsockname()[1], flush=True)
    c, _ = s.accept(); c.settimeout(60)
    h = readn(c, 24)
    if mode == 'notrr':
        c.sendall(b'HTTP/1.0 400 Bad Request\r\n\r\n')
        c.close(); sys.exit(0)
    req, resp = struct.unpack('>II', h[12:20])
    c.sendall(ack())
    for i in range(int(sys.argv[2])):
        readn(c, req)
        c.sendall(b'\0' * resp)
    if mode == 'tcpmute':
        time.sleep(30)       # holds the connection, answers nothing
    c.close()
else:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(('127.0.0.1', 0)); s.settimeout(60)
    print('listening', s.getsockname()[1], flush=True)
    while True:
        d, a = s.recvfrom(70000)
        if d[0] == 0xBB:
            if d[3] == ord('H'):
                req, resp = struct.unpack('>II', d[12:20])
                s.sendto(ack(), a)
            elif d[3] == ord('E'):
                break
            continue
        seq = struct.unpack('>Q', d[:8])[0]
        if seq % 2 == 0:
            s.sendto(d[:8] + b'\0' * (resp - 8), a)
PYEOF

if command -v python3 >/dev/null 2>&1; then
	python3 "$TMPD/peer.py" tcpdie 500 >"$TMPD/tcpdie.out" 2>"$TMPD/tcpdie.err" &
	PPID_=$!
	PIDS="$PIDS $PPID_"
	wait_for listening "$TMPD/tcpdie.out" 20
	PORT=$(awk '{ print $2 }' "$TMPD/tcpdie.out")
	expect_exit 1 "a server that dies mid-test: exit 1" -- \
		"$BB" rr -p "$PORT" --time 30 --warmup 0 --json "$TMPD/d.json" 127.0.0.1
	expect_grep 'INCOMPLETE: connection lost' "$TMPD/out" "the text says INCOMPLETE and why"
	[ "$(wc -l <"$TMPD/err")" -eq 1 ]
	tap $? "one line on stderr"
	jq_true "$TMPD/d.json" "(.results[0] | .status == \"failed\" and .params.complete == false
		and (.message | startswith(\"INCOMPLETE\"))) and ([$LAT | .transactions > 0 and
		.transactions <= 500] == [true])" "the partial result is kept, marked incomplete"
	wait "$PPID_"

	# The TCP loops block with no socket timeout; a watchdog thread ends
	# them (rr_watch.h): a server that stops answering, after the idle
	# timeout; a SIGINT, at once.
	python3 "$TMPD/peer.py" tcpmute 50 >"$TMPD/mute.out" 2>"$TMPD/mute.err" &
	PPID_=$!
	PIDS="$PIDS $PPID_"
	wait_for listening "$TMPD/mute.out" 20
	PORT=$(awk '{ print $2 }' "$TMPD/mute.out")
	expect_exit 1 "a server that stops answering: exit 1 after the idle timeout" -- \
		timeout 30 "$BB" rr -p "$PORT" --time 60 --warmup 0 --idle-timeout 1 \
		--json "$TMPD/mute.json" 127.0.0.1
	jq_true "$TMPD/mute.json" '.results[0].message | test("stalled: no response for 1 s")' \
		"... stalled, the idle timeout named"
	kill "$PPID_" 2>/dev/null
	python3 "$TMPD/peer.py" tcpmute 50 >"$TMPD/mute2.out" 2>"$TMPD/mute2.err" &
	PPID_=$!
	PIDS="$PIDS $PPID_"
	wait_for listening "$TMPD/mute2.out" 20
	PORT=$(awk '{ print $2 }' "$TMPD/mute2.out")
	# (not under timeout(1), which passes SIGINT on to the whole group: a
	# second one would end the client at once; --time and --idle-timeout
	# bound it)
	"$BB" rr -p "$PORT" --time 60 --warmup 0 --idle-timeout 20 \
		--json "$TMPD/int.json" 127.0.0.1 >"$TMPD/int.out" 2>&1 &
	CPID=$!
	PIDS="$PIDS $CPID"
	wait_established "dport = :$PORT"
	sleep 0.5                        # blocked in recv: the 50 answers went long ago
	kill -INT "$CPID"
	wait "$CPID"
	rc=$?
	[ "$rc" -eq 1 ]
	tap $? "SIGINT while the client blocks in recv: it ends (exit $rc, not 124)"
	jq_true "$TMPD/int.json" '.results[0].status == "interrupted"' "... its result interrupted"
	kill "$PPID_" 2>/dev/null
	next_port
	"$BB" rr -s -p "$PORT" --accept-timeout 20 --idle-timeout 1 >"$TMPD/sidle.out" 2>&1 &
	SPID_=$!
	PIDS="$PIDS $SPID_"
	wait_for '^rr-s: serving' "$TMPD/sidle.out" 20
	timeout 20 python3 -c '
import socket, struct, sys, time
c = socket.create_connection(("127.0.0.1", int(sys.argv[1])), 10)
c.sendall(b"\xbbRRH" + struct.pack(">IIIII", 1, 0, 1, 1, 1))
c.recv(24)
time.sleep(5)' "$PORT" &
	QPID=$!
	PIDS="$PIDS $QPID"
	wait_for 'ended: no request within the idle timeout' "$TMPD/sidle.out" 10
	tap $? "a client silent after its hello: the server ends its session at the idle timeout"
	kill "$QPID" 2>/dev/null

	python3 "$TMPD/peer.py" udpdrop >"$TMPD/udpdrop.out" 2>"$TMPD/udpdrop.err" &
	PPID_=$!
	PIDS="$PIDS $PPID_"
	wait_for listening "$TMPD/udpdrop.out" 20
	PORT=$(awk '{ print $2 }' "$TMPD/udpdrop.out")
	# The odd sequence numbers are never answered: at least 10 of 20 lost.
	# An even one answered after its 0.1 s is counted lost too, then late
	# (a loaded machine may take that long): never a speed.
	expect_exit 0 "udp against a server that drops every other request: exit 0" -- \
		"$BB" rr -u -p "$PORT" -n 20 --warmup 0 --timeout 0.1 --json "$TMPD/l.json" \
		127.0.0.1
	jq_true "$TMPD/l.json" "[$LAT | .lost >= 10 and .transactions > 0 and
		.transactions + .lost == 20 and .late <= .lost - 10 and .foreign == 0] == [true]" \
		"every other transaction lost and counted (answered + lost = 20, lost >= 10)"
	check_figures "$TMPD/l.json" "udp with loss"
	wait "$PPID_"
	tap $? "the dropping peer saw the client's end datagram"

	python3 "$TMPD/peer.py" notrr >"$TMPD/notrr.out" 2>"$TMPD/notrr.err" &
	PPID_=$!
	PIDS="$PIDS $PPID_"
	wait_for listening "$TMPD/notrr.out" 20
	PORT=$(awk '{ print $2 }' "$TMPD/notrr.out")
	expect_exit 1 "a peer that is no rr server: exit 1" -- \
		"$BB" rr -p "$PORT" --time 1 127.0.0.1
	expect_grep 'not a boardbench rr server' "$TMPD/err" "... saying so ($(cat "$TMPD/err"))"
	wait "$PPID_"
else
	echo "ok - # SKIP python3 not installed: no misbehaving peers"
fi

# a server process killed mid-test (SIGKILL): the client ends, exit 1
next_port
"$BB" rr -s -p "$PORT" --accept-timeout 30 >"$TMPD/k.out" 2>&1 &
KPID=$!
PIDS="$PIDS $KPID"
wait_for '^rr-s: serving' "$TMPD/k.out" 20
"$BB" rr -p "$PORT" --time 60 --warmup 0 --json "$TMPD/k.json" 127.0.0.1 \
	>"$TMPD/kc.out" 2>"$TMPD/kc.err" &
CPID=$!
PIDS="$PIDS $CPID"
# the client is measuring once the server holds its connection
wait_established "sport = :$PORT"
kill -9 "$KPID"
wait "$CPID"
tap $([ $? -eq 1 ]; echo $?) "the server killed mid-test: the client exits 1"
jq_true "$TMPD/k.json" '.results[0].status == "failed" and .results[0].params.complete == false' \
	"... its result marked incomplete"

next_port
expect_exit 1 "nothing listening: exit 1" -- "$BB" rr -p "$PORT" --time 1 127.0.0.1
[ "$(wc -l <"$TMPD/err")" -eq 1 ]
tap $? "... with one line on stderr"
expect_exit 1 "udp, nothing listening: exit 1" -- \
	"$BB" rr -u -p "$PORT" --time 1 --connect-timeout 2 127.0.0.1
expect_exit 1 "a server with no client ends at its accept timeout: exit 1" -- \
	"$BB" rr -s -u -p "$PORT" --accept-timeout 0.5

# bad options: exit 2, one line
for args in "-l 0 h" "-u -l 4 h" "-u -L 70000 h" "--inflight 0 h" "--inflight 257 h" \
	"--time 0 h" "--time x h" "--pin x h" "--pin 0,1 h" "-s --loopback" "-s -n 5" \
	"--bogus h" "" "h extra" "-p 0 h" "--samples 0 h" "--inflight 256 -l 1M h"; do
	# shellcheck disable=SC2086
	"$BB" rr $args >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$TMPD/err")" -eq 1 ] && [ ! -s "$TMPD/out" ]
	tap $? "bad options '$args': exit 2 with one line (got $rc)"
done

# ---- the quick suite's figure in compare and report ----
mkdir -p "$TMPD/res"
for side in A B; do
	"$BB" run --only rr -o "$TMPD/res" --label "side=$side" >"$TMPD/run.out" 2>"$TMPD/run.err"
	tap $? "run --only rr (side $side) exits 0"
done
expect_grep '^rr  *loopback tcp 1/1 bytes: .* transactions/s, latency p50' "$TMPD/run.out" \
	"the quick suite's rr summary line"
expect_exit 0 "compare --by side over two rr runs" -- \
	"$BB" compare "$TMPD/res" --by side --base A
expect_grep 'rr.tcp.1x1.rate' "$TMPD/out" "compare shows rr.tcp.1x1.rate"
# (the summary names the headline when nothing is claimed; the table's note
# column always does, first, before what else it says of the row: which
# lines there are depends on the two runs)
grep -Eq 'headline rr\.tcp\.1x1\.rate|^  rr\.tcp\.1x1\.rate .* headline(;|$)' "$TMPD/out"
rc=$?
tap $rc "... as rr's headline: transactions per second"
[ $rc -eq 0 ] || grep 'rr\.tcp' "$TMPD/out" | sed 's/^/#   /'
"$BB" compare --all "$TMPD/res" --by side --base A >"$TMPD/out" 2>&1
grep -q '^  rr\.tcp\.1x1\.latency  ' "$TMPD/out" && grep -q '^  rr\.tcp\.1x1\.latency\.p99  ' "$TMPD/out"
tap $? "... and tests the median and 99th percentile latencies as metrics of their own"
expect_exit 0 "report over the rr runs" -- "$BB" report "$TMPD/res" -o "$TMPD/r.html"
expect_grep 'rr.tcp.1x1.rate' "$TMPD/r.html" "the report's headlines show rr's rate"
expect_grep 'rr: request/response latency per transaction' "$TMPD/r.html" \
	"the report charts rr's latency"
