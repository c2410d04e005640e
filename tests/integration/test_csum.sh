#!/bin/sh
# tests/integration/test_csum.sh - the `csum` applet end to end: the classic report's
# "Bytes Time Avg (usec/run)" tables and "Total time", the side-by-side
# comparison (ns per call, bytes per cycle or tick, improvement over the
# baseline), --latency, --list, --json, unsupported variants listed, and
# --data agreeing with an independent RFC 1071 sum (od + awk, below) on
# random files of odd and even lengths at odd and even offsets.  Bad
# values exit 2 with one line; the selftest row passes.  Size by size the
# variants alternate round by round: the text says so, the JSON records
# it, and every series keeps the same samples, in the same order, as when
# the variants ran one after another.
. tests/integration/lib.sh

TAB=$(printf '\t')
FAST="-N 200 -r 2"

# ---- the classic report's table, for every variant, then the comparison ----
expect_exit 0 "csum $FAST --variant generic32,unrolled32 exits 0" -- \
	$BB csum $FAST --variant generic32,unrolled32
cp "$TMPD/out" "$TMPD/text"
for v in ref16 generic32 unrolled32; do
	expect_grep "^Starting $v test\.\.\.\.$" "$TMPD/text" "a seed table for $v (the baseline is added)"
done
expect_grep "^Bytes${TAB}Time${TAB}Avg (usec/run)$" "$TMPD/text" "the classic report's table header, tab separated"
expect_grep "^----------------------------$" "$TMPD/text" "the classic report's 28-dash rule"
expect_grep "^Total time: [0-9][0-9]*$" "$TMPD/text" "the classic report's Total time line"
rows=$(awk '/^Starting generic32/{on=1; next} on && /^Total time/{exit} on' "$TMPD/text" |
	grep -c "^[0-9][0-9]*${TAB}[0-9][0-9]*${TAB}[0-9][0-9]*\.[0-9][0-9][0-9][0-9][0-9][0-9]$")
[ "$rows" -eq 9 ]
tap $? "generic32's table has 9 rows of Bytes, Time, Avg with 6 decimals (got $rows)"
sizes=$(awk '/^Starting ref16/{on=1; next} on && /^Total time/{exit} on && /^[0-9]/{printf "%s,", $1}' \
	"$TMPD/text")
[ "$sizes" = "16,32,64,128,256,512,1024,2048,4096," ]
tap $? "default sizes are the classic report's 16..4096 (got $sizes)"
expect_grep "^Side by side: ns per call" "$TMPD/text" "the side-by-side table follows"
expect_grep "^Bytes  *ref16  *generic32  *unrolled32$" "$TMPD/text" "the comparison has a column per variant"
expect_grep "^Bytes per .*\(core cycle\|tick\|nanosecond\)" "$TMPD/text" \
	"bytes per cycle or per tick, named as such"
expect_grep "^Improvement over ref16" "$TMPD/text" "improvement over the default baseline ref16"
expect_grep "^Total  *0\.0%  *-*[0-9.]*%  *-*[0-9.]*%$" "$TMPD/text" "a Total improvement row"
expect_grep "^every measured variant agrees with the reference checksum$" "$TMPD/text" \
	"every measured variant is checked against the reference"
expect_grep "^Variants alternate round by round (ABAB\.\.\., the first rotating), size by size\.$" \
	"$TMPD/text" "the text says the variants alternate round by round"

expect_exit 0 "csum --baseline generic32 --sizes 40,1500 exits 0" -- \
	$BB csum $FAST --variant c64 --baseline generic32 --sizes 40,1500
expect_grep "^Improvement over generic32" "$TMPD/out" "--baseline names the baseline"
rows=$(awk '/^Starting c64/{on=1; next} on && /^Total time/{exit} on && /^[0-9]/' "$TMPD/out" | wc -l)
[ "$rows" -eq 2 ]
tap $? "--sizes 40,1500 gives two rows (got $rows)"

