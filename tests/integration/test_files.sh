#!/bin/sh
# tests/integration/test_files.sh - output and input files (issue 11,
# points 4 and 5; docs/json-schema.md "Reading results files"):
#   - --json into a device node made with mknod (c 1 3, like /dev/null), a
#     FIFO, a symlink and a 0600 file owned by nobody: written in place or
#     through, never replaced (a char device stays one, a symlink stays
#     one, owner and mode kept); a FIFO nobody reads is refused, not waited
#     on; /dev/full is a resource failure (exit 1, one line); "-" is stdout;
#   - standard output: `>/dev/full` exits 1 with one line; a reader that
#     closes the pipe (`| head -c1`) is no error: exit 0, nothing on stderr;
#   - compare on a FIFO named *.json (given, or in a directory) returns at
#     once, exit 2 and one line naming it; a duplicate key is exit 2 naming
#     the key; out of memory under ulimit -v is exit 1, not "not valid";
#   - a newline in an argument never makes a second line on stderr.
. tests/integration/lib.sh

CSUM="$BB csum --sizes 64 -N 10 -r 2 --variant ref16"
D=$TMPD/d
mkdir "$D"

# one_line CODE NEEDLE WHAT: the last command's status, stderr one line.
one_line() {
	lines=$(wc -l <"$TMPD/err")
	why=""
	[ "$got" -eq "$1" ] || why="$why exit $got;"
	[ "$lines" -eq 1 ] || why="$why $lines lines on stderr;"
	grep -qF -- "$2" "$TMPD/err" || why="$why no '$2' on stderr;"
	if [ -z "$why" ]; then tap 0 "$3"; else
		tap 1 "$3:$why"
		sed 's/^/#   /' "$TMPD/err" | head -3
	fi
}

run() {  # command... : status in $got, output in $TMPD/out, $TMPD/err
	"$@" >"$TMPD/out" 2>"$TMPD/err"
	got=$?
}

is_json() {  # file: a whole results document
	head -c 200 "$1" | grep -q '"schema": "boardbench-results"' && tail -c 3 "$1" | grep -q '}'
}

# ---- output files ----
if mknod "$D/null" c 1 3 2>/dev/null; then
	run $CSUM --json "$D/null"
	[ "$got" -eq 0 ] && [ -c "$D/null" ]
	tap $? "--json into a mknod copy of /dev/null: exit 0, still a character device"
else
	tap 0 "--json into a mknod device node # SKIP mknod not permitted (not root?)"
fi

: >"$D/target.json"
ln -s target.json "$D/link.json"
run $CSUM --json "$D/link.json"
[ "$got" -eq 0 ] && [ -L "$D/link.json" ] && is_json "$D/target.json"
tap $? "--json into a symlink: still a symlink, its target holds the JSON"

ln -s nowhere.json "$D/dangling.json"
run $CSUM --json "$D/dangling.json"
one_line 1 "dangling.json" "--json into a symlink to nothing: refused in one line, exit 1"
[ -L "$D/dangling.json" ] && [ ! -e "$D/nowhere.json" ]
tap $? "... and the symlink is left as it was"

echo old >"$D/own.json"
chmod 600 "$D/own.json"
if chown nobody "$D/own.json" 2>/dev/null; then
	run $CSUM --json "$D/own.json"
	[ "$got" -eq 0 ] && is_json "$D/own.json" &&
		[ "$(stat -c '%U %a' "$D/own.json")" = "nobody 600" ]
	tap $? "--json over a 0600 file of nobody: replaced, still nobody's and 0600 ($(stat -c '%U %a' "$D/own.json"))"
else
	tap 0 "--json keeps another owner # SKIP chown not permitted (not root?)"
fi
chmod 640 "$D/own.json"
run $CSUM --csv "$D/own.json"
[ "$got" -eq 0 ] && [ "$(stat -c '%a' "$D/own.json")" = 640 ] && head -1 "$D/own.json" | grep -q '^applet,'
tap $? "--csv over a 0640 file: the CSV, mode still 640"

mkfifo "$D/out.fifo"
run timeout 10 $CSUM --json "$D/out.fifo"
one_line 1 "nobody reads" "--json into a FIFO nobody reads: refused at once in one line, exit 1"
# A reader blocks in open() until a writer comes: retry until it is there.
cat "$D/out.fifo" >"$TMPD/fifo.got" &
reader=$!
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	run timeout 10 $CSUM --json "$D/out.fifo"
	grep -q "nobody reads" "$TMPD/err" || break
	sleep 0.2
done
wait $reader
[ "$got" -eq 0 ] && [ -p "$D/out.fifo" ] && is_json "$TMPD/fifo.got"
tap $? "--json into a FIFO with a reader: written in place, still a FIFO"

if [ -w /dev/full ]; then
	run $CSUM --json /dev/full
	one_line 1 "No space left" "--json /dev/full: exit 1, one line saying why"
	[ -c /dev/full ]
	tap $? "... and /dev/full is still a device"
	$CSUM >/dev/full 2>"$TMPD/err"
	got=$?
	one_line 1 "standard output" "csum >/dev/full: exit 1, one line"
else
	tap 0 "/dev/full # SKIP not writable here"
