#!/bin/sh
# tests/integration/test_ttcp.sh - the `ttcp` applet end to end over
# loopback only (127.0.0.1): the classic report's classic lines, the JSON model, the
# `ttcp` symlink, stdin -> network -> stdout, UDP with sentinels and
# sequence headers, classic UDP sentinels sent by nc, iperf2 both ways
# (when iperf is installed), nc as the receiver, and the faults: refused,
# no sender, a peer that dies, stalls in both directions, SIGINT, hostile
# bytes where an iperf2 header would be, and bad options.
# Every background process is started here, waited for with a bound and
# killed by its pid on exit.
. tests/integration/lib.sh
. tests/integration/net_lib.sh

[ -n "${BB_ABS:-}" ] || BB_ABS=$(cd "$(dirname "$BB")" && pwd)/$(basename "$BB")

# rx NAME ARGS...: a receiver in the background, output in $TMPD/NAME.out
# and .err; its pid (boardbench's own) in RXPID.  Every receiver here is
# bounded by --accept-timeout and --idle-timeout.
rx() {
	name=$1
	shift
	"$@" >"$TMPD/$name.out" 2>"$TMPD/$name.err" &
	RXPID=$!
	PIDS="$PIDS $RXPID"
}

# now: seconds since boot, to 10 ms.
now() {
	cut -d' ' -f1 /proc/uptime
}

# rx_wait: waits for the receiver; its exit status in RXRC.
rx_wait() {
	wait "$RXPID"
	RXRC=$?
}

# field FILE REGEX: the first number after "REGEX" in FILE.
bytes_of() {  # FILE PREFIX: bytes of the classic "PREFIX: N bytes in" line
	sed -n "s/^$2: \([0-9][0-9]*\) bytes in .*/\1/p" "$1" | head -1
}

# ---- the classic report's lines, over loopback ----
next_port
rx seed $BB ttcp -r -s -p $PORT --accept-timeout 20
wait_listen $PORT
expect_exit 0 "ttcp -t -s -f m -n 2048 to 127.0.0.1 exits 0" -- \
	timeout 30 $BB ttcp -t -s -f m -p $PORT 127.0.0.1
cp "$TMPD/out" "$TMPD/seed.tx"
cp "$TMPD/err" "$TMPD/seed.txerr"
expect_grep "^ttcp-t: buflen=8192, nbuf=2048, align=16384/0, port=$PORT  tcp  -> 127.0.0.1\$" \
	"$TMPD/seed.tx" "the classic buflen/nbuf/align/port line"
expect_grep '^ttcp-t: 16777216 bytes in [0-9]*\.[0-9][0-9] real seconds = [0-9]*\.[0-9][0-9] Mbit/sec +++$' \
	"$TMPD/seed.tx" "the classic bytes/real seconds/Mbit/sec +++ line"
expect_grep '^ttcp-t: 2048 I/O calls, msec/call = [0-9]*\.[0-9][0-9], calls/sec = [0-9]*\.[0-9][0-9]$' \
	"$TMPD/seed.tx" "the classic I/O calls, msec/call, calls/sec line"
expect_grep '^ttcp-t: [0-9]*\.[0-9]user [0-9]*\.[0-9]sys [0-9]*:[0-9][0-9]real [0-9]*% [0-9]*i+[0-9]*d [0-9]*maxrss [0-9]*+[0-9]*pf [0-9]*+[0-9]*csw$' \
	"$TMPD/seed.tx" "the classic rusage line"
expect_grep '^ttcp-t: socket$' "$TMPD/seed.txerr" "ttcp-t: socket on stderr"
expect_grep '^ttcp-t: connect$' "$TMPD/seed.txerr" "ttcp-t: connect on stderr"
# The classic lines come first, in the classic report's order.
head -4 "$TMPD/seed.tx" | sed 's/[0-9][0-9.]*/N/g' >"$TMPD/seed.shape"
cat >"$TMPD/seed.want" <<'EOF'
ttcp-t: buflen=N, nbuf=N, align=N/N, port=N  tcp  -> N
ttcp-t: N bytes in N real seconds = N Mbit/sec +++
ttcp-t: N I/O calls, msec/call = N, calls/sec = N
ttcp-t: Nuser Nsys N:Nreal N% Ni+Nd Nmaxrss N+Npf N+Ncsw
EOF
cmp -s "$TMPD/seed.shape" "$TMPD/seed.want"
tap $? "the first four lines have exactly the classic report's layout"
rx_wait
[ "$RXRC" -eq 0 ]
tap $? "the receiver exits 0"
[ "$(bytes_of "$TMPD/seed.out" ttcp-r)" = 16777216 ]
tap $? "the receiver counts the 16777216 bytes sent"
expect_grep '^ttcp-r: accept from 127\.0\.0\.1$' "$TMPD/seed.err" "ttcp-r: accept from on stderr"
expect_grep '^ttcp-r: buflen=8192, nbuf=2048, align=16384/0, port=[0-9]*  tcp$' "$TMPD/seed.out" \
	"the receiver's classic first line"
