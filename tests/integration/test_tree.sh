#!/bin/sh
# tests/integration/test_tree.sh - the tree keeps the shape docs/DESIGN.md
# gives it:
#   - each applet is one room: no string literal in code that is an applet's
#     name (or a metric key of it, "NAME.") outside src/applets/NAME/, but
#     the one list (src/applets/applets.def); a line that means the word and
#     not the applet says so with the comment  /* the word, not the applet */
#   - floors: no #include that climbs (src/core 0; src/kernels, src/net,
#     src/facts 1; src/analysis 2; src/applets 3; src/main.c 4);
#   - every applet of --list has its folder, its --help text, a section of
#     the man page, the completion's options, and, when it is in the quick
#     suite, a LAVA test case name (the descriptor's headline: checked in
#     tests/unit/test_applets.c);
#   - every file in src/ opens with a comment saying what it is for.
# Reads the sources (run from the top of the tree, as make check does).
. tests/integration/lib.sh

LIST=src/applets/applets.def
applets=$(sed -n 's/^APPLET(\([a-z0-9_]*\),.*/\1/p' "$LIST")
[ -n "$applets" ]
tap $? "the one list names the applets ($(echo $applets))"

# code FILE: "LINE<TAB>LITERAL" for every string literal of FILE's code
# (comments and #include lines left out), and "LINE<TAB>!MARK" on lines
# with the marker comment.
code() {
	awk 'BEGIN { inc = 0 }
	{
		line = $0
		if (index(line, "/* the word, not the applet */"))
			printf "%d\t!MARK\n", NR
		if (line ~ /^[ \t]*#[ \t]*include/)
			next
		out = ""; i = 1; n = length(line)
		while (i <= n) {
			c = substr(line, i, 1)
			if (inc) {
				if (substr(line, i, 2) == "*/") { inc = 0; i += 2 } else i++
				continue
			}
			if (substr(line, i, 2) == "/*") { inc = 1; i += 2; continue }
			if (substr(line, i, 2) == "//") break
			if (c == "\047") {       # a character literal: skip it
				i++
				while (i <= n && substr(line, i, 1) != "\047") {
					if (substr(line, i, 1) == "\\") i++
					i++
				}
				i++
				continue
			}
			if (c == "\"") {
				s = ""; i++
				while (i <= n && substr(line, i, 1) != "\"") {
					if (substr(line, i, 1) == "\\") { s = s substr(line, i, 2); i += 2; continue }
					s = s substr(line, i, 1); i++
				}
				i++
				printf "%d\t%s\n", NR, s
				continue
			}
			i++
		}
	}' "$1"
}

all=$(echo $applets)
: >"$TMPD/names"
for f in $(find src -name '*.[ch]' | sort); do
	code "$f" | awk -F '\t' -v apps="$all" -v f="$f" '
		BEGIN { n = split(apps, app, " ") }
		$2 == "!MARK" { marked[$1] = 1; next }
		{
			for (i = 1; i <= n; i++)
				if (index(f, "src/applets/" app[i] "/") != 1 &&
				    ($2 == app[i] || index($2, app[i] ".") == 1))
					hit[$1] = $2
		}
		END { for (l in hit) if (!marked[l]) print f ":" l ": \"" hit[l] "\"" }' >>"$TMPD/names"
done
[ ! -s "$TMPD/names" ]
tap $? "no applet's name as a string literal outside its folder ($(wc -l <"$TMPD/names") found)"
sed 's/^/#   /' "$TMPD/names" | head -20

# floor PATH: the floor of a path under src/.
floor() {
	case $1 in
	src/core/*) echo 0 ;;
	src/kernels/* | src/net/* | src/facts/*) echo 1 ;;
	src/analysis/*) echo 2 ;;
	src/applets/*) echo 3 ;;
	src/main.c) echo 4 ;;
	*) echo 9 ;;
	esac
}

: >"$TMPD/climbs"
for f in $(find src -name '*.[ch]' | sort); do
	ff=$(floor "$f")
	for inc in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f"); do
		case $inc in
		*/*) path=src/$inc ;;
		*) path=$(dirname "$f")/$inc ;;
		esac
		[ -f "$path" ] || continue      # made by the build (buildinfo.h, applets_built.h)
		fi=$(floor "$path")
		[ "$fi" -le "$ff" ] || echo "$f includes $inc (floor $fi above $ff)" >>"$TMPD/climbs"
	done
done
[ ! -s "$TMPD/climbs" ]
tap $? "no include climbs a floor ($(wc -l <"$TMPD/climbs") found)"
sed 's/^/#   /' "$TMPD/climbs" | head -20

: >"$TMPD/heads"
for f in $(find src -name '*.[ch]' -o -name '*.def' | sort); do
	head -1 "$f" | grep -q '^/\* [a-zA-Z0-9_.]* - ' || echo "$f" >>"$TMPD/heads"
done
[ ! -s "$TMPD/heads" ]
tap $? "every file in src/ opens with what it is for ($(cat "$TMPD/heads"))"

# Every applet of this build's --list: its room, its help, its man page
# section, its completion; and every applet of the list in --list when the
# build has them all.
listed=$($BB --list | awk '{ print $1 }')
for a in $listed; do
	echo "$applets" | grep -qx "$a" && [ -d "src/applets/$a" ] && [ -f "src/applets/$a/help.txt" ]
	tap $? "$a: in the one list, with src/applets/$a/ and its help.txt"
	grep -qx "\.Ss $a" docs/boardbench.1
	tap $? "$a: a section of the man page (.Ss $a)"
	if command -v bash >/dev/null 2>&1; then
		bash -c '. packaging/bash-completion/boardbench || exit 1
			COMP_WORDS=("$1" "$2" --h); COMP_CWORD=2
			_boardbench && printf "%s\n" "${COMPREPLY[@]}"' _ "$BB_ABS" "$a" >"$TMPD/comp" 2>&1
		grep -qx -- --help "$TMPD/comp"
		tap $? "$a: the completion offers its options (--help)"
	fi
done
if [ "$(echo "$listed" | wc -l)" -eq "$(echo "$applets" | wc -l)" ]; then
	[ "$(echo $listed)" = "$(echo $applets)" ]
	tap $? "--list is the one list, in its order"
fi
for d in src/applets/*/; do
	a=$(basename "$d")
	echo "$applets" | grep -qx "$a"
	tap $? "src/applets/$a/ is an applet of the one list"
done
