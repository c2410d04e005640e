/* compare_print.c - what `compare` prints once compare.c has decided: the
 * runs of each side and the warnings about them, a summary line per
 * applet (its verdict in its headline's own quantity, the range of the
 * claimed changes, the runs, and the power when nothing was claimed),
 * the table of claimed and headline metrics (--all: every metric), notes
 * on the basis of the tests, and the CSV.  A change is always B relative
 * to A in the metric's own unit; "faster" or "slower" comes from the
 * metric's direction. */
#include "core/calib.h"
#include "core/emit.h"
#include "applets/compare/compare.h"
#include "analysis/differ.h"
#include "analysis/power.h"
#include "applets/compare/runinfo.h"
#include "analysis/pct.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Runs a side past which "runs needed" is not worth saying exactly. */
#define NEED_MAX 1000

int compare_claimed(const struct row *r)
{
	return !r->skip && !r->evidence && (r->v == BB_V_IMPROVED || r->v == BB_V_REGRESSED ||
			    r->v == BB_V_DIFFERS);
}

#define claimed compare_claimed

/* ---- numbers ---- */

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

/* p<0.001, p<0.01, p<0.05 or p=0.07: the bound a set of claims passed. */
static void fmt_pbound(char *buf, size_t len, double p)
{
	static const double bounds[] = { 0.001, 0.01, 0.05 };

	for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
		if (p < bounds[i]) {
			snprintf(buf, len, "p<%g", bounds[i]);
			return;
		}
	snprintf(buf, len, "p=%.2g", p);
}

static double pct(double ratio)
{
	return 100 * (ratio - 1);
}

/* "5 runs a side", "3 boots a side", "5 vs 4 runs", or "pooled samples,
 * 1 vs 2 runs". */
static void fmt_basis(char *buf, size_t len, const struct row *r)
{
	const char *unit = r->basis == BASIS_BOOTS ? "boot" : "run"; /* the word, not the applet */
	size_t na = r->per_run ? r->ua : r->a->runs, nb = r->per_run ? r->ub : r->b->runs;

	if (na == nb)
		snprintf(buf, len, "%s%zu %s%s a side", r->per_run ? "" : "pooled samples, ", na,
			 unit, na == 1 ? "" : "s");
	else
		snprintf(buf, len, "%s%zu vs %zu %ss", r->per_run ? "" : "pooled samples, ", na,
			 nb, unit);
}

/* ---- the table ---- */

/* Why a row is not claimed, or that it heads its applet, and what it
 * could have found. */
static void fmt_note(char *buf, size_t len, const struct row *r, const struct cmp *c)
{
	char pc[BB_PCT_LEN];
	size_t k = 0;

	buf[0] = '\0';
	if (r->twin) {
		snprintf(buf, len, "the samples of %s, in %s", r->a->m->twin, r->a->m->disp_unit);
		return;
	}
	if (r->evidence) {
		snprintf(buf, len, "the CPU's own speed: evidence about the machine, not a claim");
		return;
	}
	if (r->headline)
		k += (size_t)snprintf(buf + k, len - k, "headline; ");
	if (claimed(r) && compare_confounder(c, r) && k < len)
		k += (size_t)snprintf(buf + k, len - k, "confounded: %s; ", compare_confounder(c, r));
	if (!r->per_run && c->mixed_basis && k < len)
		k += (size_t)snprintf(buf + k, len - k, "pooled samples; ");
	if (r->v == BB_V_NOISE && r->ab.lo <= 1 && r->ab.hi >= 1 && k < len)
		k += (size_t)snprintf(buf + k, len - k, "its interval includes no change; ");
	else if (r->v == BB_V_NOISE && k < len)
		k += (size_t)snprintf(buf + k, len - k, "held by the %.0f%% %sthreshold; ",
				      100 * r->threshold,
				      r->threshold > c->o->threshold ? "CPU-speed " : "noise ");
	else if (r->v == BB_V_SAME && r->ab.mwu.p < c->o->alpha && k < len)
		k += (size_t)snprintf(buf + k, len - k, "not past the suite-wide control; ");
	if (!claimed(r) && isfinite(r->detectable) && k < len)
		k += (size_t)snprintf(buf + k, len - k, "would find %s; ",
				      bb_pct(pc, sizeof pc, 100 * r->detectable, 0));
	if (k >= 2 && k < len)
		buf[k - 2] = '\0';
}

