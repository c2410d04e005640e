#!/bin/sh
# tests/integration/test_ttcp_server_iperf2.sh - iperf2's -r (tradeoff)
# and -d (dualtest) against `ttcp -r --server`, over loopback only:
#   - the real iperf client (-r, -d, -P 2 -d, -r -n): both directions
#     show in its CSV output (-y C) with bytes and rates above zero, and the
#     server logs one line per direction (tcp-iperf2-r, tcp-iperf2-r-back,
#     ...) whose bytes are exactly iperf's, as is its results file;
#   - a scripted client (python3) for what iperf would not do: the server
#     connects back to the client's own address only (a client bound to
#     127.0.0.2 gets it there, not at 127.0.0.1), never to a port below
#     1024, and for at most 600 s whatever the header asks (the results
#     file says so); a port where nothing listens, and --max-conns leaving
#     no room, make the sending direction incomplete with the reason while
#     the client's own direction stays complete.
# Every process is bounded by timeout and killed by its pid on exit.
. tests/integration/lib.sh
. tests/integration/net_lib.sh

if ! command -v iperf >/dev/null 2>&1 || ! iperf -v 2>&1 | grep -q 'version 2\.'; then
	echo "ok 1 # SKIP no iperf 2 (Debian's iperf package)"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1 || ! command -v jq >/dev/null 2>&1; then
	echo "ok 1 # SKIP no python3 or jq"
	exit 0
fi

# server NAME ARGS...: a server on PORT, output in $TMPD/NAME.out/.err.
server() {
	name=$1
	shift
	timeout 300 "$BB" ttcp -r --server -p "$PORT" "$@" >"$TMPD/$name.out" \
		2>"$TMPD/$name.err" &
	SPID=$!
	PIDS="$PIDS $SPID"
	wait_for "serving on port" "$TMPD/$name.err" 20
}
# newest: the results file written last.
newest() {
	find "$TMPD/results" -name '*.json' -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2-
}
# log_bytes MODE FILE: the bytes of the last log line of MODE that is complete.
log_bytes() {
	grep " $1 [0-9]* bytes .* complete$" "$2" | tail -1 | awk '{ print $4 }'
}

next_port
LPORT=$((PORT + 500))          # where iperf listens for the connect-back
mkdir "$TMPD/results"
server main --json-dir "$TMPD/results"

# ipf NAME ARGS...: iperf -c with CSV output; sets FWD and BACK, the bytes
# iperf counted each way (summed over its streams): lines to our port are
# what it sent, lines to its listening port what it received.
ipf() {
	name=$1
	shift
	timeout 60 iperf -c 127.0.0.1 -p "$PORT" -L "$LPORT" -y C "$@" >"$TMPD/$name.csv" \
		2>"$TMPD/$name.err"
	IRC=$?
	FWD=$(awk -F, -v p="$PORT" '$5 == p { s += $8; n++ } END { if (n) printf "%.0f\n", s }' "$TMPD/$name.csv")
	BACK=$(awk -F, -v p="$LPORT" '$5 == p { s += $8; n++ } END { if (n) printf "%.0f\n", s }' "$TMPD/$name.csv")
	FRATE=$(awk -F, -v p="$PORT" '$5 == p { s += $9 } END { print s + 0 }' "$TMPD/$name.csv")
	BRATE=$(awk -F, -v p="$LPORT" '$5 == p { s += $9 } END { print s + 0 }' "$TMPD/$name.csv")
}

# check NAME MODE IPERF_ARGS...: one iperf run, both directions, against the log and the file.
check() {
	name=$1
	mode=$2
	shift 2
	nfiles=$(find "$TMPD/results" -name '*.json' | wc -l)
	ipf "$name" "$@"
	if [ "$IRC" -eq 0 ] && [ "${FWD:-0}" -gt 0 ] && [ "${BACK:-0}" -gt 0 ] &&
	    awk -v a="$FRATE" -v b="$BRATE" 'BEGIN { exit !(a > 0 && b > 0) }'; then
		tap 0 "iperf -c $*: exits 0, both directions in its output ($FWD bytes sent, $BACK received)"
	else
		tap 1 "iperf -c $*: exits 0, both directions in its output (rc $IRC)"
		sed 's/^/#   /' "$TMPD/$name.csv" "$TMPD/$name.err" | tail -6
	fi
	wait_for " $mode-back .*bytes" "$TMPD/main.out" 10
	got=$(log_bytes "$mode" "$TMPD/main.out")
	back=$(log_bytes "$mode-back" "$TMPD/main.out")
	[ -n "$got" ] && [ "$got" = "$FWD" ] && [ -n "$back" ] && [ "$back" = "$BACK" ]
	tap $? "$name: the server logs $mode $got and $mode-back $back bytes, complete: iperf's $FWD and $BACK"
	i=0
	while [ "$(find "$TMPD/results" -name '*.json' | wc -l)" -le "$nfiles" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	f=$(newest)
	jq -e --argjson f "${FWD:-0}" --argjson b "${BACK:-0}" '[.results[] | .series[] |
		select(.name == "transfer" and .variant == "total") | .values.bytes] == [$f, $b]' \
		"$f" >/dev/null 2>&1
	tap $? "$name: its results file holds both directions, the same bytes"
}

check tradeoff tcp-iperf2-r -r -t 1 -l 8K
check dualtest tcp-iperf2-d -d -t 1 -l 8K
check dual2 tcp-iperf2x2-d -P 2 -d -t 1 -l 8K
check bytes tcp-iperf2-r -r -n 100000 -l 8K
[ "$FWD" = 100000 ] && [ "$BACK" = 100000 ]
tap $? "-r -n 100000 -l 8K: 100000 bytes each way, exactly ($FWD, $BACK)"

