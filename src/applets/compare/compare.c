/* compare.c - the `compare` applet: reads the runs of A and B (or splits
 * one set by a label, --by), pools the samples of each metric key on each
 * side, tests every key both sides have, and decides the verdicts under
 * the suite-wide control of false claims (multi.h).  When both sides have
 * at least COMPARE_MIN_RUNS runs holding a key, the test is Welch's t on
 * the log of each run's median (the run is the unit of replication;
 * power.h); otherwise Mann-Whitney U and the Hodges-Lehmann interval on
 * the pooled samples (abstats.h), held to a noise threshold no smaller
 * than how far the CPU's own speed moved (core/calib.c).  --variants
 * compares two variants of the same run(s) instead.  Every verdict is
 * decided over all metrics before --filter or --only choose what is
 * printed, so a view never changes a verdict.  Printing: compare_print.c;
 * keys: metrics.c; files: reader.c, toolio.c; the runs' headers and what
 * differs between the sides: runinfo.c. */
#include "core/applet.h"
#include "core/error.h"
#include "core/calib.h"
#include "core/cli.h"
#include "applets/compare/compare.h"
#include "analysis/power.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- pooling ---- */

struct ref {
	const struct bb_metric *m;
	const char *key;
	size_t idx;
};

static int cmp_ref(const void *x, const void *y)
{
	const struct ref *a = x, *b = y;
	int c = strcmp(a->key, b->key);
	return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

/* The metrics this side contributes: all, or those of one variant. */
static struct ref *select_metrics(const struct bb_metrics *ms, const char *variant, size_t *n)
{
	struct ref *r = bb_xcalloc(ms->n, sizeof *r);

	*n = 0;
	for (size_t i = 0; i < ms->n; i++) {
		const struct bb_metric *m = &ms->m[i];
		const char *key = variant ? m->group : m->key;
		if (variant && strcmp(m->variant, variant) != 0)
			continue;
		r[(*n)++] = (struct ref){ m, key, i };
	}
	qsort(r, *n, sizeof *r, cmp_ref);
	return r;
}

/* Ends the run whose samples begin at run_start: keeps its figure (the
 * figure it printed, else the median of its samples) and its boot. */
static void pool_close_run(struct pool *p)
{
	struct bb_figures f;
	const char *boot;

	if (p->n > p->run_start) {
		bb_metric_figures(p->v + p->run_start, p->n - p->run_start, BB_BETTER_UNKNOWN, &f);
		boot = bb_rkv_str(&p->last->system, "boot.id");
		p->fig = bb_xrealloc(p->fig, (p->runs + 1) * sizeof *p->fig);
		p->boot = bb_xrealloc(p->boot, (p->runs + 1) * sizeof *p->boot);
		p->fig[p->runs] = p->fig_n > 0 ? exp(p->fig_log / p->fig_n) : f.median;
		p->boot[p->runs++] = boot ? boot : "";
	}
	p->run_start = p->n;
	p->fig_log = p->fig_n = 0;
}

static void pool_add(struct pool *p, const struct bb_metric *m)
{
	if (p->last && m->run != p->last)
		pool_close_run(p);
	p->last = m->run;
	if (isfinite(m->run_fig)) {
		p->fig_log += log(m->run_fig);
		p->fig_n++;
	}
	p->v = bb_xrealloc(p->v, (p->n + m->n) * sizeof *p->v);
	memcpy(p->v + p->n, m->v, m->n * sizeof *p->v);
	p->n += m->n;
	if (m->bad && !p->bad)
		p->bad = m->bad;
	if (strcmp(m->unit, p->m->unit) != 0)
		p->unit_mixed = 1;
}

static void build_pools(const struct bb_metrics *ms, const char *variant, struct pools *out)
{
	size_t n, i = 0;
	struct ref *r = select_metrics(ms, variant, &n);

	out->p = bb_xcalloc(n, sizeof *out->p);
	out->n = 0;
	while (i < n) {
		struct pool *p = &out->p[out->n++];
		p->key = r[i].key;
		p->m = r[i].m;
		p->order = r[i].idx;
		for (; i < n && strcmp(r[i].key, p->key) == 0; i++)
			pool_add(p, r[i].m);
		pool_close_run(p);
	}
	free(r);
}

static void pools_free(struct pools *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		free(ps->p[i].v);
		free(ps->p[i].fig);
		free(ps->p[i].boot);
	}
	free(ps->p);
}

