#!/bin/sh
# tests/integration/test_ttcp_netns.sh - `ttcp` over a real link: two
# network namespaces made here, joined by a veth pair, shaped with tc tbf.
# It checks only what holds at any speed, on a fast host as on a loaded CI
# machine (how close ttcp comes to the link is measured, not asserted, by
# bench/net_shaped.sh):
#   - TCP through 100 and 400 Mbit/s: the receiver counts every byte the
#     sender wrote; neither end reports more than the link can carry in the
#     time it reports (the tbf bucket, and for the receiver what may wait
#     unread before accept, allowed for); the classic line, the SI line and
#     the JSON agree on bytes, seconds and rate; --time 5 is kept;
#   - UDP paced at 50 and 200 Mbit/s into a 100 Mbit/s link: every datagram
#     the sender sent is received or counted lost, and every drop the
#     kernel counted (tbf queues, the receiving socket) is counted lost; the
#     pacer never sends faster than --rate; a sender shaped at its own
#     interface is held back to what the link carries; one shaped on the
#     far side (ifb) loses at least what the link could not carry;
#   - an unreachable peer (silently dropped, and no route), and a link that
#     goes down mid-transfer (both ends stall and report).
# Timing checks have a lower bound the program promises and a generous
# upper bound that only catches a hang.  Needs root, ip and tc; elsewhere it
# skips with one line.  The namespaces carry this shell's pid in their
# names and are deleted on exit, whatever happened.
. tests/integration/lib.sh
. tests/integration/netns_lib.sh

NSA=bbttcpA$$
NSB=bbttcpB$$
VA=bbva$$
VB=bbvb$$
NET=10.$((200 + $$ % 50)).$(($$ / 50 % 250))
A=$NET.1
B=$NET.2
inA() { ip netns exec "$NSA" "$@"; }
inB() { ip netns exec "$NSB" "$@"; }

netns_pair "$NSA" "$NSB" "$VA" "$VB" "$A" "$B"
tap $? "two namespaces joined by a veth pair ($A <-> $B)"
MTU=$(ip -n "$NSA" -o link show "$VA" | sed -n 's/.* mtu \([0-9]*\) .*/\1/p')
FRAME=$((MTU + 14))    # tbf counts whole Ethernet frames
# What a TCP receiver may hold unread before it accepts: its initial buffer.
RMEM=$(inB cat /proc/sys/net/ipv4/tcp_rmem 2>/dev/null | awk '{ print $2 }')
[ -n "$RMEM" ] || RMEM=6291456

PORT=$(sh tests/port_base.sh $$)

# now: seconds since boot, to 10 ms.
now() {
	cut -d' ' -f1 /proc/uptime
}