expect_grep '^ttcp-r: 16777216 bytes in .* KB/sec +++$' "$TMPD/seed.out" \
	"the receiver's default unit is KB/sec, as classic ttcp's"

# -v adds classic ttcp's CPU-seconds and buffer address lines.
next_port
rx verbose $BB ttcp -r -s -p $PORT --accept-timeout 20
wait_listen $PORT
expect_exit 0 "ttcp -t -s -v -A 4096 -O 7 -l 1000 -n 100 exits 0" -- \
	timeout 30 $BB ttcp -t -s -v -A 4096 -O 7 -l 1000 -n 100 -p $PORT 127.0.0.1
expect_grep '^ttcp-t: 100000 bytes in [0-9.]* CPU seconds = [0-9.]* KB/cpu sec$' "$TMPD/out" \
	"-v prints the CPU seconds line"
expect_grep '^ttcp-t: buffer address 0x[0-9a-f]*007$' "$TMPD/out" \
	"-v prints the buffer address, -A 4096 -O 7 placed it"
rx_wait

# ---- the symlink form and the JSON model ----
ln -s "$BB_ABS" "$TMPD/ttcp"
next_port
rx link "$TMPD/ttcp" -r -s -T -p $PORT --accept-timeout 20 --json "$TMPD/rx.json"
wait_listen $PORT
expect_exit 0 "a symlink named ttcp transmits with --json and --label" -- \
	timeout 30 "$TMPD/ttcp" -t -s -l 4096 -n 500 -p $PORT --json "$TMPD/tx.json" \
	--label board=loopback 127.0.0.1
rx_wait
[ "$RXRC" -eq 0 ]
tap $? "a symlink named ttcp receives with -T (touching every byte)"
jqt "$TMPD/tx.json" '.results[0].applet == "ttcp" and .results[0].status == "ok"' \
	"JSON: one ttcp result, ok"
jqt "$TMPD/tx.json" '.labels.board == "loopback"' "JSON: the label"
jqt "$TMPD/tx.json" '.results[0].params | .role == "transmit" and .protocol == "tcp" and
	.buflen == 4096 and .nbuf == 500 and .complete == true' "JSON: the parameters"
jqt "$TMPD/tx.json" '.results[0].series[] | select(.name == "transfer" and .variant == "total") |
	.work == 2048000 and (.samples | length == 1) and .values.bytes == 2048000 and
	.values.bits_per_s > 0 and .values.io_calls == 500 and .values.cpu_s_per_GB >= 0' \
	"JSON: the total in base units (bytes, s, bits/s) with its raw sample"
jqt "$TMPD/tx.json" '.results[0].series[] | select(.name == "transfer" and .variant == "total") |
	(.values.bits_per_s - .values.bytes * 8 / .values.real_s | fabs) < 1' \
	"JSON: bits_per_s is SI bytes x 8 / s"
jqt "$TMPD/rx.json" '.results[0].series[] | select(.variant == "total") | .values.bytes == 2048000' \
	"JSON: the receiver counted the same bytes"
jqt "$TMPD/rx.json" '.results[0].params.touch == true' "JSON: the receiver's -T"

# ---- stdin -> network -> stdout ----
head -c 3000000 /dev/urandom >"$TMPD/data.in"
next_port
rx pipe $BB ttcp -r -p $PORT --accept-timeout 20
wait_listen $PORT
expect_exit 0 "ttcp -t reads stdin (no -s)" -- \
	sh -c "timeout 30 $BB ttcp -t -p $PORT 127.0.0.1 <'$TMPD/data.in'"
