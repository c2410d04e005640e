#!/bin/sh
# tests/integration/test_ttcp_server_udp.sh - UDP tests through
# `ttcp -r --server` with `ttcp --to-server 127.0.0.1 -u`, over loopback
# only: forward, -R and --bidir with exact accounting (the datagrams one
# end sent = those the other received + those it counts lost, bytes =
# datagrams x -l), both ends' results files; strangers' datagrams sent
# into the server's UDP port during a test (another port, another
# address, forged headers, end sentinels and tallies, empty ones) counted
# as refused and never as the test's; a client written from the
# specification alone (docs/protocol.md), honest, lying about its count,
# or without its tally: the last two incomplete, never complete; a killed
# client, whose test the server stops at once; the bounds a server keeps
# on what it sends (--max-udp-rate, a rate below --min-rate, no rate at
# all); and the server still serving afterwards.  Raw senders are python3.
. tests/integration/lib.sh
. tests/integration/net_lib.sh

if ! command -v python3 >/dev/null 2>&1 || ! command -v jq >/dev/null 2>&1; then
	echo "ok - ttcp server UDP tests # SKIP no python3 or jq"
	exit 0
fi

cat >"$TMPD/stranger.py" <<'EOF'
# stranger.py PORT N: N datagrams of each kind into 127.0.0.1:PORT from
# sockets that are not the test's; prints how many were sent.
import socket, struct, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
sent = 0
def send(src, payload):
    global sent
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((src, 0))
    s.sendto(payload, ("127.0.0.1", port))
    s.close()
    sent += 1
for i in range(n):
    hdr = b"bbU1" + struct.pack(">HHQQ", 0, 1, i, time.monotonic_ns())
    send("127.0.0.1", hdr + b"x" * 976)                  # the test's stream 0, forged
    send("127.0.0.1", b"junk without a header " * 10)    # plain data
    send("127.0.0.2", hdr + b"y" * 976)                  # another address
    send("127.0.0.1", b"bbE\x00")                        # stream 0's end sentinel
    send("127.0.0.1", b"bbT1" + struct.pack(">HHQQ", 0, 1, 1, 1000))   # a tally
    send("127.0.0.1", b"")                               # empty
    time.sleep(0.01)
print(sent)
EOF

cat >"$TMPD/rawclient.py" <<'EOF'
# rawclient.py PORT MODE: a UDP test written from docs/protocol.md and
# src/net/udphdr.h alone: 10 datagrams of 100 bytes to the server, then a
# RESULT saying 10 were sent (honest), 12 (lie), or no tally (notally);
# dup: datagram 3 twice (as a network may duplicate it), 10 sent; tallylie:
# a tally of 5 (the RESULT says 10).
# Prints the status of the server's RESULT (0 complete, 1 incomplete).
import socket, struct, sys, time, os
port, mode = int(sys.argv[1]), sys.argv[2]
def msg(t, fields):
    p = b"".join(bytes([tag, len(v)]) + v for tag, v in fields)
    return b"BBcp\x03" + bytes([t]) + len(p).to_bytes(2, "big") + p
def recv_msg(s):
    h = b""
    while len(h) < 8:
        h += s.recv(8 - len(h))
    n, body = int.from_bytes(h[6:8], "big"), b""
    while len(body) < n:
        body += s.recv(n - len(body))
    f, i = {}, 0
    while i < n:
        f[body[i]] = body[i + 2:i + 2 + body[i + 1]]
        i += 2 + body[i + 1]
    return h[5], f
ctl = socket.create_connection(("127.0.0.1", port), 10)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.bind(("127.0.0.1", 0))
ctl.sendall(msg(1, [(1, os.urandom(16))]))
recv_msg(ctl)
ctl.sendall(msg(4, [(6, b"\x00"), (7, b"\x01"), (10, b"\x01"), (11, (100).to_bytes(4, "big")),
                    (9, (1000).to_bytes(8, "big")), (28, u.getsockname()[1].to_bytes(2, "big"))]))
t, f = recv_msg(ctl)
if t != 5:
    print("refused", f.get(14))
    sys.exit(1)
