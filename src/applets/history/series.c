/* series.c - the lab read back from the database: boards, metrics, runs
 * and the series of each metric on each board, made into units (a boot's
 * runs together, or each run alone when runs record no boot), and the
 * change points found over the whole lab at once (analysis/changepoint.h):
 * every series' candidates under one Benjamini-Yekutieli control, each
 * accepted point confirmed on the samples of the runs beside it, and
 * placed across boards ("code" when every board that ran across it
 * changed too).  The analysis is kept in the database (change_points,
 * with a stamp of what it was computed from) so that showing one series
 * reads one series. */
#include "applets/history/history.h"
#include "core/error.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- boards, metrics, runs ---- */

static void load_boards(struct hdb *db, struct hist_lab *lab)
{
	struct hstmt *s = hdb_prepare(db, "SELECT id, name FROM boards ORDER BY name");
	size_t cap = 0;

	while (hst_step(s) == 1) {
		if (lab->nboards == cap) {
			cap = cap ? 2 * cap : 16;
			lab->boards = bb_xrealloc(lab->boards, cap * sizeof *lab->boards);
			lab->board_ids = bb_xrealloc(lab->board_ids, cap * sizeof *lab->board_ids);
		}
		lab->board_ids[lab->nboards] = hst_col_int(s, 0);
		lab->boards[lab->nboards++] = bb_xstrdup(hst_col_text(s, 1));
	}
	hst_free(s);
}

static void load_metrics(struct hdb *db, struct hist_lab *lab)
{
	struct hstmt *s = hdb_prepare(db, "SELECT id, key, applet, unit, disp_unit, disp_scale, "
				      "better, aux FROM metrics ORDER BY key");
	size_t cap = 0;

	while (hst_step(s) == 1) {
		if (lab->nmetrics == cap)
			lab->metrics = bb_xrealloc(lab->metrics, (cap = cap ? 2 * cap : 64) *
						   sizeof *lab->metrics);
		lab->metrics[lab->nmetrics++] = (struct hist_metric){
			hst_col_int(s, 0), bb_xstrdup(hst_col_text(s, 1)), bb_xstrdup(hst_col_text(s, 2)),
			bb_xstrdup(hst_col_text(s, 3)), bb_xstrdup(hst_col_text(s, 4)),
			hst_col_double(s, 5), (int)hst_col_int(s, 6), (int)hst_col_int(s, 7),
		};
	}
	hst_free(s);
}

static long long index_of(const long long *ids, size_t n, long long id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return (long long)i;
	return -1;
}

static void load_runs(struct hdb *db, struct hist_lab *lab)
{
	struct hstmt *s = hdb_prepare(db, "SELECT id, board_id, started, boot, uptime_s FROM runs "
				      "ORDER BY board_id, started, id");
	size_t cap = 0;

	while (hst_step(s) == 1) {
		if (lab->nruns == cap)
			lab->runs = bb_xrealloc(lab->runs, (cap = cap ? 2 * cap : 256) * sizeof *lab->runs);
		lab->runs[lab->nruns++] = (struct hist_run){
			hst_col_int(s, 0), index_of(lab->board_ids, lab->nboards, hst_col_int(s, 1)),
			bb_xstrdup(hst_col_text(s, 2)), bb_xstrdup(hst_col_text(s, 3)),
			hst_col_double(s, 4), 0, 1,
		};
	}
	hst_free(s);
}

/* --label K=V: only the runs that recorded it. */
static void filter_label(struct hdb *db, struct hist_lab *lab, const char *kv)
{
	const char *eq = strchr(kv, '=');
	char key[300];
	struct hstmt *s;
	long long *ids = NULL;
	size_t n = 0, cap = 0;

	snprintf(key, sizeof key, "label.%.*s", (int)(eq - kv), kv);
	s = hdb_prepare(db, "SELECT rf.run_id FROM run_facts rf JOIN facts f ON f.id = rf.fact_id "
			"WHERE f.key = ? AND f.value = ?");
	hst_text(s, 1, key);
	hst_text(s, 2, eq + 1);
	while (hst_step(s) == 1) {
		if (n == cap)
			ids = bb_xrealloc(ids, (cap = cap ? 2 * cap : 64) * sizeof *ids);
		ids[n++] = hst_col_int(s, 0);
	}
	hst_free(s);
	for (size_t i = 0; i < lab->nruns; i++)
		lab->runs[i].keep = index_of(ids, n, lab->runs[i].id) >= 0;
	free(ids);
}

