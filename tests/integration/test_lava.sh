#!/bin/sh
# tests/integration/test_lava.sh - `run --lava FILE` and the LAVA test
# definition (packaging/lava/): the definition's run steps, run as LAVA
# would (its params in the environment, from the top of the tree) with a
# stand-in lava-test-case in PATH that records its calls, give a passing
# "boardbench-run" and one test case per applet of the quick suite, each
# "NAME --result pass --measurement NUMBER --units UNIT" with the unit its
# applet's headline has; stream-triad's number is the best Triad rate in
# the JSON.  A cut run says fail for what was cut; --repeat numbers the
# files; a directory or "-" with --repeat is a bad value (exit 2).
. tests/integration/lib.sh

PIDS=""
trap 'for p in $PIDS; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$TMPD"' EXIT

# The stand-in: each call is one line of CALLS, arguments separated by '|'.
mkdir -p "$TMPD/bin"
CALLS="$TMPD/calls"
cat >"$TMPD/bin/lava-test-case" <<EOF
#!/bin/sh
IFS='|'
printf '%s\n' "\$*" >>"$CALLS"
EOF
chmod +x "$TMPD/bin/lava-test-case"
: >"$CALLS"

DEF=packaging/lava/boardbench.yaml
OUTD="$TMPD/output"

# The definition's steps, as one shell script (LAVA runs them in order).
steps=""
if python3 -c 'import yaml' 2>/dev/null; then
	steps=$(python3 - "$DEF" <<'EOF'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert d["metadata"]["format"] == "Lava-Test Test Definition 1.0", d["metadata"]
assert d["metadata"]["name"]
for k in ("BOARDBENCH", "LABELS", "ONLY", "OUTPUT"):
    assert k in d["params"], k
print("\n".join(d["run"]["steps"]))
EOF
	)
	tap $? "$DEF is YAML in the Lava-Test Test Definition 1.0 format with its params"
else
	echo "# python3-yaml missing: running boardbench-lava.sh as the steps do"
	steps='./packaging/lava/boardbench-lava.sh -b "${BOARDBENCH}" -l "${LABELS}" -o "${ONLY}" -d "${OUTPUT}"'
fi

BOARDBENCH=$BB_ABS LABELS="lava=1 rev=C" ONLY="" OUTPUT="$OUTD" PATH="$TMPD/bin:$PATH" \
	sh -c "$steps" >"$TMPD/steps.out" 2>"$TMPD/steps.err"
tap $? "the definition's run steps exit 0"
[ -s "$CALLS" ] || sed 's/^/#   /' "$TMPD/steps.err" | tail -5

grep -qx 'boardbench-run|--result|pass' "$CALLS"
tap $? "lava-test-case boardbench-run --result pass"
JSON="$OUTD/boardbench.json"
jq -e '.labels.lava == "1" and .labels.rev == "C"' "$JSON" >/dev/null 2>&1
tap $? "the run's JSON is kept in OUTPUT with the LABELS"

# Every metric call: NAME --result pass --measurement NUMBER --units UNIT.
grep -v '^boardbench-run|' "$CALLS" >"$TMPD/metrics"
bad=$(grep -Evc '^[a-z0-9._-]+\|--result\|pass\|--measurement\|[0-9]+(\.[0-9]+)?\|--units\|[A-Za-z/]+$' \
	"$TMPD/metrics")
[ -s "$TMPD/metrics" ] && [ "$bad" -eq 0 ]
tap $? "every metric is NAME --result pass --measurement NUMBER --units UNIT ($bad not)"
[ "$bad" -eq 0 ] || sed 's/^/#   /' "$TMPD/metrics"
dups=$(cut -d'|' -f1 "$TMPD/metrics" | sort | uniq -d)
[ -z "$dups" ]
tap $? "no test case name twice ($dups)"
zero=$(awk -F'|' '$5 + 0 <= 0' "$TMPD/metrics")
[ -z "$zero" ]
tap $? "every measurement is above zero ($zero)"
n=$(wc -l <"$OUTD/lava-test-cases.sh")
[ "$n" -eq "$(wc -l <"$TMPD/metrics")" ]
tap $? "one call per line of the --lava file ($n lines)"

