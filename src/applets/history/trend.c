/* trend.c - `history report DB -o trend.html`: one self-contained page
 * (inline SVG from analysis/svg.c, no script, nothing fetched) with the
 * change points of the lab newest first, and for each series that has
 * one (every series when the lab has few) its trend chart, run by run,
 * the segments' levels drawn beside the runs and each change point
 * marked; under it, for each point, the A/B view of the runs on either
 * side: the samples sorted (a quantile plot), their medians, the
 * Hodges-Lehmann change with its interval, and the causes. */
#include "applets/history/history.h"
#include "applets/history/verbs.h"
#include "core/error.h"
#include "core/json.h"
#include "analysis/svg.h"
#include "analysis/toolio.h"
#include "analysis/pct.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALL_SERIES_MAX 24      /* a lab with this many series or fewer: chart every one */
#define AB_UNITS 8             /* units a side in the A/B view */

static const char head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	"style-src 'unsafe-inline'\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<style>\n"
	"body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1000px; }\n"
	"table { border-collapse: collapse; font-size: 13px; }\n"
	"th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }\n"
	"th { background: #f3f3f3; }\n"
	"figure { margin: 20px 0; }\n"
	"figcaption { font-size: 13px; color: #555; }\n"
	"svg { max-width: 100%; height: auto; }\n"
	".ab { display: flex; flex-wrap: wrap; gap: 0 16px; align-items: flex-start; }\n"
	".ab figure { margin: 8px 0; width: 470px; }\n"
	"td.worse { color: #b00; } td.better { color: #070; }\n"
	"</style>\n";

static void text(FILE *f, const char *s) { bb_xml_text(f, s); }

static void causes_cell(FILE *f, struct hdb *db, const struct hist_lab *lab, size_t k)
{
	struct bb_causes cs;
	size_t shown = 0, vary = 0;

	int shift = hist_causes(db, lab, k, &cs);
	for (size_t i = 0; i < cs.n; i++) {
		if (!cs.v[i].steady) {
			vary++;
			continue;
		}
		if (shown++ < HIST_CAUSES_SHOWN) {
			char a[256], b[256];
			hist_value_diff(cs.v[i].before, cs.v[i].after, a, sizeof a, b, sizeof b);
			fprintf(f, "%s", shown > 1 ? "<br>" : "");
			text(f, cs.v[i].field);
			fprintf(f, ": ");
			text(f, a);
			fprintf(f, " &rarr; ");
			text(f, b);
		}
	}
	if (!shown)
		fprintf(f, "no recorded fact changed here");
	else if (shift)
		fprintf(f, "<br><small>(these changed a unit %s the point)</small>",
			shift < 0 ? "before" : "after");
	if (shown > HIST_CAUSES_SHOWN)
		fprintf(f, "<br>and %zu more", shown - HIST_CAUSES_SHOWN);
	if (vary)
		fprintf(f, "<br><small>%zu more differ but vary from run to run</small>", vary);
	bb_causes_free(&cs);
}

static void point_row(FILE *f, struct hdb *db, const struct hist_lab *lab, size_t k)
{
	const struct hist_cp *c = &lab->cps[k];
	const struct hist_series *s = &lab->series[c->series];
	char p1[BB_PCT_LEN], p2[BB_PCT_LEN];

	fprintf(f, "<tr><td>");
	text(f, hist_cp_run(lab, c, 1)->started);
	fprintf(f, "</td><td>");
	text(f, lab->boards[s->board]);
	fprintf(f, "</td><td><a href=\"#s%zu\">", c->series);
	text(f, lab->metrics[s->metric].key);
	fprintf(f, "</a></td><td>%zu</td><td class=\"%s\">%s (%s)</td>", hist_cp_run_number(lab, c),
		hist_direction(lab, c), bb_pct(p1, sizeof p1, (c->cp.ratio - 1) * 100, 1),
		hist_direction(lab, c));
	fprintf(f, "<td>%s to %s</td><td>%.2g</td><td>", bb_pct(p1, sizeof p1, (c->lo - 1) * 100, 1),
		bb_pct(p2, sizeof p2, (c->hi - 1) * 100, 1), c->cp.p);
	text(f, c->scope);
	fprintf(f, "</td><td>");
	causes_cell(f, db, lab, k);
	fprintf(f, "</td></tr>\n");
}

/* The newest first. */
static int cmp_when(const void *x, const void *y, void *ctx)
{
	const struct hist_lab *lab = ctx;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	return strcmp(hist_cp_run(lab, &lab->cps[b], 1)->started,
		      hist_cp_run(lab, &lab->cps[a], 1)->started);
}

