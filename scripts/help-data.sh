#!/bin/sh
# scripts/help-data.sh - makes the C file that holds the applets' --help
# texts (src/applets/NAME/help.txt, and help_WHAT.txt for an applet with
# several) as ONE gzip stream, for core/help.c to inflate when --help is
# asked for: deflated together they take about a third of their size in
# the binary.  The Makefile runs it on the build host (also for cross
# builds) with the texts of the applets being built; it needs only a POSIX
# sh, gzip and od (plus sed, tr, wc).
#
#   scripts/help-data.sh OUT.c FILE...
#
# Each FILE, .../NAME/help.txt or .../NAME/help_WHAT.txt, goes into the
# stream in the order given, and the span bb_help_NAME (bb_help_NAME_WHAT)
# says where its text starts in the inflated stream and how long it is.
# OUT.c is written whole or not at all, and is left untouched when it would
# not change (so nothing is recompiled).
set -eu

usage() {
	echo "usage: $0 OUT.c FILE..." >&2
	exit 2
}

# The span's name of a text file: bb_help_NAME[_WHAT].
span_of() {
	base=$(basename "$1" .txt)
	name=$(basename "$(dirname "$1")")
	case $base in
	help) echo "bb_help_$name" ;;
	help_*) echo "bb_help_${name}_${base#help_}" ;;
	*) return 1 ;;
	esac
}

[ $# -ge 2 ] || usage
out=$1
shift

for f in "$@"; do
	span=$(span_of "$f") || { echo "$0: '$f': expected NAME/help.txt or NAME/help_WHAT.txt" >&2; exit 2; }
	case ${span#bb_help_} in
	*[!a-z0-9_]* | [!a-z]*)
		echo "$0: help text '$f': names of a-z, 0-9 and _, starting with a letter" >&2
		exit 2 ;;
	esac
	[ -f "$f" ] || { echo "$0: no help text $f" >&2; exit 1; }
done

tmp=$out.tmp.$$
trap 'rm -f "$tmp" "$tmp.gz"' EXIT

for f in "$@"; do cat "$f"; done | gzip -9n >"$tmp.gz"

# The C file: the stream as bytes, then a span per text.
{
	echo "/* help_data.c - made by scripts/help-data.sh from the applets' help texts,"
	echo " * for core/help.c: do not edit.  Texts: $*. */"
	echo '#include "core/help.h"'
	echo
	echo 'const unsigned char bb_help_gz[] = {'
	od -An -v -tx1 "$tmp.gz" | sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g' -e 's/^/\t/'
	echo '};'
	echo 'const size_t bb_help_gz_len = sizeof bb_help_gz;'
	echo
	off=0
	for f in "$@"; do
		len=$(($(wc -c <"$f")))
		echo "const struct bb_help_span $(span_of "$f") = { $off, $len };"
		off=$((off + len))
	done
	echo "const size_t bb_help_total = $off;"
	echo
	echo '/* Every text by the file it came from, for the tests (unused, it is'
	echo ' * left out of a binary linked with --gc-sections). */'
	echo 'const struct bb_help_file bb_help_files[] = {'
	for f in "$@"; do
		echo "	{ \"$f\", &$(span_of "$f") },"
	done
	echo '	{ 0, 0 },'
	echo '};'
} >"$tmp"

if cmp -s "$tmp" "$out"; then
	rm -f "$tmp"
else
	mv "$tmp" "$out"
fi