# unit_of NAME: the recorded units of test case NAME.
unit_of() {
	awk -F'|' -v n="$1" '$1 == n { print $7 }' "$TMPD/metrics"
}

# One headline per applet of the suite, with its unit.
suite=$($BB run --help 2>/dev/null | sed -n 's/^Applets in the quick suite: *//p')
[ -n "$suite" ]
tap $? "run --help names the suite ($suite)"
for a in $suite; do
	case $a in
	stream) name=stream-triad units='MB/s' ;;
	lat) name=lat-largest-set units='ns' ;;
	csum) name=csum-total-generic32 units='ns' ;;
	mem) name=mem-tot-memcpy-libc units='ticks|cycles|ns' ;;
	ttcp) name=ttcp-tcp-transmit units='Mbit/s' ;;
	rr) name=rr-tcp-1x1-rate units='transactions/s' ;;
	*)  # an applet new to the suite: some test case of its own, with a unit
		name=$(cut -d'|' -f1 "$TMPD/metrics" | grep -m1 "^$a-")
		units='[A-Za-z/]+' ;;
	esac
	u=$(unit_of "$name")
	echo "$u" | grep -Eqx "$units"
	tap $? "$a: test case ${name:-$a-...} in $units (got '$u')"
done
u=$(unit_of ttcp-tcp-transmit-streams2)
[ "$u" = "Mbit/s" ]
tap $? "ttcp's 2-stream transfer is a test case of its own, in Mbit/s (got '$u')"

