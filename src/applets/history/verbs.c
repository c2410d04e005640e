/* verbs.c - `history list`, `show` and `changes`, as text or --json
 * (docs/history.md has both layouts), and the description of one change
 * point that the trend page and the bisect script share. */
#include "applets/history/history.h"
#include "applets/history/schema.h"
#include "applets/history/verbs.h"
#include "core/error.h"
#include "core/json.h"
#include "analysis/pct.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- one change point ---- */

/* Where the words of a and b start to differ and stop differing: the
 * common leading and trailing words (whole words, split at spaces). */
static void common_words(const char *a, const char *b, size_t *pre, size_t *suf_a, size_t *suf_b)
{
	size_t la = strlen(a), lb = strlen(b), i = 0, j = 0;

	*pre = 0;
	for (; a[i] && a[i] == b[i]; i++)
		if (a[i] == ' ')
			*pre = i + 1;
	if (!a[i] && !b[i])
		*pre = i;
	else if ((!a[i] && b[i] == ' ') || (!b[i] && a[i] == ' '))
		*pre = i;
	for (; j < la - *pre && j < lb - *pre && a[la - 1 - j] == b[lb - 1 - j]; j++)
		;
	while (j > 0 && !(a[la - j] == ' '))   /* back to a word's start */
		j--;
	*suf_a = la - j;
	*suf_b = lb - j;
}

void hist_value_diff(const char *a, const char *b, char *oa, size_t la, char *ob, size_t lb)
{
	size_t pre, ea, eb;

	common_words(a, b, &pre, &ea, &eb);
	if (ea < pre)
		ea = pre;
	if (eb < pre)
		eb = pre;
	snprintf(oa, la, "%s%.*s%s", pre ? "... " : "", (int)(ea - pre), a + pre, a[ea] ? " ..." : "");
	snprintf(ob, lb, "%s%.*s%s", pre ? "... " : "", (int)(eb - pre), b + pre, b[eb] ? " ..." : "");
}

const struct hist_run *hist_cp_run(const struct hist_lab *lab, const struct hist_cp *c, int after)
{
	const struct hist_series *s = &lab->series[c->series];
	const struct hist_point *p = &s->pt[after ? c->cp.at : c->cp.at - 1];

	return &lab->runs[s->runs[after ? p->first : p->first + p->n - 1]];
}

size_t hist_cp_run_number(const struct hist_lab *lab, const struct hist_cp *c)
{
	return lab->series[c->series].pt[c->cp.at].first + 1;
}

const char *hist_direction(const struct hist_lab *lab, const struct hist_cp *c)
{
	int better = lab->metrics[lab->series[c->series].metric].better;

	if (!better)
		return "changed";
	return (c->cp.ratio > 1) == (better > 0) ? "better" : "worse";
}

static void causes_json(struct bb_json *j, const struct bb_causes *cs)
{
	bb_json_key(j, "causes");
	bb_json_arr_begin(j);
	for (size_t i = 0; i < cs->n; i++) {
		bb_json_obj_begin(j);
		bb_json_kstr(j, "field", cs->v[i].field);
		bb_json_kstr(j, "before", cs->v[i].before);
		bb_json_kstr(j, "after", cs->v[i].after);
		bb_json_kbool(j, "changed_here", cs->v[i].steady);
		bb_json_kbool(j, "may_explain", cs->v[i].explains);
		bb_json_obj_end(j);
	}
	bb_json_arr_end(j);
}

void hist_cp_json(struct bb_json *j, struct hdb *db, const struct hist_lab *lab, size_t k)
{
	const struct hist_cp *c = &lab->cps[k];
	const struct hist_series *s = &lab->series[c->series];
	const struct hist_run *b = hist_cp_run(lab, c, 0), *a = hist_cp_run(lab, c, 1);
	struct bb_causes cs;

	bb_json_obj_begin(j);
	bb_json_kstr(j, "board", lab->boards[s->board]);
	bb_json_kstr(j, "metric", lab->metrics[s->metric].key);
	bb_json_kstr(j, "unit", lab->metrics[s->metric].unit);
	bb_json_kint(j, "run", (long long)hist_cp_run_number(lab, c)); /* the word, not the applet */
	bb_json_kint(j, "unit_index", (long long)c->cp.at + 1);
	bb_json_kstr(j, "last_before", b->started);
	bb_json_kstr(j, "first_after", a->started);
	bb_json_kint(j, "last_before_id", b->id);
	bb_json_kint(j, "first_after_id", a->id);
	bb_json_knum(j, "ratio", c->cp.ratio);
	bb_json_kstr(j, "direction", hist_direction(lab, c));
	bb_json_knum(j, "p", c->cp.p);
	bb_json_knum(j, "samples_ratio", c->ratio);
	bb_json_knum(j, "samples_lo", c->lo);
	bb_json_knum(j, "samples_hi", c->hi);
	bb_json_knum(j, "samples_p", c->mw_p);
	bb_json_kbool(j, "confirmed", c->confirmed);
	bb_json_kstr(j, "scope", c->scope);
	bb_json_kint(j, "causes_shift", hist_causes(db, lab, k, &cs));
	causes_json(j, &cs);
	bb_causes_free(&cs);
	bb_json_obj_end(j);
}