u.connect(("127.0.0.1", int.from_bytes(f[27], "big")))
u.send(b"bbS\x00")
for i in range(10):
    u.send(b"bbU1" + struct.pack(">HHQQ", 0, 1, i, time.monotonic_ns()) + b"z" * 76)
    if mode == "dup" and i == 3:
        u.send(b"bbU1" + struct.pack(">HHQQ", 0, 1, i, time.monotonic_ns()) + b"z" * 76)
    time.sleep(0.002)
for _ in range(2):
    u.send(b"bbE\x00")
if mode != "notally":
    u.send(b"bbT1" + struct.pack(">HHQQ", 0, 1, 5 if mode == "tallylie" else 10, 1000))
sent = 12 if mode == "lie" else 10
ctl.sendall(msg(7, [(15, b"\x01"), (16, b"\x00"), (17, (sent * 100).to_bytes(8, "big")),
                    (18, (20000).to_bytes(8, "big")), (21, sent.to_bytes(8, "big"))]))
t, f = recv_msg(ctl)
print(f[16][0] if t == 7 else "no RESULT")
EOF

# server NAME ARGS...: a server in the background, its pid in SPID.
server() {
	srv_name=$1
	shift
	ttcp_server "$srv_name" 300 - "$@"
}

# client NAME ARGS...: a client of the current port; its status in RC.
client() {
	name=$1
	shift
	timeout 60 "$BB" ttcp --to-server 127.0.0.1 -p "$PORT" -u "$@" >"$TMPD/$name.out" \
		2>"$TMPD/$name.err"
	RC=$?
}

