/* compare.c - the `compare` applet: reads the runs of A and B, pools the
 * samples of each metric key on each side, and for every key both sides
 * have prints median and best, the Hodges-Lehmann change with its
 * interval, the Mann-Whitney p-value and a verdict, then one summary
 * sentence per applet.  When both sides have at least COMPARE_MIN_RUNS
 * runs holding a key, the test and interval use the median of each run
 * (the run is the unit of replication); otherwise the pooled samples,
 * held to a noise threshold no smaller than how far the CPU's own speed
 * moved (core/calib.c).  --variants compares two variants of the same
 * run(s) instead.  Statistics: abstats.c; keys: metrics.c; files:
 * reader.c, toolio.c; the runs' headers and what differs between the
 * sides (flags, governor, threads, sizes): runinfo.c. */
#include "applets.h"
#include "core/emit.h"
#include "core/error.h"
#include "core/calib.h"
#include "tools/abstats.h"
#include "tools/metrics.h"
#include "tools/runinfo.h"
#include "tools/toolio.h"
#include "tools/toolopts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The spread of the CPU's speed within a side (core/calib.c; slowest
 * timing over fastest, less one) past which compare notes it. */
#define COMPARE_CALIB_SPREAD 0.10

/* Runs a side (holding a key) before a key is tested on per-run medians. */
#define COMPARE_MIN_RUNS 3

/* One key on one side: the samples of every run pooled, and the median of
 * each run's samples. */
struct pool {
	const char *key;
	const struct bb_metric *m;   /* the first metric with this key */
	double *v;
	size_t n;
	const char *bad;             /* why it cannot be compared, or NULL */
	int unit_mixed;              /* the runs of this side disagree on the unit */
	size_t order;                /* where it first appears */
	double *med;                 /* the median of each run's samples */
	size_t runs;                 /* runs with samples of this key */
	size_t run_start;            /* where the samples of the last run begin */
	const struct bb_rrun *last;  /* the run of the last metric added */
};

struct pools {
	struct pool *p;
	size_t n;
};

struct row {
	const struct pool *a, *b;
	struct bb_figures fa, fb;
	struct bb_ab ab;
	enum bb_verdict v;
	const char *skip;            /* why not compared, or NULL */
	int per_run;                 /* tested on per-run medians, not pooled samples */
};

struct cmp {
	const struct compare_opts *o;
	double spread_a, spread_b;   /* how far the CPU's speed moved on each side */
	double floor;                /* the noise threshold for pooled rows */
	size_t floored;              /* pooled rows held to floor, not the threshold */
	struct row *rows;
	size_t n;
	size_t only_a, only_b;
	const char *first_only_a, *first_only_b;
};

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
static struct ref *select_metrics(const struct bb_metrics *ms, const struct compare_opts *o,
				  const char *variant, size_t *n)
{
	struct ref *r = bb_xcalloc(ms->n, sizeof *r);

	*n = 0;
	for (size_t i = 0; i < ms->n; i++) {
		const struct bb_metric *m = &ms->m[i];
		const char *key = variant ? m->group : m->key;
		if (variant && strcmp(m->variant, variant) != 0)
			continue;
		if (o->filter && !strstr(key, o->filter))
			continue;
		r[(*n)++] = (struct ref){ m, key, i };
	}
	qsort(r, *n, sizeof *r, cmp_ref);
	return r;
}

/* Ends the run whose samples begin at run_start: keeps their median. */
static void pool_close_run(struct pool *p)
{
	struct bb_figures f;

	if (p->n > p->run_start) {
		bb_metric_figures(p->v + p->run_start, p->n - p->run_start, BB_BETTER_UNKNOWN, &f);
		p->med = bb_xrealloc(p->med, (p->runs + 1) * sizeof *p->med);
		p->med[p->runs++] = f.median;
	}
	p->run_start = p->n;
}

