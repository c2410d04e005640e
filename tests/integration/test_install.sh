#!/bin/sh
# tests/integration/test_install.sh - `make install DESTDIR=... PREFIX=/usr`
# installs bin/boardbench (and no generic applet names), boardbench(1) and
# the bash completion; `make install-links` adds one symlink per name in
# the Makefile's LINK_APPLETS, and the installed names work; install-strip
# strips; uninstall removes what install put there and no file it did not.
# `make install` with other flags than the build's does not rebuild.  The
# version comes from this tree only: a VERSION file, else git when this is
# the top of the work tree, never an enclosing repository's commit; `make
# dist` writes a tarball holding a VERSION file.  Under `make check` the
# make variables of the parent (SAN=1, BUILD=..., CC=...) reach this make
# through MAKEFLAGS; `-o $BB` makes it install the binary under test as it is.
. tests/integration/lib.sh

MAKE=${MAKE:-make}
if [ -z "${MAKEFLAGS:-}" ]; then   # run by hand: match the binary under test
	case $BB in
	build-san/boardbench | ./build-san/boardbench) set -- SAN=1 ;;
	boardbench | ./boardbench) set -- ;;
	*) set -- BUILD="$(dirname "${BB#./}")" ;;
	esac
else
	set --
fi
VARS="$*"

# -o: install the binary under test as it is, never rebuild it here.
set -- "$@" -o "${BB#./}"

STAGE="$TMPD/stage"
bin="$STAGE/usr/bin"
man1="$STAGE/usr/share/man/man1"
comp="$STAGE/usr/share/bash-completion/completions"

$MAKE --no-print-directory "$@" install DESTDIR="$STAGE" PREFIX=/usr >"$TMPD/make.log" 2>&1
rc=$?
tap $rc "make install DESTDIR=\$TMPD/stage PREFIX=/usr succeeds"
[ $rc -eq 0 ] || sed 's/^/#   /' "$TMPD/make.log" | tail -10

[ -f "$bin/boardbench" ] && [ -x "$bin/boardbench" ] && [ ! -L "$bin/boardbench" ]
tap $? "bin/boardbench is installed as an executable file"
expect_exit 0 "the installed boardbench --version exits 0" -- "$bin/boardbench" --version
n=$(find "$bin" -mindepth 1 | wc -l)
[ "$n" -eq 1 ]
tap $? "make install puts only boardbench in bin/, no applet names ($n entries)"
[ -f "$man1/boardbench.1" ]
tap $? "share/man/man1/boardbench.1 is installed"
if command -v mandoc >/dev/null 2>&1; then
	mandoc -Tascii "$man1/boardbench.1" 2>/dev/null | grep -q 'BOARDBENCH(1)'
	tap $? "the installed page renders (mandoc) as BOARDBENCH(1)"
elif command -v man >/dev/null 2>&1; then
	man -l "$man1/boardbench.1" 2>/dev/null | grep -q 'BOARDBENCH(1)'
	tap $? "the installed page renders (man -l) as BOARDBENCH(1)"
fi
[ -f "$comp/boardbench" ]
tap $? "share/bash-completion/completions/boardbench is installed"

# The names install-links makes, as the Makefile computes them.
applets=$(printf 'bb-print-applets:\n\t@echo $(LINK_APPLETS)\n' |
	$MAKE --no-print-directory -s -f Makefile -f - "$@" bb-print-applets 2>/dev/null)
[ -n "$applets" ]
tap $? "the Makefile's LINK_APPLETS is not empty ($applets)"

$MAKE --no-print-directory "$@" install-links DESTDIR="$STAGE" PREFIX=/usr >"$TMPD/make.log" 2>&1
tap $? "make install-links succeeds"
for a in $applets; do
	[ -L "$bin/$a" ] && [ "$(readlink "$bin/$a")" = boardbench ]
	tap $? "bin/$a is a symlink to boardbench"
	expect_exit 0 "the installed $a --help exits 0" -- "$bin/$a" --help
	expect_grep "usage: boardbench $a" "$TMPD/out" "the installed $a acts as boardbench $a"
done
n=$(find "$bin" -mindepth 1 | wc -l)
[ "$n" -eq $((1 + $(echo $applets | wc -w))) ]
tap $? "bin/ holds boardbench and the applet symlinks only ($n entries)"

$MAKE --no-print-directory "$@" install install-links DESTDIR="$STAGE" PREFIX=/usr \
	>"$TMPD/make.log" 2>&1
tap $? "make install install-links a second time over the first succeeds"

$MAKE --no-print-directory "$@" uninstall DESTDIR="$STAGE" PREFIX=/usr >"$TMPD/make.log" 2>&1
tap $? "make uninstall succeeds"
left=$(find "$STAGE" ! -type d | sed "s|^$STAGE||")
[ -z "$left" ]
tap $? "uninstall leaves no file or link ($(echo $left))"

# A file of another package under an applet's name is not uninstall's.
$MAKE --no-print-directory "$@" install DESTDIR="$STAGE" PREFIX=/usr >/dev/null 2>&1
set -- $applets
other=$1
set -- $VARS -o "${BB#./}"
echo 'another package' >"$bin/$other"
$MAKE --no-print-directory "$@" uninstall DESTDIR="$STAGE" PREFIX=/usr >/dev/null 2>&1
[ -f "$bin/$other" ] && [ ! -e "$bin/boardbench" ]
tap $? "uninstall removes boardbench but leaves a regular file named $other"
rm -f "$bin/$other"

# install-strip: the installed copy has no symbol table.
if command -v readelf >/dev/null 2>&1; then
	$MAKE --no-print-directory "$@" install-strip DESTDIR="$STAGE" PREFIX=/usr \
		>"$TMPD/make.log" 2>&1
	tap $? "make install-strip succeeds"
	! readelf -S "$bin/boardbench" | grep -q '\.symtab'
	tap $? "the binary install-strip installs has no .symtab"
	readelf -S "${BB#./}" | grep -q '\.symtab'
	tap $? "... while the built one keeps its own"
	expect_exit 0 "the stripped boardbench --version exits 0" -- "$bin/boardbench" --version
fi

# No rebuild: with other CFLAGS than the build's, `make -n install` (the
# binary exists) would run no compiler and no link.
set -- $VARS
$MAKE --no-print-directory -n "$@" install DESTDIR="$STAGE" PREFIX=/usr CFLAGS=-O0 \
	KERNEL_OPT=-O1 >"$TMPD/dry.log" 2>&1
built=$(grep -E -- '-o [^ ]+(\.o|boardbench)( |$)' "$TMPD/dry.log")
[ $? -eq 1 ] && grep -q 'install -m 0755' "$TMPD/dry.log"
tap $? "make install CFLAGS=-O0 after a build installs it as built: no compile, no link"
[ -z "$built" ] || echo "$built" | head -3 | sed 's/^/#   /'

# The version: from this tree alone.  buildinfo.h is made on its own.
unset MAKEFLAGS MFLAGS MAKELEVEL
buildinfo() {  # DIR: BB_GIT_REV of buildinfo.h made in DIR
	rm -rf "$1/bi"
	$MAKE --no-print-directory -s -C "$1" BUILD=bi bi/buildinfo.h >"$TMPD/bi.log" 2>&1 &&
		sed -n 's/^#define BB_GIT_REV "\(.*\)"$/\1/p' "$1/bi/buildinfo.h"
}
OUTER="$TMPD/outer"
mkdir -p "$OUTER/boardbench/src/core"
cp Makefile "$OUTER/boardbench/"
cp src/core/version.h "$OUTER/boardbench/src/core/"
if git -C "$OUTER" init -q 2>/dev/null && git -C "$OUTER" add -A &&
	git -C "$OUTER" -c user.name=t -c user.email=t@t commit -q -m outer 2>/dev/null; then
	outer=$(git -C "$OUTER" rev-parse --short=7 HEAD)
	rev=$(buildinfo "$OUTER/boardbench")
	[ "$rev" = unknown ]
	tap $? "a tree unpacked inside another git repository says 'unknown', not its commit $outer ($rev)"
	echo "1.2.3-4-gabcdef" >"$OUTER/boardbench/VERSION"
	rev=$(buildinfo "$OUTER/boardbench")
	[ "$rev" = 1.2.3-4-gabcdef ]
	tap $? "... and with a VERSION file, what the file says ($rev)"
else
	echo "ok - version inside another repository # SKIP git cannot make a repository here"
fi
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ] && [ ! -f VERSION ]; then
	want=$(git describe --always --dirty --abbrev=12)
	rm -rf "$TMPD/bi"
	$MAKE --no-print-directory -s BUILD="$TMPD/bi" "$TMPD/bi/buildinfo.h" >/dev/null 2>&1
	rev=$(sed -n 's/^#define BB_GIT_REV "\(.*\)"$/\1/p' "$TMPD/bi/buildinfo.h")
	[ "$rev" = "$want" ]
	tap $? "at the top of its git work tree: git describe ($rev)"

	$MAKE --no-print-directory -s BUILD="$TMPD/dist" dist >"$TMPD/dist.log" 2>&1
	tap $? "make dist succeeds"
	tarball=$(ls "$TMPD"/dist/boardbench-*.tar.gz 2>/dev/null)
	top=$(basename "$tarball" .tar.gz)
	tar -xzf "$tarball" -C "$TMPD" 2>/dev/null &&
		[ "$(cat "$TMPD/$top/VERSION")" = "$(git describe --always --abbrev=12 HEAD)" ] &&
		[ -f "$TMPD/$top/Makefile" ] && [ -f "$TMPD/$top/docs/boardbench.1" ]
	tap $? "the tarball ($top) holds the tree of HEAD and a VERSION file naming it"
	rev=$(buildinfo "$TMPD/$top")
	[ "$rev" = "$(git describe --always --abbrev=12 HEAD)" ]
	tap $? "a build of the tarball takes its version from VERSION ($rev)"
fi
