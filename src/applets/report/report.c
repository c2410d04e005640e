/* report.c - the `report` applet: one self-contained HTML file from one or
 * more runs: a table of each run's metadata, then a chart per measurement
 * with one series per run (or per run and variant), drawn by svg.c.  What
 * goes in which chart comes from the metric table (metrics.c: chart id,
 * title, x value or bar group, legend); lat charts also mark the cache
 * levels each run found.  --svg writes each chart alone, --csv every
 * metric of every run. */
#include "core/applet.h"
#include "core/calib.h"
#include "core/cli.h"
#include "core/stats.h"
#include "core/emit.h"
#include "core/error.h"
#include "core/version.h"
#include "applets/compare/compare.h"
#include "analysis/differ.h"
#include "analysis/host.h"
#include "analysis/metrics.h"
#include "applets/report/report_ab.h"
#include "analysis/svg.h"
#include "analysis/toolio.h"
#include "applets/compare/toolopts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* One series of a chart while it is assembled: a run (or a group of
 * runs, --by) and a legend (variant); the samples of each point pooled
 * over the group's runs. */
struct sbuild {
	char *name;
	size_t run;                  /* the group (a run, without --by) */
	const char *legend;
	double *x, *y, *ylo, *yhi;
	double **pv;                 /* the samples of each point */
	size_t *pn;
	size_t n;
};

struct cbuild {
	const char *id;
	const struct bb_metric *first;
	int lines;
	char *ylabel;
	struct sbuild *s;
	size_t ns;
	const char **cats;
	size_t ncat;
	struct bb_chart_mark *marks;
	size_t nmarks;
	const char **legends;        /* distinct legends: one colour each */
	size_t nlegends;
	size_t nruns;                /* groups with a series in this chart */
	const char *legend;          /* a panel: only this legend, else NULL */
	int fold;                    /* bars: the legend joins the category */
	char **folded;               /* the categories made by folding */
	size_t nfolded;
};

struct report {
	const struct report_opts *o;
	struct bb_runs runs;
	struct bb_metrics ms;
	char (*names)[256];          /* a short name per run */
	size_t *group;               /* each run's group: its own, or its --by value's */
	size_t ngroups;
	const char **gnames;         /* a name per group */
	struct compare_side *sides;  /* --by: the groups */
	size_t base;                 /* --by: the group that is A */
	size_t runs_a;               /* A... -- B...: the runs of A come first */
	size_t unlabelled;           /* --by: runs without the label, left out */
	size_t charts;
	int rc;
};

/* ---- assembling a chart ---- */

static size_t run_index(const struct report *r, const struct bb_rrun *run)
{
	return (size_t)(run - r->runs.r);
}

static size_t group_of(const struct report *r, const struct bb_metric *m)
{
	return r->group[run_index(r, m->run)];
}

static size_t find_str(const char **v, size_t *n, const char *s, int add)
{
	size_t i;

	for (i = 0; i < *n && strcmp(v[i], s) != 0; i++)
		;
	if (i == *n && add)
		v[(*n)++] = s;
	return i;
}

static struct sbuild *series_for(struct cbuild *c, const struct report *r,
				 const struct bb_metric *m, size_t cap)
{
	size_t run = group_of(r, m);
	const char *legend = c->fold ? "" : m->legend;
	struct sbuild *s;

	for (size_t i = 0; i < c->ns; i++)
		if (c->s[i].run == run && strcmp(c->s[i].legend, legend) == 0)
			return &c->s[i];
	s = &c->s[c->ns++];
	s->run = run;
	s->legend = legend;
	s->x = bb_xcalloc(cap, sizeof *s->x);
	s->y = bb_xcalloc(cap, sizeof *s->y);
	s->ylo = bb_xcalloc(cap, sizeof *s->ylo);
	s->yhi = bb_xcalloc(cap, sizeof *s->yhi);
	s->pv = bb_xcalloc(cap, sizeof *s->pv);
	s->pn = bb_xcalloc(cap, sizeof *s->pn);
	for (size_t i = 0; i < cap && !c->lines; i++)
		s->y[i] = s->ylo[i] = s->yhi[i] = NAN;
	return s;
}

/* In chart id, drawn as a median per series (or, timeseries, sample by
 * sample over time). */
static int in_chart(const struct bb_metric *m, const char *id, int timeseries)
{
	return !m->bad && m->chart[0] && !m->timeseries == !timeseries && strcmp(m->chart, id) == 0;
}

static int charted(const struct bb_metric *m, const char *id)
{
	return in_chart(m, id, 0);
}

/* The category of m in this chart (folded: with its legend). */
static const char *category_of(struct cbuild *c, const struct bb_metric *m, int add)
{
	char buf[600];
	size_t n = c->nfolded;

	if (!c->fold || !m->legend[0])
		return m->category;
	snprintf(buf, sizeof buf, "%s %s", m->category, m->legend);
	for (size_t i = 0; i < n; i++)
		if (strcmp(c->folded[i], buf) == 0)
			return c->folded[i];
	if (!add)
		return m->category;
	c->folded[c->nfolded++] = bb_xstrdup(buf);
	return c->folded[n];
}

/* Adds m's samples to its point: the same x (lines) or category (bars)
 * of its group's series. */
static void place(struct cbuild *c, const struct report *r, const struct bb_metric *m, size_t cap)
{
	struct sbuild *s = series_for(c, r, m, cap);
	size_t at;

	if (c->lines) {
		for (at = 0; at < s->n && s->x[at] != m->x; at++)
			;
		s->n += at == s->n;
	} else {
		at = find_str(c->cats, &c->ncat, category_of(c, m, 0), 0);
		s->n = c->ncat;
	}
	if (at >= cap)
		return;
	s->x[at] = m->x;
	s->pv[at] = bb_xrealloc(s->pv[at], (s->pn[at] + m->n + 1) * sizeof **s->pv);
	for (size_t i = 0; i < m->n; i++)
		s->pv[at][s->pn[at]++] = m->v[i] * m->disp_scale;
}

