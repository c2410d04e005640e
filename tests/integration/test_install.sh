#!/bin/sh
# tests/integration/test_install.sh - `make install DESTDIR=... PREFIX=/usr`
# installs bin/boardbench and one symlink per name in the Makefile's
# APPLETS, and the installed names work.  Under `make check` the make
# variables of the parent (SAN=1, BUILD=..., CC=...) reach this make through
# MAKEFLAGS; `-o $BB` makes it install the binary under test as it is.
. tests/integration/lib.sh

MAKE=${MAKE:-make}
if [ -z "${MAKEFLAGS:-}" ]; then   # run by hand: match the binary under test
	case $BB in
	build-san/boardbench | ./build-san/boardbench) set -- SAN=1 ;;
	boardbench | ./boardbench) set -- ;;
	*) set -- BUILD="$(dirname "$BB")" ;;
	esac
else
	set --
fi

# -o: install the binary under test as it is, never rebuild it here.
set -- "$@" -o "${BB#./}"

STAGE="$TMPD/stage"
$MAKE --no-print-directory "$@" install DESTDIR="$STAGE" PREFIX=/usr >"$TMPD/make.log" 2>&1
rc=$?
tap $rc "make install DESTDIR=\$TMPD/stage PREFIX=/usr succeeds"
[ $rc -eq 0 ] || sed 's/^/#   /' "$TMPD/make.log" | tail -10

bin="$STAGE/usr/bin"
[ -f "$bin/boardbench" ] && [ -x "$bin/boardbench" ] && [ ! -L "$bin/boardbench" ]
tap $? "bin/boardbench is installed as an executable file"
expect_exit 0 "the installed boardbench --version exits 0" -- "$bin/boardbench" --version

# APPLETS as the Makefile computes it.
applets=$(printf 'bb-print-applets:\n\t@echo $(APPLETS)\n' |
	$MAKE --no-print-directory -s -f Makefile -f - "$@" bb-print-applets 2>/dev/null)
[ -n "$applets" ]
tap $? "the Makefile's APPLETS is not empty ($applets)"
for a in $applets; do
	[ -L "$bin/$a" ] && [ "$(readlink "$bin/$a")" = boardbench ]
	tap $? "bin/$a is a symlink to boardbench"
	expect_exit 0 "the installed $a --help exits 0" -- "$bin/$a" --help
	expect_grep "usage: boardbench $a" "$TMPD/out" "the installed $a acts as boardbench $a"
done
n=$(find "$bin" -mindepth 1 | wc -l)
[ "$n" -eq $((1 + $(echo $applets | wc -w))) ]
tap $? "bin/ holds boardbench and the applet symlinks only ($n entries)"

$MAKE --no-print-directory "$@" install DESTDIR="$STAGE" PREFIX=/usr >"$TMPD/make.log" 2>&1
tap $? "make install a second time over the first succeeds"
