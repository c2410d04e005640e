#!/bin/bash
# bench/udp_interop.sh - UDP between boardbench and the real iperf 2, both
# ways, and UDP loss through a shaped link; printed as a markdown section
# for docs/benchmarks/udp.md.  tests/integration/test_udp_iperf2.sh asserts what
# holds at any speed; this measures.
#
# Loopback, 1470-byte datagrams, SECONDS each, at 10, 100 and 1000 Mbit/s
# (SI: iperf -b 10000000 ..., boardbench --rate 10M ...), ROUNDS times:
#   c2b   iperf -c -u  ->  boardbench ttcp -r -u -s
#   b2i   boardbench ttcp -t -u -s --iperf2  ->  iperf -s -u
# Each row gives both tools' byte counts (the sender's and the receiver's),
# the receiver's lost/total, loss and jitter, and the figures the other end
# printed of the receiver's report (they must be the same numbers).
#
# Shaped (root, iproute2, an ifb device): two network namespaces joined by
# a veth pair, B's ingress redirected through an ifb device shaped by tbf
# rate 100mbit, and boardbench UDP at payload rates above it (--rate 150M
# and 200M).  tbf counts whole frames: a 1470-byte datagram is 1512 bytes
# there (+ 28 IP/UDP, + 14 Ethernet), so the loss to expect is
# 1 - 100 Mbit/s / (offered x 1512 / 1470), offered being the rate the
# sender measured (its bits_per_s); each row says whether the loss measured
# is within 2 points of it.
#
# Usage: bench/udp_interop.sh [-r ROUNDS] [-t SECONDS] [-k DIR] [-n]
#   -r ROUNDS   rounds of every case (default 2)
#   -t SECONDS  length of each transfer (default 3)
#   -k DIR      keep every raw output in DIR
#   -n          no shaped part (no root needed)
# Environment: BB (boardbench binary; default ./boardbench at the top of
# the tree).  Needs iperf (2.x), jq; the shaped part root, ip, tc and ifb.
# Markdown goes to stdout; progress to stderr.
set -eu

prog=udp_interop.sh
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

rounds=2
secs=3
keep=
shaped=1
while getopts ":r:t:k:nh" opt; do
	case $opt in
	r) need_count -r "$OPTARG" round 1 100; rounds=$OPTARG ;;
	t) need_count -t "$OPTARG" second 1 600; secs=$OPTARG ;;
	k) [ -n "$OPTARG" ] || bad "-k: expected a directory"; keep=$OPTARG ;;
	n) shaped=0 ;;
	h) usage; exit 0 ;;
	:) bad "-$OPTARG: expected a value" ;;
	*) bad "-$OPTARG: no such option (see -h)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || bad "$1: unexpected argument (see -h)"
iperf -v 2>&1 | grep -q 'iperf version 2' || die "iperf 2 is needed (Debian: iperf)"
need_boardbench
make_work "$keep"

