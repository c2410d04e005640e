#!/bin/sh
# tests/integration/test_heat.sh - clocks and heat around a measurement,
# end to end: a copy of tests/fixtures/heat/board (BB_SYSROOT) changes
# while an applet measures, and the result must say it throttled (one
# warning line on stderr, params throttled and throttle in the JSON).
#  - ttcp -r takes its first sample, then waits for a sender that this
#    script starts only after lowering the clock: no race at all;
#  - stream is stopped (SIGSTOP) as soon as its header shows that the
#    first sample was taken, a zone is heated above its passive trip point,
#    and it goes on; a machine so fast that the measurement ended before
#    the stop is retried with larger arrays;
#  - without a fixture (this machine) and with an empty root: no warning.
# Every background process is started here and killed by its pid on exit.
. tests/integration/lib.sh

PIDS=""
cleanup() {
	for p in $PIDS; do
		kill -CONT "$p" 2>/dev/null
		kill "$p" 2>/dev/null
	done
	rm -rf "$TMPD"
}
trap cleanup EXIT

ROOT=$TMPD/root
CPUFREQ=$ROOT/sys/devices/system/cpu/cpufreq
ZONE0=$ROOT/sys/class/thermal/thermal_zone0
PORT=$(sh tests/port_base.sh $$)

# A fresh copy of the fixture: 2 policies at 1416 and 1800 MHz under the
# performance governor; zone soc-thermal at 45.2 C, passive trip at 85 C.
fresh_root() {
	rm -rf "$ROOT"
	mkdir -p "$ROOT"
	cp -R tests/fixtures/heat/board/sys "$ROOT/"
}

# param FILE APPLET KEY: the value of params KEY of APPLET's first result.
param() {
	jq -r --arg a "$2" --arg k "$3" \
		'[.results[] | select(.applet == $a)][0].params[$k] | if . == null then "none" else tostring end' "$1"
}

# expect_param FILE APPLET KEY VALUE DESCRIPTION
expect_param() {
	got=$(param "$1" "$2" "$3" 2>/dev/null)
	if [ "$got" = "$4" ]; then tap 0 "$5"; else tap 1 "$5 ($3 = '$got', wanted '$4')"; fi
}

no_warning() {  # FILE DESCRIPTION
	if grep -q "throttled" "$1"; then
		tap 1 "$2"
		sed 's/^/#   /' "$1" | head -5
	else
		tap 0 "$2"
	fi
}

# ---- this machine, and an empty root: nothing to say ----

expect_exit 0 "stream on this machine exits 0" -- \
	"$BB" stream -s 100K -N 3 --json "$TMPD/plain.json"
no_warning "$TMPD/err" "stream on this machine prints no throttle warning"
expect_param "$TMPD/plain.json" stream throttled none "stream on this machine: no throttled param"

mkdir -p "$TMPD/empty"
expect_exit 0 "stream with an empty root exits 0" -- \
	env BB_SYSROOT="$TMPD/empty" "$BB" stream -s 100K -N 3 --json "$TMPD/empty.json"
if [ -s "$TMPD/err" ]; then
	tap 1 "stream with an empty root writes nothing on stderr"
	sed 's/^/#   /' "$TMPD/err" | head -5
else
	tap 0 "stream with an empty root writes nothing on stderr"
fi
expect_param "$TMPD/empty.json" stream clock.before_khz none \
	"no cpufreq, no zones: no clock.before_khz"
expect_param "$TMPD/empty.json" stream temp.max_before_c none \
	"no cpufreq, no zones: no temp.max_before_c"

# ---- a steady board: recorded, not throttled ----

fresh_root
expect_exit 0 "stream on the steady fixture exits 0" -- \
	env BB_SYSROOT="$ROOT" "$BB" stream -s 100K -N 3 --json "$TMPD/steady.json"
no_warning "$TMPD/err" "the steady fixture: no throttle warning"
expect_param "$TMPD/steady.json" stream clock.before_khz 1800000 \
	"clock.before_khz is the fastest policy's clock"
expect_param "$TMPD/steady.json" stream clock.after_khz 1800000 "clock.after_khz"
expect_param "$TMPD/steady.json" stream temp.max_before_c 45.2 "temp.max_before_c"
expect_param "$TMPD/steady.json" stream temp.max_after_c 45.2 "temp.max_after_c"
expect_param "$TMPD/steady.json" stream throttled none "the steady fixture: not throttled"
expect_param "$TMPD/steady.json" calib clock.before_khz none "calib spans the run: not watched"

