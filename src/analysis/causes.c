/* causes.c - the facts that differ across a change point (causes.h), on
 * top of the differ that `compare` uses for "A and B differ in". */
#include "analysis/causes.h"
#include "core/error.h"
#include "analysis/differ.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void kv_push(struct bb_rkvs *l, const char *key, const char *value)
{
	l->v = bb_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
	l->v[l->n++] = (struct bb_rkv){ bb_xstrdup(key), bb_xstrdup(value), NAN };
}

static struct bb_rresult *result_of(struct bb_rrun *r, const char *applet, size_t len)
{
	for (size_t i = 0; i < r->n; i++)
		if (strlen(r->results[i].applet) == len && !strncmp(r->results[i].applet, applet, len))
			return &r->results[i];
	r->results = bb_xrealloc(r->results, (r->n + 1) * sizeof *r->results);
	struct bb_rresult *res = &r->results[r->n++];
	memset(res, 0, sizeof *res);
	res->applet = bb_xmalloc(len + 1);
	memcpy(res->applet, applet, len);
	res->applet[len] = '\0';
	res->status = bb_xstrdup("ok");
	res->message = bb_xstrdup("");
	return res;
}

static void put_fact(struct bb_rrun *r, const char *k, const char *v)
{
	const char *dot;

	if (!strncmp(k, "tool.", 5))
		kv_push(&r->tool, k + 5, v);
	else if (!strncmp(k, "system.", 7))
		kv_push(&r->system, k + 7, v);
	else if (!strncmp(k, "label.", 6))
		kv_push(&r->labels, k + 6, v);
	else if (!strcmp(k, "caches")) {
		free(r->caches);
		r->caches = bb_xstrdup(v);
	} else if (!strncmp(k, "param.", 6) && (dot = strchr(k + 6, '.')) != NULL)
		kv_push(&result_of(r, k + 6, (size_t)(dot - (k + 6)))->params, dot + 1, v);
}

void bb_rrun_from_facts(struct bb_rrun *r, const char *const *keys, const char *const *values,
			size_t n)
{
	memset(r, 0, sizeof *r);
	r->path = bb_xstrdup("");
	r->started = bb_xstrdup("");
	r->caches = bb_xstrdup("");
	for (size_t i = 0; i < n; i++)
		put_fact(r, keys[i], values[i]);
}

static int rank(const struct bb_cause *c)
{
	return (c->steady ? 0 : 2) + (c->explains ? 0 : 1);
}

void bb_causes_find(const struct bb_runs *before, const struct bb_runs *after, const char *applet,
		    struct bb_causes *out)
{
	struct bb_diffs d;

	bb_diffs_find(&d, before, after);
	out->v = bb_xcalloc(d.n ? d.n : 1, sizeof *out->v);
	out->n = d.n;
	for (size_t i = 0; i < d.n; i++) {
		struct bb_cause *c = &out->v[i];
		c->field = bb_xstrdup(d.v[i].field);
		c->before = bb_xstrdup(d.v[i].a);
		c->after = bb_xstrdup(d.v[i].b);
		c->steady = !strstr(c->before, " | ") && !strstr(c->after, " | ");
		c->explains = bb_diff_explains(&d.v[i], applet);
	}
	bb_diffs_free(&d);
	/* insertion sort: stable, and the lists are short */
	for (size_t i = 1; i < out->n; i++) {
		struct bb_cause x = out->v[i];
		size_t j = i;
		for (; j > 0 && rank(&out->v[j - 1]) > rank(&x); j--)
			out->v[j] = out->v[j - 1];
		out->v[j] = x;
	}
}

void bb_causes_free(struct bb_causes *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].field);
		free(c->v[i].before);
		free(c->v[i].after);
	}
	free(c->v);
	memset(c, 0, sizeof *c);
}
