/* schema.c - the history's schema as migrations (schema.h).  Each
 * migration is SQL text with the engine-dependent words as @TOKEN@
 * (db.h: ID, REAL, BLOB), so SQLite and PostgreSQL hold the same tables
 * and columns.  Migrations are only ever added: a database made by any
 * earlier build is brought forward by the ones it lacks.
 *   1  boards, runs, facts (each distinct key=value once) and the runs
 *      that recorded them, metrics (aux: the twin of another key, the
 *      same samples in another unit, not analysed on its own), samples
 *      (every kept sample as a blob of little-endian doubles, with the
 *      run's figure beside it: its median, or what the run printed)
 *   2  runs.uptime_s (boot.uptime_s); the lab-wide analysis kept:
 *      analysis (what it was computed from) and change_points */
#include "applets/history/schema.h"
#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const migrations[HIST_SCHEMA_VERSION] = {
	/* 1 */
	"CREATE TABLE boards (id @ID@, name TEXT NOT NULL UNIQUE);\n"
	"CREATE TABLE runs (id @ID@, digest TEXT NOT NULL UNIQUE,\n"
	"  board_id BIGINT NOT NULL REFERENCES boards (id), started TEXT NOT NULL,\n"
	"  boot TEXT NOT NULL, source TEXT NOT NULL, added TEXT NOT NULL);\n"
	"CREATE INDEX runs_board_started ON runs (board_id, started);\n"
	"CREATE TABLE facts (id @ID@, key TEXT NOT NULL, value TEXT NOT NULL,\n"
	"  UNIQUE (key, value));\n"
	"CREATE TABLE run_facts (run_id BIGINT NOT NULL REFERENCES runs (id),\n"
	"  fact_id BIGINT NOT NULL REFERENCES facts (id), PRIMARY KEY (run_id, fact_id));\n"
	"CREATE TABLE metrics (id @ID@, key TEXT NOT NULL UNIQUE, applet TEXT NOT NULL,\n"
	"  unit TEXT NOT NULL, disp_unit TEXT NOT NULL, disp_scale @REAL@ NOT NULL,\n"
	"  better INTEGER NOT NULL, aux INTEGER NOT NULL);\n"
	"CREATE TABLE samples (run_id BIGINT NOT NULL REFERENCES runs (id),\n"
	"  metric_id BIGINT NOT NULL REFERENCES metrics (id), n INTEGER NOT NULL,\n"
	"  median @REAL@ NOT NULL, vals @BLOB@ NOT NULL, PRIMARY KEY (run_id, metric_id));\n"
	"CREATE INDEX samples_metric ON samples (metric_id, run_id);\n",
	/* 2 */
	"ALTER TABLE runs ADD COLUMN uptime_s @REAL@;\n"
	"CREATE TABLE analysis (id INTEGER NOT NULL PRIMARY KEY, stamp TEXT NOT NULL,\n"
	"  series BIGINT NOT NULL, tests BIGINT NOT NULL, cutoff @REAL@ NOT NULL);\n"
	"CREATE TABLE change_points (board_id BIGINT NOT NULL REFERENCES boards (id),\n"
	"  metric_id BIGINT NOT NULL REFERENCES metrics (id),\n"
	"  before_run BIGINT NOT NULL REFERENCES runs (id),\n"
	"  after_run BIGINT NOT NULL REFERENCES runs (id),\n"
	"  p @REAL@ NOT NULL, ratio @REAL@ NOT NULL, hl @REAL@, lo @REAL@, hi @REAL@,\n"
	"  mw_p @REAL@, confirmed INTEGER NOT NULL, scope TEXT NOT NULL,\n"
	"  PRIMARY KEY (board_id, metric_id, after_run));\n",
};

char *hist_schema_sql(struct hdb *db, int v)
{
	const char *src = migrations[v - 1];
	size_t cap = strlen(src) * 4 + 1, o = 0;
	char *out = bb_xmalloc(cap);

	for (const char *s = src; *s;) {
		const char *end = *s == '@' ? strchr(s + 1, '@') : NULL;
		if (end) {
			char token[16];
			snprintf(token, sizeof token, "%.*s", (int)(end - s - 1), s + 1);
			const char *t = hdb_type(db, token);
			if (!t)
				bb_die("internal: schema token @%s@", token);
			o += (size_t)snprintf(out + o, cap - o, "%s", t);
			s = end + 1;
		} else {
			out[o++] = *s++;
		}
	}
	out[o] = '\0';
	return out;
}

/* 1 when the table exists (both engines answer this query). */
static int has_version_table(struct hdb *db)
{
	struct hstmt *s = hdb_prepare(db, strcmp(hdb_engine(db), "sqlite") == 0
		? "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
		: "SELECT count(*) FROM information_schema.tables "
		  "WHERE table_schema = current_schema() AND table_name = 'schema_version'");
	int n = 0;

	if (s && hst_step(s) == 1)
		n = (int)hst_col_int(s, 0);
	hst_free(s);
	return n > 0;
}

int hist_schema_version(struct hdb *db)
{
	struct hstmt *s;
	int v = 0;

	if (!has_version_table(db))
		return 0;
	s = hdb_prepare(db, "SELECT max(version) FROM schema_version");
	if (s && hst_step(s) == 1)
		v = (int)hst_col_int(s, 0);
	hst_free(s);
	return v;
}

/* 1 when the database holds tables but no schema_version: not ours. */
static int foreign_tables(struct hdb *db)
{
	struct hstmt *s;
	int n = 0;

	if (strcmp(hdb_engine(db), "sqlite") != 0)
		return 0;   /* a lab's PostgreSQL database may hold other tables */
	s = hdb_prepare(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'");
	if (s && hst_step(s) == 1)
		n = (int)hst_col_int(s, 0);
	hst_free(s);
	return n > 0;
}

static void apply(struct hdb *db, int v)
{
	char *sql = hist_schema_sql(db, v);
	struct hstmt *s;

	hdb_exec(db, sql);
	free(sql);
	s = hdb_prepare(db, "UPDATE schema_version SET version = ?");
	hst_int(s, 1, v);
	hst_step(s);
	hst_free(s);
}

int hist_schema_migrate(struct hdb *db, int to, char *err, size_t errlen)
{
	int v = hist_schema_version(db);

	if (v > HIST_SCHEMA_VERSION) {
		snprintf(err, errlen, "%s: schema version %d, newer than this boardbench knows (%d)",
			 hdb_name(db), v, HIST_SCHEMA_VERSION);
		return 2;
	}
	if (v >= to)
		return 0;
	if (v == 0 && foreign_tables(db)) {
		snprintf(err, errlen, "%s: an SQLite database, but not a boardbench history "
			 "(it has tables and no schema_version)", hdb_name(db));
		return 2;
	}
	hdb_begin(db, 1);
	hdb_lock(db);
	hdb_exec(db, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
	v = hist_schema_version(db);         /* another program may have been first */
	if (v == 0) {
		hdb_exec(db, "INSERT INTO schema_version (version) VALUES (0)");
	}
	for (v = v + 1; v <= to; v++)
		apply(db, v);
	hdb_commit(db);
	return 0;
}