# stream-triad is the median of the kept Triad rates of the plain C
# variant (compare's figure for one run), MB = 10^6.
want=$(jq -r '[.results[] | select(.applet == "stream") | .series[] |
	select(.name == "Triad" and .variant == "c")][0] | .work as $w |
	[.samples[(.discard // 0):][] | $w / .] | sort |
	(if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2
	 end) / 1e6' "$JSON" 2>/dev/null)
got=$(awk -F'|' '$1 == "stream-triad" { print $5 }' "$TMPD/metrics")
awk -v a="$got" -v b="$want" 'BEGIN { exit !(b > 0 && a / b > 0.999 && a / b < 1.001) }'
tap $? "stream-triad ($got) is the JSON's median Triad rate ($want MB/s)"

# Outside LAVA the script prints the lines.
BOARDBENCH=$BB_ABS sh packaging/lava/boardbench-lava.sh -b "$BB_ABS" -o csum -d "$TMPD/out2" \
	>"$TMPD/plain.out" 2>&1
grep -Eq '^lava-test-case csum-total-generic32 --result pass --measurement [0-9.]+ --units ns$' \
	"$TMPD/plain.out"
tap $? "without lava-test-case in PATH, boardbench-lava.sh prints the lines"

# On a board the shell and every tool are BusyBox: the same script under
# BusyBox ash, with nothing but BusyBox's applets in PATH.
if command -v busybox >/dev/null 2>&1; then
	mkdir -p "$TMPD/bbin"
	for a in $(busybox --list); do
		ln -s "$(command -v busybox)" "$TMPD/bbin/$a"
	done
	PATH="$TMPD/bbin" busybox sh packaging/lava/boardbench-lava.sh -b "$BB_ABS" -o csum \
		-d "$TMPD/out3" >"$TMPD/bb.out" 2>&1
	grep -Eq '^lava-test-case csum-total-generic32 --result pass --measurement [0-9.]+ --units ns$' \
		"$TMPD/bb.out" && grep -qx 'lava-test-case boardbench-run --result pass' "$TMPD/bb.out"
	rc=$?
	tap $rc "boardbench-lava.sh under BusyBox ash and BusyBox's tools alone"
	[ $rc -eq 0 ] || sed 's/^/#   /' "$TMPD/bb.out" | tail -5
else
	echo "ok - boardbench-lava.sh under BusyBox ash # SKIP no busybox"
fi

# --repeat: one file per run, numbered before the extension.
expect_exit 0 "run --repeat 3 --only csum,rr --lava r.sh exits 0" -- \
	$BB run --repeat 3 --only csum,rr --json "$TMPD/r.json" --lava "$TMPD/r.sh"
for k in 1 2 3; do
	[ "$(grep -c '^lava-test-case csum-total-generic32 --result pass ' "$TMPD/r-$k.sh" 2>/dev/null)" = 1 ]
	tap $? "run $k's test case is in r-$k.sh"
done

# LAVA's figure is compare's figure for one run: over the 3 runs, the
# geometric mean of each headline's measurements is the figure compare
# prints for that side (to the 3 decimals LAVA prints).  The product of the
# three is compared with the cube of compare's figure: BusyBox awk, as
# Debian builds it, has no log(), exp() or ^.
$BB compare --csv "$TMPD/r.csv" "$TMPD"/r-?.json -- "$TMPD"/r-?.json >"$TMPD/cmp.out" 2>&1
if ! grep -q "built without cJSON" "$TMPD/cmp.out"; then
	for pair in "csum-total-generic32 csum.total.generic32 1e9" "rr-tcp-1x1-rate rr.tcp.1x1.rate 1"
	do
		set -- $pair
		lava=$(cat "$TMPD"/r-?.sh | awk -v n="$1" 'BEGIN { p = 1 } $2 == n { p *= $6; k++ }
			END { if (k == 3) printf "%.17g", p }')
		fig=$(awk -F, -v k="$2" -v sc="$3" '$1 == k { printf "%.17g", $9 * sc }' "$TMPD/r.csv")
		awk -v a="$lava" -v b="$fig" 'BEGIN { d = a / (b * b * b) - 1; exit !(a > 0 && b > 0 &&
			d < 3e-5 && d > -3e-5) }'
		tap $? "$1: the product of the 3 LAVA measurements ($lava) is the cube of compare's geometric mean ($fig)"
	done
else
	echo "ok - compare's figures against LAVA's # SKIP built without cJSON"
fi

# Bad values.
expect_exit 2 "run --lava DIRECTORY exits 2" -- $BB run --only csum --lava "$TMPD"
expect_grep '--lava' "$TMPD/err" "the message names --lava"
expect_exit 2 "run --repeat 2 --lava - exits 2" -- $BB run --repeat 2 --only csum --lava -

# A cut run: stream ends, SIGTERM during csum; what was cut says fail.
$BB run --only stream,csum --json "$TMPD/cut.json" --lava "$TMPD/cut.sh" \
	>"$TMPD/cut.out" 2>"$TMPD/cut.err" &
P=$!
PIDS="$PIDS $P"
wait_for '^stream ' "$TMPD/cut.out" 300
kill -TERM "$P"
wait "$P"
grep -Eq '^lava-test-case stream-triad --result pass --measurement [0-9.]+ --units MB/s$' "$TMPD/cut.sh"
tap $? "cut run: stream, finished, passes with its measurement"
status=$(jq -r '[.results[] | select(.applet == "csum")][0].status // "absent"' "$TMPD/cut.json")
case $status in
interrupted) grep -qx 'lava-test-case csum-total-generic32 --result fail' "$TMPD/cut.sh" ;;
ok) grep -q '^lava-test-case csum-total-generic32 --result pass ' "$TMPD/cut.sh" ;;
*) ! grep -q 'csum' "$TMPD/cut.sh" ;;
esac
tap $? "cut run: csum's test case agrees with its status in the JSON ($status)"
[ "$status" = interrupted ] || echo "# csum was $status, not interrupted: the fail line went untested"