fi

# $? of a pipeline is the reader's: csum's own status comes out on fd 3.
# `| true` has gone before csum writes (EPIPE for sure); the JSON of 32
# sizes is 800 KB, far more than a pipe holds, so head leaves before its end.
st=$( { { $CSUM 2>"$TMPD/err"; echo $? >&3; } | head -c1 >/dev/null; } 3>&1)
[ "$st" -eq 0 ] && [ ! -s "$TMPD/err" ]
tap $? "csum | head -c1: exit $st (0, not 141), nothing on stderr"
st=$( { { $CSUM 2>"$TMPD/err"; echo $? >&3; } | true; } 3>&1)
[ "$st" -eq 0 ] && [ ! -s "$TMPD/err" ]
tap $? "csum | true (a reader gone before the first write): exit $st, nothing on stderr"
st=$( { { $BB csum -N 2 -r 20 --sizes "$(seq -s, 1 32)" --json - 2>"$TMPD/err"; echo $? >&3; } |
	head -c1 >/dev/null; } 3>&1)
[ "$st" -eq 0 ] && ! grep -q "cannot\|pipe" "$TMPD/err"
tap $? "csum --json - (800 KB) | head -c1: exit $st, no error"

run $CSUM --json -
[ "$got" -eq 0 ] && is_json "$TMPD/out" && grep -q "Bytes" "$TMPD/err"
tap $? "--json -: the JSON alone on stdout, the table on stderr"

run $CSUM --json - --csv -
one_line 2 "--csv" "--json - --csv -: exit 2, one line (one stdout)"

run $CSUM --json "$D"
one_line 2 "--json" "--json DIR: exit 2, one line"

# ---- arguments quoted in errors ----
nl='
'
run $CSUM --json "$D/no${nl}such/x.json"
one_line 1 'no\nsuch' "a newline in --json's value: one escaped line"
run $BB csum --sizes "1${nl}2"
one_line 2 '1\n2' "a newline in --sizes' value: one escaped line"

# ---- input files ----
if $BB compare "$TMPD/x" "$TMPD/y" 2>&1 | grep -q "without cJSON"; then
	tap 0 "compare reading files # SKIP built without cJSON"
	exit 0
fi
D=$TMPD/in
mkdir "$D"
$CSUM --label X=1 --json "$D/a.json" >/dev/null 2>&1
$CSUM --json "$D/b.json" >/dev/null 2>&1
mkfifo "$D/x.json"
run timeout 10 $BB compare "$D/a.json" "$D/x.json"
one_line 2 "x.json: not a regular file" "compare a.json FIFO.json: at once, exit 2, one line naming it"
run timeout 10 $BB compare "$D" "$D/b.json"
one_line 2 "x.json: not a regular file" "compare DIR with a FIFO x.json in it: at once, exit 2, one line"
rm "$D/x.json"

run $BB compare "$D/a.json" "$D/no${nl}such.json"
one_line 2 'no\nsuch.json' "a newline in a file name: one escaped line"

sed 's/"labels": {/"labels": {"PMU": "0", "PMU": "1", /' "$D/a.json" >"$TMPD/dup.json"
run $BB compare "$TMPD/dup.json" "$D/b.json"
one_line 2 'duplicate key "PMU"' "a duplicate key: exit 2, one line naming it"

# Out of memory: a valid file of 4 series of 1,000,000 samples (20 MB of
# text, some 300 MB as cJSON nodes) read under ulimit -v 100 MB.
if $BB --version | grep -q 'fsanitize=address'; then
	tap 0 "out of memory is exit 1 # SKIP AddressSanitizer reserves more address space than ulimit -v allows"
else
	awk 'BEGIN {
		printf "{\"schema\": \"boardbench-results\", \"schema_version\": 1, \"results\": [{\"applet\": \"csum\", \"series\": ["
		for (k = 0; k < 4; k++) {
			printf "%s{\"name\": \"s%d\", \"variant\": \"v\", \"unit\": \"s\", \"work\": 1, \"work_unit\": \"bytes\", \"discard\": 0, \"samples\": [", k ? ", " : "", k
			for (i = 0; i < 1000000; i++)
				printf "%s1.5", i ? "," : ""
			printf "]}"
		}
		printf "]}]}\n"
	}' >"$TMPD/big.json"
	(ulimit -v 100000 && exec $BB compare "$TMPD/big.json" "$D/b.json") >"$TMPD/out" 2>"$TMPD/err"
	got=$?
	one_line 1 "out of memory" "a valid 20 MB file under ulimit -v 100 MB: exit 1, out of memory, one line"
fi

# Places where no file can be made though access(2) says yes to root
# (sysfs, procfs): refused before anything is measured, exit 1, one line.
for place in /sys/kernel /proc; do
	if [ -d "$place" ]; then
		$CSUM --json "$place/bb.json" >"$TMPD/out" 2>"$TMPD/err"
		got=$?
		one_line 1 "directory '$place'" "--json into $place is refused in one line"
		[ ! -s "$TMPD/out" ]
		tap $? "  ... before the run (nothing measured on stdout)"
	else
		tap 0 "--json into $place # SKIP no $place"
	fi
done