PORT=$(sh "$top/tests/port_base.sh" $$)
NSA=bbuA$$
NSB=bbuB$$
VA=bbua$$
VB=bbub$$
IFB=bbuf$$
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	if [ "$shaped" -eq 1 ]; then
		ip netns del "$NSA" 2>/dev/null || true
		ip netns del "$NSB" 2>/dev/null || true
	fi
	[ -n "$keep" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

jtot() {  # FILE KEY: a value of the transfer total
	jq -r ".results[0].series[] | select(.name == \"transfer\" and .variant == \"total\") |
	       .values.$2 // empty" "$1"
}

wait_line() {  # REGEX FILE: until a line matches (at most 30 s)
	local i
	for ((i = 0; i < 300; i++)); do
		grep -q -- "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# iperf's report line of an interval starting at 0: bytes, jitter ms, lost/total.
iperf_line() {  # FILE [the Nth such line]
	grep -E '0\.0+-[0-9.]+ sec +[0-9]+ Bytes' "$1" | sed -n "${2:-1}p"
}
iperf_bytes() { sed -n 's/.* sec *\([0-9]*\) Bytes.*/\1/p'; }
iperf_jitter() { sed -n 's/.* \([0-9.]*\) ms .*/\1/p'; }
iperf_lt() { sed -n 's/.* \([0-9-]*\/ *[0-9]*\) (.*/\1/p' | tr -d ' '; }

# c2b RATE ROUND: iperf -c -u into our receiver.
c2b() {
	local r=$1 n=$2 out=$work/c2b.$1.$2
	PORT=$((PORT + 1))
	"$BB" ttcp -r -u -s -4 -p "$PORT" --accept-timeout 20 --idle-timeout 10 \
		--json "$out.json" >"$out.rx" 2>&1 &
	pids+=($!)
	wait_line '^ttcp-r: buflen=' "$out.rx" || die "c2b: the receiver did not start"
	timeout $((secs + 30)) iperf -c 127.0.0.1 -p "$PORT" -u -f b -l 1470 -b "$r" -t "$secs" \
		>"$out.cl" 2>&1 || die "c2b: iperf -c failed: see $out.cl"
	wait "${pids[-1]}" || say "c2b $r: the receiver was incomplete: see $out.rx"
	local cl sr lost exp
	cl=$(iperf_line "$out.cl" 1)
	sr=$(iperf_line "$out.cl" 2)
	lost=$(jtot "$out.json" udp_lost)
	exp=$(jtot "$out.json" udp_expected)
	echo "c2b $r $n $(echo "$cl" | iperf_bytes) $(jtot "$out.json" bytes) $lost/$exp" \
		"$(jtot "$out.json" udp_loss_fraction) $(jtot "$out.json" udp_jitter_s)" \
		"$(echo "$sr" | iperf_lt) $(echo "$sr" | iperf_jitter)" >>"$work/figures.txt"
}

# b2i RATE ROUND: our --iperf2 sender into iperf -s -u.
b2i() {
	local r=$1 n=$2 out=$work/b2i.$1.$2 srv sl
	PORT=$((PORT + 1))
	timeout $((secs + 60)) iperf -s -u -f b -p "$PORT" >"$out.srv" 2>&1 &
	srv=$!
	pids+=("$srv")
	wait_line "Server listening on UDP port $PORT" "$out.srv" || die "b2i: iperf -s did not start"
	timeout $((secs + 30)) "$BB" ttcp -t -u -s -4 --iperf2 -l 1470 --time "$secs" \
		--rate "$((r / 1000000))M" -p "$PORT" --json "$out.json" 127.0.0.1 >"$out.tx" 2>&1 ||
		say "b2i $r: the sender was incomplete: see $out.tx"
	wait_line ' ms .*/.*(' "$out.srv" || die "b2i: iperf -s printed no report: see $out.srv"
	kill "$srv" 2>/dev/null || true
	sl=$(iperf_line "$out.srv" 1)
	local sdg slost sb
	sdg=$(jtot "$out.json" server_datagrams)
	slost=$(jtot "$out.json" server_lost)
	sb=$(echo "$sl" | iperf_bytes)
	echo "b2i $r $n $(jtot "$out.json" bytes) $sb $(echo "$sl" | iperf_lt)" \
		"$(awk -v l="$(echo "$sl" | iperf_lt)" 'BEGIN { split(l, a, "/"); printf "%.6f", a[2] ? a[1] / a[2] : 0 }')" \
		"$(awk -v j="$(echo "$sl" | iperf_jitter)" 'BEGIN { printf "%.6f", j / 1000 }')" \
		"$slost/$sdg $(awk -v j="$(jtot "$out.json" server_jitter_s)" 'BEGIN { printf "%.3f", j * 1000 }')" \
		>>"$work/figures.txt"
}

: >"$work/figures.txt"
rates=(10000000 100000000 1000000000)
say "loopback: ${#rates[@]} rates x 2 directions x $rounds rounds of $secs s; raw outputs in $work"
for ((n = 1; n <= rounds; n++)); do
	for r in "${rates[@]}"; do
		c2b "$r" "$n"
		b2i "$r" "$n"
	done
done

# ---- shaped ----
shaped_rows() {
	local shaped_mbit=100 off n out rx
	ip netns add "$NSA" && ip netns add "$NSB" || die "cannot create network namespaces"
	ip link add "$VA" type veth peer name "$VB" || die "cannot create a veth pair"
	{ ip link set "$VA" netns "$NSA" && ip link set "$VB" netns "$NSB" &&
		ip -n "$NSA" addr add 10.77.$(($$ % 250)).1/24 dev "$VA" &&
		ip -n "$NSB" addr add 10.77.$(($$ % 250)).2/24 dev "$VB" &&
		ip -n "$NSA" link set lo up && ip -n "$NSB" link set lo up &&
		ip -n "$NSA" link set "$VA" up && ip -n "$NSB" link set "$VB" up &&
		ip -n "$NSB" link add "$IFB" type ifb && ip -n "$NSB" link set "$IFB" up &&
		tc -n "$NSB" qdisc add dev "$VB" ingress &&
		tc -n "$NSB" filter add dev "$VB" parent ffff: protocol ip u32 match ip protocol 17 0xff \
			action mirred egress redirect dev "$IFB" &&
		tc -n "$NSB" qdisc add dev "$IFB" root tbf rate "${shaped_mbit}mbit" burst 16384 \
			limit $((shaped_mbit * 1000000 / 8 / 200 + 16384)); } ||
		die "cannot set up the shaped link (root, iproute2 and ifb needed)"
	for ((n = 1; n <= rounds; n++)); do
		for off in 150 200; do
			out=$work/tbf.$off.$n
			PORT=$((PORT + 1))
			ip netns exec "$NSB" "$BB" ttcp -r -u -s -p "$PORT" --accept-timeout 20 \
				--idle-timeout 10 --json "$out.json" >"$out.rx" 2>&1 &
			rx=$!
			pids+=("$rx")
			wait_line '^ttcp-r: buflen=' "$out.rx" || die "tbf: the receiver did not start"
			ip netns exec "$NSA" timeout $((secs + 30)) "$BB" ttcp -t -u -s -l 1470 \
				--time "$secs" --rate "${off}M" -p "$PORT" --json "$out.tx.json" \
				"10.77.$(($$ % 250)).2" >"$out.tx" 2>&1 || say "tbf $off: the sender was incomplete: see $out.tx"
			wait "$rx" || say "tbf $off: the receiver was incomplete: see $out.rx"
			echo "tbf $off $n $(jtot "$out.json" udp_loss_fraction) $shaped_mbit" \
				"$(jtot "$out.tx.json" bits_per_s)" >>"$work/figures.txt"
		done
	done
}
if [ "$shaped" -eq 1 ]; then
	if [ "$(id -u)" -eq 0 ] && command -v tc >/dev/null; then
		say "shaped: tbf 100mbit, offered 150M and 200M x $rounds rounds of $secs s"
		shaped_rows
	else
		say "shaped part left out: needs root and tc"
		shaped=0
	fi
fi

# ---- the section ----
med() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
	else printf "%.6g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
machine_head
echo
echo "Loopback, 1470-byte datagrams, $secs s, $rounds rounds (each row one run;"
echo "Mbit/s are SI).  Bytes: what the sender sent and the receiver counted (both"
echo "count iperf's final datagram, which carries data)."
echo
echo "| direction | rate | round | sender bytes | receiver bytes | lost/total | loss | jitter ms | the other end printed |"
echo "|---|---|---|---|---|---|---|---|---|"
while read -r kind r n a b lt loss jit plt pjit; do
	[ "$kind" = tbf ] && continue
	if [ "$kind" = c2b ]; then
		dir="iperf -c -> boardbench"
		jms=$(awk -v j="$jit" 'BEGIN { printf "%.3f", j * 1000 }')
		other="iperf: $plt, $pjit ms"
	else
		dir="boardbench --iperf2 -> iperf -s"
		jms=$(awk -v j="$jit" 'BEGIN { printf "%.3f", j * 1000 }')
		other="boardbench: $plt, $pjit ms"
	fi
	printf '| %s | %s | %s | %s | %s | %s | %.3f%% | %s | %s |\n' "$dir" \
		"$((r / 1000000))M" "$n" "$a" "$b" "$lt" "$(awk -v l="$loss" 'BEGIN { print l * 100 }')" \
		"$jms" "$other"
done <"$work/figures.txt"
if [ "$shaped" -eq 1 ]; then
	echo
	echo "Shaped: netns pair, tbf rate 100mbit on B's ingress (ifb), boardbench UDP -l 1470"
	echo "--time $secs at the offered payload rate; expected loss 1 - 100 / (offered x 1512 / 1470)."
	echo
	echo "| --rate | round | offered (sender measured) | expected loss | measured loss | within 2 points |"
	echo "|---|---|---|---|---|---|"
	awk '$1 == "tbf" { e = 1 - $5 * 1e6 / ($6 * 1512 / 1470); d = $4 - e; if (d < 0) d = -d
		printf "| %sM | %s | %.2f Mbit/s | %.2f%% | %.2f%% | %s |\n", $2, $3, $6 / 1e6,
			e * 100, $4 * 100, d <= 0.02 ? "yes" : "no" }' "$work/figures.txt"
fi