static int key_width(const struct cmp *c)
{
	int w = 6;

	for (size_t i = 0; i < c->n; i++)
		if (c->rows[i].shown && (int)strlen(c->rows[i].a->key) > w)
			w = (int)strlen(c->rows[i].a->key);
	return w > 48 ? 48 : w;
}

static void print_header_row(int kw, double alpha)
{
	char ci[32];

	snprintf(ci, sizeof ci, "%g%% CI of B/A", 100 * (1 - alpha));
	printf("  %-*s %10s %10s %-10s %7s  %-17s %6s  %-22s %s\n", kw, "metric", "A", "B",
	       "unit", "change", ci, "p", "verdict", "note");
}

static void print_row(const struct row *r, int kw, const struct cmp *c)
{
	const struct bb_metric *m = r->a->m;
	char xa[32], xb[32], p[16], ci[56], note[400], lo[BB_PCT_LEN], hi[BB_PCT_LEN];
	double s = m->disp_scale;

	if (r->skip) {
		printf("  %-*s not compared: %s\n", kw, r->a->key, r->skip);
		return;
	}
	fmt_num(xa, sizeof xa, r->xa * s);
	fmt_num(xb, sizeof xb, r->xb * s);
	fmt_p(p, sizeof p, r);
	fmt_note(note, sizeof note, r, c);
	if (r->ab.have_p && isfinite(r->ab.lo) && !r->twin)
		snprintf(ci, sizeof ci, "[%s, %s]", bb_pct(lo, sizeof lo, pct(r->ab.lo), 1),
			 bb_pct(hi, sizeof hi, pct(r->ab.hi), 1));
	else
		snprintf(ci, sizeof ci, "-");
	if (r->twin)
		snprintf(p, sizeof p, "-");
	printf("  %-*s %10s %10s %-10s %7s  %-17s %6s  ", kw, r->a->key, xa, xb,
	       m->disp_unit, bb_pct(lo, sizeof lo, pct(r->ab.ratio), 1), ci, p);
	if (note[0])
		printf("%-22s %s\n", r->evidence ? "-" : bb_verdict_name(r->v), note);
	else
		printf("%s\n", bb_verdict_name(r->v));
}

/* The estimator, said once above the table: what A and B are. */
static void print_estimator(const struct cmp *c)
{
	size_t k[3] = { 0, 0, 0 };

	for (size_t i = 0; i < c->n; i++)
		if (!c->rows[i].skip && c->rows[i].shown)
			k[c->rows[i].basis]++;
	printf("A and B: ");
	if (k[BASIS_BOOTS])
		printf("%sthe geometric mean over boots of each boot's figure (the geometric mean "
		       "of its runs')", k[BASIS_RUNS] ? "per boot where both sides have 3 or more, "
		       : "");
	if (k[BASIS_RUNS])
		printf("%sthe geometric mean over runs of each run's figure (the median of its "
		       "samples, or the figure it printed: rr's transactions per second)",
		       k[BASIS_BOOTS] ? "; elsewhere " : "");
	if (k[BASIS_SAMPLES])
		printf("%sthe median of the pooled samples%s", k[BASIS_RUNS] + k[BASIS_BOOTS] ?
		       "; on rows marked pooled, " : "", k[BASIS_RUNS] + k[BASIS_BOOTS] ? "" :
		       " (fewer than 3 runs a side)");
	printf(".\nchange = B/A - 1 of those two figures, with its interval and p.\n");
}

static int row_printed(const struct cmp *c, const struct row *r)
{
	return r->shown && (c->o->all || claimed(r) || r->headline);
}

static void print_table(const struct cmp *c)
{
	int kw = key_width(c);
	const char *applet = NULL;
	size_t printed = 0, shown = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct row *r = &c->rows[i];
		shown += r->shown;
		if (!row_printed(c, r))
			continue;
		if (!printed++) {
			printf("\n%s:\n", c->o->all ? "Every metric" :
			       "Claimed and headline metrics (--all prints every metric)");
			print_estimator(c);
		}
		if (!applet || strcmp(applet, r->a->m->applet) != 0) {
			applet = r->a->m->applet;
			printf("\n%s\n", applet);
			print_header_row(kw, c->o->alpha);
		}
		print_row(r, kw, c);
	}
	if (printed < shown)
		printf("\n(%zu more metric%s with no claim: --all prints them)\n", shown - printed,
		       shown - printed == 1 ? "" : "s");
}

