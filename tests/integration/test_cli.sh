#!/bin/sh
# tests/integration/test_cli.sh - the command line contract: every bad
# invocation exits 2 with exactly one line on stderr naming the offending
# option or value and nothing on stdout; resource failures exit 1 with one
# line; --help, --list and --version work, and --help works for every
# applet that --list shows.
. tests/integration/lib.sh

# Printable form of a command for test descriptions.
show() {
	printf '%s' "$*" | tr -c '[:print:]' '?'
}

# bad CODE NEEDLES -- command...
# Passes when the command exits CODE, writes nothing on stdout and exactly
# one line on stderr containing every '|'-separated fixed string in NEEDLES.
bad() {
	code=$1; needles=$2; shift 3
	what="$(show "$@") exits $code with one line naming $(show "$needles")"
	"$@" >"$TMPD/out" 2>"$TMPD/err"
	got=$?
	why=""
	[ "$got" -eq "$code" ] || why="$why exit $got;"
	[ -s "$TMPD/out" ] && why="$why stdout not empty;"
	lines=$(wc -l <"$TMPD/err")
	[ "$lines" -eq 1 ] && [ "$(wc -c <"$TMPD/err")" -gt 1 ] || why="$why $lines lines on stderr;"
	rest=$needles
	while [ -n "$rest" ]; do
		n=${rest%%|*}
		case $rest in *"|"*) rest=${rest#*|} ;; *) rest="" ;; esac
		grep -qF -- "$n" "$TMPD/err" || why="$why no '$(show "$n")' on stderr;"
	done
	if [ -z "$why" ]; then
		tap 0 "$what"
	else
		tap 1 "$what:$why"
		sed 's/^/#   /' "$TMPD/err" | head -5
	fi
}

# ---- bad usage: exit 2 ----
bad 2 "nosuch" -- $BB nosuch
bad 2 "applet" -- $BB ""
bad 2 "-x" -- $BB -x
bad 2 "--bogus" -- $BB stream --bogus
bad 2 "-x" -- $BB stream -x
bad 2 "-s" -- $BB stream -s
bad 2 "--size" -- $BB stream --size
bad 2 "--json" -- $BB stream --json
bad 2 "--label" -- $BB stream --label
bad 2 "abc|--size" -- $BB stream -s abc
bad 2 "'0'|--size" -- $BB stream -s 0
bad 2 "-5|--size" -- $BB stream -s -5
bad 2 "'15'|--size" -- $BB stream -s 15
bad 2 "99999999999999999999999|--size" -- $BB stream -s 99999999999999999999999
bad 2 "17179869184G|--size" -- $BB stream -s 17179869184G
bad 2 "4X|--size" -- $BB stream -s 4X
bad 2 "1.5M|--size" -- $BB stream -s 1.5M
bad 2 "'0x'|--size" -- $BB stream -s 0x
bad 2 "'1'|--ntimes" -- $BB stream -N 1
bad 2 "'0'|--ntimes" -- $BB stream -N 0
bad 2 "'x'|--ntimes" -- $BB stream -N x
bad 2 "100001|--ntimes" -- $BB stream --ntimes 100001
bad 2 "'0'|--threads" -- $BB stream -t 0
bad 2 "5000|--threads" -- $BB stream -t 5000
bad 2 "-1|--threads" -- $BB stream -t -1
bad 2 "nosuch|--variant" -- $BB stream --variant nosuch
bad 2 "'nosuch'|--variant" -- $BB stream --variant c,nosuch
bad 2 "--variant" -- $BB stream --variant ""
bad 2 "--pin=3" -- $BB stream --pin=3
bad 2 "noequals|--label" -- $BB stream --label noequals
bad 2 "=v|--label" -- $BB stream --label =v
bad 2 "a b=c|--label" -- $BB stream --label "a b=c"
bad 2 "--label" -- $BB stream --label "$(printf 'k=\001')"
bad 2 "extra" -- $BB stream extra
bad 2 "extra" -- $BB stream -s 1M extra
bad 2 "--json" -- $BB stream --json ""
bad 2 "--csv" -- $BB stream --csv ""
bad 2 "--json" -- $BB stream --json "$TMPD/"
bad 2 "--outdir" -- $BB run -o ""
bad 2 "--outdir" -- $BB run --outdir
bad 2 "-s" -- $BB run -s 1M
bad 2 "extra" -- $BB run extra
bad 2 "nosuch|--only" -- $BB selftest --only nosuch
bad 2 "--only" -- $BB selftest --only
bad 2 "--bogus" -- $BB selftest --bogus
bad 2 "extra" -- $BB selftest extra
bad 2 "foo|--list" -- $BB --list foo
bad 2 "foo|--version" -- $BB --version foo
bad 2 "foo|--help" -- $BB --help foo

