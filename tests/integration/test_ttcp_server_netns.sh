#!/bin/sh
# tests/integration/test_ttcp_server_netns.sh - `ttcp -r --server` and
# `ttcp --to-server` over a real link in each direction: the server in one
# network namespace, the client in another, joined by a veth pair whose two
# directions are shaped with tc tbf at different rates (server to client
# 40 Mbit/s, client to server 15 Mbit/s).  For a test to the server, -R
# (the server sends) and --bidir (both at once), TCP:
#   - the client exits 0 and both ends call their result complete;
#   - what the sender of each direction wrote is exactly what its receiver
#     counted (the client prints both ends: its own bytes and the server's);
#   - no direction's receiver reports more than its link carries in the
#     time it reports (the tbf bucket, and what may wait unread before the
#     stream's clock starts, allowed for): a direction never gets the
#     other's rate.
# Only what holds at any machine speed is asserted; how close each
# direction comes to its rate is measured by bench/net_shaped.sh.  Needs
# root, ip, tc and jq; elsewhere it skips (one TAP test, skipped).  The
# namespaces carry this shell's pid in their names and are deleted on exit.
. tests/integration/lib.sh
. tests/integration/netns_lib.sh
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

NSS=bbsrvS$$
NSC=bbsrvC$$
VS=bbvs$$
VC=bbvc$$
NET=10.$((200 + ($$ + 17) % 50)).$((($$ + 17) / 50 % 250))
S=$NET.1
C=$NET.2
TO_CLIENT=40           # Mbit/s, tbf at the server's side (server -> client)
TO_SERVER=15           # Mbit/s, tbf at the client's side (client -> server)
BURST=65536            # the tbf bucket, bytes
inS() { ip netns exec "$NSS" "$@"; }
inC() { ip netns exec "$NSC" "$@"; }

netns_pair "$NSS" "$NSC" "$VS" "$VC" "$S" "$C"
tap $? "two namespaces joined by a veth pair (server $S, client $C)"

# shape NS DEV MBIT: tbf on DEV's egress, a queue of 20 ms of the rate beyond the bucket.
shape() {
	tc -n "$1" qdisc replace dev "$2" root tbf rate "${3}mbit" burst $BURST \
		limit $(($3 * 1000000 / 8 / 50 + BURST))
}
shape "$NSS" "$VS" $TO_CLIENT && shape "$NSC" "$VC" $TO_SERVER
tap $? "tbf: $TO_CLIENT Mbit/s server -> client, $TO_SERVER Mbit/s client -> server"
MTU=$(ip -n "$NSS" -o link show "$VS" | sed -n 's/.* mtu \([0-9]*\) .*/\1/p')
FRAME=$((MTU + 14))    # tbf counts whole Ethernet frames
# What a receiver may hold before its stream's clock starts: its initial buffer.
RMEM=$(inS cat /proc/sys/net/ipv4/tcp_rmem 2>/dev/null | awk '{ print $2 }')
[ -n "$RMEM" ] || RMEM=6291456

PORT=$(sh tests/port_base.sh $$)
mkdir "$TMPD/results"
inS timeout 300 "$BB" ttcp -r --server -p "$PORT" --allow "$C/32" --json-dir "$TMPD/results" \
	>"$TMPD/server.out" 2>"$TMPD/server.err" &
PIDS="$PIDS $!"
wait_for "serving on port" "$TMPD/server.err" 20
tap $? "the server serves in its namespace (--allow $C/32)"

# dir JSON ROLE KEY: a value of the client's result whose role is ROLE
# (transmit: client -> server; receive: server -> client): a key of its
# transfer total, or params.KEY when KEY starts with "params.".
dir() {
	case $3 in
	params.*)
		jq -r ".results[] | select(.params.role == \"$2\") | .$3 // empty" "$1" 2>/dev/null ;;
	*)
		jq -r ".results[] | select(.params.role == \"$2\") | .series[] |
		       select(.name == \"transfer\" and .variant == \"total\") | .values.$3 // empty" \
			"$1" 2>/dev/null ;;
	esac
}

# carries MBIT SECONDS EXTRA: the most payload bytes the link lets through
# in SECONDS (full-size segments of mss bytes in frames of FRAME bytes),
# with EXTRA bytes that may have passed outside them; 1% for tbf's clock.
carries() {
	awk -v r="$1" -v t="$2" -v x="$3" -v b=$BURST -v m="$4" -v f=$FRAME 'BEGIN {
		printf "%.0f", 1.01 * (r * 1e6 / 8 * t + b + x) * m / f }'
}

# check_dir NAME ROLE MBIT: one direction of a test: exact bytes, within its link.
check_dir() {
	j=$TMPD/$1.json
	mine=$(dir "$j" "$2" bytes)
	theirs=$(dir "$j" "$2" params.server_bytes)
	[ -n "$mine" ] && [ "$mine" -gt 0 ] && [ "$mine" = "$theirs" ]
	same=$?
	if [ "$2" = transmit ]; then
		tap $same "$1: the client sent $mine bytes, the server received $theirs"
		got=$theirs
		secs=$(dir "$j" "$2" params.server_real_s)
	else
		tap $same "$1: the server sent $theirs bytes, the client received $mine"
		got=$mine
		secs=$(dir "$j" "$2" real_s)
	fi
	mss=$(jq -r ".results[] | select(.params.role == \"$2\") | .series[] |
		select(.name == \"transfer\" and .variant == \"stream0\") | .values.mss_bytes // empty" \
		"$j" 2>/dev/null)
	[ -n "$mss" ] || mss=$((MTU - 52))
	max=$(carries "$3" "${secs:-0}" "$RMEM" "$mss")
	rate=$(awk -v b="${got:-0}" -v s="${secs:-0}" 'BEGIN { if (s > 0) printf "%.2f", 8 * b / s / 1e6 }')
	echo "# $1 $2: $got bytes in $secs s = $rate Mbit/s on a $3 Mbit/s link"
	awk -v b="${got:-0}" -v m="$max" -v s="${secs:-0}" 'BEGIN { exit !(s > 0 && b <= m) }'
	tap $? "$1 $2: no more than its $3 Mbit/s link carries ($got <= $max bytes in $secs s)"
}

# run NAME ARGS...: one test from the client namespace.
run() {
	name=$1
	shift
	inC timeout 60 "$BB" ttcp --to-server "$S" -p "$PORT" --time 3 "$@" \
		--json "$TMPD/$name.json" >"$TMPD/$name.out" 2>"$TMPD/$name.err"
	rc=$?
	if [ $rc -eq 0 ] && [ "$(grep -c 'server process .* complete$' "$TMPD/$name.out")" -ge 1 ]; then
		tap 0 "$name: exits 0, both ends complete"
	else
		tap 1 "$name: exits 0, both ends complete (rc $rc)"
		sed 's/^/#   /' "$TMPD/$name.out" "$TMPD/$name.err" | tail -8
	fi
}

run forward
check_dir forward transmit $TO_SERVER
run reverse -R
check_dir reverse receive $TO_CLIENT
run bidir --bidir
check_dir bidir transmit $TO_SERVER
check_dir bidir receive $TO_CLIENT

wait_for "bb-tcp-bidir .* complete$" "$TMPD/server.out" 10
n=$(grep -c ' complete$' "$TMPD/server.out")
files=$(find "$TMPD/results" -name '*.json' | wc -l)
[ "$n" -eq 3 ] && [ "$files" -eq 3 ]
tap $? "the server logged 3 complete tests and wrote 3 results files ($n, $files)"
