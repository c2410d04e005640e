#!/bin/sh
# tests/port_base.sh - prints the first of 1000 TCP/UDP ports that the tests,
# .ci/run and bench/ scripts may listen on: outside the kernel's ephemeral
# range (net.ipv4.ip_local_port_range), where a client connection of any
# other program on the machine can hold a port and make a wildcard bind
# fail.  The choice moves with the caller's pid ($1, default our parent),
# so two scripts running at once rarely share ports.
set -eu
seed=${1:-$PPID}
lo=32768
hi=60999
if [ -r /proc/sys/net/ipv4/ip_local_port_range ]; then
	# (dash's read takes one byte at a time, which this file does not allow)
	# shellcheck disable=SC2046
	set -- $(cat /proc/sys/net/ipv4/ip_local_port_range)
	lo=$1
	hi=$2
fi
# Below the range when 1024..lo has room for 1000 ports and some spread,
# else above it.
if [ $((lo - 1024)) -ge 3000 ]; then
	echo $((1024 + seed % (lo - 1024 - 1000)))
elif [ $((65535 - hi)) -ge 3000 ]; then
	echo $((hi + 1 + seed % (65535 - hi - 1000)))
else
	echo $((1024 + seed % 1000))
fi
