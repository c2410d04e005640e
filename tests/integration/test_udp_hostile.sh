#!/bin/sh
# tests/integration/test_udp_hostile.sh - what crafted datagrams can do to a
# UDP receiver's figures (ttcp -r -u): nothing impossible.  python3 sends,
# on loopback, a stream of 110 good datagrams with our header and, among
# them, the issue's three crafted sequence numbers (2^63, 2^64-1, 2^63+5)
# and a tally of 2^64-1 from the peer's own port, an empty and an
# over-length datagram, and from elsewhere (another port, 127.0.0.2) a
# classic end sentinel, our end sentinel and data.  The receiver must count
# 110 datagrams, refuse the rest and say how many, end on the peer's own
# end sentinel, and never print 2^63 or 2^64.  An iperf2-form flood of
# final datagrams from another port must neither end the test nor count.
# Exact counts are asserted when the kernel dropped nothing meanwhile.
. tests/integration/lib.sh
. tests/integration/net_lib.sh

if ! command -v python3 >/dev/null 2>&1 || ! command -v jq >/dev/null 2>&1; then
	tap 0 "# SKIP python3 or jq not installed: hostile UDP datagrams"
	exit 0
fi

PORT=$((PORT + 700))

# The receiver, bounded; its report, exit status and JSON.
rx_start() {  # name
	$BB ttcp -r -u -s -4 -p $PORT --accept-timeout 20 --idle-timeout 5 \
		--json "$TMPD/$1.json" >"$TMPD/$1.out" 2>"$TMPD/$1.err" &
	RXPID=$!
	PIDS="$PIDS $RXPID"
	wait_for "^ttcp-r: buflen=" "$TMPD/$1.out" 20
}
rx_wait() {
	wait "$RXPID"
	RXRC=$?
}

cat >"$TMPD/hostile.py" <<'EOF'
import socket, struct, sys
port = int(sys.argv[1])
def hdr(seq, ns=0):
    return b'bbU1' + struct.pack('!HHQQ', 0, 1, seq, ns)
def sock(addr='127.0.0.1'):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((addr, 0))
    s.connect(('127.0.0.1', port))
    return s
a, b = sock(), sock()
try:
    c = sock('127.0.0.2')
except OSError:
    c = None
a.send(b'bbS\x00')
for i in range(100):
    a.send(hdr(i, i * 1000) + b'x' * 100)
for seq in (1 << 63, (1 << 64) - 1, (1 << 63) + 5):
    a.send(hdr(seq) + b'x' * 100)
a.send(b'bbT1' + struct.pack('!HHQQ', 0, 1, (1 << 64) - 1, 1 << 60))
a.send(b'')
a.send(hdr(100) + b'x' * 5000)
b.send(b'\x01\x02\x03\x04')
b.send(b'bbE\x00')
b.send(hdr(100) + b'x' * 100)
if c:
    c.send(hdr(100) + b'x' * 100)
for i in range(100, 110):
    a.send(hdr(i, i * 1000) + b'x' * 100)
for k in range(4):
    a.send(b'bbE\x00')
a.send(b'bbT1' + struct.pack('!HHQQ', 0, 1, 110, 110 * 124))
print('127.0.0.2' if c else 'none')
EOF

rx_start h1
d0=$(kernel_drops)
other=$(python3 "$TMPD/hostile.py" $PORT)
rx_wait
dropped=$(($(kernel_drops) - d0))
[ "$RXRC" -eq 0 ]
tap $? "the receiver ends on its peer's end sentinel and exits 0 (complete)"
! grep -Eq '9223372036854775808|18446744073709551616|e\+' "$TMPD/h1.out"
tap $? "no impossible figure (2^63, 2^64, an exponent) is printed"
jqt "$TMPD/h1.json" '.results[0].series[] | select(.variant == "total") | .values |
	(.udp_lost | type == "number" and . <= .) and .udp_expected <= 110 and
	.udp_datagrams + .udp_lost == .udp_expected' "JSON: received + lost = expected, at most 110"
expect_grep '^ttcp-r: refused: [1-9][0-9]* foreign datagrams' "$TMPD/h1.out" \
	"the report says how many datagrams were refused"
jqt "$TMPD/h1.json" '.results[0].message | test("^complete; refused [0-9]+ foreign and [0-9]+ malformed")' \
	"the status note says the result had foreign and malformed datagrams"