# wait_listen NS PORT [udp]: until the receiver in NS listens (at most 20 s,
# however slowly a loaded machine starts it).
wait_listen() {
	i=0
	flag=-Hltn
	[ "${3:-}" = udp ] && flag=-Hlun
	while [ $i -lt 200 ]; do
		ip netns exec "$1" ss $flag "sport = :$2" 2>/dev/null | grep -q . && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# rx NAME ARGS...: a receiver in namespace B, pid in RXPID.
rx() {
	name=$1
	shift
	inB "$@" >"$TMPD/$name.out" 2>"$TMPD/$name.err" &
	RXPID=$!
	PIDS="$PIDS $RXPID"
}

jnum() {  # FILE VARIANT KEY: a value of a transfer series
	jq -r ".results[0].series[] | select(.name == \"transfer\" and .variant == \"$2\") |
	       .values.$3 // empty" "$1" 2>/dev/null
}

# awk_true EXPRESSION name=value...: passes when the awk expression holds.
awk_true() {
	e=$1
	shift
	awk "$@" "BEGIN { exit !($e) }"
}

# |x| for the awk programs below: BusyBox awk built without its maths
# library (as Debian's is) has no ^ operator.
AWK_ABS='function abs(x) { return x < 0 ? -x : x }
'

# classic_ok OUT PREFIX JSON: "PREFIX: B bytes in R real seconds = V KB/sec"
# agrees with the JSON total (V is B / 1024 / seconds, classic ttcp's KB).
classic_ok() {
	grep "^$2: [0-9]* bytes in [0-9.]* real seconds = [0-9.]* KB/sec +++$" "$1" | head -1 |
		awk -v b="$(jnum "$3" total bytes)" -v s="$(jnum "$3" total real_s)" "$AWK_ABS"'
		{ ok = b != "" && $2 == b && s > 0 && abs($5 - s) <= 0.0051 &&
		       abs($9 - b / 1024 / s) <= 0.0051 + 1e-9 * $9; n++ }
		END { exit !(n == 1 && ok) }'
}

# si_ok OUT PREFIX JSON: "PREFIX: SI: B bytes in S s = R <prefix>bit/s"
# agrees with itself (R = 8 B / S) and with the JSON total.
si_ok() {
	grep "^$2: SI: " "$1" | head -1 |
		awk -v b="$(jnum "$3" total bytes)" -v s="$(jnum "$3" total real_s)" \
		    -v r="$(jnum "$3" total bits_per_s)" "$AWK_ABS"'
		{ u = $10; sub(/;$/, "", u)
		  k = 0
		  if (u == "bit/s") k = 1; else if (u == "kbit/s") k = 1e3
		  else if (u == "Mbit/s") k = 1e6; else if (u == "Gbit/s") k = 1e9
		  else if (u == "Tbit/s") k = 1e12
		  want = 8 * $3 / $6
		  ok = k > 0 && b != "" && $3 == b && abs($6 - s) <= 1e-6 && s > 0 &&
		       abs(r - 8 * b / s) <= 1e-9 * r &&
		       abs($9 * k - want) <= 0.0051 * k + 1e-6 * want; n++ }
		END { exit !(n == 1 && ok) }'
}

# ---- TCP on a shaped link ----
BURST=262144           # the tbf bucket, bytes: what passes at once after a pause
shape() {  # RATE_MBIT: tbf on A's side, its queue 20 ms of the rate beyond the bucket
	LIMIT=$(($1 * 1000000 / 8 / 50 + BURST))
	tc -n "$NSA" qdisc replace dev "$VA" root tbf rate "${1}mbit" burst $BURST limit $LIMIT
}

# carries RATE_MBIT SECONDS EXTRA_BYTES: the most bytes of frames the link
# lets through in SECONDS, with EXTRA_BYTES that may have passed or waited
# outside them; 1% more for the tbf's clock and rate arithmetic.
carries() {
	awk -v r="$1" -v t="$2" -v x="$3" -v b=$BURST 'BEGIN {
		printf "%.0f", 1.01 * (r * 1e6 / 8 * t + b + x) }'
}

