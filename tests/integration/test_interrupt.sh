#!/bin/sh
# tests/integration/test_interrupt.sh - SIGINT and SIGTERM keep what
# finished: `run` interrupted after stream writes its file with stream's
# result ok and lat's "interrupted"; stream, lat, mem and csum write their
# --json with status "interrupted"; each says in one stderr line what it
# kept and where, and exits 1; a second SIGINT ends the program at once.
# The signals go at events the test waits for (an output line, the
# handler being in place), never after a guessed time.
. tests/integration/lib.sh

PIDS=""
trap 'for p in $PIDS; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$TMPD"' EXIT

# wait_caught PID: up to 300 s until the process catches SIGINT (its
# handler is in place: bit 2 of SigCgt in /proc/PID/status).
wait_caught() {
	i=0
	while [ $i -lt 3000 ]; do
		mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
		[ -n "$mask" ] && [ $((0x$mask & 2)) -ne 0 ] && return 0
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}

# one_line ERRFILE SIGNAL WHAT: exactly one stderr line says it was
# interrupted, by which signal, and where the results are.
one_line() {
	n=$(grep -c 'interrupted' "$1")
	[ "$n" -eq 1 ] && grep -q "interrupted by $2: kept .* $3" "$1"
	tap $? "one stderr line says what was kept and where ($3; $n lines)"
	[ "$n" -eq 1 ] || sed 's/^/#   /' "$1"
}