static void pct(FILE *f, double ratio)
{
	char b[BB_PCT_LEN];

	fputs(bb_pct(b, sizeof b, (ratio - 1) * 100, 1), f);
}

/* The causes: those that changed here, then how many vary anyway. */
static void causes_text(FILE *f, const struct bb_causes *cs, int shift, const char *indent)
{
	size_t steady = 0, shown = 0;

	for (size_t i = 0; i < cs->n; i++)
		steady += cs->v[i].steady;
	if (!steady)
		fprintf(f, "%scause: no recorded fact changed here\n", indent);
	for (size_t i = 0; i < cs->n && shown < HIST_CAUSES_SHOWN; i++) {
		char a[256], b[256];
		if (!cs->v[i].steady)
			continue;
		hist_value_diff(cs->v[i].before, cs->v[i].after, a, sizeof a, b, sizeof b);
		fprintf(f, "%scause%s: %s: %s -> %s\n", indent,
			shift < 0 ? " (a unit before the point)" : shift > 0 ? " (a unit after the point)" : "",
			cs->v[i].field, a, b);
		shown++;
	}
	if (steady > shown)
		fprintf(f, "%s... and %zu more facts changed here (--json lists them)\n", indent,
			steady - shown);
	if (cs->n > steady)
		fprintf(f, "%salso differ, but vary from run to run: %zu fact%s (--json)\n", indent,
			cs->n - steady, cs->n - steady == 1 ? "" : "s");
}

void hist_cp_text(FILE *f, struct hdb *db, const struct hist_lab *lab, size_t k, int names)
{
	const struct hist_cp *c = &lab->cps[k];
	const struct hist_series *s = &lab->series[c->series];
	struct bb_causes cs;

	fprintf(f, "%s", names ? "" : "  ---- ");
	if (names)
		fprintf(f, "%s  %s  %s  run %zu: ", hist_cp_run(lab, c, 1)->started,
			lab->boards[s->board], lab->metrics[s->metric].key, hist_cp_run_number(lab, c));
	pct(f, c->cp.ratio);
	fprintf(f, " (%s; samples ", hist_direction(lab, c));
	pct(f, c->ratio);
	fprintf(f, ", 95%% ");
	pct(f, c->lo);
	fprintf(f, " to ");
	pct(f, c->hi);
	fprintf(f, "), p %.2g, %s\n", c->cp.p, c->scope);
	int shift = hist_causes(db, lab, k, &cs);
	causes_text(f, &cs, shift, names ? "    " : "         ");
	bb_causes_free(&cs);
}

/* ---- list ---- */

struct board_span {
	size_t runs, boots;
	const char *first, *last;
};

static void spans_of(const struct hist_lab *lab, struct board_span *sp)
{
	for (size_t i = 0; i < lab->nruns; i++) {
		const struct hist_run *r = &lab->runs[i];
		struct board_span *b = &sp[r->board];
		if (!b->runs++ || strcmp(r->started, b->first) < 0)
			b->first = r->started;
		if (!b->last || strcmp(r->started, b->last) > 0)
			b->last = r->started;
		b->boots += r->boot[0] && (i == 0 || lab->runs[i - 1].board != r->board ||
					   strcmp(lab->runs[i - 1].boot, r->boot));
	}
}

static void list_counts(struct hdb *db, const struct hist_lab *lab, long long *runs_of)
{
	struct hstmt *s = hdb_prepare(db, "SELECT metric_id, count(*) FROM samples GROUP BY metric_id");

	while (hst_step(s) == 1)
		for (size_t i = 0; i < lab->nmetrics; i++)
			if (lab->metrics[i].id == hst_col_int(s, 0))
				runs_of[i] = hst_col_int(s, 1);
	hst_free(s);
}

