#!/bin/sh
# tests/integration/test_udp_iperf2.sh - UDP with the real iperf 2 on
# loopback, both ways: `iperf -c -u` into `ttcp -r -u -s` (the receiver
# ends on iperf's final datagram and answers with the server report iperf
# prints), `ttcp -t -u -s --iperf2` into `iperf -s -u` (iperf's server
# counts what we sent; we print its report), the same both ways between
# two boardbench ends, and identical crafted traffic sent to iperf -s -u
# and to ttcp -r -u at once: the same lost/total and out-of-order but for
# the duplicate iperf counts as out of order and takes off its loss (we
# count it apart), and (to the receive clocks' noise) the same jitter.  Counts the protocol makes exact are
# asserted exactly when the kernel dropped nothing meanwhile; no speed and
# no zero loss are assumed.  Every process is ours, bounded, killed by pid.
. tests/integration/lib.sh
. tests/integration/net_lib.sh

if ! command -v iperf >/dev/null 2>&1 || ! iperf -v 2>&1 | grep -q 'iperf version 2'; then
	tap 0 "# SKIP iperf 2 not installed: UDP interoperability"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1 || ! command -v jq >/dev/null 2>&1; then
	tap 0 "# SKIP python3 or jq not installed: UDP interoperability"
	exit 0
fi

PORT=$((PORT + 800))

total() {  # file key: the receiver's or sender's total value
	jq -r ".results[0].series[] | select(.variant == \"total\") | .values.$2" "$1"
}

rx_start() {  # name [more options]: our receiver, bounded, in the background
	name=$1
	shift
	$BB ttcp -r -u -s -4 -p $PORT --accept-timeout 20 --idle-timeout 10 "$@" \
		--json "$TMPD/$name.json" >"$TMPD/$name.out" 2>"$TMPD/$name.err" &
	RXPID=$!
	PIDS="$PIDS $RXPID"
	wait_for "^ttcp-r: buflen=" "$TMPD/$name.out" 20
}
rx_wait() {
	wait "$RXPID"
	RXRC=$?
}

srv_start() {  # name: iperf -s -u, bounded by timeout, in the background
	timeout 60 iperf -s -u -p $PORT >"$TMPD/$1.srv" 2>&1 &
	SRVPID=$!
	PIDS="$PIDS $SRVPID"
	wait_for "Server listening on UDP port $PORT" "$TMPD/$1.srv" 20
}

# ---- iperf -c -u into ttcp -r -u: 1000 datagrams of 1470 bytes ----
next_port
rx_start c1
d0=$(kernel_drops)
timeout 30 iperf -c 127.0.0.1 -p $PORT -u -b 10M -l 1470 -n 1470000 >"$TMPD/c1.client" 2>&1
rx_wait
dropped=$(($(kernel_drops) - d0))
[ "$RXRC" -eq 0 ] && ! grep -q INCOMPLETE "$TMPD/c1.out"
tap $? "ttcp -r -u ends on iperf's final datagram, complete (exit 0)"
expect_grep 'Server Report:' "$TMPD/c1.client" "iperf prints the server report we sent"
! grep -q 'did not receive ack' "$TMPD/c1.client"
tap $? "iperf does not warn 'did not receive ack of last datagram'"
lost=$(total "$TMPD/c1.json" udp_lost)
exp=$(total "$TMPD/c1.json" udp_expected)
grep -Eq " $lost/ *$exp \(" "$TMPD/c1.client"
tap $? "iperf's server report shows our lost/total ($lost/$exp)"
jqt "$TMPD/c1.json" '.results[0].series[] | select(.variant == "total") | .values |
	.udp_datagrams + .udp_lost == .udp_expected and .udp_iperf2_streams == 1 and
	.udp_iperf2_reports_sent >= 1 and .udp_foreign_datagrams == 0' \
	"JSON: received + lost = expected, one iperf2 stream, a report sent, nothing refused"
if [ "$dropped" -eq 0 ]; then
	[ "$exp" = 1001 ] && [ "$(total "$TMPD/c1.json" udp_datagrams)" = 1001 ]
	tap $? "exact: 1000 datagrams and the final one (1001 x 1470 bytes, as iperf counts)"
	expect_grep '^ttcp-r: 1471470 bytes in ' "$TMPD/c1.out" "exact: 1471470 bytes counted"
else
	tap 0 "# SKIP exact count: the kernel dropped $dropped packets meanwhile"
	tap 0 "# SKIP exact bytes: the kernel dropped $dropped packets meanwhile"
fi

