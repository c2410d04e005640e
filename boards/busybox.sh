#!/bin/sh
# boards/busybox.sh - a static BusyBox for a board whose architecture
# Debian does not build here (32-bit PowerPC), made from Debian's own
# `busybox` source package with Debian's busybox-static configuration
# (debian/config/pkg/static) and Debian's cross compiler, and kept in a
# cache outside the clone (as boards/kernel.sh keeps kernels):
#
#   boards/busybox.sh CROSS-PREFIX [CACHE]   e.g. powerpc-linux-gnu-
#
# Prints the path of the binary (CACHE/busybox-TRIPLE/busybox); one built
# from the same source, compiler and recipe is kept.
set -eu

CROSS=${1:?usage: boards/busybox.sh CROSS-PREFIX [CACHE]}
CACHE=${2:-${BOARD_CACHE:-/var/cache/boardbench-boards}}
JOBS=${BOARD_JOBS:-2}
log() { echo "boards/busybox.sh: $*" >&2; }
command -v "${CROSS}gcc" >/dev/null 2>&1 || { log "no ${CROSS}gcc"; exit 1; }

src=$CACHE/src
tree=$(ls -d "$src"/busybox-[0-9]*/debian 2>/dev/null | sort -V | tail -1)
if [ -z "$tree" ]; then
	mkdir -p "$src"
	log "apt-get source busybox (in $src)"
	(cd "$src" && apt-get source -q busybox >"$src/busybox-fetch.log" 2>&1) || {
		tail -5 "$src/busybox-fetch.log" >&2
		log "apt-get source busybox failed: the archive needs a deb-src entry (scripts/add-deb-src.sh)"
		exit 1
	}
	tree=$(ls -d "$src"/busybox-[0-9]*/debian | sort -V | tail -1)
fi
SRC=$(dirname "$tree")
VER=$(sed -n '1s/.*(\(.*\)).*/\1/p' "$SRC/debian/changelog")
RECIPE=1
STAMP="recipe $RECIPE; busybox $VER static config; $(${CROSS}gcc --version | head -1)"
OUT=$CACHE/busybox-${CROSS%-}
if [ -f "$OUT/.stamp" ] && [ "$(cat "$OUT/.stamp")" = "$STAMP" ] && [ -x "$OUT/busybox" ]; then
	echo "$OUT/busybox"
	exit 0
fi
OBJ=$CACHE/bbuild-${CROSS%-}
rm -rf "$OBJ" && mkdir -p "$OBJ"
cp "$SRC/debian/config/pkg/static" "$OBJ/.config"
log "building busybox $VER (Debian's static config) with ${CROSS}gcc (log in $OBJ/build.log)"
t0=$(date +%s)
if ! (yes '' | make -C "$SRC" O="$OBJ" CROSS_COMPILE="$CROSS" oldconfig >"$OBJ/build.log" 2>&1 &&
	nice -n 10 make -C "$SRC" O="$OBJ" CROSS_COMPILE="$CROSS" -j"$JOBS" busybox >>"$OBJ/build.log" 2>&1); then
	tail -20 "$OBJ/build.log" >&2
	log "building busybox failed"
	exit 1
fi
rm -rf "$OUT" && mkdir -p "$OUT"
cp "$OBJ/busybox" "$OUT/busybox"
printf '%s\n' "$STAMP" >"$OUT/.stamp"
log "busybox built in $(($(date +%s) - t0)) s"
echo "$OUT/busybox"