static void list_json(struct hdb *db, const struct hist_lab *lab, const struct board_span *sp,
		      const long long *runs_of)
{
	struct bb_json j;

	bb_json_init(&j, stdout, 1);
	bb_json_obj_begin(&j);
	bb_json_kstr(&j, "database", hdb_name(db));
	bb_json_kstr(&j, "engine", hdb_engine(db));
	bb_json_kint(&j, "schema_version", hist_schema_version(db));
	bb_json_kint(&j, "runs", (long long)lab->nruns);
	bb_json_key(&j, "boards");
	bb_json_arr_begin(&j);
	for (size_t i = 0; i < lab->nboards; i++) {
		bb_json_obj_begin(&j);
		bb_json_kstr(&j, "board", lab->boards[i]);
		bb_json_kint(&j, "runs", (long long)sp[i].runs);
		bb_json_kint(&j, "boots", (long long)sp[i].boots);
		bb_json_kstr(&j, "first", sp[i].first ? sp[i].first : "");
		bb_json_kstr(&j, "last", sp[i].last ? sp[i].last : "");
		bb_json_obj_end(&j);
	}
	bb_json_arr_end(&j);
	bb_json_key(&j, "metrics");
	bb_json_arr_begin(&j);
	for (size_t i = 0; i < lab->nmetrics; i++) {
		bb_json_obj_begin(&j);
		bb_json_kstr(&j, "metric", lab->metrics[i].key);
		bb_json_kstr(&j, "unit", lab->metrics[i].unit);
		bb_json_kint(&j, "runs", runs_of[i]);
		bb_json_obj_end(&j);
	}
	bb_json_arr_end(&j);
	bb_json_obj_end(&j);
	fputc('\n', stdout);
}

static void list_text(struct hdb *db, const struct hist_lab *lab, const struct board_span *sp,
		      const long long *runs_of)
{
	printf("%s (%s, schema %d): %zu run%s on %zu board%s, %zu metrics\n", hdb_name(db),
	       hdb_engine(db), hist_schema_version(db), lab->nruns, lab->nruns == 1 ? "" : "s",
	       lab->nboards, lab->nboards == 1 ? "" : "s", lab->nmetrics);
	for (size_t i = 0; i < lab->nboards; i++)
		printf("board %s: %zu runs, %zu boots recorded, %s to %s\n", lab->boards[i], sp[i].runs,
		       sp[i].boots, sp[i].first ? sp[i].first : "-", sp[i].last ? sp[i].last : "-");
	for (size_t i = 0; i < lab->nmetrics; i++)
		printf("  %-44s %-8s %lld runs\n", lab->metrics[i].key, lab->metrics[i].unit, runs_of[i]);
}

int hist_list(struct hdb *db, const struct hist_opts *o)
{
	struct hist_lab lab;

	hist_lab_basics(db, &lab);   /* no analysis */
	struct board_span *sp = bb_xcalloc(lab.nboards ? lab.nboards : 1, sizeof *sp);
	long long *runs_of = bb_xcalloc(lab.nmetrics ? lab.nmetrics : 1, sizeof *runs_of);
	spans_of(&lab, sp);
	list_counts(db, &lab, runs_of);
	if (o->json)
		list_json(db, &lab, sp, runs_of);
	else
		list_text(db, &lab, sp, runs_of);
	free(sp);
	free(runs_of);
	hist_lab_free(&lab);
	return 0;
}

/* ---- show ---- */

static void show_json_series(struct bb_json *j, struct hdb *db, const struct hist_lab *lab,
			     const struct hist_series *s)
{
	const struct hist_metric *m = &lab->metrics[s->metric];

	bb_json_obj_begin(j);
	bb_json_kstr(j, "board", lab->boards[s->board]);
	bb_json_kstr(j, "metric", m->key);
	bb_json_kstr(j, "unit", m->unit);
	bb_json_kint(j, "better", m->better);
	bb_json_kstr(j, "units", s->by_boot ? "boots" : "runs");
	bb_json_key(j, "runs");
	bb_json_arr_begin(j);
	for (size_t u = 0; u < s->npt; u++)
		for (size_t k = 0; k < s->pt[u].n; k++) {
			size_t i = s->pt[u].first + k;
			const struct hist_run *r = &lab->runs[s->runs[i]];
			bb_json_obj_begin(j);
			bb_json_kint(j, "id", r->id);
			bb_json_kstr(j, "started", r->started);
			bb_json_kstr(j, "boot", r->boot);
			bb_json_knum(j, "uptime_s", r->uptime);
			bb_json_kint(j, "unit_index", (long long)u + 1);
			bb_json_knum(j, "median", s->median[i]);
			bb_json_obj_end(j);
		}
	bb_json_arr_end(j);
	bb_json_key(j, "change_points");
	bb_json_arr_begin(j);
	for (size_t k = s->first_cp; k < s->first_cp + s->ncp; k++)
		if (lab->cps[k].confirmed)
			hist_cp_json(j, db, lab, k);
	bb_json_arr_end(j);
	bb_json_obj_end(j);
}