# wait_for_n N REGEX SECONDS: until N lines of the server's log match.
wait_for_n() {
	_i=0
	while [ $_i -lt $(($3 * 10)) ]; do
		[ "$(grep -c -- "$2" "$TMPD/main.out")" -ge "$1" ] && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# udp_port_of PID: the port of a UDP socket of process PID, once it has
# one (at most 5 s); empty if none came.
udp_port_of() {
	_p=""
	_i=0
	while [ -z "$_p" ] && [ $_i -lt 100 ]; do
		_p=$(ss -Hunap 2>/dev/null | grep "pid=$1," | awk '{print $4}' |
			sed -n 's/.*:\([0-9]*\)$/\1/p' | head -1)
		[ -n "$_p" ] || sleep 0.05
		_i=$((_i + 1))
	done
	echo "$_p"
}

show() {
	sed 's/^/#   /' "$@" | tail -14
}

# field NAME SED-EXPR: the number sed -n EXPR prints from NAME's output.
field() {
	sed -n "$2" "$TMPD/$1.out" | head -1
}

# account NAME WHO-SENT WHO-GOT LEN: the datagrams the sending end says it
# sent are those the receiving end received plus those it counts lost, and
# the receiving end's bytes are its datagrams x LEN.  WHO-*: "client" or
# "server" (the server's figures are its lines in the client's output).
account() {
	if [ "$2" = client ]; then
		sent=$(field "$1" 's/^ttcp-t: udp: sent \([0-9]*\) datagrams.*/\1/p')
		got=$(field "$1" 's/^ttcp-server: udp: \([0-9]*\) datagrams, .*/\1/p')
		lost=$(field "$1" 's/^ttcp-server: udp: [0-9]* datagrams, \([0-9]*\) lost.*/\1/p')
		bytes=$(field "$1" 's/^ttcp-server: received \([0-9]*\) bytes.*/\1/p')
	else
		sent=$(field "$1" 's/^ttcp-server: udp: sent \([0-9]*\) datagrams.*/\1/p')
		got=$(field "$1" 's/^ttcp-r: udp: \([0-9]*\) datagrams, .*/\1/p')
		lost=$(field "$1" 's/^ttcp-r: udp: [0-9]* datagrams, \([0-9]*\) lost.*/\1/p')
		bytes=$(field "$1" 's/^ttcp-r: \([0-9]*\) bytes in.*/\1/p')
	fi
	[ -n "$sent" ] && [ -n "$got" ] && [ -n "$lost" ] && [ -n "$bytes" ] &&
		[ "$sent" -gt 0 ] && [ $((got + lost)) -eq "$sent" ] && [ "$bytes" -eq $((got * $4)) ]
}

mkdir "$TMPD/results"
server main --json-dir "$TMPD/results" --handshake-timeout 2 --rate-window 2 --idle-timeout 5 \
	--max-udp-rate 60M
[ -d "/proc/$SPID" ]
tap $? "the server starts and serves (pid $SPID)"

# ---- forward, reverse, both ----
client fwd -n 500 -l 1000 --rate 20M --json "$TMPD/fwd.json"
if [ "$RC" -eq 0 ] && account fwd client server 1000 && [ "$sent" -eq 500 ]; then
	tap 0 "forward: 500 datagrams sent = $got received + $lost lost at the server, $bytes bytes"
else
	tap 1 "forward: 500 datagrams sent = received + lost at the server (rc $RC)"
	show "$TMPD/fwd.out" "$TMPD/fwd.err"
fi
grep -q "^ttcp-server: cpu: server process .* complete$" "$TMPD/fwd.out"
tap $? "forward: the server's end says complete"
wait_for " bb-udp [0-9]* bytes .* complete$" "$TMPD/main.out" 10
tap $? "forward: the server's log line (mode bb-udp, complete)"

client rev -R -n 400 -l 1200 --rate 20M --json "$TMPD/rev.json"
if [ "$RC" -eq 0 ] && account rev server client 1200 && [ "$sent" -eq 400 ]; then
	tap 0 "-R: the server's 400 datagrams = $got received + $lost lost here, $bytes bytes"
else
	tap 1 "-R: the server's 400 datagrams = received + lost here (rc $RC)"
	show "$TMPD/rev.out" "$TMPD/rev.err"
fi
grep -q "^ttcp-r: udp: .*jitter [0-9.]* ms (RFC 3550)" "$TMPD/rev.out"
tap $? "-R: this end reports loss, reordering and jitter"

client bidir --bidir --streams 2 --time 1 -l 1400 --rate 10M --json "$TMPD/bidir.json"
ok=$RC
account bidir client server 1400 || ok=1
up="$sent = $got + $lost"
account bidir server client 1400 || ok=1
if [ "$ok" -eq 0 ]; then
	tap 0 "--bidir, 2 streams each way: sent = received + lost both ways ($up; $sent = $got + $lost)"
else
	tap 1 "--bidir: sent = received + lost both ways (rc $RC)"
	show "$TMPD/bidir.out" "$TMPD/bidir.err"
fi
wait_for " bb-udp-bidir .* complete$" "$TMPD/main.out" 10
tap $? "--bidir: logged bb-udp-bidir, complete"

# ---- both ends' results ----
jqt "$TMPD/fwd.json" '[.results[] | .params.server_udp_datagrams + .params.server_udp_lost
	== .params.udp_datagrams_sent and .params.udp_datagrams_sent == 500] | all' \
	"client JSON: the server's received + lost = the datagrams sent"
jqt "$TMPD/rev.json" '[.results[].series[] | select(.name == "transfer" and .variant == "total")
	| .values.udp_datagrams + .values.udp_lost] == [400]' \
	"client JSON (-R): this end's received + lost = 400"
jqt "$TMPD/bidir.json" '(.results | length) == 2' "client JSON (--bidir): a result per direction"
n=$(find "$TMPD/results" -name 'ttcp-*.json' | wc -l)
[ "$n" -eq 3 ]
tap $? "--json-dir: one results file per test ($n)"
jq -e -s 'map(.results[].series[] | select(.name == "transfer" and .variant == "total"
	and .values.udp_datagrams != null) | .values.udp_datagrams + .values.udp_lost)
	| contains([500])' "$TMPD/results"/*.json >/dev/null 2>&1
tap $? "server JSON: its receiving end's received + lost = 500 (forward)"

# ---- strangers' datagrams into the server's UDP port during a test ----
timeout 60 "$BB" ttcp --to-server 127.0.0.1 -p "$PORT" -u --time 3 -l 1000 --rate 8M \
	>"$TMPD/spoof.out" 2>"$TMPD/spoof.err" &
