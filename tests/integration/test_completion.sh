#!/bin/sh
# tests/integration/test_completion.sh - the bash completion
# (packaging/bash-completion/boardbench), driven as bash drives it: the
# first word offers every applet of --list; an applet's dashes offer its
# options from its --help (stream --tuned, run --lava, ttcp -u and
# --streams, compare --by); mem offers its modes; run --only offers the
# suite's applets after a comma; --json offers files, --outdir directories.
. tests/integration/lib.sh

if ! command -v bash >/dev/null 2>&1; then
	echo "ok - bash completion # SKIP no bash"
	exit 0
fi

mkdir -p "$TMPD/dir.d"
: >"$TMPD/file.json"

# complete WORD...: the completions of the last word, one per line.
complete_words() {
	bash -c '. packaging/bash-completion/boardbench || exit 1
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_boardbench || exit 1
		[ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"' _ "$@"
}

# has WHAT WANT WORD...: the completions of WORD... include every WANT.
has() {
	what=$1 want=$2
	shift 2
	complete_words "$@" >"$TMPD/got" 2>"$TMPD/err"
	rc=$?
	for w in $want; do
		grep -qx -- "$w" "$TMPD/got" || rc=1
	done
	tap $rc "$what ($(echo $(head -20 "$TMPD/got")))"
	[ $rc -eq 0 ] || sed 's/^/#   /' "$TMPD/err" | head -3
}

bash -n packaging/bash-completion/boardbench
tap $? "the completion file is valid bash"

has "first word: every applet" "$($BB --list | awk '{ print $1 }') --version" "$BB_ABS" ""
has "'st' completes to stream only" "stream" "$BB_ABS" st
[ "$(cat "$TMPD/got")" = stream ]
tap $? "'st' offers that one word"
has "stream -: its options" "--tuned --ntimes -N --json --help" "$BB_ABS" stream -
has "run --l: --lava and --label" "--lava --label" "$BB_ABS" run --l
has "ttcp -: classic and extended options" "-u -t -r -O --streams --accept-timeout" "$BB_ABS" ttcp -
has "compare --: --by and --fail-on-regression" "--by --fail-on-regression" "$BB_ABS" compare --
complete_words "$BB_ABS" compare -- >"$TMPD/got"
! grep -qx -- --label "$TMPD/got"
tap $? "compare is not offered --label, which it does not take"
has "mem: its modes" "tot page sweep" "$BB_ABS" mem ""
has "run --only stream,: the rest of the suite after the comma" "stream,lat stream,ttcp" \
	"$BB_ABS" run --only stream,
has "--json: files" "$TMPD/file.json" "$BB_ABS" stream --json "$TMPD/fi"
has "--outdir: directories" "$TMPD/dir.d" "$BB_ABS" run --outdir "$TMPD/di"
complete_words "$BB_ABS" run --outdir "$TMPD/fi" >"$TMPD/got"
[ ! -s "$TMPD/got" ]
tap $? "--outdir does not offer files"
has "lat --mode: its values" "random sequential" "$BB_ABS" lat --mode ""

# The option reader is an awk program: the same options under every awk
# this machine has (mawk is Debian's default, gawk that of most other
# distributions, BusyBox awk a board's), each put first on PATH.
complete_words "$BB_ABS" ttcp - | sort >"$TMPD/ref"
for a in mawk gawk busybox; do
	if ! command -v $a >/dev/null 2>&1; then
		echo "ok - options under $a # SKIP no $a"
		continue
	fi
	mkdir -p "$TMPD/awk-$a"
	if [ $a = busybox ]; then
		printf '#!/bin/sh\nexec busybox awk "$@"\n' >"$TMPD/awk-$a/awk"
		chmod +x "$TMPD/awk-$a/awk"
	else
		ln -sf "$(command -v $a)" "$TMPD/awk-$a/awk"
	fi
	PATH="$TMPD/awk-$a:$PATH" complete_words "$BB_ABS" ttcp - 2>"$TMPD/err" | sort >"$TMPD/got"
	[ -s "$TMPD/got" ] && [ ! -s "$TMPD/err" ] && cmp -s "$TMPD/ref" "$TMPD/got" &&
		grep -qx -- --streams "$TMPD/got"
	tap $? "ttcp -: the same options under $a ($(wc -l <"$TMPD/got") words)"
	[ -s "$TMPD/err" ] && sed 's/^/#   /' "$TMPD/err" | head -3
	PATH="$TMPD/awk-$a:$PATH" complete_words "$BB_ABS" compare -- >"$TMPD/got" 2>&1
	grep -qx -- --fail-on-regression "$TMPD/got"
	tap $? "compare --: --fail-on-regression under $a"
done