rx_wait
[ "$RXRC" -eq 0 ]
tap $? "ttcp -r writes to stdout (no -s) and exits 0"
cmp -s "$TMPD/data.in" "$TMPD/pipe.out"
tap $? "the data arrives byte for byte on the receiver's stdout"
expect_grep '^ttcp-r: 3000000 bytes in ' "$TMPD/pipe.err" \
	"without -s the receiver's report goes to stderr"

# ---- UDP, both ends ours ----
next_port
rx udp $BB ttcp -r -u -s -f m -p $PORT --accept-timeout 20 --json "$TMPD/udp.json"
wait_listen $PORT udp
d0=$(kernel_drops)
expect_exit 0 "ttcp -t -u -s -l 1400 -n 2000 --rate 100M exits 0" -- \
	timeout 30 $BB ttcp -t -u -s -f m -l 1400 -n 2000 --rate 100M -p $PORT 127.0.0.1
expect_grep '^ttcp-t: 2800000 bytes in ' "$TMPD/out" "the UDP sender counts 2000 x 1400 bytes"
rx_wait
dropped=$(($(kernel_drops) - d0))
[ "$RXRC" -eq 0 ]
tap $? "the UDP receiver ends on the end sentinel and exits 0"
if jq -e '.results[0].series[] | select(.variant == "total") | .values.udp_tallies' \
	"$TMPD/udp.json" >/dev/null 2>&1 || [ "$dropped" -eq 0 ]; then
	expect_grep '^ttcp-r: udp: [0-9]* datagrams, [0-9]* lost of 2000 (' "$TMPD/udp.out" \
		"the UDP receiver reports loss against the sender's 2000 datagrams"
	jqt "$TMPD/udp.json" '.results[0].series[] | select(.variant == "total") |
		.values.udp_expected == 2000 and .values.udp_jitter_s >= 0 and
		.values.udp_datagrams + .values.udp_lost == 2000' \
		"JSON: received + lost = sent, jitter present"
else
	# No tally came: expected is what the receiver could know.
	expect_grep '^ttcp-r: udp: [0-9]* datagrams, [0-9]* lost of [0-9]* (' "$TMPD/udp.out" \
		"the UDP receiver reports loss (no tally came; the kernel dropped $dropped packets)"
	jqt "$TMPD/udp.json" '.results[0].series[] | select(.variant == "total") |
		.values.udp_expected <= 2000 and .values.udp_jitter_s >= 0 and
		.values.udp_datagrams + .values.udp_lost == .values.udp_expected' \
		"JSON: received + lost = expected, at most 2000, jitter present ($dropped dropped)"
fi

# Classic ttcp's UDP sentinels: any datagram of 4 bytes or fewer (here sent
# by nc, pattern-less, without our header), all from one source port: the
# end sentinel counts only from the test's own peer (address and port).
if command -v nc >/dev/null 2>&1; then
	next_port
	SPORT=$PORT
	next_port
	rx cudp $BB ttcp -r -u -s -p $PORT --accept-timeout 20 --idle-timeout 10
	wait_listen $PORT udp
	printf '1234' | timeout 5 nc -u -w1 -p $SPORT 127.0.0.1 $PORT
	head -c 1000 /dev/zero | tr '\0' 'x' | timeout 5 nc -u -w1 -p $SPORT 127.0.0.1 $PORT
	printf '1234' | timeout 5 nc -u -w1 -p $SPORT 127.0.0.1 $PORT
	rx_wait
	[ "$RXRC" -eq 0 ]
	tap $? "a classic start and end sentinel (4-byte datagrams) frame a UDP receive"
	[ "$(bytes_of "$TMPD/cudp.out" ttcp-r)" = 1000 ]
	tap $? "the data between them is counted, the sentinels are not"
	expect_grep 'no sequence headers' "$TMPD/cudp.out" "a classic peer's loss is reported as unknown"
else
	tap 0 "# SKIP nc (netcat-openbsd) not installed: classic UDP sentinels"
fi

