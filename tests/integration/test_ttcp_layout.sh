#!/bin/sh
# tests/integration/test_ttcp_layout.sh - the files of the classic `ttcp`
# applet (src/applets/ttcp/: ttcp.c, ttcp_quick.c, tx, rx, ctl, model,
# render, signal) call one another one way only, as ttcp_applet.h says:
# no file calls a file that calls it back, directly or round a longer
# circle.  Read from the built objects next to $BB: file A depends on file
# B when A uses a symbol B defines (nm); tsort fails on a circle.  Skips
# when the objects or nm are not there (an installed binary).
. tests/integration/lib.sh

case $BB in
./boardbench) OBJ=build/src/applets/ttcp ;;
*) OBJ=$(dirname "$BB")/src/applets/ttcp ;;
esac
FILES="ttcp ttcp_quick ttcp_tx ttcp_rx ttcp_ctl ttcp_model ttcp_render ttcp_signal"
if ! command -v nm >/dev/null 2>&1 || ! command -v tsort >/dev/null 2>&1; then
	echo "ok 1 # SKIP no nm or tsort"
	exit 0
fi
for f in $FILES; do
	if [ ! -f "$OBJ/$f.o" ]; then
		echo "ok 1 # SKIP no $OBJ/$f.o (the objects of this build are elsewhere)"
		exit 0
	fi
	nm -g --defined-only "$OBJ/$f.o" | awk '{ print $3 }' | sort -u >"$TMPD/$f.def"
	nm -u "$OBJ/$f.o" | awk '{ print $2 }' | sort -u >"$TMPD/$f.use"
done

# Every edge "A B" (A calls into B), and each file with itself so that a
# file with no edge still shows.
for a in $FILES; do
	echo "$a $a"
	for b in $FILES; do
		[ "$a" = "$b" ] && continue
		if [ -n "$(comm -12 "$TMPD/$a.use" "$TMPD/$b.def")" ]; then
			echo "$a $b"
		fi
	done
done >"$TMPD/edges"
n=$(awk '$1 != $2' "$TMPD/edges" | wc -l)
[ "$n" -ge 7 ]
tap $? "the ttcp files call one another ($n edges among $(echo "$FILES" | wc -w) files)"

tsort "$TMPD/edges" >"$TMPD/order" 2>"$TMPD/loop"
rc=$?
tap $rc "no include or call circle among them (order: $(tr '\n' ' ' <"$TMPD/order"))"
[ $rc -eq 0 ] || sed 's/^/#   /' "$TMPD/loop"

# The circles issue 13 named stay broken.
for pair in "ttcp_rx ttcp" "ttcp_tx ttcp" "ttcp_model ttcp_ctl"; do
	! grep -qx "$pair" "$TMPD/edges"
	tap $? "$(echo "$pair" | sed 's/ / does not call /')"
done
