#!/bin/sh
# tests/integration/test_ttcp_netns.sh - `ttcp` over a real link: two
# network namespaces made here, joined by a veth pair, the sender's side
# shaped with tc tbf.  Checks that the measured TCP goodput is within 5% of
# what the shaped rate allows after Ethernet/IP/TCP header overhead, at 100
# and 400 Mbit/s; UDP paced below and above the link rate (loss counted);
# an unreachable peer (silently dropped, and no route); and a link that
# goes down mid-transfer (both ends stall and report).  Needs root, ip and
# tc; elsewhere it skips with one line.  The namespaces carry this shell's
# pid in their names and are deleted on exit, whatever happened.
. tests/integration/lib.sh

skip_all() {
	echo "ok 1 # SKIP $1"
	exit 0
}
[ "$(id -u)" -eq 0 ] || skip_all "namespace tests need root (ip netns, veth, tc tbf)"
command -v ip >/dev/null 2>&1 || skip_all "ip (iproute2) not installed"
command -v tc >/dev/null 2>&1 || skip_all "tc (iproute2) not installed"

NSA=bbttcpA$$
NSB=bbttcpB$$
VA=bbva$$
VB=bbvb$$
NET=10.$((200 + $$ % 50)).$(($$ / 50 % 250))
A=$NET.1
B=$NET.2
PIDS=""
cleanup() {
	for p in $PIDS; do
		kill "$p" 2>/dev/null
	done
	ip netns del "$NSA" 2>/dev/null
	ip netns del "$NSB" 2>/dev/null
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

ip netns add "$NSA" 2>/dev/null || skip_all "cannot create network namespaces here"
ip netns add "$NSB" || skip_all "cannot create a second network namespace"
ip link add "$VA" type veth peer name "$VB" || skip_all "cannot create a veth pair"
ip link set "$VA" netns "$NSA" && ip link set "$VB" netns "$NSB" &&
	ip -n "$NSA" addr add "$A/24" dev "$VA" && ip -n "$NSB" addr add "$B/24" dev "$VB" &&
	ip -n "$NSA" link set lo up && ip -n "$NSB" link set lo up &&
	ip -n "$NSA" link set "$VA" up && ip -n "$NSB" link set "$VB" up
tap $? "two namespaces joined by a veth pair ($A <-> $B)"
MTU=$(ip -n "$NSA" -o link show "$VA" | sed -n 's/.* mtu \([0-9]*\) .*/\1/p')

inA() { ip netns exec "$NSA" "$@"; }
inB() { ip netns exec "$NSB" "$@"; }

PORT=$((20000 + $$ % 20000))

# wait_listen NS PORT [udp]: until the receiver in NS listens (at most 5 s).
wait_listen() {
	i=0
	flag=-Hltn
	[ "${3:-}" = udp ] && flag=-Hlun
	while [ $i -lt 50 ]; do
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

# within PCT MEASURED EXPECTED: |measured / expected - 1| <= PCT%
within() {
	awk -v p="$1" -v m="$2" -v e="$3" 'BEGIN { d = m / e - 1; if (d < 0) d = -d;
		exit !(e > 0 && d <= p / 100) }'
}

shape() {  # RATE_MBIT
	tc -n "$NSA" qdisc replace dev "$VA" root tbf rate "${1}mbit" burst 256kb latency 20ms
}

# ---- TCP goodput on a shaped link ----
tcp_shaped() {  # RATE_MBIT EXTRA_SENDER_OPTIONS
	rate=$1
	shift
	PORT=$((PORT + 1))
	shape "$rate"
	tap $? "tc tbf shapes $VA to $rate Mbit/s"
	rx tcp$rate $BB ttcp -r -s -p $PORT --accept-timeout 20 --idle-timeout 10 \
		--json "$TMPD/rx$rate.json"
	wait_listen "$NSB" $PORT
	inA timeout 60 $BB ttcp -t -s --time 5 -p $PORT "$@" --json "$TMPD/tx$rate.json" "$B" \
		>"$TMPD/tx$rate.out" 2>&1
	tap $? "ttcp -t --time 5 at $rate Mbit/s exits 0"
	wait "$RXPID"
	tap $? "the receiver exits 0"
	mss=$(jnum "$TMPD/tx$rate.json" stream0 mss_bytes)
	[ -n "$mss" ] || mss=$((MTU - 52))
	# tbf counts whole frames: payload + TCP (with timestamps) + IP + Ethernet.
	allowed=$(awk -v r="$rate" -v m="$mss" -v mtu="$MTU" 'BEGIN { printf "%.0f", r * 1e6 * m / (mtu + 14) }')
	got=$(jnum "$TMPD/rx$rate.json" total bits_per_s)
	acked=$(jnum "$TMPD/tx$rate.json" total acked_bits_per_s)
	echo "# $rate Mbit/s: allowed goodput $allowed bit/s (mss $mss, mtu $MTU);" \
		"receiver measured $got, sender (until acked) $acked"
	within 5 "$got" "$allowed"
	tap $? "$rate Mbit/s: the receiver's goodput is within 5% of $allowed bit/s ($got)"
	within 5 "$acked" "$allowed"
	tap $? "$rate Mbit/s: the sender's goodput until acknowledged is within 5% ($acked)"
	grep -q "^ttcp-t: [0-9]* bytes in [0-9.]* real seconds = " "$TMPD/tx$rate.out"
	tap $? "$rate Mbit/s: the classic lines are printed"
}
tcp_shaped 100 --bind "$A%$VA" --interval 1
grep -q '^ttcp-t: \[  0\]    4\.00-   5\.00 sec ' "$TMPD/tx100.out"
tap $? "100 Mbit/s: --interval 1 gives five periodic lines"
tcp_shaped 400

# ---- UDP on a 100 Mbit/s link ----
udp_run() {  # NAME RATE
	PORT=$((PORT + 1))
	rx "$1" $BB ttcp -r -u -s -p $PORT --accept-timeout 20 --idle-timeout 10 \
		--json "$TMPD/$1.json"
	wait_listen "$NSB" $PORT udp
	inA timeout 60 $BB ttcp -t -u -s -l 1400 --time 3 --rate "$2" -p $PORT "$B" \
		>"$TMPD/$1.tx" 2>&1
	tap $? "ttcp -t -u --rate $2 over 100 Mbit/s exits 0"
	wait "$RXPID"
	tap $? "the UDP receiver exits 0"
	UGOT=$(jnum "$TMPD/$1.json" total bits_per_s)
	ULOSS=$(jnum "$TMPD/$1.json" total udp_loss_fraction)
	echo "# UDP --rate $2 on 100 Mbit/s: received $UGOT bit/s, loss fraction $ULOSS"
}
# The link carries 100 Mbit/s of frames: 1400 bytes in 1400 + 8 + 20 + 14.
cap=$(awk 'BEGIN { printf "%.0f", 100e6 * 1400 / 1442 }')
shape 100
udp_run udp50 50M
within 5 "$UGOT" 50000000
tap $? "UDP at 50 Mbit/s under a 100 Mbit/s link: received within 5% of 50 Mbit/s ($UGOT)"
awk -v l="$ULOSS" 'BEGIN { exit !(l < 0.01) }'
tap $? "UDP at 50 Mbit/s: less than 1% lost ($ULOSS)"
# Shaped at the sender's own interface with a queue longer than the
# socket's send buffer, the sender blocks and is held to the link rate:
# nothing is lost, and the sender's own figure says so.
udp_run udp200 200M
within 5 "$UGOT" "$cap"
tap $? "UDP at 200 Mbit/s into the sender's 100 Mbit/s queue: received within 5% of $cap ($UGOT)"
sent=$(sed -n 's/^ttcp-t: SI: [0-9]* bytes in [0-9.]* s = \([0-9.]*\) Mbit\/s.*/\1/p' "$TMPD/udp200.tx")
within 5 "$sent" "$(awk -v c="$cap" 'BEGIN { print c / 1e6 }')"
tap $? "... the sender, held back by its socket buffer, reports the link rate ($sent Mbit/s)"
# Shaped at the receiver's side (ingress through an ifb device) with a
# queue shorter than the sender's socket buffer, the excess is dropped
# where the sender cannot see it: the receiver counts it lost.
IFB=bbfb$$
tc -n "$NSA" qdisc del dev "$VA" root
ip -n "$NSB" link add "$IFB" type ifb && ip -n "$NSB" link set "$IFB" up &&
	tc -n "$NSB" qdisc add dev "$VB" ingress &&
	tc -n "$NSB" filter add dev "$VB" parent ffff: protocol all u32 match u32 0 0 \
		action mirred egress redirect dev "$IFB" &&
	tc -n "$NSB" qdisc add dev "$IFB" root tbf rate 100mbit burst 16kb latency 5ms
if [ $? -eq 0 ]; then
	udp_run udploss 200M
	# A busy machine may drain the short queue late: at most the link's
	# rate arrives, and most of it.
	awk -v g="$UGOT" -v c="$cap" 'BEGIN { exit !(g <= 1.05 * c && g >= 0.8 * c) }'
	tap $? "UDP at 200 Mbit/s into a 100 Mbit/s link: received at most the link's $cap bit/s, and 80% of it ($UGOT)"
	sent=$(sed -n 's/^ttcp-t: \([0-9]*\) bytes in .*/\1/p' "$TMPD/udploss.tx")
	jq -e --argjson sent "${sent:-0}" '.results[0].series[] | select(.variant == "total") |
		.values.udp_datagrams + .values.udp_lost == $sent / 1400 and
		.values.udp_expected == $sent / 1400' "$TMPD/udploss.json" >/dev/null
	tap $? "... received + lost = the $((${sent:-0} / 1400)) datagrams the sender sent"
	awk -v l="$ULOSS" 'BEGIN { exit !(l >= 0.4 && l <= 0.6) }'
	tap $? "... and about half of them counted lost ($ULOSS)"
	tc -n "$NSB" qdisc del dev "$VB" ingress
else
	tap 0 "# SKIP no ifb/mirred here: loss on the far side of a link"
fi

# ---- an unreachable peer ----
ip -n "$NSA" neigh replace "$NET.9" lladdr 02:00:00:00:00:09 dev "$VA" nud permanent
t0=$(date +%s)
expect_exit 1 "a peer that never answers: exit 1" -- \
	inA timeout 30 $BB ttcp -t -s --connect-timeout 2 -p $PORT "$NET.9"
t1=$(date +%s)
grep -q "port $PORT: no answer (timed out)" "$TMPD/err"
tap $? "... one line saying the connection timed out"
[ $((t1 - t0)) -ge 2 ] && [ $((t1 - t0)) -le 5 ]
tap $? "... after --connect-timeout 2 ($((t1 - t0)) s)"
ip -n "$NSA" route add unreachable 10.254.0.0/16
expect_exit 1 "no route to the peer: exit 1" -- \
	inA timeout 30 $BB ttcp -t -s --connect-timeout 5 -p $PORT 10.254.1.1
grep -q "No route to host\|Network is unreachable" "$TMPD/err"
tap $? "... one line saying there is no route"

# ---- the link goes down in the middle ----
PORT=$((PORT + 1))
rx down $BB ttcp -r -s -p $PORT --accept-timeout 20 --idle-timeout 2
wait_listen "$NSB" $PORT
inA $BB ttcp -t -s --time 30 --idle-timeout 2 -p $PORT "$B" >"$TMPD/down.tx" 2>&1 &
TXP=$!
PIDS="$PIDS $TXP"
sleep 1
ip -n "$NSB" link set "$VB" down
t0=$(date +%s)
wait "$TXP"
[ $? -eq 1 ]
tap $? "the link goes down: the sender exits 1"
grep -q '^ttcp-t: INCOMPLETE: stream 0: stalled' "$TMPD/down.tx"
tap $? "... its report is marked INCOMPLETE, stalled"
wait "$RXPID"
[ $? -eq 1 ] && grep -q '^ttcp-r: INCOMPLETE: stream 0: stalled' "$TMPD/down.out"
tap $? "... and so is the receiver's, which exits 1"
[ $(($(date +%s) - t0)) -le 8 ]
tap $? "... both within a few seconds of --idle-timeout 2"
