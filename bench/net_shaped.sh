#!/bin/bash
# bench/net_shaped.sh - how close `boardbench ttcp` comes to what a shaped
# link allows, measured on this machine, and printed as a markdown section
# for docs/benchmarks/ttcp.md.  tests/integration/test_ttcp_netns.sh asserts only
# what holds at any speed; this measures the speed.
#
# It makes two network namespaces joined by a veth pair (private addresses
# 10.x.y.1 and .2, names carrying this shell's pid; all deleted on exit)
# and runs, ROUNDS times round-robin (the first case rotating every round):
#
#   tcp100   TCP, --time SECONDS, A's side shaped by tc tbf rate 100mbit
#   tcp400   the same through tbf rate 400mbit
#   udp50    UDP -l 1400 --rate 50M through tbf rate 100mbit at A
#   udp200   UDP -l 1400 --rate 200M through tbf rate 100mbit at A (the
#            sender is held back by its socket buffer)
#   udpifb   UDP -l 1400 --rate 200M through tbf rate 100mbit on B's side
#            (ingress redirected through an ifb device: the excess is lost)
#   srvfwd   `ttcp -r --server` in B, `ttcp --to-server --time SECONDS` from
#            A; each direction shaped at its sender: A -> B (client to
#            server) tbf rate 15mbit, B -> A (server to client) 40mbit
#   srvrev   the same with -R: the server sends (40 Mbit/s)
#   srvbidir the same with --bidir: both at once, each on its own link
#            (two rows: client to server, server to client)
#
# Every tbf has a 256 KiB bucket and a queue of 20 ms of its rate beyond it
# (5 ms and a 16 KiB bucket on the ifb).  "allowed" is the payload the link
# carries: TCP rate x MSS / (MTU + 14), as tbf counts whole Ethernet frames;
# UDP into the link rate x 1400 / 1442; UDP at 50M, 50 Mbit/s (below the
# link).  "got" is what the receiver counted (its --json total
# bits_per_s; for the server's cases the client's figure when it received,
# the server's, as the client prints it, when it sent); TCP rows also give
# the sender's figure until every byte was acknowledged.  The section gives the median, lowest and highest of
# got / allowed over the rounds, and the median fraction of datagrams lost.
#
# Usage: bench/net_shaped.sh [-r ROUNDS] [-t SECONDS] [-k DIR]
#   -r ROUNDS   rounds of every case (default 3)
#   -t SECONDS  length of each transfer (default 5)
#   -k DIR      keep every raw output in DIR (default: a temporary
#               directory, removed at the end)
# Environment: BB (boardbench binary; default ./boardbench at the top of
# the tree, built with make when missing).  Needs root, ip and tc
# (iproute2), ss, jq, the ifb module for udpifb (left out when missing).
# Markdown goes to stdout; progress to stderr.
set -eu

prog=net_shaped.sh
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

rounds=3
secs=5
keep=
while getopts ":r:t:k:h" opt; do
	case $opt in
	r) need_count -r "$OPTARG" round 1 100; rounds=$OPTARG ;;
	t) need_count -t "$OPTARG" second 1 600; secs=$OPTARG ;;
	k) [ -n "$OPTARG" ] || bad "-k: expected a directory"; keep=$OPTARG ;;
	h) usage; exit 0 ;;
	:) bad "-$OPTARG: expected a value" ;;
	*) bad "-$OPTARG: no such option (see -h)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || bad "$1: unexpected argument (see -h)"

[ "$(id -u)" -eq 0 ] || die "needs root: it makes network namespaces, a veth pair and tc qdiscs"
for t in ip tc ss; do
	command -v "$t" >/dev/null || die "$t (iproute2) is needed"
done
need_boardbench
make_work "$keep"