tcp_shaped() {  # RATE_MBIT EXTRA_SENDER_OPTIONS
	rate=$1
	shift
	PORT=$((PORT + 1))
	tx=$TMPD/tx$rate.json
	rj=$TMPD/rx$rate.json
	shape "$rate"
	tap $? "tc tbf shapes $VA to $rate Mbit/s (burst $BURST bytes)"
	rx tcp$rate $BB ttcp -r -s -p $PORT --accept-timeout 20 --idle-timeout 10 --json "$rj"
	wait_listen "$NSB" $PORT
	inA timeout 60 $BB ttcp -t -s --time 5 -p $PORT "$@" --json "$tx" "$B" \
		>"$TMPD/tx$rate.out" 2>&1
	tap $? "ttcp -t --time 5 at $rate Mbit/s exits 0"
	wait "$RXPID"
	tap $? "the receiver exits 0"
	sent=$(jnum "$tx" total bytes)
	got=$(jnum "$rj" total bytes)
	[ -n "$sent" ] && [ "$sent" = "$got" ] && [ "$sent" -gt 0 ]
	tap $? "$rate Mbit/s: the receiver counts every byte the sender wrote ($got of $sent)"
	real=$(jnum "$tx" total real_s)
	acked=$(jnum "$tx" total acked_s)
	# --time 5 from the session's start; the stream's own clock starts when
	# its thread does (allowed 0.5 s).  The upper bound only catches a hang.
	awk_true 'real >= 4.5 && real < 30 && acked >= real' -v real="$real" -v acked="$acked"
	tap $? "$rate Mbit/s: the sender wrote for --time 5 (${real} s), then waited for every ack (${acked} s)"
	mss=$(jnum "$tx" stream0 mss_bytes)
	[ -n "$mss" ] || mss=$((MTU - 52))
	rreal=$(jnum "$rj" total real_s)
	# Payload is at most mss of every FRAME bytes the link carries.  The
	# sender's window (connect to the last ack) holds every byte's passage;
	# the receiver's starts at accept, after which may come up to RMEM bytes
	# that passed before it.
	max_acked=$(awk -v c="$(carries "$rate" "$acked" 0)" -v m="$mss" -v f=$FRAME \
		'BEGIN { printf "%.0f", c * m / f }')
	max_rx=$(awk -v c="$(carries "$rate" "$rreal" "$RMEM")" -v m="$mss" -v f=$FRAME \
		'BEGIN { printf "%.0f", c * m / f }')
	echo "# $rate Mbit/s: allowed goodput $(awk -v r="$rate" -v m="$mss" -v f=$FRAME \
		'BEGIN { printf "%.2f", r * m / f }') Mbit/s (mss $mss, mtu $MTU); receiver" \
		"$(jnum "$rj" total bits_per_s) bit/s, sender until acked $(jnum "$tx" total acked_bits_per_s) bit/s"
	awk_true 'b <= m' -v b="$sent" -v m="$max_acked"
	tap $? "$rate Mbit/s: no more than the link carries until the last ack ($sent <= $max_acked bytes in $acked s)"
	awk_true 'b <= m' -v b="$got" -v m="$max_rx"
	tap $? "$rate Mbit/s: no more than the link carries in the receiver's time ($got <= $max_rx bytes in $rreal s)"
	classic_ok "$TMPD/tx$rate.out" ttcp-t "$tx" && si_ok "$TMPD/tx$rate.out" ttcp-t "$tx"
	tap $? "$rate Mbit/s: the sender's classic and SI lines agree with its JSON"
	classic_ok "$TMPD/tcp$rate.out" ttcp-r "$rj" && si_ok "$TMPD/tcp$rate.out" ttcp-r "$rj"
	tap $? "$rate Mbit/s: the receiver's classic and SI lines agree with its JSON"
	grep "^ttcp-t: acked: every byte acknowledged [0-9.]* s after the start = " \
		"$TMPD/tx$rate.out" | awk -v s="$acked" -v r="$(jnum "$tx" total acked_bits_per_s)" \
		-v b="$sent" "$AWK_ABS"'{ n++; ok = abs($6 - s) <= 1e-6 && abs(r - 8 * b / s) <= 1e-9 * r }
		END { exit !(n == 1 && ok) }'
	tap $? "$rate Mbit/s: the acked line and the JSON agree (bytes x 8 / acked_s)"
}
tcp_shaped 100 --bind "$A%$VA" --interval 1
grep -q '^ttcp-t: \[  0\]    4\.00-   5\.00 sec ' "$TMPD/tx100.out"
tap $? "100 Mbit/s: --interval 1 gives five periodic lines"
tcp_shaped 400

# ---- UDP into a 100 Mbit/s link ----
# Besides its data a sender sends 1 start sentinel, 4 end sentinels and 2
# tallies (src/net/udp_xfer.c); a queue may drop those too.
CONTROL=7
UFRAME=1442            # 1400 bytes of payload + UDP 8 + IP 20 + Ethernet 14

# drops: what the kernel counted dropped so far: every qdisc of both
# namespaces, and the datagrams B's UDP sockets could not take (InErrors:
# a full receive buffer, memory).
drops() {
	{
		tc -s -n "$NSA" qdisc show
		tc -s -n "$NSB" qdisc show
	} 2>/dev/null | sed -n 's/.*(dropped \([0-9]*\),.*/\1/p'
	# shellcheck disable=SC2016  # awk's fields, not the shell's
	inB awk '$1 == "Udp:" { if (!c) { for (i = 2; i <= NF; i++) if ($i == "InErrors") c = i }
		else print $c }' /proc/net/snmp
}
sum() {
	awk '{ s += $1 } END { print s + 0 }'
}

