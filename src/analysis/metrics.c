/* metrics.c - the metric key scheme: per-applet rules first, then generic
 * rules by unit, turning each series into a keyed metric with one value
 * per kept sample (see metrics.h and docs/json-schema.md, "Metric keys").
 *
 * Templates: $a applet, $n series name, $v variant, $V "." and the variant
 * (nothing when the variant is empty), $1..$3 what the pattern's '*'
 * matched, $q quantity, $u the series' unit, $w its work unit, {name} the
 * result's parameter name ("?" when it has none).  In keys and
 * chart ids every substituted name is reduced to [a-z0-9_-] with spaces
 * as '.'; in titles, categories and legends it is kept as written. */
#include "analysis/metrics.h"
#include "analysis/host.h"
#include "core/calib.h"
#include "analysis/abstats.h"
#include "core/error.h"
#include "core/stats.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CAPS 3
#define TEXT_MAX 2048

/* Generic rules, by the unit of a sample and the unit of its work ("*"
 * any, "" none or zero work).  The first that matches wins. */
struct unit_rule {
	const char *unit, *work_unit;
	enum bb_how how;
	const char *quantity, *base, *disp;
	double scale;
	int better;
};

static const struct unit_rule unit_rules[] = {
	{ "s", "bytes", BB_HOW_RATE, "bandwidth", "B/s", "MB/s", 1e-6, BB_BETTER_HIGHER },
	{ "s", "bits", BB_HOW_RATE, "throughput", "bit/s", "Mbit/s", 1e-6, BB_BETTER_HIGHER },
	{ "s", "", BB_HOW_RAW, "time", "s", "ms", 1e3, BB_BETTER_LOWER },
	{ "s", "*", BB_HOW_RATE, "rate", "$w/s", "$w/s", 1, BB_BETTER_HIGHER },
	{ "ns", "*", BB_HOW_RAW, "time", "ns", "ns", 1, BB_BETTER_LOWER },
	{ "ticks", "*", BB_HOW_RAW, "counter", "ticks", "ticks", 1, BB_BETTER_LOWER },
	{ "cycles", "*", BB_HOW_RAW, "counter", "cycles", "cycles", 1, BB_BETTER_LOWER },
	{ "B/s", "*", BB_HOW_RAW, "bandwidth", "B/s", "MB/s", 1e-6, BB_BETTER_HIGHER },
	{ "bytes/s", "*", BB_HOW_RAW, "bandwidth", "B/s", "MB/s", 1e-6, BB_BETTER_HIGHER },
	{ "bit/s", "*", BB_HOW_RAW, "throughput", "bit/s", "Mbit/s", 1e-6, BB_BETTER_HIGHER },
	{ "bits/s", "*", BB_HOW_RAW, "throughput", "bit/s", "Mbit/s", 1e-6, BB_BETTER_HIGHER },
	{ "*", "*", BB_HOW_RAW, "value", "$u", "$u", 1, BB_BETTER_UNKNOWN },
};

/* The CPU-speed probe between the applets (core/calib.h): evidence about
 * the machine, not an applet's. */