/* id -> index (ids are dense: the engines number them from 1). */
struct idmap {
	long long *idx;
	long long max;
};

static void idmap_init(struct idmap *m, const long long *ids, size_t n, size_t stride)
{
	m->max = 0;
	for (size_t i = 0; i < n; i++) {
		long long id = *(const long long *)((const char *)ids + i * stride);
		if (id > m->max)
			m->max = id;
	}
	m->idx = bb_xmalloc((size_t)(m->max + 1) * sizeof *m->idx);
	for (long long i = 0; i <= m->max; i++)
		m->idx[i] = -1;
	for (size_t i = 0; i < n; i++)
		m->idx[*(const long long *)((const char *)ids + i * stride)] = (long long)i;
}

static long long idmap_get(const struct idmap *m, long long id)
{
	return id >= 0 && id <= m->max ? m->idx[id] : -1;
}

/* ---- series ---- */

static struct hist_series *series_at(struct hist_lab *lab, size_t *slot, long long board,
				     long long metric)
{
	size_t k = (size_t)board * lab->nmetrics + (size_t)metric;

	if (slot[k] == SIZE_MAX) {
		slot[k] = lab->nseries++;
		lab->series = bb_xrealloc(lab->series, lab->nseries * sizeof *lab->series);
		memset(&lab->series[slot[k]], 0, sizeof *lab->series);
		lab->series[slot[k]].board = board;
		lab->series[slot[k]].metric = metric;
	}
	return &lab->series[slot[k]];
}

static void series_push(struct hist_series *s, size_t run, double median)
{
	if ((s->nruns & (s->nruns - 1)) == 0) {   /* 0, 1, 2, 4, ...: grow */
		size_t cap = s->nruns ? 2 * s->nruns : 1;
		s->runs = bb_xrealloc(s->runs, cap * sizeof *s->runs);
		s->median = bb_xrealloc(s->median, cap * sizeof *s->median);
	}
	s->runs[s->nruns] = run;
	s->median[s->nruns++] = median;
}

/* Sorts a series' runs by their place in lab->runs (board, time). */
static void series_sort(struct hist_series *s)
{
	for (size_t i = 1; i < s->nruns; i++) {
		size_t r = s->runs[i], j = i;
		double m = s->median[i];
		if (s->runs[i - 1] < r)
			continue;
		for (; j > 0 && s->runs[j - 1] > r; j--) {
			s->runs[j] = s->runs[j - 1];
			s->median[j] = s->median[j - 1];
		}
		s->runs[j] = r;
		s->median[j] = m;
	}
}

/* Units of consecutive runs: with by_boot, those of one boot.id together
 * (a run without one alone), else each run alone; each valued at the
 * geometric mean of its runs' figures. */
static void group_units(const struct hist_lab *lab, struct hist_series *s, int by_boot)
{
	s->npt = 0;
	for (size_t i = 0; i < s->nruns;) {
		const char *boot = lab->runs[s->runs[i]].boot;
		size_t j = i + 1;
		while (by_boot && boot[0] && j < s->nruns && strcmp(lab->runs[s->runs[j]].boot, boot) == 0)
			j++;
		s->pt[s->npt++] = (struct hist_point){ i, j - i, bb_geomean(s->median, i, j) };
		i = j;
	}
}

/* The boot is the unit where every run of the series records one and
 * there are boots enough for a split (2 x min_seg): the level that varies
 * most must be replicated.  A series of fewer boots (a machine that runs
 * its nights without a reboot) is taken run by run, and says so. */
static void make_units(const struct hist_lab *lab, struct hist_series *s)
{
	int all_boots = s->nruns > 0;

	for (size_t i = 0; i < s->nruns && all_boots; i++)
		all_boots = lab->runs[s->runs[i]].boot[0] != '\0';
	s->pt = bb_xmalloc((s->nruns ? s->nruns : 1) * sizeof *s->pt);
	s->by_boot = 0;
	if (all_boots) {
		group_units(lab, s, 1);
		s->by_boot = s->npt >= 2 * lab->min_seg;
	}
	if (!s->by_boot)
		group_units(lab, s, 0);
}

