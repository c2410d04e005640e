#!/bin/sh
# tests/integration/test_load.sh - what else used the machine, and which
# boot and board, end to end (src/facts/load.c, boot.c):
#  - `csum -N 1000 -r 3 --json` records the load.* params of its result
#    with sane values (none on calib's), and the system keys boot.id (this
#    boot's /proc/sys/kernel/random/boot_id), boot.uptime_s and board.id,
#    and prints none of it;
#  - with a busy loop started here, a ttcp receiver that waits for its
#    sender while the loop has used a whole second of CPU records
#    load.others_cpu_per_s above 0.5: a spinning process takes a CPU on any
#    machine that schedules it (a property, not a speed), and the loop is
#    checked to have run through the whole interval;
#  - compare never lists boot.id, boot.uptime_s or a load.* param among
#    the differences, and does list another board.id.
# Every background process is started here and killed by its pid on exit.
. tests/integration/lib.sh

HOG=""
RXPID=""
cleanup() {
	[ -n "$HOG" ] && kill "$HOG" 2>/dev/null
	[ -n "$RXPID" ] && kill "$RXPID" 2>/dev/null
	rm -rf "$TMPD"
}
trap cleanup EXIT

# jq_ok FILE FILTER DESCRIPTION: FILTER is true on FILE; else the load
# params of every result are shown.
jq_ok() {
	if jq -e "$2" "$1" >/dev/null 2>&1; then
		tap 0 "$3"
	else
		tap 1 "$3"
		jq -c '.results[] | {applet, load: (.params | with_entries(select(.key |
			startswith("load."))))}' "$1" 2>&1 | sed 's/^/#   /'
	fi
}

# ---- csum: the params and the system keys ----

expect_exit 0 "csum -N 1000 -r 3 --json exits 0" -- \
	"$BB" csum -N 1000 -r 3 --json "$TMPD/c.json"
if grep -q "load\.\|boot\.\|board\.id" "$TMPD/out" "$TMPD/err"; then
	tap 1 "csum prints nothing of the load, boot or board"
else
	tap 0 "csum prints nothing of the load, boot or board"
fi
P='[.results[] | select(.applet == "csum")][0].params'
cpus=$(grep -c '^cpu[0-9]' /proc/stat)
jq_ok "$TMPD/c.json" "$P | .\"load.wall_s\" > 0" "load.wall_s > 0"
jq_ok "$TMPD/c.json" "$P | .\"load.cpus\" == $cpus" "load.cpus: the $cpus cpuN lines of /proc/stat"
jq_ok "$TMPD/c.json" "$P | .\"load.others_cpu_per_s\" >= 0 and .\"load.others_cpu_per_s\" <= $cpus" \
	"load.others_cpu_per_s in [0, $cpus]"
jq_ok "$TMPD/c.json" "$P | .\"load.busy_cpu_s\" >= 0 and .\"load.self_cpu_s\" > 0" \
	"load.busy_cpu_s >= 0, load.self_cpu_s > 0 (csum used the CPU)"