static void pool_add(struct pool *p, const struct bb_metric *m)
{
	if (p->last && m->run != p->last)
		pool_close_run(p);
	p->last = m->run;
	p->v = bb_xrealloc(p->v, (p->n + m->n) * sizeof *p->v);
	memcpy(p->v + p->n, m->v, m->n * sizeof *p->v);
	p->n += m->n;
	if (m->bad && !p->bad)
		p->bad = m->bad;
	if (strcmp(m->unit, p->m->unit) != 0)
		p->unit_mixed = 1;
}

static void build_pools(const struct bb_metrics *ms, const struct compare_opts *o,
			const char *variant, struct pools *out)
{
	size_t n, i = 0;
	struct ref *r = select_metrics(ms, o, variant, &n);

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
		free(ps->p[i].med);
	}
	free(ps->p);
}

/* ---- comparing ---- */

static void compare_row(struct row *r, struct cmp *c)
{
	const struct compare_opts *o = c->o;
	const struct bb_metric *m = r->a->m;
	double threshold = o->threshold;

	r->skip = r->a->bad ? r->a->bad : r->b->bad;
	if (!r->skip && (r->a->unit_mixed || r->b->unit_mixed || strcmp(m->unit, r->b->m->unit)))
		r->skip = "the units differ (e.g. ticks and cycles)";
	if (r->skip)
		return;
	bb_metric_figures(r->a->v, r->a->n, m->better, &r->fa);
	bb_metric_figures(r->b->v, r->b->n, m->better, &r->fb);
	if (bb_ab_compare(r->a->v, r->a->n, r->b->v, r->b->n, o->alpha, &r->ab)) {
		r->skip = "a value that is not a positive number";
		return;
	}
	r->per_run = r->a->runs >= COMPARE_MIN_RUNS && r->b->runs >= COMPARE_MIN_RUNS;
	if (r->per_run)
		bb_ab_compare(r->a->med, r->a->runs, r->b->med, r->b->runs, o->alpha, &r->ab);
	if (!r->per_run && c->floor > threshold && strcmp(r->a->key, BB_CALIB_KEY) != 0) {
		threshold = c->floor;   /* pooled: the machine's drift is noise they cannot show */
		c->floored++;
	}
	r->v = bb_ab_verdict(&r->ab, m->better, o->alpha, threshold);
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
		}
	}
	qsort(c->rows, c->n, sizeof *c->rows, cmp_row_order);
}

/* ---- printing ---- */

/* Four significant digits, no exponent between 0.001 and 10^9. */
static void fmt_num(char *buf, size_t len, double x)
{
	double a = fabs(x);

	if (a == 0)
		snprintf(buf, len, "0");
	else if (a >= 1e9 || a < 1e-3)
		snprintf(buf, len, "%.3e", x);
	else
		snprintf(buf, len, "%.*f", (int)fmax(0, 3 - floor(log10(a))), x);
}

