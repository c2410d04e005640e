#!/bin/sh
# tests/integration/test_facts.sh - the `facts` applet end to end: text
# ("key: value" lines) and --json FILE (a results file whose `system`
# holds the same facts, read with jq) for each fixture board in
# tests/fixtures/boards/ through BB_SYSROOT, then the live system (keys
# exist and are strings; nothing assumed about what it has); a stream
# run's JSON carries the facts under `system`, and run's --help says -v
# prints them.
. tests/integration/lib.sh

FIX=tests/fixtures/boards

# board key expected-value ... : facts (text and JSON) of one fixture board
check_board() {
	b=$1
	shift
	expect_exit 0 "facts of $b exits 0" -- env BB_SYSROOT="$FIX/$b" $BB facts
	cp "$TMPD/out" "$TMPD/$b.txt"
	[ ! -s "$TMPD/err" ]
	tap $? "facts of $b prints nothing on stderr"
	expect_exit 0 "facts --json FILE of $b exits 0" -- \
		env BB_SYSROOT="$FIX/$b" $BB facts --json "$TMPD/$b.results.json"
	jq '.system | with_entries(select(.key | contains(".")))' "$TMPD/$b.results.json" \
		>"$TMPD/$b.json" 2>/dev/null
	jq -e 'type == "object" and ([.[] | type == "string"] | all) and length > 5' \
		"$TMPD/$b.json" >/dev/null 2>&1 &&
		jq -e '.schema == "boardbench-results" and .results[0].applet == "facts"' \
		"$TMPD/$b.results.json" >/dev/null 2>&1
	tap $? "facts --json FILE of $b is a results file whose system facts are strings"
	[ "$(jq -r 'to_entries[] | "\(.key): \(.value)"' "$TMPD/$b.json" 2>/dev/null)" = \
	  "$(cat "$TMPD/$b.txt")" ]
	tap $? "facts of $b: text and --json hold the same facts in the same order"
	while [ $# -ge 2 ]; do
		got=$(jq -r --arg k "$1" '.[$k] // "(absent)"' "$TMPD/$b.json" 2>/dev/null)
		[ "$got" = "$2" ]
		tap $? "$b: $1 = $2${got:+ (got $got)}"
		grep -qxF -- "$1: $2" "$TMPD/$b.txt"
		tap $? "$b: text has '$1: $2'"
		shift 2
	done
}

check_board ppc440 \
	dt.model amcc,yosemite \
	cpu.name "440EP Rev. B" \
	cpu.pvr 0x422218d3 \
	kernel.release 2.6.30 \
	kernel.config.CONFIG_HZ 250 \
	kernel.config.CONFIG_PPC_FPU y
check_board mpc8313e \
	soc.revision 2.1 \
	soc.soc_id svr:0x80b00021 \
	cpu.pvr 0x80850020 \
	cpu.name e300c3 \
	kernel.preempt full \
	memory.mc0.dimms "1x 128 MB Unbuffered-DDR2 SECDED"
check_board biglittle \
	dt.model "Pine64 RockPro64 v2.1" \
	cpu.cores "4x 0x41:0xd03 r0p4 (Cortex-A53), 2x 0x41:0xd08 r0p2 (Cortex-A72)" \
	kernel.preempt "full (dynamic)" \
	dt.chosen.u-boot,version 2024.01
check_board geode \
	cpu.family 5 \
	cpu.flags "cmov mmx mmxext 3dnow 3dnowext" \
	kernel.config /boot/config-2.6.22.19-geode \
	kernel.config.CONFIG_X86_USE_3DNOW y \
	board.product_name ALIX.2D3

! grep -q "PCE-2D3-0815\|8b0a1e42" "$TMPD/geode.txt"
tap $? "geode: DMI serial numbers and UUID are not recorded"

# ---- the live system: only what every Linux has ----
expect_exit 0 "facts on this system exits 0" -- $BB facts
expect_grep "^kernel.release: " "$TMPD/out" "facts on this system names the kernel release"
grep -vq "^[a-z][a-z0-9_.,-]*\.[A-Za-z0-9_.,-]*: ." "$TMPD/out"
[ $? -ne 0 ]
tap $? "facts on this system: every line is 'dotted.key: value'"
expect_exit 0 "facts --json - on this system exits 0" -- $BB facts --json -
jq -e '.system | with_entries(select(.key | contains("."))) | type == "object" and
	([.[] | type == "string"] | all) and has("kernel.release")' "$TMPD/out" >/dev/null 2>&1
tap $? "facts --json - on this system: results JSON on stdout, system facts strings with kernel.release"
grep -q "^kernel.release: " "$TMPD/err"
tap $? "facts --json -: the text goes to stderr"
expect_exit 0 "facts --help exits 0" -- $BB facts --help
expect_grep "^usage: boardbench facts" "$TMPD/out" "facts --help prints its usage"
expect_exit 2 "facts with an operand exits 2" -- $BB facts extra

# ---- a results file carries them under system ----
expect_exit 0 "stream -s 1M -N 3 --json exits 0" -- $BB stream -s 1M -N 3 --json "$TMPD/s.json"
jq -e '.system["kernel.release"] | type == "string" and length > 0' "$TMPD/s.json" >/dev/null 2>&1
tap $? "stream's JSON has system[\"kernel.release\"]"
$BB facts --json - 2>/dev/null | jq '.system' > "$TMPD/live.json"
jq -e --slurpfile f "$TMPD/live.json" \
	'. as $r | [$f[0] | keys[] | select(test("\\.now$") | not) | . as $k | $r.system | has($k)] | all' \
	"$TMPD/s.json" >/dev/null 2>&1
tap $? "stream's JSON system has every key 'facts' prints"
jq -e '[.system | to_entries[] | select(.key | contains(".")) | .value | type == "string"] | all' \
	"$TMPD/s.json" >/dev/null 2>&1
tap $? "every dotted system key of stream's JSON is a string"

expect_exit 0 "BB_SYSROOT=ppc440 stream --json exits 0" -- \
	env BB_SYSROOT="$FIX/ppc440" $BB stream -s 1M -N 3 --json "$TMPD/p.json"
jq -e '.system["cpu.pvr"] == "0x422218d3" and .system["dt.model"] == "amcc,yosemite" and
	.system.cpu_model == "440EP Rev. B" and (.system.kernel | startswith("2.6.30 "))' \
	"$TMPD/p.json" >/dev/null 2>&1
tap $? "a fixture root feeds the results' system: PVR, model, cpu_model and kernel"

expect_exit 0 "run --help exits 0" -- $BB run --help
expect_grep "every system fact" "$TMPD/out" "run --help says -v prints every system fact"