# ---- every section of the default run, and JSON ----
expect_exit 0 "csum -N 50 -r 2 --json exits 0" -- $BB csum -N 50 -r 2 --json "$TMPD/c.json"
expect_grep "^ip_fast_csum (IPv4 headers)" "$TMPD/out" "ip_fast_csum is measured"
expect_grep "^csum-and-copy" "$TMPD/out" "csum-and-copy is measured"
expect_grep '"applet": "csum"' "$TMPD/c.json" "the JSON holds the csum result"
expect_grep '"name": "bytes=4096"' "$TMPD/c.json" "the JSON holds a series per size"
expect_grep '"improvement_pct"' "$TMPD/c.json" "the JSON holds the improvement"
expect_grep '"samples"' "$TMPD/c.json" "the JSON keeps the raw samples"

# ---- alternating rounds: the same series and samples as before ----
expect_exit 0 "csum -r 3 --sizes 40,1500 --variant generic32,c64 --json exits 0" -- \
	$BB csum -N 20 -r 3 --sizes 40,1500 --variant generic32,c64 --json "$TMPD/r.json"
jqr() {  # jq-expression description
	jq -e "$1" "$TMPD/r.json" >/dev/null 2>&1
	tap $? "$2"
}
jqr '.results[0].params.rounds == "alternating"' "JSON records that the variants alternate"
jqr '[.results[0].series[] | "\(.variant) \(.name)"] == [
	"ref16 bytes=40", "ref16 bytes=40 counter", "ref16 bytes=1500", "ref16 bytes=1500 counter",
	"generic32 bytes=40", "generic32 bytes=40 counter",
	"generic32 bytes=1500", "generic32 bytes=1500 counter",
	"c64 bytes=40", "c64 bytes=40 counter", "c64 bytes=1500", "c64 bytes=1500 counter"]' \
	"series variant by variant, time then counter, as before the rounds alternated"
jqr '[.results[0].series[] | (.samples | length) == 3 and .discard == 1] | all' \
	"every series keeps all 3 runs, the first dropped"
jqr '[.results[0].series[] | select(.name | endswith("counter") | not)
	| .values.checked == true and .values.calls == 20 and .values.ns_per_call > 0] | all' \
	"every time series is checked and has its per-call figures"
jqr '[.results[0].series[] | select(.name | endswith("counter") | not)
	| .values | has("improvement_pct")] | all' "every size has its improvement"

expect_exit 0 "csum --latency -r 3 --json exits 0" -- \
	$BB csum --latency -N 20 -r 3 --sizes 40 --variant c64 --json "$TMPD/r.json"
expect_grep "^Variants alternate round by round" "$TMPD/out" \
	"--latency says the variants alternate round by round"
jqr '[.results[0].series[] | "\(.variant) \(.name) \(.samples | length)"] == [
	"ref16 bytes=40 3", "ref16 bytes=40 counter 3",
	"ref16 latency bytes=40 3", "ref16 latency bytes=40 counter 3",
	"c64 bytes=40 3", "c64 bytes=40 counter 3",
	"c64 latency bytes=40 3", "c64 latency bytes=40 counter 3"]' \
	"--latency JSON: the same series in the same order, 3 runs each"

expect_exit 0 "csum with one variant exits 0" -- $BB csum -N 20 -r 2 --sizes 64 --variant ref16
! grep -q "alternate" "$TMPD/out"
tap $? "one variant: no note about alternating"

# ---- latency ----
expect_exit 0 "csum --latency exits 0" -- $BB csum --latency -N 100 -r 2 --variant c64
expect_grep "^Variant  *40 B thr  *40 B lat  *1500 B thr  *1500 B lat$" "$TMPD/out" \
	"--latency reports throughput and latency at 40 and 1500 bytes"
expect_grep "^c64  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*$" "$TMPD/out" "--latency has a row per variant"

# ---- --list and unsupported variants ----
expect_exit 0 "csum --list exits 0" -- $BB csum --list
cp "$TMPD/out" "$TMPD/list"
expect_grep "^  ref16  *supported" "$TMPD/list" "--list shows ref16 as supported"
for v in generic32 unrolled32 c64 ip-generic copy-c64; do
	expect_grep "^  $v " "$TMPD/list" "--list shows $v"