# ---- iperf2 both ways ----
if command -v iperf >/dev/null 2>&1 && iperf -v 2>&1 | grep -q 'iperf version 2'; then
	next_port
	rx ip1 $BB ttcp -r -s -p $PORT --accept-timeout 20
	wait_listen $PORT
	timeout 30 iperf -c 127.0.0.1 -p $PORT -l 2m -w 256k -n 20M >"$TMPD/ip1.client" 2>&1
	rx_wait
	[ "$RXRC" -eq 0 ]
	tap $? "ttcp -r receives from iperf -c -l 2m -w 256k -n 20M and exits 0"
	[ "$(bytes_of "$TMPD/ip1.out" ttcp-r)" = 20971520 ]
	tap $? "ttcp -r counts the 20971520 bytes iperf sent (its header included)"
	expect_grep '^ttcp-r: peer: iperf2 2\.[0-9]*\.[0-9]*, announced 1 stream' "$TMPD/ip1.out" \
		"ttcp -r names its peer iperf2 from the header"

	next_port
	rx ip2 $BB ttcp -r -s -p $PORT --accept-timeout 20
	wait_listen $PORT
	timeout 30 iperf -c 127.0.0.1 -p $PORT -P 2 -n 8M >"$TMPD/ip2.client" 2>&1
	rx_wait
	[ "$RXRC" -eq 0 ]
	tap $? "ttcp -r receives iperf -c -P 2 and exits 0"
	[ "$(bytes_of "$TMPD/ip2.out" ttcp-r)" = 16777216 ]
	tap $? "ttcp -r counts both streams' 2 x 8M bytes"
	[ "$(grep -c '^ttcp-r: stream[01]: ' "$TMPD/ip2.out")" -eq 2 ]
	tap $? "ttcp -r reports each of the two streams"

	next_port
	rx ip3 $BB ttcp -r -s -p $PORT --accept-timeout 20
	wait_listen $PORT
	timeout 30 iperf -c 127.0.0.1 -p $PORT -t 1 -f b >"$TMPD/ip3.client" 2>&1
	rx_wait
	sent=$(sed -n 's/.* sec  *\([0-9][0-9]*\) Bytes .*/\1/p' "$TMPD/ip3.client" | tail -1)
	[ -n "$sent" ] && [ "$(bytes_of "$TMPD/ip3.out" ttcp-r)" = "$sent" ]
	tap $? "ttcp -r receives iperf -c -t 1: the same byte count iperf reports ($sent)"

	# Our sender to iperf -s.  iperf 2.1 reads a stream's first 4 bytes as
	# its header flags and leaves them out of its count when they announce
	# no header; so it reports what we sent, less those 4 bytes.
	next_port
	( timeout 20 iperf -s -p $PORT -f b >"$TMPD/ips.out" 2>&1 ) &
	IPS=$!
	PIDS="$PIDS $IPS"
	wait_listen $PORT
	expect_exit 0 "ttcp -t -s -l 2m -n 10 to iperf -s exits 0" -- \
		timeout 30 $BB ttcp -t -s -l 2m -n 10 -b 256k -p $PORT 127.0.0.1
	got=""
	i=0
	while [ $i -lt 200 ] && [ -z "$got" ]; do
		got=$(sed -n 's/.* sec  *\([0-9][0-9]*\) Bytes .*/\1/p' "$TMPD/ips.out" | tail -1)
		sleep 0.1
		i=$((i + 1))
	done
	kill "$IPS" 2>/dev/null
	[ "$got" = 20971520 ] || [ "$got" = 20971516 ]
	tap $? "iperf -s reports our 20971520 bytes (20971516: without the 4 it reads as flags; got $got)"

	next_port
	( timeout 20 iperf -s -p $PORT -f b >"$TMPD/ips2.out" 2>&1 ) &
	IPS=$!
	PIDS="$PIDS $IPS"
	wait_listen $PORT
	timeout 30 $BB ttcp -t -s --time 1 -p $PORT 127.0.0.1 >"$TMPD/ips2.tx" 2>&1
	sent=$(bytes_of "$TMPD/ips2.tx" ttcp-t)
	got=""
	i=0
	while [ $i -lt 200 ] && [ -z "$got" ]; do
		got=$(sed -n 's/.* sec  *\([0-9][0-9]*\) Bytes .*/\1/p' "$TMPD/ips2.out" | tail -1)
		sleep 0.1
		i=$((i + 1))
	done
	kill "$IPS" 2>/dev/null
	[ -n "$sent" ] && { [ "$got" = "$sent" ] || [ "$got" = $((sent - 4)) ]; }
	tap $? "ttcp -t --time 1 to iperf -s: iperf's count matches ours ($got of $sent)"
else
	tap 0 "# SKIP iperf 2 not installed: iperf2 interoperability"
fi

