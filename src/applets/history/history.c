/* history.c - the `history` applet: a lab's results in one database
 * (SQLite by default, PostgreSQL for a shared lab), the change points of
 * every metric on every board, the causes beside them, a trend page and a
 * `git bisect run` script (docs/history.md).  This file opens the
 * database and hands the verb to its part: ingest.c (add), verbs.c
 * (list, show, changes), trend.c (report), bisect.c (bisect-script);
 * series.c reads the lab back and finds the change points. */
#include "applets/history/history.h"
#include "applets/history/schema.h"
#include "core/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The default file's directory (results/) is made as `run` makes it. */
static void make_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];

	if (!slash || slash == path || strstr(path, "://"))
		return;
	snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		bb_die("%s: cannot make the directory: %s", dir, strerror(errno));
}

struct hdb *hist_open(const struct hist_opts *o, enum hdb_mode mode)
{
	struct hdb *db;
	char err[768];
	int rc;

	if (mode == HDB_WRITE)
		make_parent(o->db);
	rc = hdb_open(o->db, mode, &db, err, sizeof err);
	if (rc == 2)
		bb_die_usage("%s", err);
	if (rc)
		bb_die("%s", err);
	rc = hist_schema_migrate(db, HIST_SCHEMA_VERSION, err, sizeof err);
	if (rc) {
		hdb_close(db);
		bb_die_usage("%s", err);
	}
	return db;
}

int history_main(int argc, char **argv)
{
	struct hist_opts o;
	struct hdb *db;
	int rc;

	hist_parse(argc, argv, &o);
	db = hist_open(&o, strcmp(o.verb, "add") == 0 ? HDB_WRITE : HDB_READ);
	if (!strcmp(o.verb, "add"))
		rc = hist_add(db, &o);
	else if (!strcmp(o.verb, "list"))
		rc = hist_list(db, &o);
	else if (!strcmp(o.verb, "show"))
		rc = hist_show(db, &o);
	else if (!strcmp(o.verb, "changes"))
		rc = hist_changes(db, &o);
	else if (!strcmp(o.verb, "report")) /* the word, not the applet */
		rc = hist_report(db, &o);
	else
		rc = hist_bisect(db, &o);
	hdb_close(db);
	return rc;
}
