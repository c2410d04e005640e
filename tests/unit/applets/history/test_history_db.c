/* test_history_db.c - unit tests for the history's storage
 * (src/applets/history/db*.c, schema.c, ingest.c): migrations one version
 * at a time with the rows kept, a newer schema refused, values of every
 * type and NULL through the interface, a rolled-back transaction leaves
 * nothing, a file that is not a database refused, and `add` storing a run
 * once however often it is given.  Each test runs on an SQLite file and,
 * when BB_PG_URL names a PostgreSQL database (scripts/pg-test-db.sh), on
 * a schema of its own there too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "applets/history/db.h"
#include "applets/history/history.h"
#include "applets/history/schema.h"

static char dir[] = "/tmp/bb-histdb-XXXXXX";

/* A fresh database of each engine in turn: SQLite, then PostgreSQL. */
static struct hdb *fresh(int engine, const char *name)
{
	char path[256], err[512];
	struct hdb *db = NULL;
	const char *url = getenv("BB_PG_URL");

	if (engine == 0) {
		snprintf(path, sizeof path, "%s/%s.sqlite", dir, name);
		unlink(path);
		assert_int_equal(hdb_open(path, HDB_WRITE, &db, err, sizeof err), 0);
		return db;
	}
	if (!url || !*url)
		return NULL;
	if (hdb_open(url, HDB_WRITE, &db, err, sizeof err))
		fail_msg("BB_PG_URL: %s", err);
	snprintf(path, sizeof path, "DROP SCHEMA IF EXISTS bbunit_%s CASCADE; CREATE SCHEMA "
		 "bbunit_%s; SET search_path = bbunit_%s", name, name, name);
	assert_int_equal(hdb_exec(db, path), 0);
	return db;
}

static long long one_int(struct hdb *db, const char *sql)
{
	struct hstmt *s = hdb_prepare(db, sql);
	long long v = -1;

	if (hst_step(s) == 1)
		v = hst_col_int(s, 0);
	hst_free(s);
	return v;
}

static void test_migrations(void **state)
{
	char err[512];
	(void)state;

	for (int e = 0; e < 2; e++) {
		struct hdb *db = fresh(e, "migrate");
		if (!db)
			continue;
		assert_int_equal(hist_schema_version(db), 0);
		assert_int_equal(hist_schema_migrate(db, 1, err, sizeof err), 0);
		assert_int_equal(hist_schema_version(db), 1);
		hdb_exec(db, "INSERT INTO boards (name) VALUES ('b1')");
		hdb_exec(db, "INSERT INTO runs (digest, board_id, started, boot, source, added) "
			     "VALUES ('d1', 1, '2026-01-01T00:00:00Z', '', 'f', 'now')");
		assert_int_equal(hist_schema_migrate(db, HIST_SCHEMA_VERSION, err, sizeof err), 0);
		assert_int_equal(hist_schema_version(db), 2);
		assert_int_equal(one_int(db, "SELECT count(*) FROM runs WHERE uptime_s IS NULL"), 1);
		assert_int_equal(one_int(db, "SELECT count(*) FROM change_points"), 0);
		/* again: nothing to do */
		assert_int_equal(hist_schema_migrate(db, HIST_SCHEMA_VERSION, err, sizeof err), 0);
		hdb_exec(db, "UPDATE schema_version SET version = 99");
		assert_int_equal(hist_schema_migrate(db, HIST_SCHEMA_VERSION, err, sizeof err), 2);
		assert_non_null(strstr(err, "newer than this boardbench"));
		hdb_close(db);
	}
}

static void test_values(void **state)
{
	char err[512];
	const double v[3] = { 1.5, -0.25, 1e-300 };
	(void)state;

	for (int e = 0; e < 2; e++) {
		struct hdb *db = fresh(e, "values");
		if (!db)
			continue;
		assert_int_equal(hist_schema_migrate(db, HIST_SCHEMA_VERSION, err, sizeof err), 0);
		struct hstmt *s = hdb_prepare(db, "INSERT INTO facts (key, value) VALUES (?, ?)");
		hst_text(s, 1, "label.q");
		hst_text(s, 2, "it's \"quoted\" ? and ?");
		assert_int_equal(hst_step(s), 0);
		hst_free(s);
		hdb_exec(db, "INSERT INTO boards (name) VALUES ('b')");
		hdb_exec(db, "INSERT INTO runs (digest, board_id, started, boot, source, added) "
			     "VALUES ('d', 1, 't', '', 'f', 'now')");
		hdb_exec(db, "INSERT INTO metrics (key, applet, unit, disp_unit, disp_scale, better, aux) "
			     "VALUES ('m', 'a', 's', 'ms', 1000, -1, 0)");
		s = hdb_prepare(db, "INSERT INTO samples (run_id, metric_id, n, median, vals) "
				"VALUES (?, ?, ?, ?, ?)");
		hst_int(s, 1, 1);
		hst_int(s, 2, 1);
		hst_int(s, 3, 3);
		hst_double(s, 4, 0.1 + 0.2);
		hst_blob(s, 5, v, sizeof v);
		assert_int_equal(hst_step(s), 0);
		hst_free(s);
		s = hdb_prepare(db, "SELECT f.value, s.median, s.vals, r.uptime_s FROM facts f, samples s, "
				"runs r WHERE f.key = ? AND r.id = s.run_id");
		hst_text(s, 1, "label.q");
		assert_int_equal(hst_step(s), 1);
		assert_string_equal(hst_col_text(s, 0), "it's \"quoted\" ? and ?");
		assert_true(hst_col_double(s, 1) == 0.1 + 0.2);      /* every bit */
		size_t n;
		const void *b = hst_col_blob(s, 2, &n);
		assert_int_equal(n, sizeof v);
		assert_memory_equal(b, v, sizeof v);
		assert_true(hst_col_null(s, 3) && isnan(hst_col_double(s, 3)));
		assert_int_equal(hst_step(s), 0);
		hst_free(s);
		/* a rolled-back transaction leaves nothing */
		hdb_begin(db, 1);
		hdb_exec(db, "INSERT INTO boards (name) VALUES ('gone')");
		hdb_rollback(db);
		assert_int_equal(one_int(db, "SELECT count(*) FROM boards"), 1);
		/* soft mode: an error is a return value */
		hdb_soft(db, 1);
		assert_int_equal(hdb_exec(db, "INSERT INTO boards (name) VALUES ('b')"), -1);
		assert_true(hdb_failed(db));
		hdb_soft(db, 0);
		hdb_close(db);
	}
}