/* Each point's median and range over its pooled samples. */
static void figure_points(struct sbuild *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct bb_figures fig;
		if (!s->pn[i])
			continue;
		bb_metric_figures(s->pv[i], s->pn[i], 0, &fig);
		s->y[i] = fig.median;
		s->ylo[i] = fig.min;
		s->yhi[i] = fig.max;
	}
}

struct point {
	double x, y;
};

static int cmp_point(const void *a, const void *b)
{
	double x = ((const struct point *)a)->x, y = ((const struct point *)b)->x;
	return (x > y) - (x < y);
}

static void sort_points(struct sbuild *s)
{
	struct point *p = bb_xcalloc(s->n, sizeof *p);

	for (size_t i = 0; i < s->n; i++)
		p[i] = (struct point){ s->x[i], s->y[i] };
	qsort(p, s->n, sizeof *p, cmp_point);
	for (size_t i = 0; i < s->n; i++) {
		s->x[i] = p[i].x;
		s->y[i] = p[i].y;
	}
	free(p);
}

static void name_series(struct cbuild *c, const struct report *r)
{
	for (size_t i = 0; i < c->ns; i++)
		find_str(c->legends, &c->nlegends, c->s[i].legend, 1);
	for (size_t i = 0; i < c->ns; i++) {
		struct sbuild *s = &c->s[i];
		const char *g = r->gnames[s->run];
		char buf[600];
		figure_points(s);
		if (r->ngroups == 1 || !g[0])
			snprintf(buf, sizeof buf, "%s", s->legend[0] ? s->legend : g);
		else if (c->fold || c->legend || c->nlegends == 1)
			snprintf(buf, sizeof buf, "%s", g);
		else
			snprintf(buf, sizeof buf, "%s%s%s", g, s->legend[0] ? " " : "", s->legend);
		s->name = bb_xstrdup(buf);
		if (c->lines)
			sort_points(s);
	}
	for (size_t i = 0; i < c->ns; i++) {
		size_t j;
		for (j = 0; j < i && c->s[j].run != c->s[i].run; j++)
			;
		c->nruns += j == i;
	}
}

/* "bandwidth (MB/s)"; several display units are joined with " or ". */
static char *y_label(const struct bb_metrics *ms, const char *id)
{
	char buf[512];
	const struct bb_metric *first = NULL;

	buf[0] = '\0';
	for (size_t i = 0; i < ms->n; i++) {
		const struct bb_metric *m = &ms->m[i];
		if (!charted(m, id))
			continue;
		if (!first) {
			first = m;
			snprintf(buf, sizeof buf, "%s (%s", m->quantity, m->disp_unit);
		} else if (!strstr(buf, m->disp_unit) && strlen(buf) + strlen(m->disp_unit) + 8 < sizeof buf) {
			strcat(buf, " or ");
			strcat(buf, m->disp_unit);
		}
	}
	strcat(buf, ")");
	if (strstr(buf, "Mbit/s)") && strlen(buf) + 16 < sizeof buf)
		strcpy(strstr(buf, "Mbit/s)"), "Mbit/s = 10^6 bit/s)");
	return bb_xstrdup(buf);
}

/* ---- marks: labelled lines an applet puts on its line charts ---- */

/* The marks of one result (lat: the cache levels it found), each group's
 * once, in the group's colour. */
static void add_marks(struct cbuild *c, const struct report *r, size_t run,
		      const struct bb_host *h, const struct bb_rresult *res)
{
	double x[16];
	const char *label[16];
	size_t n = h->marks(res, x, label, 16), g = r->group[run];

	for (size_t i = 0; i < n; i++) {
		size_t k;
		for (k = 0; k < c->nmarks; k++)
			if (c->marks[k].colour == (int)g && !strcmp(c->marks[k].label, label[i]))
				break;
		if (k < c->nmarks)
			continue;            /* this group has it already */
		c->marks = bb_xrealloc(c->marks, (c->nmarks + 1) * sizeof *c->marks);
		c->marks[c->nmarks++] = (struct bb_chart_mark){ x[i], bb_xstrdup(label[i]), (int)g };
	}
}

static void chart_marks(struct cbuild *c, const struct report *r, const struct bb_host *h)
{
	for (size_t run = 0; run < r->runs.n; run++)
		for (size_t j = 0; j < r->runs.r[run].n; j++)
			if (strcmp(r->runs.r[run].results[j].applet, h->applet) == 0)
				add_marks(c, r, run, h, &r->runs.r[run].results[j]);
}

/* ---- one chart ---- */

/* A part of a total (one stream of ttcp's) where its run's result has
 * one part only: the same number as its total. */
static int lone_part(const struct report *r, const struct bb_metric *m)
{
	size_t parts = 0;

	if (!m->part)
		return 0;
	for (size_t i = 0; i < r->ms.n; i++) {
		const struct bb_metric *o = &r->ms.m[i];
		parts += o->run == m->run && o->result == m->result && !strcmp(o->chart, m->chart) &&
			 !strcmp(o->category, m->category) && o->part;
	}
	return parts < 2;
}

static int in_this(const struct cbuild *c, const struct report *r, const struct bb_metric *m)
{
	return charted(m, c->id) && (!c->legend || strcmp(m->legend, c->legend) == 0) &&
	       !lone_part(r, m);
}

/* The legends and groups a chart shows (counts of distinct ones). */
static void count_series(const struct cbuild *c, const struct report *r, size_t *legends,
			 size_t *groups)
{
	const char **seen = bb_xcalloc(r->ms.n + 1, sizeof *seen);
	char *g = bb_xcalloc(r->ngroups + 1, 1);
	size_t n = 0;

	*groups = 0;
	for (size_t i = 0; i < r->ms.n; i++)
		if (in_this(c, r, &r->ms.m[i])) {
			find_str(seen, &n, r->ms.m[i].legend, 1);
			*groups += !g[group_of(r, &r->ms.m[i])];
			g[group_of(r, &r->ms.m[i])] = 1;
		}
	*legends = n;
	free(seen);
	free(g);
}