static void show_text_series(struct hdb *db, const struct hist_lab *lab, const struct hist_series *s)
{
	const struct hist_metric *m = &lab->metrics[s->metric];
	size_t next = s->first_cp, end = s->first_cp + s->ncp, shown = 0;

	printf("%s on %s (%s, %s is better): %zu runs, %zu %s as units\n", m->key,
	       lab->boards[s->board], m->disp_unit,
	       m->better > 0 ? "higher" : m->better < 0 ? "lower" : "neither", s->nruns, s->npt,
	       s->by_boot ? "boots" : "runs");
	if (!s->by_boot && s->npt && lab->runs[s->runs[0]].boot[0])
		printf("  (runs as units: too few boots for a split of %zu a side; a change that "
		       "needs a reboot cannot be told from one boot's luck)\n", lab->min_seg);
	printf("  %4s  %-22s %-12s %14s\n", "run", "started", "boot", m->disp_unit); /* the word, not the applet */
	for (size_t u = 0; u < s->npt; u++) {
		for (; next < end && lab->cps[next].cp.at <= u; next++)
			if (lab->cps[next].confirmed && lab->cps[next].cp.at == u) {
				hist_cp_text(stdout, db, lab, next, 0);
				shown++;
			}
		for (size_t k = 0; k < s->pt[u].n; k++) {
			size_t i = s->pt[u].first + k;
			const struct hist_run *r = &lab->runs[s->runs[i]];
			printf("  %4zu  %-22s %-12.12s %14.6g\n", i + 1, r->started, r->boot[0] ? r->boot : "-",
			       hist_disp(lab, s, s->median[i]));
		}
	}
	printf("%zu change point%s\n", shown, shown == 1 ? "" : "s");
}

int hist_show(struct hdb *db, const struct hist_opts *o)
{
	struct hist_lab lab;
	struct bb_json j;
	size_t found = 0;

	hist_lab_load(db, o, &lab);
	if (o->json) {
		bb_json_init(&j, stdout, 1);
		bb_json_arr_begin(&j);
	}
	for (size_t i = 0; i < lab.nseries; i++) {
		const struct hist_series *s = &lab.series[i];
		if (strcmp(lab.metrics[s->metric].key, o->metric) ||
		    (o->board && strcmp(lab.boards[s->board], o->board)) || !s->nruns)
			continue;
		if (o->json)
			show_json_series(&j, db, &lab, s);
		else
			show_text_series(db, &lab, s);
		found++;
	}
	if (o->json) {
		bb_json_arr_end(&j);
		fputc('\n', stdout);
	}
	hist_lab_free(&lab);
	if (!found)
		bb_die_usage("no runs of metric '%s'%s%s%s ('history list' names the metrics)", o->metric,
			     o->board ? " on board '" : "", o->board ? o->board : "", o->board ? "'" : "");
	return 0;
}

/* ---- changes ---- */

struct order {
	const char *when;
	size_t k;
};

static int cmp_newest(const void *x, const void *y)
{
	const struct order *a = x, *b = y;
	int c = strcmp(b->when, a->when);
	return c ? c : (a->k > b->k) - (a->k < b->k);
}

int hist_changes(struct hdb *db, const struct hist_opts *o)
{
	struct hist_lab lab;
	struct order *ord;
	size_t n = 0;
	struct bb_json j;

	hist_lab_load(db, o, &lab);
	ord = bb_xmalloc((lab.ncps ? lab.ncps : 1) * sizeof *ord);
	for (size_t k = 0; k < lab.ncps; k++) {
		const char *when = hist_cp_run(&lab, &lab.cps[k], 1)->started;
		const struct hist_series *s = &lab.series[lab.cps[k].series];
		if (!lab.cps[k].confirmed || (o->since && strcmp(when, o->since) < 0) ||
		    (o->board && strcmp(lab.boards[s->board], o->board)))
			continue;
		ord[n++] = (struct order){ when, k };
	}
	qsort(ord, n, sizeof *ord, cmp_newest);
	if (o->json) {
		bb_json_init(&j, stdout, 1);
		bb_json_arr_begin(&j);
		for (size_t i = 0; i < n; i++)
			hist_cp_json(&j, db, &lab, ord[i].k);
		bb_json_arr_end(&j);
		fputc('\n', stdout);
	} else {
		printf("%zu change point%s over %zu series (%zu tests, false discoveries held to %g)\n",
		       n, n == 1 ? "" : "s", lab.all_series, lab.tests, o->q);
		for (size_t i = 0; i < n; i++)
			hist_cp_text(stdout, db, &lab, ord[i].k, 1);
	}
	free(ord);
	hist_lab_free(&lab);
	return 0;
}
