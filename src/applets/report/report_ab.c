/* report_ab.c - the A/B part of `report` (report_ab.h): compare.c decides
 * (compare_build: the same rows, tests and suite-wide control as the
 * `compare` applet), this file only draws.  Per applet a verdict line (the
 * summary compare prints, as a table), then a forest plot: B/A of each
 * headline and claimed metric with its interval on a log axis, a line at
 * no change, claimed rows filled.  The headline table gives the number
 * each applet's classic report quotes, per run or group. */
#include "core/calib.h"
#include "core/error.h"
#include "applets/compare/compare.h"
#include "analysis/differ.h"
#include "analysis/power.h"
#include "applets/report/report_ab.h"
#include "analysis/toolio.h"
#include "analysis/pct.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- numbers ---- */

static void fmt_num(char *buf, size_t len, double x)
{
	double a = fabs(x);

	if (!isfinite(x))
		snprintf(buf, len, "-");
	else if (a == 0)
		snprintf(buf, len, "0");
	else if (a >= 1e9 || a < 1e-3)
		snprintf(buf, len, "%.3e", x);
	else
		snprintf(buf, len, "%.*f", (int)fmax(0, 3 - floor(log10(a))), x);
}

static double pct(double ratio)
{
	return 100 * (ratio - 1);
}

static void td(FILE *f, const char *s)
{
	fputs("<td>", f);
	bb_xml_text(f, s);
	fputs("</td>", f);
}

static int is_calib(const struct row *r)
{
	return strcmp(r->a->m->applet, BB_CALIB_APPLET) == 0;
}

/* ---- the verdict table ---- */

struct applet_tally {
	size_t total, up, down, differs, tested;
	const struct row *head;
};

static void tally(const struct cmp *c, const char *applet, struct applet_tally *t)
{
	memset(t, 0, sizeof *t);
	for (size_t i = 0; i < c->n; i++) {
		const struct row *r = &c->rows[i];
		if (strcmp(r->a->m->applet, applet) != 0)
			continue;
		if (r->headline)
			t->head = r;
		if (r->twin || r->evidence)
			continue;
		t->total++;
		t->tested += !r->skip && r->ab.have_p;
		if (!compare_claimed(r))
			continue;
		t->up += r->v == BB_V_IMPROVED;
		t->down += r->v == BB_V_REGRESSED;
		t->differs += r->v == BB_V_DIFFERS;
	}
}

static void verdict_cell(FILE *f, const struct applet_tally *t)
{
	char buf[160];
	size_t claims = t->up + t->down + t->differs;

	if (claims)
		snprintf(buf, sizeof buf, "B %s: %zu of %zu metrics claimed",
			 t->up && t->down ? "faster and slower" : t->up ? "faster" :
			 t->down ? "slower" : "different", claims, t->total);
	else if (!t->tested)
		snprintf(buf, sizeof buf, "not tested (too few samples)");
	else
		snprintf(buf, sizeof buf, "no change found in %zu metric%s", t->total,
			 t->total == 1 ? "" : "s");
	fprintf(f, "<td class=\"%s\">", t->down ? "slower" : t->up ? "faster" : "same");
	bb_xml_text(f, buf);
	fputs("</td>", f);
}

static void basis(char *buf, size_t len, const struct row *r)
{
	if (r->a->runs == r->b->runs)
		snprintf(buf, len, "%zu%s", r->a->runs, r->per_run ? "" : " (pooled samples)");
	else
		snprintf(buf, len, "%zu vs %zu%s", r->a->runs, r->b->runs,
			 r->per_run ? "" : " (pooled samples)");
}

static void power_cell(FILE *f, const struct applet_tally *t)
{
	const struct row *h = t->head;
	char buf[160], d[BB_PCT_LEN];

	if (t->up + t->down + t->differs)
		snprintf(buf, sizeof buf, "(claimed)");
	else if (!h || !h->per_run || !isfinite(h->detectable))
		snprintf(buf, sizeof buf, "unknown: fewer than %d runs a side", COMPARE_MIN_RUNS);
	else
		snprintf(buf, sizeof buf, "no change larger than %s (%.0f%% power)",
			 bb_pct(d, sizeof d, 100 * h->detectable, 0), 100 * BB_POWER);
	td(f, buf);
}

