/* db.h - the history's database, one interface over two engines: an
 * SQLite file (the default; WAL, so readers never wait for a writer and
 * writers queue on a busy timeout) and a PostgreSQL server given as
 * postgresql://... or postgres://... (libpq).  Statements are written once
 * with ? placeholders; the few words where the dialects differ are tokens
 * in the schema text (schema.c).  Any engine error ends the program with
 * one line naming the database (exit 1) unless the handle is in soft mode,
 * where the call returns -1 and hdb_failed() says so.  Numbers travel as
 * 64-bit integers and doubles, text as UTF-8, sample arrays as blobs of
 * IEEE-754 little-endian doubles. */
#ifndef BB_HISTORY_DB_H
#define BB_HISTORY_DB_H

#include <stddef.h>

struct hdb;
struct hstmt;

enum hdb_mode { HDB_READ, HDB_WRITE };

/* Opens spec (a file, or a postgresql:// URL).  HDB_READ refuses a file
 * that does not exist.  Returns 0, or 2 (not a database, no such file,
 * an engine this build lacks) or 1 (a resource failure) with err. */
int hdb_open(const char *spec, enum hdb_mode mode, struct hdb **db, char *err, size_t errlen);
void hdb_close(struct hdb *db);

const char *hdb_engine(const struct hdb *db);    /* "sqlite" or "postgresql" */
const char *hdb_name(const struct hdb *db);      /* the spec, password hidden */

/* The engine's spelling of a schema token: "ID" (an integer key the engine
 * numbers), "REAL" (a double), "BLOB"; NULL for an unknown token. */
const char *hdb_type(const struct hdb *db, const char *token);

/* Soft mode: errors return -1 and set the failed flag instead of exiting. */
void hdb_soft(struct hdb *db, int on);
int hdb_failed(const struct hdb *db);

/* Runs SQL text without parameters (several statements for SQLite, one
 * for PostgreSQL unless it has no parameters either: both are fine). */
int hdb_exec(struct hdb *db, const char *sql);

/* A write transaction (SQLite: BEGIN IMMEDIATE, so that two writers
 * queue instead of failing on an upgrade), a read one, the end of either. */
int hdb_begin(struct hdb *db, int write);
int hdb_commit(struct hdb *db);
void hdb_rollback(struct hdb *db);

/* Takes the lab-wide lock that migrations and writers hold for their
 * transaction (PostgreSQL: an advisory lock, so that writers queue rather
 * than deadlock on each other's new rows; SQLite: the write transaction is
 * the lock already). */
int hdb_lock(struct hdb *db);

struct hstmt *hdb_prepare(struct hdb *db, const char *sql);
void hst_int(struct hstmt *s, int i, long long v);       /* parameters from 1 */
void hst_double(struct hstmt *s, int i, double v);
void hst_text(struct hstmt *s, int i, const char *v);    /* NULL: SQL NULL */
void hst_blob(struct hstmt *s, int i, const void *v, size_t n);
/* 1 a row, 0 done, -1 an error (soft mode). */
int hst_step(struct hstmt *s);
long long hst_col_int(struct hstmt *s, int col);         /* columns from 0 */
double hst_col_double(struct hstmt *s, int col);         /* NaN for NULL */
const char *hst_col_text(struct hstmt *s, int col);      /* "" for NULL */
const void *hst_col_blob(struct hstmt *s, int col, size_t *n);
int hst_col_null(struct hstmt *s, int col);
/* Ready for new parameters and a new step. */
void hst_reset(struct hstmt *s);
void hst_free(struct hstmt *s);

/* The engines' operations behind the interface (db_sqlite.c, db_pg.c). */
struct hdb_ops {
	const char *engine;
	const char *(*type)(const char *token);
	int (*exec)(struct hdb *db, const char *sql);
	int (*begin)(struct hdb *db, int write);
	int (*lock)(struct hdb *db);
	struct hstmt *(*prepare)(struct hdb *db, const char *sql);
	void (*bind)(struct hstmt *s, int i, int type, long long iv, double dv, const void *p,
		     size_t n);
	int (*step)(struct hstmt *s);
	int (*col_type)(struct hstmt *s, int col);    /* 0 NULL, 1 else */
	long long (*col_int)(struct hstmt *s, int col);
	double (*col_double)(struct hstmt *s, int col);
	const char *(*col_text)(struct hstmt *s, int col);
	const void *(*col_blob)(struct hstmt *s, int col, size_t *n);
	void (*reset)(struct hstmt *s);
	void (*free_stmt)(struct hstmt *s);
	void (*close)(struct hdb *db);
};

enum { HDB_T_NULL, HDB_T_INT, HDB_T_DOUBLE, HDB_T_TEXT, HDB_T_BLOB };

struct hdb {
	const struct hdb_ops *ops;
	void *conn;
	char *name;
	int soft, failed;
	unsigned stmts;      /* statements prepared (PostgreSQL names them) */
};

/* The first member of each engine's statement. */
struct hstmt {
	struct hdb *db;
};

/* Common to the engines: an error is a line on stderr and exit 1, or in
 * soft mode the flag.  Returns -1. */
int hdb_error(struct hdb *db, const char *what, const char *msg);

int hdb_sqlite_open(const char *path, enum hdb_mode mode, struct hdb *db, char *err,
		    size_t errlen);
int hdb_pg_open(const char *url, struct hdb *db, char *err, size_t errlen);

#endif
