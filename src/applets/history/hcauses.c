/* hcauses.c - the causes beside a change point of the history: the facts
 * of the runs nearest the point on each side read back from the database
 * and handed to the cause finder (analysis/causes.h). */
#include "applets/history/history.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>

/* A run rebuilt from its facts. */
static void run_facts(struct hstmt *s, long long id, struct bb_rrun *r)
{
	char **k = NULL, **v = NULL;
	size_t n = 0;

	hst_int(s, 1, id);
	while (hst_step(s) == 1) {
		k = bb_xrealloc(k, (n + 1) * sizeof *k);
		v = bb_xrealloc(v, (n + 1) * sizeof *v);
		k[n] = bb_xstrdup(hst_col_text(s, 0));
		v[n++] = bb_xstrdup(hst_col_text(s, 1));
	}
	hst_reset(s);
	bb_rrun_from_facts(r, (const char *const *)k, (const char *const *)v, n);
	for (size_t i = 0; i < n; i++) {
		free(k[i]);
		free(v[i]);
	}
	free(k);
	free(v);
}

/* The runs of units [lo, hi), each read once per program (the points of
 * one lab share their runs): shallow copies of lab->facts' runs. */
static void side(struct hstmt *s, const struct hist_lab *lab, const struct hist_series *se,
		 size_t lo, size_t hi, struct bb_runs *out)
{
	struct hist_facts *f = lab->facts;

	memset(out, 0, sizeof *out);
	for (size_t u = lo; u < hi; u++)
		for (size_t k = 0; k < se->pt[u].n; k++) {
			size_t i = se->runs[se->pt[u].first + k];
			if (!f->have[i]) {
				run_facts(s, lab->runs[i].id, &f->run[i]);
				f->have[i] = 1;
			}
			out->r = bb_xrealloc(out->r, (out->n + 1) * sizeof *out->r);
			out->r[out->n++] = f->run[i];
		}
}

static size_t steady_count(const struct bb_causes *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n; i++)
		n += c->v[i].steady;
	return n;
}

/* The causes at a boundary before unit at, from the units [lo, hi). */
static void at_boundary(struct hstmt *s, const struct hist_lab *lab, const struct hist_series *se,
			size_t lo, size_t at, size_t hi, struct bb_causes *out)
{
	struct bb_runs before, after;

	if (at - lo > HIST_CAUSE_UNITS)
		lo = at - HIST_CAUSE_UNITS;
	if (hi - at > HIST_CAUSE_UNITS)
		hi = at + HIST_CAUSE_UNITS;
	side(s, lab, se, lo, at, &before);
	side(s, lab, se, at, hi, &after);
	bb_causes_find(&before, &after, lab->metrics[se->metric].applet, out);
	free(before.r);          /* the runs are the cache's */
	free(after.r);
}

int hist_causes(struct hdb *db, const struct hist_lab *lab, size_t k, struct bb_causes *out)
{
	const struct hist_cp *c = &lab->cps[k];
	const struct hist_series *se = &lab->series[c->series];
	size_t at = c->cp.at;
	size_t lo = k > se->first_cp ? lab->cps[k - 1].cp.at : 0;
	size_t hi = k + 1 < se->first_cp + se->ncp ? lab->cps[k + 1].cp.at : se->npt;
	struct hstmt *s = hdb_prepare(db, "SELECT f.key, f.value FROM run_facts rf "
				      "JOIN facts f ON f.id = rf.fact_id WHERE rf.run_id = ?");
	static const int shifts[] = { -1, 1 };
	int shift = 0;

	at_boundary(s, lab, se, lo, at, hi, out);
	/* nothing changed exactly there: a fact that changed a unit earlier or
	 * later (the split is placed within a unit or so in noise) */
	for (size_t i = 0; i < 2 && !steady_count(out); i++) {
		size_t a = at + (size_t)shifts[i];
		struct bb_causes near;
		if (a <= lo || a >= hi)
			continue;
		at_boundary(s, lab, se, lo, a, hi, &near);
		if (steady_count(&near)) {
			bb_causes_free(out);
			*out = near;
			shift = shifts[i];
		} else {
			bb_causes_free(&near);
		}
	}
	hst_free(s);
	return shift;
}
