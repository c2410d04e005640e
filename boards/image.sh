#!/bin/sh
# boards/image.sh - makes a bootable image of one board of boards/table.sh
# from Debian's packages and the static boardbench (`make board-image`):
#
#   boards/image.sh BOARD [OUTDIR]       OUTDIR default build-board-BOARD
#
# OUTDIR gets
#   kernel            Debian's kernel for the board (vmlinuz), or the one
#                     boards/kernel.sh builds from Debian's linux source
#   board.dtb         the device tree, where the board needs one
#   initramfs.cpio.gz BusyBox (Debian's busybox-static of that architecture,
#                     or built from Debian's busybox source), the static
#                     boardbench, boards/init, the modules the init loads,
#                     and packaging/lava/ (the test definition)
#   qemu.sh           the qemu command line: ./qemu.sh [QEMU-ARGS...] boots it
#                     on the console (BOARD_HOSTFWD adds hostfwd= rules,
#                     BOARD_APPEND kernel arguments, BOARD_MEM the memory)
#   board.env         the board's row and the files, for boards/lava.sh
# Foreign packages are downloaded and unpacked, never installed (dpkg
# needs the architecture: dpkg --add-architecture). Caches: BOARD_CACHE
# (/var/cache/boardbench-boards).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$HERE")
. "$HERE/table.sh"
. "$HERE/debs.sh"

BOARD=${1:?usage: boards/image.sh BOARD [OUTDIR] (boards: $(board_names))}
board_row "$BOARD" || { echo "boards/image.sh: unknown board '$BOARD' (boards: $(board_names))" >&2; exit 2; }
OUT=${2:-build-board-$BOARD}
CACHE=${BOARD_CACHE:-/var/cache/boardbench-boards}
JOBS=${BOARD_JOBS:-2}
mkdir -p "$CACHE" "$OUT"
OUT=$(cd "$OUT" && pwd)
STAGE=$OUT/root
rm -rf "$STAGE" "$OUT/kernel" "$OUT/board.dtb"
mkdir -p "$STAGE/bin" "$STAGE/etc" "$STAGE/proc" "$STAGE/sys" "$STAGE/dev" "$STAGE/lib/modules"

# ---- the kernel, its device tree and modules ----
modules_from() {  # ROOT KVER: copies $b_modules and their dependencies, in load order
	mdir=$1/lib/modules/$2
	[ -f "$mdir/modules.dep" ] || depmod -b "$1" "$2" ||
		{ echo "boards/image.sh: depmod -b $1 $2 failed (apt-get install kmod)" >&2; return 1; }
	: >"$STAGE/lib/modules/load"
	for m in $(echo "$b_modules" | tr ',' ' '); do
		re=$(echo "$m" | sed 's/[-_]/[-_]/g')   # modprobe's names: - and _ alike
		line=$(grep -E "(^|/)$re\.ko(\.xz)?:" "$mdir/modules.dep") ||
			{ echo "boards/image.sh: no module $m in $mdir" >&2; return 1; }
		# modules.dep: "mod: deps...", deps in reverse load order
		for dep in $(echo "${line#*:}" | tr ' ' '\n' | sed '/^$/d' | tac) "${line%%:*}"; do
			b=$(basename "$dep")
			grep -qx "$b" "$STAGE/lib/modules/load" && continue
			cp "$mdir/$dep" "$STAGE/lib/modules/$b"
			echo "$b" >>"$STAGE/lib/modules/load"
		done
	done
	case $(head -1 "$STAGE/lib/modules/load") in
	*.xz) echo "boards/image.sh: compressed modules: BusyBox insmod wants them plain" >&2; return 1 ;;
	esac
}

if [ "$b_kernel" = src ]; then
	kdir=$(sh "$HERE/kernel.sh" "$BOARD" "$CACHE")
	cp "$kdir/uImage" "$OUT/kernel"
	KDESC="linux $(sed -n 's/^recipe [0-9]*; linux \([^;]*\);.*/\1/p' "$kdir/.stamp") built from the Debian linux source (boards/kconfig/$BOARD.config)"
else
	deb_need_arch "$b_arch"
	kroot=$(deb_kernel "$b_kernel" "$b_arch")
	kver=$(ls "$kroot/lib/modules" | head -1)
	cp "$kroot/boot/vmlinuz-$kver" "$OUT/kernel"
	if [ "$b_dtb" != - ]; then
		cp "$kroot/usr/lib/linux-image-$kver/$b_dtb" "$OUT/board.dtb" ||
			{ echo "boards/image.sh: no $b_dtb in linux-image-$kver" >&2; exit 1; }
	fi
	[ "$b_modules" = - ] || modules_from "$kroot" "$kver"
	KDESC="Debian linux-image-$kver ($(basename "$kroot" | sed 's/^root-linux-image-[^_]*_//; s/_.*//'))"