/* ---- testing one key ---- */

double compare_speedup(const struct row *r)
{
	double ratio = r->ab.ratio;
	return (r->a->m->better == BB_BETTER_LOWER ? 1 / ratio : ratio) - 1;
}

/* The figure of each boot of a pool: the geometric mean of its runs'
 * figures, into out (at least p->runs long); their count, or 0 when a run
 * does not record its boot. */
static size_t boot_figures(const struct pool *p, double *out)
{
	size_t n = 0;

	for (size_t i = 0; i < p->runs; i++) {
		double s = 0, k = 0;
		size_t j;
		if (!p->boot[i][0])
			return 0;
		for (j = 0; j < i && strcmp(p->boot[j], p->boot[i]); j++)
			;
		if (j < i)
			continue;            /* this boot is done */
		for (j = i; j < p->runs; j++)
			if (!strcmp(p->boot[j], p->boot[i])) {
				s += log(p->fig[j]);
				k++;
			}
		out[n++] = exp(s / k);
	}
	return n;
}

/* Welch's t on the logs of the na and nb run (or boot) figures: ratio,
 * interval and p into r->ab, the figures' geometric means into xa, xb.
 * Nothing changes when a figure is not positive (a run whose median count
 * is 0): the row stays on pooled samples. */
static void test_units(struct row *r, enum basis basis, const double *a, size_t na,
		       const double *b, size_t nb, double alpha)
{
	struct bb_welch w;

	if (bb_welch_log(a, na, b, nb, alpha, &w))
		return;
	r->basis = basis;
	r->ua = na;
	r->ub = nb;
	r->ab.ratio = w.ratio;
	r->ab.lo = w.lo;
	r->ab.hi = w.hi;
	r->ab.mwu.p = w.p;
	r->ab.have_p = 1;
	r->xa = w.mean_a;
	r->xb = w.mean_b;
	r->sd = w.sd;
	r->test = "welch";
	r->per_run = 1;
}

/* Boots when both sides hold the key in enough boots, else runs when in
 * enough runs: the unit of replication; pooled samples stay otherwise. */
static void test_replicated(struct row *r, double alpha)
{
	double *ba = bb_xcalloc(r->a->runs, sizeof *ba), *bb = bb_xcalloc(r->b->runs, sizeof *bb);
	size_t na = boot_figures(r->a, ba), nb = boot_figures(r->b, bb);

	if (na >= COMPARE_MIN_RUNS && nb >= COMPARE_MIN_RUNS)
		test_units(r, BASIS_BOOTS, ba, na, bb, nb, alpha);
	else if (r->a->runs >= COMPARE_MIN_RUNS && r->b->runs >= COMPARE_MIN_RUNS)
		test_units(r, BASIS_RUNS, r->a->fig, r->a->runs, r->b->fig, r->b->runs, alpha);
	free(ba);
	free(bb);
}