# ---- nc as the receiver ----
if command -v nc >/dev/null 2>&1; then
	next_port
	( timeout 20 nc -l 127.0.0.1 $PORT >"$TMPD/nc.out" </dev/null ) &
	NCP=$!
	PIDS="$PIDS $NCP"
	wait_listen $PORT
	expect_exit 0 "ttcp -t sends stdin to nc -l" -- \
		sh -c "timeout 30 $BB ttcp -t -p $PORT 127.0.0.1 <'$TMPD/data.in'"
	wait "$NCP" 2>/dev/null
	cmp -s "$TMPD/data.in" "$TMPD/nc.out"
	tap $? "nc -l receives the data byte for byte"
	next_port
	( timeout 20 nc -l 127.0.0.1 $PORT </dev/null | wc -c >"$TMPD/nc.count" ) &
	NCP=$!
	PIDS="$PIDS $NCP"
	wait_listen $PORT
	expect_exit 0 "ttcp -t -s -l 1500 -n 1000 to nc -l" -- \
		timeout 30 $BB ttcp -t -s -l 1500 -n 1000 -p $PORT 127.0.0.1
	wait "$NCP" 2>/dev/null
	[ "$(tr -d ' ' <"$TMPD/nc.count")" = 1500000 ]
	tap $? "nc -l counts the 1500000 bytes of the pattern"
else
	tap 0 "# SKIP nc (netcat-openbsd) not installed: nc as the receiver"
fi

# ---- more streams, zero copy, UDP offloads, IPv6 ----
next_port
rx multi $BB ttcp -r -s -p $PORT --streams 2 --accept-timeout 20 --json "$TMPD/multi.json"
wait_listen $PORT
expect_exit 0 "ttcp -t -s -D --streams 2 -n 1000 exits 0" -- \
	timeout 30 $BB ttcp -t -s -D --streams 2 -n 1000 -p $PORT 127.0.0.1
expect_grep '^ttcp-t: 16384000 bytes in ' "$TMPD/out" "the sender counts 2 streams x 1000 x 8192 bytes"
rx_wait
[ "$RXRC" -eq 0 ] && [ "$(bytes_of "$TMPD/multi.out" ttcp-r)" = 16384000 ]
tap $? "the receiver waits for --streams 2 and counts both"
jqt "$TMPD/multi.json" '[.results[0].series[] | select(.name == "transfer" and
	(.variant | startswith("stream")))] | length == 2' "JSON: one series per stream"

for zc in sendfile msg; do
	next_port
	rx zc$zc $BB ttcp -r -s -p $PORT --accept-timeout 20
	wait_listen $PORT
	expect_exit 0 "ttcp -t -s --zerocopy=$zc -l 65536 -n 200 exits 0" -- \
		timeout 30 $BB ttcp -t -s --zerocopy=$zc -l 65536 -n 200 -p $PORT 127.0.0.1
	cp "$TMPD/out" "$TMPD/zc$zc.tx"
	rx_wait
	[ "$RXRC" -eq 0 ] && [ "$(bytes_of "$TMPD/zc$zc.out" ttcp-r)" = 13107200 ]
	tap $? "--zerocopy=$zc: the receiver counts all 13107200 bytes"
done
expect_grep '^ttcp-t: stream0 zerocopy: 200 sends, 200 completed, ' "$TMPD/zcmsg.tx" \
	"--zerocopy=msg: every send's completion is reaped and reported"
next_port
rx zcin $BB ttcp -r -p $PORT --accept-timeout 20
wait_listen $PORT
expect_exit 0 "ttcp -t --zerocopy sends a regular file on stdin with sendfile" -- \
	sh -c "timeout 30 $BB ttcp -t --zerocopy -p $PORT 127.0.0.1 <'$TMPD/data.in'"
rx_wait
cmp -s "$TMPD/data.in" "$TMPD/zcin.out"
tap $? "--zerocopy with stdin: the file arrives byte for byte"

next_port
rx gro $BB ttcp -r -u -s --gro -p $PORT --accept-timeout 20 --json "$TMPD/gro.json"
wait_listen $PORT udp
d0=$(kernel_drops)
expect_exit 0 "ttcp -t -u -s --gso -l 400 --streams 2 --rate 50M exits 0" -- \
	timeout 30 $BB ttcp -t -u -s --gso -l 400 -n 3000 --streams 2 --rate 50M -p $PORT 127.0.0.1
