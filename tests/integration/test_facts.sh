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

# ---- three SoC layouts and a virtual machine: memory, caches, clocks, devfreq, SoC ----
check_board imx8mq-evk \
	soc.machine "NXP i.MX8MQ EVK" \
	soc.soc_id i.MX8MQ \
	soc.revision 2.1 \
	dt.soc.compatible "fsl,imx8mq-soc, simple-bus" \
	memory.total_kb 3012340 \
	memory.dt "0x40000000 3072 MiB" \
	cache.L2 "1x 1024K, 64 B lines, 16-way" \
	cache.dt.L1d "4x 32K, 64 B lines, 128 sets" \
	clock.policy0.governor schedutil \
	clock.policy0.available_khz "800000 1000000 1300000 1500000" \
	devfreq.3d400000.memory-controller.hz 800000000 \
	devfreq.3d400000.memory-controller.available_hz "25000000 100000000 800000000" \
	clk.dram_pll_out 800000000
check_board rpi3b \
	dt.model "Raspberry Pi 3 Model B Rev 1.2" \
	dt.soc.compatible simple-bus \
	memory.dt "0x0 948 MiB" \
	cache.dt.L2 "1x 512K, 64 B lines, 512 sets" \
	clock.policy0.governor ondemand \
	clk.fw-clk-arm 600000000
check_board am335x-boneblack \
	soc.machine AM335X \
	soc.family AM33xx \
	soc.revision ES2.1 \
	dt.soc.compatible simple-pm-bus \
	memory.dt "0x80000000 512 MiB" \
	clock.policy0.governor performance \
	clk.dpll_ddr_m2_ck 400000000
check_board qemu-x86 \
	virt.hypervisor qemu \
	memory.dmi "1x 2048 MB RAM" \
	cache.L3 "1x 16384K, 64 B lines, 16-way"
check_board biglittle \
	cache.L2 "1x 512K, 64 B lines, 16-way; 1x 1024K, 64 B lines, 16-way" \
	devfreq.dmc.hz.now 666000000