CP=$!
PIDS="$PIDS $CP"
uport=$(udp_port_of "$SPID")
drops0=$(kernel_drops)
nsent=$(timeout 30 python3 "$TMPD/stranger.py" "${uport:-9}" 20)
drops1=$(kernel_drops)
wait "$CP"
RC=$?
[ -n "$uport" ]
tap $? "the server's UDP port during the test is found ($uport)"
refused_f=$(field spoof 's/^ttcp-server: udp: .* refused \([0-9]*\) foreign.*/\1/p')
refused_m=$(field spoof 's/^ttcp-server: udp: .* foreign and \([0-9]*\) malformed.*/\1/p')
if [ "$RC" -eq 0 ] && account spoof client server 1000; then
	tap 0 "strangers: the test's own figures stay exact ($sent = $got + $lost, $bytes bytes), complete"
else
	tap 1 "strangers: the test's own figures stay exact (rc $RC)"
	show "$TMPD/spoof.out" "$TMPD/spoof.err"
fi
if [ "$drops0" = "$drops1" ]; then
	[ -n "$refused_f" ] && [ $((refused_f + refused_m)) -eq "$nsent" ] && [ "$refused_m" -eq 20 ]
	tap $? "strangers: all $nsent datagrams refused ($refused_f foreign, $refused_m empty)"
else
	[ -n "$refused_f" ] && [ "$refused_f" -gt 0 ] && [ $((refused_f + refused_m)) -le "$nsent" ]
	tap $? "strangers: refused, not counted ($refused_f foreign, $refused_m empty of $nsent; the kernel dropped some)"
fi

# ---- a client written from the specification; figures that disagree ----
st=$(timeout 30 python3 "$TMPD/rawclient.py" "$PORT" honest 2>&1)
[ "$st" = 0 ] && wait_for_n 1 ' bb-udp 1000 bytes .* complete$' 10
tap $? "a client from the specification alone: 10 datagrams, complete at the server ($st)"
st=$(timeout 30 python3 "$TMPD/rawclient.py" "$PORT" lie 2>&1)
[ "$st" = 1 ] && wait_for_n 1 'incomplete: the sender sent 12 datagrams; 10 came and 0 were lost here' 10
tap $? "the sender's count disagrees with received + lost: incomplete, not complete ($st)"
st=$(timeout 30 python3 "$TMPD/rawclient.py" "$PORT" notally 2>&1)
[ "$st" = 1 ] && wait_for_n 1 "incomplete: stream 0's tally of datagrams sent never came" 10
tap $? "a stream's tally missing (a lost tail would go unseen): incomplete ($st)"
st=$(timeout 30 python3 "$TMPD/rawclient.py" "$PORT" tallylie 2>&1)
[ "$st" = 1 ] && wait_for_n 1 "incomplete: stream 0: its tally says 5 datagrams were sent, but sequence numbers up to 9 arrived" 10
tap $? "a tally below what arrived: incomplete, and the log says why ($st)"
st=$(timeout 30 python3 "$TMPD/rawclient.py" "$PORT" dup 2>&1)
[ "$st" = 0 ] && wait_for_n 2 ' bb-udp 1[01]00 bytes .* complete$' 10
tap $? "a duplicated datagram: counted apart, the test complete ($st)"
jq -e -s 'map(.results[].series[] | select(.name == "transfer" and .variant == "total"
	and .values.udp_duplicates == 1) | .values | [.udp_datagrams, .udp_lost, .udp_out_of_order])
	== [[11, 0, 0]]' "$TMPD/results"/*.json >/dev/null 2>&1
tap $? "server JSON: 11 datagrams of which 1 duplicate, none lost or out of order"

# ---- strangers' datagrams into the client's UDP port during a -R test ----
"$BB" ttcp --to-server 127.0.0.1 -p "$PORT" -u -R --time 3 -l 1000 --rate 8M \
	--idle-timeout 10 >"$TMPD/cspoof.out" 2>"$TMPD/cspoof.err" &
