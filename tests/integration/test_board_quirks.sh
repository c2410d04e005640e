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