static void verdict_row(FILE *f, const struct cmp *c, const char *applet)
{
	struct applet_tally t;
	const struct row *h;
	char a[32], b[32], buf[160], r[BB_PCT_LEN], lo[BB_PCT_LEN], hi[BB_PCT_LEN];

	tally(c, applet, &t);
	if (!t.total)
		return;
	h = t.head;
	fputs("<tr>", f);
	td(f, applet);
	verdict_cell(f, &t);
	if (h) {
		double s = h->a->m->disp_scale;
		fmt_num(a, sizeof a, compare_typical(h, 0) * s);
		fmt_num(b, sizeof b, compare_typical(h, 1) * s);
		fputs("<td><code>", f);
		bb_xml_text(f, h->a->key);
		fputs("</code></td>", f);
		snprintf(buf, sizeof buf, "%s \xe2\x86\x92 %s %s", a, b, h->a->m->disp_unit);
		td(f, buf);
		snprintf(buf, sizeof buf, "%s [%s, %s]%s", bb_pct(r, sizeof r, pct(h->ab.ratio), 1),
			 bb_pct(lo, sizeof lo, pct(h->ab.lo), 1), bb_pct(hi, sizeof hi, pct(h->ab.hi), 1),
			 compare_claimed(h) ? " claimed" : "");
		td(f, buf);
		basis(buf, sizeof buf, h);
		td(f, buf);
	} else {
		fputs("<td>-</td><td>-</td><td>-</td><td>-</td>", f);
	}
	power_cell(f, &t);
	fputs("</tr>\n", f);
	if (t.up + t.down + t.differs && c->load && bb_load_confounder(c->load, applet)) {
		snprintf(buf, sizeof buf, "confounded: %s", bb_load_confounder(c->load, applet));
		fputs("<tr class=\"confounded\"><td></td><td colspan=\"6\">", f);
		bb_xml_text(f, buf);
		fputs("</td></tr>\n", f);
	}
}

static void verdict_table(FILE *f, const struct cmp *c)
{
	fprintf(f, "<table class=\"verdicts\">\n<tr><th>applet</th><th>verdict</th>"
		   "<th>headline metric</th><th>A &#8594; B</th><th>change [%g%% interval]</th>"
		   "<th>runs a side</th><th>power</th></tr>\n", 100 * (1 - c->o->alpha));
	for (size_t i = 0; i < c->n; i++) {
		const char *applet = c->rows[i].a->m->applet;
		size_t j;
		if (is_calib(&c->rows[i]))
			continue;
		for (j = 0; j < i && strcmp(c->rows[j].a->m->applet, applet); j++)
			;
		if (j == i)
			verdict_row(f, c, applet);
	}
	fputs("</table>\n", f);
}

/* ---- the forest plot ---- */

#define F_W 960
#define F_LABEL 300.0        /* row labels end here */
#define F_X0 310.0
#define F_X1 620.0
#define F_TEXT 630.0
#define F_ROW 20.0
#define F_TOP 34.0
#define F_CHAR 6.6

static int forest_row(const struct row *r)
{
	return compare_in_family(r) && r->ab.have_p &&
	       isfinite(r->ab.lo) && isfinite(r->ab.hi) && r->ab.lo > 0 && r->ab.hi > 0;
}

/* The rows drawn: every headline, then claimed rows, at most max; in
 * the comparison's order.  Returns how many claimed rows were left out. */