rx_wait
dropped=$(($(kernel_drops) - d0))
[ "$RXRC" -eq 0 ]
tap $? "UDP GSO (400-byte datagrams, 2 streams) to a GRO receiver: it ends on both streams' ends"
if jq -e '.results[0].series[] | select(.variant == "total") | .values.udp_tallies' \
	"$TMPD/gro.json" >/dev/null 2>&1 || [ "$dropped" -eq 0 ]; then
	want=6000
else
	want=".values.udp_expected and .values.udp_expected <= 6000"   # see kernel_drops
fi
jqt "$TMPD/gro.json" ".results[0].series[] | select(.variant == \"total\") |
	.values.udp_datagrams + .values.udp_lost == $want and .values.udp_streams_announced == 2" \
	"JSON: GRO batches are split back into 2 x 3000 datagrams (the kernel dropped $dropped)"

# Only where ::1 is on the loopback (a machine can have IPv6 and not there).
if grep -q '^0\{31\}1 ' /proc/net/if_inet6 2>/dev/null; then
	next_port
	rx v6 $BB ttcp -r -s -6 -p $PORT --accept-timeout 20
	wait_listen $PORT
	expect_exit 0 "ttcp -t -s -6 to ::1 exits 0" -- \
		timeout 30 $BB ttcp -t -s -6 -n 100 -p $PORT ::1
	rx_wait
	[ "$RXRC" -eq 0 ] && grep -q '^ttcp-r: accept from ::1$' "$TMPD/v6.err"
	ok=$?
	tap $ok "-6: the receiver accepts from ::1"
	[ $ok -eq 0 ] || sed 's/^/#   receiver: /' "$TMPD/v6.err"
else
	tap 0 "# SKIP no ::1 on this machine's loopback"
fi

# ---- faults ----
# A refusal is reported at once, not after --connect-timeout 20 (up to
# 10 s allowed for a loaded machine to start the program).
next_port
t0=$(date +%s)
expect_exit 1 "connection refused: exit 1" -- \
	timeout 30 $BB ttcp -t -s --connect-timeout 20 -p $PORT 127.0.0.1
t1=$(date +%s)
[ "$(grep -c '^boardbench ttcp: ' "$TMPD/err")" -eq 1 ] &&
	grep -q "^boardbench ttcp: connect to 127.0.0.1 port $PORT: Connection refused\$" "$TMPD/err"
tap $? "connection refused: one error line naming the address, port and reason"
[ $((t1 - t0)) -le 10 ]
tap $? "connection refused: reported without waiting for the connect timeout ($((t1 - t0)) s)"

next_port
expect_exit 1 "a receiver with no sender gives up after --accept-timeout 1" -- \
	timeout 30 $BB ttcp -r -s --accept-timeout 1 -p $PORT
grep -q "no connection within 1 s" "$TMPD/err"
tap $? "... saying no connection came"

# The receiver dies in the middle: the sender reports what it sent.
next_port
rx dies $BB ttcp -r -s -p $PORT --accept-timeout 20
wait_listen $PORT
$BB ttcp -t -s --time 20 -p $PORT 127.0.0.1 >"$TMPD/dies.tx" 2>"$TMPD/dies.txerr" &
TXP=$!
PIDS="$PIDS $TXP"
wait_for '^ttcp-t: connect$' "$TMPD/dies.txerr"   # connected, however slowly
sleep 1
kill -KILL "$RXPID"
wait "$TXP"
[ $? -eq 1 ]
tap $? "a peer that dies mid-transfer: the sender exits 1"
expect_grep '^ttcp-t: [0-9]* bytes in .* real seconds' "$TMPD/dies.tx" "... and prints the partial report"
expect_grep '^ttcp-t: INCOMPLETE: stream 0: connection lost' "$TMPD/dies.tx" "... marked INCOMPLETE"

