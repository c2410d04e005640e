#!/bin/sh
# boards/lava.sh - runs the project's LAVA test definitions on a board image
# (boards/image.sh) with LAVA's own dispatcher, lava-run, and checks what
# came back (`make board-test`):
#
#   boards/lava.sh BOARD [BUILD-DIR]      BUILD-DIR default build-board-BOARD
#
# 1. the device dictionary: BUILD-DIR/device.jinja2 extends lava-server's
#    qemu.jinja2 (from `apt-get download lava-server`, unpacked, never
#    installed) and is rendered to device.yaml with its base.jinja2;
# 2. the job, BUILD-DIR/job.yaml (boards/job.sh): boot the kernel and
#    initramfs under qemu, then boards/lava/checks.yaml (facts, selftest),
#    packaging/lava/boardbench.yaml (the quick suite, a test case per
#    headline metric) and boards/lava/net.yaml (ttcp board -> host, host ->
#    the board's server through hostfwd on 127.0.0.1, then the results
#    files printed between markers);
# 3. lava-run, with the host's ends of the network tests beside it;
# 4. the checks, one TAP line each: the job completed, every test case
#    passed, facts named the device tree's model and the CPU, selftest
#    passed, every applet of the suite has a test case with a measurement
#    and it is the number in the results JSON brought back, the byte counts
#    are exact at both ends of both network tests.
# The files come back into BUILD-DIR/lava/files/ (results JSON, facts,
# selftest, the ttcp JSON of each end); lava-run's log is BUILD-DIR/lava/.
# BOARD_ONLY limits the suite (--only), BOARD_LABELS adds labels, BOARD_MEM
# sets the memory (bamboo runs the suite in 32M),
# BOARD_NET=0 leaves the network tests out, BOARD_TIMEOUT bounds lava-run
# (seconds, default 2400).  Exit status: 0 when every check passed.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$HERE")
BOARD=${1:?usage: boards/lava.sh BOARD [BUILD-DIR]}
D=${2:-build-board-$BOARD}
[ -f "$D/board.env" ] || { echo "boards/lava.sh: no $D/board.env: make board-image BOARD=$BOARD first" >&2; exit 2; }
D=$(cd "$D" && pwd)
. "$D/board.env"
CACHE=${BOARD_CACHE:-/var/cache/boardbench-boards}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
HOSTBB=${BOARD_HOST_BB:-$TOP/boardbench}
[ -x "$HOSTBB" ] || { echo "boards/lava.sh: no host build $HOSTBB (make)" >&2; exit 1; }
command -v lava-run >/dev/null 2>&1 || { echo "boards/lava.sh: no lava-run: apt-get install lava-dispatcher" >&2; exit 1; }
. "$HERE/debs.sh"

# ---- lava-server's templates and a kernel for libguestfs's appliance ----
templates() {
	t=$(ls -d "$CACHE"/root-lava-server_*/usr/share/lava-server/device-types 2>/dev/null | tail -1)
	if [ -z "$t" ]; then
		f=$(deb_fetch lava-server:all) && r=$(deb_unpack "$f") || return 1
		t=$r/usr/share/lava-server/device-types
	fi
	echo "$t"
}
TEMPLATES=$(templates) || { echo "boards/lava.sh: lava-server's device types could not be had" >&2; exit 1; }
# lava-run makes the test overlay disk with libguestfs, whose appliance
# boots the host's kernel: Debian's, unpacked (this machine has none in
# /boot); under TCG (/dev/kvm may exist where KVM does not work, and
# libguestfs then hangs trying it): BOARD_KVM=1 lets it try KVM.
KROOT=$(deb_kernel amd64 amd64) || exit 1
KVER=$(ls "$KROOT/lib/modules" | head -1)
[ -f "$KROOT/lib/modules/$KVER/modules.dep" ] || depmod -b "$KROOT" "$KVER"
export SUPERMIN_KERNEL="$KROOT/boot/vmlinuz-$KVER" SUPERMIN_KERNEL_VERSION="$KVER"
export SUPERMIN_MODULES="$KROOT/lib/modules/$KVER"
[ "${BOARD_KVM:-0}" = 1 ] || export LIBGUESTFS_BACKEND_SETTINGS=force_tcg

# ---- ports (tests/port_base.sh) and the job ----
base=$(sh "$TOP/tests/port_base.sh" $$)
HOSTPORT=$((base + 7))
FWDPORT=$((base + 8))
SERVERPORT=5002
NBUF=${BOARD_NBUF:-256}
BUFLEN=8192
NET=${BOARD_NET:-1}
case $b_nic in none | *:off) NET=0 ;; esac   # no network this board can use
L=$D/lava
rm -rf "$L"
mkdir -p "$L/out" "$L/files"
export BOARD HOSTPORT FWDPORT SERVERPORT NBUF BUFLEN NET
sh "$HERE/job.sh" "$D" >"$L/job.yaml" || exit 1
sh "$HERE/job.sh" --device "$D" >"$L/device.jinja2" || exit 1
"$PY" - "$TEMPLATES" "$L/device.jinja2" >"$L/device.yaml" <<'EOF' || { echo "boards/lava.sh: rendering the device dictionary failed" >&2; exit 1; }
import sys, jinja2, yaml
env = jinja2.Environment(loader=jinja2.FileSystemLoader([sys.argv[1]]), trim_blocks=True, autoescape=False)
text = env.from_string(open(sys.argv[2]).read()).render()
yaml.safe_load(text)
print(text)
EOF

# ---- the host's ends of the network tests ----
PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
}
trap cleanup EXIT INT TERM
if [ "$NET" = 1 ]; then
	"$HOSTBB" ttcp -r -s -f m --bind 127.0.0.1 -p "$HOSTPORT" --accept-timeout 3000 \
		--json "$L/files/host-rx.json" >"$L/host-rx.txt" 2>&1 &
	PIDS="$PIDS $!"
	# The board's server comes up late in the job: try until a test ends.
	(
		i=0
		while [ $i -lt 1500 ]; do
			if "$HOSTBB" ttcp --to-server 127.0.0.1 -p "$FWDPORT" -n "$NBUF" -l "$BUFLEN" -f m \
				--connect-timeout 5 --json "$L/files/host-tx.json" >"$L/host-tx.txt" 2>&1; then
				exit 0
			fi
			sleep 2
			i=$((i + 2))
		done
		exit 1
	) &
	PIDS="$PIDS $!"
fi

# ---- lava-run ----
echo "# lava-run: $BOARD ($KDESC); log in $L/out"
t0=$(date +%s)
timeout -k 30 "${BOARD_TIMEOUT:-2400}" lava-run --job-id "$BOARD" --output-dir "$L/out" \
	--device "$L/device.yaml" "$L/job.yaml" >"$L/lava-run.log" 2>&1
rc=$?
echo "# lava-run exited $rc after $(($(date +%s) - t0)) s"
cleanup
sleep 1

# ---- what came back ----
"$PY" "$HERE/lava_check.py" "$L/lava-run.log" "$L/files" "$NET" "$NBUF" "$BUFLEN" >"$L/check.tap" 2>&1
crc=$?
cat "$L/check.tap"
[ $rc -eq 0 ] || echo "not ok - lava-run exited $rc"
p=$(grep -c '^ok ' "$L/check.tap")
f=$(grep -c '^not ok ' "$L/check.tap")
[ $rc -eq 0 ] || f=$((f + 1))
[ $crc -eq 0 ] || [ "$f" -gt 0 ] || f=1
echo "$BOARD: $p passed, $f failed (files in $L/files)"
[ "$f" -eq 0 ]