static void test_not_a_database(void **state)
{
	char path[256], err[512];
	struct hdb *db;
	FILE *f;
	(void)state;

	snprintf(path, sizeof path, "%s/text.sqlite", dir);
	f = fopen(path, "w");
	fputs("this is not a database, it is a long enough line of text\n", f);
	fclose(f);
	assert_int_equal(hdb_open(path, HDB_WRITE, &db, err, sizeof err), 2);
	assert_non_null(strstr(err, "not an SQLite database"));
	snprintf(path, sizeof path, "%s/missing.sqlite", dir);
	assert_int_equal(hdb_open(path, HDB_READ, &db, err, sizeof err), 2);
	assert_int_equal(hdb_open(dir, HDB_WRITE, &db, err, sizeof err), 2);   /* a directory */
	assert_int_equal(hdb_open("postgresql://nobody@127.0.0.1:1/none", HDB_READ, &db, err,
				  sizeof err), 1);
	assert_null(strstr(err, "\n"));
}

static void write_run(const char *path, const char *started, double t)
{
	FILE *f = fopen(path, "w");

	fprintf(f, "{\"schema\": \"boardbench-results\", \"schema_version\": 1, "
		   "\"tool\": {\"name\": \"boardbench\", \"version\": \"0.1.0\"}, \"command\": [\"run\"], "
		   "\"started_utc\": \"%s\", \"labels\": {}, \"system\": {\"hostname\": \"h\"}, "
		   "\"results\": [{\"applet\": \"stream\", \"status\": \"ok\", \"message\": \"\", "
		   "\"params\": {}, \"series\": [{\"name\": \"Triad\", \"variant\": \"c\", \"unit\": \"s\", "
		   "\"work\": 1000, \"work_unit\": \"bytes\", \"discard\": 0, "
		   "\"samples\": [%g, %g, %g]}]}]}\n", started, t, t * 1.01, t * 0.99);
	fclose(f);
}

static void test_add_once(void **state)
{
	char a[256], b[256], bad[256];
	char *paths[3] = { a, b, bad };
	struct hist_opts o;
	(void)state;

	snprintf(a, sizeof a, "%s/a.json", dir);
	snprintf(b, sizeof b, "%s/b.json", dir);
	snprintf(bad, sizeof bad, "%s/bad.json", dir);
	write_run(a, "2026-01-01T00:00:00Z", 0.01);
	write_run(b, "2026-01-02T00:00:00Z", 0.01);
	FILE *f = fopen(bad, "w");
	fputs("{\"schema\": \"boardbench-results\"}", f);
	fclose(f);
	for (int e = 0; e < 2; e++) {
		char err[512];
		struct hdb *db = fresh(e, "add");
		if (!db)
			continue;
		assert_int_equal(hist_schema_migrate(db, HIST_SCHEMA_VERSION, err, sizeof err), 0);
		memset(&o, 0, sizeof o);
		o.paths = paths;
		o.npaths = 2;
		assert_int_equal(hist_add(db, &o), 0);
		assert_int_equal(one_int(db, "SELECT count(*) FROM runs"), 2);
		o.npaths = 3;             /* both again, and a bad file */
		assert_int_equal(hist_add(db, &o), 2);
		assert_int_equal(one_int(db, "SELECT count(*) FROM runs"), 2);
		assert_int_equal(one_int(db, "SELECT count(*) FROM samples"), 2);
		assert_int_equal(one_int(db, "SELECT count(*) FROM boards"), 1);
		hdb_close(db);
	}
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];
	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_migrations),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_not_a_database),
		cmocka_unit_test(test_add_once),
	};
	if (!getenv("BB_PG_URL"))
		printf("# PostgreSQL: not tested here (BB_PG_URL unset; scripts/pg-test-db.sh makes one)\n");
	return cmocka_run_group_tests(tests, setup, teardown);
}