done
# The arch variants (sse2, avx2, avx512, neon, ...) depend on the CPU: each
# is listed as one or the other, never assumed present or absent.
awk '/^  / { n++; if ($2 != "supported" && $2 != "unsupported") bad = 1 } END { exit bad || n < 5 }' \
	"$TMPD/list"
tap $? "--list says supported or unsupported for every variant"
unsup=$(awk '$2 == "unsupported" {print $1; exit}' "$TMPD/list")
if [ -n "$unsup" ]; then
	expect_exit 0 "csum --variant $unsup (unsupported here) exits 0" -- \
		$BB csum $FAST --sizes 64 --variant "$unsup"
	expect_grep "^unsupported on this CPU (not run): .*$unsup" "$TMPD/out" \
		"$unsup is listed as unsupported, not skipped silently"
	expect_exit 2 "--baseline $unsup (unsupported here) exits 2" -- $BB csum --baseline "$unsup"
fi

# ---- the Geode report's i386 shapes: 32-bit x86 code ----
# An x86-64 build (adc64) lists them as unsupported, never leaves them out;
# a 32-bit build (adc32) runs them and checks them like every variant.
if grep -q "^  adc64 " "$TMPD/list"; then
	for v in i386-generic i386-ppro; do
		expect_grep "^  $v  *unsupported " "$TMPD/list" "x86-64 lists $v as unsupported"
	done
	expect_exit 0 "csum --variant i386-ppro,i386-generic,generic32 exits 0 on x86-64" -- \
		$BB csum $FAST --sizes 64,1500 --variant i386-ppro,i386-generic,generic32
	expect_grep "^unsupported on this CPU (not run): i386-ppro,i386-generic$" "$TMPD/out" \
		"x86-64 says the i386 shapes were not run"
	! grep -q "^Starting i386-" "$TMPD/out"
	tap $? "no table for a variant that was not run"
	expect_grep "^Starting generic32 test\.\.\.\.$" "$TMPD/out" "the runnable variant still runs"
elif grep -q "^  adc32 " "$TMPD/list"; then
	for v in i386-generic i386-ppro; do
		expect_grep "^  $v  *supported " "$TMPD/list" "a 32-bit x86 build runs $v"
	done
	expect_exit 0 "csum --variant i386-generic,i386-ppro exits 0" -- \
		$BB csum $FAST --variant i386-generic,i386-ppro
	expect_grep "^every measured variant agrees with the reference checksum$" "$TMPD/out" \
		"both i386 shapes agree with the reference"
	for v in i386-generic i386-ppro; do
		expect_grep "^Starting $v test\.\.\.\.$" "$TMPD/out" "a seed table for $v"
	done
fi

# ---- --data against an independent RFC 1071 sum ----
# od prints the bytes from the offset; awk pairs them from there, odd
# bytes last as the high byte, and folds the carries back in.
rfc1071() {  # file offset -> four hex digits
	od -An -v -tu1 -j "$2" "$1" | awk '
		{ for (i = 1; i <= NF; i++) { s += (n % 2 == 0) ? $i * 256 : $i; n++ } }
		END { while (s > 65535) s = (s % 65536) + int(s / 65536); printf "%04x\n", s }'
}

printf '\000\001\362\003\364\365\366\367' >"$TMPD/rfc"
expect_exit 0 "csum --data on the RFC 1071 example exits 0" -- $BB csum --data "$TMPD/rfc"
expect_grep "^ref16  *ddf2  *220d$" "$TMPD/out" "the RFC 1071 example sums to ddf2"
[ "$(rfc1071 "$TMPD/rfc" 0)" = ddf2 ]
tap $? "the test's own RFC 1071 sum gives ddf2 for the example"

for len in 1 2 999 1000 65537 70001 131072; do
	head -c "$len" /dev/urandom >"$TMPD/f$len"
	for off in 0 1 2 3 7; do
		[ "$off" -le "$len" ] || continue
		want=$(rfc1071 "$TMPD/f$len" "$off")
		$BB csum --data "$TMPD/f$len" --offset "$off" >"$TMPD/out" 2>"$TMPD/err"
		rc=$?
		bad=$(awk -v w="$want" 'NR > 2 && NF == 3 && $2 != w {print $1}' "$TMPD/out" | tr '\n' ' ')
		n=$(awk 'NR > 2 && NF == 3' "$TMPD/out" | wc -l)
		[ "$rc" -eq 0 ] && [ -z "$bad" ] && [ "$n" -ge 5 ]
		tap $? "--data of $len random bytes at offset $off: all $n lines = $want ${bad:+(wrong: $bad)}"
	done