static void build_chart(struct cbuild *c, struct report *r, const char *id, const char *legend)
{
	size_t cap = 0, nleg, ngrp;

	memset(c, 0, sizeof *c);
	c->id = id;
	c->legend = legend;
	c->lines = 1;
	for (size_t i = 0; i < r->ms.n; i++) {
		const struct bb_metric *m = &r->ms.m[i];
		if (!in_this(c, r, m))
			continue;
		c->first = c->first ? c->first : m;
		c->lines &= isfinite(m->x);
		cap++;
	}
	count_series(c, r, &nleg, &ngrp);
	c->fold = !c->lines && nleg > 1 && ngrp > 1;
	c->s = bb_xcalloc(cap, sizeof *c->s);
	c->cats = bb_xcalloc(cap, sizeof *c->cats);
	c->legends = bb_xcalloc(cap, sizeof *c->legends);
	c->folded = bb_xcalloc(cap, sizeof *c->folded);
	for (size_t i = 0; i < r->ms.n && !c->lines; i++)
		if (in_this(c, r, &r->ms.m[i]))
			find_str(c->cats, &c->ncat, category_of(c, &r->ms.m[i], 1), 1);
	for (size_t i = 0; i < r->ms.n; i++)
		if (in_this(c, r, &r->ms.m[i]))
			place(c, r, &r->ms.m[i], c->lines ? cap : c->ncat);
	name_series(c, r);
	c->ylabel = y_label(&r->ms, id);
	const struct bb_host *h = bb_host_find(c->first->applet);
	if (h && h->marks && c->lines)
		chart_marks(c, r, h);
}

static void free_chart(struct cbuild *c)
{
	for (size_t i = 0; i < c->ns; i++) {
		free(c->s[i].name);
		free(c->s[i].x);
		free(c->s[i].y);
		free(c->s[i].ylo);
		free(c->s[i].yhi);
		for (size_t j = 0; c->s[i].pv && j < (c->lines ? c->s[i].n : c->ncat); j++)
			free(c->s[i].pv[j]);
		free(c->s[i].pv);
		free(c->s[i].pn);
	}
	for (size_t i = 0; i < c->nfolded; i++)
		free(c->folded[i]);
	free(c->folded);
	for (size_t i = 0; i < c->nmarks; i++)
		free((char *)c->marks[i].label);
	free(c->marks);
	free(c->s);
	free(c->cats);
	free(c->legends);
	free(c->ylabel);
}

/* A mark (a cache level) takes the colour of its run's first series. */
static int mark_colour(const struct cbuild *c, const struct bb_chart_series *s, size_t run)
{
	for (size_t i = 0; i < c->ns; i++)
		if (c->s[i].run == run)
			return s[i].colour;
	return 0;
}

/* The svg.c view of an assembled chart; series points into c. */
static void to_chart(const struct cbuild *c, const struct report *r, struct bb_chart *ch,
		     struct bb_chart_series *s)
{
	const struct bb_metric *m = c->first;
	size_t nleg = c->nlegends;

	memset(ch, 0, sizeof *ch);
	ch->title = m->chart_title;
	ch->xlabel = m->xlabel;
	ch->ylabel = c->ylabel;
	ch->categories = c->lines ? NULL : c->cats;
	ch->ncat = c->lines ? 0 : c->ncat;
	ch->logx = c->lines && strstr(m->xlabel, "bytes") != NULL;
	ch->logy = m->logy;
	ch->marks = c->marks;
	ch->nmarks = c->nmarks;
	ch->s = s;
	ch->ns = c->ns;
	for (size_t i = 0; i < c->ns; i++) {
		const struct sbuild *b = &c->s[i];
		s[i] = (struct bb_chart_series){
			.name = b->name, .n = b->n, .x = c->lines ? b->x : NULL, .y = b->y,
			.ylo = c->lines ? NULL : b->ylo, .yhi = c->lines ? NULL : b->yhi,
		};
		/* a colour per run or group, the same in every chart; one run:
		 * a colour per variant */
		if (r->ngroups > 1)
			s[i].colour = (int)b->run;
		else
			s[i].colour = (int)find_str(c->legends, &nleg, b->legend, 0);
		s[i].dash = s[i].colour / bb_svg_colours();
	}
	for (size_t i = 0; i < c->nmarks; i++)
		c->marks[i].colour = mark_colour(c, s, (size_t)c->marks[i].colour);
}

/* ---- the HTML ---- */

static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	"style-src 'unsafe-inline'\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<style>\n"
	"body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1000px; }\n"
	"table { border-collapse: collapse; font-size: 13px; }\n"
	"table.per-run { table-layout: fixed; width: 100%; margin-bottom: 10px; }\n"
	".per-run th:first-child { width: 11em; }\n"
	".runs tr.differs th, .runs tr.differs td { font-weight: bold; }\n"
	"td { min-width: 9em; max-width: 22em; overflow-wrap: break-word; }\n"
	".per-run td { min-width: 0; overflow-wrap: anywhere; }\n"
	".verdicts td { min-width: 4em; }\n"
	".headlines th, .headlines td { min-width: 0; overflow-wrap: anywhere; }\n"
	"th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }\n"
	"th { background: #f3f3f3; }\n"
	"figure { margin: 28px 0; }\n"
	"figcaption { font-size: 13px; color: #555; }\n"
	"svg { max-width: 100%; height: auto; }\n"
	".panels { display: flex; flex-wrap: wrap; gap: 0 12px; }\n"
	".panels figure { margin: 8px 0; width: 470px; }\n"
	"td.slower { color: #b00; } td.faster { color: #070; }\n"
	"</style>\n";

