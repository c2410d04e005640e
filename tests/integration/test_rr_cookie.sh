#!/bin/sh
# tests/integration/test_rr_cookie.sh - `rr -s -u` is no amplifier
# (docs/rr.md): a python3 peer on loopback sends raw datagrams as a forger
# would and counts the bytes that come back.  A hello asking for 65507-byte
# responses, and requests after it, from a source that echoed no cookie get
# at most a 24-byte cookie back, never more bytes than were sent; a
# forged cookie, one made for another port and a stale one are refused and
# counted; an old version's hello gets a 24-byte refusal; a flood of hellos
# gets no more answers than the rate bound allows.  A source that echoes
# its cookie gets its big responses, one per request carrying the session
# key (a replayed one, one without the key and an end without it are not
# answered, and are counted).  Then the same server serves boardbench UDP
# clients with 8-byte and 4 KiB responses, figures consistent.
. tests/integration/lib.sh
. tests/integration/net_lib.sh

if ! command -v jq >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	echo "ok 1 - # SKIP needs jq and python3"
	exit 0
fi

cat >"$TMPD/forger.py" <<'PYEOF'
# Talks to an `rr -s -u` server on 127.0.0.1:PORT with raw datagrams and
# writes one line per check: "check RC description" (RC 0 passed).
# Phases: "before" (no session is made), "session" (a verified session,
# ended with the key), "flood" (many hellos at once).
import os, socket, struct, sys, time
port, phase = int(sys.argv[1]), sys.argv[2]
SRV = ('127.0.0.1', port)
BIG = 65507

def ctl(t, *words):
    return bytes([0xBB, ord('R'), ord('R'), ord(t)]) + struct.pack('>5I', *words)

def hello(ver=2, req=8, resp=BIG, k=1, cookie=b''):
    return ctl('H', ver, 1, req, resp, k) + cookie

def sock():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(('127.0.0.1', 0))
    return s

def drain(s, secs):
    """Every datagram that arrives within secs."""
    got, end = [], time.monotonic() + secs
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return got
        s.settimeout(left)
        try:
            got.append(s.recvfrom(70000)[0])
        except socket.timeout:
            return got

def check(ok, what):
    print('check', 0 if ok else 1, what, flush=True)

def kind(d):
    return chr(d[3]) if len(d) >= 4 and d[0] == 0xBB else 'data'

def get_cookie(s):
    s.sendto(hello(), SRV)
    got = drain(s, 0.5)
    cs = [d for d in got if kind(d) == 'C' and len(d) == 24]
    return cs[0][8:24] if cs else None

def key_seq(seq, key):
    return struct.pack('>Q', seq ^ (key << 24))

def before():
    # a hello for 65507-byte responses and ten requests, no cookie echoed
    s = sock()
    sent = 0
    for d in [hello()] + [struct.pack('>Q', i) for i in range(10)]:
        s.sendto(d, SRV)
        sent += len(d)
    got = drain(s, 0.7)
    back = sum(len(d) for d in got)
    check(back <= sent and all(len(d) <= 24 for d in got),
          f'no cookie: {back} bytes back for {sent} sent, none above 24 ({[len(d) for d in got]})')
    check([kind(d) for d in got] == ['C'], f'no cookie: one cookie back, no response ({[kind(d) for d in got]})')
    # a forged cookie: a fresh cookie back (24 bytes for 40), no ack
    s = sock()
    s.sendto(hello(cookie=os.urandom(16)), SRV)
    got = drain(s, 0.5)
    check([(kind(d), len(d)) for d in got] == [('C', 24)], f'a forged cookie: refused, a 24-byte cookie back ({[(kind(d), len(d)) for d in got]})')
    # a cookie made for another port of the same address
    a, b = sock(), sock()
    c = get_cookie(a)
    check(c is not None, 'a cookie for a 24-byte hello')
    b.sendto(hello(cookie=c or bytes(16)), SRV)
    got = drain(b, 0.5)
    check([kind(d) for d in got] == ['C'], f"another port's cookie: refused ({[kind(d) for d in got]})")
    # an old version's hello: a refusal no larger than it
    s = sock()
    s.sendto(hello(ver=1), SRV)
    got = drain(s, 0.5)
    ok = len(got) == 1 and len(got[0]) <= 24 and kind(got[0]) == 'A' and struct.unpack('>I', got[0][8:12])[0] == 1
    check(ok, f'version 1: one refusal of at most 24 bytes ({[(kind(d), len(d)) for d in got]})')
    # a stale cookie: two periods (4 s) on
    s = sock()
    c = get_cookie(s)
    time.sleep(4.3)
    s.sendto(hello(cookie=c or bytes(16)), SRV)
    got = drain(s, 0.5)
    check(c is not None and [kind(d) for d in got] == ['C'], f'a stale cookie: refused, a fresh cookie back ({[kind(d) for d in got]})')