done
: >"$TMPD/empty"
expect_exit 0 "--data of an empty file exits 0" -- $BB csum --data "$TMPD/empty"
expect_grep "^ref16  *0000  *ffff$" "$TMPD/out" "an empty file sums to 0000"
expect_exit 0 "--offset equal to the file length exits 0" -- \
	$BB csum --data "$TMPD/f1000" --offset 1000
expect_grep "^c64  *0000 " "$TMPD/out" "nothing left to sum gives 0000"

# ---- bad values: exit 2 with one line ----
bad2() {  # description -- command...
	what=$1; shift 2
	"$@" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	lines=$(wc -l <"$TMPD/err")
	[ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$TMPD/out" ]
	tap $? "$what exits 2 with one line (exit $rc, $lines lines)"
}
bad2 "-N 0" -- $BB csum -N 0
bad2 "-N abc" -- $BB csum -N abc
bad2 "-N 2000000000" -- $BB csum -N 2000000000
bad2 "-r 1" -- $BB csum -r 1
bad2 "--sizes ''" -- $BB csum --sizes ""
bad2 "--sizes 0" -- $BB csum --sizes 0
bad2 "--sizes 16,,32" -- $BB csum --sizes 16,,32
bad2 "--sizes 16," -- $BB csum --sizes 16,
bad2 "--sizes 65M" -- $BB csum --sizes 65M
bad2 "--sizes abc" -- $BB csum --sizes abc
bad2 "--variant nosuch" -- $BB csum --variant nosuch
bad2 "--variant ''" -- $BB csum --variant ""
bad2 "--baseline nosuch" -- $BB csum --baseline nosuch
bad2 "--baseline ip-generic" -- $BB csum --baseline ip-generic
bad2 "--offset 64 without --data" -- $BB csum --offset 64
bad2 "--offset -1" -- $BB csum --data "$TMPD/rfc" --offset -1
bad2 "--offset beyond the end" -- $BB csum --data "$TMPD/rfc" --offset 9
bad2 "--data of a missing file" -- $BB csum --data "$TMPD/no/such/file"
bad2 "--data of a directory" -- $BB csum --data "$TMPD"
bad2 "--data with --latency" -- $BB csum --data "$TMPD/rfc" --latency
bad2 "--latency with an ip_fast_csum variant" -- $BB csum --latency --variant ip-generic
bad2 "--data with a csum-and-copy variant" -- $BB csum --data "$TMPD/rfc" --variant copy-c64
bad2 "an operand" -- $BB csum extra
bad2 "an unknown option" -- $BB csum --bogus
bad2 "--sizes without a value" -- $BB csum --sizes

# ---- endless and blocking inputs: bounded, and stopped by the first signal ----
# (every command under timeout: a hang fails the test instead of the suite)
for dev in /dev/zero /dev/full; do
	[ -r "$dev" ] || { echo "ok - --data $dev # SKIP no $dev"; continue; }
	timeout -k 5 60 $BB csum --data "$dev" --max-bytes 4M --variant ref16 >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMPD/err")" -eq 1 ] && grep -q -- "--max-bytes 4194304" "$TMPD/err"
	tap $? "--data $dev stops at --max-bytes 4M: exit 2, one line naming the limit (exit $rc)"
done
printf '%05000d' 0 >"$TMPD/big"
expect_exit 2 "--data of a file larger than --max-bytes exits 2 before reading" -- \
	timeout -k 5 60 $BB csum --data "$TMPD/big" --max-bytes 4K
expect_exit 0 "--data of a file of exactly --max-bytes exits 0" -- \
	timeout -k 5 60 $BB csum --data "$TMPD/big" --max-bytes 5000
