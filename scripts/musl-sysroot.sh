#!/bin/sh
# scripts/musl-sysroot.sh - makes a static musl sysroot for one target from
# Debian's packages only: the `musl` source package (apt-get source; see
# scripts/add-deb-src.sh), built with Debian's cross gcc for that target,
# plus the target's kernel headers (linux/, asm/, asm-generic/ from
# linux-libc-dev or linux-libc-dev-ARCH-cross) copied beside musl's headers,
# so that linux/perf_event.h and linux/errqueue.h are found.
#
#   scripts/musl-sysroot.sh TARGET DIR      e.g. armel /var/cache/boardbench-musl/armel
#   scripts/musl-sysroot.sh --list          the targets, their compilers and packages
#
# DIR gets include/, lib/ (libc.a and the crt files) and musl.specs, a gcc
# specs file that turns the Debian cross gcc into a static musl compiler:
#   arm-linux-gnueabi-gcc -specs DIR/musl.specs ...   (what `make LIBC=musl` does)
# A DIR already made from the same musl, compiler, kernel headers and this
# script is kept as it is (DIR/.stamp), so DIR may be a cache.
# MUSL_SRC names an unpacked musl source tree to use; without it the source
# is fetched once into MUSL_SRC_CACHE (default: DIR/../musl-src).
set -eu

usage() {
	echo "usage: $0 TARGET DIR   (TARGET: $(targets | cut -d' ' -f1 | tr '\n' ' '))" >&2
	exit 2
}

# TARGET  TRIPLE  DEBIAN-ARCH  CPU/ABI-FLAGS (for musl, and in the specs for
# every program built with them: Debian's powerpc gcc defaults to IBM's
# 128-bit long double, which musl does not support; i586 means no cmov)
targets() {
	cat <<'EOT'
x86_64 x86_64-linux-gnu amd64 -
i586 i686-linux-gnu i386 -march=i586
i686 i686-linux-gnu i386 -
armel arm-linux-gnueabi armel -
armhf arm-linux-gnueabihf armhf -
aarch64 aarch64-linux-gnu arm64 -
mips mips-linux-gnu mips -
mipsel mipsel-linux-gnu mipsel -
riscv64 riscv64-linux-gnu riscv64 -
powerpc powerpc-linux-gnu powerpc -mlong-double-64
EOT
}

if [ "${1:-}" = --list ]; then
	echo "target   compiler                  kernel headers"
	targets | while read -r t triple arch _; do
		if [ "$arch" = amd64 ]; then
			pkg=linux-libc-dev gcc="gcc (native)"
		else
			pkg=linux-libc-dev-$arch-cross gcc=gcc-$triple
		fi
		printf '%-8s %-25s %s\n' "$t" "$gcc" "$pkg"
	done
	exit 0
fi
[ $# -eq 2 ] || usage
TARGET=$1
line=$(targets | awk -v t="$TARGET" '$1 == t')
[ -n "$line" ] || { echo "musl-sysroot: unknown target '$TARGET'" >&2; usage; }
# shellcheck disable=SC2086  # one line of four words
set -- $line "$2"
TRIPLE=$2 ARCH=$3 MCFLAGS=$4 DIR=$5
[ "$MCFLAGS" = - ] && MCFLAGS=
case $DIR in
/*) ;;
*) DIR=$PWD/$DIR ;;
esac

CC=$TRIPLE-gcc
if [ "$ARCH" = amd64 ] && ! command -v "$CC" >/dev/null 2>&1; then
	CC=gcc
fi
command -v "$CC" >/dev/null 2>&1 ||
	{ echo "musl-sysroot: no $CC: apt-get install gcc-$TRIPLE" >&2; exit 1; }

# The kernel headers: the native package's for amd64, the -cross package's
# otherwise (asm/ sits under the multiarch directory natively).
if [ "$ARCH" = amd64 ]; then
	KPKG=linux-libc-dev KINC=/usr/include KASM=/usr/include/$TRIPLE/asm
else
	KPKG=linux-libc-dev-$ARCH-cross KINC=/usr/$TRIPLE/include KASM=$KINC/asm
fi
if [ ! -f "$KINC/linux/perf_event.h" ] || [ ! -d "$KASM" ]; then
	echo "musl-sysroot: no kernel headers in $KINC: apt-get install $KPKG" >&2
	exit 1
fi
KVER=$(dpkg-query -W -f '${Version}' "$KPKG" 2>/dev/null || echo unknown)

fetch_source() {  # -> prints the unpacked tree
	cache=${MUSL_SRC_CACHE:-$(dirname "$DIR")/musl-src}
	tree=$(find "$cache" -maxdepth 2 -name configure -path '*/musl-*' 2>/dev/null | head -1)
	if [ -z "$tree" ]; then
		mkdir -p "$cache"
		echo "musl-sysroot: apt-get source musl (in $cache)" >&2
		(cd "$cache" && apt-get source -q musl >&2) || {
			echo "musl-sysroot: apt-get source musl failed: the archive needs a deb-src" \
				"entry (run scripts/add-deb-src.sh as root, then apt-get update)" >&2
			exit 1
		}
		tree=$(find "$cache" -maxdepth 2 -name configure -path '*/musl-*' | head -1)
	fi
	[ -n "$tree" ] || { echo "musl-sysroot: no musl source tree in $cache" >&2; exit 1; }
	dirname "$tree"
}