fi
[ -s "$STAGE/lib/modules/load" ] || rm -f "$STAGE/lib/modules/load"

# ---- BusyBox ----
if [ "$b_arch" = powerpc ]; then
	bbx=$(sh "$HERE/busybox.sh" powerpc-linux-gnu- "$CACHE")
	BBDESC="BusyBox built from the Debian busybox source ($(sed -n 's/.*busybox \([^ ]*\) .*/\1/p' "$(dirname "$bbx")/.stamp"), static config)"
else
	deb_need_arch "$b_arch"
	bbroot=$(deb_unpack "$(deb_fetch "busybox-static:$b_arch")")
	bbx=$bbroot/bin/busybox
	BBDESC="Debian busybox-static:$b_arch $(basename "$bbroot" | sed 's/^root-busybox-static_//; s/_.*//; s/%3a/:/')"
fi
cp "$bbx" "$STAGE/bin/busybox"
ln -s busybox "$STAGE/bin/sh"

# ---- boardbench: the static glibc build for the board's class ----
BB=${BOARD_BB:-}
if [ -z "$BB" ]; then
	make -s -C "$TOP" -j"$JOBS" TARGET="$b_target" BUILD="build-$b_target" >&2
	BB=$TOP/build-$b_target/boardbench
fi
cp "$BB" "$STAGE/bin/boardbench"

# ---- the rest of the root ----
cp "$HERE/init" "$STAGE/init"
chmod 755 "$STAGE/init"
echo "$BOARD" >"$STAGE/etc/board"
printf '127.0.0.1 localhost\n10.0.2.2 host\n' >"$STAGE/etc/hosts"
echo 'root:x:0:0:root:/root:/bin/sh' >"$STAGE/etc/passwd"
mkdir -p "$STAGE/boardbench/packaging"
cp -R "$TOP/packaging/lava" "$STAGE/boardbench/packaging/"
# BusyBox's applets as links, made at boot (this host may not run its code)
sed -i 's|^PATH=/bin:/sbin:/usr/bin:/usr/sbin$|&\n/bin/busybox --install -s /bin|' "$STAGE/init"
(cd "$STAGE" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet | gzip -9n) >"$OUT/initramfs.cpio.gz.tmp"
mv "$OUT/initramfs.cpio.gz.tmp" "$OUT/initramfs.cpio.gz"

# ---- how to boot it ----
DTB_ARG=
[ -f "$OUT/board.dtb" ] && DTB_ARG='-dtb "$D/board.dtb"'
CPU_ARG=
[ "$b_cpu" = - ] || CPU_ARG="-cpu $b_cpu"
case $b_nic in
none | *:off) NET='-nic none' ;;
virtio-net-pci) NET='-netdev "user,id=n0${BOARD_HOSTFWD:+,$BOARD_HOSTFWD}" -device virtio-net-pci,netdev=n0' ;;
*) NET='-nic "user,model='$b_nic'${BOARD_HOSTFWD:+,$BOARD_HOSTFWD}"' ;;
esac
cat >"$OUT/qemu.sh" <<EOF
#!/bin/sh
# Boots $BOARD ($KDESC) on this console; made by boards/image.sh.
# BOARD_HOSTFWD=hostfwd=tcp:127.0.0.1:HP-:GP  BOARD_APPEND=...  BOARD_MEM=$b_mem
D=\$(cd "\$(dirname "\$0")" && pwd)
exec qemu-system-$b_qemu -M $b_machine $CPU_ARG -m "\${BOARD_MEM:-$b_mem}" -nographic -monitor none \\
	-kernel "\$D/kernel" $DTB_ARG -initrd "\$D/initramfs.cpio.gz" \\
	-append "console=$b_console \${BOARD_APPEND:-}" \\
	$NET "\$@"
EOF
chmod 755 "$OUT/qemu.sh"
cat >"$OUT/board.env" <<EOF
b_name='$b_name' b_arch='$b_arch' b_qemu='$b_qemu' b_machine='$b_machine' b_cpu='$b_cpu'
b_mem='$b_mem' b_console='$b_console' b_drive='$b_drive' b_lava_arch='$b_lava_arch' b_nic='$b_nic'
b_dtb='$( [ -f "$OUT/board.dtb" ] && echo yes || echo no)'
KDESC='$KDESC'
BBDESC='$BBDESC'
EOF
rm -rf "$STAGE"
echo "boards/image.sh: $OUT: $KDESC; $BBDESC; initramfs $(stat -c %s "$OUT/initramfs.cpio.gz") bytes" >&2