static const struct bb_key_rule calib_rule = {
	.pattern = BB_CALIB_SERIES, .work_is = "ops", .key = BB_CALIB_KEY,
	.how = BB_HOW_PER_WORK, .quantity = "time", .base = "s/op", .disp = "ns/op", .scale = 1e9,
	.better = BB_BETTER_LOWER, .chart = "",
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- matching and templates ---- */

/* pattern with '*' (one or more characters, shortest first) against s. */
static int match(const char *pat, const char *s, char caps[][BB_READ_MAX_NAME + 1], int ncap)
{
	if (!*pat)
		return !*s;
	if (*pat != '*')
		return *pat == *s && match(pat + 1, s + 1, caps, ncap);
	for (size_t len = 1; s[len - 1]; len++) {
		if (!match(pat + 1, s + len, caps, ncap + 1))
			continue;
		if (ncap < MAX_CAPS)
			snprintf(caps[ncap], BB_READ_MAX_NAME + 1, "%.*s", (int)len, s);
		return 1;
	}
	return 0;
}

struct tctx {
	const struct bb_rresult *res;
	const struct bb_rseries *s;
	char caps[MAX_CAPS][BB_READ_MAX_NAME + 1];
	const char *quantity;
	const char *variant;   /* the variant to write: the series' or "*" */
};

struct text {
	char buf[TEXT_MAX];
	size_t n;
};

static void put(struct text *t, const char *s, int slug)
{
	for (; *s && t->n + 1 < sizeof t->buf; s++) {
		char c = *s;
		if (slug && c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		else if (slug && c == ' ')
			c = '.';
		else if (slug && !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
				   c == '*'))
			c = '_';
		t->buf[t->n++] = c;
	}
	t->buf[t->n] = '\0';
}

static const char *token(const struct tctx *c, char t)
{
	switch (t) {
	case 'a': return c->res->applet;
	case 'n': return c->s->name;
	case 'v': return c->variant;
	case 'q': return c->quantity;
	case 'u': return c->s->unit;
	case 'w': return c->s->work_unit;
	case '1': case '2': case '3': return c->caps[t - '1'];
	default: return NULL;
	}
}

/* "{name}" at p: the result's parameter name (or "?"); *end after it. */
static const char *param(const struct tctx *c, const char *p, const char **end)
{
	const char *close = strchr(p, '}'), *v;
	char name[64];

	if (!close || close - p - 1 >= (long)sizeof name)
		return NULL;
	snprintf(name, sizeof name, "%.*s", (int)(close - p - 1), p + 1);
	v = bb_rkv_str(&c->res->params, name);
	*end = close;
	return v && v[0] ? v : "?";
}

/* The template expanded, in a new string. */
static char *expand(const char *tpl, const struct tctx *c, int slug)
{
	struct text t = { .n = 0 };

	t.buf[0] = '\0';
	for (const char *p = tpl; *p; p++) {
		char one[2] = { *p, '\0' };
		const char *v = p[0] == '$' && p[1] ? token(c, p[1]) : NULL;
		if (p[0] == '{' && (v = param(c, p, &p)) != NULL) {
			put(&t, v, slug);
		} else if (p[0] == '$' && p[1] == 'V') {
			if (c->variant[0]) {
				put(&t, ".", 0);
				put(&t, c->variant, slug);
			}
			p++;
		} else if (v) {
			put(&t, v, slug);
			p++;
		} else {
			put(&t, one, 0);
		}
	}
	return bb_xstrdup(t.buf);
}

/* ---- rule lookup ---- */

/* A rule's variant: the variant itself, or "PREFIX*" for any that begins so. */
static int variant_matches(const char *want, const char *variant)
{
	size_t n = strlen(want);

	if (n && want[n - 1] == '*')
		return strncmp(want, variant, n - 1) == 0;
	return strcmp(want, variant) == 0;
}

static int rule_matches(const struct bb_key_rule *r, const struct bb_rresult *res,
			const struct bb_rseries *s, struct tctx *c)
{
	if (r->variant && !variant_matches(r->variant, s->variant))
		return 0;
	if ((r->unit_is && strcmp(r->unit_is, s->unit)) ||
	    (r->work_is && strcmp(r->work_is, s->work_unit)))
		return 0;
	if (r->above1 && !(bb_rkv_num(&res->params, r->above1, 0) > 1))
		return 0;
	memset(c->caps, 0, sizeof c->caps);
	return match(r->pattern, s->name, c->caps, 0);
}

static const struct unit_rule *unit_rule_for(const struct bb_rseries *s)
{
	const char *wu = s->work > 0 ? s->work_unit : "";

	for (size_t i = 0; i < N_OF(unit_rules); i++) {
		const struct unit_rule *u = &unit_rules[i];
		if ((strcmp(u->unit, "*") == 0 || strcmp(u->unit, s->unit) == 0) &&
		    (strcmp(u->work_unit, "*") == 0 || strcmp(u->work_unit, wu) == 0))
			return u;
	}
	return &unit_rules[N_OF(unit_rules) - 1];
}

/* Gaps in rule r filled from the unit table and the defaults. */
static void fill_defaults(const struct bb_rseries *s, struct tctx *c, struct bb_key_rule *r)
{
	const struct unit_rule *u = unit_rule_for(s);

	if (r->how == BB_HOW_UNIT)
		r->how = u->how;
	r->quantity = r->quantity ? r->quantity : u->quantity;
	r->base = r->base ? r->base : u->base;
	r->disp = r->disp ? r->disp : u->disp;
	r->scale = r->scale ? r->scale : u->scale;
	r->better = r->better ? r->better : u->better;
	r->key = r->key ? r->key : "$a.$1$V.$q";
	r->chart = r->chart ? r->chart : "$a.$q";
	r->title = r->title ? r->title : "$a: $q";
	r->category = r->category ? r->category : "$1";
	r->legend = r->legend ? r->legend : "$v";
	r->xlabel = r->xlabel ? r->xlabel : "series";
	c->quantity = r->quantity;
}

/* The rules for a result: its applet's (analysis/host.h), or the probe's. */
static const struct bb_key_rule *rules_of(const struct bb_rresult *res, size_t *n)
{
	const struct bb_host *h = bb_host_find(res->applet);

	if (strcmp(res->applet, BB_CALIB_APPLET) == 0) {
		*n = 1;
		return &calib_rule;
	}
	*n = h ? h->nrules : 0;
	return h ? h->rules : NULL;
}

/* The effective rule: the applet's (or an empty one), gaps filled. */
static void effective_rule(const struct bb_rresult *res, const struct bb_rseries *s,
			   struct tctx *c, struct bb_key_rule *r)
{
	size_t i, n;
	const struct bb_key_rule *rules = rules_of(res, &n);

	for (i = 0; i < n && !rule_matches(&rules[i], res, s, c); i++)
		;
	if (i < n) {
		*r = rules[i];
	} else {
		memset(r, 0, sizeof *r);
		memset(c->caps, 0, sizeof c->caps);
		snprintf(c->caps[0], sizeof c->caps[0], "%s", s->name);
	}
	fill_defaults(s, c, r);
}

/* ---- values ---- */

/* The count a BB_HOW_PER_VALUE sample is divided by: the series' values{},
 * else the result's params{}. */
static double per_value(const struct bb_key_rule *r, const struct bb_rresult *res,
			const struct bb_rseries *s)
{
	double d = bb_rkv_num(&s->values, r->per_value, NAN);
	return isnan(d) ? bb_rkv_num(&res->params, r->per_value, NAN) : d;
}

static double divisor_for(const struct bb_key_rule *r, const struct bb_rresult *res,
			  const struct bb_rseries *s)
{
	switch (r->how) {
	case BB_HOW_PER_WORK: return s->work;
	case BB_HOW_PER_VALUE: return per_value(r, res, s);
	default: return 1;
	}
}

static void fill_values(struct bb_metric *m, const struct bb_key_rule *r)
{
	const struct bb_rseries *s = m->series;
	double div = divisor_for(r, m->result, s);

	m->n = s->n - s->discard;
	m->v = bb_xcalloc(m->n, sizeof *m->v);
	if (!(div > 0) || !isfinite(div)) {
		m->bad = r->how == BB_HOW_PER_VALUE ? "no positive count to divide by" :
						   "no positive work to divide by";
		return;
	}
	if (r->how == BB_HOW_RATE && !(s->work > 0)) {
		m->bad = "no positive work";
		return;
	}
	for (size_t i = 0; i < m->n; i++) {
		double x = s->samples[s->discard + i];
		m->v[i] = r->how == BB_HOW_RATE ? s->work / x : x / div;
		/* a count of 0 (no transaction in an interval) is a value; a time
		 * of 0 is not */
		if (!(m->v[i] > 0 || (m->v[i] == 0 && r->how != BB_HOW_RATE)) || !isfinite(m->v[i]))
			m->bad = "a sample that is zero, negative or too small to divide by";
	}
	if (!m->n)
		m->bad = "no samples after the warm-up";
}

static double number_or_nan(const char *s)
{
	char *end;
	double d = strtod(s, &end);
	return *s && !*end && isfinite(d) ? d : NAN;
}

static void describe(struct bb_metric *m, const struct bb_key_rule *r, struct tctx *c)
{
	m->key = expand(r->key, c, 1);
	m->quantity = bb_xstrdup(r->quantity);
	m->unit = expand(r->base, c, 0);
	m->disp_unit = expand(r->disp, c, 0);
	m->disp_scale = r->scale;
	m->better = r->better;
	m->twin = r->twin ? expand(r->twin, c, 1) : NULL;
	m->chart = expand(r->chart, c, 1);
	m->chart_title = expand(r->title, c, 0);
	m->category = expand(r->category, c, 0);
	m->legend = expand(r->legend, c, 0);
	m->xlabel = r->xlabel;
	m->x = r->xcap ? number_or_nan(c->caps[r->xcap - 1]) : NAN;
	m->logy = r->logy;
	m->timeseries = r->timeseries;
	m->part = r->part;
	c->variant = "*";
	m->group = expand(r->key, c, 1);
}

/* A value of the result: "NAME" of series s, or "SERIES:NAME" of another
 * series of the result; NaN when absent. */
static double result_value(const struct bb_rresult *res, const struct bb_rseries *s,
			   const char *spec)
{
	const char *colon = strchr(spec, ':');

	if (!colon)
		return bb_rkv_num(&s->values, spec, NAN);
	for (size_t i = 0; i < res->n; i++)
		if (strncmp(res->series[i].name, spec, (size_t)(colon - spec)) == 0 &&
		    res->series[i].name[colon - spec] == '\0')
			return bb_rkv_num(&res->series[i].values, colon + 1, NAN);
	return NAN;
}

static struct bb_metric *new_metric(struct bb_metrics *ms, const struct bb_rrun *run,
				    const struct bb_rresult *res, const struct bb_rseries *s)
{
	struct bb_metric *m;

	if (ms->n == ms->cap) {
		ms->cap = ms->cap ? 2 * ms->cap : 64;
		ms->m = bb_xrealloc(ms->m, ms->cap * sizeof *ms->m);
	}
	m = &ms->m[ms->n++];
	memset(m, 0, sizeof *m);
	m->run = run;
	m->result = res;
	m->series = s;
	m->applet = res->applet;
	m->name = s->name;
	m->variant = s->variant;
	m->run_fig = NAN;
	return m;
}

/* The metric of one value: its one sample is the run's figure. */
static void add_value_metric(struct bb_metrics *ms, const struct bb_rrun *run,
			     const struct bb_rresult *res, const struct bb_rseries *s,
			     const struct bb_key_rule *vr, struct tctx *c)
{
	struct bb_key_rule r = *vr;
	struct bb_metric *m;
	double x = bb_rkv_num(&s->values, r.value, NAN);

	fill_defaults(s, c, &r);
	m = new_metric(ms, run, res, s);
	describe(m, &r, c);
	m->n = 1;
	m->v = bb_xcalloc(1, sizeof *m->v);
	m->v[0] = x;
	m->run_fig = x;
	if (!(x > 0) || !isfinite(x))
		m->bad = "the value is missing, zero or negative";
}

/* Each of the applet's value rules that matches s, the first of each
 * value name. */
static void add_values(struct bb_metrics *ms, const struct bb_rrun *run,
		       const struct bb_rresult *res, const struct bb_rseries *s)
{
	const struct bb_host *h = bb_host_find(res->applet);
	const struct bb_key_rule *vr = h ? h->values : NULL;

	for (size_t i = 0; h && i < h->nvalues; i++) {
		struct tctx c = { .res = res, .s = s, .variant = s->variant };
		size_t j;
		for (j = 0; j < i && (strcmp(vr[j].value, vr[i].value) ||
				      !rule_matches(&vr[j], res, s, &c)); j++)
			;
		if (j == i && rule_matches(&vr[i], res, s, &c))
			add_value_metric(ms, run, res, s, &vr[i], &c);
	}
}

static void add_series(struct bb_metrics *ms, const struct bb_rrun *run,
		       const struct bb_rresult *res, const struct bb_rseries *s)
{
	struct tctx c = { .res = res, .s = s, .variant = s->variant };
	struct bb_key_rule r;
	struct bb_metric *m;

	effective_rule(res, s, &c, &r);
	if (!r.skip) {
		m = new_metric(ms, run, res, s);
		describe(m, &r, &c);
		fill_values(m, &r);
		if (r.run_value)
			m->run_fig = result_value(res, s, r.run_value);
		if (!(m->run_fig > 0) || !isfinite(m->run_fig))
			m->run_fig = NAN;
	}
	add_values(ms, run, res, s);
}

void bb_metrics_add_run(struct bb_metrics *ms, const struct bb_rrun *run)
{
	for (size_t i = 0; i < run->n; i++) {
		const struct bb_rresult *res = &run->results[i];
		if (strcmp(res->status, "ok") != 0)
			continue;
		for (size_t j = 0; j < res->n; j++)
			add_series(ms, run, res, &res->series[j]);
	}
}

struct bb_metric *bb_metrics_append(struct bb_metrics *ms, const struct bb_metric *m)
{
	if (ms->n == ms->cap) {
		ms->cap = ms->cap ? 2 * ms->cap : 64;
		ms->m = bb_xrealloc(ms->m, ms->cap * sizeof *ms->m);
	}
	ms->m[ms->n] = *m;
	return &ms->m[ms->n++];
}

void bb_metrics_derive(struct bb_metrics *ms, size_t from)
{
	for (size_t i = 0; bb_hosts[i]; i++)
		if (bb_hosts[i]->derive)
			bb_hosts[i]->derive(ms, from);
}

void bb_metrics_free(struct bb_metrics *ms)
{
	for (size_t i = 0; i < ms->n; i++) {
		struct bb_metric *m = &ms->m[i];
		free(m->key);
		free(m->group);
		free(m->quantity);
		free(m->unit);
		free(m->disp_unit);
		free(m->chart);
		free(m->chart_title);
		free(m->category);
		free(m->legend);
		free(m->twin);
		free(m->v);
	}
	free(ms->m);
	memset(ms, 0, sizeof *ms);
}

void bb_metric_figures(const double *v, size_t n, int better, struct bb_figures *f)
{
	struct bb_stats st;

	memset(f, 0, sizeof *f);
	if (bb_stats_compute(v, n, &st))
		return;
	f->median = st.median;
	f->min = st.min;
	f->max = st.max;
	f->best = better == BB_BETTER_HIGHER ? st.max :
		  better == BB_BETTER_LOWER ? st.min : st.median;
}