static size_t pick_rows(const struct cmp *c, const struct row **pick, size_t *n, size_t max)
{
	char *take = bb_xcalloc(c->n ? c->n : 1, 1);
	size_t k = 0, left = 0;

	for (size_t i = 0; i < c->n && k < max; i++)
		if (forest_row(&c->rows[i]) && c->rows[i].headline && (take[i] = 1))
			k++;
	/* claimed rows in turn from each applet, so that one cannot crowd
	 * out the others */
	for (int more = 1; more && k < max;) {
		more = 0;
		for (size_t i = 0; i < c->n && k < max; i++) {
			const char *applet = c->rows[i].a->m->applet;
			size_t j;
			for (j = 0; j < i && strcmp(c->rows[j].a->m->applet, applet); j++)
				;
			if (j < i)
				continue;        /* not the applet's first row */
			for (j = i; j < c->n; j++)
				if (!take[j] && forest_row(&c->rows[j]) && compare_claimed(&c->rows[j]) &&
				    !strcmp(c->rows[j].a->m->applet, applet)) {
					take[j] = 1;
					k++;
					more = 1;
					break;
				}
		}
	}
	for (size_t i = 0; i < c->n; i++)
		left += !take[i] && forest_row(&c->rows[i]) && compare_claimed(&c->rows[i]);
	/* grouped by applet, in the comparison's order within each */
	*n = 0;
	for (size_t i = 0; i < c->n; i++) {
		const char *applet = c->rows[i].a->m->applet;
		size_t j;
		for (j = 0; j < i && strcmp(c->rows[j].a->m->applet, applet); j++)
			;
		if (j < i)
			continue;
		for (j = i; j < c->n; j++)
			if (take[j] && !strcmp(c->rows[j].a->m->applet, applet))
				pick[(*n)++] = &c->rows[j];
	}
	free(take);
	return left;
}

struct fscale {
	double lo, hi;
};

static double fx(const struct fscale *s, double v)
{
	return F_X0 + (log(v) - log(s->lo)) / (log(s->hi) - log(s->lo)) * (F_X1 - F_X0);
}

static void fit_forest(struct fscale *s, const struct row *const *rows, size_t n)
{
	double lo = 1, hi = 1;

	for (size_t i = 0; i < n; i++) {
		lo = fmin(lo, rows[i]->ab.lo);
		hi = fmax(hi, rows[i]->ab.hi);
	}
	lo = fmax(lo, 1e-4);
	hi = fmin(hi, 1e4);
	s->lo = lo / pow(hi / lo, 0.05) / 1.02;
	s->hi = hi * pow(hi / lo, 0.05) * 1.02;
}

static void forest_ticks(FILE *f, const struct fscale *s, double y0, double y1)
{
	static const double t[] = { 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.8, 0.9,
				    0.95, 1, 1.05, 1.1, 1.25, 1.5, 2, 3, 5, 10, 20, 50, 100, 200,
				    500, 1000 };
	double last = -1e9;

	/* 1 first, so that no other tick's label can push it out */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
			double x;
			char buf[16];
			if (t[i] < s->lo || t[i] > s->hi || (t[i] == 1) != (pass == 0))
				continue;
			x = fx(s, t[i]);
			if (pass && (fabs(x - last) < 36 || fabs(x - fx(s, 1)) < 36))
				continue;
			if (pass)
				last = x;
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>\n",
				x, y0, x, y1, t[i] == 1 ? "#222" : "#e4e4e4",
				t[i] == 1 ? " stroke-dasharray=\"4 3\"" : "");
			snprintf(buf, sizeof buf, "%g", t[i]);
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", x,
				y1 + 15, buf);
		}
}

static const char *row_colour(const struct row *r)
{
	return r->v == BB_V_IMPROVED ? "#2ca02c" : r->v == BB_V_REGRESSED ? "#d62728" :
	       r->v == BB_V_DIFFERS ? "#9467bd" : "#777";
}

