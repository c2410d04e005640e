#!/bin/sh
# scripts/pg-test-db.sh - a PostgreSQL database for the history tests
# (tests/integration/test_history_pg.sh), on this machine's Debian cluster:
# starts it (pg_ctlcluster; pg_createcluster first when the machine has
# none), makes the role and an empty database, and prints the URL to give
# as BB_PG_URL.  Run as root; needs Debian's postgresql package.
#   BB_PG_URL=$(sh scripts/pg-test-db.sh) make check
set -eu
db=${BB_PG_DB:-boardbench_test}
role=${BB_PG_ROLE:-boardbench}
pass=${BB_PG_PASSWORD:-boardbench}
ver=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)
[ -n "$ver" ] || { echo "$0: no PostgreSQL server here (apt-get install postgresql)" >&2; exit 1; }
if ! pg_lsclusters -h | awk -v v="$ver" '$1 == v && $2 == "main"' | grep -q .; then
	pg_createcluster "$ver" main >/dev/null
fi
pg_ctlcluster "$ver" main start >/dev/null 2>&1 || pg_ctlcluster "$ver" main status >/dev/null
port=$(pg_lsclusters -h | awk -v v="$ver" '$1 == v && $2 == "main" { print $3 }')
sql() { su postgres -c "psql -q -X -v ON_ERROR_STOP=1 -p $port -c \"$1\"" >/dev/null 2>&1; }
sql "DROP DATABASE IF EXISTS $db"
sql "DROP ROLE IF EXISTS $role"
sql "CREATE ROLE $role LOGIN PASSWORD '$pass'"
sql "CREATE DATABASE $db OWNER $role"
echo "postgresql://$role:$pass@127.0.0.1:$port/$db"