static void fmt_p(char *buf, size_t len, const struct row *r)
{
	if (!r->ab.have_p)
		snprintf(buf, len, "n<%d", BB_AB_MIN_N);
	else if (r->ab.mwu.p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", r->ab.mwu.p);
}

static int key_width(const struct cmp *c)
{
	int w = 6;

	for (size_t i = 0; i < c->n; i++)
		if ((int)strlen(c->rows[i].a->key) > w)
			w = (int)strlen(c->rows[i].a->key);
	return w > 48 ? 48 : w;
}

static void print_header_row(int kw, double alpha)
{
	char ci[32];

	snprintf(ci, sizeof ci, "%g%% CI of B/A", 100 * (1 - alpha));
	printf("  %-*s %10s %10s %10s %10s %-10s %7s  %-17s %6s  %s\n", kw, "metric", "A median",
	       "A best", "B median", "B best", "unit", "change", ci, "p", "verdict");
}

static void print_row(const struct row *r, int kw)
{
	const struct bb_metric *m = r->a->m;
	char am[32], ab[32], bm[32], bbest[32], p[16], ci[48];
	double s = m->disp_scale;

	if (r->skip) {
		printf("  %-*s not compared: %s\n", kw, r->a->key, r->skip);
		return;
	}
	fmt_num(am, sizeof am, r->fa.median * s);
	fmt_num(ab, sizeof ab, r->fa.best * s);
	fmt_num(bm, sizeof bm, r->fb.median * s);
	fmt_num(bbest, sizeof bbest, r->fb.best * s);
	fmt_p(p, sizeof p, r);
	if (r->ab.have_p)
		snprintf(ci, sizeof ci, "[%+.1f%%, %+.1f%%]", 100 * (r->ab.lo - 1),
			 100 * (r->ab.hi - 1));
	else
		snprintf(ci, sizeof ci, "-");
	printf("  %-*s %10s %10s %10s %10s %-10s %+6.1f%%  %-17s %6s  %s\n", kw, r->a->key, am, ab,
	       bm, bbest, m->disp_unit, 100 * (r->ab.ratio - 1), ci, p, bb_verdict_name(r->v));
}

static void print_table(const struct cmp *c)
{
	int kw = key_width(c);
	const char *applet = NULL;

	for (size_t i = 0; i < c->n; i++) {
		const struct row *r = &c->rows[i];
		if (!applet || strcmp(applet, r->a->m->applet) != 0) {
			applet = r->a->m->applet;
			printf("\n%s\n", applet);
			print_header_row(kw, c->o->alpha);
		}
		print_row(r, kw);
	}
}

/* ---- the summary sentence of each applet ---- */

struct tally {
	size_t total, count[BB_V_COUNT], skipped;
	size_t few_runs;             /* of count[BB_V_FEW]: too few runs, not samples */
	double lo[BB_V_COUNT], hi[BB_V_COUNT], pmax[BB_V_COUNT];
};

/* How much faster B is (negative: slower), whatever the unit. */
static double speedup(const struct row *r)
{
	double ratio = r->ab.ratio;
	return (r->a->m->better == BB_BETTER_LOWER ? 1 / ratio : ratio) - 1;
}

static void tally_row(struct tally *t, const struct row *r)
{
	double g = fabs(speedup(r));

	if (r->a->m->aux)
		return;
	t->total++;
	if (r->skip) {
		t->skipped++;
		return;
	}
	t->few_runs += r->v == BB_V_FEW && r->per_run;
	if (!t->count[r->v]++) {
		t->lo[r->v] = t->hi[r->v] = g;
		t->pmax[r->v] = r->ab.mwu.p;
	}
	t->lo[r->v] = fmin(t->lo[r->v], g);
	t->hi[r->v] = fmax(t->hi[r->v], g);
	t->pmax[r->v] = fmax(t->pmax[r->v], r->ab.mwu.p);
}

static void fmt_pbound(char *buf, size_t len, double p)
{
	static const double bounds[] = { 0.001, 0.01, 0.05 };

	for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
		if (p < bounds[i]) {
			snprintf(buf, len, "p<%g", bounds[i]);
			return;
		}
	snprintf(buf, len, "p<=%.2g", p);
}

static void fmt_range(char *buf, size_t len, const struct tally *t, enum bb_verdict v)
{
	if (fabs(t->hi[v] - t->lo[v]) < 0.0005)
		snprintf(buf, len, "%.1f%%", 100 * t->lo[v]);
	else
		snprintf(buf, len, "%.1f%% to %.1f%%", 100 * t->lo[v], 100 * t->hi[v]);
}

static void say_direction(const struct tally *t, enum bb_verdict v, const char *word, int first)
{
	char range[64], p[32];

	fmt_range(range, sizeof range, t, v);
	fmt_pbound(p, sizeof p, t->pmax[v]);
	if (first)
		printf("B is %s %s (%zu of %zu metrics, %s)", range, word, t->count[v], t->total, p);
	else
		printf(" and %s %s on %zu (%s)", range, word, t->count[v], p);
}

/* "N with fewer than 5 samples a side", or runs, or both. */
static void say_few(const struct tally *t)
{
	size_t runs = t->few_runs, samples = t->count[BB_V_FEW] - runs;

	if (samples)
		printf("%zu with fewer than %d samples a side", samples, BB_AB_MIN_N);
	if (samples && runs)
		printf(" and ");
	if (runs)
		printf("%zu with fewer than %d runs a side", runs, BB_AB_MIN_N);
}

static void say_quiet(const struct tally *t)
{
	static const struct {
		enum bb_verdict v;
		const char *what;
	} parts[] = {
		{ BB_V_SAME, "no significant change" },
		{ BB_V_NOISE, "within noise" },
		{ BB_V_FEW, NULL },
	};
	const char *sep = "";

	if (!t->count[BB_V_SAME] && !t->count[BB_V_NOISE]) {
		printf("not tested (%zu metric%s: ", t->total, t->total == 1 ? "" : "s");
		say_few(t);
		if (t->skipped)
			printf(", %zu not compared", t->skipped);
		printf(")");
		return;
	}
	printf("no change beyond noise (%zu metric%s:", t->total, t->total == 1 ? "" : "s");
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		if (t->count[parts[i].v]) {
			printf("%s ", sep);
			if (parts[i].v == BB_V_FEW)
				say_few(t);
			else
				printf("%zu %s", t->count[parts[i].v], parts[i].what);
			sep = ",";
		}
	if (t->skipped)
		printf("%s %zu not compared", sep, t->skipped);
	printf(")");
}

static void say_tally(const char *applet, const struct tally *t)
{
	size_t up = t->count[BB_V_IMPROVED], down = t->count[BB_V_REGRESSED];

	printf("%s: ", applet);
	if (up)
		say_direction(t, BB_V_IMPROVED, "faster", 1);
	if (down)
		say_direction(t, BB_V_REGRESSED, "slower", !up);
	if (!up && !down)
		say_quiet(t);
	if (t->count[BB_V_DIFFERS])
		printf("; %zu differ (which way is better is not known)", t->count[BB_V_DIFFERS]);
	printf("\n");
}

static void print_summary(const struct cmp *c)
{
	printf("\nSummary (alpha %g, noise threshold %g%%", c->o->alpha, 100 * c->o->threshold);
	if (c->floored)
		printf("; %.0f%% on pooled samples, as far as the CPU's speed moved", 100 * c->floor);
	printf("):\n");
	for (size_t i = 0; i < c->n; i++) {
		const char *applet = c->rows[i].a->m->applet;
		struct tally t;
		size_t j;
		for (j = 0; j < i && strcmp(c->rows[j].a->m->applet, applet); j++)
			;
		if (j < i)
			continue;        /* already said */
		memset(&t, 0, sizeof t);
		for (j = i; j < c->n; j++)
			if (strcmp(c->rows[j].a->m->applet, applet) == 0)
				tally_row(&t, &c->rows[j]);
		if (t.total)
			say_tally(applet, &t);
	}
}

/* Rows that were compared with the given basis and, if few, no test. */
static size_t count_rows(const struct cmp *c, int per_run, int few)
{
	size_t k = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct row *r = &c->rows[i];
		k += !r->skip && r->per_run == per_run && (!few || r->v == BB_V_FEW);
	}
	return k;
}