static void html_text(FILE *f, const char *tag, const char *s)
{
	fprintf(f, "<%s>", tag);
	bb_xml_text(f, s);
	fprintf(f, "</%s>", tag);
}

enum meta_src { META_SYS, META_TOOL, META_PATH, META_LABELS, META_STARTED, META_CACHES,
		META_APPLETS, META_CALIB, META_FACT };

struct meta_row {
	const char *label;
	enum meta_src src;
	const char *key;
};

static const struct meta_row meta_rows[] = {
	{ "file", META_PATH, NULL },
	{ "labels", META_LABELS, NULL },
	{ "started (UTC)", META_STARTED, NULL },
	{ "applets", META_APPLETS, NULL },
	{ "CPU speed (ns per dependent add)", META_CALIB, NULL },
	{ "host", META_SYS, "hostname" },
	{ "CPU", META_SYS, "cpu_model" },
	{ "architecture", META_SYS, "arch" },
	{ "online CPUs", META_SYS, "cpus_online" },
	{ "caches (sysfs)", META_CACHES, NULL },
	{ "memory (bytes)", META_SYS, "mem_total_bytes" },
	{ "kernel", META_SYS, "kernel" },
	{ "governor", META_SYS, "governor" },
	{ "transparent huge pages", META_SYS, "transparent_hugepage" },
	{ "C library", META_SYS, "libc" },
	{ "compiler", META_TOOL, "compiler" },
	{ "compiler flags", META_TOOL, "cflags" },
	{ "boardbench", META_TOOL, "version" },
	{ "git revision", META_TOOL, "git" },
};

/* Board identity: a row only when some run recorded it. */
static const struct meta_row fact_rows[] = {
	{ "board (device tree)", META_FACT, "dt.model" },
	{ "compatible", META_FACT, "dt.compatible" },
	{ "SoC", META_FACT, "soc.soc_id" },
	{ "SoC family", META_FACT, "soc.family" },
	{ "SoC revision", META_FACT, "soc.revision" },
	{ "firmware", META_FACT, "firmware.bios_version" },
	{ "kernel release", META_FACT, "kernel.release" },
	{ "kernel HZ", META_FACT, "kernel.hz" },
	{ "preemption", META_FACT, "kernel.preempt" },
};

static void meta_labels(FILE *f, const struct bb_rrun *run)
{
	for (size_t i = 0; i < run->labels.n; i++) {
		fputs(i ? ", " : "", f);
		bb_xml_text(f, run->labels.v[i].key);
		fputc('=', f);
		bb_xml_text(f, run->labels.v[i].s);
	}
}

/* An applet of a run, and why it is not charted: cut by a signal, failed,
 * or (a suite cut short: its params name them as not_run) the applets
 * never run. */
static void meta_applet(FILE *f, const struct bb_rresult *r)
{
	const char *not_run = bb_rkv_str(&r->params, "not_run");

	bb_xml_text(f, r->applet);
	if (not_run) {
		fputs(" (suite cut short; not run: ", f);
		bb_xml_text(f, not_run);
		fputs(")", f);
	} else if (strcmp(r->status, "interrupted") == 0) {
		fputs(" (interrupted: left out)", f);
	} else if (strcmp(r->status, "ok") != 0) {
		fputs(" (failed: left out)", f);
	}
}

static void meta_applets(FILE *f, const struct bb_rrun *run)
{
	for (size_t i = 0; i < run->n; i++) {
		fputs(i ? ", " : "", f);
		meta_applet(f, &run->results[i]);
	}
}

/* The calib result (core/calib.c): median, and fastest to slowest. */
static void meta_calib(FILE *f, const struct bb_rrun *run)
{
	for (size_t i = 0; i < run->n; i++) {
		const struct bb_rresult *r = &run->results[i];
		const struct bb_rseries *s = r->n ? &r->series[0] : NULL;
		struct bb_stats st;
		if (strcmp(r->applet, BB_CALIB_APPLET) != 0 || !s || !(s->work > 0) ||
		    bb_stats_compute(s->samples, s->n, &st) != 0)
			continue;
		fprintf(f, "%.3f (%.3f to %.3f over %zu samples)", 1e9 * st.median / s->work,
			1e9 * st.min / s->work, 1e9 * st.max / s->work, s->n);
		return;
	}
}

static void meta_cell(FILE *f, const struct bb_rrun *run, const struct meta_row *row)
{
	const char *s = NULL;

	fputs("<td>", f);
	switch (row->src) {
	case META_SYS: s = bb_rkv_str(&run->system, row->key); break;
	case META_TOOL: s = bb_rkv_str(&run->tool, row->key); break;
	case META_PATH: s = run->path; break;
	case META_STARTED: s = run->started; break;
	case META_CACHES: s = run->caches; break;
	case META_LABELS: meta_labels(f, run); break;
	case META_APPLETS: meta_applets(f, run); break;
	case META_CALIB: meta_calib(f, run); break;
	case META_FACT: s = bb_rkv_str(&run->system, row->key); break;
	}
	bb_xml_text(f, s ? s : "");
	fputs("</td>", f);
}

/* 1 when some run recorded the system fact. */
static int fact_recorded(const struct report *r, const char *key)
{
	for (size_t i = 0; i < r->runs.n; i++) {
		const char *v = bb_rkv_str(&r->runs.r[i].system, key);
		if (v && v[0])
			return 1;
	}
	return 0;
}

/* 1 when the runs do not all record the same value (absent: ""). */
static int fact_differs(const struct report *r, const char *key)
{
	const char *first = NULL;

	for (size_t i = 0; i < r->runs.n; i++) {
		const char *v = bb_rkv_str(&r->runs.r[i].system, key);
		if (!first)
			first = v ? v : "";
		else if (strcmp(first, v ? v : ""))
			return 1;
	}
	return 0;
}