static void forest_point(FILE *f, const struct fscale *s, const struct row *r, double y)
{
	const char *col = row_colour(r);
	int claim = compare_claimed(r);
	char label[80], note[120];
	const char *key = r->a->key;
	size_t len = strlen(key);

	if (len > 44)
		snprintf(label, sizeof label, "\xe2\x80\xa6%s", key + len - 43);
	else
		snprintf(label, sizeof label, "%s", key);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\"%s>", F_LABEL, y + 4,
		r->headline ? " font-weight=\"bold\"" : "");
	bb_xml_text(f, label);
	fputs("</text>\n", f);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		   "stroke-width=\"2\"/>\n", fx(s, r->ab.lo), y, fx(s, r->ab.hi), y, col);
	fprintf(f, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\" "
		   "stroke=\"%s\"/>\n", claim ? "claimed" : "unclaimed", fx(s, r->ab.ratio) - 4,
		y - 4, claim ? col : "#fff", col);
	snprintf(note, sizeof note, "%.3g [%.3g, %.3g] %s%s", r->ab.ratio, r->ab.lo, r->ab.hi,
		 claim ? bb_verdict_name(r->v) : "not claimed",
		 r->a->m->better < 0 ? "; lower is better" : "");
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">", F_TEXT, y + 4, col);
	bb_xml_text(f, note);
	fputs("</text>\n", f);
}

static void forest(FILE *f, const struct cmp *c)
{
	const struct row **rows = bb_xcalloc(c->n ? c->n : 1, sizeof *rows);
	size_t n, left = pick_rows(c, rows, &n, REPORT_FOREST_MAX);
	struct fscale s;
	double y1, height;

	if (!n) {
		fputs("<p>No metric could be tested, so there is no forest plot.</p>\n", f);
		free(rows);
		return;
	}
	fit_forest(&s, rows, n);
	y1 = F_TOP + F_ROW * (double)n + 6;
	height = y1 + 44;
	fprintf(f, "<figure class=\"forest\">\n<svg width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
		   "role=\"img\" font-family=\"sans-serif\" font-size=\"12\">\n"
		   "<rect width=\"%d\" height=\"%.0f\" fill=\"#fff\"/>\n", F_W, height, F_W, height,
		F_W, height);
	fprintf(f, "<text x=\"%.1f\" y=\"20\" font-size=\"15\" font-weight=\"bold\" "
		   "class=\"title\">B / A with its %g%% interval (log scale)</text>\n", F_LABEL - 200,
		100 * (1 - c->o->alpha));
	forest_ticks(f, &s, F_TOP - 8, y1);
	for (size_t i = 0; i < n; i++)
		forest_point(f, &s, rows[i], F_TOP + F_ROW * (double)i + 4);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"axis-label\">"
		   "B / A in each metric's own unit (1: no change)</text>\n", (F_X0 + F_X1) / 2,
		y1 + 34);
	fputs("</svg>\n<figcaption>", f);
	fprintf(f, "One row per applet's headline (bold) and per claimed metric; a filled square is "
		   "a claim under the suite-wide control, a hollow one is not. Green: B better, red: "
		   "B worse (each metric's own direction).");
	if (left)
		fprintf(f, " %zu more claimed metric%s not drawn (at most %d rows): the CSV of "
			   "<code>compare</code> lists every one.", left, left == 1 ? "" : "s",
			REPORT_FOREST_MAX);
	fputs("</figcaption>\n</figure>\n", f);
	free(rows);
}

/* The recorded fields in which the sides differ, those that may explain a
 * claimed change first (differ.c), as a table. */
static void differences(FILE *f, const struct cmp *c, const struct bb_runs *A,
			const struct bb_runs *B)
{
	struct bb_diffs d;

	compare_differences(c, A, B, &d);
	if (!d.n)
		fputs("<p>A and B differ in no recorded field.</p>\n", f);
	else {
		fputs("<h3>A and B differ in</h3>\n<div class=\"runs\"><table>\n"
		      "<tr><th>field</th><th>A</th><th>B</th><th>may explain</th></tr>\n", f);
		for (size_t i = 0; i < d.n; i++) {
			const struct bb_diff *x = &d.v[i];
			fputs(x->claimed ? "<tr class=\"differs\">" : "<tr>", f);
			td(f, x->field);
			td(f, x->a);
			td(f, x->b);
			td(f, !x->claimed ? "" : strcmp(x->explains, "*") ? x->explains : "any applet");
			fputs("</tr>\n", f);
		}
		fputs("</table></div>\n", f);
	}
	bb_diffs_free(&d);
}