def session():
    s = sock()
    c = get_cookie(s)
    s.sendto(hello(cookie=c or bytes(16)), SRV)
    got = drain(s, 0.5)
    acks = [d for d in got if kind(d) == 'A' and len(d) == 24]
    check(len(acks) == 1 and struct.unpack('>I', acks[0][8:12])[0] == 0,
          f'the cookie echoed: accepted ({[(kind(d), len(d)) for d in got]})')
    if not acks:
        return
    key = struct.unpack('>I', acks[0][20:24])[0]
    got = []
    for i in range(5):          # one at a time: five 64 KiB at once overflow a socket buffer
        s.sendto(key_seq(i, key), SRV)
        got += drain(s, 0.3)
    check(len(got) == 5 and all(len(d) == BIG for d in got) and
          sorted(d[:8] for d in got) == [key_seq(i, key) for i in range(5)],
          f'verified: five 65507-byte responses to five keyed requests ({[len(d) for d in got]})')
    s.sendto(key_seq(2, key), SRV)                       # a replay
    for i in range(5, 10):                                # without the key
        s.sendto(key_seq(i, key ^ 0x80000000), SRV)
    s.sendto(b'\0' * 9, SRV)                              # the wrong size
    s.sendto(ctl('E', 2, 0, 0, 0, key ^ 1), SRV)          # an end without the key
    got = drain(s, 0.7)
    check(got == [], f'a replay, requests and an end without the key: nothing back ({[len(d) for d in got]})')
    s.sendto(key_seq(5, key), SRV)
    got = drain(s, 1.0)
    check([len(d) for d in got] == [BIG], 'the session goes on: a keyed request answered')
    s.sendto(ctl('E', 2, 0, 0, 0, key), SRV)
    got = drain(s, 0.5)
    check([kind(d) for d in got] == ['E'], 'the end with the key: echoed')

def flood():
    s = sock()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    t0 = time.monotonic()
    n = 300
    for _ in range(n):
        s.sendto(hello(), SRV)
    got = drain(s, 0.5)
    secs = time.monotonic() - t0
    back = sum(len(d) for d in got)
    bound = 20 + 100 * secs + 1
    check(len(got) <= bound and back <= 24 * n,
          f'{n} hellos at once: {len(got)} answers in {secs:.2f} s, within the bound 20 + 100/s ({bound:.0f})')
    check(len(got) < n, f'{n} hellos at once: some withheld ({len(got)} answered)')

{'before': before, 'session': session, 'flood': flood}[phase]()
PYEOF

# jq_true FILE FILTER DESCRIPTION: the filter yields true.
jq_true() {
	if [ "$(jq -r "$2" "$1" 2>/dev/null)" = true ]; then
		tap 0 "$3"
	else
		tap 1 "$3 ($2 on $1: $(jq -c "$2" "$1" 2>&1 | head -c 300))"
	fi
}

# forge PHASE: runs the forger and turns its checks into TAP lines.
forge() {
	python3 "$TMPD/forger.py" "$PORT" "$1" >"$TMPD/forge.$1" 2>"$TMPD/forge.$1.err"
	tap $? "forger phase $1 ran ($(head -c 200 "$TMPD/forge.$1.err"))"
	while read -r _ rc what; do
		tap "$rc" "$what"
	done <"$TMPD/forge.$1"
}

next_port
"$BB" rr -s -u -p "$PORT" --accept-timeout 30 --idle-timeout 10 --clients 3 \
	--json "$TMPD/s.json" >"$TMPD/s.out" 2>"$TMPD/s.err" &
SPID=$!
PIDS="$PIDS $SPID"
wait_for '^rr-s: serving UDP' "$TMPD/s.out" 20
tap $? "rr -s -u listens"

forge before
forge session
wait_for '^rr-s: UDP:' "$TMPD/s.out" 10
S1='[.results[] | select(.applet == "rr")][0].params'

forge flood
# two boardbench clients, 8-byte and 4 KiB responses
LAT='.results[0].series[] | select(.name == "latency") | .values'
for resp in 8 4K; do
	expect_exit 0 "rr -u -L $resp -n 2000 against the server exits 0" -- \
		"$BB" rr -u -p "$PORT" -n 2000 --warmup 0.05 -L "$resp" --inflight 2 \
		--json "$TMPD/c$resp.json" 127.0.0.1
	jq_true "$TMPD/c$resp.json" "[$LAT | .transactions > 0 and .transactions + .lost == 2000
		and .foreign == 0 and .min_s > 0 and .min_s <= .p50_s and .p50_s <= .p99_s and
		.p99_s <= .max_s and (.transactions_per_s * .elapsed_s - .transactions | fabs) < 1]
		== [true]" "-L $resp: 2000 transactions answered or lost, none foreign, figures in order"
done
wait "$SPID"
tap $? "the server exits 0 after its three clients"
jq_true "$TMPD/s.json" "$S1 | .cookies_refused == 3 and .transactions == 6 and
	.foreign == 7 and .malformed == 1 and .response_bytes == 65507 and
	.unverified_dropped == 0" "the forged session's record: 3 cookies refused, 6 answered, 7 foreign, 1 malformed"
jq_true "$TMPD/s.json" "$S1 | .cookies_sent >= 6" "... and the cookies it sent counted"
jq_true "$TMPD/s.json" '[.results[] | select(.applet == "rr")][1].params |
	.unverified_dropped > 0 and .foreign == 0 and .malformed == 0 and .transactions >= 1 and
	.response_bytes == 8' "after the flood: answers withheld counted, the next client served"
jq_true "$TMPD/s.json" '[.results[] | select(.applet == "rr")][2].params |
	.response_bytes == 4096 and .foreign == 0 and .transactions >= 1' "the 4 KiB client served"
expect_grep '^rr-s: UDP: before the session: cookies sent [0-9]*, forged or stale cookies refused 3,' \
	"$TMPD/s.out" "the server's text names the refused cookies"