NSA=bbnsA$$
NSB=bbnsB$$
VA=bbsa$$
VB=bbsb$$
IFB=bbsf$$
NET=10.$((200 + $$ % 50)).$(($$ / 50 % 250))
A=$NET.1
B=$NET.2
PORT=$(sh "$top/tests/port_base.sh" $$)
BURST=262144
rx_pid=
cleanup() {
	if [ -n "$rx_pid" ]; then
		kill "$rx_pid" 2>/dev/null || true
	fi
	ip netns del "$NSA" 2>/dev/null || true
	ip netns del "$NSB" 2>/dev/null || true
	[ -n "$keep" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

inA() { ip netns exec "$NSA" "$@"; }
inB() { ip netns exec "$NSB" "$@"; }

# ---- the link ----
ip netns add "$NSA" || die "cannot create network namespace $NSA"
ip netns add "$NSB" || die "cannot create network namespace $NSB"
ip link add "$VA" type veth peer name "$VB" || die "cannot create a veth pair"
for ns in "$NSA" "$NSB"; do   # no IPv6 chatter in the shaped queues
	ip netns exec "$ns" sh -c 'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6;
		echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6' 2>/dev/null || true
done
{ ip link set "$VA" netns "$NSA" && ip link set "$VB" netns "$NSB" &&
	ip -n "$NSA" addr add "$A/24" dev "$VA" && ip -n "$NSB" addr add "$B/24" dev "$VB" &&
	ip -n "$NSA" link set lo up && ip -n "$NSB" link set lo up &&
	ip -n "$NSA" link set "$VA" up && ip -n "$NSB" link set "$VB" up; } ||
	die "cannot set up the veth pair $VA <-> $VB"
mtu=$(ip -n "$NSA" -o link show "$VA" | sed -n 's/.* mtu \([0-9]*\) .*/\1/p')
have_ifb=1
ip -n "$NSB" link add "$IFB" type ifb 2>/dev/null && ip -n "$NSB" link set "$IFB" up || have_ifb=0

# The shaping of one case; every run starts from an unshaped link.
unshape() {
	tc -n "$NSA" qdisc del dev "$VA" root 2>/dev/null || true
	tc -n "$NSB" qdisc del dev "$VB" root 2>/dev/null || true
	tc -n "$NSB" qdisc del dev "$VB" ingress 2>/dev/null || true
	if [ "$have_ifb" -eq 1 ]; then
		tc -n "$NSB" qdisc del dev "$IFB" root 2>/dev/null || true
	fi
}
shape_a() {  # RATE_MBIT: tbf on A's side
	tc -n "$NSA" qdisc add dev "$VA" root tbf rate "${1}mbit" burst $BURST \
		limit $(($1 * 1000000 / 8 / 50 + BURST))
}
shape_b_out() {  # RATE_MBIT: tbf on B's own sending side (B -> A)
	tc -n "$NSB" qdisc add dev "$VB" root tbf rate "${1}mbit" burst $BURST \
		limit $(($1 * 1000000 / 8 / 50 + BURST))
}
shape_b() {  # RATE_MBIT: tbf on B's side, UDP redirected to it through the ifb
	tc -n "$NSB" qdisc add dev "$VB" ingress &&
		tc -n "$NSB" filter add dev "$VB" parent ffff: protocol ip u32 match ip protocol 17 0xff \
			action mirred egress redirect dev "$IFB" &&
		tc -n "$NSB" qdisc add dev "$IFB" root tbf rate "${1}mbit" burst 16384 \
			limit $(($1 * 1000000 / 8 / 200 + 16384))
}

wait_listen() {  # PORT tcp|udp: until the receiver listens (at most 20 s)
	local i flag=-Hltn
	[ "$2" = udp ] && flag=-Hlun
	for ((i = 0; i < 200; i++)); do
		inB ss "$flag" "sport = :$1" 2>/dev/null | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

jnum() {  # FILE KEY: a value of the transfer total
	jq -r ".results[0].series[] | select(.name == \"transfer\" and .variant == \"total\") |
	       .values.$2 // empty" "$1"
}

# allowed_tcp RATE_MBIT MSS: the payload a TCP stream gets through tbf, bit/s
allowed_tcp() {
	awk -v r="$1" -v m="${2:-$((mtu - 52))}" -v f=$((mtu + 14)) \
		'BEGIN { printf "%.0f", r * 1e6 * m / f }'
}

# sdir FILE ROLE KEY: a figure of the --to-server client's result of ROLE
# (transmit: client -> server, receive: server -> client): KEY of its
# transfer total, or params.KEY.
sdir() {
	case $3 in
	params.*) jq -r ".results[] | select(.params.role == \"$2\") | .$3 // empty" "$1" ;;
	*) jq -r ".results[] | select(.params.role == \"$2\") | .series[] |
		select(.name == \"transfer\" and .variant == \"total\") | .values.$3 // empty" "$1" ;;
	esac
}

# run_server CASE ROUND: a test against `ttcp -r --server` in B from A,
# both directions shaped (15 Mbit/s A -> B, 40 B -> A); appends a figures
# line per direction: srvfwd, srvrev, srvbidir.up (client to server),
# srvbidir.down.
run_server() {
	local c=$1 r=$2 out=$work/$1.$2 flag='' up down spid
	unshape
	{ shape_a 15 && shape_b_out 40; } || die "$c: cannot shape the link"
	case $c in srvrev) flag=-R ;; srvbidir) flag=--bidir ;; esac
	PORT=$((PORT + 1))
	inB "$BB" ttcp -r --server -p "$PORT" >"$out.srv.txt" 2>&1 &
	spid=$!
	rx_pid=$spid
	wait_listen "$PORT" tcp || die "$c: the server does not listen"
	# shellcheck disable=SC2086  # flag is one word or none
	inA timeout $((secs + 60)) "$BB" ttcp --to-server "$B" -p "$PORT" --time "$secs" $flag \
		--json "$out.json" >"$out.txt" 2>&1 || die "$c: the client failed: see $out.txt"
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null || true
	rx_pid=
	# client -> server: what the server received, in its time
	up=$(sdir "$out.json" transmit params.server_bytes)
	[ -z "$up" ] || up=$(awk -v b="$up" -v s="$(sdir "$out.json" transmit params.server_real_s)" \
		'BEGIN { if (s > 0) printf "%.0f", 8 * b / s }')
	down=$(sdir "$out.json" receive bits_per_s)
	case $c in
	srvfwd) echo "$c $r ${up:--} $(allowed_tcp 15) $(sdir "$out.json" transmit acked_bits_per_s) -" ;;
	srvrev) echo "$c $r ${down:--} $(allowed_tcp 40) - -" ;;
	srvbidir)
		echo "$c.up $r ${up:--} $(allowed_tcp 15) $(sdir "$out.json" transmit acked_bits_per_s) -"
		echo "$c.down $r ${down:--} $(allowed_tcp 40) - -" ;;
	esac >>"$work/figures.txt"
}