if [ "$dropped" -eq 0 ]; then
	peer=3
	[ "$other" = none ] || peer=4
	jqt "$TMPD/h1.json" ".results[0].series[] | select(.variant == \"total\") | .values |
		.udp_datagrams == 110 and .udp_expected == 110 and .udp_lost == 0 and
		.udp_foreign_sequence_datagrams == 4 and .udp_foreign_peer_datagrams == $peer and
		.udp_zero_length_datagrams == 1 and .udp_over_length_datagrams == 1 and
		.udp_foreign_datagrams == 4 + $peer and .udp_malformed_datagrams == 2" \
		"exact: 110 counted; 4 beyond the bound, $peer from elsewhere, 1 empty, 1 over-length refused"
	expect_grep '^ttcp-r: 13640 bytes in ' "$TMPD/h1.out" "only the 110 good datagrams' bytes count"
else
	tap 0 "# SKIP exact counts: the kernel dropped $dropped packets meanwhile"
	tap 0 "# SKIP exact bytes: the kernel dropped $dropped packets meanwhile"
fi

# iperf2's form: a client's stream, and from another port its final
# datagram and sequence numbers far beyond the bound: the test ends only on
# the client's own final datagram, and the foreign ones do not count.
PORT=$((PORT + 1))
cat >"$TMPD/iperf2.py" <<'EOF'
import socket, struct, sys, time
port = int(sys.argv[1])
hdr = struct.pack('!Iiiiii', 0x08000000, 1, port, 0, 0, 0)
def dg(seq):
    u = seq & 0xffffffffffffffff
    return struct.pack('!IIII', u & 0xffffffff, 1000, 0, u >> 32) + hdr + b'x' * 200
a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); a.connect(('127.0.0.1', port))
b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); b.connect(('127.0.0.1', port))
for i in range(1, 51):
    a.send(dg(i))
for k in range(20):
    b.send(dg(-(51 + k)))
a.send(dg(1 << 62))
a.send(dg(-(1 << 62)))
for i in range(51, 101):
    a.send(dg(i))
a.settimeout(0.05)
for k in range(40):
    a.send(dg(-(101 + k)))
    try:
        r = a.recv(2048)
        print(len(r), struct.unpack('!i', r[36:40])[0], struct.unpack('!i', r[44:48])[0])
        break
    except socket.timeout:
        pass
EOF
rx_start h2
d0=$(kernel_drops)
python3 "$TMPD/iperf2.py" $PORT >"$TMPD/h2.client"
rx_wait
dropped=$(($(kernel_drops) - d0))
[ "$RXRC" -eq 0 ]
tap $? "an iperf2-form stream ends on its own final datagram, not a stranger's (exit 0)"
[ "$(cut -d' ' -f1 "$TMPD/h2.client")" = 128 ]
tap $? "the client gets a 128-byte server report"
if [ "$dropped" -eq 0 ]; then
	[ "$(cut -d' ' -f2- "$TMPD/h2.client")" = "0 101" ]
	tap $? "the report says 0 lost of 101 datagrams (100 + the final one), none of the foreign ones"
	jqt "$TMPD/h2.json" '.results[0].series[] | select(.variant == "total") | .values |
		.udp_datagrams == 101 and .udp_expected == 101 and .udp_lost == 0 and
		.udp_foreign_peer_datagrams == 20 and .udp_foreign_sequence_datagrams == 2 and
		.udp_iperf2_streams == 1 and .udp_iperf2_reports_sent >= 1' \
		"JSON: 101 counted, 20 from another port and 2 beyond the bound refused"
else
	tap 0 "# SKIP exact counts: the kernel dropped $dropped packets meanwhile"
	tap 0 "# SKIP exact counts: the kernel dropped $dropped packets meanwhile"
fi
! grep -Eq '461168601842738790|e\+' "$TMPD/h2.out"
tap $? "no figure near 2^62 is printed"