/* The medians of every series (metric_id, board_id: -1 for all). */
static void load_series(struct hdb *db, struct hist_lab *lab, long long metric_id,
			long long board_id)
{
	struct idmap rmap, mmap;
	size_t before = lab->nseries;
	size_t nslot = lab->nboards * lab->nmetrics, *slot = bb_xmalloc((nslot ? nslot : 1) * sizeof *slot);
	struct hstmt *s = hdb_prepare(db, metric_id < 0 ? "SELECT run_id, metric_id, median FROM samples"
		: "SELECT run_id, metric_id, median FROM samples WHERE metric_id = ?");

	for (size_t i = 0; i < nslot; i++)
		slot[i] = SIZE_MAX;
	idmap_init(&rmap, lab->nruns ? &lab->runs[0].id : NULL, lab->nruns, sizeof *lab->runs);
	idmap_init(&mmap, lab->nmetrics ? &lab->metrics[0].id : NULL, lab->nmetrics, sizeof *lab->metrics);
	if (metric_id >= 0)
		hst_int(s, 1, metric_id);
	while (hst_step(s) == 1) {
		long long r = idmap_get(&rmap, hst_col_int(s, 0));
		long long m = idmap_get(&mmap, hst_col_int(s, 1));
		if (r < 0 || m < 0 || !lab->runs[r].keep)
			continue;
		if (board_id >= 0 && lab->board_ids[lab->runs[r].board] != board_id)
			continue;
		series_push(series_at(lab, slot, lab->runs[r].board, m), (size_t)r, hst_col_double(s, 2));
	}
	hst_free(s);
	for (size_t i = before; i < lab->nseries; i++) {
		series_sort(&lab->series[i]);
		make_units(lab, &lab->series[i]);
	}
	free(rmap.idx);
	free(mmap.idx);
	free(slot);
}

/* ---- samples ---- */

static void unpack(const unsigned char *b, size_t n, double *out)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t u = 0;
		for (int k = 0; k < 8; k++)
			u |= (uint64_t)b[i * 8 + k] << (8 * k);
		memcpy(&out[i], &u, 8);
	}
}

double *hist_unit_samples(struct hdb *db, const struct hist_lab *lab,
			  const struct hist_series *s, size_t lo, size_t hi, size_t *n)
{
	struct hstmt *st = hdb_prepare(db, "SELECT vals FROM samples WHERE run_id = ? AND metric_id = ?");
	double *v = NULL;
	size_t cap = 0;

	*n = 0;
	for (size_t u = lo; u < hi; u++)
		for (size_t k = 0; k < s->pt[u].n; k++) {
			size_t len;
			hst_int(st, 1, lab->runs[s->runs[s->pt[u].first + k]].id);
			hst_int(st, 2, lab->metrics[s->metric].id);
			if (hst_step(st) == 1) {
				const unsigned char *b = hst_col_blob(st, 0, &len);
				size_t m = len / 8;
				if (*n + m > cap)
					v = bb_xrealloc(v, (cap = 2 * (*n + m)) * sizeof *v);
				unpack(b, m, v + *n);
				*n += m;
			}
			hst_reset(st);
		}
	hst_free(st);
	return v;
}

double hist_disp(const struct hist_lab *lab, const struct hist_series *s, double v)
{
	double k = lab->metrics[s->metric].disp_scale;
	return v * (k > 0 ? k : 1);
}

/* ---- the analysis over the lab ---- */

/* The candidates of every series, their parents offset into one array. */
static struct bb_cp *find_all(struct hist_lab *lab, const struct hist_opts *o, size_t **owner,
			      size_t *ncand)
{
	struct bb_cp *all = NULL;
	size_t n = 0;

	*owner = NULL;
	lab->tests = 0;
	for (size_t i = 0; i < lab->nseries; i++) {
		struct hist_series *s = &lab->series[i];
		double *v = bb_xmalloc((s->npt ? s->npt : 1) * sizeof *v);
		struct bb_cp *c = bb_xmalloc((s->npt ? s->npt : 1) * sizeof *c);
		for (size_t k = 0; k < s->npt; k++)
			v[k] = s->pt[k].value;
		size_t got = lab->metrics[s->metric].aux ? 0 :
			bb_cp_find(v, s->npt, o->min_seg, o->q, c, s->npt, &s->tests);
		lab->tests += s->tests;
		all = bb_xrealloc(all, (n + got + 1) * sizeof *all);
		*owner = bb_xrealloc(*owner, (n + got + 1) * sizeof **owner);
		for (size_t k = 0; k < got; k++) {
			if (c[k].parent >= 0)
				c[k].parent += (long)n;
			all[n + k] = c[k];
			(*owner)[n + k] = i;
		}
		n += got;
		free(v);
		free(c);
	}
	*ncand = n;
	return all;
}

