#!/bin/sh
# tests/integration/test_board_quirks.sh - what a freshly booted board meets
# first and no fixture showed (found booting boards under qemu-system:
# boards/, docs/TARGETS.md "Boards"): the loopback interface down in a
# minimal initramfs (a network namespace of our own has lo down too).
. tests/integration/lib.sh

# lo down: run's ttcp line names the reason and the fix, and the receiver
# does not sit out its accept timeout after the connect failed.
if unshare -n true 2>/dev/null; then
	unshare -n $BB run --only ttcp -o "$TMPD/lo" >"$TMPD/lo.out" 2>&1
	rc=$?
	[ $rc -eq 1 ]
	tap $? "lo down: run --only ttcp fails (exit $rc)"
	grep -q '^ttcp .*INCOMPLETE: .*Network is unreachable: the loopback interface is down (ip link set lo up)$' \
		"$TMPD/lo.out"
	tap $? "lo down: ttcp's line gives the reason and the hint"
	[ $? -eq 0 ] || sed 's/^/#   /' "$TMPD/lo.out"
	jq -e '[.results[] | select(.applet == "ttcp")][0].message | test("loopback interface is down")' \
		"$TMPD"/lo/*.json >/dev/null 2>&1
	tap $? "lo down: the results file keeps the reason"
else
	echo "ok 1 - lo down # SKIP unshare -n is not permitted here"
fi

# ARM's /proc/cpuinfo names no model: run's header names the cores from
# cpu.cores (the big.LITTLE fixture: Cortex-A53 and Cortex-A72), as does
# the results file's system.cpu_model.
BB_SYSROOT=tests/fixtures/boards/biglittle $BB run --only csum -o "$TMPD/bl" >"$TMPD/bl.out" 2>&1
head -1 "$TMPD/bl.out" | grep -q '^boardbench quick suite on .* (Cortex-A53 + Cortex-A72, [0-9]* CPUs, '
tap $? "ARM: run's header names the cores ($(head -1 "$TMPD/bl.out"))"
jq -e '.system.cpu_model == "Cortex-A53 + Cortex-A72"' "$TMPD"/bl/*.json >/dev/null 2>&1
tap $? "ARM: system.cpu_model names the cores"

# run's mem line names the fastest variant truly: another one, "N% less"
# than libc, or libc itself ("the fastest; next X, N% more"), as the JSON's
# best tot_memcpy values order them (whichever this CPU makes true).
$BB run --only mem -o "$TMPD/m" --json "$TMPD/m.json" >"$TMPD/m.out" 2>&1
line=$(grep '^mem ' "$TMPD/m.out")
order=$(jq -r '[.results[] | select(.applet == "mem") | .series[] | select(.name == "tot_memcpy") |
	{v: .variant, b: .values.best}] | (.[0].v) + " " + ((.[1:] | min_by(.b)).v) + " " +
	(if .[0].b <= (.[1:] | min_by(.b)).b then "base" else "other" end)' "$TMPD/m.json" 2>/dev/null)
set -- $order
case $3 in
base) echo "$line" | grep -Eq "^mem +tot_memcpy $1 [0-9]+ [a-z]+, the fastest; next $2 [0-9]+ \([0-9.]+% more\) " ;;
other) echo "$line" | grep -Eq "^mem +tot_memcpy $1 [0-9]+ [a-z]+; fastest $2 [0-9]+ \([0-9.]+% less\) " ;;
*) false ;;
esac
tap $? "mem's line names the fastest as the JSON orders them ($order): $line"
echo "$line" | grep -q -- '(-'
[ $? -ne 0 ]
tap $? "mem's line has no negative percentage"

# No RTC: a clock before the date of the sources (1970 on a board that
# has not set it) is warned about in one line and marks the file name.
if command -v faketime >/dev/null 2>&1 && faketime '1970-01-01 00:00:15' true 2>/dev/null; then
	# faketime preloads its library; a sanitizer build's runtime then is not
	# first in the list, which ASan refuses unless told the order is fine.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		faketime '1970-01-01 00:00:15' $BB run --only csum -o "$TMPD/ck" >"$TMPD/ck.out" 2>"$TMPD/ck.err"
	[ "$(grep -c 'the clock says 1970-01-01T00:00:15Z, before the date of this boardbench' "$TMPD/ck.err")" -eq 1 ]
	tap $? "1970 clock: one warning line names the clock and the sources' date"
	ls "$TMPD"/ck/*-19700101T000015Z-clock-unset.json >/dev/null 2>&1
	tap $? "1970 clock: the results file's name is marked -clock-unset ($(ls "$TMPD/ck"))"
	$BB run --only csum -o "$TMPD/ck2" >/dev/null 2>"$TMPD/ck2.err"
	! grep -q 'the clock says' "$TMPD/ck2.err" && ! ls "$TMPD"/ck2/*clock-unset* >/dev/null 2>&1
	tap $? "today's clock: no warning, no mark"
else
	echo "ok - 1970 clock # SKIP faketime is not installed"
fi

# On a terminal, a warning during a step (lat's size cut to half of the
# 106 MB MemAvailable of the MPC8313E fixture) starts on a line of its
# own: the "[2/2] lat ..." progress line ends first and is drawn again.
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
	script -qec "BB_SYSROOT=tests/fixtures/boards/mpc8313e $BB run --only lat -o $TMPD/pl" /dev/null \
		>"$TMPD/pl.out" 2>&1
	tr -d '\r' <"$TMPD/pl.out" | grep -q '^boardbench run: lat: largest size reduced'
	tap $? "progress line: the warning starts its own line"
	! tr -d '\r' <"$TMPD/pl.out" | grep -q '\.\.\..*boardbench run:'
	tap $? "progress line: nothing glued onto '[1/1] lat ...'"
	tr -d '\r' <"$TMPD/pl.out" | grep -Eq '^\[1/1\] lat done in [0-9.]+ s$'
	tap $? "progress line: drawn again and ended with its result"
else
	echo "ok - progress line # SKIP no script(1) to give run a terminal"
fi

# --to-server: the headline is what arrived (the server's bytes over its
# time), before the ttcp-t lines that count writes; the JSON keeps it.
P=$(sh tests/port_base.sh $$)
P=$((P + 21))
$BB ttcp -r --server -p $P --bind 127.0.0.1 >"$TMPD/gs.out" 2>&1 &
SPID=$!
wait_for "^ttcp-r: serving on port $P" "$TMPD/gs.out" 20
$BB ttcp --to-server 127.0.0.1 -p $P -n 64 -l 8192 --json "$TMPD/gp.json" >"$TMPD/gp.out" 2>&1
rc=$?
kill $SPID 2>/dev/null
wait $SPID 2>/dev/null
head -1 "$TMPD/gp.out" | grep -Eq '^ttcp-client: goodput [0-9.]+ Mbit/s \(10\^6 bit/s\): 524288 bytes arrived at the server in [0-9.]+ s'
tap $? "--to-server: the first line is the goodput of the 524288 bytes that arrived (exit $rc)"
[ $? -eq 0 ] || sed 's/^/#   /' "$TMPD/gp.out" | head -3
jq -e '.results[0].params.goodput_bits_per_s > 0' "$TMPD/gp.json" >/dev/null 2>&1
tap $? "--to-server: params.goodput_bits_per_s in the JSON"

# Early boot: the kernel's random pool not ready (a getrandom that answers
# GRND_NONBLOCK with EAGAIN, preloaded): the server says so in one note and
# then waits for it, rather than hanging silently; the test still runs.
if command -v cc >/dev/null 2>&1 && ! ldd "$BB" 2>/dev/null | grep -q 'libasan'; then
	cat >"$TMPD/eagain.c" <<'EOC'
#include <errno.h>
#include <stddef.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>
ssize_t getrandom(void *buf, size_t n, unsigned flags)
{
	if (flags & GRND_NONBLOCK) {
		errno = EAGAIN;
		return -1;
	}
	return syscall(SYS_getrandom, buf, n, flags);
}
EOC
	if cc -shared -fPIC -o "$TMPD/eagain.so" "$TMPD/eagain.c" 2>/dev/null; then
		P=$((P + 1))
		LD_PRELOAD=$TMPD/eagain.so $BB ttcp -r --server -p $P --bind 127.0.0.1 >"$TMPD/ent.out" 2>&1 &
		SPID=$!
		wait_for "^ttcp-r: serving on port $P" "$TMPD/ent.out" 20
		$BB ttcp --to-server 127.0.0.1 -p $P -n 64 -l 8192 >"$TMPD/ent.cl" 2>&1
		rc=$?
		wait_for ' complete$' "$TMPD/ent.out" 20
		kill $SPID 2>/dev/null
		wait $SPID 2>/dev/null
		[ "$(grep -c "waiting for the kernel's random pool" "$TMPD/ent.out")" -eq 1 ]
		tap $? "entropy not ready: one note says the server waits for it"
		[ $rc -eq 0 ]
		tap $? "entropy not ready: the test still completes (exit $rc)"
	else
		echo "ok - entropy not ready # SKIP cannot build a preloaded getrandom"
	fi
else
	echo "ok - entropy not ready # SKIP no cc, or a sanitizer build (LD_PRELOAD)"
fi
