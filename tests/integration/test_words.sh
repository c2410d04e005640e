#!/bin/sh
# tests/integration/test_words.sh - what a newcomer reads: the README's
# first command installs what the whole tool needs (compare and report
# included); no "seed" (a word of the project's notes, not the user's) in
# any --help or applet description; help states the real defaults; sizes
# print in binary units without exponents; cache levels are named only
# where sysfs reports them.
. tests/integration/lib.sh

first=$(sed -n '/^```sh$/{n;p;q}' README.md)
echo "$first" | grep -q 'apt-get install -y .*pkg-config' &&
	echo "$first" | grep -q 'libcjson-dev' && echo "$first" | grep -q 'make run$'
tap $? "README's first command installs pkg-config and libcjson-dev, then make run"
second=$(sed -n '/^```sh$/{n;n;p;q}' README.md)
echo "$second" | grep -q 'make check$'
tap $? "README's second command is the test command"

$BB --help >"$TMPD/help" 2>&1
$BB --list >>"$TMPD/help" 2>&1
for a in $($BB --list | awk '{print $1}'); do
	$BB "$a" --help >>"$TMPD/help" 2>&1
done
for m in tot page sweep; do $BB mem "$m" --help >>"$TMPD/help" 2>&1; done
! grep -in 'seed' "$TMPD/help" >"$TMPD/seed"
tap $? "no 'seed' in --help of any applet or in --list"
sed 's/^/#   /' "$TMPD/seed" | head -5
expect_grep "the kernel's checksum Bytes/Time/Avg table" "$TMPD/help" "csum names its table's format"
expect_grep "the kernel's tot_memcpy table" "$TMPD/help" "mem names its table's format"

# mem page maps a source and a destination arena: help says so
$BB mem --help >"$TMPD/mh"
expect_grep 'destination arena are mapped' "$TMPD/mh" \
	"mem --help: page maps two arenas"
expect_grep 'up to 512M by default' "$TMPD/mh" "mem --help: how much page maps by default"
# ... and a page run records the arena it used, within what help promises
$BB mem page --arena 8M -n 1 --variant libc --json "$TMPD/mp.json" >"$TMPD/mp.out" 2>&1
jq -e '.results[0].params.arena_bytes == 8388608' "$TMPD/mp.json" >/dev/null 2>&1
tap $? "mem page --arena 8M uses an 8 MiB arena"
llc=$(jq '[.system.caches[]? | select(.type != "Instruction") | .size_bytes] | max // 0' \
	"$TMPD/mp.json" 2>/dev/null)
$BB mem page -n 1 --variant libc --json "$TMPD/mp2.json" >/dev/null 2>&1
jq -e --argjson llc "${llc:-0}" '.results[0].params.arena_bytes as $a |
	($a >= 8388608 or $a >= 2 * $llc) and ($a <= 268435456 or $a <= 2 * $llc + 4096)' \
	"$TMPD/mp2.json" >/dev/null 2>&1
tap $? "mem page's default arena is 8M..256M, or twice a larger cache (llc $llc)"

# lat: sizes in binary units, no exponent; levels named only where they exist
$BB lat --max 8M --samples 2 --json "$TMPD/l.json" >"$TMPD/l.out" 2>&1
! grep -E '[0-9]e[+-][0-9]' "$TMPD/l.out" >/dev/null
tap $? "lat prints no number with an exponent"
grep -E '^ +[0-9.]+ (B|KiB|MiB|GiB) ' "$TMPD/l.out" >/dev/null
tap $? "lat prints sizes in binary units"
jq -e '(.system.caches // []) as $c |
	([$c[] | select(.type != "Instruction") | .level] | max // 0) as $deep |
	.results[0].params as $p |
	[range(1; $p.levels + 1) | tostring | $p["level" + . + "_name"] |
	 if test("^L[0-9]+$") then ($deep == 0 or (.[1:] | tonumber) <= $deep) else true end] |
	all' "$TMPD/l.json" >/dev/null
tap $? "lat names a level Ln only where sysfs reports an Ln"

# a step over 256 MiB says how much and about how long, before it starts
$BB stream -s 16M -N 2 -t 1 >"$TMPD/st.out" 2>"$TMPD/st.err"
grep -q '^boardbench stream: 3 arrays of 128 MiB (384 MiB in all), 2 rounds: about [0-9.]* \(s\|min\|h\)$' \
	"$TMPD/st.err"
tap $? "stream over 256 MiB: one line says how much memory and about how long"
$BB stream -s 1M -N 2 -t 1 >"$TMPD/st.out" 2>"$TMPD/st.err"
[ ! -s "$TMPD/st.err" ]
tap $? "a small stream says nothing on stderr"
