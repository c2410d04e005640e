#!/bin/bash
# bench/sockbuf_cap.sh - a capped receive buffer, found and named: the
# `iperf -c HOST -l 2m -w 256k` story, where net.core.rmem_max = 131071
# silently capped the window, replayed on loopback and printed as a
# markdown section for docs/benchmarks/ttcp.md.
#
# ROUNDS times, alternating (the first case rotating every round), a loopback
# `boardbench ttcp` pair with `-l 2m -b 256k --time SECONDS`, both ends
# writing --json with a label rmem=CASE:
#
#   open     net.core.rmem_max = 4194304 (256 KiB is granted)
#   capped   net.core.rmem_max = 131071  (the kernel grants 131071)
#
# then `boardbench compare open -- capped` over the receivers' files.  The
# section quotes what the receiver warned, what its JSON recorded (asked and
# granted), compare's summary line for ttcp and its "A and B differ in"
# lines.  net.core.rmem_max is restored on every exit.
#
# Usage: bench/sockbuf_cap.sh [-r ROUNDS] [-t SECONDS] [-k DIR]
#   -r ROUNDS   rounds of both cases (default 5)
#   -t SECONDS  length of each transfer (default 3)
#   -k DIR      keep every raw output in DIR (default: a temporary
#               directory, removed at the end)
# Environment: BB (boardbench binary; default ./boardbench at the top of
# the tree, built with make when missing).  Needs root (it writes a sysctl),
# ss and jq.  Markdown goes to stdout; progress to stderr.
set -eu

prog=sockbuf_cap.sh
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

rounds=5
secs=3
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

SYSCTL=/proc/sys/net/core/rmem_max
[ "$(id -u)" -eq 0 ] && [ -w "$SYSCTL" ] || die "needs root and a writable $SYSCTL"
command -v ss >/dev/null || die "ss (iproute2) is needed"
need_boardbench
make_work "$keep"

# The same lock as tests/integration/test_sockbuf.sh: never two at once
# saving each other's lowered value.
exec 9>/tmp/boardbench-test-sockbuf.lock
command -v flock >/dev/null && flock 9
saved=$(cat "$SYSCTL")
PORT=$(sh "$top/tests/port_base.sh" $$)
rx_pid=
restore() {
	[ -z "$rx_pid" ] || kill "$rx_pid" 2>/dev/null || true
	echo "$saved" >"$SYSCTL"
	[ -n "$keep" ] || rm -rf "$work"
}
trap restore EXIT
trap 'exit 1' INT TERM

wait_listen() {  # port
	local i
	for ((i = 0; i < 200; i++)); do
		ss -Hltn "sport = :$1" 2>/dev/null | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

# One loopback transfer of a case; the receiver's JSON is the one compared
# (its window is the one the sysctl caps).
run_tool() {  # case round
	local dir=$work/$1 cap
	mkdir -p "$dir"
	case $1 in
	open) cap=4194304 ;;
	capped) cap=131071 ;;
	esac
	echo "$cap" >"$SYSCTL"
	PORT=$((PORT + 1))
	"$BB" ttcp -r -s -l 2m -b 256k -p "$PORT" --accept-timeout 30 --idle-timeout 30 \
		--label "rmem=$1" --json "$dir/rx-$2.json" >"$dir/rx-$2.out" 2>"$dir/rx-$2.err" &
	rx_pid=$!
	wait_listen "$PORT" || die "the receiver did not listen on $PORT"
	"$BB" ttcp -t -s -l 2m -b 256k --time "$secs" -p "$PORT" --label "rmem=$1" \
		--json "$dir/tx-$2.json" 127.0.0.1 >"$dir/tx-$2.out" 2>"$dir/tx-$2.err" ||
		die "the sender failed: $(head -n1 "$dir/tx-$2.err")"
	wait "$rx_pid" || die "the receiver failed: $(head -n1 "$dir/rx-$2.err")"
	rx_pid=
	echo "$saved" >"$SYSCTL"
}

tool_list=(open capped)
run_rounds "$rounds"

mkdir -p "$work/cmp/open" "$work/cmp/capped"
cp "$work"/open/rx-*.json "$work/cmp/open/"
cp "$work"/capped/rx-*.json "$work/cmp/capped/"
"$BB" compare "$work/cmp/open" -- "$work/cmp/capped" >"$work/compare.txt" 2>&1 ||
	die "compare failed: $(tail -n1 "$work/compare.txt")"

machine_head
machine_load "$rounds"
echo
echo "Command: \`bench/sockbuf_cap.sh -r $rounds -t $secs\` (as root)."
echo
echo "The capped receiver's warning (round 1):"
echo
echo '```'
grep -i "warning" "$work/capped/rx-1.err" | head -n 2 || echo "(no warning: a bug)"
echo '```'
echo
echo "What its JSON recorded (ttcp params, round 1), open and capped:"
echo
echo '```'
for c in open capped; do
	jq -r --arg c "$c" '.results[0].params as $p | "\($c): sockbuf_requested \($p.sockbuf_requested),
 rcvbuf_granted \($p.rcvbuf_granted), sockbuf_capped_by \($p.sockbuf_capped_by // "-"),
 system net.core.rmem_max \(.system["net.core.rmem_max"] // "-")"' "$work/$c/rx-1.json" | tr -d '\n'
	echo
done
echo '```'
echo
echo "\`boardbench compare open -- capped\` over the receivers' $rounds runs a side:"
echo
echo '```'
sed -n '/^Summary:/,/^$/p' "$work/compare.txt" | grep -E '^(Summary|ttcp)'
sed -n '/^A and B differ in/,/^$/p' "$work/compare.txt"
echo '```'