/* Tests one key; the verdict waits for the suite-wide control (decide). */
static void compare_row(struct row *r, struct cmp *c)
{
	const struct compare_opts *o = c->o;
	const struct bb_metric *m = r->a->m;

	r->sd = r->detectable = NAN;
	r->threshold = o->threshold;
	r->twin = m->twin != NULL;
	r->evidence = strcmp(m->applet, BB_CALIB_APPLET) == 0;
	r->skip = r->a->bad ? r->a->bad : r->b->bad;
	if (!r->skip && (r->a->unit_mixed || r->b->unit_mixed || strcmp(m->unit, r->b->m->unit)))
		r->skip = "the units differ (e.g. ticks and cycles)";
	if (r->skip)
		return;
	bb_metric_figures(r->a->v, r->a->n, m->better, &r->fa);
	bb_metric_figures(r->b->v, r->b->n, m->better, &r->fb);
	if (bb_median_ratio(r->a->v, r->a->n, r->b->v, r->b->n, o->alpha, &r->ab)) {
		r->skip = "a value that is not a positive number";
		return;
	}
	r->basis = BASIS_SAMPLES;
	r->xa = r->fa.median;
	r->xb = r->fb.median;
	r->ua = r->a->n;
	r->ub = r->b->n;
	r->test = r->ab.mwu.exact ? "mwu-exact" : "mwu-normal";
	test_replicated(r, o->alpha);
	if (!r->per_run && c->floor > r->threshold && !r->evidence) {
		r->threshold = c->floor;   /* pooled: the machine's drift is noise they cannot show */
		c->floored++;
	}
}

/* ---- headlines: the number each applet's classic report quotes ---- */

int compare_in_family(const struct row *r)
{
	return !r->skip && !r->twin && !r->evidence;
}

/* Row i of applet `name` could head it. */
static int candidate(const struct cmp *c, size_t i, const char *name)
{
	const struct row *r = &c->rows[i];
	return compare_in_family(r) && r->ab.have_p && !strcmp(r->a->m->applet, name);
}

/* The row that heads applet `name`, or NULL: the first of its headline's
 * keys ('*' as in fnmatch, also matching the '*' of --variants keys) that
 * the runs have, in the applet's order of preference (core/applet.h);
 * without a match its first row, or its last (lat: the largest size). */
static struct row *find_headline(struct cmp *c, const char *name)
{
	const struct bb_applet *a = bb_applet_find(name);
	const struct bb_headline *h = a ? a->headline : NULL;
	struct row *pick = NULL;

	for (size_t k = 0; h && k < 4 && h->keys[k]; k++)
		for (size_t i = 0; i < c->n; i++)
			if (candidate(c, i, name) && !fnmatch(h->keys[k], c->rows[i].a->key, 0))
				return &c->rows[i];
	for (size_t i = 0; i < c->n; i++)
		if (candidate(c, i, name) && (!pick || (h && h->last)))
			pick = &c->rows[i];
	return pick;
}

static void mark_headlines(struct cmp *c)
{
	for (size_t i = 0; i < c->n; i++) {
		const char *name = c->rows[i].a->m->applet;
		size_t j;
		for (j = 0; j < i && strcmp(c->rows[j].a->m->applet, name); j++)
			;
		if (j < i || strcmp(name, BB_CALIB_APPLET) == 0)
			continue;            /* done already, or outside the control */
		struct row *h = find_headline(c, name);
		if (h)
			h->headline = 1;
	}
}

/* ---- the verdicts, under the suite-wide control ---- */

/* The change these runs would have found with 80% power: the test's own
 * at its level, but never below the noise threshold. */
static double detectable(const struct row *r)
{
	double d;

	if (!r->per_run || !isfinite(r->sd))
		return NAN;
	d = bb_detectable(r->sd, r->ua, r->ub, r->level);
	return fmax(d, r->threshold);
}

