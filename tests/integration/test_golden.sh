#!/bin/sh
# tests/integration/test_golden.sh - what boardbench shows a user is what
# tests/golden/ holds, byte for byte (scripts/golden.sh -q: --list, the
# --version fields, every --help, compare and report on known results
# files).  A change that means to change one of them records the set
# again with `make golden` and shows the difference in its commit.
. tests/integration/lib.sh

if $BB compare "$TMPD/x.json" "$TMPD/y.json" 2>&1 | grep -q "built without cJSON"; then
	tap 0 "golden set # SKIP built without cJSON"
	exit 0
fi
BB=$BB sh scripts/golden.sh -q "$TMPD/g" >"$TMPD/g.out" 2>&1
tap $? "scripts/golden.sh -q records the set"
for f in $(cd tests/golden && find . -type f | sort); do
	cmp -s "tests/golden/$f" "$TMPD/g/$f"
	rc=$?
	tap $rc "${f#./} is as recorded"
	[ $rc -eq 0 ] || diff "tests/golden/$f" "$TMPD/g/$f" 2>&1 | head -8 | sed 's/^/#   /'
done
top=$PWD
extra=$(cd "$TMPD/g" && find . -type f | sort | while read -r f; do
	[ -f "$top/tests/golden/$f" ] || echo "$f"; done)
[ -z "$extra" ]
tap $? "nothing recorded that tests/golden/ lacks ($extra)"