static int cmp_cp(const void *x, const void *y)
{
	const struct hist_cp *a = x, *b = y;
	if (a->series != b->series)
		return (a->series > b->series) - (a->series < b->series);
	return (a->cp.at > b->cp.at) - (a->cp.at < b->cp.at);
}

/* The sides of point k of the lab (changepoint.h: bb_cp_sides), at most
 * max units each (0: the whole segments). */
static void sides(const struct hist_lab *lab, size_t k, size_t max, size_t *lo, size_t *hi)
{
	const struct hist_series *s = &lab->series[lab->cps[k].series];
	size_t *at = bb_xmalloc(s->ncp * sizeof *at);

	for (size_t i = 0; i < s->ncp; i++)
		at[i] = lab->cps[s->first_cp + i].cp.at;
	bb_cp_sides(at, s->ncp, k - s->first_cp, s->npt, max, lo, hi);
	free(at);
}

/* The point's size between its final segments, confirmed on the samples
 * of the runs of the BB_CP_CONFIRM_UNITS units nearest it on each side. */
static void confirm(struct hdb *db, struct hist_lab *lab, size_t k, double alpha)
{
	struct hist_cp *c = &lab->cps[k];
	const struct hist_series *s = &lab->series[c->series];
	size_t blo, ahi, nb, na, at = c->cp.at;
	struct bb_ab ab;

	sides(lab, k, 0, &blo, &ahi);
	double *v = bb_xmalloc(s->npt * sizeof *v);
	for (size_t i = 0; i < s->npt; i++)
		v[i] = s->pt[i].value;
	c->cp.ratio = bb_geomean(v, at, ahi) / bb_geomean(v, blo, at);
	free(v);
	sides(lab, k, BB_CP_CONFIRM_UNITS, &blo, &ahi);
	double *b = hist_unit_samples(db, lab, s, blo, at, &nb);
	double *a = hist_unit_samples(db, lab, s, at, ahi, &na);
	c->ratio = c->lo = c->hi = c->mw_p = NAN;
	c->confirmed = bb_cp_confirm(b, nb, a, na, c->cp.ratio, alpha, &ab) == 1;
	if (nb && na && ab.na) {
		c->ratio = ab.ratio;
		c->lo = ab.lo;
		c->hi = ab.hi;
		c->mw_p = ab.mwu.p;
	}
	free(a);
	free(b);
}

/* ---- one point across boards ---- */

static const char *started_of(const struct hist_lab *lab, const struct hist_series *s, size_t run)
{
	return lab->runs[s->runs[run]].started;
}

/* When the point happened: the last run before it and the first after. */
static void when(const struct hist_lab *lab, const struct hist_cp *c, const char **tb,
		 const char **ta)
{
	const struct hist_series *s = &lab->series[c->series];
	const struct hist_point *after = &s->pt[c->cp.at], *before = &s->pt[c->cp.at - 1];

	*tb = started_of(lab, s, before->first + before->n - 1);
	*ta = started_of(lab, s, after->first);
}

/* 1 when series s has runs on both sides of the moment [tb, ta]. */
static int spans(const struct hist_lab *lab, const struct hist_series *s, const char *tb,
		 const char *ta)
{
	int early = 0, late = 0;

	for (size_t i = 0; i < s->nruns; i++) {
		const char *t = started_of(lab, s, i);
		early |= strcmp(t, ta) < 0;
		late |= strcmp(t, tb) > 0;
	}
	return early && late;
}

/* 1 when series s changed the same way as c at an overlapping moment. */
static int changed_too(const struct hist_lab *lab, const struct hist_series *s,
		       const struct hist_cp *c, const char *tb, const char *ta)
{
	for (size_t k = s->first_cp; k < s->first_cp + s->ncp; k++) {
		const char *qb, *qa;
		const struct hist_cp *q = &lab->cps[k];
		if (!q->confirmed || (q->cp.ratio > 1) != (c->cp.ratio > 1))
			continue;
		when(lab, q, &qb, &qa);
		if (strcmp(qb, ta) <= 0 && strcmp(tb, qa) <= 0)
			return 1;
	}
	return 0;
}