static void decide(struct cmp *c)
{
	struct bb_fam_item *it = bb_xcalloc(c->n ? c->n : 1, sizeof *it);

	mark_headlines(c);
	for (size_t i = 0; i < c->n; i++) {
		const struct row *r = &c->rows[i];
		it[i] = (struct bb_fam_item){
			.applet = r->a->m->applet,
			.p = !r->skip && r->ab.have_p ? r->ab.mwu.p : NAN,
			.headline = r->headline,
			.twin = r->twin,
			.outside = r->evidence,
		};
	}
	c->napps = bb_fam_decide(it, c->n, c->o->alpha, c->apps,
				 sizeof c->apps / sizeof c->apps[0]);
	for (size_t i = 0; i < c->n; i++) {
		struct row *r = &c->rows[i];
		r->significant = it[i].significant;
		r->level = it[i].level;
		if (r->skip)
			continue;
		r->v = r->twin ? BB_V_TWIN : !r->ab.have_p ? BB_V_FEW
		       : r->significant ? bb_size_verdict(&r->ab, r->a->m->better, r->threshold)
					: BB_V_SAME;
		if (!r->twin && !r->evidence)
			r->detectable = detectable(r);
	}
	free(it);
}

/* How far the CPU's speed moved on one side: the calib timings' spread. */
static double calib_spread(const struct pools *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		if (strcmp(ps->p[i].key, BB_CALIB_KEY) == 0 && !ps->p[i].bad)
			return bb_group_spread(ps->p[i].v, ps->p[i].n, BB_CALIB_PER_CALL);
	return 0;
}

static int cmp_row_order(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	return (a->a->order > b->a->order) - (a->a->order < b->a->order);
}

/* A row is printed when it passes --filter (a key substring) and --only
 * (applets); neither changes what was decided. */
static int row_shown(const struct compare_opts *o, const struct row *r)
{
	if (o->filter && !strstr(r->a->key, o->filter))
		return 0;
	if (o->only) {
		const char *applet = r->a->m->applet, *s = o->only;
		size_t len = strlen(applet);
		for (; s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL)
			if (strncmp(s, applet, len) == 0 && (s[len] == ',' || !s[len]))
				return 1;
		return 0;
	}
	return 1;
}

/* Some rows are tested on pooled samples and some per run or boot. */
static int mixed_basis(const struct cmp *c)
{
	int seen = 0;

	for (size_t i = 0; i < c->n; i++)
		if (!c->rows[i].skip && !c->rows[i].evidence)
			seen |= c->rows[i].per_run ? 1 : 2;
	return seen == 3;
}

/* Walks both sorted pool lists: matched keys become rows. */
static void match_pools(struct cmp *c, const struct pools *pa, const struct pools *pb)
{
	size_t i = 0, j = 0;

	c->spread_a = calib_spread(pa);
	c->spread_b = calib_spread(pb);
	/* Variants of one run alternate round by round: drift hits both alike. */
	c->floor = c->o->variants ? 0 : fmax(c->spread_a, c->spread_b);
	c->rows = bb_xcalloc(pa->n < pb->n ? pa->n : pb->n, sizeof *c->rows);
	while (i < pa->n || j < pb->n) {
		int d = i == pa->n ? 1 : j == pb->n ? -1 : strcmp(pa->p[i].key, pb->p[j].key);
		if (d < 0) {
			c->first_only_a = c->only_a++ ? c->first_only_a : pa->p[i].key;
			i++;
		} else if (d > 0) {
			c->first_only_b = c->only_b++ ? c->first_only_b : pb->p[j].key;
			j++;
		} else {
			struct row *r = &c->rows[c->n++];
			r->a = &pa->p[i++];
			r->b = &pb->p[j++];
			compare_row(r, c);
			r->shown = row_shown(c->o, r);
		}
	}
	qsort(c->rows, c->n, sizeof *c->rows, cmp_row_order);
	c->mixed_basis = mixed_basis(c);
	decide(c);
}

/* ---- the applet ---- */

/* A run's metrics, and the checksum totals compare derives from them. */
static void add_run(struct bb_metrics *ms, const struct bb_rrun *run)
{
	size_t from = ms->n;

	bb_metrics_add_run(ms, run);
	bb_metrics_derive(ms, from);
}