bad2 "--max-bytes without --data" -- $BB csum --max-bytes 1M
bad2 "--max-bytes 0" -- $BB csum --data "$TMPD/rfc" --max-bytes 0

# pid_reads PID FILE: whether process PID has FILE open (it is then past
# setting up its signal handlers): the test waits for that, not for a time.
pid_reads() {
	for _fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$_fd" 2>/dev/null)" = "$2" ] && return 0
	done
	return 1
}
# stop_when_reading SIG FILE ARGS...: csum --data FILE in the background,
# SIG once it reads; its exit status in $rc, stderr in $TMPD/err.
stop_when_reading() {
	sig=$1; file=$2; shift 2
	timeout -k 5 60 $BB csum --data "$file" --variant ref16 "$@" >"$TMPD/out" 2>"$TMPD/err" &
	tpid=$!
	i=0
	while [ $i -lt 200 ]; do
		pid=$(pgrep -P "$tpid" 2>/dev/null | head -1)
		[ -n "$pid" ] && pid_reads "$pid" "$file" && break
		sleep 0.1
		i=$((i + 1))
	done
	[ -n "$pid" ] && kill -"$sig" "$pid" 2>/dev/null
	wait "$tpid"
	rc=$?
}
if [ -d /proc/self/fd ] && command -v pgrep >/dev/null 2>&1; then
	stop_when_reading INT /dev/zero --max-bytes 1024G --json "$TMPD/zero.json"
	[ "$rc" -eq 1 ] && jq -e '.results[0].status == "interrupted" and
		(.results[0].message | test("SIGINT: kept the sums of the first [0-9]+ bytes"))' \
		"$TMPD/zero.json" >/dev/null 2>&1
	tap $? "--data /dev/zero stops at the first SIGINT: exit 1, the sums so far kept as interrupted (exit $rc)"
	mkfifo "$TMPD/fifo"
	stop_when_reading TERM "$TMPD/fifo" --json "$TMPD/fifo.json"
	[ "$rc" -eq 1 ] && jq -e '.results[0].status == "interrupted" and .results[0].params.bytes == 0' \
		"$TMPD/fifo.json" >/dev/null 2>&1
	tap $? "--data FIFO with no writer: the first SIGTERM ends the wait, exit 1 (exit $rc)"
	(cat /dev/zero >"$TMPD/fifo" 2>/dev/null &)
	timeout -k 5 60 $BB csum --data "$TMPD/fifo" --max-bytes 1M --variant ref16 >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	[ "$rc" -eq 2 ] && grep -q -- "--max-bytes 1048576" "$TMPD/err"
	tap $? "--data FIFO fed without end stops at --max-bytes: exit 2 (exit $rc)"
	printf 'hello' >"$TMPD/hello"
	(sleep 0; cat "$TMPD/hello" >"$TMPD/fifo") &
	expect_exit 0 "--data FIFO with a writer that ends: its bytes summed, exit 0" -- \
		timeout -k 5 60 $BB csum --data "$TMPD/fifo" --variant ref16
	expect_grep "^csum of .*: 5 bytes" "$TMPD/out" "--data FIFO: all 5 bytes written were read"
	wait
else
	echo "ok - --data and signals # SKIP no /proc/PID/fd or pgrep"
fi

# ---- selftest ----
expect_exit 0 "selftest --only csum passes" -- $BB selftest --only csum
expect_grep "^csum ref16  *partial sum  *passed" "$TMPD/out" "selftest has a line for ref16"
expect_grep "^csum ip-generic  *ip_fast_csum  *passed" "$TMPD/out" "selftest checks ip_fast_csum"
expect_grep "^csum copy-c64  *csum-and-copy  *passed" "$TMPD/out" "selftest checks csum-and-copy"
if grep -q "^  adc64 " "$TMPD/list"; then
	expect_grep "^csum i386-ppro  *partial sum  *unsupported on this CPU, not checked$" "$TMPD/out" \
		"selftest names i386-ppro as unsupported on x86-64"
elif grep -q "^  adc32 " "$TMPD/list"; then
	for v in i386-generic i386-ppro; do
		expect_grep "^csum $v  *partial sum  *passed" "$TMPD/out" "selftest checks $v"
	done
fi