SRC=${MUSL_SRC:-$(fetch_source)}
[ -f "$SRC/configure" ] || { echo "musl-sysroot: $SRC is not a musl source tree" >&2; exit 1; }
MVER=$(sed -n '1s/.*(\(.*\)).*/\1/p' "$SRC/debian/changelog" 2>/dev/null || true)
[ -n "$MVER" ] || MVER=$(cat "$SRC/VERSION")
# What the built libc depends on; RECIPE changes when this script builds
# it differently (comments and the specs below do not count: the specs are
# written anew on every run).
RECIPE=2
STAMP="recipe $RECIPE; musl $MVER; $($CC --version | head -1) $MCFLAGS; $KPKG $KVER"

build_libc() {
	echo "musl-sysroot: building musl $MVER for $TARGET with $CC $MCFLAGS into $DIR"
	rm -rf "$DIR"
	mkdir -p "$DIR"
	OBJ=$DIR/.obj
	mkdir -p "$OBJ"
	# Out of tree, so one source tree serves every target.  -Os: the small
	# binary is the point; -ffunction/data-sections let the final link drop
	# what boardbench does not call.
	(
		cd "$OBJ" &&
			"$SRC/configure" --prefix="$DIR" --target="$TRIPLE" --disable-shared \
				--disable-wrapper CC="$CC" CROSS_COMPILE="$TRIPLE-" \
				CFLAGS="-Os -pipe -ffunction-sections -fdata-sections $MCFLAGS" >configure.log &&
			make -j"$(nproc 2>/dev/null || echo 2)" >make.log 2>&1 &&
			make install >install.log 2>&1
	) || {
		echo "musl-sysroot: building musl failed; the logs are in $OBJ" >&2
		tail -5 "$OBJ/configure.log" >&2 2>/dev/null || true
		tail -20 "$OBJ/make.log" >&2 2>/dev/null || true
		exit 1
	}
	rm -rf "$OBJ"

	# Kernel headers beside musl's (musl ships none of linux/ or asm/).
	for d in linux asm-generic; do
		cp -R "$KINC/$d" "$DIR/include/"
	done
	cp -R "$KASM" "$DIR/include/asm"
}

# The specs: the target's CPU/ABI flags; musl's headers, then gcc's own
# (include%s); musl's crt files and libc.a, gcc's crtbeginT/crtend and
# libgcc (grouped with libc: libgcc's ARM division helpers call raise()).
# Link with -static: DIR holds no shared libc, and Debian's gcc would
# otherwise link a PIE.
write_specs() {
	cat >"$DIR/musl.specs.tmp" <<EOT
%rename cpp_options old_cpp_options

*cpp_options:
-nostdinc -isystem $DIR/include -isystem include%s %(old_cpp_options)

*cc1:
%(cc1_cpu) $MCFLAGS -nostdinc -isystem $DIR/include -isystem include%s

*link_libgcc:
-L$DIR/lib -L .%s

*libgcc:
libgcc.a%s %:if-exists(libgcc_eh.a%s)

*startfile:
$DIR/lib/crt1.o $DIR/lib/crti.o crtbeginT.o%s

*endfile:
crtend.o%s $DIR/lib/crtn.o

*link:
-nostdlib %{static:-static} %{rdynamic:-export-dynamic}

*link_gcc_c_sequence:
--start-group %G %L --end-group

EOT
	mv "$DIR/musl.specs.tmp" "$DIR/musl.specs"
}

# Proof that it works: a static hello world that includes a kernel header.
try_link() {
	printf '#include <stdio.h>\n#include <linux/perf_event.h>\nint main(void) { return printf("%%d\\n", (int)sizeof(struct perf_event_attr)) < 0; }\n' >"$DIR/.hello.c"
	if ! $CC -specs "$DIR/musl.specs" -static -o "$DIR/.hello" "$DIR/.hello.c"; then
		echo "musl-sysroot: the sysroot in $DIR cannot link a program" >&2
		exit 1
	fi
	rm -f "$DIR/.hello" "$DIR/.hello.c"
}

if [ -f "$DIR/.stamp" ] && [ "$(cat "$DIR/.stamp")" = "$STAMP" ] && [ -f "$DIR/lib/libc.a" ]; then
	write_specs
	try_link
	echo "musl-sysroot: $DIR is up to date ($TARGET, musl $MVER)"
	exit 0
fi
build_libc
write_specs
try_link
printf '%s\n' "$STAMP" >"$DIR/.stamp"
echo "musl-sysroot: $DIR ready: make LIBC=musl TARGET=$TARGET MUSL=$DIR"
