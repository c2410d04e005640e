/* ingest.c - `history add DB FILE|DIR...`: every results file (or LAVA
 * log holding results between BOARDBENCH-JSON-BEGIN and -END lines,
 * lavalog.c) becomes a run in the database, with its board, start time,
 * boot, every recorded fact and every metric's kept samples.  A run's
 * identity is a SHA-256 of what it measured (board, start, each metric's
 * key and samples), so adding a file twice, or the same run from a file
 * and from a LAVA log, stores it once.  Runs are written in transactions
 * of up to BATCH_RUNS runs or BATCH_SECONDS (one commit per run would
 * cost a journal write each), so a crash keeps every run whole or not at
 * all and another writer waits at most that long; a file that cannot be
 * read is refused in one line and the rest go on. */
#include "applets/history/history.h"
#include "applets/history/lavalog.h"
#include "core/error.h"
#include "core/parse.h"
#include "core/sha256.h"
#include "analysis/differ.h"
#include "analysis/metrics.h"
#include "analysis/reader.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define BATCH_RUNS 200
#define BATCH_SECONDS 2

/* ---- ids of shared rows, cached for the life of the program ---- */

struct idcache {
	char **key;
	long long *id;
	size_t cap, n;
};

static size_t hash(const char *s)
{
	size_t h = 1469598103934665603u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

static long long *cache_slot(struct idcache *c, const char *key, int insert)
{
	if (insert && 2 * (c->n + 1) > c->cap) {
		struct idcache big = { NULL, NULL, c->cap ? 2 * c->cap : 1024, 0 };
		big.key = bb_xcalloc(big.cap, sizeof *big.key);
		big.id = bb_xcalloc(big.cap, sizeof *big.id);
		for (size_t i = 0; i < c->cap; i++)
			if (c->key[i])
				*cache_slot(&big, c->key[i], 1) = c->id[i];
		for (size_t i = 0; i < c->cap; i++)
			free(c->key[i]);
		free(c->key);
		free(c->id);
		*c = big;
	}
	if (!c->cap)
		return NULL;
	for (size_t i = hash(key) & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
		if (c->key[i] && strcmp(c->key[i], key) == 0)
			return &c->id[i];
		if (!c->key[i]) {
			if (!insert)
				return NULL;
			c->key[i] = bb_xstrdup(key);
			c->n++;
			return &c->id[i];
		}
	}
}

static void cache_free(struct idcache *c)
{
	for (size_t i = 0; i < c->cap; i++)
		free(c->key[i]);
	free(c->key);
	free(c->id);
}

/* ---- the statements of one add ---- */

struct adder {
	struct hdb *db;
	struct hstmt *ins_board, *get_board, *ins_run, *ins_fact, *get_fact, *ins_run_fact;
	struct hstmt *ins_metric, *get_metric, *ins_sample;
	struct idcache boards, facts, metrics;
	size_t added, present, refused;
	char added_at[32];
	size_t in_tx;            /* runs in the open transaction (0: none open) */
	time_t tx_start;
};

/* The transaction the next run goes into. */
static void tx_open(struct adder *a)
{
	if (a->in_tx)
		return;
	hdb_begin(a->db, 1);
	hdb_lock(a->db);          /* writers queue, as SQLite's do: no deadlock between them */
	a->tx_start = time(NULL);
	a->in_tx = 1;
}

/* Commits after BATCH_RUNS runs, BATCH_SECONDS, or at the end (force). */
static void tx_close(struct adder *a, int force)
{
	if (!a->in_tx)
		return;
	if (force || a->in_tx > BATCH_RUNS || time(NULL) - a->tx_start >= BATCH_SECONDS) {
		hdb_commit(a->db);
		a->in_tx = 0;
	} else {
		a->in_tx++;
	}
}

static void adder_init(struct adder *a, struct hdb *db)
{
	time_t now = time(NULL);
	struct tm tm;

	memset(a, 0, sizeof *a);
	a->db = db;
	strftime(a->added_at, sizeof a->added_at, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	a->ins_board = hdb_prepare(db, "INSERT INTO boards (name) VALUES (?) ON CONFLICT DO NOTHING");
	a->get_board = hdb_prepare(db, "SELECT id FROM boards WHERE name = ?");
	a->ins_run = hdb_prepare(db, "INSERT INTO runs (digest, board_id, started, boot, source, "
				 "added, uptime_s) VALUES (?, ?, ?, ?, ?, ?, ?) "
				 "ON CONFLICT DO NOTHING RETURNING id");
	a->ins_fact = hdb_prepare(db, "INSERT INTO facts (key, value) VALUES (?, ?) "
				  "ON CONFLICT DO NOTHING");
	a->get_fact = hdb_prepare(db, "SELECT id FROM facts WHERE key = ? AND value = ?");
	a->ins_run_fact = hdb_prepare(db, "INSERT INTO run_facts (run_id, fact_id) VALUES (?, ?) "
				      "ON CONFLICT DO NOTHING");
	a->ins_metric = hdb_prepare(db, "INSERT INTO metrics (key, applet, unit, disp_unit, "
				    "disp_scale, better, aux) VALUES (?, ?, ?, ?, ?, ?, ?) "
				    "ON CONFLICT DO NOTHING");
	a->get_metric = hdb_prepare(db, "SELECT id FROM metrics WHERE key = ?");
	a->ins_sample = hdb_prepare(db, "INSERT INTO samples (run_id, metric_id, n, median, vals) "
				    "VALUES (?, ?, ?, ?, ?)");
}

static void adder_free(struct adder *a)
{
	struct hstmt *all[] = { a->ins_board, a->get_board, a->ins_run, a->ins_fact, a->get_fact,
				a->ins_run_fact, a->ins_metric, a->get_metric, a->ins_sample };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		hst_free(all[i]);
	cache_free(&a->boards);
	cache_free(&a->facts);
	cache_free(&a->metrics);
}

/* Runs an INSERT ... ON CONFLICT DO NOTHING, then the SELECT of its id. */
static long long insert_get(struct hstmt *ins, struct hstmt *get)
{
	long long id = -1;

	hst_step(ins);
	hst_reset(ins);
	if (hst_step(get) == 1)
		id = hst_col_int(get, 0);
	hst_reset(get);
	if (id < 0)
		bb_die("internal: a row inserted cannot be read back");
	return id;
}

static long long board_id(struct adder *a, const char *name)
{
	long long *slot = cache_slot(&a->boards, name, 0);

	if (slot)
		return *slot;
	hst_text(a->ins_board, 1, name);
	hst_text(a->get_board, 1, name);
	long long id = insert_get(a->ins_board, a->get_board);
	*cache_slot(&a->boards, name, 1) = id;
	return id;
}

static void add_fact(struct adder *a, long long run, const char *key, const char *value)
{
	size_t len = strlen(key) + strlen(value) + 2;
	char *kv = bb_xmalloc(len);
	long long *slot, id;

	snprintf(kv, len, "%s=%s", key, value);
	slot = cache_slot(&a->facts, kv, 0);
	if (slot) {
		id = *slot;
	} else {
		hst_text(a->ins_fact, 1, key);
		hst_text(a->ins_fact, 2, value);
		hst_text(a->get_fact, 1, key);
		hst_text(a->get_fact, 2, value);
		id = insert_get(a->ins_fact, a->get_fact);
		*cache_slot(&a->facts, kv, 1) = id;
	}
	free(kv);
	hst_int(a->ins_run_fact, 1, run);
	hst_int(a->ins_run_fact, 2, id);
	hst_step(a->ins_run_fact);
	hst_reset(a->ins_run_fact);
}

static void add_kvs(struct adder *a, long long run, const char *prefix, const struct bb_rkvs *l,
		    int (*keep)(const char *))
{
	char key[BB_READ_MAX_NAME + 64];

	for (size_t i = 0; i < l->n; i++) {
		if (keep && !keep(l->v[i].key))
			continue;
		snprintf(key, sizeof key, "%s%s", prefix, l->v[i].key);
		add_fact(a, run, key, l->v[i].s);
	}
}

/* Every fact a cause can be found in (differ.h's rules for what is a
 * setting; outcomes of a measurement are left out). */
static void add_facts(struct adder *a, long long run, const struct bb_rrun *r)
{
	char prefix[BB_READ_MAX_NAME + 16];

	add_kvs(a, run, "tool.", &r->tool, NULL);
	add_kvs(a, run, "system.", &r->system, bb_diff_system_key);
	add_kvs(a, run, "label.", &r->labels, NULL);
	if (r->caches[0])
		add_fact(a, run, "caches", r->caches);
	for (size_t j = 0; j < r->n; j++) {
		snprintf(prefix, sizeof prefix, "param.%s.", r->results[j].applet);
		add_kvs(a, run, prefix, &r->results[j].params, bb_diff_param_key);
	}
}

static long long metric_id(struct adder *a, const struct bb_metric *m)
{
	long long *slot = cache_slot(&a->metrics, m->key, 0);

	if (slot)
		return *slot;
	hst_text(a->ins_metric, 1, m->key);
	hst_text(a->ins_metric, 2, m->applet);
	hst_text(a->ins_metric, 3, m->unit);
	hst_text(a->ins_metric, 4, m->disp_unit);
	hst_double(a->ins_metric, 5, m->disp_scale);
	hst_int(a->ins_metric, 6, m->better);
	hst_int(a->ins_metric, 7, m->twin != NULL);   /* a twin is not analysed on its own */
	hst_text(a->get_metric, 1, m->key);
	long long id = insert_get(a->ins_metric, a->get_metric);
	*cache_slot(&a->metrics, m->key, 1) = id;
	return id;
}

/* ---- a run's metrics: one per key, samples of repeated keys joined ---- */

struct kept {
	const struct bb_metric *m;
	double *v;
	size_t n;
};

static int cmp_kept(const void *x, const void *y)
{
	return strcmp(((const struct kept *)x)->m->key, ((const struct kept *)y)->m->key);
}

static struct kept *kept_metrics(const struct bb_metrics *ms, size_t *n)
{
	struct kept *k = bb_xcalloc(ms->n ? ms->n : 1, sizeof *k);
	size_t o = 0;

	for (size_t i = 0; i < ms->n; i++)
		if (!ms->m[i].bad && ms->m[i].n)
			k[o++] = (struct kept){ &ms->m[i], NULL, 0 };
	qsort(k, o, sizeof *k, cmp_kept);
	*n = 0;
	for (size_t i = 0; i < o; i++) {
		const struct bb_metric *m = k[i].m;
		if (*n && strcmp(k[*n - 1].m->key, m->key) == 0) {
			struct kept *p = &k[*n - 1];
			p->v = bb_xrealloc(p->v, (p->n + m->n) * sizeof *p->v);
			memcpy(p->v + p->n, m->v, m->n * sizeof *p->v);
			p->n += m->n;
			continue;
		}
		k[*n] = (struct kept){ m, bb_xmalloc(m->n * sizeof(double)), m->n };
		memcpy(k[*n].v, m->v, m->n * sizeof(double));
		(*n)++;
	}
	return k;
}

/* The samples as little-endian IEEE-754 doubles. */
static unsigned char *pack(const double *v, size_t n)
{
	unsigned char *b = bb_xmalloc(n * 8 + 1);

	for (size_t i = 0; i < n; i++) {
		uint64_t u;
		memcpy(&u, &v[i], 8);
		for (int k = 0; k < 8; k++)
			b[i * 8 + k] = (unsigned char)(u >> (8 * k));
	}
	return b;
}

static void digest_run(const char *board, const char *started, const struct kept *k, size_t n,
		       char hex[2 * BB_SHA256_LEN + 1])
{
	struct bb_sha256 s;
	unsigned char out[BB_SHA256_LEN];

	bb_sha256_init(&s);
	bb_sha256_update(&s, board, strlen(board) + 1);
	bb_sha256_update(&s, started, strlen(started) + 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char *b = pack(k[i].v, k[i].n);
		bb_sha256_update(&s, k[i].m->key, strlen(k[i].m->key) + 1);
		bb_sha256_update(&s, b, k[i].n * 8);
		free(b);
	}
	bb_sha256_final(&s, out);
	for (size_t i = 0; i < BB_SHA256_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", out[i]);
}

static void add_samples(struct adder *a, long long run, const struct kept *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct bb_figures f;
		unsigned char *b = pack(k[i].v, k[i].n);
		bb_metric_figures(k[i].v, k[i].n, 0, &f);
		/* the run's own figure where it printed one (metrics.h: run_fig),
		 * else the median of its samples, as compare takes a run */
		if (isfinite(k[i].m->run_fig) && k[i].m->run_fig > 0 && k[i].n == k[i].m->n)
			f.median = k[i].m->run_fig;
		hst_int(a->ins_sample, 1, run);
		hst_int(a->ins_sample, 2, metric_id(a, k[i].m));
		hst_int(a->ins_sample, 3, (long long)k[i].n);
		hst_double(a->ins_sample, 4, f.median);
		hst_blob(a->ins_sample, 5, b, k[i].n * 8);
		hst_step(a->ins_sample);
		hst_reset(a->ins_sample);
		free(b);
	}
}

/* The board a run belongs to: system.board.id, else the hostname. */
static const char *board_of(const struct bb_rrun *r)
{
	const char *b = bb_rkv_str(&r->system, "board.id");

	if (!b || !b[0])
		b = bb_rkv_str(&r->system, "hostname");
	return b && b[0] ? b : NULL;
}

/* system.boot.uptime_s, a number or its text ("6433.63"); NaN if neither. */
static double uptime_of(const struct bb_rrun *r)
{
	const char *s = bb_rkv_str(&r->system, "boot.uptime_s");
	double v = bb_rkv_num(&r->system, "boot.uptime_s", NAN);
	char *end;

	if (isnan(v) && s && *s) {
		v = bb_strtod(s, &end);
		if (*end || !isfinite(v))
			v = NAN;
	}
	return v;
}

/* Inserts the run, or finds it there; 1 added, 0 present. */
static int store_run(struct adder *a, const struct bb_rrun *r, const char *board, const char *src,
		     const struct kept *k, size_t nk)
{
	char hex[2 * BB_SHA256_LEN + 1];
	const char *boot = bb_rkv_str(&r->system, "boot.id");
	long long run = -1;

	digest_run(board, r->started, k, nk, hex);
	tx_open(a);
	hst_text(a->ins_run, 1, hex);
	hst_int(a->ins_run, 2, board_id(a, board));
	hst_text(a->ins_run, 3, r->started);
	hst_text(a->ins_run, 4, boot ? boot : "");
	hst_text(a->ins_run, 5, src);
	hst_text(a->ins_run, 6, a->added_at);
	hst_double(a->ins_run, 7, uptime_of(r));
	if (hst_step(a->ins_run) == 1)
		run = hst_col_int(a->ins_run, 0);
	hst_reset(a->ins_run);
	if (run >= 0) {
		add_facts(a, run, r);
		add_samples(a, run, k, nk);
	}
	tx_close(a, 0);
	return run >= 0;
}

/* One run read from src: added, found there, or refused. */
static void add_run(struct adder *a, const struct bb_rrun *r, const char *src)
{
	const char *board = board_of(r);
	struct bb_metrics ms = { 0 };
	struct kept *k;
	size_t nk;

	if (!board || !r->started[0]) {
		bb_warn("%s: refused: no %s, so it has no place in a history", src,
			!board ? "system.board.id or system.hostname" : "started_utc");
		a->refused++;
		return;
	}
	bb_metrics_add_run(&ms, r);
	bb_metrics_derive(&ms, 0);
	k = kept_metrics(&ms, &nk);
	if (!nk) {
		bb_warn("%s: refused: no result with status ok holds a sample", src);
		a->refused++;
	} else if (store_run(a, r, board, src, k, nk)) {
		a->added++;
	} else {
		a->present++;
	}
	for (size_t i = 0; i < nk; i++)
		free(k[i].v);
	free(k);
	bb_metrics_free(&ms);
}

/* ---- files, LAVA logs and directories ---- */

static void add_buf(struct adder *a, const char *name, const char *buf, size_t len)
{
	struct bb_rrun r;
	char err[768];
	int rc = bb_read_buf(name, buf, len, &r, err, sizeof err);

	if (rc == 0)
		add_run(a, &r, name);
	else if (rc == BB_READ_RESOURCE)
		bb_die("%s", err);
	else {
		bb_warn("refused: %s", err);
		a->refused++;
	}
	bb_rrun_free(&r);
}

static void add_block(void *ctx, const char *name, const char *buf, size_t len)
{
	add_buf(ctx, name, buf, len);
}

static void add_file(struct adder *a, const char *path)
{
	char err[512];
	size_t len;
	char *buf = hist_slurp(path, &len, err, sizeof err);

	if (!buf) {
		bb_warn("refused: %s", err);
		a->refused++;
		return;
	}
	if (hist_lava_has_markers(buf, len)) {
		if (hist_lava_blocks(path, buf, len, add_block, a, err, sizeof err) == 0) {
			bb_warn("refused: %s", err);
			a->refused++;
		}
	} else {
		add_buf(a, path, buf, len);
	}
	free(buf);
}

static int wanted_name(const char *n)
{
	static const char *const ext[] = { ".json", ".log", ".yaml", ".txt" };
	size_t len = strlen(n);

	if (n[0] == '.')
		return 0;
	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		size_t e = strlen(ext[i]);
		if (len > e && strcmp(n + len - e, ext[i]) == 0)
			return 1;
	}
	return 0;
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static void add_dir(struct adder *a, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;

	if (!d) {
		bb_warn("refused: %s: cannot open directory: %s", dir, strerror(errno));
		a->refused++;
		return;
	}
	while ((e = readdir(d))) {
		if (!wanted_name(e->d_name))
			continue;
		if (n == cap)
			names = bb_xrealloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		names[n] = bb_xmalloc(len);
		snprintf(names[n++], len, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n; i++) {
		add_file(a, names[i]);
		free(names[i]);
	}
	free(names);
}

int hist_add(struct hdb *db, const struct hist_opts *o)
{
	struct adder a;
	struct stat st;

	adder_init(&a, db);
	for (int i = 0; i < o->npaths; i++) {
		if (stat(o->paths[i], &st) == 0 && S_ISDIR(st.st_mode))
			add_dir(&a, o->paths[i]);
		else
			add_file(&a, o->paths[i]);
	}
	tx_close(&a, 1);
	if (o->json)
		printf("{\"added\": %zu, \"present\": %zu, \"refused\": %zu}\n", a.added, a.present,
		       a.refused);
	else
		printf("%s: %zu run%s added, %zu already there, %zu refused\n", hdb_name(db), a.added,
		       a.added == 1 ? "" : "s", a.present, a.refused);
	adder_free(&a);
	return a.refused ? BB_EXIT_USAGE : 0;
}