/* y was tested on per-run medians with as many runs a side as x. */
static int same_runs(const struct row *x, const struct row *y)
{
	return !y->skip && y->per_run && x->a->runs == y->a->runs && x->b->runs == y->b->runs;
}

/* Says which rows were tested on per-run medians, one line for each pair
 * of run counts, and how many on pooled samples. */
static void print_basis(const struct cmp *c)
{
	size_t pooled = count_rows(c, 0, 0), per_run = count_rows(c, 1, 0);
	const char *eg = NULL;

	for (size_t i = 0; i < c->n; i++) {
		const struct row *r = &c->rows[i];
		size_t j, k = 0;
		if (!same_runs(r, r))
			continue;
		for (j = 0; j < i && !same_runs(r, &c->rows[j]); j++)
			;
		if (j < i)
			continue;        /* already said */
		for (j = i; j < c->n; j++)
			k += same_runs(r, &c->rows[j]);
		printf("note: %zu metrics tested on per-run medians (%zu vs %zu runs)\n", k,
		       r->a->runs, r->b->runs);
	}
	for (size_t i = 0; i < c->n && !eg; i++)
		if (!c->rows[i].skip && !c->rows[i].per_run)
			eg = c->rows[i].a->key;
	if (pooled && per_run)
		printf("note: %zu metrics tested on pooled samples (fewer than %d runs hold them on "
		       "a side, e.g. %s)\n", pooled, COMPARE_MIN_RUNS, eg);
	else if (pooled)
		printf("note: tested on pooled samples (fewer than %d runs a side)\n",
		       COMPARE_MIN_RUNS);
}