udp_run() {  # NAME RATE SENDER_OPTIONS...: sets USENT (datagrams) and the receiver's figures
	name=$1
	urate=$2
	shift 2
	PORT=$((PORT + 1))
	rx "$name" $BB ttcp -r -u -s -p $PORT --accept-timeout 20 --idle-timeout 10 \
		--json "$TMPD/$name.json"
	wait_listen "$NSB" $PORT udp
	d0=$(drops | sum)
	inA timeout 60 $BB ttcp -t -u -s -l 1400 --time 3 --rate "$urate" -p $PORT "$@" \
		--json "$TMPD/$name.txj" "$B" >"$TMPD/$name.tx" 2>&1
	tap $? "ttcp -t -u --rate $urate $* over 100 Mbit/s exits 0"
	wait "$RXPID"
	tap $? "the UDP receiver exits 0"
	UDROPS=$(($(drops | sum) - d0))
	ubytes=$(jnum "$TMPD/$name.txj" total bytes)
	USENT=$((${ubytes:-0} / 1400))
	UTXS=$(jnum "$TMPD/$name.txj" total real_s)
	UTXRATE=$(jnum "$TMPD/$name.txj" total bits_per_s)
	UGOT=$(jnum "$TMPD/$name.json" total udp_datagrams)
	ULOST=$(jnum "$TMPD/$name.json" total udp_lost)
	echo "# UDP --rate $urate on 100 Mbit/s: sent $USENT datagrams in $UTXS s" \
		"($UTXRATE bit/s), received $UGOT ($(jnum "$TMPD/$name.json" total bits_per_s) bit/s)," \
		"lost $ULOST; the kernel dropped $UDROPS"
	# With the sender's tally, the receiver knows how many were sent; the
	# tally can be lost only where the kernel counted a drop.
	# shellcheck disable=SC2016  # jq's $sent, not the shell's
	if jq -e '.results[0].series[] | select(.variant == "total") | .values.udp_tallies' \
		"$TMPD/$name.json" >/dev/null 2>&1 || [ "$UDROPS" -eq 0 ]; then
		uwant='$sent'
	else
		uwant='.values.udp_expected and .values.udp_expected <= $sent'
		echo "# $name: no tally came; the kernel dropped $UDROPS"
	fi
	jq -e --argjson sent "$USENT" '.results[0].series[] | select(.variant == "total") |
		$sent > 0 and .values.bytes == 1400 * .values.udp_datagrams and
		.values.udp_expected == .values.udp_datagrams + .values.udp_lost and
		.values.udp_datagrams + .values.udp_lost == '"$uwant" "$TMPD/$name.json" >/dev/null
	tap $? "$name: received + lost = the $USENT datagrams the sender sent, 1400 bytes each"
	awk_true 'lost >= d - c' -v lost="${ULOST:-0}" -v d="$UDROPS" -v c=$CONTROL
	tap $? "$name: every drop the kernel counted ($UDROPS, $CONTROL of them maybe control datagrams) is counted lost ($ULOST)"
	classic_ok "$TMPD/$name.tx" ttcp-t "$TMPD/$name.txj" &&
		si_ok "$TMPD/$name.tx" ttcp-t "$TMPD/$name.txj"
	tap $? "$name: the sender's classic and SI lines agree with its JSON"
}
shape 100
udp_run udp50 50M
# The pacer sends datagram k no sooner than k x 1400 bytes at --rate after
# the start (1% allowed for the clock readings).
awk_true 'r <= 1.01 * 50e6' -v r="$UTXRATE"
tap $? "UDP --rate 50M: the sender sends no faster than 50 Mbit/s ($UTXRATE bit/s)"

# Shaped at the sender's own interface, with a socket send buffer (-b:
# 2 x 64 KiB) shorter than the tbf queue, the sender blocks and is held to
# what the link carries: in its time, the bucket, what is still queued
# when it stops (the queue's limit), and what the queue dropped.
udp_run udp200 200M -b 65536
max=$(awk -v c="$(carries 100 "$UTXS" $((LIMIT + UDROPS * UFRAME)))" -v f=$UFRAME \
	'BEGIN { printf "%d", c / f }')
[ "$USENT" -le "$max" ]
tap $? "UDP --rate 200M into the sender's own 100 Mbit/s queue: held back to what the link carries ($USENT <= $max datagrams in $UTXS s)"

# Shaped on the receiver's side (ingress redirected through an ifb device),
# the excess is dropped where the sender cannot see it: at most what the
# link carries in the sender's time (its bucket, and its queue drained
# after) arrives, and at least the rest is counted lost.
IFB=bbfb$$
IFB_BURST=16384
IFB_LIMIT=$((100000000 / 8 / 200 + IFB_BURST))      # 5 ms of the rate beyond the bucket
tc -n "$NSA" qdisc del dev "$VA" root
ip -n "$NSB" link add "$IFB" type ifb && ip -n "$NSB" link set "$IFB" up &&
	tc -n "$NSB" qdisc add dev "$VB" ingress &&
	tc -n "$NSB" filter add dev "$VB" parent ffff: protocol ip u32 match ip protocol 17 0xff \
		action mirred egress redirect dev "$IFB" &&
	tc -n "$NSB" qdisc add dev "$IFB" root tbf rate 100mbit burst $IFB_BURST limit $IFB_LIMIT
