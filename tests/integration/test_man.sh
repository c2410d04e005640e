#!/bin/sh
# tests/integration/test_man.sh - docs/boardbench.1 passes `mandoc -Tlint`
# and names the options the binary has: for each applet, every option its
# --help lists is in the page (in the applet's section, or for --json,
# --csv, --label and --help in COMMON OPTIONS), and every option the
# applet's section names is one its --help lists.  The options are read
# from --help as the bash completion reads them.
. tests/integration/lib.sh

PAGE=docs/boardbench.1

if command -v mandoc >/dev/null 2>&1; then
	mandoc -Tlint "$PAGE" >"$TMPD/lint" 2>&1
	tap $? "mandoc -Tlint $PAGE is clean"
	sed 's/^/#   /' "$TMPD/lint"
else
	echo "ok - mandoc -Tlint $PAGE # SKIP no mandoc"
fi

# section_opts NAME: the options (Fl arguments, a dash added) in the
# page's section or subsection NAME.
section_opts() {
	awk -v want="$1" '
		/^\.S[hs] / { sub(/^\.S[hs] /, ""); on = ($0 == want); next }
		on && /^\./ {
			n = split(substr($0, 2), w, / +/)
			fl = 0
			for (i = 1; i <= n; i++) {
				if (w[i] == "Fl") { fl = 1; continue }
				if (w[i] ~ /^[A-Z][a-z][a-z]?$/) { fl = 0; continue }
				if (fl && w[i] ~ /^-?[A-Za-z0-9][A-Za-z0-9-]*$/) print "-" w[i]
			}
		}' "$PAGE" | sort -u
}

# help_opts APPLET: its options as the completion reads them (bash).
help_opts() {
	bash -c '. packaging/bash-completion/boardbench && _boardbench_options "$0" "$1"' "$BB" "$1"
}

section_opts "COMMON OPTIONS" >"$TMPD/common"
grep -qx -- --json "$TMPD/common"
tap $? "the page has a COMMON OPTIONS section naming --json"

applets=$($BB --list | awk '{ print $1 }')
[ -n "$applets" ]
tap $? "boardbench --list names the applets"
for a in $applets; do
	if ! $BB "$a" --help >/dev/null 2>&1; then
		echo "ok - $a: options against the page # SKIP $a --help fails in this build"
		continue
	fi
	help_opts "$a" | sort -u >"$TMPD/help.$a"
	section_opts "$a" >"$TMPD/man.$a"
	[ -s "$TMPD/man.$a" ]
	tap $? "$a: the page has a section for it with its options"
	missing=$(cat "$TMPD/man.$a" "$TMPD/common" | sort -u | comm -23 "$TMPD/help.$a" -)
	[ -z "$missing" ]
	tap $? "$a: every option of its --help is in the page ($(echo $missing))"
	extra=$(comm -13 "$TMPD/help.$a" "$TMPD/man.$a")
	[ -z "$extra" ]
	tap $? "$a: every option its section names is in its --help ($(echo $extra))"
done