static int fact_in_rows(const char *key)
{
	for (size_t k = 0; k < sizeof meta_rows / sizeof meta_rows[0]; k++)
		if (meta_rows[k].src == META_SYS && strcmp(meta_rows[k].key, key) == 0)
			return 1;
	for (size_t k = 0; k < sizeof fact_rows / sizeof fact_rows[0]; k++)
		if (strcmp(fact_rows[k].key, key) == 0)
			return 1;
	return 0;
}

/* The runs [from, to) of the table being written. */
struct run_span {
	size_t from, to;
};

static void meta_row_out(FILE *f, const struct report *r, const struct meta_row *row, int differs,
			 struct run_span sp)
{
	fputs(differs ? "<tr class=\"differs\">" : "<tr>", f);
	html_text(f, "th", row->label);
	for (size_t i = sp.from; i < sp.to; i++)
		meta_cell(f, &r->runs.r[i], row);
	fputs("</tr>\n", f);
}

/* Every other system fact whose value is not the same in every run (those
 * that vary by design aside), each key once, in the order first seen. */
static void meta_other_facts(FILE *f, const struct report *r, struct run_span sp)
{
	const char *said[256];
	size_t nsaid = 0;

	for (size_t i = 0; i < r->runs.n; i++) {
		const struct bb_rkvs *l = &r->runs.r[i].system;
		for (size_t k = 0; k < l->n && nsaid < sizeof said / sizeof said[0]; k++) {
			const char *key = l->v[k].key;
			const struct meta_row row = { key, META_FACT, key };
			size_t j;
			for (j = 0; j < nsaid && strcmp(said[j], key); j++)
				;
			if (j < nsaid || fact_in_rows(key) || !bb_diff_system_key(key) ||
			    !fact_differs(r, key))
				continue;
			said[nsaid++] = key;
			meta_row_out(f, r, &row, 1, sp);
		}
	}
}

/* One table of the runs in sp, a column each. */
static void meta_table_part(FILE *f, const struct report *r, struct run_span sp)
{
	fputs("<table class=\"per-run\">\n<tr><th></th>", f);
	for (size_t i = sp.from; i < sp.to; i++)
		html_text(f, "th", r->names[i]);
	fputs("</tr>\n", f);
	for (size_t k = 0; k < sizeof meta_rows / sizeof meta_rows[0]; k++) {
		const struct meta_row *row = &meta_rows[k];
		int differs = row->src == META_SYS && r->runs.n > 1 && fact_differs(r, row->key) &&
			      bb_diff_system_key(row->key);
		meta_row_out(f, r, row, differs, sp);
	}
	for (size_t k = 0; k < sizeof fact_rows / sizeof fact_rows[0]; k++)
		if (fact_recorded(r, fact_rows[k].key))
			meta_row_out(f, r, &fact_rows[k], fact_differs(r, fact_rows[k].key), sp);
	if (r->runs.n > 1)
		meta_other_facts(f, r, sp);
	fputs("</table>\n", f);
}

/* Runs a table holds at most, so that it fits the page's width. */
#define RUNS_PER_TABLE 5

static void meta_table(FILE *f, const struct report *r)
{
	fputs("<h2>Runs</h2>\n<div class=\"runs\">\n", f);
	for (size_t from = 0; from < r->runs.n; from += RUNS_PER_TABLE) {
		struct run_span sp = { from, from + RUNS_PER_TABLE };
		if (sp.to > r->runs.n)
			sp.to = r->runs.n;
		meta_table_part(f, r, sp);
	}
	fputs("</div>\n", f);
	if (r->runs.n > RUNS_PER_TABLE)
		fprintf(f, "<p class=\"note\">%d runs a table, in the order above.</p>\n",
			RUNS_PER_TABLE);
	if (r->runs.n > 1)
		fputs("<p class=\"note\">Rows in bold differ among the runs (values that vary by "
		      "design, such as free memory or a temperature, are not shown as such).</p>\n",
		      f);
}

/* ---- output ---- */

static int svg_file(const struct report *r, const char *id, const struct bb_chart *ch)
{
	char path[4096];
	struct bb_out out;

	snprintf(path, sizeof path, "%s/%s.svg", r->o->svg_dir, id);
	for (char *p = path + strlen(r->o->svg_dir) + 1; *p; p++)
		*p = *p == '/' ? '_' : *p;
	if (bb_out_open(&out, path))
		return 1;
	bb_svg_chart(out.f, ch, 1);
	return bb_out_close(&out) ? 1 : 0;
}

static void figure(FILE *f, struct report *r, const struct cbuild *c, const struct bb_chart *ch)
{
	char id[600];

	snprintf(id, sizeof id, "%s%s%s", c->id, c->legend ? "." : "", c->legend ? c->legend : "");
	fputs(c->legend ? "<figure class=\"panel\" id=\"chart-" : "<figure id=\"chart-", f);
	bb_xml_text(f, id);
	fputs("\">\n", f);
	size_t cut = bb_svg_chart(f, ch, 0);
	fprintf(f, "<figcaption>chart <code>");
	bb_xml_text(f, id);
	fprintf(f, "</code>: %zu series; %s", c->ns,
		c->lines ? "each point is the median of a series' kept samples" :
			   "bars are medians of the kept samples, whiskers run from the lowest to "
			   "the highest sample");
	if (cut)
		fprintf(f, "; %zu whisker end%s far beyond the bars %s cut at the axis "
			   "(\xe2\x96\xb2), so that the bars stay readable", cut, cut == 1 ? "" : "s",
			cut == 1 ? "is" : "are");
	if (strstr(ch->ylabel, "Mbit/s"))
		fputs(". ttcp's classic text lines count a Mbit as 2^20 bits; this chart, like the "
		      "JSON, counts 10^6.", f);
	fputs("</figcaption>\n</figure>\n", f);
	r->charts++;
	if (r->o->svg_dir)
		r->rc |= svg_file(r, id, ch);
}

