#!/bin/sh
# boards/kernel.sh - builds the Linux kernel of a board that Debian ships no
# kernel package for (32-bit PowerPC: bamboo, ppce500) from Debian's own
# `linux` source package, with Debian's cross compiler and a small config
# of ours (boards/kconfig/BOARD.config merged onto a defconfig of Linux's),
# and keeps it in a cache outside the clone, as scripts/musl-sysroot.sh
# keeps the musl sysroots:
#
#   boards/kernel.sh BOARD [CACHE]     CACHE default /var/cache/boardbench-boards
#
# Prints the directory that holds the result (CACHE/kernel-BOARD: uImage,
# config, .stamp).  A result built from the same source, compiler, config
# fragment and recipe is kept; anything else is rebuilt.  The source is
# fetched once (`apt-get source linux`, needing a deb-src entry:
# scripts/add-deb-src.sh) into CACHE/src.  The build runs under nice with
# at most BOARD_JOBS (2) jobs: the machine is shared.
set -eu

BOARD=${1:?usage: boards/kernel.sh BOARD [CACHE]}
CACHE=${2:-${BOARD_CACHE:-/var/cache/boardbench-boards}}
HERE=$(cd "$(dirname "$0")" && pwd)
JOBS=${BOARD_JOBS:-2}
FRAG=$HERE/kconfig/$BOARD.config

# BOARD -> ARCH, cross prefix, Linux's defconfig target, image target
case $BOARD in
bamboo) KARCH=powerpc CROSS=powerpc-linux-gnu- DEFCONFIG=44x/bamboo_defconfig IMAGE=uImage ;;
ppce500) KARCH=powerpc CROSS=powerpc-linux-gnu- DEFCONFIG=mpc85xx_defconfig IMAGE=uImage ;;
*) echo "boards/kernel.sh: no kernel recipe for board '$BOARD' (bamboo, ppce500)" >&2; exit 2 ;;
esac
[ -f "$FRAG" ] || { echo "boards/kernel.sh: no config fragment $FRAG" >&2; exit 1; }
command -v "${CROSS}gcc" >/dev/null 2>&1 ||
	{ echo "boards/kernel.sh: no ${CROSS}gcc: apt-get install gcc-${CROSS%-}" >&2; exit 1; }
for t in bc bison flex mkimage; do
	command -v $t >/dev/null 2>&1 ||
		{ echo "boards/kernel.sh: no $t: apt-get install bc bison flex u-boot-tools libssl-dev" >&2; exit 1; }
done

log() { echo "boards/kernel.sh: $*" >&2; }

# The newest unpacked Debian linux source in CACHE/src, fetched if none.
# The stable release's version first: an updates archive may list a
# version whose files its mirror does not yet hold.
source_tree() {
	src=$CACHE/src
	tree=$(ls -d "$src"/linux-[0-9]*/debian 2>/dev/null | sort -V | tail -1)
	if [ -z "$tree" ]; then
		mkdir -p "$src"
		log "apt-get source linux (in $src; about 140 MB)"
		codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
		(cd "$src" && { apt-get source -q "linux/$codename" || apt-get source -q linux; } >"$src/fetch.log" 2>&1) || {
			tail -5 "$src/fetch.log" >&2
			log "apt-get source linux failed: the archive needs a deb-src entry" \
				"(scripts/add-deb-src.sh as root, then apt-get update)"
			exit 1
		}
		tree=$(ls -d "$src"/linux-[0-9]*/debian | sort -V | tail -1)
	fi
	dirname "$tree"
}

SRC=$(source_tree)
KVER=$(sed -n '1s/.*(\(.*\)).*/\1/p' "$SRC/debian/changelog")
RECIPE=1
FRAGSUM=$(sha256sum "$FRAG" | cut -c1-16)
STAMP="recipe $RECIPE; linux $KVER; $DEFCONFIG + $BOARD.config $FRAGSUM; $(${CROSS}gcc --version | head -1)"
OUT=$CACHE/kernel-$BOARD
if [ -f "$OUT/.stamp" ] && [ "$(cat "$OUT/.stamp")" = "$STAMP" ] && [ -f "$OUT/$IMAGE" ]; then
	log "$OUT is up to date ($BOARD, linux $KVER)"
	echo "$OUT"
	exit 0
fi

OBJ=$CACHE/kbuild-$BOARD
mkdir -p "$OBJ"
K="make -s -C $SRC O=$OBJ ARCH=$KARCH CROSS_COMPILE=$CROSS"
log "configuring linux $KVER for $BOARD: $DEFCONFIG + boards/kconfig/$BOARD.config"
$K "$DEFCONFIG" >"$OBJ/config.log" 2>&1
(cd "$OBJ" && "$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "$FRAG") >>"$OBJ/config.log" 2>&1
$K olddefconfig >>"$OBJ/config.log" 2>&1
# Every option the fragment asks for must have survived olddefconfig.
missing=""
for opt in $(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=y$/\1/p' "$FRAG"); do
	grep -qx "$opt=y" "$OBJ/.config" || missing="$missing $opt"
done
[ -z "$missing" ] || { log "the $BOARD config lost:$missing"; exit 1; }

log "building $IMAGE (nice, -j$JOBS; log in $OBJ/build.log)"
t0=$(date +%s)
if ! nice -n 10 $K -j"$JOBS" "$IMAGE" >"$OBJ/build.log" 2>&1; then
	tail -20 "$OBJ/build.log" >&2
	log "building the $BOARD kernel failed"
	exit 1
fi
rm -rf "$OUT.tmp"
mkdir -p "$OUT.tmp"
cp "$OBJ/arch/$KARCH/boot/$IMAGE" "$OBJ/.config" "$OUT.tmp/"
mv "$OUT.tmp/.config" "$OUT.tmp/config"
printf '%s\n' "$STAMP" >"$OUT.tmp/.stamp"
rm -rf "$OUT"
mv "$OUT.tmp" "$OUT"
log "$BOARD kernel built in $(($(date +%s) - t0)) s: $OUT/$IMAGE"
echo "$OUT"