if [ $? -eq 0 ]; then
	udp_run udploss 200M
	cap=$(awk -v r=100e6 -v t="$UTXS" -v x=$((IFB_BURST + IFB_LIMIT)) -v f=$UFRAME \
		'BEGIN { printf "%d", 1.01 * (r / 8 * t + x) / f }')
	# (with received + lost = sent above, the rest is counted lost)
	[ "${UGOT:-0}" -le "$cap" ]
	tap $? "UDP --rate 200M through a 100 Mbit/s ifb: received at most what the link carries ($UGOT <= $cap datagrams in $UTXS s)"
	if [ "$USENT" -gt "$cap" ]; then
		[ "${ULOST:-0}" -gt 0 ]
		tap $? "... the sender outran the link: $ULOST datagrams counted lost"
	else
		tap 0 "# SKIP the sender did not outrun the link here ($USENT datagrams)"
	fi
	tc -n "$NSB" qdisc del dev "$VB" ingress
else
	tap 0 "# SKIP no ifb/mirred here: loss on the far side of a link"
fi

# ---- an unreachable peer ----
ip -n "$NSA" neigh replace "$NET.9" lladdr 02:00:00:00:00:09 dev "$VA" nud permanent
t0=$(now)
expect_exit 1 "a peer that never answers: exit 1" -- \
	inA timeout 30 $BB ttcp -t -s --connect-timeout 2 -p $PORT "$NET.9"
t1=$(now)
grep -q "port $PORT: no answer (timed out)" "$TMPD/err"
tap $? "... one line saying the connection timed out"
# No sooner than the timeout (10 ms: /proc/uptime's resolution); later only
# by a hang.
awk_true 't1 - t0 >= 1.99 && t1 - t0 <= 20' -v t0="$t0" -v t1="$t1"
tap $? "... after --connect-timeout 2 ($t0 -> $t1 s)"
ip -n "$NSA" route add unreachable 10.254.0.0/16
expect_exit 1 "no route to the peer: exit 1" -- \
	inA timeout 30 $BB ttcp -t -s --connect-timeout 5 -p $PORT 10.254.1.1
grep -q "No route to host\|Network is unreachable" "$TMPD/err"
tap $? "... one line saying there is no route"

# ---- the link goes down in the middle ----
PORT=$((PORT + 1))
rx down timeout 60 $BB ttcp -r -s -p $PORT --accept-timeout 20 --idle-timeout 2
wait_listen "$NSB" $PORT
inA timeout 60 $BB ttcp -t -s --time 30 --idle-timeout 2 -p $PORT "$B" >"$TMPD/down.tx" 2>&1 &
TXP=$!
PIDS="$PIDS $TXP"
# Data flows before the link goes down: the connection (however slowly it
# comes), then a second of transfer.
wait_for '^ttcp-t: connect$' "$TMPD/down.tx"
sleep 1
kill -0 "$TXP" 2>/dev/null
tap $? "the sender is still sending a second after it connected (--time 30)"
t0=$(now)
ip -n "$NSB" link set "$VB" down
wait "$TXP"
[ $? -eq 1 ]
tap $? "the link goes down: the sender exits 1"
t1=$(now)
grep -q '^ttcp-t: INCOMPLETE: stream 0: stalled' "$TMPD/down.tx"
tap $? "... its report is marked INCOMPLETE, stalled"
wait "$RXPID"
[ $? -eq 1 ] && grep -q '^ttcp-r: INCOMPLETE: stream 0: stalled' "$TMPD/down.out"
tap $? "... and so is the receiver's, which exits 1"
t2=$(now)
# Neither end may give up before --idle-timeout 2 without progress; the
# last progress may precede the link going down by a little (1 s allowed).
# Later than 20 s is a hang (--time 30 would end the sender otherwise).
awk_true 't1 - t0 >= 1 && t2 - t0 <= 20' -v t0="$t0" -v t1="$t1" -v t2="$t2"
tap $? "... both after about --idle-timeout 2 ($t0 -> sender $t1, receiver $t2 s)"