static void emit_one(FILE *f, struct report *r, const char *id, const char *legend)
{
	struct cbuild c;
	struct bb_chart ch;
	struct bb_chart_series *s;
	char title[600];

	build_chart(&c, r, id, legend);
	s = bb_xcalloc(c.ns, sizeof *s);
	to_chart(&c, r, &ch, s);
	if (legend) {
		snprintf(title, sizeof title, "%s: %s", legend, ch.title);
		ch.title = title;
		ch.small = 1;
	}
	figure(f, r, &c, &ch);
	free(s);
	free_chart(&c);
}

/* A line chart of several variants and several runs or groups: a small
 * panel per variant, a colour per run; else one chart. */
static void emit_chart(FILE *f, struct report *r, const char *id)
{
	struct cbuild c = { .id = id };
	const char **legends = bb_xcalloc(r->ms.n + 1, sizeof *legends);
	size_t nleg = 0, ngrp, n;
	int lines = 1;

	for (size_t i = 0; i < r->ms.n; i++)
		if (in_this(&c, r, &r->ms.m[i])) {
			find_str(legends, &nleg, r->ms.m[i].legend, 1);
			lines &= isfinite(r->ms.m[i].x);
		}
	count_series(&c, r, &n, &ngrp);
	if (!lines || nleg < 2 || ngrp < 2)
		emit_one(f, r, id, NULL);
	else {
		fputs("<div class=\"panels\">\n", f);
		for (size_t i = 0; i < nleg; i++)
			emit_one(f, r, id, legends[i]);
		fputs("</div>\n", f);
	}
	free(legends);
}

/* An applet's place among the charts: its host's rank (the classic
 * reports' order), then every other applet. */
static int applet_rank(const char *applet)
{
	const struct bb_host *h = bb_host_find(applet);

	return h && h->chart_rank > 0 ? h->chart_rank : BB_CHART_RANK_LAST;
}

/* Chart ids by applet rank, then in the order they first appear. */
static void charts(FILE *f, struct report *r)
{
	for (int rank = 1; rank <= BB_CHART_RANK_LAST; rank++)
		for (size_t i = 0; i < r->ms.n; i++) {
			const struct bb_metric *m = &r->ms.m[i];
			size_t j;
			if (!charted(m, m->chart) || applet_rank(m->applet) != rank)
				continue;
			for (j = 0; j < i && !charted(&r->ms.m[j], m->chart); j++)
				;
			if (j == i)
				emit_chart(f, r, m->chart);
		}
}

/* ---- samples over time (ttcp) ---- */

/* x of each kept sample: elapsed seconds when samples are durations or
 * cover a fixed time (ttcp's intervals), else the sample's number. */
static int elapsed(const struct bb_metric *m, double *x)
{
	const struct bb_rseries *s = m->series;
	int durations = strcmp(s->unit, "s") == 0;
	int fixed = !durations && strcmp(s->work_unit, "s") == 0 && s->work > 0;
	double t = 0;

	for (size_t i = 0; i < m->n; i++) {
		t += durations ? s->samples[s->discard + i] : fixed ? s->work : 1;
		x[i] = t;
	}
	return durations || fixed;
}

struct tsbuild {
	struct bb_chart_series *s;
	double **xs, **ys;
	char **names;
	size_t n;
	int in_time;
};

static void ts_series(struct tsbuild *b, const struct report *r, const struct bb_metric *m)
{
	char buf[600];
	size_t k = b->n++;

	b->xs[k] = bb_xcalloc(m->n, sizeof **b->xs);
	b->ys[k] = bb_xcalloc(m->n, sizeof **b->ys);
	b->in_time = elapsed(m, b->xs[k]);
	for (size_t j = 0; j < m->n; j++)
		b->ys[k][j] = m->v[j] * m->disp_scale;
	snprintf(buf, sizeof buf, "%s%s%s", r->runs.n > 1 ? r->names[run_index(r, m->run)] : "",
		 r->runs.n > 1 && m->legend[0] ? " " : "", m->legend);
	b->names[k] = bb_xstrdup(buf);
	b->s[k] = (struct bb_chart_series){ .name = b->names[k], .n = m->n, .x = b->xs[k],
					    .y = b->ys[k],
					    .colour = r->ngroups > 1 ? (int)group_of(r, m) : (int)k };
	b->s[k].dash = b->s[k].colour / bb_svg_colours();
}

/* Over time, per-stream lines are drawn for one run with several
 * streams only: with one stream they are its total, with several runs
 * each run is one line (its total) in its own colour. */
static int ts_left_out(const struct report *r, const struct bb_metric *m)
{
	return lone_part(r, m) || (r->ngroups > 1 && m->part);
}

static void timeseries_chart(FILE *f, struct report *r, const char *id, size_t count)
{
	struct tsbuild b = { .n = 0 };
	const struct bb_metric *first = NULL;
	struct bb_chart ch = { 0 };
	char ylabel[300];

	b.s = bb_xcalloc(count, sizeof *b.s);
	b.xs = bb_xcalloc(count, sizeof *b.xs);
	b.ys = bb_xcalloc(count, sizeof *b.ys);
	b.names = bb_xcalloc(count, sizeof *b.names);
	for (size_t i = 0; i < r->ms.n && b.n < count; i++)
		if (in_chart(&r->ms.m[i], id, 1) && !ts_left_out(r, &r->ms.m[i])) {
			first = first ? first : &r->ms.m[i];
			ts_series(&b, r, &r->ms.m[i]);
		}
	if (!first) {                /* every line left out */
		free(b.xs);
		free(b.ys);
		free(b.names);
		free(b.s);
		return;
	}
	snprintf(ylabel, sizeof ylabel, "%s (%s%s)", first->quantity, first->disp_unit,
		 strcmp(first->disp_unit, "Mbit/s") ? "" : " = 10^6 bit/s");
	ch.title = first->chart_title;
	ch.xlabel = b.in_time ? first->xlabel : "sample";
	ch.ylabel = ylabel;
	ch.s = b.s;
	ch.ns = b.n;
	struct cbuild c = { .id = id, .lines = 1, .ns = b.n };
	figure(f, r, &c, &ch);
	for (size_t i = 0; i < b.n; i++) {
		free(b.xs[i]);
		free(b.ys[i]);
		free(b.names[i]);
	}
	free(b.xs);
	free(b.ys);
	free(b.names);
	free(b.s);
}