/* ---- the summary line of each applet ---- */

struct tally {
	size_t total, count[BB_V_COUNT], skipped;
	double lo[BB_V_COUNT], hi[BB_V_COUNT], pmax;
	const struct row *head;
};

static void tally_row(struct tally *t, const struct row *r)
{
	double g = pct(r->ab.ratio);

	if (r->headline)
		t->head = r;
	if (r->twin || r->evidence)
		return;
	t->total++;
	if (r->skip) {
		t->skipped++;
		return;
	}
	if (!t->count[r->v]++)
		t->lo[r->v] = t->hi[r->v] = g;
	t->lo[r->v] = fmin(t->lo[r->v], g);
	t->hi[r->v] = fmax(t->hi[r->v], g);
	if (claimed(r))
		t->pmax = fmax(t->pmax, r->ab.mwu.p);
}

static void say_range(const struct tally *t, enum bb_verdict v)
{
	char lo[BB_PCT_LEN], hi[BB_PCT_LEN];

	if (fabs(t->hi[v] - t->lo[v]) < 0.05)
		printf("%s", bb_pct(lo, sizeof lo, t->lo[v], 1));
	else
		printf("%s to %s", bb_pct(lo, sizeof lo, t->lo[v], 1), bb_pct(hi, sizeof hi, t->hi[v], 1));
}

/* The figures the change is computed from (compare.c): geometric means of
 * run or boot figures, or pooled medians. */
double compare_typical(const struct row *r, int side_b)
{
	return side_b ? r->xb : r->xa;
}

/* The headline in its own quantity: "stream.triad.c.bandwidth 18426 ->
 * 19420 MB/s, +5.4% [+4.1%, +6.8%]". */
static void say_headline(const struct row *h)
{
	char a[32], b[32], c[BB_PCT_LEN], lo[BB_PCT_LEN], hi[BB_PCT_LEN];
	double s = h->a->m->disp_scale;

	fmt_num(a, sizeof a, h->xa * s);
	fmt_num(b, sizeof b, h->xb * s);
	printf("%s %s -> %s %s, %s [%s, %s]", h->a->key, a, b, h->a->m->disp_unit,
	       bb_pct(c, sizeof c, pct(h->ab.ratio), 1), bb_pct(lo, sizeof lo, pct(h->ab.lo), 1),
	       bb_pct(hi, sizeof hi, pct(h->ab.hi), 1));
}

/* "4 of 4 metrics slower, -55.2% to -51.5%", each direction claimed. */
static void say_claims(const struct tally *t)
{
	static const struct {
		enum bb_verdict v;
		const char *word;
	} dirs[] = { { BB_V_IMPROVED, "faster" }, { BB_V_REGRESSED, "slower" },
		     { BB_V_DIFFERS, "different (no known better direction)" } };
	const char *sep = "";

	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		if (!t->count[dirs[i].v])
			continue;
		printf("%s%zu of %zu metrics %s, ", sep, t->count[dirs[i].v], t->total, dirs[i].word);
		say_range(t, dirs[i].v);
		sep = "; ";
	}
}

/* What the runs could have found: the headline's detectable change, and
 * the runs a side for one the size of the threshold. */
static void say_power(const struct row *h, const char *basis)
{
	char d[BB_PCT_LEN];
	size_t need;

	if (!h || !h->per_run || !isfinite(h->detectable)) {
		printf("; power unknown: fewer than %d runs a side show no run-to-run spread",
		       COMPARE_MIN_RUNS);
		return;
	}
	printf(": no change larger than %s (%s, %.0f%% power)",
	       bb_pct(d, sizeof d, 100 * h->detectable, 0), basis, 100 * BB_POWER);
	if (h->detectable <= h->threshold * 1.0001)
		return;
	need = bb_runs_needed(h->sd, h->threshold, h->level, NEED_MAX);
	if (need)
		printf("; to see %g%% you need about %zu runs a side", 100 * h->threshold, need);
	else
		printf("; %g%% would need more than %d runs a side", 100 * h->threshold, NEED_MAX);
}