void compare_build(struct cmp_built *cb, const struct compare_opts *o, const struct bb_runs *A,
		   const struct bb_runs *B)
{
	memset(cb, 0, sizeof *cb);
	cb->c.o = o;
	for (size_t i = 0; i < A->n; i++)
		add_run(&cb->ma, &A->r[i]);
	for (size_t i = 0; i < B->n && !o->variants; i++)
		add_run(&cb->mb, &B->r[i]);
	build_pools(&cb->ma, o->variants ? o->va : NULL, &cb->pa);
	build_pools(o->variants ? &cb->ma : &cb->mb, o->variants ? o->vb : NULL, &cb->pb);
	match_pools(&cb->c, &cb->pa, &cb->pb);
}

void compare_free(struct cmp_built *cb)
{
	free(cb->c.rows);
	pools_free(&cb->pa);
	pools_free(&cb->pb);
	bb_metrics_free(&cb->ma);
	bb_metrics_free(&cb->mb);
}

/* A side is one board unless --mixed-boards: runs whose board.id differs
 * are two boards, and what tells boards apart would read as the setting's
 * effect.  Runs that record no board.id count as none. */
static void check_boards(const char *tag, const struct bb_runs *s, const struct compare_opts *o)
{
	const char *first = NULL;

	if (o->mixed_boards)
		return;
	for (size_t i = 0; i < s->n; i++) {
		const char *id = bb_rkv_str(&s->r[i].system, "board.id");
		if (!id || !id[0])
			continue;
		if (!first)
			first = id;
		else if (strcmp(first, id) != 0)
			bb_die_usage("%s holds the runs of 2 or more boards (board.id %.16s and %.16s, "
				     "%s): a side is one board; compare boards with --by on a label "
				     "that tells them apart, or pass --mixed-boards to pool them", tag,
				     first, id, s->r[i].path);
	}
}

static int run_compare(const struct compare_opts *o, const struct bb_runs *A,
		       const struct bb_runs *B)
{
	struct cmp_built cb;
	int rc;

	check_boards("A", A, o);
	if (!o->variants)
		check_boards("B", B, o);

	compare_build(&cb, o, A, B);
	rc = compare_print(&cb.c, A, B);
	compare_free(&cb);
	return rc;
}

/* The figure of one pool on its own: boots, runs or pooled samples, as
 * test_replicated chooses for a side. */
static double pool_figure(const struct pool *p)
{
	double *f = bb_xcalloc(p->runs ? p->runs : 1, sizeof *f), s = 0, x;
	size_t n = boot_figures(p, f);
	struct bb_figures fig;

	if (n < COMPARE_MIN_RUNS) {
		n = p->runs;
		memcpy(f, p->fig, n * sizeof *f);
	}
	if (n >= COMPARE_MIN_RUNS) {
		for (size_t i = 0; i < n; i++)
			s += log(f[i]);
		x = exp(s / (double)n);
	} else {
		bb_metric_figures(p->v, p->n, BB_BETTER_UNKNOWN, &fig);
		x = p->n ? fig.median : NAN;
	}
	free(f);
	return x;
}

double compare_figure(const struct bb_runs *runs, const char *key)
{
	struct bb_metrics ms = { 0 };
	struct pools ps;
	double x = NAN;

	for (size_t i = 0; i < runs->n; i++)
		add_run(&ms, &runs->r[i]);
	build_pools(&ms, NULL, &ps);
	for (size_t i = 0; i < ps.n; i++)
		if (!strcmp(ps.p[i].key, key) && !ps.p[i].bad)
			x = pool_figure(&ps.p[i]);
	pools_free(&ps);
	bb_metrics_free(&ms);
	return x;
}

/* ---- --by KEY: one set of runs split by a label ---- */

static int cmp_str(const void *x, const void *y)
{
	return strcmp(((const struct compare_side *)x)->value,
		      ((const struct compare_side *)y)->value);
}

