# boards/table.sh - the boards boardbench boots under qemu-system, one row
# each; sourced by the other scripts in boards/ (board_row NAME sets the
# row's fields as shell variables).  Adding a board is one row here, plus
# boards/kconfig/NAME.config when its kernel is built from source.
#
# name          the board (build-board-NAME/, BOARD=NAME)
# arch          Debian architecture of its kernel and BusyBox packages,
#               or "powerpc" (no Debian port here: both built from source)
# kernel        Debian kernel flavour (linux-image-*-FLAVOUR), or "src"
#               (boards/kernel.sh builds it from Debian's linux source)
# dtb           the device tree in the kernel package (- : none, or qemu's)
# qemu machine cpu mem   qemu-system-QEMU -M MACHINE -cpu CPU -m MEM (- : default;
#               armhf's virt without highmem: the armmp kernel has no LPAE to
#               reach a PCI bus above 4 GiB)
# console       the kernel's console device
# target        the boardbench build for it (make TARGET=...)
# modules       kernel modules the init loads (with their dependencies)
# drive         how LAVA's test overlay disk is attached (qemu -drive if=)
# lava_arch     the architecture name of lava-server's qemu device type
# nic           qemu's network card for the user network (virtio-net-pci,
#               lan9118 ...), or "none": raspi3b's network is USB; MODEL:off
#               gives qemu the card but not the kernel its driver (orangepi-pc:
#               dwmac-sun8i oopses under qemu 7.2, docs/TARGETS.md)
board_rows() {
	cat <<'EOT'
aarch64-virt arm64   arm64 -                            aarch64 virt        cortex-a53 512M ttyAMA0 aarch64 virtio_pci,virtio_net,virtio_blk,crc32c_generic,ext4 virtio arm64 virtio-net-pci
raspi3b      arm64   arm64 broadcom/bcm2837-rpi-3-b.dtb aarch64 raspi3b     -          1G   ttyAMA0 aarch64 bcm2835,sdhci_iproc,crc32c_generic,ext4 sd     arm64 none
armhf-virt   armhf   armmp -                            arm     virt,highmem=off cortex-a15 512M ttyAMA0 armhf   virtio_pci,virtio_net,virtio_blk,crc32c_generic,ext4 virtio arm virtio-net-pci
vexpress-a9  armhf   armmp vexpress-v2p-ca9.dtb         arm     vexpress-a9 cortex-a9  512M ttyAMA0 armhf   smsc911x,armmmci,crc32c_generic,ext4 sd     arm lan9118
x86_64-pc    amd64   amd64 -                            x86_64  pc          -          512M ttyS0   x86_64  virtio_pci,virtio_net,virtio_blk,crc32c_generic,ext4 virtio amd64 virtio-net-pci
i386-pc      i386    686   -                            i386    pc          athlon     512M ttyS0   i686    virtio_pci,virtio_net,virtio_blk,crc32c_generic,ext4 virtio i386 virtio-net-pci
orangepi-pc  armhf   armmp sun8i-h3-orangepi-pc.dtb     arm     orangepi-pc cortex-a7  1G   ttyS0   armhf   crc32c_generic,ext4 sd     arm allwinner-sun8i-emac:off
bamboo       powerpc src   -                            ppc     bamboo      -          256M ttyS0   powerpc -                virtio ppc virtio-net-pci
ppce500      powerpc src   -                            ppc     ppce500     -          256M ttyS0   powerpc -                virtio ppc virtio-net-pci
EOT
}

# board_row NAME: sets b_name b_arch b_kernel b_dtb b_qemu b_machine b_cpu
# b_mem b_console b_target b_modules b_drive b_lava_arch b_nic; status 1 if NAME
# is no board.
board_row() {
	# shellcheck disable=SC2046  # one row of words
	set -- $(board_rows | awk -v n="$1" '$1 == n')
	[ $# -eq 14 ] || return 1
	b_name=$1 b_arch=$2 b_kernel=$3 b_dtb=$4 b_qemu=$5 b_machine=$6 b_cpu=$7
	b_mem=$8 b_console=$9
	shift 9
	b_target=$1 b_modules=$2 b_drive=$3 b_lava_arch=$4 b_nic=$5
}

board_names() {
	board_rows | awk '{ print $1 }' | tr '\n' ' '
}