/* The CPU's own speed (core/calib.c, timed between the applets of a quick
 * suite run): when it differs between A and B, or moves within a side,
 * single-thread figures may have moved with the machine, not the change.
 * How far it moved is also the noise threshold of rows tested on pooled
 * samples (compare_row): they cannot see that drift otherwise. */
static void warn_calib(const struct cmp *c)
{
	static const char why[] = "may have moved with the machine (clock, heat, a busy host), "
				  "not with what was changed";

	for (size_t i = 0; i < c->n; i++) {
		const struct row *r = &c->rows[i];
		if (r->skip || strcmp(r->a->key, BB_CALIB_KEY) != 0)
			continue;
		if (r->v == BB_V_IMPROVED || r->v == BB_V_REGRESSED)
			printf("warning: the CPU itself ran %.1f%% %s in B (%s, p %.2g): "
			       "single-thread figures %s\n", 100 * fabs(speedup(r)),
			       r->v == BB_V_IMPROVED ? "faster" : "slower", BB_CALIB_KEY,
			       r->ab.mwu.p, why);
	}
	if (c->floored)
		printf("note: the CPU's speed moved by %.0f%% within A and %.0f%% within B (%s, "
		       "slowest timing over fastest): run-to-run noise of that size is what pooled "
		       "samples cannot show, so %zu metrics tested on them are held to a noise "
		       "threshold of %.0f%%, not %g%%; give each side 3 or more runs\n",
		       100 * c->spread_a, 100 * c->spread_b, BB_CALIB_KEY, c->floored,
		       100 * c->floor, 100 * c->o->threshold);
	else if (c->floor > COMPARE_CALIB_SPREAD)
		printf("note: the CPU's speed moved by %.0f%% within A and %.0f%% within B (%s, "
		       "slowest timing over fastest): single-thread figures %s\n",
		       100 * c->spread_a, 100 * c->spread_b, BB_CALIB_KEY, why);
}

static void print_notes(const struct cmp *c)
{
	size_t few = count_rows(c, 0, 1), few_runs = count_rows(c, 1, 1);

	if (few || few_runs)
		printf("\n");
	if (few)
		printf("warning: %zu metrics have fewer than %d samples on a side: no p-value and "
		       "no verdict; fewer samples are unreliable (take more: stream -N, csum --reps, "
		       "mem --repeat, lat --samples; or pool several runs)\n", few, BB_AB_MIN_N);
	if (few_runs)
		printf("warning: %zu metrics are tested on per-run medians with fewer than %d runs "
		       "on a side: no p-value and no verdict, the change is only an estimate (a rank "
		       "test on 3 runs a side cannot reach p<0.05); give each side %d or more runs\n",
		       few_runs, BB_AB_MIN_N, BB_AB_MIN_N);
	if (c->n && !few && !few_runs)
		printf("\n");
	print_basis(c);
	warn_calib(c);
	if (c->only_a)
		printf("note: %zu metrics only in A (e.g. %s)\n", c->only_a, c->first_only_a);
	if (c->only_b)
		printf("note: %zu metrics only in B (e.g. %s)\n", c->only_b, c->first_only_b);
}

/* ---- CSV ---- */

static void csv_num(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, ",%.17g", x);
	else
		fputc(',', f);
}