# ---- one run ----
# run_tool CASE ROUND: one transfer; appends "case round got allowed acked
# lost" (bit/s, lost a fraction; "-" where it does not apply) to figures.
run_tool() {
	local c=$1 r=$2 out=$work/$1.$2 proto=tcp rate=100 udprate='' got allowed acked=- lost=- mss
	case $c in srv*) run_server "$c" "$r"; return ;; esac
	unshape
	case $c in
	tcp100) shape_a 100 ;;
	tcp400) rate=400; shape_a 400 ;;
	udp50) proto=udp; udprate=50M; shape_a 100 ;;
	udp200) proto=udp; udprate=200M; shape_a 100 ;;
	udpifb) proto=udp; udprate=200M; shape_b 100 ;;
	esac || die "$c: cannot shape the link"
	PORT=$((PORT + 1))
	if [ $proto = tcp ]; then
		inB "$BB" ttcp -r -s -p "$PORT" --accept-timeout 20 --idle-timeout 10 \
			--json "$out.rx.json" >"$out.rx.txt" 2>&1 &
		rx_pid=$!
		wait_listen "$PORT" tcp || die "$c: the receiver does not listen"
		inA timeout $((secs + 60)) "$BB" ttcp -t -s --time "$secs" -p "$PORT" \
			--json "$out.tx.json" "$B" >"$out.tx.txt" 2>&1 ||
			die "$c: the sender failed: see $out.tx.txt"
	else
		inB "$BB" ttcp -r -u -s -p "$PORT" --accept-timeout 20 --idle-timeout 10 \
			--json "$out.rx.json" >"$out.rx.txt" 2>&1 &
		rx_pid=$!
		wait_listen "$PORT" udp || die "$c: the receiver does not listen"
		inA timeout $((secs + 60)) "$BB" ttcp -t -u -s -l 1400 --time "$secs" \
			--rate "$udprate" -p "$PORT" --json "$out.tx.json" "$B" >"$out.tx.txt" 2>&1 ||
			die "$c: the sender failed: see $out.tx.txt"
	fi
	wait "$rx_pid" || die "$c: the receiver failed: see $out.rx.txt"
	rx_pid=
	got=$(jnum "$out.rx.json" bits_per_s)
	if [ $proto = tcp ]; then
		mss=$(jq -r '.results[0].series[] | select(.name == "transfer" and .variant == "stream0") |
			.values.mss_bytes // empty' "$out.tx.json")
		allowed=$(awk -v r="$rate" -v m="${mss:-$((mtu - 52))}" -v f=$((mtu + 14)) \
			'BEGIN { printf "%.0f", r * 1e6 * m / f }')
		acked=$(jnum "$out.tx.json" acked_bits_per_s)
	else
		lost=$(jnum "$out.rx.json" udp_loss_fraction)
		if [ "$c" = udp50 ]; then
			allowed=50000000
		else
			allowed=$(awk 'BEGIN { printf "%.0f", 100e6 * 1400 / 1442 }')
		fi
	fi
	echo "$c $r ${got:--} $allowed ${acked:--} ${lost:--}" >>"$work/figures.txt"
}