struct compare_side *compare_split_by(const struct bb_runs *all, const char *key, size_t *n,
				      size_t *unlabelled)
{
	struct compare_side *s = bb_xcalloc(all->n ? all->n : 1, sizeof *s);

	*n = *unlabelled = 0;
	for (size_t i = 0; i < all->n; i++) {
		const char *v = bb_rkv_str(&all->r[i].labels, key);
		size_t j;
		if (!v) {
			(*unlabelled)++;
			continue;
		}
		for (j = 0; j < *n && strcmp(s[j].value, v); j++)
			;
		if (j == *n)
			s[(*n)++].value = v;
		struct bb_runs *r = &s[j].runs;
		r->r = bb_xrealloc(r->r, (r->n + 1) * sizeof *r->r);
		r->r[r->n++] = all->r[i];
	}
	qsort(s, *n, sizeof *s, cmp_str);
	return s;
}

static void free_sides(struct compare_side *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i].runs.r);
	free(s);
}

/* "no run has this label; the runs have the labels PMU, rev" (or none). */
static void label_keys(const struct bb_runs *all, char *buf, size_t len)
{
	size_t k = (size_t)snprintf(buf, len, "no run has this label; the runs have ");
	const char *sep = "the labels ";
	size_t shown = 0;

	for (size_t i = 0; i < all->n; i++)
		for (size_t j = 0; j < all->r[i].labels.n; j++) {
			const char *key = all->r[i].labels.v[j].key;
			size_t seen = 0;
			for (size_t p = 0; p <= i && !seen; p++)
				for (size_t q = 0; q < all->r[p].labels.n && !seen; q++)
					seen = (p < i || q < j) && !strcmp(all->r[p].labels.v[q].key, key);
			if (seen || k >= len || shown >= 8)
				continue;
			k += (size_t)snprintf(buf + k, len - k, "%s%s", sep, key);
			sep = ", ";
			shown++;
		}
	if (!shown && k < len)
		snprintf(buf + k, len - k, "no label (run --label KEY=VALUE gives them one)");
}

static int compare_by(const struct compare_opts *o, const struct bb_runs *all)
{
	size_t n, unlabelled, base = 0;
	struct compare_side *s = compare_split_by(all, o->by, &n, &unlabelled);
	int rc = 0;

	if (o->base) {
		for (base = 0; base < n && strcmp(s[base].value, o->base); base++)
			;
		if (base == n) {
			free_sides(s, n);   /* freed before exit, so no leak checker sees a leak */
			bb_die_value("--base", o->base, "no run has this value of the --by label");
		}
	}
	if (n == 0) {
		char why[512];
		free_sides(s, n);   /* freed before exit, so no leak checker sees a leak */
		label_keys(all, why, sizeof why);
		bb_die_value("--by", o->by, why);
	}
	if (n < 2) {
		free_sides(s, n);
		bb_die_usage("--by %s: the runs have 1 value of this label; a comparison needs two",
			     o->by);
	}
	if (unlabelled)
		printf("note: %zu run%s without the label %s left out\n", unlabelled,
		       unlabelled == 1 ? "" : "s", o->by);
	for (size_t i = 0; i < n; i++) {
		if (i == base)
			continue;
		if (n > 2)
			printf("%s==== %s=%s against %s=%s\n", i == (base == 0) ? "" : "\n", o->by,
			       s[i].value, o->by, s[base].value);
		rc |= run_compare(o, &s[base].runs, &s[i].runs);
	}
	free_sides(s, n);
	return rc;
}

int compare_main(int argc, char **argv)
{
	struct compare_opts o;
	struct bb_runs A = { 0 }, B = { 0 };
	int rc;

	compare_parse(argc, argv, &o);
	bb_runs_load(&A, o.a, o.na);
	if (o.by)
		rc = compare_by(&o, &A);
	else {
		if (!o.variants)
			bb_runs_load(&B, o.b, o.nb);
		rc = run_compare(&o, &A, o.variants ? &A : &B);
	}
	bb_runs_free(&A);
	bb_runs_free(&B);
	free(o.args);
	return rc;
}
