/* db_nopg.c - the PostgreSQL engine in a build without libpq (libpq-dev):
 * a postgresql:// database is refused in one line that says so. */
#include "applets/history/db.h"

#include <stdio.h>

int hdb_pg_open(const char *url, struct hdb *db, char *err, size_t errlen)
{
	(void)url;
	snprintf(err, errlen, "%s: this binary was built without libpq (libpq-dev), so it "
		 "cannot reach PostgreSQL; use an SQLite file, or build on a host with libpq",
		 db->name);
	return 2;
}
