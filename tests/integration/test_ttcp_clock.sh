#!/bin/sh
# tests/integration/test_ttcp_clock.sh - what each end's clock covers.
# The TCP sender: nothing but the transfer runs between a stream's connect
# and its first write.  Checked on the system calls (strace -f), not on a
# time: in the thread that connects, the calls between connect() and the
# first send on that socket must be only connect's own completion (poll on
# the socket, getsockopt SO_ERROR, fcntl back to blocking); with two
# streams, for each of them.  The JSON says the same in order:
# connect_to_write_s >= 0 on every stream.  The receiver: its clock runs
# from the first byte to the last (first_byte_s: the first byte's arrival
# against its accept, before it when the data came first; the span from
# accept to the end of the stream kept as accept_real_s).  Loopback only;
# every process bounded by timeouts.
. tests/integration/lib.sh
. tests/integration/net_lib.sh

if ! command -v jq >/dev/null 2>&1; then
	tap 0 "# SKIP jq not installed: the ttcp clocks"
	exit 0
fi
PORT=$((PORT + 800))

# rx NAME [ARGS]: a receiver, bounded, in the background.
rx() {
	name=$1
	shift
	$BB ttcp -r -s -p $PORT --accept-timeout 20 --idle-timeout 10 --json "$TMPD/$name.rx.json" \
		"$@" >"$TMPD/$name.rx" 2>&1 &
	RXPID=$!
	PIDS="$PIDS $RXPID"
	wait_listen $PORT
}

# calls_between TRACE: for every thread that connected a socket, the calls
# it made after connect() and before its first send on that socket, one
# "pid fd call" line each (resumed halves of an interrupted call skipped),
# and "pid fd SENT" when it sent.
calls_between() {
	# shellcheck disable=SC2016  # awk's fields
	awk '{
		pid = $1; line = $0; sub(/^[0-9]+ +/, "", line)
		if (line ~ /^<\.\.\. /) next
		call = line; sub(/\(.*/, "", call)
		if (call == "connect") {
			fd = line; sub(/^connect\(/, "", fd); sub(/,.*/, "", fd)
			watch[pid] = fd; next
		}
		if (!(pid in watch)) next
		fd = watch[pid]
		if ((call == "sendto" || call == "sendmsg" || call == "write") && index(line, call "(" fd ",") == 1) {
			print pid, fd, "SENT"; delete watch[pid]; next
		}
		print pid, fd, substr(line, 1, 70)
	}' "$1"
}

# ---- the sender: connect, then the first write at once ----
if command -v strace >/dev/null 2>&1; then
	for n in 1 2; do
		next_port
		rx s$n --streams $n
		# LeakSanitizer cannot run under ptrace: leaks are checked elsewhere
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			timeout 60 strace -f -qq -o "$TMPD/s$n.trace" $BB ttcp -t -s -n 64 --streams $n \
			-p $PORT --json "$TMPD/s$n.tx.json" 127.0.0.1 >"$TMPD/s$n.tx" 2>&1
		rc=$?
		wait "$RXPID"
		[ "$rc" -eq 0 ]
		tap $? "$n stream(s) under strace: the sender exits 0"
		calls_between "$TMPD/s$n.trace" >"$TMPD/s$n.between"
		[ "$(grep -c ' SENT$' "$TMPD/s$n.between")" -eq "$n" ]
		tap $? "$n stream(s): each connecting thread's next send is on the socket it connected ($(grep -c ' SENT$' "$TMPD/s$n.between") of $n)"
		# connect's own completion: poll on the socket, SO_ERROR, fcntl
		grep -v ' SENT$' "$TMPD/s$n.between" | awk '{ fd = $2; c = $0; sub(/^[0-9]+ [0-9]+ /, "", c)
			if (index(c, "poll([{fd=" fd ",") == 1) next
			if (index(c, "getsockopt(" fd ", SOL_SOCKET, SO_ERROR") == 1) next
			if (index(c, "fcntl(" fd ", F_") == 1) next
			print c }' >"$TMPD/s$n.other"
		[ ! -s "$TMPD/s$n.other" ]
		tap $? "$n stream(s): no other call between connect and the first write ($(head -3 "$TMPD/s$n.other" | tr '\n' ';'))"
	done
else
	tap 0 "# SKIP strace not installed: the calls between connect and the first write"
	tap 0 "# SKIP strace not installed"
	tap 0 "# SKIP strace not installed"
	tap 0 "# SKIP strace not installed"
	tap 0 "# SKIP strace not installed"
	tap 0 "# SKIP strace not installed"
fi

# ---- both ends' clocks in the JSON ----
next_port
rx j --streams 2
timeout 60 $BB ttcp -t -s -n 256 --streams 2 -p $PORT --json "$TMPD/j.tx.json" 127.0.0.1 \
	>"$TMPD/j.tx" 2>&1
rc=$?
wait "$RXPID"
rxrc=$?
[ "$rc" -eq 0 ] && [ "$rxrc" -eq 0 ]
tap $? "2 streams without strace: both ends exit 0"
jqt "$TMPD/j.tx.json" '[.results[0].series[] | select(.name == "transfer" and .variant != "total")
	| .values.connect_to_write_s] | length == 2 and all(. >= 0)' \
	"sender JSON: each stream connected, then wrote (connect_to_write_s >= 0)"
jqt "$TMPD/j.rx.json" '.results[0].series[] | select(.variant == "total") | .values |
	.real_s > 0 and .accept_real_s > 0 and .accept_bits_per_s > 0' \
	"receiver JSON: first byte to last, and accept to the end kept (accept_real_s)"
jqt "$TMPD/j.rx.json" '[.results[0].series[] | select(.name == "transfer" and .variant != "total")
	| .values | .first_byte_s < .real_s + .start_s + 1] | length == 2 and all' \
	"receiver JSON: each stream's first byte (first_byte_s) before its end"
jqt "$TMPD/j.rx.json" '.results[0].params.time_counted | test("^from the first byte to the last")' \
	"receiver JSON: time_counted says first byte to last"