static void csv_row(FILE *f, const struct row *r)
{
	const struct bb_metric *m = r->a->m;

	bb_csv_field(f, r->a->key);
	fputc(',', f);
	bb_csv_field(f, m->applet);
	fprintf(f, ",%s,", m->quantity);
	bb_csv_field(f, m->unit);
	fprintf(f, ",%s,%zu,%zu", m->better > 0 ? "higher" : m->better < 0 ? "lower" : "unknown",
		r->a->n, r->b->n);
	if (r->skip) {
		fprintf(f, ",,,,,,,,,,,not compared,\n");
		return;
	}
	csv_num(f, r->fa.median);
	csv_num(f, r->fb.median);
	csv_num(f, r->fa.best);
	csv_num(f, r->fb.best);
	csv_num(f, r->ab.ratio);
	csv_num(f, r->ab.lo);
	csv_num(f, r->ab.hi);
	csv_num(f, r->ab.mwu.u);
	csv_num(f, r->ab.have_p ? r->ab.mwu.p : NAN);
	fprintf(f, ",%s,%s,%s\n", r->ab.have_p ? (r->ab.mwu.exact ? "exact" : "normal") : "",
		bb_verdict_name(r->v), r->per_run ? "run_medians" : "samples");
}

static int write_csv(const struct cmp *c, const char *path)
{
	struct bb_out out;

	if (bb_out_open(&out, path))
		return 1;
	fprintf(out.f, "key,applet,quantity,unit,better,n_a,n_b,median_a,median_b,best_a,best_b,"
		       "ratio,ci_low,ci_high,u,p,p_method,verdict,basis\n");
	for (size_t i = 0; i < c->n; i++)
		csv_row(out.f, &c->rows[i]);
	return bb_out_close(&out) ? 1 : 0;
}

/* ---- the applet ---- */

static int any_regressed(const struct cmp *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (!c->rows[i].skip && c->rows[i].v == BB_V_REGRESSED && !c->rows[i].a->m->aux)
			return 1;
	return 0;
}

static int report_compare(struct cmp *c, const struct bb_runs *A, const struct bb_runs *B)
{
	const struct compare_opts *o = c->o;
	int rc = 0;

	bb_runs_describe("A", A, o->variants ? o->va : NULL);
	bb_runs_describe("B", B, o->variants ? o->vb : NULL);
	bb_runs_warn_failed("A", A);
	if (!o->variants) {
		bb_runs_warn_failed("B", B);
		bb_runs_warn_differences(A, B);
		if (A->n == 1 || B->n == 1)
			printf("warning: a side is a single run: the test sees the noise within a run, "
			       "not from run to run (which on a shared or virtual machine can be far "
			       "larger); give each side 3 or more runs\n");
	}
	if (!c->n)
		printf("\nno metric is in both A and B%s\n", o->filter ? " (after --filter)" : "");
	print_table(c);
	print_notes(c);
	if (c->n)
		print_summary(c);
	if (o->csv)
		rc = write_csv(c, o->csv);
	if (o->fail_on_regression && any_regressed(c)) {
		printf("regressed: exit status 1 (--fail-on-regression)\n");
		rc = 1;
	}
	return rc;
}

static int run_compare(const struct compare_opts *o, const struct bb_runs *A,
		       const struct bb_runs *B)
{
	struct bb_metrics ma = { 0 }, mb = { 0 };
	struct pools pa, pb;
	struct cmp c = { .o = o };
	int rc;

	for (size_t i = 0; i < A->n; i++)
		bb_metrics_add_run(&ma, &A->r[i]);
	for (size_t i = 0; i < B->n && !o->variants; i++)
		bb_metrics_add_run(&mb, &B->r[i]);
	build_pools(&ma, o, o->variants ? o->va : NULL, &pa);
	build_pools(o->variants ? &ma : &mb, o, o->variants ? o->vb : NULL, &pb);
	match_pools(&c, &pa, &pb);
	rc = report_compare(&c, A, B);
	free(c.rows);
	pools_free(&pa);
	pools_free(&pb);
	bb_metrics_free(&ma);
	bb_metrics_free(&mb);
	return rc;
}

int compare_main(int argc, char **argv)
{
	struct compare_opts o;
	struct bb_runs A = { 0 }, B = { 0 };
	int rc;

	compare_parse(argc, argv, &o);
	bb_runs_load(&A, o.a, o.na);
	if (!o.variants)
		bb_runs_load(&B, o.b, o.nb);
	rc = run_compare(&o, &A, o.variants ? &A : &B);
	bb_runs_free(&A);
	bb_runs_free(&B);
	free(o.args);
	return rc;
}