static void say_tally(const struct cmp *c, const char *applet, const struct tally *t)
{
	char basis[64] = "", p[32];
	const struct row *h = t->head;
	size_t up = t->count[BB_V_IMPROVED], down = t->count[BB_V_REGRESSED];

	printf("%-7s ", applet);
	if (h)
		fmt_basis(basis, sizeof basis, h);
	if (up || down || t->count[BB_V_DIFFERS]) {
		fmt_pbound(p, sizeof p, t->pmax);
		printf("B %s: ", up && down ? "faster and slower" : up ? "faster" : down ? "slower"
											 : "different");
		if (h && claimed(h)) {
			say_headline(h);
			printf(" (%s, %s); ", basis, p);
			say_claims(t);
		} else {
			say_claims(t);
			printf(" (%s%s%s)", basis, h ? ", " : "", p);
			if (h) {
				printf("; headline not claimed: ");
				say_headline(h);
			}
		}
		if (c->load && bb_load_confounder(c->load, applet))
			printf("; confounded: %s", bb_load_confounder(c->load, applet));
	} else if (!t->count[BB_V_SAME] && !t->count[BB_V_NOISE]) {
		printf("not tested (%zu metric%s with fewer than %d samples a side%s)", t->total,
		       t->total == 1 ? "" : "s", BB_AB_MIN_N, t->skipped ? " or not compared" : "");
	} else {
		printf("no change found in %zu metric%s", t->total, t->total == 1 ? "" : "s");
		if (t->count[BB_V_NOISE])
			printf(" (%zu held by a threshold)", t->count[BB_V_NOISE]);
		say_power(h, basis);
		if (h) {
			printf("; headline ");
			say_headline(h);
		}
	}
	printf("\n");
}

static void print_summary(const struct cmp *c)
{
	printf("\nSummary: B against A (alpha %g over the whole suite, shared by %zu applet%s; "
	       "noise threshold %g%%", c->o->alpha, c->napps, c->napps == 1 ? "" : "s",
	       100 * c->o->threshold);
	if (c->floored)
		printf(", %.0f%% on pooled samples as far as the CPU's speed moved", 100 * c->floor);
	printf("):\n");
	for (size_t i = 0; i < c->n; i++) {
		const char *applet = c->rows[i].a->m->applet;
		struct tally t;
		size_t j;
		int shown = 0;
		if (strcmp(applet, BB_CALIB_APPLET) == 0)
			continue;            /* said in the notes */
		for (j = 0; j < i && strcmp(c->rows[j].a->m->applet, applet); j++)
			;
		if (j < i)
			continue;            /* already said */
		memset(&t, 0, sizeof t);
		for (j = i; j < c->n; j++)
			if (strcmp(c->rows[j].a->m->applet, applet) == 0) {
				tally_row(&t, &c->rows[j]);
				shown |= c->rows[j].shown;
			}
		if (t.total && shown)
			say_tally(c, applet, &t);
	}
}

/* ---- notes ---- */

static size_t count_rows(const struct cmp *c, int basis, int few)
{
	size_t k = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct row *r = &c->rows[i];
		k += !r->skip && (int)r->basis == basis && (!few || r->v == BB_V_FEW);
	}
	return k;
}

static void print_basis(const struct cmp *c)
{
	size_t pooled = count_rows(c, BASIS_SAMPLES, 0), runs = count_rows(c, BASIS_RUNS, 0);
	size_t boots = count_rows(c, BASIS_BOOTS, 0), per_run = runs + boots;
	const char *eg = NULL;

	for (size_t i = 0; i < c->n && !eg; i++)
		if (!c->rows[i].skip && !c->rows[i].per_run)
			eg = c->rows[i].a->key;
	if (runs)
		printf("note: %zu metrics tested on per-run figures (Welch's t on their logs)\n",
		       runs);
	if (boots)
		printf("note: %zu metrics tested on per-boot figures, the boot being the unit of "
		       "replication (Welch's t on their logs)\n", boots);
	if (pooled && per_run)
		printf("note: %zu metrics tested on pooled samples (fewer than %d runs hold them on "
		       "a side, e.g. %s): the medians' ratio, Mann-Whitney U\n", pooled,
		       COMPARE_MIN_RUNS, eg);
	else if (pooled)
		printf("note: tested on pooled samples (fewer than %d runs a side): the medians' "
		       "ratio, Mann-Whitney U\n", COMPARE_MIN_RUNS);
}

/* The CPU's own speed (core/calib.c, timed between the applets of a quick
 * suite run): when it differs between A and B, or moves within a side,
 * single-thread figures may have moved with the machine, not the change.
 * How far it moved is also the noise threshold of rows tested on pooled
 * samples (compare.c): they cannot see that drift otherwise. */
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
			       "single-thread figures %s\n", 100 * fabs(compare_speedup(r)),
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
}

