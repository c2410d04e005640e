/* db_sqlite.c - the history's SQLite engine (db.h): one file, WAL journal
 * (readers never wait for a writer), synchronous=NORMAL (a commit survives
 * a crash of the program; a power cut may lose the last ones, never
 * corrupt the file), a 30 s busy timeout so concurrent writers queue, and
 * BEGIN IMMEDIATE for writes so that two of them never deadlock on the
 * upgrade from reading to writing. */
#include "applets/history/db.h"
#include "core/error.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define BUSY_MS 30000

struct sq_stmt {
	struct hstmt base;
	sqlite3_stmt *st;
};

static sqlite3 *conn(struct hdb *db) { return db->conn; }

static const char *sq_type(const char *token)
{
	if (strcmp(token, "ID") == 0)
		return "INTEGER PRIMARY KEY";
	if (strcmp(token, "REAL") == 0)
		return "REAL";
	if (strcmp(token, "BLOB") == 0)
		return "BLOB";
	return NULL;
}

static int sq_exec(struct hdb *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(conn(db), sql, NULL, NULL, &msg) != SQLITE_OK) {
		char line[512];
		snprintf(line, sizeof line, "%s", msg ? msg : sqlite3_errmsg(conn(db)));
		sqlite3_free(msg);
		return hdb_error(db, "SQLite", line);
	}
	return 0;
}

static int sq_begin(struct hdb *db, int write)
{
	return sq_exec(db, write ? "BEGIN IMMEDIATE" : "BEGIN");
}

static int sq_lock(struct hdb *db)
{
	(void)db;
	return 0;
}

static struct hstmt *sq_prepare(struct hdb *db, const char *sql)
{
	struct sq_stmt *s = bb_xcalloc(1, sizeof *s);

	s->base.db = db;
	if (sqlite3_prepare_v2(conn(db), sql, -1, &s->st, NULL) != SQLITE_OK) {
		hdb_error(db, "SQLite", sqlite3_errmsg(conn(db)));
		free(s);
		return NULL;
	}
	return &s->base;
}

static void sq_bind(struct hstmt *h, int i, int type, long long iv, double dv, const void *p,
		    size_t n)
{
	sqlite3_stmt *st = ((struct sq_stmt *)h)->st;

	switch (type) {
	case HDB_T_NULL: sqlite3_bind_null(st, i); break;
	case HDB_T_INT: sqlite3_bind_int64(st, i, iv); break;
	case HDB_T_DOUBLE: sqlite3_bind_double(st, i, dv); break;
	case HDB_T_TEXT: sqlite3_bind_text(st, i, p, (int)n, SQLITE_TRANSIENT); break;
	default: sqlite3_bind_blob(st, i, n ? p : "", (int)n, SQLITE_TRANSIENT); break;
	}
}

static int sq_step(struct hstmt *h)
{
	int rc = sqlite3_step(((struct sq_stmt *)h)->st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return hdb_error(h->db, "SQLite", sqlite3_errmsg(conn(h->db)));
}

static sqlite3_stmt *st_of(struct hstmt *h) { return ((struct sq_stmt *)h)->st; }

static int sq_col_type(struct hstmt *h, int c)
{
	return sqlite3_column_type(st_of(h), c) != SQLITE_NULL;
}

static long long sq_col_int(struct hstmt *h, int c) { return sqlite3_column_int64(st_of(h), c); }

static double sq_col_double(struct hstmt *h, int c)
{
	return sq_col_type(h, c) ? sqlite3_column_double(st_of(h), c) : NAN;
}

static const char *sq_col_text(struct hstmt *h, int c)
{
	const unsigned char *t = sqlite3_column_text(st_of(h), c);
	return t ? (const char *)t : "";
}

static const void *sq_col_blob(struct hstmt *h, int c, size_t *n)
{
	const void *p = sqlite3_column_blob(st_of(h), c);
	*n = (size_t)sqlite3_column_bytes(st_of(h), c);
	return p;
}

static void sq_reset(struct hstmt *h)
{
	sqlite3_reset(st_of(h));
	sqlite3_clear_bindings(st_of(h));
}

static void sq_free(struct hstmt *h)
{
	sqlite3_finalize(st_of(h));
	free(h);
}

static void sq_close(struct hdb *db)
{
	sqlite3_close(conn(db));
}

static const struct hdb_ops sqlite_ops = {
	"sqlite", sq_type, sq_exec, sq_begin, sq_lock, sq_prepare, sq_bind, sq_step, sq_col_type,
	sq_col_int, sq_col_double, sq_col_text, sq_col_blob, sq_reset, sq_free, sq_close,
};

/* Only regular files (or a name to create): a FIFO or device is refused
 * before SQLite opens it. */
static int check_path(const char *path, enum hdb_mode mode, char *err, size_t errlen)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		if (errno == ENOENT && mode == HDB_WRITE)
			return 0;
		snprintf(err, errlen, "%s: %s%s", path, strerror(errno),
			 errno == ENOENT ? " ('history add' makes a new database)" : "");
		return 2;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return 2;
	}
	return 0;
}

int hdb_sqlite_open(const char *path, enum hdb_mode mode, struct hdb *db, char *err,
		    size_t errlen)
{
	sqlite3 *c = NULL;
	int rc = check_path(path, mode, err, errlen);
	int flags = SQLITE_OPEN_READWRITE | (mode == HDB_WRITE ? SQLITE_OPEN_CREATE : 0);

	if (rc)
		return rc;
	if (sqlite3_open_v2(path, &c, flags, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, c ? sqlite3_errmsg(c) : "out of memory");
		sqlite3_close(c);
		return 1;
	}
	sqlite3_busy_timeout(c, BUSY_MS);
	db->ops = &sqlite_ops;
	db->conn = c;
	db->soft = 1;
	/* The first read tells a database from any other file. */
	if (sq_exec(db, "SELECT count(*) FROM sqlite_master") != 0) {
		int notadb = sqlite3_errcode(c) == SQLITE_NOTADB;
		snprintf(err, errlen, notadb ? "%s: not an SQLite database (%s)"
			 : "%s: cannot read it: %s (a database in WAL mode needs its directory "
			   "writable)", path, sqlite3_errmsg(c));
		sqlite3_close(c);
		return notadb ? 2 : 1;
	}
	/* A file this user may only read is read as it is (no WAL switch). */
	sq_exec(db, "PRAGMA journal_mode=WAL");
	sq_exec(db, "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON");
	db->soft = 0;
	db->failed = 0;
	return 0;
}
