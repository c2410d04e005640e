#!/bin/sh
# tests/integration/test_help.sh - every applet's --help is its text file
# src/applets/NAME/help.txt byte for byte (ttcp's server and client:
# help_server.txt and help_client.txt; the binary holds the texts compressed,
# core/help.c inflates them): compared with cmp for each applet this build
# has (selftest and run print their list after the text); -h prints the
# same; --help into a full device fails with one line and exit 1; the
# options every applet shares read the same in every text; and
# scripts/help-data.sh refuses bad input without writing a half file.
. tests/integration/lib.sh

applets=$($BB --list | awk '{print $1}')
has() { echo "$applets" | grep -qx "$1"; }

checked=
# same_help FILE DESCRIPTION -- command...: its stdout is FILE, a help text
same_help() {
	f=$1; what=$2; shift 3
	checked="$checked $f"
	"$@" >"$TMPD/h.out" 2>"$TMPD/h.err"
	rc=$?
	cmp -s "$TMPD/h.out" "$f" && [ "$rc" -eq 0 ] && [ ! -s "$TMPD/h.err" ]
	tap $? "$what prints $f byte for byte (exit $rc)"
	cmp "$TMPD/h.out" "$f" 2>&1 | sed 's/^/#   /' | head -2
}

# starts_with FILE DESCRIPTION -- command...: FILE, then more lines
starts_with() {
	f=$1; what=$2; shift 3
	checked="$checked $f"
	"$@" >"$TMPD/h.out" 2>"$TMPD/h.err"
	rc=$?
	n=$(($(wc -c <"$f")))
	head -c "$n" "$TMPD/h.out" | cmp -s - "$f" &&
		[ "$(($(wc -c <"$TMPD/h.out")))" -gt "$n" ] && [ "$rc" -eq 0 ]
	tap $? "$what prints $f byte for byte, then its list (exit $rc)"
	tail -c +"$((n + 1))" "$TMPD/h.out" >"$TMPD/h.rest"
}

for a in stream lat csum mem ttcp rr facts compare report history; do
	if ! has "$a"; then
		echo "ok - $a --help # SKIP no $a in this build"
		continue
	fi
	same_help "src/applets/$a/help.txt" "$a --help" -- $BB "$a" --help
	same_help "src/applets/$a/help.txt" "$a -h" -- $BB "$a" -h
done
if has mem; then
	for m in tot page sweep; do
		same_help src/applets/mem/help.txt "mem $m --help" -- $BB mem "$m" --help
	done
fi
if has ttcp; then
	T=src/applets/ttcp
	same_help $T/help_server.txt "ttcp -r --server --help" -- $BB ttcp -r --server --help
	same_help $T/help_server.txt "ttcp --server --help" -- $BB ttcp --server --help
	same_help $T/help_client.txt "ttcp --to-server HOST --help" -- \
		$BB ttcp --to-server host.invalid --help
fi
if has selftest; then
	starts_with src/applets/selftest/help.txt "selftest --help" -- $BB selftest --help
	grep -q '^  [a-z]' "$TMPD/h.rest"
	tap $? "selftest --help lists its checks after the text"
fi
if has run; then
	starts_with src/applets/run/help.txt "run --help" -- $BB run --help
	grep -q 'stream' "$TMPD/h.rest"
	tap $? "run --help shows the suite after the text"
fi

# A write error on stdout: exit 1 and one line that says so, as any output.
if [ -w /dev/full ]; then
	for a in $applets; do
		$BB "$a" --help >/dev/full 2>"$TMPD/full.err"
		rc=$?
		[ "$rc" -eq 1 ] && [ "$(wc -l <"$TMPD/full.err")" -eq 1 ] &&
			grep -q 'cannot write standard output' "$TMPD/full.err"
		tap $? "$a --help >/dev/full: exit 1 and one line (exit $rc)"
	done
else
	echo "ok - --help >/dev/full # SKIP no writable /dev/full"
fi

