/* schema.h - the history's tables and their migrations (schema.c; the
 * tables are described in docs/history.md).  A database records the
 * version of its schema in schema_version; opening one brings it up to
 * this build's version, one migration at a time in one transaction, under
 * the lab-wide lock, so two programs opening an old database together
 * migrate it once.  A database of a newer version is refused. */
#ifndef BB_HISTORY_SCHEMA_H
#define BB_HISTORY_SCHEMA_H

#include "applets/history/db.h"

#define HIST_SCHEMA_VERSION 2

/* The database's version (0: no schema yet). */
int hist_schema_version(struct hdb *db);

/* Migrates to version `to` (HIST_SCHEMA_VERSION in the applet; less in
 * the tests).  Returns 0, or 2 with err for a database this build cannot
 * use (a newer schema, not a history). */
int hist_schema_migrate(struct hdb *db, int to, char *err, size_t errlen);

/* The SQL of migration v with the engine's types in place (free it). */
char *hist_schema_sql(struct hdb *db, int v);

#endif