static void timeseries(FILE *f, struct report *r)
{
	for (size_t i = 0; i < r->ms.n; i++) {
		const struct bb_metric *m = &r->ms.m[i];
		size_t j, count = 0;
		if (!in_chart(m, m->chart, 1))
			continue;
		for (j = 0; j < i && !in_chart(&r->ms.m[j], m->chart, 1); j++)
			;
		if (j < i)
			continue;        /* drawn already */
		for (j = i; j < r->ms.n; j++)
			count += in_chart(&r->ms.m[j], m->chart, 1);
		timeseries_chart(f, r, m->chart, count);
	}
}

/* Metrics that could not be charted, and why. */
static void left_out(FILE *f, const struct report *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ms.n; i++) {
		const struct bb_metric *m = &r->ms.m[i];
		if (!m->bad)
			continue;
		if (!n++)
			fputs("<h2>Left out</h2>\n<ul>\n", f);
		fputs("<li><code>", f);
		bb_xml_text(f, m->key);
		fputs("</code> (", f);
		bb_xml_text(f, r->names[run_index(r, m->run)]);
		fputs("): ", f);
		bb_xml_text(f, m->bad);
		fputs("</li>\n", f);
	}
	if (n)
		fputs("</ul>\n", f);
}

/* --by: each value against the base, as compare --by does. */
static void ab_sections(FILE *f, const struct report *r)
{
	struct compare_opts co = { .alpha = 0.05, .threshold = 0.02 };
	char na[300], nb[300];

	for (size_t i = 0; i < r->ngroups; i++) {
		if (i == r->base)
			continue;
		snprintf(na, sizeof na, "%s", r->gnames[r->base]);
		snprintf(nb, sizeof nb, "%s", r->gnames[i]);
		report_ab(f, &co, &r->sides[r->base].runs, &r->sides[i].runs, na, nb);
	}
}

static void headlines(FILE *f, const struct report *r)
{
	struct bb_runs *g = bb_xcalloc(r->ngroups, sizeof *g);

	for (size_t i = 0; i < r->ngroups; i++)
		if (r->sides)
			g[i] = r->sides[i].runs;
		else
			g[i] = (struct bb_runs){ .r = &r->runs.r[i], .n = 1 };
	report_headlines(f, g, r->gnames, r->ngroups);
	free(g);
}

static void html(FILE *f, struct report *r)
{
	fputs(html_head, f);
	html_text(f, "title", r->o->title);
	fputs("\n</head>\n<body>\n", f);
	html_text(f, "h1", r->o->title);
	size_t shown = r->runs.n - r->unlabelled;

	fprintf(f, "\n<p>%zu run%s, written by boardbench %s (git %s). Values are per sample, "
		   "in the units on each axis; warm-up samples are left out.",
		shown, shown == 1 ? "" : "s", BB_VERSION, BB_GIT_REV);
	if (r->unlabelled) {
		fprintf(f, " %zu more without the label <code>", r->unlabelled);
		bb_xml_text(f, r->o->by);
		fputs("</code> left out.", f);
	}
	if (r->sides)
		fprintf(f, " Split %s%s%s: each chart has a series per group, its points the "
			   "medians of the samples of every run in it.", r->o->by ? "by the label <code>" :
			"into A (the runs before --) and B (after)", r->o->by ? r->o->by : "",
			r->o->by ? "</code>" : "");
	fputs("</p>\n", f);
	if (r->sides)
		ab_sections(f, r);
	headlines(f, r);
	fputs("<h2>Charts</h2>\n", f);
	charts(f, r);
	timeseries(f, r);
	if (!r->charts)
		fputs("<p>No chart: these runs hold no metric that can be drawn.</p>\n", f);
	left_out(f, r);
	meta_table(f, r);
	fputs("</body>\n</html>\n", f);
}

/* ---- CSV: every metric of every run ---- */

static void csv_metric(FILE *f, const struct report *r, const struct bb_metric *m)
{
	struct bb_figures fig;

	bb_csv_field(f, m->run->path);
	fputc(',', f);
	bb_csv_field(f, r->names[run_index(r, m->run)]);
	fputc(',', f);
	bb_csv_field(f, m->key);
	fputc(',', f);
	bb_csv_field(f, m->applet);
	fputc(',', f);
	bb_csv_field(f, m->name);
	fputc(',', f);
	bb_csv_field(f, m->variant);
	fprintf(f, ",%s,", m->quantity);
	bb_csv_field(f, m->unit);
	fprintf(f, ",%s,%zu", m->better > 0 ? "higher" : m->better < 0 ? "lower" : "unknown", m->n);
	if (m->bad || !m->n) {
		fputs(",,,,,", f);
		bb_csv_field(f, m->bad ? m->bad : "no samples");
		fputc('\n', f);
		return;
	}
	bb_metric_figures(m->v, m->n, m->better, &fig);
	fprintf(f, ",%.17g,%.17g,%.17g,%.17g,\n", fig.median, fig.best, fig.min, fig.max);
}

static int write_csv(const struct report *r)
{
	struct bb_out out;

	if (bb_out_open(&out, r->o->csv))
		return 1;
	fputs("file,run,key,applet,series,variant,quantity,unit,better,n,median,best,min,max,"
	      "left_out\n", out.f);
	for (size_t i = 0; i < r->ms.n; i++)
		csv_metric(out.f, r, &r->ms.m[i]);
	return bb_out_close(&out) ? 1 : 0;
}

/* ---- the applet ---- */

