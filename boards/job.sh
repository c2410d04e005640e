#!/bin/sh
# boards/job.sh - writes the LAVA job (or, with --device, the device
# dictionary) for a board image made by boards/image.sh, on stdout:
#
#   boards/job.sh BUILD-DIR            the job: YAML for lava-run or lavacli
#   boards/job.sh --device BUILD-DIR   the device dictionary (jinja2, extends
#                                      lava-server's qemu.jinja2)
#
# Settings come from the environment (boards/lava.sh sets them): the
# repository the test definitions are cloned from (BOARD_REPO, default this
# clone; BOARD_REVISION, default its HEAD), the image URLs (BOARD_URL,
# default file:// of BUILD-DIR), labels (BOARD_LABELS), the applets
# (BOARD_ONLY), kernel arguments (BOARD_APPEND), the network test's ports
# (HOSTPORT: the host's receiver; FWDPORT: the host end of the hostfwd to
# the board's SERVERPORT), NBUF and BUFLEN, NET=0 to leave it out.
# docs/TARGETS.md ("Boards under LAVA") says how to submit the same job to
# a LAVA server with lavacli.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$HERE")

device=0
if [ "${1:-}" = --device ]; then
	device=1
	shift
fi
D=$(cd "${1:?usage: boards/job.sh [--device] BUILD-DIR}" && pwd)
. "$D/board.env"
FWDPORT=${FWDPORT:-5102} SERVERPORT=${SERVERPORT:-5002}
mem=$(echo "${BOARD_MEM:-$b_mem}" | sed 's/G$/*1024/; s/M$//' | bc)

if [ $device = 1 ]; then
	cat <<EOF
{# device dictionary of $b_name for lava-run, made by boards/job.sh #}
{% extends 'qemu.jinja2' %}
{% set arch = '$b_lava_arch' %}
{% set machine = '$b_machine' %}
{% set no_kvm = True %}
{% set memory = $mem %}
{% set guestfs_interface = '$b_drive' %}
{% set netdevice = 'user,hostfwd=tcp:127.0.0.1:$FWDPORT-:$SERVERPORT' %}
EOF
	case $b_nic in
	virtio-net-pci | none) ;;
	*) echo "{% set model = 'model=${b_nic%:off}' %}" ;;
	esac
	[ "$b_cpu" = - ] || echo "{% set cpu = '$b_cpu' %}"
	exit 0
fi

REPO=${BOARD_REPO:-$TOP}
REV=${BOARD_REVISION:-$(git -C "$TOP" rev-parse HEAD)}
URL=${BOARD_URL:-file://$D}
OUTPUT=/tmp/boardbench-out
dtb=
[ "$b_dtb" = yes ] && dtb="
      dtb:
        image_arg: '-dtb {dtb}'
        url: '$URL/board.dtb'"
cat <<EOF
# LAVA job: boardbench on $b_name ($KDESC; $BBDESC), made by boards/job.sh
device_type: qemu
job_name: boardbench $b_name
timeouts:
  job: {minutes: 40}
  action: {minutes: 20}
  connection: {minutes: 2}
priority: medium
visibility: public
# For a LAVA server's qemu device: its dictionary takes these from the job.
context:
  arch: $b_lava_arch
  machine: $b_machine
  no_kvm: true
  memory: $mem
  guestfs_interface: $b_drive
$( [ "$b_cpu" = - ] || echo "  cpu: $b_cpu")
actions:
- deploy:
    timeout: {minutes: 10}
    to: tmpfs
    os: oe
    images:
      kernel:
        image_arg: '-kernel {kernel} -append "console=$b_console ${BOARD_APPEND:-}"'
        url: '$URL/kernel'
      initrd:
        image_arg: '-initrd {initrd}'
        url: '$URL/initramfs.cpio.gz'$dtb
- boot:
    timeout: {minutes: 10}
    method: qemu
    media: tmpfs
    prompts: ['/ # ']
- test:
    timeout: {minutes: 20}
    definitions:
    - repository: '$REPO'
      revision: '$REV'
      from: git
      path: boards/lava/checks.yaml
      name: boardbench-checks
      parameters: {BOARDBENCH: /bin/boardbench, OUTPUT: '$OUTPUT'}
    - repository: '$REPO'
      revision: '$REV'
      from: git
      path: packaging/lava/boardbench.yaml
      name: boardbench
      parameters: {BOARDBENCH: /bin/boardbench, OUTPUT: '$OUTPUT', LABELS: 'board=$b_name ${BOARD_LABELS:-}', ONLY: '${BOARD_ONLY:-}'}
    - repository: '$REPO'
      revision: '$REV'
      from: git
      path: boards/lava/net.yaml
      name: boardbench-net
      parameters: {BOARDBENCH: /bin/boardbench, OUTPUT: '$OUTPUT', HOSTPORT: '${HOSTPORT:-5001}', SERVERPORT: '$SERVERPORT', NBUF: '${NBUF:-256}', BUFLEN: '${BUFLEN:-8192}', NET: '${NET:-1}'}
EOF