CP=$!
PIDS="$PIDS $CP"
cport=$(udp_port_of "$CP")
nsent=$(timeout 30 python3 "$TMPD/stranger.py" "${cport:-9}" 10)
wait "$CP"
RC=$?
cf=$(field cspoof 's/^ttcp-r: udp: .* refused \([0-9]*\) foreign.*/\1/p')
cm=$(field cspoof 's/^ttcp-r: udp: .* foreign and \([0-9]*\) malformed.*/\1/p')
[ "$RC" -eq 0 ] && [ -n "$cport" ] && [ -n "$cf" ] && [ "$cf" -gt 0 ] && [ "$cm" -gt 0 ] &&
	[ $((cf + cm)) -le "$nsent" ]
tap $? "-R: the client's ttcp-r: udp: line names what it refused ($cf foreign, $cm malformed of $nsent)"
grep -q '^ttcp-server: udp: sent [0-9]* datagrams' "$TMPD/cspoof.out"
tap $? "-R: ... beside the server's line"

# ---- a killed client: the server stops sending to it ----
"$BB" ttcp --to-server 127.0.0.1 -p "$PORT" -u -R --time 20 -l 1000 --rate 8M \
	>"$TMPD/killed.out" 2>&1 &
KP=$!
PIDS="$PIDS $KP"
sleep 1
kill -9 "$KP"
wait "$KP" 2>/dev/null
if wait_for_n 1 ' bb-udp-reverse .* incomplete: the client closed the control' 5; then
	kb=$(grep ' bb-udp-reverse .* incomplete' "$TMPD/main.out" | tail -1 | awk '{print $4}')
	[ "$kb" -lt 10000000 ]
	tap $? "a killed client: the server stopped sending within 5 s ($kb bytes; 20 s is 20000000)"
else
	tap 1 "a killed client: the server stopped sending within 5 s"
	show "$TMPD/main.out"
fi

# ---- the bounds on what the server sends ----
client fast -R --rate 100M -n 10
[ "$RC" -ne 0 ] && grep -q "above this server's 60000000 bit/s (--max-udp-rate)" "$TMPD/fast.err"
tap $? "--max-udp-rate: a faster -R is refused with the reason"
client slow -R --rate 1k -n 10
[ "$RC" -ne 0 ] && grep -q "below this server's minimum rate" "$TMPD/slow.err"
tap $? "a rate below --min-rate is refused with the reason"
client norate -R -n 10
[ "$RC" -eq 2 ] && grep -q "needs --rate" "$TMPD/norate.err"
tap $? "-u -R without --rate: a usage error"
client short -l 20 -n 10
[ "$RC" -eq 2 ] && grep -q "24..65507" "$TMPD/short.err"
tap $? "-u -l 20: a usage error (the sequence header takes 24 bytes)"
timeout 20 "$BB" ttcp --to-server 127.0.0.1 -p "$PORT" --rate 10M -n 10 >/dev/null 2>"$TMPD/tcprate.err"
[ $? -eq 2 ] && grep -q "give -u too" "$TMPD/tcprate.err"
tap $? "--rate without -u: a usage error"

# ---- still serving: UDP and TCP ----
client after -n 200 -l 1000 --rate 20M
[ "$RC" -eq 0 ] && account after client server 1000
tap $? "the server still serves UDP afterwards ($sent = $got + $lost)"
timeout 60 "$BB" ttcp --to-server 127.0.0.1 -p "$PORT" -n 100 >"$TMPD/tcp.out" 2>&1 &&
	grep -q "^ttcp-server: received 819200 bytes" "$TMPD/tcp.out"
tap $? "... and TCP"
[ "$(grep -c ' bb-udp' "$TMPD/main.out")" -ge 6 ] &&
	! grep ' bb-udp.* incomplete' "$TMPD/main.out" |
	grep -q -v 'the client closed the control\|12 datagrams\|tally of datagrams sent never\|its tally says 5'
tap $? "no UDP test logged incomplete but the killed client's and the three above"
kill -TERM "$SPID"
wait "$TPID"
tap $? "SIGTERM: the server exits 0"
