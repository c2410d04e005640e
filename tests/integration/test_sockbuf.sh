#!/bin/sh
# tests/integration/test_sockbuf.sh - the iperf report's setup on this very
# machine: net.core.rmem_max set to 131071 silently caps a `-b 256k` window.
# As root (else a SKIP line), over loopback only: sets the sysctl low,
# runs TCP (two streams) and UDP ttcp pairs with -b 256k, and checks the one
# warning line naming net.core.rmem_max, the JSON params (requested and
# granted, the granted value computed from the value set) and the
# net.core.rmem_max in the results' `system`; then raises it and checks a
# second run has no warning.  The saved sysctls are restored on every exit
# path (EXIT, INT, TERM), and the test checks that too: after itself, and
# after a copy of itself that fails and one that is killed.
# Runs of this test serialise on a lock (flock), so that two at once never
# save each other's lowered value.
. tests/integration/lib.sh
. tests/integration/net_lib.sh

RMEM=/proc/sys/net/core/rmem_max
WMEM=/proc/sys/net/core/wmem_max
CAP=131071
REQ=262144
LOCK=/tmp/boardbench-test-sockbuf.lock

skip() {
	echo "ok 1 # SKIP $1"
	exit 0
}

[ "$(id -u)" -eq 0 ] || skip "not root: cannot set net.core.rmem_max"
[ -r "$RMEM" ] && [ -r "$WMEM" ] || skip "no $RMEM"
OLD_R=$(cat "$RMEM")
OLD_W=$(cat "$WMEM")
# Writable (a container's /proc/sys may be read-only even for root)?
{ echo "$OLD_R" >"$RMEM" && echo "$OLD_W" >"$WMEM"; } 2>/dev/null ||
	skip "net.core.rmem_max is not writable here"

restore() {
	echo "$OLD_R" >"$RMEM"
	echo "$OLD_W" >"$WMEM"
}
cleanup_extra() {   # net_lib.sh's cleanup calls it at exit
	restore
}
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- a copy of this script that only lowers the sysctl, then fails or
# waits to be killed: the restore test below runs it ----
case ${SOCKBUF_SELFTEST:-} in
fail)
	echo "$CAP" >"$RMEM"
	exit 1
	;;
hold)
	echo "$CAP" >"$RMEM"
	sleep 60 &
	PIDS="$PIDS $!"
	: >"$SOCKBUF_MARK"
	wait
	exit 0
	;;
esac

if command -v flock >/dev/null 2>&1; then
	exec 9>"$LOCK"
	flock -w 300 9 || skip "another run of this test holds $LOCK"
	# read again: the run before us has restored them now
	OLD_R=$(cat "$RMEM")
	OLD_W=$(cat "$WMEM")
fi

# rx NAME ARGS...: a receiver in the background (output in $TMPD/NAME.out
# and .err), bounded by --accept-timeout and --idle-timeout; pid in RXPID.
rx() {
	name=$1
	shift
	"$@" >"$TMPD/$name.out" 2>"$TMPD/$name.err" &
	RXPID=$!
	PIDS="$PIDS $RXPID"
}

# param FILE KEY: the JSON line '"KEY": value' of FILE, value only.
param() {
	sed -n "s/^ *\"$2\": \(.*\)\$/\1/p" "$1" | head -1 | sed 's/,$//'
}

# expect_param FILE KEY VALUE WHAT
expect_param() {
	got=$(param "$1" "$2")
	[ "$got" = "$3" ]
	tap $? "$4 ($2 = $got, wanted $3)"
}

# What the kernel grants for a request above the cap: the cap itself.
EXP=$((CAP < REQ ? CAP : REQ))
# The send buffer must not be capped too: wmem_max at least REQ here.
[ "$OLD_W" -ge "$REQ" ] || echo "$REQ" >"$WMEM"

# ---- capped: TCP, two streams ----
echo "$CAP" >"$RMEM"
[ "$(cat "$RMEM")" = "$CAP" ]
tap $? "net.core.rmem_max is set to $CAP for the test"
next_port
rx tcp $BB ttcp -r -s -b 256k --streams 2 -p $PORT --accept-timeout 20 --idle-timeout 20 \
	--json "$TMPD/tcp-rx.json"
wait_listen $PORT
expect_exit 0 "ttcp -t -s -b 256k --streams 2 exits 0 with the cap" -- \
	timeout 60 $BB ttcp -t -s -b 256k --streams 2 -n 512 -p $PORT --json "$TMPD/tcp-tx.json" \
	127.0.0.1
cp "$TMPD/err" "$TMPD/tcp-tx.err"
wait "$RXPID"
tap $? "the capped receiver exits 0"
WARN="^ttcp-r: warning: asked for a $REQ-byte receive buffer, got $EXP: net.core.rmem_max ($CAP) caps it; raise it with: sysctl -w net.core.rmem_max=$REQ\$"
expect_grep "$WARN" "$TMPD/tcp.err" "the receiver warns, naming net.core.rmem_max and the command"
[ "$(grep -c 'warning' "$TMPD/tcp.err")" -eq 1 ]
tap $? "one warning line for two streams"
expect_grep "^ttcp-t: warning: .*got $EXP: net.core.rmem_max ($CAP) caps it" "$TMPD/tcp-tx.err" \
	"the transmitter warns about its receive buffer too"
