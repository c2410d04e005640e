# tests/integration/net_lib.sh - what the network tests share, sourced
# after lib.sh: background processes (their pids in PIDS) killed at exit,
# then the test's own cleanup_extra when it has one; ports outside the
# kernel's ephemeral range (PORT, next_port); waiting until something
# listens on a port or a connection is established; the kernel's counters
# of what a loopback UDP transfer can lose; a jq check; and a `ttcp -r
# --server` started in the background.
PIDS=""
cleanup() {
	for p in $PIDS; do
		kill "$p" 2>/dev/null
	done
	if type cleanup_extra >/dev/null 2>&1; then
		cleanup_extra
	fi
	rm -rf "$TMPD"
}
trap cleanup EXIT

PORT=$(sh tests/port_base.sh $$)
next_port() {
	PORT=$((PORT + 1))
}

# wait_listen PORT [udp]: until something listens there (at most 20 s,
# however slowly a loaded machine starts it; without ss, half a second).
wait_listen() {
	i=0
	while [ $i -lt 200 ]; do
		if command -v ss >/dev/null 2>&1; then
			if [ "${2:-}" = udp ]; then
				ss -Hlun "sport = :$1" 2>/dev/null | grep -q . && return 0
			else
				ss -Hltn "sport = :$1" 2>/dev/null | grep -q . && return 0
			fi
		elif [ $i -ge 5 ]; then
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# kernel_drops: what the kernel has dropped so far that a loopback UDP
# transfer could lose: datagrams a socket could not take (Udp InErrors: a
# full receive buffer) and packets a CPU's backlog could not (softnet_stat).
kernel_drops() {
	{
		# shellcheck disable=SC2016  # awk's fields, not the shell's
		awk '$1 == "Udp:" { if (!c) { for (i = 2; i <= NF; i++) if ($i == "InErrors") c = i }
			else print $c }' /proc/net/snmp
		awk '{ v = 0; h = tolower($2)
			for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
			print v }' /proc/net/softnet_stat
	} 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'
}

jqt() {  # FILE EXPR DESCRIPTION: one check that a jq expression holds
	jq -e "$2" "$1" >/dev/null 2>&1
	tap $? "$3"
}

# ttcp_server NAME SECONDS NOFILE ARGS...: `ttcp -r --server -p $PORT ARGS`
# in the background for at most SECONDS (under `ulimit -n NOFILE` unless
# NOFILE is -), its output in $TMPD/NAME.out and .err; returns once it
# serves, its pid in SPID (both pids in PIDS).  Uses wait_for (lib.sh).
ttcp_server() {
	name=$1 secs=$2 nofile=$3
	shift 3
	(
		[ "$nofile" = - ] || ulimit -n "$nofile" || exit 1
		exec timeout "$secs" "$BB" ttcp -r --server -p "$PORT" "$@"
	) >"$TMPD/$name.out" 2>"$TMPD/$name.err" &
	TPID=$!
	PIDS="$PIDS $TPID"
	wait_for "serving on port" "$TMPD/$name.err" 20
	SPID=$(awk '{print $1}' "/proc/$TPID/task/$TPID/children" 2>/dev/null)
	[ -n "$SPID" ] || SPID=$TPID
	PIDS="$SPID $PIDS"
}

# wait_established FILTER: until a TCP connection matching the ss(8)
# filter (as "dport = :$PORT") is established; at most 20 s.
wait_established() {
	i=0
	while [ $i -lt 200 ] && ! ss -Htn state established "$1" 2>/dev/null | grep -q .; do
		sleep 0.1
		i=$((i + 1))
	done
}
