#!/bin/sh
# tests/integration/test_hosts.sh - how a host name becomes an address.
# Every build: numeric IPv4 and IPv6 addresses and "localhost" reach a
# receiver.  A build made with RESOLVER=0 (no C library resolver) reads the
# hosts file by hand (BB_HOSTS_FILE stands in for /etc/hosts here): names
# match without case, aliases and comments are honoured, the family asked
# for (-4/-6) is respected, and any other name is refused with one line
# that says why.  With the resolver, those checks are skipped (they would
# test the C library).
. tests/integration/lib.sh
. tests/integration/net_lib.sh

# send HOST [OPTS...]: a 4-buffer transfer to a receiver on a new port.
send() {
	host=$1; shift
	next_port
	"$BB" ttcp -r -p "$PORT" -n 4 -l 1024 --accept-timeout 10 "$@" >"$TMPD/rx" 2>&1 &
	rx=$!
	PIDS="$PIDS $rx"
	wait_listen "$PORT"
	"$BB" ttcp -t -p "$PORT" -n 4 -l 1024 "$@" "$host" >"$TMPD/tx" 2>"$TMPD/txerr"
	rc=$?
	[ "$rc" -eq 0 ] || kill "$rx" 2>/dev/null
	wait "$rx" 2>/dev/null
	return "$rc"
}

send 127.0.0.1; tap $? "numeric IPv4 address"
send localhost; tap $? "localhost"
if [ -e /proc/net/if_inet6 ] && grep -q '^0\{31\}1 ' /proc/net/if_inet6; then
	send ::1 -6; tap $? "numeric IPv6 address (-6)"
else
	tap 0 "numeric IPv6 address # SKIP no IPv6 loopback"
fi

if ! "$BB" --version | grep -q -- '-DBB_NO_RESOLVER'; then
	for what in "a name in the hosts file, any case" "an alias after the first name" \
		"the address of the family asked for" "a name not in the file is refused" \
		"the refusal is one line that names the build"; do
		tap 0 "$what # SKIP built with the C library's resolver"
	done
	exit 0
fi

cat >"$TMPD/hosts" <<'HOSTS'
# a comment line
10.255.255.1   far.invalid
127.0.0.1	bench-peer.lab bench-alias   # trailing comment
::1 bench-six
127.0.0.1 bench-six
HOSTS
export BB_HOSTS_FILE="$TMPD/hosts"
send BENCH-PEER.lab; tap $? "a name in the hosts file, any case"
send bench-alias; tap $? "an alias after the first name"
send bench-six -4; tap $? "the address of the family asked for"
send not-there.invalid
[ $? -ne 0 ] && grep -q "cannot resolve host 'not-there.invalid'" "$TMPD/txerr"
tap $? "a name not in the file is refused"
[ "$(wc -l <"$TMPD/txerr")" -eq 1 ] && grep -q 'RESOLVER=0' "$TMPD/txerr"
tap $? "the refusal is one line that names the build"