# A sender that stalls: the receiver gives up after --idle-timeout.
if command -v nc >/dev/null 2>&1; then
	next_port
	rx stall $BB ttcp -r -s -p $PORT --accept-timeout 20 --idle-timeout 1
	wait_listen $PORT
	# nc holds the connection open for 20 s after its 6 bytes; the pid of
	# the sleep is kept to end it once the receiver has given up.
	sh -c 'echo $$ >"$1"; printf abcdef; exec sleep 20' sh "$TMPD/stall.pid" |
		timeout 25 nc -N 127.0.0.1 $PORT >/dev/null 2>&1 &
	PIDS="$PIDS $!"
	wait_for '^ttcp-r: accept from' "$TMPD/stall.err"
	t0=$(now)
	rx_wait
	t1=$(now)
	kill "$(cat "$TMPD/stall.pid")" 2>/dev/null
	[ "$RXRC" -eq 1 ]
	tap $? "a stalled sender: the receiver exits 1"
	# Not before --idle-timeout 1 after the 6 bytes came (which may precede
	# t0 by the 0.1 s wait_for polls at, allowed 0.5 s); later than 12 s,
	# with nc still holding the connection, is a hang.
	awk -v t0="$t0" -v t1="$t1" 'BEGIN { exit !(t1 - t0 >= 0.5 && t1 - t0 <= 12) }'
	tap $? "... after about --idle-timeout 1 ($t0 -> $t1 s)"
	expect_grep '^ttcp-r: 6 bytes in ' "$TMPD/stall.out" "... reporting the 6 bytes it got"
	expect_grep '^ttcp-r: INCOMPLETE: stream 0: stalled' "$TMPD/stall.out" "... marked INCOMPLETE, stalled"

	# A receiver that stops reading: the sender gives up the same way.
	next_port
	( timeout 15 nc -l 127.0.0.1 $PORT </dev/null | sleep 12 ) &
	PIDS="$PIDS $!"
	wait_listen $PORT
	expect_exit 1 "a receiver that stops reading: the sender exits 1 after --idle-timeout" -- \
		timeout 30 $BB ttcp -t -s --time 30 --idle-timeout 1.5 -p $PORT 127.0.0.1
	expect_grep '^ttcp-t: INCOMPLETE: stream 0: stalled' "$TMPD/out" "... marked INCOMPLETE, stalled"
else
	tap 0 "# SKIP nc (netcat-openbsd) not installed: stall tests"
fi

# SIGINT: the partial report, as iperf prints it.
next_port
rx int $BB ttcp -r -s -p $PORT --accept-timeout 20 --interval 0.5
wait_listen $PORT
$BB ttcp -t -s --time 20 --interval 0.5 -p $PORT 127.0.0.1 >"$TMPD/int.tx" 2>&1 &
TXP=$!
PIDS="$PIDS $TXP"
wait_for '^ttcp-t: \[  0\]    0\.00-   0\.50 sec ' "$TMPD/int.tx"   # however slowly it starts
kill -INT "$TXP"
wait "$TXP"
[ $? -eq 1 ]
tap $? "SIGINT: the sender exits 1"
expect_grep '^ttcp-t: INCOMPLETE: stream 0: interrupted' "$TMPD/int.tx" "SIGINT: the report is marked interrupted"
expect_grep '^ttcp-t: [0-9]* I/O calls' "$TMPD/int.tx" "SIGINT: the classic lines are printed"
expect_grep '^ttcp-t: \[  0\]    0\.00-   0\.50 sec ' "$TMPD/int.tx" "--interval: periodic lines"
rx_wait
[ "$RXRC" -eq 0 ]
tap $? "SIGINT: the receiver sees the sender close and exits 0"
next_port
$BB ttcp -r -s -p $PORT --accept-timeout 20 >"$TMPD/int2.out" 2>"$TMPD/int2.err" &
RP=$!
PIDS="$PIDS $RP"
wait_listen $PORT
kill -INT "$RP"
wait "$RP"
[ $? -eq 1 ] && grep -q "interrupted before any connection" "$TMPD/int2.err"
tap $? "SIGINT while waiting for a sender: exit 1, one clear line"

