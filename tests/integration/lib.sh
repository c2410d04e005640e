# tests/integration/lib.sh - TAP helpers for integration tests that run the
# built binary.  Source it, then call the checks; each prints "ok N - what"
# or "not ok N - what" (tests/run.sh counts them).  $BB is the binary.
: "${BB:=./boardbench}"
case $BB in */*) ;; *) BB=./$BB ;; esac   # a bare name would be searched in PATH
TAP_N=0
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT

tap() {  # status(0=pass) description
	TAP_N=$((TAP_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $TAP_N - $2"
	else
		echo "not ok $TAP_N - $2"
	fi
}

# expect_exit CODE DESCRIPTION -- command...   (stdout/stderr kept in $TMPD/out, $TMPD/err)
expect_exit() {
	want=$1; what=$2; shift 3
	"$@" >"$TMPD/out" 2>"$TMPD/err"
	got=$?
	if [ "$got" -eq "$want" ]; then
		tap 0 "$what"
	else
		tap 1 "$what (exit $got, wanted $want)"
		sed 's/^/#   /' "$TMPD/err" | head -5
	fi
}

# expect_grep PATTERN FILE DESCRIPTION
expect_grep() {
	if grep -q -- "$1" "$2"; then tap 0 "$3"; else tap 1 "$3 (no '$1' in $2)"; fi
}

# wait_for REGEX FILE [SECONDS]: until a line of FILE matches (default at
# most 20 s): tests wait for an event, never for a guessed time.
wait_for() {
	_i=0
	_n=$((${3:-20} * 10))
	while [ $_i -lt $_n ]; do
		grep -q -- "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