# ---- run: stream finishes, lat is cut ----
OUT="$TMPD/results"
$BB run --only stream,lat -o "$OUT" >"$TMPD/run.out" 2>"$TMPD/run.err" &
P=$!
PIDS="$PIDS $P"
wait_for '^stream ' "$TMPD/run.out" 300
tap $? "run prints stream's summary line as soon as stream ends"
kill -INT "$P"
wait "$P"
rc=$?
[ "$rc" -eq 1 ]
tap $? "run: SIGINT during lat exits 1 (exit $rc)"
set -- "$OUT"/*.json
[ $# -eq 1 ] && [ -f "$1" ]
tap $? "run: the results file is written ($# in $OUT)"
json=$1
jq -e '[.results[] | select(.applet == "stream")][0].status == "ok"' "$json" >/dev/null
tap $? "run: stream's finished result is kept, status ok"
jq -e '[.results[] | select(.applet == "lat")][0] | .status == "interrupted" and
	(.message | test("interrupted by SIGINT"))' "$json" >/dev/null
tap $? "run: lat, interrupted, has status \"interrupted\""
jq -e '[.results[] | select(.status == "failed")] | length == 0' "$json" >/dev/null
tap $? "run: no result is marked failed"
one_line "$TMPD/run.err" SIGINT "$json"
grep -q "stream, lat (interrupted" "$TMPD/run.err"
tap $? "run: the line names stream as kept and lat as interrupted"
set -- "$OUT"/*.tmp*
[ ! -e "$1" ]
tap $? "run: no temporary file is left"

# ---- stream: SIGTERM after the header (printed before it measures) ----
$BB stream -s 16M -N 200 -t 1 --json "$TMPD/s.json" >"$TMPD/s.out" 2>"$TMPD/s.err" &
P=$!
PIDS="$PIDS $P"
wait_for 'precision of your system timer' "$TMPD/s.out" 300
tap $? "stream prints its header before it measures"
grep -q '^Function' "$TMPD/s.out"
[ $? -ne 0 ]
tap $? "... and no result table yet"
kill -TERM "$P"
wait "$P"
rc=$?
[ "$rc" -eq 1 ]
tap $? "stream: SIGTERM exits 1 (exit $rc)"
jq -e '.results[0] | .applet == "stream" and .status == "interrupted" and
	(.message | test("SIGTERM: kept [0-9]+ of 200 rounds"))' "$TMPD/s.json" >/dev/null
tap $? "stream: --json written, status \"interrupted\", rounds kept named"
one_line "$TMPD/s.err" SIGTERM "$TMPD/s.json"

# ---- lat, mem, csum: SIGINT once the handler is in place ----
for cmd in "lat" "mem page" "csum --calls 1000000"; do
	name=${cmd%% *}
	$BB $cmd --json "$TMPD/$name.json" >"$TMPD/$name.out" 2>"$TMPD/$name.err" &
	P=$!
	PIDS="$PIDS $P"
	wait_caught "$P"
	tap $? "$name: catches SIGINT"
	kill -INT "$P"
	wait "$P"
	rc=$?
	[ "$rc" -eq 1 ]
	tap $? "$name: SIGINT exits 1 (exit $rc)"
	jq -e --arg a "$name" '.results[0] | .applet == $a and .status == "interrupted" and
		(.message | test("^interrupted by SIGINT"))' "$TMPD/$name.json" >/dev/null
	tap $? "$name: --json written with status \"interrupted\""
	one_line "$TMPD/$name.err" SIGINT "$TMPD/$name.json"
done

# ---- compare names the runs that were cut ----
if $BB compare "$TMPD/csum.json" "$TMPD/csum.json" >"$TMPD/cmp.out" 2>&1 ||
   ! grep -q "without cJSON" "$TMPD/cmp.out"; then
	expect_grep "the csum result was cut short (interrupted by SIGINT" "$TMPD/cmp.out" \
		"compare says which run was cut short"
	$BB compare "$json" "$json" >"$TMPD/cmp2.out" 2>&1
	expect_grep "the lat result was cut short (interrupted by SIGINT" "$TMPD/cmp2.out" \
		"compare names run's interrupted applet"
	expect_exit 0 "report of the interrupted run exits 0" -- \
		$BB report "$json" "$TMPD/csum.json" -o "$TMPD/cut.html"
	expect_grep "lat (interrupted: left out)" "$TMPD/cut.html" \
		"report's runs table says lat was interrupted and left out"
	expect_grep "csum (interrupted: left out)" "$TMPD/cut.html" \
		"  ... and so for the interrupted csum run"
else
	tap 0 "compare # SKIP built without cJSON"
fi

# ---- one SIGINT delivered twice is one; a second SIGINT ends the program ----
# stdout is a pipe already full, so stream blocks writing its header with
# the handler in place.  Two SIGINTs back to back are one interrupt
# delivered twice (what `timeout -s INT` does: the child, then its process
# group): stream lives on, and once the pipe drains it ends as interrupted
# (exit 1).  In a second stream, a SIGINT more than half a second after the
# first ends the program at once, though it is still blocked and would
# otherwise finish.
python3 - "$BB" "$TAP_N" <<'PYEOF'
import fcntl, os, signal, subprocess, sys, time

def caught(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("SigCgt:"):
                return int(line.split()[1], 16) & 2 != 0
    return False

n = int(sys.argv[2])

def tap(ok, what):
    global n
    n += 1
    print("%s %d - %s" % ("ok" if ok else "not ok", n, what))

def wait(cond, limit=300):
    end = time.time() + limit
    while time.time() < end:
        if cond():
            return True
        time.sleep(0.02)
    return False

def blocked_stream():
    r, w = os.pipe()
    try:
        fcntl.fcntl(w, 1031, 4096)          # F_SETPIPE_SZ: a small pipe
    except OSError:
        pass
    os.set_blocking(w, False)
    try:
        while True:
            os.write(w, b"x" * 4096)
    except BlockingIOError:
        pass
    os.set_blocking(w, True)
    p = subprocess.Popen([sys.argv[1], "stream", "-s", "1M", "-N", "3"], stdout=w,
                         stderr=subprocess.DEVNULL)
    os.close(w)
    return p, r

def drain(r):
    while os.read(r, 65536):
        pass
    os.close(r)

def ended(p, limit=60):
    try:
        return p.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        p.kill()
        return p.wait()

p, r = blocked_stream()
tap(wait(lambda: caught(p.pid)), "stream catches SIGINT")
os.kill(p.pid, signal.SIGINT)
os.kill(p.pid, signal.SIGINT)
time.sleep(0.2)
tap(p.poll() is None, "one SIGINT delivered twice does not end the program")
drain(r)
rc = ended(p)
tap(rc == 1, "it ends as interrupted once its output drains (exit %d)" % rc)

p, r = blocked_stream()
tap(wait(lambda: caught(p.pid)), "a second stream catches SIGINT")
os.kill(p.pid, signal.SIGINT)
time.sleep(0.7)
os.kill(p.pid, signal.SIGINT)
rc = ended(p)
tap(rc == -signal.SIGINT, "a second SIGINT 0.7 s later ends the program at once (%d)" % rc)
os.close(r)
PYEOF
TAP_N=$((TAP_N + 5))

# ---- timeout -s INT on rr and ttcp: their results are kept ----
# timeout signals the child and then its process group: one interrupt.
for k in 1 2 3; do
	timeout -s INT 1 $BB rr --loopback --time 30 --json "$TMPD/rrint$k.json" >/dev/null 2>&1
	rc=$?
	[ $rc -eq 124 ] && jq -e '.results[0].status == "interrupted"' "$TMPD/rrint$k.json" >/dev/null 2>&1
	tap $? "timeout -s INT on rr --loopback ($k): its JSON is kept, interrupted (exit $rc)"
done