# The options every applet shares read the same wherever they are listed.
common='  --json FILE        write the run, every sample included, as JSON
  --csv FILE         write every sample as CSV
  --label KEY=VALUE  record a label with the run (repeatable), e.g. PMU=0
  --fact NAME=PATH   record what the file PATH holds (a debugfs or sysfs
                     register, a saved fw_printenv) as fact.NAME, which
                     compare names when it differs (repeatable);
                     NAME=mmio:ADDR[:WIDTH[:MASK]] reads a physical register
                     through /dev/mem instead (root; WIDTH 8/16/32/64 bits)
  -h, --help         show this help'
printf '%s\n' "$common" >"$TMPD/common"
bad=
for f in src/applets/*/help*.txt; do
	grep -q '^  --json FILE ' "$f" || continue
	grep -A8 '^  --json FILE ' "$f" | cmp -s - "$TMPD/common" || bad="$bad $f"
done
[ -z "$bad" ]
tap $? "every text listing --json lists --json, --csv, --label, --fact and --help the same way ($bad)"

# Every help text is one an applet prints (in a build with them all).
if [ "$(echo "$applets" | wc -l)" -ge 11 ]; then
	unused=
	for f in src/applets/*/help*.txt; do
		echo " $checked " | grep -q " $f " || unused="$unused $f"
	done
	[ -z "$unused" ]
	tap $? "every src/applets/*/help*.txt was printed by an applet above ($unused)"
else
	echo "ok - every help text printed # SKIP not every applet in this build"
fi

# The generator: bad names and missing texts are refused, nothing written.
gen=scripts/help-data.sh
C=src/applets/csum/help.txt
L=src/applets/lat/help.txt
sh $gen "$TMPD/g.c" $C src/applets/csum/Bad.txt >"$TMPD/g.out" 2>"$TMPD/g.err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMPD/g.err")" -eq 1 ] && [ ! -e "$TMPD/g.c" ]
tap $? "help-data.sh: a file not named help.txt or help_WHAT.txt is refused, exit 2, no file (exit $rc)"
sh $gen "$TMPD/g.c" $C src/applets/csum/help_nosuchtext.txt >"$TMPD/g.out" 2>"$TMPD/g.err"
rc=$?
[ "$rc" -eq 1 ] && grep -q 'nosuchtext' "$TMPD/g.err" && [ ! -e "$TMPD/g.c" ]
tap $? "help-data.sh: a missing text is refused by name, exit 1, no file (exit $rc)"
sh $gen "$TMPD/g.c" >"$TMPD/g.out" 2>"$TMPD/g.err"
[ $? -eq 2 ] && [ ! -e "$TMPD/g.c" ]
tap $? "help-data.sh: no texts is a usage error"
sh $gen "$TMPD/g.c" $C $L >"$TMPD/g.out" 2>&1
rc=$?
c=$(($(wc -c <$C)))
l=$(($(wc -c <$L)))
[ "$rc" -eq 0 ] && grep -q "^const struct bb_help_span bb_help_csum = { 0, $c };\$" "$TMPD/g.c" &&
	grep -q "^const struct bb_help_span bb_help_lat = { $c, $l };\$" "$TMPD/g.c" &&
	grep -q "^const size_t bb_help_total = $((c + l));\$" "$TMPD/g.c"
tap $? "help-data.sh: each text's span gives its offset and length"
ls "$TMPD" | grep -q '^g\.c\.tmp'
[ $? -ne 0 ]
tap $? "help-data.sh leaves no temporary file"
cp -p "$TMPD/g.c" "$TMPD/g.keep"
touch -t 200001010000 "$TMPD/g.c"
sh $gen "$TMPD/g.c" $C $L
[ -z "$(find "$TMPD/g.c" -newer "$TMPD/g.keep")" ] && cmp -s "$TMPD/g.c" "$TMPD/g.keep"
tap $? "help-data.sh leaves an unchanged file untouched (nothing recompiles)"
