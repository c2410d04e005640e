#!/bin/sh
# scripts/help-data.sh - makes the C file that holds the applets' --help
# texts (src/help/NAME.txt) as ONE gzip stream, for core/help.c to inflate
# when --help is asked for: deflated together they take about a third of
# their size in the binary.  The Makefile runs it on the build host (also
# for cross builds) with the texts of the applets being built; it needs
# only a POSIX sh, gzip and od (plus sed, tr, wc).
#
#   scripts/help-data.sh OUT.c DIR NAME...
#
# For each NAME, DIR/NAME.txt goes into the stream, in the order given, and
# the index entry [BB_HELP_<NAME in capitals>] says where its text starts in
# the inflated stream and how long it is; a name core/help.h does not know
# is a compile error.  OUT.c is written whole or not at all, and is left
# untouched when it would not change (so nothing is recompiled).
set -eu

usage() {
	echo "usage: $0 OUT.c DIR NAME..." >&2
	exit 2
}

[ $# -ge 3 ] || usage
out=$1
dir=$2
shift 2

for name in "$@"; do
	case $name in
	*[!a-z0-9_]* | [!a-z]*)
		echo "$0: help text name '$name': only a-z, 0-9 and _, starting with a letter" >&2
		exit 2 ;;
	esac
	[ -f "$dir/$name.txt" ] || { echo "$0: no help text $dir/$name.txt" >&2; exit 1; }
done

tmp=$out.tmp.$$
trap 'rm -f "$tmp" "$tmp.gz"' EXIT

for name in "$@"; do cat "$dir/$name.txt"; done | gzip -9n >"$tmp.gz"

# The C file: the stream as bytes, then the index.
{
	echo "/* help_data.c - made by scripts/help-data.sh from the texts in $dir/, for"
	echo " * core/help.c: do not edit.  Texts: $*. */"
	echo '#include "core/help.h"'
	echo
	echo 'const unsigned char bb_help_gz[] = {'
	od -An -v -tx1 "$tmp.gz" | sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g' -e 's/^/\t/'
	echo '};'
	echo 'const size_t bb_help_gz_len = sizeof bb_help_gz;'
	echo
	echo 'const struct bb_help_span bb_help_index[BB_HELP_COUNT] = {'
	off=0
	for name in "$@"; do
		len=$(($(wc -c <"$dir/$name.txt")))
		id=$(echo "$name" | tr 'abcdefghijklmnopqrstuvwxyz' 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
		echo "	[BB_HELP_$id] = { $off, $len },"
		off=$((off + len))
	done
	echo '};'
	echo "const size_t bb_help_total = $off;"
} >"$tmp"

if cmp -s "$tmp" "$out"; then
	rm -f "$tmp"
else
	mv "$tmp" "$out"
fi
