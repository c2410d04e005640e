# tests/integration/netns_lib.sh - what the network-namespace tests share,
# sourced after lib.sh: one skipped TAP test where namespaces, veth pairs or
# tc are not available; background processes (PIDS) killed and the
# namespaces made (NETNS) deleted on exit, whatever happened; and
# netns_pair, which makes two namespaces joined by a veth pair.

skip_all() {
	echo "ok 1 # SKIP $1"
	exit 0
}
[ "$(id -u)" -eq 0 ] || skip_all "namespace tests need root (ip netns, veth, tc tbf)"
command -v ip >/dev/null 2>&1 || skip_all "ip (iproute2) not installed"
command -v tc >/dev/null 2>&1 || skip_all "tc (iproute2) not installed"

PIDS=""
NETNS=""
cleanup() {
	for p in $PIDS; do
		kill "$p" 2>/dev/null
	done
	for ns in $NETNS; do
		ip netns del "$ns" 2>/dev/null
	done
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# netns_pair NS1 NS2 DEV1 DEV2 ADDR1 ADDR2: namespaces NS1 and NS2 joined
# by the veth pair DEV1 (in NS1, ADDR1/24) and DEV2 (in NS2, ADDR2/24),
# every link up; skips the whole test when the namespaces or the pair
# cannot be made, else returns the status of setting them up.  No IPv6 on
# the link: router solicitations and MLD reports would share the shaped
# queues with the traffic the tests count.
netns_pair() {
	ip netns add "$1" 2>/dev/null || skip_all "cannot create network namespaces here"
	NETNS="$NETNS $1"
	ip netns add "$2" 2>/dev/null || skip_all "cannot create a second network namespace"
	NETNS="$NETNS $2"
	ip link add "$3" type veth peer name "$4" 2>/dev/null || skip_all "cannot create a veth pair"
	for ns in "$1" "$2"; do
		ip netns exec "$ns" sh -c 'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6;
			echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6' 2>/dev/null
	done
	ip link set "$3" netns "$1" && ip link set "$4" netns "$2" &&
		ip -n "$1" addr add "$5/24" dev "$3" && ip -n "$2" addr add "$6/24" dev "$4" &&
		ip -n "$1" link set lo up && ip -n "$2" link set lo up &&
		ip -n "$1" link set "$3" up && ip -n "$2" link set "$4" up
}