# The issue's run: iperf -c -u -b 105M for 1 s.
next_port
rx_start c2
timeout 30 iperf -c 127.0.0.1 -p $PORT -u -b 105M -t 1 >"$TMPD/c2.client" 2>&1
rx_wait
[ "$RXRC" -eq 0 ] && ! grep -q 'INCOMPLETE' "$TMPD/c2.out" && ! grep -q 'did not receive ack' "$TMPD/c2.client" &&
	grep -q 'Server Report:' "$TMPD/c2.client"
tap $? "iperf -c -u -b 105M -t 1: complete, iperf prints our report, no warning"
sent=$(sed -n 's/.*Sent \([0-9]*\) datagrams.*/\1/p' "$TMPD/c2.client" | head -1)
exp=$(total "$TMPD/c2.json" udp_expected)
[ -n "$sent" ] && [ "$exp" -ge $((sent - 2)) ] && [ "$exp" -le $((sent + 1)) ]
tap $? "the receiver expects what iperf sent ($exp; iperf says it sent $sent)"

# Two streams: the receiver waits for both final datagrams.
next_port
rx_start c3
timeout 30 iperf -c 127.0.0.1 -p $PORT -u -b 10M -P 2 -n 147000 >"$TMPD/c3.client" 2>&1
rx_wait
[ "$RXRC" -eq 0 ] && [ "$(grep -c 'Server Report:' "$TMPD/c3.client")" -eq 2 ]
tap $? "iperf -c -u -P 2: both streams end, iperf prints two server reports"
jqt "$TMPD/c3.json" '.results[0].series[] | select(.variant == "total") | .values |
	.udp_iperf2_streams == 2 and .udp_streams_announced == 2' "JSON: two iperf2 streams, two announced"

# ---- ttcp -t -u --iperf2 into iperf -s -u ----
next_port
srv_start s1
d0=$(kernel_drops)
expect_exit 0 "ttcp -t -u -s --iperf2 -l 1470 -n 1000 --rate 10M to iperf -s -u exits 0" -- \
	timeout 30 $BB ttcp -t -u -s --iperf2 -4 -l 1470 -n 1000 --rate 10M -p $PORT \
	--json "$TMPD/s1.json" 127.0.0.1
cp "$TMPD/out" "$TMPD/s1.out"
wait_for ' ms .*/.*(' "$TMPD/s1.srv" 20
dropped=$(($(kernel_drops) - d0))
kill "$SRVPID" 2>/dev/null
expect_grep '^ttcp-t: iperf2 server report: [0-9]* bytes in ' "$TMPD/s1.out" \
	"the sender prints iperf's server report beside its own figures"
expect_grep '^ttcp-t: iperf2: sent 1001 datagrams' "$TMPD/s1.out" \
	"the sender says it sent 1001 datagrams (the final one included)"
slost=$(total "$TMPD/s1.json" server_lost)
sdg=$(total "$TMPD/s1.json" server_datagrams)
grep -Eq " $slost/ *$sdg \(" "$TMPD/s1.srv"
tap $? "the report we print is iperf's own ($slost/$sdg in its output)"
if [ "$dropped" -eq 0 ]; then
	[ "$sdg" = 1001 ] && [ "$(total "$TMPD/s1.json" server_bytes)" = 1471470 ]
	tap $? "exact: iperf -s -u counts our 1001 datagrams, 1471470 bytes"
else
	tap 0 "# SKIP exact count: the kernel dropped $dropped packets meanwhile"
fi

# ---- both ends ours, in iperf2's form, two streams ----
next_port
rx_start b1
expect_exit 0 "ttcp -t -u -s --iperf2 --streams 2 to ttcp -r -u exits 0" -- \
	timeout 30 $BB ttcp -t -u -s --iperf2 -4 -l 1000 -n 300 --streams 2 --rate 10M -p $PORT \
	--json "$TMPD/b1t.json" 127.0.0.1
rx_wait
[ "$RXRC" -eq 0 ]
tap $? "the receiver ends on both streams' final datagrams (exit 0)"
jqt "$TMPD/b1t.json" '.results[0].series[] | select(.variant == "total") | .values |
	.iperf2_server_reports == 2 and .datagrams_sent == 602' \
	"JSON: the sender got both streams' reports, sent 2 x 301 datagrams"
[ "$(total "$TMPD/b1t.json" server_datagrams)" = "$(total "$TMPD/b1.json" udp_expected)" ] &&
	[ "$(total "$TMPD/b1t.json" server_lost)" = "$(total "$TMPD/b1.json" udp_lost)" ]
tap $? "the sender's copy of the report is the receiver's figures"