static void print_notes(const struct cmp *c)
{
	size_t few = count_rows(c, BASIS_SAMPLES, 1);

	printf("\n");
	if (few)
		printf("warning: %zu metrics have fewer than %d samples on a side: no p-value and "
		       "no verdict; fewer samples are unreliable (take more: stream -N, csum --reps, "
		       "mem --repeat, lat --samples; or pool several runs)\n", few, BB_AB_MIN_N);
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

static void csv_row(FILE *f, const struct row *r, const struct cmp *c)
{
	const struct bb_metric *m = r->a->m;

	bb_csv_field(f, r->a->key);
	fputc(',', f);
	bb_csv_field(f, m->applet);
	fprintf(f, ",%s,", m->quantity);
	bb_csv_field(f, m->unit);
	fprintf(f, ",%s,%zu,%zu,%d", m->better > 0 ? "higher" : m->better < 0 ? "lower" : "unknown",
		r->a->n, r->b->n, r->headline);
	if (r->skip) {
		fprintf(f, ",,,,,,,,,,,,,,,,,,not compared,,,,,\n");
		return;
	}
	csv_num(f, r->xa);
	csv_num(f, r->xb);
	fprintf(f, ",%s", r->basis == BASIS_BOOTS ? "geomean_of_boot_figures" :
		r->basis == BASIS_RUNS ? "geomean_of_run_figures" : "median_of_samples");
	csv_num(f, r->fa.best);
	csv_num(f, r->fb.best);
	csv_num(f, r->ab.ratio);
	csv_num(f, r->ab.lo);
	csv_num(f, r->ab.hi);
	csv_num(f, r->per_run ? NAN : r->ab.mwu.u);
	csv_num(f, r->ab.have_p ? r->ab.mwu.p : NAN);
	fprintf(f, ",%s", r->ab.have_p ? r->test : "");
	csv_num(f, r->level);
	fprintf(f, ",%d", r->significant);
	csv_num(f, r->threshold);
	csv_num(f, r->detectable);
	fprintf(f, ",%s,%s,%zu,%zu,", r->evidence ? "evidence" : r->twin ? "twin" :
		bb_verdict_name(r->v), r->basis == BASIS_BOOTS ? "boots" :
		r->basis == BASIS_RUNS ? "runs" : "samples", r->ua, r->ub);
	if (r->twin)
		bb_csv_field(f, m->twin);
	fputc(',', f);
	if (claimed(r) && compare_confounder(c, r))
		bb_csv_field(f, compare_confounder(c, r));
	fputc('\n', f);
}

static int write_csv(const struct cmp *c, const char *path)
{
	struct bb_out out;

	if (bb_out_open(&out, path))
		return 1;
	fprintf(out.f, "key,applet,quantity,unit,better,n_a,n_b,headline,figure_a,figure_b,"
		       "estimator,best_a,best_b,ratio,ci_low,ci_high,u,p,test,level,significant,"
		       "threshold,detectable,verdict,basis,units_a,units_b,twin_of,confounded\n");
	for (size_t i = 0; i < c->n; i++)
		if (c->rows[i].shown)
			csv_row(out.f, &c->rows[i], c);
	return bb_out_close(&out) ? 1 : 0;
}

/* ---- what else differs ---- */

/* The applets with a claimed change, at most max, into out; their count. */
static size_t claimed_applets(const struct cmp *c, const char **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n; i++) {
		const char *applet = c->rows[i].a->m->applet;
		size_t j;
		if (!claimed(&c->rows[i]) || !compare_in_family(&c->rows[i]))
			continue;
		for (j = 0; j < n && strcmp(out[j], applet); j++)
			;
		if (j == n && n < max)
			out[n++] = applet;
	}
	return n;
}

void compare_differences(const struct cmp *c, const struct bb_runs *A, const struct bb_runs *B,
			 struct bb_diffs *d)
{
	const char *apps[64];
	size_t napps = claimed_applets(c, apps, sizeof apps / sizeof apps[0]);

	bb_diffs_find(d, A, B);
	if (c->load)
		bb_load_diffs(c->load, d);
	bb_diffs_rank(d, apps, napps);
}

/* The recorded fields in which A and B differ, those that may explain a
 * claimed change first. */
static void print_differences(const struct cmp *c, const struct bb_runs *A, const struct bb_runs *B)
{
	struct bb_diffs d;

	compare_differences(c, A, B, &d);
	bb_diffs_print(&d, c->o->all);
	bb_diffs_free(&d);
}