# soc.serial_id is the documented hash of the serial, which is never recorded
for b in imx8mq-evk:2D1A0E0C4B3F2209 rpi3b:00000000b3c4d5e6; do
	serial=${b#*:}
	want=$(printf 'boardbench soc.serial_id\n%s\n' "$serial" | sha256sum | cut -c1-16)
	grep -qx "soc.serial_id: $want" "$TMPD/${b%%:*}.txt" && ! grep -qi "$serial" "$TMPD/${b%%:*}.txt"
	tap $? "${b%%:*}: soc.serial_id is the first 16 hex digits of SHA-256 over the serial; no serial recorded"
done
grep -q "^soc.serial_id" "$TMPD/am335x-boneblack.txt"
[ $? -ne 0 ]
tap $? "am335x-boneblack: no serial number, no soc.serial_id"

# Two boards' facts files: compare lists how they differ, the DDR controller's clock first among memory
expect_exit 0 "compare of two boards' facts --json files exits 0" -- \
	$BB compare "$TMPD/imx8mq-evk.results.json" "$TMPD/biglittle.results.json" --all
grep -q "^  devfreq.3d400000.memory-controller.hz: A 800000000, B (none)$" "$TMPD/out" &&
	grep -q "^  soc.revision: A 2.1, B (none)$" "$TMPD/out" &&
	grep -q "^  cache.L2: A 1x 1024K, 64 B lines, 16-way, B 1x 512K" "$TMPD/out"
tap $? "compare names the DDR controller's clock, the silicon revision and the caches that differ"
grep -q "devfreq.dmc.hz.now" "$TMPD/out"
[ $? -ne 0 ]
tap $? "compare never calls a clock that moves by design (.hz.now) a difference"

# ---- --fact: a file or a register recorded with the run ----
R=$TMPD/root
mkdir -p "$R/dev" "$R/sys/kernel/debug/ddrc"
printf '  MSTR: 0x01040001\n  PWRCTL:  0x00000000\n' >"$R/sys/kernel/debug/ddrc/cfg"
# a file standing in for /dev/mem: 0xa5 bytes at 0x1000 (the same in either byte order)
dd if=/dev/zero of="$R/dev/mem" bs=4096 count=4 2>/dev/null
printf '\245\245\245\245\132\132\132\132' | dd of="$R/dev/mem" bs=1 seek=4096 conv=notrunc 2>/dev/null
expect_exit 0 "facts --fact FILE --fact mmio:ADDR:WIDTH:MASK (a stand-in /dev/mem) exits 0" -- \
	env BB_SYSROOT="$R" $BB facts --fact ddrc=/sys/kernel/debug/ddrc/cfg \
	--fact reg=mmio:0x1000 --fact bits=mmio:0x1000:32:0x0000ff00 --fact byte=mmio:0x1004:8 \
	--fact wide=mmio:0x1000:64
grep -qx "fact.ddrc: MSTR: 0x01040001 PWRCTL: 0x00000000" "$TMPD/out" &&
	grep -qx "fact.reg: 0xa5a5a5a5" "$TMPD/out" && grep -qx "fact.bits: 0x0000a500" "$TMPD/out" &&
	grep -qx "fact.byte: 0x5a" "$TMPD/out" &&
	grep -qx "fact.wide: 0x\(a5a5a5a55a5a5a5a\|5a5a5a5aa5a5a5a5\)" "$TMPD/out"
tap $? "the file's text (blanks made one) and the register, masked, are facts fact.NAME"

# bad_fact STATUS WHAT PATTERN -- command: one line naming the fact, nothing on stdout
bad_fact() {
	want=$1 what=$2 pat=$3
	shift 4
	"$@" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	[ "$rc" -eq "$want" ] && [ "$(wc -l <"$TMPD/err")" -eq 1 ] && [ ! -s "$TMPD/out" ] &&
		grep -q -- "$pat" "$TMPD/err"
	tap $? "$what: exit $want and one line saying so (exit $rc: $(head -c 160 "$TMPD/err"))"
}
bad_fact 2 "--fact mmio: an address not aligned to its width" "ADDR a multiple of WIDTH/8" -- \
	env BB_SYSROOT="$R" $BB facts --fact r=mmio:0x1002:32
bad_fact 2 "--fact mmio: a width of 12 bits" "WIDTH 8, 16, 32 or 64" -- \
	env BB_SYSROOT="$R" $BB facts --fact r=mmio:0x1000:12
bad_fact 2 "--fact mmio: a mask wider than the register" "MASK not 0 and within WIDTH" -- \
	env BB_SYSROOT="$R" $BB facts --fact r=mmio:0x1000:8:0x100
bad_fact 2 "--fact without NAME=" "expected NAME=PATH" -- $BB facts --fact /sys/x
bad_fact 2 "--fact NAME given twice" "a NAME given twice" -- $BB facts --fact a=/x --fact a=/y
bad_fact 2 "--fact of a missing file" "No such file" -- \
	env BB_SYSROOT="$R" $BB facts --fact x=/sys/no/such
bad_fact 2 "--fact of a directory" "Is a directory" -- env BB_SYSROOT="$R" $BB facts --fact x=/sys
head -c 3000 /dev/zero | tr '\0' x >"$R/sys/big"
bad_fact 2 "--fact of a file of 3000 bytes" "more than 2000 bytes" -- \
	env BB_SYSROOT="$R" $BB facts --fact x=/sys/big
bad_fact 1 "--fact mmio: nothing answers past the end of the stand-in" "raised a bus error" -- \
	env BB_SYSROOT="$R" $BB facts --fact r=mmio:0x100000
bad_fact 1 "--fact mmio: no /dev/mem" "cannot open" -- \
	env BB_SYSROOT="$TMPD/nosuchroot" $BB facts --fact r=mmio:0x1000
bad_fact 2 "stream --fact of a missing file, before anything is measured" "No such file" -- \
	env BB_SYSROOT="$R" $BB stream -s 1M -N 3 --fact x=/sys/no/such
bad_fact 2 "ttcp -r --server --fact of a missing file: refused at start, not at a test" "No such file" -- \
	env BB_SYSROOT="$R" timeout -k 5 30 $BB ttcp -r --server --fact x=/sys/no/such

# A --fact value that differs between A and B is named by compare among the differences
printf '1\n' >"$R/sys/pmu"
expect_exit 0 "stream --fact PMU=FILE --json (A) exits 0" -- \
	$BB stream -s 1M -N 3 --fact PMU=$R/sys/pmu --label cfg=A --json "$TMPD/pmuA.json"
printf '0\n' >"$R/sys/pmu"
expect_exit 0 "stream --fact PMU=FILE --json (B) exits 0" -- \
	$BB stream -s 1M -N 3 --fact PMU=$R/sys/pmu --label cfg=B --json "$TMPD/pmuB.json"
jq -e '.system["fact.PMU"] == "0"' "$TMPD/pmuB.json" >/dev/null 2>&1
tap $? "stream's results record the --fact under system as fact.PMU"
expect_exit 0 "compare A B exits 0" -- $BB compare "$TMPD/pmuA.json" "$TMPD/pmuB.json"
grep -q "^  fact.PMU: A 1, B 0" "$TMPD/out"
tap $? "compare names fact.PMU among the fields A and B differ in"
expect_exit 0 "run --only csum --fact ... exits 0" -- \
	env BB_SYSROOT="$R" $BB run --only csum -o "$TMPD/runs" --fact reg=mmio:0x1000:16
jq -e '.system["fact.reg"] == "0xa5a5"' "$TMPD"/runs/*.json >/dev/null 2>&1
tap $? "run records --fact in its results file"

# ---- facts --json FILE, --csv FILE, --label ----
expect_exit 0 "facts --json --csv --label exits 0" -- env BB_SYSROOT="$FIX/imx8mq-evk" \
	$BB facts --json "$TMPD/f.json" --csv "$TMPD/f.csv" --label board=evk --label PMU=0
head -1 "$TMPD/f.csv" | grep -qx "key,value,labels" &&
	grep -qx "soc.revision,2.1,board=evk;PMU=0" "$TMPD/f.csv" &&
	[ "$(($(wc -l <"$TMPD/f.csv") - 1))" -eq "$(jq '.system | with_entries(select(.key | contains("."))) | length' "$TMPD/f.json")" ]
tap $? "facts --csv: key,value,labels, one row per fact"
jq -e '.labels.board == "evk" and .labels.PMU == "0" and .results[0].status == "ok" and
	(.results[0].series | length) == 0' "$TMPD/f.json" >/dev/null 2>&1
tap $? "facts --json: the labels and one result with no series"

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