# ---- duplicates, an iperf2 final number first, a tally that contradicts ----
# dup: fifty copies of datagram 0, then 1 (RFC 5560 duplicates, not
# reordering: iperf3 and iperf2 call them out of order); tally: 100
# datagrams and a tally saying 5 were sent; iperf2 (with and without its
# test header): ids -5, 1, 2, -3 (a final datagram before any data).
cat >"$TMPD/odd.py" <<'EOF2'
import socket, struct, sys
port, mode = int(sys.argv[1]), sys.argv[2]
a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
a.connect(('127.0.0.1', port))
def hdr(seq):
    return b'bbU1' + struct.pack('!HHQQ', 0, 1, seq, 0)
def tally(n):
    return b'bbT1' + struct.pack('!HHQQ', 0, 1, n, n * 124)
def ip2(seq, with_hdr):
    u = seq & 0xffffffffffffffff
    if with_hdr:
        return struct.pack('!IIII', u & 0xffffffff, 1000, 0, u >> 32) + \
            struct.pack('!Iiiiii', 0x08000000, 1, port, 0, 0, 0) + b'x' * 200
    return struct.pack('!IIII', u & 0xffffffff, 1000, 0, 0) + b'x' * 220
if mode == 'dup':
    a.send(b'bbS\x00')
    for i in range(50):
        a.send(hdr(0) + b'x' * 100)
    a.send(hdr(1) + b'x' * 100)
    for k in range(4):
        a.send(b'bbE\x00')
    a.send(tally(2))
elif mode == 'tally':
    a.send(b'bbS\x00')
    for i in range(100):
        a.send(hdr(i) + b'x' * 100)
    for k in range(4):
        a.send(b'bbE\x00')
    a.send(tally(5))
    a.send(tally(5))
else:
    for seq in (-5, 1, 2, -3):
        a.send(ip2(seq, mode == 'iperf2'))
EOF2
totals() {  # NAME: the total's values
	jq -c '.results[0].series[] | select(.variant == "total") | .values |
		[.udp_datagrams, .udp_lost, .udp_expected, .udp_out_of_order, .udp_duplicates,
		 .udp_foreign_sequence_datagrams]' "$TMPD/$1.json" 2>/dev/null
}
for m in dup tally iperf2 iperf2bare; do
	PORT=$((PORT + 1))
	rx_start $m
	d0=$(kernel_drops)
	timeout 30 python3 "$TMPD/odd.py" $PORT $m
	rx_wait
	eval "rc_$m=$RXRC dropped_$m=$(($(kernel_drops) - d0))"
done
if [ "$dropped_dup" -eq 0 ]; then
	[ "$rc_dup" -eq 0 ] && [ "$(totals dup)" = "[51,0,2,0,49,0]" ]
	tap $? "50 copies of 0, then 1: 51 datagrams, 49 duplicates, 0 lost of 2, none out of order; complete ($(totals dup))"
	expect_grep '^ttcp-r: udp: 51 datagrams, 0 lost of 2 (0.000%), 0 out of order, 49 duplicates, ' \
		"$TMPD/dup.out" "... and the text line says so"
else
	tap 0 "# SKIP duplicates: the kernel dropped $dropped_dup packets meanwhile"
	tap 0 "# SKIP duplicates: the kernel dropped $dropped_dup packets meanwhile"
fi
[ "$rc_tally" -eq 1 ]
tap $? "a tally of 5 after 100 datagrams: incomplete, exit 1 ($rc_tally)"
jqt "$TMPD/tally.json" '.results[0].message == "incomplete: stream 0: its tally says 5 datagrams were sent, but sequence numbers up to 99 arrived"' \
	"... with why, in the result's message"
grep -q 'INCOMPLETE.*its tally says 5 datagrams were sent' "$TMPD/tally.out" "$TMPD/tally.err"
tap $? "... and in the text"
for m in iperf2 iperf2bare; do
	eval "rc=\$rc_$m dropped=\$dropped_$m"
	if [ "$dropped" -eq 0 ]; then
		[ "$rc" -eq 0 ] && [ "$(totals $m)" = "[3,0,3,0,0,1]" ]
		tap $? "iperf2 ids -5, 1, 2, -3 ($m): 3 datagrams, 0 lost of 3, the -5 refused ($(totals $m))"
	else
		tap 0 "# SKIP $m: the kernel dropped $dropped packets meanwhile"
	fi
done
expect_grep '^ttcp-r: udp: 3 datagrams, 0 lost of 3 .*; refused 1 foreign and 0 malformed datagram(s), not counted$' \
	"$TMPD/iperf2.out" "the udp: line names the refused datagram"
