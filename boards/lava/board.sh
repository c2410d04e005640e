#!/bin/sh
# boards/lava/board.sh - the board side of a boardbench LAVA job beyond the
# quick suite (packaging/lava/boardbench.yaml runs that): run by the test
# definitions boards/lava/checks.yaml and boards/lava/net.yaml on the
# booted board, from the top of the repository, with BusyBox.
#
#   board.sh checks DIR        facts and selftest: a LAVA test case each
#   board.sh net DIR HOSTPORT SERVERPORT NBUF BUFLEN
#                              classic ttcp to the host (10.0.2.2:HOSTPORT,
#                              qemu's user network), then a server on
#                              SERVERPORT until one test from the host ends
#   board.sh dump DIR          every *.json and *.txt in DIR, gzip + base64
#                              between marker lines, for the host to decode
#
# Outside LAVA (no lava-test-case) the test cases are printed.
set -u
BB=${BOARDBENCH:-boardbench}

case_() {  # NAME RESULT [MEASUREMENT UNITS]
	if command -v lava-test-case >/dev/null 2>&1; then
		if [ $# -ge 4 ]; then
			lava-test-case "$1" --result "$2" --measurement "$3" --units "$4"
		else
			lava-test-case "$1" --result "$2"
		fi
	else
		echo "lava-test-case $*"
	fi
}

checks() {
	mkdir -p "$1"
	"$BB" facts >"$1/facts.txt" 2>&1
	rc=$?
	cat "$1/facts.txt"
	[ $rc -eq 0 ] && case_ facts pass || case_ facts fail
	# The device tree (a PC: DMI) names the board, /proc/cpuinfo the core.
	grep -Eq '^(dt.model|board.product_name): .' "$1/facts.txt" && case_ facts-dt-model pass || case_ facts-dt-model fail
	grep -Eq '^cpu.(cores|name): .' "$1/facts.txt" && case_ facts-cpu pass || case_ facts-cpu fail
	"$BB" selftest >"$1/selftest.txt" 2>&1
	rc=$?
	cat "$1/selftest.txt"
	[ $rc -eq 0 ] && case_ selftest pass || case_ selftest fail
	cat /proc/sys/kernel/random/boot_id >"$1/boot_id.txt"
	echo "boot_id $(cat "$1/boot_id.txt")"
}

# The number before "bytes" in a classic ttcp-t/ttcp-r line.
ttcp_bytes() {
	sed -n 's/^ttcp-[tr]: \([0-9][0-9]*\) bytes in .*/\1/p' "$1" | head -1
}

net() {
	dir=$1 hport=$2 sport=$3 nbuf=$4 buflen=$5
	mkdir -p "$dir/server"
	"$BB" ttcp -t -s -f m -n "$nbuf" -l "$buflen" -p "$hport" --json "$dir/ttcp-to-host.json" \
		10.0.2.2 >"$dir/ttcp-to-host.txt" 2>&1
	rc=$?
	cat "$dir/ttcp-to-host.txt"
	b=$(ttcp_bytes "$dir/ttcp-to-host.txt")
	if [ $rc -eq 0 ] && [ "$b" = $((nbuf * buflen)) ]; then
		case_ ttcp-to-host pass "$b" bytes
	else
		case_ ttcp-to-host fail
	fi
	# The server: one test from the host (--to-server through qemu's
	# hostfwd), then it is stopped; at most 600 s.
	"$BB" ttcp -r --server -p "$sport" --json-dir "$dir/server" >"$dir/server.txt" 2>&1 &
	pid=$!
	echo "boardbench-board: server listening on $sport"
	i=0
	while [ $i -lt 600 ] && [ -z "$(ls "$dir/server" 2>/dev/null)" ]; do
		kill -0 $pid 2>/dev/null || break
		sleep 1
		i=$((i + 1))
	done
	sleep 1
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	cat "$dir/server.txt"
	f=$(ls "$dir/server" 2>/dev/null | head -1)
	if [ -n "$f" ]; then
		cp "$dir/server/$f" "$dir/server-test.json"
		case_ to-server-from-host pass
	else
		case_ to-server-from-host fail
	fi
}

dump() {
	for f in "$1"/*.json "$1"/*.txt; do
		[ -f "$f" ] || continue
		echo "BOARDBENCH-FILE-BEGIN $(basename "$f") $(wc -c <"$f" | tr -d ' ') $(md5sum "$f" | cut -d' ' -f1)"
		gzip -9c "$f" | base64
		echo "BOARDBENCH-FILE-END $(basename "$f")"
	done
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
checks) [ $# -eq 1 ] && checks "$1" ;;
net) [ $# -eq 5 ] && net "$@" ;;
dump) [ $# -eq 1 ] && dump "$1" ;;
*) echo "usage: $0 checks DIR | net DIR HOSTPORT SERVERPORT NBUF BUFLEN | dump DIR" >&2; exit 2 ;;
esac