static size_t points_table(FILE *f, struct hdb *db, const struct hist_lab *lab)
{
	size_t *ord = bb_xmalloc((lab->ncps ? lab->ncps : 1) * sizeof *ord), n = 0;

	for (size_t k = 0; k < lab->ncps; k++)
		if (lab->cps[k].confirmed)
			ord[n++] = k;
	qsort_r(ord, n, sizeof *ord, cmp_when, (void *)lab);
	fprintf(f, "<h2>Change points</h2>\n");
	if (!n)
		fprintf(f, "<p>None: no series moved beyond what its own run-to-run spread explains.</p>\n");
	else {
		fprintf(f, "<table><tr><th>first run after (UTC)</th><th>board</th><th>metric</th>"
			   "<th>run</th><th>change</th><th>samples, 95%%</th><th>p</th><th>where</th>"
			   "<th>what changed there</th></tr>\n");
		for (size_t i = 0; i < n; i++)
			point_row(f, db, lab, ord[i]);
		fprintf(f, "</table>\n");
	}
	free(ord);
	return n;
}

/* ---- the charts ---- */

/* The runs where the series' confirmed points start a segment (indices
 * into its runs), at most s->ncp, and their labels. */
static size_t boundaries(const struct hist_lab *lab, const struct hist_series *s, size_t *at,
			 char (*lbl)[48])
{
	size_t n = 0;

	for (size_t k = s->first_cp; k < s->first_cp + s->ncp; k++) {
		const struct hist_cp *c = &lab->cps[k];
		if (!c->confirmed)
			continue;
		at[n] = s->pt[c->cp.at].first;
		bb_pct(lbl[n++], 48, (c->cp.ratio - 1) * 100, 1);
	}
	return n;
}