static int prepare_svg_dir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0755) == 0 || (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))
		return 0;
	bb_warn("cannot write --svg '%s': %s", dir, errno == EEXIST ? "not a directory" :
						      strerror(errno));
	return 1;
}

static void split_groups(struct report *r);
static void two_sides(struct report *r);

/* A short name per run, told apart by the file's name where labels
 * alone do not; a group per run, or per value of --by. */
static void name_runs(struct report *r)
{
	size_t n = r->runs.n;

	r->names = bb_xcalloc(n, sizeof *r->names);
	for (size_t i = 0; i < n; i++)
		bb_rrun_name(&r->runs.r[i], r->names[i], sizeof r->names[i]);
	for (size_t i = 0; i < n; i++) {
		int dup = 0;
		for (size_t j = 0; j < n; j++)
			dup |= j != i && strcmp(r->names[i], r->names[j]) == 0;
		const char *p = r->runs.r[i].path ? r->runs.r[i].path : "";
		const char *base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
		size_t len = strlen(r->names[i]);
		if (dup && len + 4 < sizeof r->names[i])
			snprintf(r->names[i] + len, sizeof r->names[i] - len, " %.*s",
				 (int)(strlen(base) > 5 && !strcmp(base + strlen(base) - 5, ".json") ?
				       strlen(base) - 5 : strlen(base)), base);
	}
	r->group = bb_xcalloc(n ? n : 1, sizeof *r->group);
	r->gnames = bb_xcalloc(n ? n : 1, sizeof *r->gnames);
	if (r->o->nin_a >= 0) {
		two_sides(r);
		return;
	}
	if (!r->o->by) {
		r->ngroups = n;
		for (size_t i = 0; i < n; i++) {
			r->group[i] = i;
			r->gnames[i] = r->names[i];
		}
		return;
	}
	split_groups(r);
}

static int write_report(struct report *r)
{
	struct bb_out out;

	if (r->o->svg_dir && prepare_svg_dir(r->o->svg_dir))
		return 1;
	if (bb_out_open(&out, r->o->out))
		return 1;
	html(out.f, r);
	r->rc |= bb_out_close(&out) ? 1 : 0;
	if (r->o->csv)
		r->rc |= write_csv(r);
	if (!r->rc)
		printf("report: %s (%zu charts from %zu run%s)\n", r->o->out, r->charts, r->runs.n,
		       r->runs.n == 1 ? "" : "s");
	return r->rc;
}

/* --by KEY: the groups are the values of the label (compare_split_by);
 * runs without it are left out, as compare --by leaves them. */
static void split_groups(struct report *r)
{
	size_t unlabelled;

	r->sides = compare_split_by(&r->runs, r->o->by, &r->ngroups, &unlabelled);
	r->unlabelled = unlabelled;
	if (r->o->base) {
		for (r->base = 0; r->base < r->ngroups && strcmp(r->sides[r->base].value, r->o->base);
		     r->base++)
			;
		if (r->base == r->ngroups)
			bb_die_value("--base", r->o->base, "no run has this value of the --by label");
	}
	if (r->ngroups < 2)
		bb_die_usage("--by %s: the runs have %zu value%s of this label; a comparison "
			     "needs two", r->o->by, r->ngroups, r->ngroups == 1 ? "" : "s");
	if (unlabelled)
		printf("note: %zu run%s without the label %s left out\n", unlabelled,
		       unlabelled == 1 ? "" : "s", r->o->by);
	for (size_t g = 0; g < r->ngroups; g++) {
		char buf[300];
		snprintf(buf, sizeof buf, "%s=%s", r->o->by, r->sides[g].value);
		r->gnames[g] = bb_xstrdup(buf);
		for (size_t k = 0; k < r->sides[g].runs.n; k++)
			for (size_t i = 0; i < r->runs.n; i++)
				if (r->runs.r[i].path == r->sides[g].runs.r[k].path)
					r->group[i] = g;
	}
}

/* A... -- B...: two groups, named A and B. */
static void two_sides(struct report *r)
{
	static const char *const names[] = { "A", "B" };

	r->ngroups = 2;
	r->sides = bb_xcalloc(2, sizeof *r->sides);
	for (size_t g = 0; g < 2; g++) {
		struct bb_runs *s = &r->sides[g].runs;
		size_t from = g ? r->runs_a : 0, to = g ? r->runs.n : r->runs_a;
		r->sides[g].value = names[g];
		r->gnames[g] = bb_xstrdup(names[g]);
		s->r = bb_xcalloc(to - from + 1, sizeof *s->r);
		for (size_t i = from; i < to; i++) {
			s->r[s->n++] = r->runs.r[i];
			r->group[i] = g;
		}
	}
}

int report_main(int argc, char **argv)
{
	struct report_opts o;
	struct report r = { .o = &o };
	int rc;

	report_parse(argc, argv, &o);
	if (o.nin_a >= 0) {
		bb_runs_load(&r.runs, o.in, o.nin_a);
		r.runs_a = r.runs.n;
		bb_runs_load(&r.runs, o.in + o.nin_a + 1, o.nin - o.nin_a - 1);
		if (!r.runs_a || r.runs.n == r.runs_a)
			bb_die_usage("A... -- B...: a side holds no run (see --help)");
	} else
		bb_runs_load(&r.runs, o.in, o.nin);
	name_runs(&r);
	for (size_t i = 0; i < r.runs.n; i++)
		if (!o.by || bb_rkv_str(&r.runs.r[i].labels, o.by))
			bb_metrics_add_run(&r.ms, &r.runs.r[i]);
	rc = write_report(&r);
	bb_metrics_free(&r.ms);
	for (size_t g = 0; r.sides && g < r.ngroups; g++) {
		free(r.sides[g].runs.r);
		free((char *)r.gnames[g]);
	}
	free(r.sides);
	free(r.gnames);
	free(r.group);
	free(r.names);
	free(o.args);
	bb_runs_free(&r.runs);
	return rc;
}
