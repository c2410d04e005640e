/* db.c - the engine-neutral half of the history's database (db.h): which
 * engine a spec names, errors, and the calls that forward to the engine. */
#include "applets/history/db.h"
#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_url(const char *spec)
{
	return strncmp(spec, "postgresql://", 13) == 0 || strncmp(spec, "postgres://", 11) == 0;
}

/* The URL with any password as "***". */
static char *hidden_name(const char *spec)
{
	char *s = bb_xstrdup(spec);
	char *at = strchr(s, '@'), *colon;
	const char *start = strstr(s, "://");

	if (!is_url(spec) || !at || !start)
		return s;
	colon = strchr(start + 3, ':');
	if (!colon || colon > at)
		return s;
	char *out = bb_xmalloc(strlen(s) + 4);
	snprintf(out, strlen(s) + 4, "%.*s:***%s", (int)(colon - s), s, at);
	free(s);
	return out;
}

int hdb_open(const char *spec, enum hdb_mode mode, struct hdb **out, char *err, size_t errlen)
{
	struct hdb *db = bb_xcalloc(1, sizeof *db);
	int rc;

	db->name = hidden_name(spec);
	rc = is_url(spec) ? hdb_pg_open(spec, db, err, errlen)
			  : hdb_sqlite_open(spec, mode, db, err, errlen);
	if (rc) {
		free(db->name);
		free(db);
		*out = NULL;
		return rc;
	}
	*out = db;
	return 0;
}

void hdb_close(struct hdb *db)
{
	if (!db)
		return;
	db->ops->close(db);
	free(db->name);
	free(db);
}

const char *hdb_engine(const struct hdb *db) { return db->ops->engine; }
const char *hdb_name(const struct hdb *db) { return db->name; }
const char *hdb_type(const struct hdb *db, const char *token) { return db->ops->type(token); }
void hdb_soft(struct hdb *db, int on) { db->soft = on; db->failed = 0; }
int hdb_failed(const struct hdb *db) { return db->failed; }

int hdb_error(struct hdb *db, const char *what, const char *msg)
{
	if (!db->soft)
		bb_die("%s: %s: %s", db->name, what, msg);
	db->failed = 1;
	return -1;
}

int hdb_exec(struct hdb *db, const char *sql) { return db->ops->exec(db, sql); }
int hdb_begin(struct hdb *db, int write) { return db->ops->begin(db, write); }
int hdb_commit(struct hdb *db) { return db->ops->exec(db, "COMMIT"); }
int hdb_lock(struct hdb *db) { return db->ops->lock(db); }

void hdb_rollback(struct hdb *db)
{
	int soft = db->soft, failed = db->failed;

	db->soft = 1;             /* nothing to roll back is not an error */
	db->ops->exec(db, "ROLLBACK");
	db->soft = soft;
	db->failed = failed;
}

struct hstmt *hdb_prepare(struct hdb *db, const char *sql) { return db->ops->prepare(db, sql); }

void hst_int(struct hstmt *s, int i, long long v)
{
	s->db->ops->bind(s, i, HDB_T_INT, v, 0, NULL, 0);
}

void hst_double(struct hstmt *s, int i, double v)
{
	s->db->ops->bind(s, i, HDB_T_DOUBLE, 0, v, NULL, 0);
}

void hst_text(struct hstmt *s, int i, const char *v)
{
	s->db->ops->bind(s, i, v ? HDB_T_TEXT : HDB_T_NULL, 0, 0, v, v ? strlen(v) : 0);
}

void hst_blob(struct hstmt *s, int i, const void *v, size_t n)
{
	s->db->ops->bind(s, i, HDB_T_BLOB, 0, 0, v, n);
}

int hst_step(struct hstmt *s) { return s->db->ops->step(s); }
long long hst_col_int(struct hstmt *s, int col) { return s->db->ops->col_int(s, col); }
double hst_col_double(struct hstmt *s, int col) { return s->db->ops->col_double(s, col); }
const char *hst_col_text(struct hstmt *s, int col) { return s->db->ops->col_text(s, col); }
int hst_col_null(struct hstmt *s, int col) { return !s->db->ops->col_type(s, col); }

const void *hst_col_blob(struct hstmt *s, int col, size_t *n)
{
	return s->db->ops->col_blob(s, col, n);
}

void hst_reset(struct hstmt *s) { s->db->ops->reset(s); }

void hst_free(struct hstmt *s)
{
	if (s)
		s->db->ops->free_stmt(s);
}
