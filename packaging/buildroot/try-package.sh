#!/bin/sh
# try-package.sh OUTDIR [BR2_SYMBOL=y ...] - runs package/boardbench's
# build and target-install commands the way Buildroot's generic-package
# does, without Buildroot: boardbench.mk is included by a small makefile
# that stands in for Buildroot's variables (the host's gcc as the target
# compiler, a copy of this source tree as the package's build directory,
# OUTDIR/target as TARGET_DIR), with the given config symbols set.  Then
# it checks what landed in the target: bin/boardbench that runs; with
# BR2_PACKAGE_BOARDBENCH_APPLET_LINKS=y the applet links; without
# BR2_PACKAGE_CJSON a compare that says it was built without cJSON; with
# BR2_STATIC_LIBS=y a static binary.  A check of the package's commands
# against this Makefile, not of Buildroot itself.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:?usage: try-package.sh OUTDIR [BR2_SYMBOL=y ...]}
shift
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
rm -rf "$out/build" "$out/target"
mkdir -p "$out/build/boardbench" "$out/target"

# The local site method copies the tree (without version control or builds).
(cd "$top" && tar -c --exclude=./.git --exclude='./build*' --exclude=./boardbench \
	--exclude=./results .) | tar -x -C "$out/build/boardbench" || exit 1

cat >"$out/br.mk" <<MK
BR2_EXTERNAL_BOARDBENCH_PATH := $here
TARGET_MAKE_ENV := PATH="\$(PATH)"
TARGET_CONFIGURE_OPTS := CC=gcc CFLAGS="-O2" LDFLAGS=""
MAKE := make -j${JOBS:-2}
TARGET_DIR := $out/target
generic-package :=
include $here/package/boardbench/boardbench.mk
$out/build/boardbench/.stamp_installed:
	\$(BOARDBENCH_BUILD_CMDS)
	\$(BOARDBENCH_INSTALL_TARGET_CMDS)
MK
make --no-print-directory -f "$out/br.mk" "$@" "$out/build/boardbench/.stamp_installed" \
	>"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }

rc=0
bin=$out/target/usr/bin
"$bin/boardbench" --version | head -1 || rc=1
case " $* " in
*" BR2_PACKAGE_BOARDBENCH_APPLET_LINKS=y "*)
	for a in stream lat csum mem ttcp; do
		[ "$(readlink "$bin/$a")" = boardbench ] || { echo "no link $a"; rc=1; }
	done ;;
*)
	[ "$(ls "$bin")" = boardbench ] || { echo "more than boardbench in bin: $(ls "$bin")"; rc=1; } ;;
esac
case " $* " in
*" BR2_PACKAGE_CJSON=y "*) "$bin/boardbench" compare --help >/dev/null || rc=1 ;;
*) "$bin/boardbench" compare a.json b.json 2>&1 | grep -q 'built without cJSON' ||
	{ echo "compare does not say it was built without cJSON"; rc=1; } ;;
esac
case " $* " in
*" BR2_STATIC_LIBS=y "*) ! readelf -l "$bin/boardbench" | grep -q INTERP ||
	{ echo "not static"; rc=1; } ;;
esac
[ $rc -eq 0 ] && echo "the package's commands built and installed: $(ls "$bin" | tr '\n' ' ')"
exit $rc