/* "code": every other board that ran across the moment changed too;
 * "this board": none did; "K of N boards" between; "one board" when no
 * other board ran across it. */
static void place(struct hist_lab *lab, struct hist_cp *c)
{
	const struct hist_series *s = &lab->series[c->series];
	const char *tb, *ta;
	size_t across = 0, too = 0;

	when(lab, c, &tb, &ta);
	for (size_t i = 0; i < lab->nseries; i++) {
		const struct hist_series *o = &lab->series[i];
		if (o->metric != s->metric || o->board == s->board || !spans(lab, o, tb, ta))
			continue;
		across++;
		too += changed_too(lab, o, c, tb, ta);
	}
	if (!across)
		snprintf(c->scope, sizeof c->scope, "one board");
	else if (too == across)
		snprintf(c->scope, sizeof c->scope, "code");
	else if (!too)
		snprintf(c->scope, sizeof c->scope, "this board");
	else
		snprintf(c->scope, sizeof c->scope, "%zu of %zu boards", too + 1, across + 1);
}

/* Sorts the accepted points by series and time; sets first_cp and ncp. */
static void index_points(struct hist_lab *lab)
{
	qsort(lab->cps, lab->ncps, sizeof *lab->cps, cmp_cp);
	for (size_t i = 0; i < lab->nseries; i++)
		lab->series[i].first_cp = lab->series[i].ncp = 0;
	for (size_t k = 0; k < lab->ncps; k++) {
		struct hist_series *s = &lab->series[lab->cps[k].series];
		if (!s->ncp++)
			s->first_cp = k;
	}
}

static void analyse(struct hdb *db, struct hist_lab *lab, const struct hist_opts *o)
{
	size_t n, *owner;
	struct bb_cp *all = find_all(lab, o, &owner, &n);

	lab->cutoff = bb_cp_control(all, n, lab->tests, o->q);
	lab->cps = bb_xmalloc((n ? n : 1) * sizeof *lab->cps);
	lab->ncps = 0;
	for (size_t i = 0; i < n; i++)
		if (all[i].accepted)
			lab->cps[lab->ncps++] = (struct hist_cp){ .cp = all[i], .series = owner[i] };
	free(all);
	free(owner);
	index_points(lab);
	for (size_t k = 0; k < lab->ncps; k++)
		confirm(db, lab, k, o->alpha);
	for (size_t k = 0; k < lab->ncps; k++)
		place(lab, &lab->cps[k]);
}

/* ---- the analysis kept in the database ---- */

static void stamp_of(const struct hist_lab *lab, const struct hist_opts *o, char *buf, size_t len)
{
	long long max = 0;

	for (size_t i = 0; i < lab->nruns; i++)
		if (lab->runs[i].id > max)
			max = lab->runs[i].id;
	snprintf(buf, len, "method=1 runs=%zu max=%lld min_segment=%zu fdr=%.17g alpha=%.17g",
		 lab->nruns, max, o->min_seg, o->q, o->alpha);
}

/* 1 when the kept analysis was made from these runs with these options;
 * its counts then go into lab. */
static int fresh(struct hdb *db, const char *stamp, struct hist_lab *lab)
{
	struct hstmt *s = hdb_prepare(db, "SELECT stamp, series, tests, cutoff FROM analysis "
				      "WHERE id = 1");
	int ok = hst_step(s) == 1 && strcmp(hst_col_text(s, 0), stamp) == 0;

	if (ok) {
		lab->all_series = (size_t)hst_col_int(s, 1);
		lab->tests = (size_t)hst_col_int(s, 2);
		lab->cutoff = hst_col_double(s, 3);
	}
	hst_free(s);
	return ok;
}

