#!/bin/sh
# tests/integration/test_history.sh - `boardbench history` on SQLite files
# (the checks are in history_body.sh; test_history_pg.sh runs them on a
# PostgreSQL server), plus what only SQLite has: the schema as the sqlite3
# shell shows it, a file that is not a database, a database made by a
# newer boardbench.
. tests/integration/lib.sh
. tests/integration/history_fixture.sh
. tests/integration/history_body.sh

if ! "$BB" history list "$TMPD/probe.sqlite" 2>&1 | grep -q 'No such file'; then
	tap 0 "history # SKIP $("$BB" history list "$TMPD/probe.sqlite" 2>&1 | head -1)"
	exit 0
fi
if ! command -v jq >/dev/null; then
	tap 1 "history: jq is needed for these tests"
	exit 1
fi

newdb() { echo "$TMPD/$1.sqlite"; }

hist_suite

D=$(newdb step)
if command -v sqlite3 >/dev/null; then
	sqlite3 "$D" .tables >"$TMPD/tables"
	tap "$(for t in analysis boards change_points facts metrics run_facts runs samples schema_version; do
		grep -qw "$t" "$TMPD/tables" || echo 1; done | grep -q 1 && echo 1 || echo 0)" \
		"sqlite3 .tables shows the schema ($(tr -s ' \n' ' ' <"$TMPD/tables"))"
	tap "$([ "$(sqlite3 "$D" 'PRAGMA journal_mode')" = wal ] && echo 0 || echo 1)" "the file is in WAL mode"
	tap "$([ "$(sqlite3 "$D" 'SELECT version FROM schema_version')" = 2 ] && echo 0 || echo 1)" \
		"schema version 2"
	tap "$([ "$(sqlite3 "$D" 'SELECT count(*) FROM samples')" = 120 ] && echo 0 || echo 1)" \
		"samples kept: 4 metrics x 30 runs"
	cp "$D" "$TMPD/newer.sqlite"
	sqlite3 "$TMPD/newer.sqlite" 'UPDATE schema_version SET version = 99'
	expect_exit 2 "a database of a newer schema is refused" -- "$BB" history list "$TMPD/newer.sqlite"
	expect_grep "newer than this boardbench" "$TMPD/err" "and says so"
	sqlite3 "$TMPD/other.sqlite" 'CREATE TABLE t (x)'
	expect_exit 2 "an SQLite file that is not a history" -- "$BB" history list "$TMPD/other.sqlite"
else
	tap 1 "sqlite3 (Debian's sqlite3 package) is needed to check the schema"
fi
expect_exit 2 "a file that is not a database" -- "$BB" history list "$F/step/b1-r001.json"
expect_exit 2 "list of a database that is not there" -- "$BB" history list "$TMPD/none.sqlite"
expect_exit 2 "a postgresql:// URL with nothing there" -- sh -c \
	"'$BB' history list --db postgresql://nobody@127.0.0.1:1/x; [ \$? -ne 0 ] && exit 2"