# Every applet's result is watched: its first sample when it was added, its
# last when its status was set.
head -c 3000 /dev/zero >"$TMPD/data.bin"
for cmd in "lat --min 1K --max 16K --samples 1" "mem sweep --sizes 4K -n 1" \
	"csum --sizes 64 -N 100 -r 2" "csum --data $TMPD/data.bin"; do
	applet=${cmd%% *}
	# shellcheck disable=SC2086
	expect_exit 0 "$cmd on the steady fixture exits 0" -- \
		env BB_SYSROOT="$ROOT" "$BB" $cmd --json "$TMPD/each.json"
	expect_param "$TMPD/each.json" "$applet" clock.before_khz 1800000 "$cmd: clock.before_khz"
	expect_param "$TMPD/each.json" "$applet" clock.after_khz 1800000 "$cmd: clock.after_khz"
	no_warning "$TMPD/err" "$cmd: no throttle warning"
done

# The quick suite samples each applet's result; "run" and "calib" are not.
expect_exit 0 "run --only csum on the steady fixture exits 0" -- \
	env BB_SYSROOT="$ROOT" "$BB" run --only csum --json "$TMPD/run.json"
expect_param "$TMPD/run.json" csum clock.after_khz 1800000 "run: csum's result is watched"
no_warning "$TMPD/err" "run on the steady fixture: no throttle warning"

# ---- ttcp -r: the clock falls while the receiver measures ----

fresh_root
PORT=$((PORT + 1))
env BB_SYSROOT="$ROOT" "$BB" ttcp -r -s -p "$PORT" --accept-timeout 30 --json "$TMPD/rx.json" \
	>"$TMPD/rx.out" 2>"$TMPD/rx.err" &
RXPID=$!
PIDS="$PIDS $RXPID"
# the header comes after the result (and its first sample) was made
if wait_for "ttcp-r" "$TMPD/rx.out" 30 || wait_for "ttcp-r" "$TMPD/rx.err" 1; then
	tap 0 "ttcp -r started on the fixture"
else
	tap 1 "ttcp -r started on the fixture"
fi
echo 1200000 >"$CPUFREQ/policy4/scaling_cur_freq"
echo 1000000 >"$CPUFREQ/policy0/scaling_cur_freq"
expect_exit 0 "ttcp -t to the fixture's receiver exits 0" -- \
	timeout 30 "$BB" ttcp -t -s -n 64 -p "$PORT" 127.0.0.1
wait "$RXPID"
tap $? "the receiver exits 0"
expect_grep "^boardbench ttcp: warning: the machine throttled during the measurement (cpu4-5 clock fell from 1800 to 1200 MHz): compare this result with care$" \
	"$TMPD/rx.err" "ttcp: one warning line names the clock that fell"
n=$(grep -c "throttled" "$TMPD/rx.err")
[ "$n" -eq 1 ]
tap $? "ttcp: exactly one throttle line ($n)"
expect_param "$TMPD/rx.json" ttcp throttled true "ttcp: params throttled = true"
expect_param "$TMPD/rx.json" ttcp throttle "cpu4-5 clock fell from 1800 to 1200 MHz" \
	"ttcp: params throttle says why"
expect_param "$TMPD/rx.json" ttcp clock.before_khz 1800000 "ttcp: clock.before_khz"
expect_param "$TMPD/rx.json" ttcp clock.after_khz 1200000 "ttcp: clock.after_khz"

# ---- stream: a zone crosses its passive trip point while it runs ----

# heated_stream SIZE: stream on a fresh root, stopped once its header is
# out, zone0 set to 86.1 C, continued; 0 when the end sample saw it.
heated_stream() {
	fresh_root
	env BB_SYSROOT="$ROOT" "$BB" stream -s "$1" -N 200 -t 1 --json "$TMPD/hot.json" \
		>"$TMPD/hot.out" 2>"$TMPD/hot.err" &
	SPID=$!
	PIDS="$PIDS $SPID"
	wait_for "STREAM" "$TMPD/hot.out" 60 || return 2
	kill -STOP "$SPID" 2>/dev/null
	echo 86100 >"$ZONE0/temp"
	kill -CONT "$SPID" 2>/dev/null
	wait "$SPID" || return 2
	[ "$(param "$TMPD/hot.json" stream temp.max_after_c)" = 86.1 ]
}

rc=1
for size in 1M 4M 16M; do
	heated_stream $size
	rc=$?
	[ $rc -eq 1 ] || break
	echo "# stream -s $size ended before the zone was heated: again, larger"
done
tap $rc "stream ran on the fixture while its zone was heated"
expect_grep "^boardbench stream: warning: the machine throttled during the measurement (zone soc-thermal crossed its passive trip point (85.0 C: 45.2 -> 86.1 C)): compare this result with care$" \
	"$TMPD/hot.err" "stream: one warning line names the zone and its trip point"
expect_param "$TMPD/hot.json" stream throttled true "stream: params throttled = true"
expect_param "$TMPD/hot.json" stream throttle \
	"zone soc-thermal crossed its passive trip point (85.0 C: 45.2 -> 86.1 C)" \
	"stream: params throttle says why"
expect_param "$TMPD/hot.json" stream temp.max_before_c 45.2 "stream: temp.max_before_c"
expect_grep "Solution Validates" "$TMPD/hot.out" "stream: the throttled run still validates"