tool_list=(tcp100 tcp400 udp50 udp200)
[ "$have_ifb" -eq 1 ] && tool_list+=(udpifb)
tool_list+=(srvfwd srvrev srvbidir)
say "${#tool_list[@]} cases x $rounds rounds of $secs s; raw outputs in $work"
: >"$work/figures.txt"
run_rounds "$rounds"
unshape

# ---- the section ----
# column N of the figures of case C, divided by column D when given
col() {  # case column [divisor-column]
	awk -v c="$1" -v k="$2" -v d="${3:-0}" '$1 == c && $k != "-" && (d == 0 || $d > 0) {
		print d ? $k / $d : $k }' "$work/figures.txt"
}
row() {  # case label link
	local g a k l
	g=$(col "$1" 3 4 | summary %.3f)
	a=$(col "$1" 4 | summary %.0f | cut -d' ' -f1)
	k=$(col "$1" 5 4 | summary %.3f)
	l=$(col "$1" 6 | awk '{ print 100 * $1 }' | summary %.1f)
	printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$2" "$3" \
		"$(awk -v a="$a" 'BEGIN { printf "%.2f", a / 1e6 }')" \
		"$(echo "$g" | cut -d' ' -f1)" \
		"$(echo "$g" | cut -d' ' -f2)-$(echo "$g" | cut -d' ' -f3)" \
		"$(echo "$k" | awk '$5 > 0 { print $1 " (" $2 "-" $3 ")"; next } { print "-" }')" \
		"$(echo "$l" | awk '$5 > 0 { print $1 "%" " (" $2 "-" $3 "%)"; next } { print "-" }')" \
		"$(echo "$g" | cut -d' ' -f5)"
}

machine_head
machine_load "$rounds"
echo "- link: veth, MTU $mtu; $secs s per transfer; $("$BB" --version | head -n1)"
echo
echo '```sh'
echo "bench/net_shaped.sh -r $rounds -t $secs   # as root"
echo '```'
echo
echo "got / allowed: what the receiver counted over what the link carries (median, lowest-highest);"
echo "TCP's sender column: the sender's figure until every byte was acknowledged, over allowed."
echo
echo "| case | link | allowed, Mbit/s | got / allowed | lowest-highest | sender until acked / allowed | lost | rounds |"
echo "|---|---|---|---|---|---|---|---|"
row tcp100 "TCP" "tbf 100 Mbit/s at the sender"
row tcp400 "TCP" "tbf 400 Mbit/s at the sender"
row udp50 "UDP --rate 50M -l 1400" "tbf 100 Mbit/s at the sender"
row udp200 "UDP --rate 200M -l 1400" "tbf 100 Mbit/s at the sender"
if [ "$have_ifb" -eq 1 ]; then
	row udpifb "UDP --rate 200M -l 1400" "tbf 100 Mbit/s at the receiver (ifb)"
else
	echo "| UDP --rate 200M -l 1400 | tbf at the receiver | - | - | - | - | - | no ifb device here |"
fi
row srvfwd "server: client -> server" "tbf 15 Mbit/s at the client (40 back)"
row srvrev "server -R: server -> client" "tbf 40 Mbit/s at the server (15 back)"
row srvbidir.up "server --bidir: client -> server" "tbf 15 Mbit/s at the client"
row srvbidir.down "server --bidir: server -> client" "tbf 40 Mbit/s at the server"
echo
echo "Every round (got / allowed):"
echo
echo "| case | rounds |"
echo "|---|---|"
cases=()
for c in "${tool_list[@]}"; do
	if [ "$c" = srvbidir ]; then cases+=(srvbidir.up srvbidir.down); else cases+=("$c"); fi
done
for c in "${cases[@]}"; do
	echo "| $c | $(col "$c" 3 4 | awk '{ printf "%s%.3f", (NR > 1 ? ", " : ""), $1 }') |"
done