void report_ab(FILE *f, const struct compare_opts *co, const struct bb_runs *A,
	       const struct bb_runs *B, const char *na, const char *nb)
{
	struct cmp_built cb;
	struct bb_load load;

	compare_build(&cb, co, A, B);
	compare_load(&load, &cb.c, A, B);
	cb.c.load = co->variants ? NULL : &load;
	fputs("<h2>", f);
	bb_xml_text(f, nb);
	fputs(strcmp(nb, "B") ? " (B) against " : " against ", f);
	bb_xml_text(f, na);
	fputs(strcmp(na, "A") ? " (A)</h2>\n" : "</h2>\n", f);
	fprintf(f, "<p>%zu run%s against %zu, decided as <code>boardbench compare</code> decides: "
		   "alpha %g over the whole suite, noise threshold %g%%. A and B are the "
		   "figures each change is the ratio of: the geometric mean of the run (or boot) "
		   "figures with 3 or more a side, else the median of the pooled samples.</p>\n",
		B->n, B->n == 1 ? "" : "s", A->n, co->alpha, 100 * co->threshold);
	if (!cb.c.n)
		fputs("<p>No metric is in both A and B.</p>\n", f);
	else {
		verdict_table(f, &cb.c);
		forest(f, &cb.c);
	}
	differences(f, &cb.c, A, B);
	bb_load_free(&load);
	compare_free(&cb);
}

/* ---- the headline table ---- */

/* Per applet the key compare makes its headline (decided on the runs
 * against themselves: only the choice of headline is used). */
static size_t headline_keys(const struct bb_runs *all, const struct compare_opts *co,
			    struct cmp_built *cb, const struct row **heads, size_t max)
{
	size_t n = 0;

	compare_build(cb, co, all, all);
	for (size_t i = 0; i < cb->c.n && n < max; i++)
		if (cb->c.rows[i].headline && !is_calib(&cb->c.rows[i]))
			heads[n++] = &cb->c.rows[i];
	return n;
}

void report_headlines(FILE *f, const struct bb_runs *groups, const char *const *names, size_t n)
{
	struct compare_opts co = { .alpha = 0.05, .threshold = 0.02 };
	struct bb_runs all = { 0 };
	struct cmp_built cb;
	const struct row *heads[64];
	size_t nh;

	for (size_t g = 0; g < n; g++)
		for (size_t i = 0; i < groups[g].n; i++) {
			all.r = bb_xrealloc(all.r, (all.n + 1) * sizeof *all.r);
			all.r[all.n++] = groups[g].r[i];
		}
	nh = headline_keys(&all, &co, &cb, heads, sizeof heads / sizeof heads[0]);
	fputs("<h2>Headlines</h2>\n<p>The number each applet's classic report quotes, as "
	      "<code>compare</code> figures it: the geometric mean of the run figures (each run's "
	      "median, or the figure it printed) with 3 or more runs, per boot with 3 or more "
	      "boots, else the median of every kept sample", f);
	fputs(n > 1 ? ", for each run or group.</p>\n" : ".</p>\n", f);
	fputs("<div class=\"runs\"><table class=\"headlines\">\n<tr><th>applet</th><th>metric</th>", f);
	for (size_t g = 0; g < n; g++) {
		fputs("<th>", f);
		bb_xml_text(f, names[g]);
		fputs("</th>", f);
	}
	fputs("<th>unit</th></tr>\n", f);
	for (size_t h = 0; h < nh; h++) {
		fputs("<tr>", f);
		td(f, heads[h]->a->m->applet);
		fputs("<td><code>", f);
		bb_xml_text(f, heads[h]->a->key);
		fputs("</code></td>", f);
		for (size_t g = 0; g < n; g++) {
			char buf[32];
			fmt_num(buf, sizeof buf, compare_figure(&groups[g], heads[h]->a->key) *
				heads[h]->a->m->disp_scale);
			td(f, buf);
		}
		td(f, heads[h]->a->m->disp_unit);
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
	compare_free(&cb);
	free(all.r);
}