# ---- a scripted client ----
cat >"$TMPD/back.py" <<'EOF'
# back.py PORT SRC BACKPORT FLAGS AMOUNT LISTEN[,LISTEN] WAIT_S READ_S
# Connects from SRC to 127.0.0.1:PORT with an iperf2 v1 header (FLAGS,
# one stream, BACKPORT, 8192, 0, AMOUNT) and 100000 bytes of data, then
# waits WAIT_S for the server to connect back to BACKPORT on any LISTEN
# address, and reads for READ_S.  Prints where it came and what it got.
import socket, struct, sys, time, select
port, src, bport, flags, amount = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), \
    int(sys.argv[4], 0), int(sys.argv[5])
listen = [a for a in sys.argv[6].split(",") if a]
wait_s, read_s = float(sys.argv[7]), float(sys.argv[8])
ls = []
for a in listen:
    l = socket.socket()
    l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    l.bind((a, bport))
    l.listen(4)
    ls.append(l)
s = socket.socket()
s.bind((src, 0))
s.settimeout(10)
s.connect(("127.0.0.1", port))
s.sendall(struct.pack(">Iiiiii", flags, 1, bport, 8192, 0, amount) + b" " * 100000)
s.shutdown(socket.SHUT_WR)
r = select.select(ls, [], [], wait_s)[0] if ls else []
if not r:
    print("no connection back")
    sys.exit(0)
c, peer = r[0].accept()
print("connected back at %s from %s" % (r[0].getsockname()[0], peer[0]))
c.settimeout(1)
n, t = 0, time.time()
while time.time() - t < read_s:
    try:
        d = c.recv(65536)
    except socket.timeout:
        continue
    if not d:
        break
    n += len(d)
print("got %d bytes" % n)
c.close()
EOF
back() {
	timeout 60 python3 "$TMPD/back.py" "$PORT" "$@"
}
BP=$((PORT + 600))

# -d from 127.0.0.2, listening on both 127.0.0.1 and 127.0.0.2: only the
# client's own address is reached, from the address it reached.
back 127.0.0.2 $BP 0x80000001 -50 127.0.0.1,127.0.0.2 10 5 >"$TMPD/elsewhere.out"
grep -q "connected back at 127.0.0.2 from 127.0.0.1" "$TMPD/elsewhere.out" &&
	grep -q "got [1-9][0-9]* bytes" "$TMPD/elsewhere.out"
tap $? "the connect-back goes to the client's own address only ($(tr '\n' ' ' <"$TMPD/elsewhere.out"))"
wait_for "127.0.0.2:[0-9]* tcp-iperf2-d-back .* complete$" "$TMPD/main.out" 10
tap $? "... and is logged as the test's sending direction, complete"

# A privileged port: no connection (root can listen there to see), the
# client's direction still served, as a plain iperf2 test.
plisten=
[ "$(id -u)" -eq 0 ] && plisten=127.0.0.1
back 127.0.0.1 999 0x80000000 -50 "$plisten" 3 1 >"$TMPD/priv.out"
grep -q "no connection back" "$TMPD/priv.out" &&
	wait_for "not connecting back: its port is below 1024" "$TMPD/main.err" 10 &&
	wait_for " tcp-iperf2 100024 bytes .* complete$" "$TMPD/main.out" 10
rc=$?
tap $rc "-r to port 999: not connected to, said on stderr, the client's 100024 bytes served"
if [ $rc -ne 0 ]; then
	sed 's/^/#   /' "$TMPD/priv.out"
	tail -3 "$TMPD/main.err" "$TMPD/main.out" | sed 's/^/#   /'
fi

# An hour and more asked: at most 600 s, said in the results file.  The
# client reads a second and leaves: that direction ends incomplete.
n0=$(find "$TMPD/results" -name '*.json' | wc -l)
back 127.0.0.1 $BP 0x80000001 -10000000 127.0.0.1 10 1 >"$TMPD/long.out"
wait_for "tcp-iperf2-d-back .* incomplete" "$TMPD/main.out" 20
i=0
while [ "$(find "$TMPD/results" -name '*.json' | wc -l)" -le "$n0" ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
f=$(newest)
jq -e '.results[1].params.iperf2_back_bound | test("100000 s asked: 600 s")' "$f" >/dev/null 2>&1 &&
	jq -e '.results[1].params.iperf2_back_time_s == 600' "$f" >/dev/null 2>&1
tap $? "-d for 100000 s: sent for at most 600 s, the results file says so"

# Nothing listens at the port: the sending direction is incomplete and says why.
back 127.0.0.1 $((BP + 1)) 0x80000000 -50 "" 1 1 >/dev/null
wait_for "tcp-iperf2-r-back 0 bytes .* incomplete: connecting back to 127.0.0.1:$((BP + 1)): Connection refused" \
	"$TMPD/main.out" 10 && grep -q " tcp-iperf2-r 100024 bytes .* complete$" "$TMPD/main.out"
tap $? "-r to a port where nothing listens: logged incomplete, connection refused"

# --max-conns leaves no room: the client's two streams take both places.
kill "$SPID"
next_port
server lim --max-conns 2
ipf lim -P 2 -d -t 1 -l 8K
wait_for "tcp-iperf2x2-d-back .* incomplete: connecting back .*no room (--max-conns)" "$TMPD/lim.out" 20 &&
	grep -q "tcp-iperf2x2-d [1-9][0-9]* bytes .* complete$" "$TMPD/lim.out"
tap $? "--max-conns 2 and iperf -P 2 -d: no connect-back, logged incomplete with the reason"
kill "$SPID"