static void store_point(struct hstmt *s, const struct hist_lab *lab, const struct hist_cp *c)
{
	const struct hist_series *se = &lab->series[c->series];
	const struct hist_point *b = &se->pt[c->cp.at - 1], *a = &se->pt[c->cp.at];

	hst_int(s, 1, lab->board_ids[se->board]);
	hst_int(s, 2, lab->metrics[se->metric].id);
	hst_int(s, 3, lab->runs[se->runs[b->first + b->n - 1]].id);
	hst_int(s, 4, lab->runs[se->runs[a->first]].id);
	hst_double(s, 5, c->cp.p);
	hst_double(s, 6, c->cp.ratio);
	hst_double(s, 7, c->ratio);
	hst_double(s, 8, c->lo);
	hst_double(s, 9, c->hi);
	hst_double(s, 10, c->mw_p);
	hst_int(s, 11, c->confirmed);
	hst_text(s, 12, c->scope);
	hst_step(s);
	hst_reset(s);
}

/* Keeps the analysis; a database this user may not write is no error. */
static void store(struct hdb *db, const struct hist_lab *lab, const char *stamp)
{
	struct hstmt *s;

	hdb_soft(db, 1);
	if (hdb_begin(db, 1) == 0 && hdb_lock(db) == 0) {
		hdb_exec(db, "DELETE FROM change_points");
		hdb_exec(db, "DELETE FROM analysis");
		s = hdb_prepare(db, "INSERT INTO change_points (board_id, metric_id, before_run, "
				"after_run, p, ratio, hl, lo, hi, mw_p, confirmed, scope) "
				"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
		for (size_t k = 0; s && k < lab->ncps && !hdb_failed(db); k++)
			store_point(s, lab, &lab->cps[k]);
		hst_free(s);
		s = hdb_prepare(db, "INSERT INTO analysis (id, stamp, series, tests, cutoff) "
				"VALUES (1, ?, ?, ?, ?)");
		if (s) {
			hst_text(s, 1, stamp);
			hst_int(s, 2, (long long)lab->nseries);
			hst_int(s, 3, (long long)lab->tests);
			hst_double(s, 4, lab->cutoff);
			hst_step(s);
		}
		hst_free(s);
		if (hdb_failed(db) || hdb_commit(db))
			hdb_rollback(db);
	}
	hdb_soft(db, 0);
}

/* The unit of series s that holds run id `run`, or SIZE_MAX. */
static size_t unit_of(const struct hist_lab *lab, const struct hist_series *s, long long run)
{
	for (size_t u = 0; u < s->npt; u++)
		for (size_t k = 0; k < s->pt[u].n; k++)
			if (lab->runs[s->runs[s->pt[u].first + k]].id == run)
				return u;
	return SIZE_MAX;
}

static struct hist_series *series_of(struct hist_lab *lab, long long board_id, long long metric_id)
{
	for (size_t i = 0; i < lab->nseries; i++)
		if (lab->board_ids[lab->series[i].board] == board_id &&
		    lab->metrics[lab->series[i].metric].id == metric_id)
			return &lab->series[i];
	return NULL;
}

static int metric_loaded(const struct hist_lab *lab, long long metric_id)
{
	for (size_t i = 0; i < lab->nseries; i++)
		if (lab->metrics[lab->series[i].metric].id == metric_id)
			return 1;
	return 0;
}

/* The kept points (of one metric, or all), and the series they are on. */
static void load_kept(struct hdb *db, struct hist_lab *lab, long long metric_id)
{
	struct hstmt *s = hdb_prepare(db, metric_id < 0
		? "SELECT board_id, metric_id, after_run, p, ratio, hl, lo, hi, mw_p, confirmed, scope "
		  "FROM change_points"
		: "SELECT board_id, metric_id, after_run, p, ratio, hl, lo, hi, mw_p, confirmed, scope "
		  "FROM change_points WHERE metric_id = ?");
	size_t cap = 0;

	if (metric_id >= 0)
		hst_int(s, 1, metric_id);
	while (hst_step(s) == 1) {
		long long mid = hst_col_int(s, 1);
		if (!metric_loaded(lab, mid))
			load_series(db, lab, mid, -1);
		struct hist_series *se = series_of(lab, hst_col_int(s, 0), mid);
		size_t at = se ? unit_of(lab, se, hst_col_int(s, 2)) : SIZE_MAX;
		if (at == SIZE_MAX || at == 0)
			continue;
		if (lab->ncps == cap)
			lab->cps = bb_xrealloc(lab->cps, (cap = cap ? 2 * cap : 16) * sizeof *lab->cps);
		struct hist_cp *c = &lab->cps[lab->ncps++];
		memset(c, 0, sizeof *c);
		c->series = (size_t)(se - lab->series);
		c->cp.at = at;
		c->cp.p = hst_col_double(s, 3);
		c->cp.ratio = hst_col_double(s, 4);
		c->cp.accepted = 1;
		c->ratio = hst_col_double(s, 5);
		c->lo = hst_col_double(s, 6);
		c->hi = hst_col_double(s, 7);
		c->mw_p = hst_col_double(s, 8);
		c->confirmed = (int)hst_col_int(s, 9);
		snprintf(c->scope, sizeof c->scope, "%s", hst_col_text(s, 10));
	}
	hst_free(s);
	index_points(lab);
}

static long long metric_id_of(const struct hist_lab *lab, const char *key)
{
	for (size_t i = 0; i < lab->nmetrics; i++)
		if (strcmp(lab->metrics[i].key, key) == 0)
			return lab->metrics[i].id;
	return -1;
}

void hist_lab_basics(struct hdb *db, struct hist_lab *lab)
{
	memset(lab, 0, sizeof *lab);
	load_boards(db, lab);
	load_metrics(db, lab);
	load_runs(db, lab);
	lab->facts = bb_xcalloc(1, sizeof *lab->facts);
	lab->facts->run = bb_xcalloc(lab->nruns ? lab->nruns : 1, sizeof *lab->facts->run);
	lab->facts->have = bb_xcalloc(lab->nruns ? lab->nruns : 1, 1);
}

/* Reads the lab: every series when all, else (with a fresh kept
 * analysis) only the series of o->metric and those with points. */
static void lab_load(struct hdb *db, const struct hist_opts *o, struct hist_lab *lab, int all)
{
	char stamp[256];
	long long mid = -1;

	hist_lab_basics(db, lab);
	lab->min_seg = o->min_seg;
	if (o->metric)
		mid = metric_id_of(lab, o->metric);
	stamp_of(lab, o, stamp, sizeof stamp);
	if (!o->label && fresh(db, stamp, lab)) {
		if (all || mid >= 0)
			load_series(db, lab, all ? -1 : mid, -1);
		load_kept(db, lab, all ? -1 : mid);
		return;
	}
	if (o->label)
		filter_label(db, lab, o->label);
	load_series(db, lab, -1, -1);
	lab->all_series = lab->nseries;
	analyse(db, lab, o);
	if (!o->label)
		store(db, lab, stamp);
}

void hist_lab_load(struct hdb *db, const struct hist_opts *o, struct hist_lab *lab)
{
	lab_load(db, o, lab, 0);
}

void hist_lab_load_all(struct hdb *db, const struct hist_opts *o, struct hist_lab *lab)
{
	lab_load(db, o, lab, 1);
}

struct hist_series *hist_find_series(struct hist_lab *lab, const char *key, const char *board)
{
	for (size_t i = 0; i < lab->nseries; i++) {
		struct hist_series *s = &lab->series[i];
		if (strcmp(lab->metrics[s->metric].key, key) == 0 &&
		    strcmp(lab->boards[s->board], board) == 0)
			return s;
	}
	return NULL;
}

void hist_lab_free(struct hist_lab *lab)
{
	for (size_t i = 0; i < lab->nboards; i++)
		free(lab->boards[i]);
	for (size_t i = 0; i < lab->nmetrics; i++) {
		struct hist_metric *m = &lab->metrics[i];
		free(m->key);
		free(m->applet);
		free(m->unit);
		free(m->disp_unit);
	}
	for (size_t i = 0; i < lab->nruns; i++) {
		free(lab->runs[i].started);
		free(lab->runs[i].boot);
		if (lab->facts && lab->facts->have[i])
			bb_rrun_free(&lab->facts->run[i]);
	}
	if (lab->facts) {
		free(lab->facts->run);
		free(lab->facts->have);
		free(lab->facts);
	}
	for (size_t i = 0; i < lab->nseries; i++) {
		free(lab->series[i].runs);
		free(lab->series[i].median);
		free(lab->series[i].pt);
	}
	free(lab->boards);
	free(lab->board_ids);
	free(lab->metrics);
	free(lab->runs);
	free(lab->series);
	free(lab->cps);
	memset(lab, 0, sizeof *lab);
}
