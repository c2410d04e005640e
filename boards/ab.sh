#!/bin/sh
# boards/ab.sh - A against B across boots, as a board lab does it (`make
# board-ab`): N alternating LAVA jobs (A B A B ...) on one board, every job
# a fresh boot, the results of all of them in one directory, then
# `boardbench compare --by side` on it:
#
#   boards/ab.sh BOARD BUILD-DIR A B N
#
# A and B are what differs: kernel arguments (`mitigations=off`), or
# `image=DIR` for another build of the board (a kernel or boardbench of
# its own: boards/image.sh BOARD DIR).  Each job runs the quick suite
# (BOARD_ONLY limits it, default stream,csum) with the labels side=A|B and
# ab.run=K; the network tests are left out (BOARD_NET=1 keeps them).
# Results: BUILD-DIR/ab/results/ (side-A-1.json ...), compare's output in
# BUILD-DIR/ab/compare.txt.  The checks (TAP) are of the workflow, never of
# a speed: every job passed, every boot had a boot id of its own, each side
# has N results whose boot id is its job's, and compare grouped them by side.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BOARD=${1:?usage: boards/ab.sh BOARD BUILD-DIR A B N}
D=$(cd "${2:?}" && pwd)
A=${3-} B=${4-} N=${5:-3}
HOSTBB=${BOARD_HOST_BB:-$(dirname "$HERE")/boardbench}
case $N in '' | *[!0-9]*) echo "boards/ab.sh: N=$N is not a count" >&2; exit 2 ;; esac
[ "$N" -ge 1 ] && [ "$N" -le 50 ] || { echo "boards/ab.sh: N=$N: 1..50" >&2; exit 2; }
[ "$A" != "$B" ] || { echo "boards/ab.sh: A and B are the same ('$A'): nothing to compare" >&2; exit 2; }

AB=$D/ab
rm -rf "$AB"
mkdir -p "$AB/results"
fails=0
ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; fails=$((fails + 1)); }

# side_dir SPEC: the build directory of a side (image=DIR, else BUILD-DIR)
side_dir() {
	case $1 in
	image=*) (cd "${1#image=}" && pwd) ;;
	*) echo "$D" ;;
	esac
}
side_append() {
	case $1 in
	image=*) echo "" ;;
	*) echo "$1" ;;
	esac
}

k=1
while [ "$k" -le "$N" ]; do
	for side in A B; do
		eval "spec=\$$side"
		dir=$(side_dir "$spec") || { notok "side $side: no build directory in '$spec'"; continue; }
		echo "# job $k$side: $BOARD, ${spec:-(as built)}"
		BOARD_APPEND="$(side_append "$spec")" BOARD_LABELS="side=$side ab.run=$k" \
			BOARD_ONLY=${BOARD_ONLY:-stream,csum} BOARD_NET=${BOARD_NET:-0} BOARD_HOST_BB=$HOSTBB \
			sh "$HERE/lava.sh" "$BOARD" "$dir" >"$AB/job-$k$side.log" 2>&1
		rc=$?
		[ $rc -eq 0 ] && ok "job $k$side passed" || { notok "job $k$side failed (status $rc): $AB/job-$k$side.log"; grep '^not ok' "$AB/job-$k$side.log"; }
		f=$dir/lava/files
		if [ -f "$f/boardbench.json" ] && [ -f "$f/boot_id.txt" ]; then
			cp "$f/boardbench.json" "$AB/results/side-$side-$k.json"
			cp "$dir/lava/lava-run.log" "$AB/lava-run-$k$side.log"
			echo "$side $k $(cat "$f/boot_id.txt")" >>"$AB/boots.txt"
		fi
	done
	k=$((k + 1))
done

# The workflow: distinct boots, both sides complete, their boot ids.
total=$(wc -l <"$AB/boots.txt" 2>/dev/null || echo 0)
distinct=$(cut -d' ' -f3 "$AB/boots.txt" 2>/dev/null | sort -u | wc -l)
[ "$total" -eq $((2 * N)) ] && ok "$total jobs brought their results back" || notok "$total of $((2 * N)) jobs brought results back"
[ "$distinct" -eq "$total" ] && [ "$total" -gt 0 ] && ok "$distinct distinct boot ids in $total jobs" ||
	notok "$distinct distinct boot ids in $total jobs"
for side in A B; do
	c=$(ls "$AB/results"/side-$side-*.json 2>/dev/null | wc -l)
	[ "$c" -eq "$N" ] && ok "side $side: $N results" || notok "side $side: $c results of $N"
done
# Each file's own boot id (system.boot.id, where boardbench records it) is
# its job's.
while read -r side kk id; do
	rec=$(jq -r '.system["boot.id"] // .system.boot.id // empty' "$AB/results/side-$side-$kk.json" 2>/dev/null)
	if [ -n "$rec" ]; then
		[ "$rec" = "$id" ] && ok "side-$side-$kk.json records its boot ($id)" ||
			notok "side-$side-$kk.json records boot $rec, its job booted $id"
	fi
	l=$(jq -r '.labels.side // empty' "$AB/results/side-$side-$kk.json")
	[ "$l" = "$side" ] && ok "side-$side-$kk.json is labelled side=$side" || notok "side-$side-$kk.json is labelled side='$l'"
done <"$AB/boots.txt"
"$HOSTBB" compare "$AB/results" --by side --base A >"$AB/compare.txt" 2>&1
rc=$?
cat "$AB/compare.txt"
# compare exits 0 (no change found) or 1 (a change, which TCG timings may show); 2 is a usage error
[ $rc -le 1 ] && grep -q . "$AB/compare.txt" && ok "compare --by side read both sides (status $rc)" ||
	notok "compare --by side failed (status $rc)"
echo "$((2 * N + 4 - fails)) checks, $fails failed; results in $AB/results"
[ $fails -eq 0 ]
