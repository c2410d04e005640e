#!/bin/sh
# tests/integration/test_history_pg.sh - the checks of history_body.sh
# against a PostgreSQL server: BB_PG_URL names a database this test may
# fill (scripts/pg-test-db.sh makes one on Debian's cluster, as .ci/run
# does).  Each scenario gets a schema of its own (the URL's search_path),
# dropped again at the end.  Without BB_PG_URL, or in a build without
# libpq, the test says it did not run and why.
. tests/integration/lib.sh
. tests/integration/history_fixture.sh
. tests/integration/history_body.sh

if [ -z "${BB_PG_URL:-}" ]; then
	tap 0 "history on PostgreSQL # SKIP no server: BB_PG_URL=\$(sh scripts/pg-test-db.sh) names one"
	exit 0
fi
out=$("$BB" history list --db "$BB_PG_URL" 2>&1)
case $out in
*"without libpq"* | *"without SQLite"* | *"without cJSON"*)
	tap 0 "history on PostgreSQL # SKIP $out"
	exit 0 ;;
esac
if ! command -v psql >/dev/null || ! command -v jq >/dev/null; then
	tap 1 "history on PostgreSQL: psql (postgresql-client) and jq are needed"
	exit 1
fi
tap "$(psql "$BB_PG_URL" -Xqc 'SELECT 1' >/dev/null 2>&1 && echo 0 || echo 1)" \
	"the server at BB_PG_URL answers"

SCHEMAS=
PG_SEP='?'
case $BB_PG_URL in *\?*) PG_SEP='&' ;; esac
newdb() {
	_s=bbtest_$$_$(echo "$1" | tr -c 'a-z0-9\n' '_')
	psql "$BB_PG_URL" -Xq -v ON_ERROR_STOP=1 -c "DROP SCHEMA IF EXISTS $_s CASCADE" \
		-c "CREATE SCHEMA $_s" >/dev/null 2>&1
	SCHEMAS="$SCHEMAS $_s"
	echo "$BB_PG_URL${PG_SEP}options=-csearch_path%3D$_s"
}
cleanup() {
	for _s in $(echo "$SCHEMAS" | tr ' ' '\n' | sort -u); do
		psql "$BB_PG_URL" -Xqc "DROP SCHEMA IF EXISTS $_s CASCADE" >/dev/null 2>&1
	done
	rm -rf "$TMPD"
}
trap cleanup EXIT

hist_suite

D=$(newdb tables)
"$BB" history add "$D" "$F/step/b1-r001.json" >/dev/null
s=$(echo "$D" | sed 's/.*search_path%3D//')
tables=$(psql "$BB_PG_URL" -XtAc "SELECT string_agg(table_name, ' ' ORDER BY table_name) FROM
	information_schema.tables WHERE table_schema = '$s'")
tap "$([ "$tables" = "analysis boards change_points facts metrics run_facts runs samples schema_version" ] &&
	echo 0 || echo 1)" "PostgreSQL holds the same tables ($tables)"