jq_ok "$TMPD/c.json" "$P | .\"load.busiest_cpu\" == null or
	(.\"load.busiest_cpu\" >= 0 and .\"load.busiest_cpu\" <= 1)" "load.busiest_cpu in [0, 1]"
jq_ok "$TMPD/c.json" "$P | .\"load.steal_per_s\" >= 0 and .\"load.iowait_per_s\" >= 0 and
	.\"load.ctxt_per_s\" >= 0 and .\"load.self_ctxt_per_s\" >= 0 and .\"load.loadavg1\" >= 0" \
	"steal, iowait, context switches and the load average: numbers >= 0"
if [ -r /proc/pressure/cpu ] && cat /proc/pressure/cpu >/dev/null 2>&1; then
	jq_ok "$TMPD/c.json" "$P | [.\"load.psi.cpu.some\", .\"load.psi.memory.some\",
		.\"load.psi.memory.full\", .\"load.psi.io.some\", .\"load.psi.io.full\"] |
		all(. != null and . >= 0 and . <= 1.05)" \
		"load.psi.*: the share of the interval stalled, in [0, 1]"
else
	jq_ok "$TMPD/c.json" "$P | has(\"load.psi.cpu.some\") | not" \
		"no /proc/pressure here: no load.psi.* at all"
fi
jq_ok "$TMPD/c.json" '[.results[] | select(.applet == "calib")][0].params | keys |
	all(startswith("load.") | not)' "calib spans the run: no load.* params"

S='.system'
jq_ok "$TMPD/c.json" "$S.\"boot.id\" == \"$(cat /proc/sys/kernel/random/boot_id)\"" \
	"boot.id is this boot's /proc/sys/kernel/random/boot_id"
up=$(cut -d' ' -f1 /proc/uptime)
jq_ok "$TMPD/c.json" "$S.\"boot.uptime_s\" | tonumber | . > 0 and . <= $up" \
	"boot.uptime_s: a number of seconds up to now's $up"
jq_ok "$TMPD/c.json" "$S | (.\"board.id_source\" | IN(\"dt\", \"dmi\", \"machine-id\", \"none\")) and
	((.\"board.id_source\" == \"none\") == (.\"board.id\" == \"\")) and
	(.\"board.id\" | test(\"^([0-9a-f]{16})?$\"))" \
	"board.id: 16 hex digits, or empty with source none"
if [ -r /etc/machine-id ] && [ -s /etc/machine-id ]; then
	if grep -qF "$(cat /etc/machine-id)" "$TMPD/c.json"; then
		tap 1 "/etc/machine-id is never recorded"
	else
		tap 0 "/etc/machine-id is never recorded"
	fi
fi

# ---- a busy loop: others used a CPU ----

# ticks FILE: user + system ticks of a process (fields 14 and 15 of its
# stat; "sh" has no blank in its name).
ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo -1
}

sh -c 'while :; do :; done' &
HOG=$!
i=0
while [ "$(ticks "$HOG")" -le 0 ] && [ $i -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
PORT=$(($(sh tests/port_base.sh $$) + 3))
"$BB" ttcp -r -s -p "$PORT" --accept-timeout 60 --json "$TMPD/rx.json" \
	>"$TMPD/rx.out" 2>"$TMPD/rx.err" &
RXPID=$!
# the header comes after the result, and its first sample, was made
if wait_for "ttcp-r" "$TMPD/rx.out" 30 || wait_for "ttcp-r" "$TMPD/rx.err" 1; then
	tap 0 "ttcp -r started beside the busy loop"
else
	tap 1 "ttcp -r started beside the busy loop"
fi
# until the loop has used one more second of CPU (USER_HZ ticks) while the
# receiver waits: an event, not a guessed time
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
t0=$(ticks "$HOG")
i=0
while [ $(($(ticks "$HOG") - t0)) -lt "$hz" ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -0 "$HOG" 2>/dev/null
tap $? "the busy loop ran while the receiver waited ($(($(ticks "$HOG") - t0)) ticks)"
expect_exit 0 "ttcp -t to the receiver exits 0" -- \
	timeout 30 "$BB" ttcp -t -s -n 64 -p "$PORT" 127.0.0.1
wait "$RXPID"
tap $? "the receiver exits 0"
RXPID=""
kill -0 "$HOG" 2>/dev/null
tap $? "the busy loop still ran when the receiver's measurement ended"
kill "$HOG" 2>/dev/null
wait "$HOG" 2>/dev/null
HOG=""
R='[.results[] | select(.applet == "ttcp")][0].params'
jq_ok "$TMPD/rx.json" "$R | .\"load.wall_s\" >= 1" "the receiver's interval held the second"
jq_ok "$TMPD/rx.json" "$R | .\"load.others_cpu_per_s\" > 0.5" \
	"load.others_cpu_per_s > 0.5 with a busy loop beside the receiver"

# ---- compare: boots and load vary by design, boards do not ----

cp "$TMPD/c.json" "$TMPD/a.json"
jq '.system."boot.id" = "00000000-1111-2222-3333-444444444444" | .system."boot.uptime_s" = "1.00" |
	(.results[] | select(.applet == "csum") | .params."load.others_cpu_per_s") = 1.97' \
	"$TMPD/c.json" >"$TMPD/b.json"
"$BB" compare "$TMPD/a.json" "$TMPD/b.json" >"$TMPD/out" 2>"$TMPD/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "built without cJSON" "$TMPD/err"; then
	tap 0 "compare is not in this build (no cJSON): boot and load differences not checked # SKIP"
else
	if [ $rc -eq 0 ] && ! grep -q "boot\.id\|boot\.uptime_s\|load\." "$TMPD/out"; then
		tap 0 "compare lists neither the boot nor the load among the differences"
	else
		tap 1 "compare lists neither the boot nor the load among the differences (exit $rc)"
		grep "boot\.\|load\." "$TMPD/out" | sed 's/^/#   /'
	fi
	jq '.system."board.id" = "0123456789abcdef"' "$TMPD/c.json" >"$TMPD/b.json"
	"$BB" compare "$TMPD/a.json" "$TMPD/b.json" >"$TMPD/out" 2>"$TMPD/err"
	expect_grep "board.id: A .*, B 0123456789abcdef" "$TMPD/out" \
		"compare lists another board.id among the differences"
fi