# ---- hostile bytes where an iperf2 header would be ----
if command -v nc >/dev/null 2>&1; then
	# send NAME SECONDS: the bytes of $TMPD/NAME.bin to a fresh receiver.
	hostile() {
		next_port
		rx "$1" $BB ttcp -r -s -p $PORT --accept-timeout 20 --connect-timeout 1 --idle-timeout 5
		wait_listen $PORT
		timeout 10 nc -N 127.0.0.1 $PORT <"$TMPD/$1.bin" >/dev/null 2>&1
		rx_wait
		HRC=$RXRC
		HBYTES=$(bytes_of "$TMPD/$1.out" ttcp-r)
	}
	# Extend flag and length 255, then the stream ends after 100 bytes.
	{ printf '\100\001\001\376'; head -c 96 /dev/zero; } >"$TMPD/h1.bin"
	hostile h1
	[ "$HRC" -eq 0 ] && [ "$HBYTES" = 100 ]
	tap $? "hostile: a header claiming 255 bytes in a 100-byte stream is 100 bytes of data"
	# A plausible header announcing 1000 streams: bounded wait, no crash.
	{ printf '\100\001\000\170\000\000\003\350\000\000\023\211'; head -c 48 /dev/zero
	  head -c 10000 /dev/urandom; } >"$TMPD/h2.bin"
	t0=$(now)
	hostile h2
	t1=$(now)
	[ "$HRC" -eq 1 ] && [ "$HBYTES" = 10060 ] && grep -q 'announced 1000 streams, 1 connected' "$TMPD/h2.out"
	tap $? "hostile: a header announcing 1000 streams waits --connect-timeout, then reports incomplete"
	# --connect-timeout 1 for the other streams; --accept-timeout 20 would be a hang.
	awk -v t0="$t0" -v t1="$t1" 'BEGIN { exit !(t1 - t0 >= 1 && t1 - t0 <= 15) }'
	tap $? "hostile: ... waiting --connect-timeout 1, not for ever ($t0 -> $t1 s)"
	# Top bits set, absurd fields: plain data.
	{ printf '\377\377\377\377\377\377\377\377'; head -c 5000 /dev/urandom; } >"$TMPD/h3.bin"
	hostile h3
	[ "$HRC" -eq 0 ] && [ "$HBYTES" = 5008 ] && ! grep -q 'peer: iperf2' "$TMPD/h3.out"
	tap $? "hostile: 0xff bytes are data, not a header"
	head -c 200000 /dev/urandom >"$TMPD/h4.bin"
	hostile h4
	[ "$HRC" -eq 0 ] && [ "$HBYTES" = 200000 ]
	tap $? "hostile: 200000 random bytes are counted exactly"
	printf '\100' >"$TMPD/h5.bin"
	hostile h5
	[ "$HRC" -eq 0 ] && [ "$HBYTES" = 1 ]
	tap $? "hostile: one header-like byte, then the end"
else
	tap 0 "# SKIP nc (netcat-openbsd) not installed: hostile header bytes"
fi

# ---- bad options: exit 2, one line naming the option and value ----
badopt() {  # NEEDLE -- command
	needle=$1
	shift 2
	"$@" >"$TMPD/bo.out" 2>"$TMPD/bo.err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$TMPD/bo.err")" -eq 1 ] && grep -q -- "$needle" "$TMPD/bo.err" &&
		[ ! -s "$TMPD/bo.out" ]
	tap $? "$* exits 2 naming '$needle' (exit $rc)"
}
badopt "'0' for -l" -- $BB ttcp -t -s -l 0 h
badopt "'70000' for -l" -- $BB ttcp -t -u -s -l 70000 h
badopt "'3' for -l" -- $BB ttcp -r -u -l 3
badopt "'x' for -f" -- $BB ttcp -r -f x
badopt "'65536' for -p" -- $BB ttcp -r -p 65536
badopt "'0' for -n" -- $BB ttcp -t -s -n 0 h
badopt "'2M' for -A" -- $BB ttcp -t -s -A 2M h
badopt "'65' for --streams" -- $BB ttcp -t -s --streams 65 h
badopt "'-1' for --time" -- $BB ttcp -t -s --time -1 h
badopt "'fast' for --rate" -- $BB ttcp -t -s --rate fast h
badopt "'1.2.3' for --bind" -- $BB ttcp -t -s --bind 1.2.3 h
badopt "'disk' for --zerocopy" -- $BB ttcp -t -s --zerocopy=disk h
badopt "'0' for --idle-timeout" -- $BB ttcp -r --idle-timeout 0
badopt "give -t (transmit) or -r (receive)" -- $BB ttcp -s
badopt "only one of -t and -r" -- $BB ttcp -t -r h
badopt "needs the receiver" -- $BB ttcp -t -s
badopt "unexpected argument" -- $BB ttcp -r -s extra
badopt "--gso" -- $BB ttcp -t -s --gso h
badopt "--streams above 1 needs -s" -- $BB ttcp -t --streams 2 h
badopt "--zerocopy=msg needs -s" -- $BB ttcp -t --zerocopy=msg h
badopt "unknown option" -- $BB ttcp -r --no-such