static void trend_chart(FILE *f, const struct hist_lab *lab, const struct hist_series *s)
{
	const struct hist_metric *m = &lab->metrics[s->metric];
	double *x = bb_xmalloc(s->nruns * sizeof *x), *y = bb_xmalloc(s->nruns * sizeof *y);
	double *lv = bb_xmalloc(s->nruns * sizeof *lv);
	size_t *at = bb_xmalloc((s->ncp + 1) * sizeof *at);
	struct bb_chart_mark *mk = bb_xcalloc(s->ncp + 1, sizeof *mk);
	char (*lbl)[48] = bb_xcalloc(s->ncp + 1, sizeof *lbl), title[512];
	size_t nm = boundaries(lab, s, at, lbl), b = 0;

	for (size_t k = 0; k <= nm; k++) {    /* each segment's level: its geometric mean */
		size_t e = k < nm ? at[k] : s->nruns;
		double g = hist_disp(lab, s, bb_geomean(s->median, b, e));
		for (size_t i = b; i < e; i++)
			lv[i] = g;
		b = e;
		if (k < nm)     /* between the last run before and the first after */
			mk[k] = (struct bb_chart_mark){ (double)at[k] + 0.5, lbl[k], 3 };
	}
	for (size_t i = 0; i < s->nruns; i++) {
		x[i] = (double)i + 1;
		y[i] = hist_disp(lab, s, s->median[i]);
	}
	struct bb_chart_series ser[2] = {
		{ "median of each run", s->nruns, x, y, NULL, NULL, 0, 0 },
		{ "level of each segment", s->nruns, x, lv, NULL, NULL, 1, 1 },
	};
	snprintf(title, sizeof title, "%s on %s", m->key, lab->boards[s->board]);
	struct bb_chart ch = { title, "run", m->disp_unit, NULL, 0, 0, 0, 0, ser, 2, mk, nm }; /* the word, not the applet */
	fprintf(f, "<figure>");
	bb_svg_chart(f, &ch, 0);
	fprintf(f, "<figcaption>%zu runs in %zu units (a boot's runs together where they record "
		   "boots); dashed: the level between change points</figcaption></figure>\n",
		s->nruns, s->npt);
	free(x);
	free(y);
	free(lv);
	free(at);
	free(mk);
	free(lbl);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* The samples of one side sorted, against their quantile (0..1). */
static void quantiles(const struct hist_lab *lab, const struct hist_series *s, double *v, size_t n,
		      double *q)
{
	qsort(v, n, sizeof *v, cmp_double);
	for (size_t i = 0; i < n; i++) {
		q[i] = n > 1 ? (double)i / (double)(n - 1) : 0.5;
		v[i] = hist_disp(lab, s, v[i]);
	}
}

/* Point k: the samples of the AB_UNITS units before and after it. */
static void ab_view(FILE *f, struct hdb *db, const struct hist_lab *lab, size_t k)
{
	const struct hist_cp *c = &lab->cps[k];
	const struct hist_series *s = &lab->series[c->series];
	size_t at = c->cp.at, lo = at > AB_UNITS ? at - AB_UNITS : 0;
	size_t hi = at + AB_UNITS < s->npt ? at + AB_UNITS : s->npt, nb, na;
	double *b = hist_unit_samples(db, lab, s, lo, at, &nb);
	double *a = hist_unit_samples(db, lab, s, at, hi, &na);
	double *qb = bb_xmalloc((nb + 1) * sizeof *qb), *qa = bb_xmalloc((na + 1) * sizeof *qa);
	char title[256];

	quantiles(lab, s, b, nb, qb);
	quantiles(lab, s, a, na, qa);
	struct bb_chart_series ser[2] = {
		{ "before", nb, qb, b, NULL, NULL, 0, 0 },
		{ "after", na, qa, a, NULL, NULL, 1, 0 },
	};
	snprintf(title, sizeof title, "run %zu: samples before and after", hist_cp_run_number(lab, c));
	struct bb_chart ch = { title, "quantile", lab->metrics[s->metric].disp_unit, NULL, 0, 0, 0, 1,
			       ser, 2, NULL, 0 };
	fprintf(f, "<div class=\"ab\"><figure>");
	bb_svg_chart(f, &ch, 0);
	fprintf(f, "<figcaption>A: %zu samples of %zu units before; B: %zu samples of %zu units "
		   "after</figcaption></figure>\n<table>", nb, at - lo, na, hi - at);
	fprintf(f, "<tr><th>change (levels)</th><td>%+.2f%% (%s)</td></tr>", (c->cp.ratio - 1) * 100,
		hist_direction(lab, c));
	fprintf(f, "<tr><th>B/A on the samples</th><td>%.4f, 95%% %.4f to %.4f</td></tr>", c->ratio,
		c->lo, c->hi);
	fprintf(f, "<tr><th>Mann-Whitney p</th><td>%.2g</td></tr>", c->mw_p);
	fprintf(f, "<tr><th>split p (Welch, x splits)</th><td>%.2g</td></tr>", c->cp.p);
	fprintf(f, "<tr><th>where</th><td>");
	text(f, c->scope);
	fprintf(f, "</td></tr><tr><th>what changed</th><td>");
	causes_cell(f, db, lab, k);
	fprintf(f, "</td></tr></table></div>\n");
	free(a);
	free(b);
	free(qa);
	free(qb);
}

static int charted(const struct hist_lab *lab, const struct hist_series *s)
{
	if (lab->nseries <= ALL_SERIES_MAX)
		return s->nruns > 0;
	for (size_t k = s->first_cp; k < s->first_cp + s->ncp; k++)
		if (lab->cps[k].confirmed)
			return 1;
	return 0;
}

static void series_section(FILE *f, struct hdb *db, const struct hist_lab *lab, size_t i)
{
	const struct hist_series *s = &lab->series[i];

	fprintf(f, "<h3 id=\"s%zu\">", i);
	text(f, lab->metrics[s->metric].key);
	fprintf(f, " on ");
	text(f, lab->boards[s->board]);
	fprintf(f, "</h3>\n");
	trend_chart(f, lab, s);
	for (size_t k = s->first_cp; k < s->first_cp + s->ncp; k++)
		if (lab->cps[k].confirmed)
			ab_view(f, db, lab, k);
}

static void page(FILE *f, struct hdb *db, const struct hist_lab *lab, const struct hist_opts *o)
{
	fprintf(f, "%s<title>boardbench history</title>\n</head>\n<body>\n<h1>boardbench history</h1>\n",
		head);
	fprintf(f, "<p>");
	text(f, hdb_name(db));
	fprintf(f, " (%s): %zu run%s on %zu board%s, %zu series, %zu metrics. Change points: "
		   "E-Divisive means on each run's median (a boot's runs together), at least %zu "
		   "units a side, Welch's t on the split; false discoveries held to %g over all "
		   "%zu tests of the lab (Benjamini-Yekutieli); each point confirmed on the samples "
		   "(Mann-Whitney and Hodges-Lehmann at %g).</p>\n",
		hdb_engine(db), lab->nruns, lab->nruns == 1 ? "" : "s", lab->nboards,
		lab->nboards == 1 ? "" : "s", lab->all_series, lab->nmetrics, o->min_seg,
		o->q, lab->tests, o->alpha);
	points_table(f, db, lab);
	fprintf(f, "<h2>Trends</h2>\n");
	for (size_t i = 0; i < lab->nseries; i++)
		if (charted(lab, &lab->series[i]))
			series_section(f, db, lab, i);
	fprintf(f, "</body>\n</html>\n");
}

int hist_report(struct hdb *db, const struct hist_opts *o)
{
	struct hist_lab lab;
	struct bb_out out;
	int rc;

	hist_lab_load_all(db, o, &lab);
	if (bb_out_open(&out, o->out)) {
		hist_lab_free(&lab);
		return BB_EXIT_FAIL;
	}
	page(out.f, db, &lab, o);
	rc = bb_out_close(&out) ? BB_EXIT_FAIL : 0;
	if (!rc && o->json && !bb_outfile_is_stdout(o->out)) {
		struct bb_json j;
		size_t charts = 0, points = 0;
		for (size_t i = 0; i < lab.nseries; i++)
			charts += charted(&lab, &lab.series[i]);
		for (size_t k = 0; k < lab.ncps; k++)
			points += lab.cps[k].confirmed;
		bb_json_init(&j, stdout, 1);
		bb_json_obj_begin(&j);
		bb_json_kstr(&j, "output", o->out);
		bb_json_kint(&j, "charts", (long long)charts);
		bb_json_kint(&j, "change_points", (long long)points);
		bb_json_obj_end(&j);
		fputc('\n', stdout);
	} else if (!rc && !bb_outfile_is_stdout(o->out)) {
		printf("wrote %s\n", o->out);
	}
	hist_lab_free(&lab);
	return rc;
}