[ "$(grep -c 'warning' "$TMPD/tcp-tx.err")" -eq 1 ]
tap $? "the transmitter warns once"
expect_param "$TMPD/tcp-rx.json" sockbuf_requested "$REQ" "receiver JSON: requested"
expect_param "$TMPD/tcp-rx.json" rcvbuf_granted "$EXP" "receiver JSON: receive buffer granted"
expect_param "$TMPD/tcp-rx.json" sndbuf_granted "$REQ" "receiver JSON: send buffer granted"
expect_param "$TMPD/tcp-rx.json" sockbuf_capped_by '"net.core.rmem_max"' "receiver JSON: capped by"
expect_param "$TMPD/tcp-rx.json" net.core.rmem_max "\"$CAP\"" "receiver JSON system: the sysctl"
expect_param "$TMPD/tcp-tx.json" sockbuf_requested "$REQ" "transmitter JSON: requested"
expect_param "$TMPD/tcp-tx.json" rcvbuf_granted "$EXP" "transmitter JSON: receive buffer granted"
expect_param "$TMPD/tcp-tx.json" net.core.rmem_max "\"$CAP\"" "transmitter JSON system: the sysctl"
expect_param "$TMPD/tcp-tx.json" if.name '"lo"' "transmitter JSON: the interface is lo"
expect_param "$TMPD/tcp-rx.json" if.name '"lo"' "receiver JSON: the interface is lo"
[ -n "$(param "$TMPD/tcp-tx.json" window_bound_bps)" ] && [ -n "$(param "$TMPD/tcp-tx.json" rtt_s)" ]
tap $? "transmitter JSON: window_bound_bps and rtt_s"

# ---- capped: UDP ----
next_port
rx udp $BB ttcp -r -u -s -b 256k -p $PORT --accept-timeout 20 --idle-timeout 10 \
	--json "$TMPD/udp-rx.json"
wait_listen $PORT udp
expect_exit 0 "ttcp -t -u -s -b 256k exits 0 with the cap" -- \
	timeout 60 $BB ttcp -t -u -s -b 256k -l 1000 -n 200 -p $PORT 127.0.0.1
wait "$RXPID"
expect_grep "$WARN" "$TMPD/udp.err" "the UDP receiver warns, naming net.core.rmem_max"
expect_param "$TMPD/udp-rx.json" rcvbuf_granted "$EXP" "UDP receiver JSON: receive buffer granted"
expect_param "$TMPD/udp-rx.json" sockbuf_capped_by '"net.core.rmem_max"' "UDP receiver JSON: capped by"

# ---- not capped: the saved value back (or one that is large enough) ----
restore
[ "$OLD_R" -ge "$REQ" ] || echo "$REQ" >"$RMEM"
[ "$OLD_W" -ge "$REQ" ] || echo "$REQ" >"$WMEM"
next_port
rx free $BB ttcp -r -s -b 256k -p $PORT --accept-timeout 20 --idle-timeout 20 \
	--json "$TMPD/free-rx.json"
wait_listen $PORT
expect_exit 0 "ttcp -t -s -b 256k exits 0 without the cap" -- \
	timeout 60 $BB ttcp -t -s -b 256k -n 512 -p $PORT 127.0.0.1
wait "$RXPID"
! grep -q warning "$TMPD/free.err" "$TMPD/err"
tap $? "no warning once net.core.rmem_max allows 256k"
expect_param "$TMPD/free-rx.json" rcvbuf_granted "$REQ" "uncapped JSON: receive buffer granted"
expect_param "$TMPD/free-rx.json" sockbuf_capped_by '""' "uncapped JSON: nothing caps it"

# ---- compare names the cap: uncapped (A) against capped (B) ----
RA=$(cat "$RMEM")
$BB compare "$TMPD/free-rx.json" -- "$TMPD/tcp-rx.json" >"$TMPD/cmp.txt" 2>&1
if grep -q "without cJSON" "$TMPD/cmp.txt"; then
	tap 0 "compare # SKIP built without cJSON"
else
	expect_grep "^A and B differ in [0-9]* recorded fields" "$TMPD/cmp.txt" \
		"compare of the uncapped run against the capped one has a differences section"
	expect_grep "^  net.core.rmem_max: A $RA, B $CAP\\( \\|\$\\)" "$TMPD/cmp.txt" \
		"  ... naming net.core.rmem_max with both values"
	expect_grep "^  ttcp rcvbuf_granted: A $REQ, B $EXP\\( \\|\$\\)" "$TMPD/cmp.txt" \
		"  ... and the receive buffer each was granted"
	expect_grep "^  ttcp sockbuf_capped_by: A (none), B net.core.rmem_max" "$TMPD/cmp.txt" \
		"  ... and what capped it"
fi

restore
[ "$(cat "$RMEM")" = "$OLD_R" ] && [ "$(cat "$WMEM")" = "$OLD_W" ]
tap $? "net.core.rmem_max and wmem_max are back to $OLD_R and $OLD_W"

# ---- the restore on the other exit paths ----
SOCKBUF_SELFTEST=fail sh "$0" >/dev/null 2>&1
[ "$(cat "$RMEM")" = "$OLD_R" ]
tap $? "a run that fails after lowering the sysctl restores it"
mark="$TMPD/held"
SOCKBUF_SELFTEST=hold SOCKBUF_MARK="$mark" sh "$0" >/dev/null 2>&1 &
held=$!
PIDS="$PIDS $held"
i=0
while [ ! -e "$mark" ] && [ $i -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ "$(cat "$RMEM")" = "$CAP" ]
tap $? "the held run has lowered the sysctl"
kill -TERM "$held"
wait "$held"
[ "$(cat "$RMEM")" = "$OLD_R" ]
tap $? "a run killed with SIGTERM restores it"