# ---- every applet rejects an unknown option the same way ----
applets=$($BB --list 2>/dev/null | awk 'NF { print $1 }')
[ -n "$applets" ]
tap $? "--list names at least one applet"
for a in $applets; do
	bad 2 "--no-such-option" -- $BB "$a" --no-such-option
done

# ---- resource failures: exit 1 ----
bad 1 "--json|/nonexistent/dir/x.json" -- $BB stream -s 1M -N 2 --json /nonexistent/dir/x.json
bad 1 "--csv|/nonexistent/dir/x.csv" -- $BB stream -s 1M -N 2 --csv /nonexistent/dir/x.csv
bad 1 "/nonexistent/dir" -- $BB run -o /nonexistent/dir

# Arrays larger than half of MemAvailable (3 arrays x 8 bytes = 24 bytes an
# element): twice the smallest such size, so it stays true if memory frees up.
# The message names the element count (a 32-bit build may instead say it
# does not fit the address space).
avail_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
[ -n "$avail_kb" ] || avail_kb=$(awk '/^MemTotal:/ { print int($2 / 2) }' /proc/meminfo)
too_big=$((avail_kb * 1024 / 2 / 24 * 2))
bad 1 "$too_big" -- $BB stream -s "$too_big" -N 2
if [ $((2 * 1024 * 1024 * 1024 * 24)) -gt $((avail_kb * 1024 / 2)) ]; then
	bad 1 "2147483648" -- $BB stream -s 2G -N 2
else
	tap 0 "stream -s 2G fits in half of MemAvailable here # SKIP"
fi
[ -z "$(find "$TMPD" -name '*.tmp.*')" ]
tap $? "no temporary files left behind"

# ---- the global options ----
expect_exit 2 "boardbench with no arguments exits 2" -- $BB
[ ! -s "$TMPD/out" ] && grep -q usage "$TMPD/err"
tap $? "boardbench with no arguments prints usage on stderr only"

for opt in --help -h --list --version -V; do
	expect_exit 0 "boardbench $opt exits 0" -- $BB $opt
	[ -s "$TMPD/out" ] && [ ! -s "$TMPD/err" ]
	tap $? "boardbench $opt prints on stdout only"
done

$BB --help >"$TMPD/help" 2>&1
for a in $applets; do
	grep -q "^  $a " "$TMPD/help"
	tap $? "--help lists applet $a"
done

$BB --version >"$TMPD/version" 2>&1
if (cd "$(dirname "$0")" && git rev-parse --git-dir) >/dev/null 2>&1; then
	grep -Eq '\(git [0-9a-f]{7,}(-dirty)?\)' "$TMPD/version"
	tap $? "--version shows the git revision"
else
	tap 0 "--version git revision: not built in a git tree # SKIP"
fi
grep -Eq '^compiler: (gcc|clang) [0-9]' "$TMPD/version"
tap $? "--version shows the compiler"
grep -Eq '^cflags: .*-std=c11' "$TMPD/version"
tap $? "--version shows the compiler flags"

# ---- --help on every applet ----
for a in $applets; do
	expect_exit 0 "boardbench $a --help exits 0" -- $BB "$a" --help
	grep -q "usage: boardbench $a" "$TMPD/out" && [ ! -s "$TMPD/err" ]
	tap $? "boardbench $a --help prints its usage on stdout"
done

# ---- ttcp: one option table, three modes ----
# An option of another mode is named with the mode that does not take it,
# as it was typed (a long option's value as a word of its own, or after =).
if echo "$applets" | grep -qx ttcp; then
	while IFS='|' read -r args opt mode; do
		# shellcheck disable=SC2086
		expect_exit 2 "ttcp $args: refused" -- $BB ttcp $args
		[ "$(wc -l <"$TMPD/err")" -eq 1 ] && grep -qF -- "$opt does not apply to $mode" "$TMPD/err"
		tap $? "  ... in one line naming $opt and $mode"
	done <<'EOT'
-t -R localhost|-R|classic ttcp
-r -s --max-conns 3|--max-conns|classic ttcp
-r --server --rate 1M|--rate|the server
-r --server -l8192|-l|the server
--to-server h --max-tests=3|--max-tests|the server's client
--to-server h -A 8|-A|the server's client
EOT
fi