# ---- identical traffic into iperf -s -u and ttcp -r -u at once ----
# Ids 1-4, 6-10, 3 again, 12 before 11, then 13-40 and the final datagram
# 41; even ids claim to be sent 20 ms earlier, so the jitter is large and
# known (about 18 ms) and both receivers see the same datagrams.
cat >"$TMPD/craft.py" <<'EOF'
import socket, struct, sys, time
ports = [int(p) for p in sys.argv[1:]]
socks = []
for p in ports:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.connect(('127.0.0.1', p))
    s.settimeout(0.02)
    socks.append(s)
def dg(port, seq, off):
    us = int(time.time() * 1e6) - off
    u = seq & 0xffffffffffffffff
    hdr = struct.pack('!Iiiiii', 0x08000000, 1, port, 0, 0, 0)
    return struct.pack('!IIII', u & 0xffffffff, us // 1000000, us % 1000000, u >> 32) + hdr + b'x' * 1430
for i in [1, 2, 3, 4, 6, 7, 8, 9, 10, 3, 12, 11] + list(range(13, 41)):
    for p, s in zip(ports, socks):
        s.send(dg(p, i, 20000 if i % 2 == 0 else 0))
    time.sleep(0.002)
for p, s in zip(ports, socks):
    for k in range(100):
        s.send(dg(p, -(41 + k), 0))
        try:
            s.recv(2048)
            break
        except socket.timeout:
            pass
EOF
next_port
srv_start x1
IPORT=$PORT
next_port
rx_start x2
d0=$(kernel_drops)
python3 "$TMPD/craft.py" $IPORT $PORT
rx_wait
wait_for ' ms .*/.*(' "$TMPD/x1.srv" 20
wait_for 'out-of-order' "$TMPD/x1.srv" 5
dropped=$(($(kernel_drops) - d0))
kill "$SRVPID" 2>/dev/null
[ "$RXRC" -eq 0 ]
tap $? "crafted iperf2 traffic: ttcp -r -u ends and exits 0"
line=$(grep ' ms .*/.*(' "$TMPD/x1.srv" | head -1)
ijit=$(echo "$line" | sed -n 's/.* \([0-9.]*\) ms .*/\1/p')
ilt=$(echo "$line" | sed -n 's/.* \([0-9-]*\/ *[0-9]*\) (.*/\1/p' | tr -d ' ')
iooo=$(sed -n 's/.* \([0-9]*\) datagrams received out-of-order.*/\1/p' "$TMPD/x1.srv" | head -1)
olost=$(total "$TMPD/x2.json" udp_lost)
olt="$olost/$(total "$TMPD/x2.json" udp_expected)"
oooo=$(total "$TMPD/x2.json" udp_out_of_order)
odup=$(total "$TMPD/x2.json" udp_duplicates)
# iperf counts the duplicate 3 as out of order and takes it off the loss;
# we count it apart (the lost 5 stays lost): iperf's = ours -/+ duplicates.
ilt_ours="$((olost - odup))/$(total "$TMPD/x2.json" udp_expected)"
ojit=$(total "$TMPD/x2.json" udp_jitter_s)
if [ "$dropped" -eq 0 ]; then
	[ "$ilt" = "0/41" ] && [ "$olt" = "1/41" ] && [ "$odup" = 1 ]
	tap $? "lost/total: iperf $ilt (its duplicate taken off), ours $olt and $odup duplicate"
	[ "${iooo:-0}" = 2 ] && [ "$oooo" = 1 ]
	tap $? "out of order: iperf ${iooo:-0} (the duplicate among them), ours $oooo"
else
	[ "$ilt" = "$ilt_ours" ]
	tap $? "lost/total: iperf $ilt, ours $olt less $odup duplicate(s) ($dropped dropped by the kernel)"
	[ "${iooo:-0}" = "$((oooo + odup))" ]
	tap $? "out of order: iperf ${iooo:-0}, ours $oooo + $odup duplicate(s) ($dropped dropped by the kernel)"
fi
awk -v i="$ijit" -v o="$ojit" 'BEGIN { o *= 1000; d = i - o; if (d < 0) d = -d
	exit !(i > 10 && o > 10 && d <= 1 + 0.1 * i) }'
tap $? "jitter (RFC 3550): iperf $ijit ms, ours $(awk -v o="$ojit" 'BEGIN { printf "%.3f", o * 1000 }') ms"

# ---- bad usage ----
expect_exit 2 "--iperf2 without -u is refused" -- $BB ttcp -t -s --iperf2 127.0.0.1
expect_exit 2 "--iperf2 on a receiver is refused" -- $BB ttcp -r -u -s --iperf2
expect_exit 2 "--iperf2 with -l 15 is refused" -- $BB ttcp -t -u -s -l 15 --iperf2 127.0.0.1