/* ---- all of it ---- */

static int any_regressed(const struct cmp *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (compare_in_family(&c->rows[i]) && c->rows[i].v == BB_V_REGRESSED)
			return 1;
	return 0;
}

/* ---- boots ---- */

/* The distinct boots of a side's runs, or 0 when a run records none. */
static size_t count_boots(const struct bb_runs *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++) {
		const char *id = bb_rkv_str(&s->r[i].system, "boot.id");
		size_t j;
		if (!id || !id[0])
			return 0;
		for (j = 0; j < i && strcmp(id, bb_rkv_str(&s->r[j].system, "boot.id")); j++)
			;
		n += j == i;
	}
	return n;
}

/* Boots as a level of replication: one line when a side's runs all come
 * from one boot (its luck is in every run), or when the boot is the unit. */
static void print_boots(const struct bb_runs *A, const struct bb_runs *B)
{
	size_t ba = count_boots(A), bb = count_boots(B);

	if (ba >= COMPARE_MIN_RUNS && bb >= COMPARE_MIN_RUNS)
		printf("note: the boot is the unit of replication (%zu boots in A, %zu in B): each "
		       "boot's runs count as one figure, their geometric mean\n", ba, bb);
	else if ((ba == 1 && A->n > 1) || (bb == 1 && B->n > 1))
		printf("note: %s%s%s%s from one boot: what a boot sets by chance (DRAM "
		       "training, where pages land, the IRQ layout) is in every run of a side and "
		       "reads as the setting's effect; for a setting that needs a reboot, give each "
		       "side runs from 3 or more boots (one boardbench run after each)\n",
		       ba == 1 && A->n > 1 ? "A's runs" : "", ba == 1 && A->n > 1 && bb == 1 &&
		       B->n > 1 ? " and " : "", bb == 1 && B->n > 1 ? "B's runs" : "",
		       ba == 1 && A->n > 1 && bb == 1 && B->n > 1 ? " each come" : " come");
}

/* ---- what else used the machine ---- */

void compare_load(struct bb_load *l, const struct cmp *c, const struct bb_runs *A,
		  const struct bb_runs *B)
{
	bb_load_find(l, A, B);
	for (size_t i = 0; i < c->n; i++) {
		const struct row *r = &c->rows[i];
		if (r->evidence && !r->skip && (r->v == BB_V_IMPROVED || r->v == BB_V_REGRESSED))
			snprintf(l->calib, sizeof l->calib, "the CPU itself ran %.1f%% %s in B (%s)",
				 100 * fabs(compare_speedup(r)), r->v == BB_V_IMPROVED ? "faster" :
				 "slower", r->a->key);
	}
}

const char *compare_confounder(const struct cmp *c, const struct row *r)
{
	return c->load ? bb_load_confounder(c->load, r->a->m->applet) : NULL;
}

int compare_print(struct cmp *c, const struct bb_runs *A, const struct bb_runs *B)
{
	const struct compare_opts *o = c->o;
	struct bb_load load;
	int rc = 0;

	compare_load(&load, c, A, B);
	c->load = o->variants ? NULL : &load;   /* variants of one run share the machine */

	bb_runs_describe("A", A, o->variants ? o->va : NULL);
	bb_runs_describe("B", B, o->variants ? o->vb : NULL);
	bb_runs_warn_failed("A", A);
	if (!o->variants) {
		bb_runs_warn_failed("B", B);
		if (A->n == 1 || B->n == 1)
			printf("warning: a side is a single run: the test sees the noise within a run, "
			       "not from run to run (which on a shared or virtual machine can be far "
			       "larger); give each side 3 or more runs (run --repeat)\n");
		print_boots(A, B);
	}
	if (!c->n) {
		printf("\nno metric is in both A and B\n");
		if (!o->variants)   /* e.g. two boards' `facts --json` files */
			print_differences(c, A, B);
	} else {
		print_summary(c);
		if (!o->variants)
			print_differences(c, A, B);
		print_table(c);
		print_notes(c);
	}
	if (o->csv)
		rc = write_csv(c, o->csv);
	if (o->fail_on_regression && any_regressed(c)) {
		printf("regressed: exit status 1 (--fail-on-regression)\n");
		rc = 1;
	}
	c->load = NULL;
	bb_load_free(&load);
	return rc;
}
