/* results.c - construction and ownership of the results model, and the
 * watches on each result (results.h, put in place by the facts floor):
 * started when the result is added, ended whenever its status is set, the
 * later watches inside the earlier ones (what else used the machine inside
 * the clock and heat samples, so that the interval it measures holds the
 * applet and not the sysfs reads of the heat watch). */
#include "results.h"
#include "error.h"
#include "progress.h"
#include "stop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct bb_run_hooks hooks;

void bb_run_hooks_install(const struct bb_run_hooks *h)
{
	hooks = *h;
}

struct bb_run *bb_run_new(int argc, char **argv)
{
	struct bb_run *run = bb_xcalloc(1, sizeof *run);

	run->argc = argc;
	run->argv = argv;
	if (hooks.describe)
		hooks.describe(&run->sys);
	bb_timer_calibrate(&run->timer);
	bb_cycles_open(&run->cycles, getenv("BB_CYCLES"));
	run->watch_heat = 1;
	return run;
}

static void series_free(struct bb_series *s)
{
	free(s->name);
	free(s->variant);
	free(s->unit);
	free(s->work_unit);
	free(s->samples);
	bb_kv_free(&s->values);
	free(s);
}

static void result_free(struct bb_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		series_free(r->series[i]);
	free(r->series);
	bb_kv_free(&r->params);
	for (int i = 0; i < BB_MAX_WATCHES; i++)
		if (r->watch[i] && hooks.watch[i])
			hooks.watch[i]->release(r->watch[i]);
	free(r->applet);
	free(r->message);
	free(r);
}

void bb_run_free(struct bb_run *run)
{
	if (!run)
		return;
	for (size_t i = 0; i < run->n; i++)
		result_free(run->results[i]);
	free(run->results);
	bb_kv_free(&run->labels);
	bb_kv_free(&run->sys.facts);
	bb_cycles_close(&run->cycles);
	free(run);
}

static struct bb_result *add_result(struct bb_run *run, const char *name, int spans)
{
	struct bb_result *r = bb_xcalloc(1, sizeof *r);

	r->applet = bb_xstrdup(name);
	r->ok = 1;
	r->spans = spans;
	for (int i = 0; i < BB_MAX_WATCHES && run->watch_heat && !spans; i++)
		if (hooks.watch[i])
			r->watch[i] = hooks.watch[i]->start(&r->params);
	if (run->n == run->cap) {
		run->cap = run->cap ? 2 * run->cap : 4;
		run->results = bb_xrealloc(run->results, run->cap * sizeof *run->results);
	}
	run->results[run->n++] = r;
	return r;
}

struct bb_result *bb_run_add_result(struct bb_run *run, const char *applet)
{
	return add_result(run, applet, 0);
}

struct bb_result *bb_run_add_span(struct bb_run *run, const char *name)
{
	return add_result(run, name, 1);
}

struct bb_series *bb_result_add_series(struct bb_result *r, const char *name,
				       const char *variant, const char *unit,
				       double work, const char *work_unit)
{
	struct bb_series *s = bb_xcalloc(1, sizeof *s);

	s->name = bb_xstrdup(name);
	s->variant = bb_xstrdup(variant ? variant : "");
	s->unit = bb_xstrdup(unit);
	s->work = work;
	s->work_unit = bb_xstrdup(work_unit ? work_unit : "");
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 8;
		r->series = bb_xrealloc(r->series, r->cap * sizeof *r->series);
	}
	r->series[r->n++] = s;
	return s;
}

const struct bb_series *bb_result_find(const struct bb_result *r, const char *name,
				       const char *variant)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->series[i]->name, name) == 0 &&
		    (!variant || strcmp(r->series[i]->variant, variant) == 0))
			return r->series[i];
	return NULL;
}

void bb_result_set_status(struct bb_result *r, int ok, const char *msg)
{
	for (int i = BB_MAX_WATCHES - 1; i >= 0; i--)
		if (r->watch[i] && hooks.watch[i])
			hooks.watch[i]->end(r->watch[i], &r->params);
	r->ok = ok;
	free(r->message);
	r->message = bb_xstrdup(msg ? msg : "");
}

void bb_result_set_interrupted(struct bb_result *r, const char *what)
{
	char msg[320];
	size_t kept = 0;

	for (size_t i = 0; i < r->n; i++) {
		size_t n;
		bb_series_kept(r->series[i], &n);
		if (n)
			r->series[kept++] = r->series[i];
		else
			series_free(r->series[i]);
	}
	r->n = kept;
	snprintf(msg, sizeof msg, "interrupted by %s%s%s", bb_stopped() ? bb_stop_name() : "a signal",
		 what && what[0] ? ": kept " : "", what ? what : "");
	bb_result_set_status(r, 0, msg);
	r->interrupted = 1;
}

void bb_run_warn_stopped(const struct bb_run *run, const char *where)
{
	char kept[1024];
	size_t used = 0;

	kept[0] = '\0';
	for (size_t i = 0; i < run->n && used < sizeof kept; i++) {
		const struct bb_result *r = run->results[i];
		const char *k = r->interrupted && r->message ? strstr(r->message, ": kept ") : NULL;
		if (r->spans)
			continue;
		used += (size_t)snprintf(kept + used, sizeof kept - used, "%s%s%s%s%s",
					 used ? ", " : "", r->applet,
					 r->interrupted ? " (interrupted" : "",
					 k ? ": " : "", k ? k + 7 : "");
		if (r->interrupted && used < sizeof kept)
			used += (size_t)snprintf(kept + used, sizeof kept - used, ")");
	}
	bb_warn("interrupted by %s: kept %s %s", bb_stopped() ? bb_stop_name() : "a signal",
		kept[0] ? kept : "nothing (no result had finished)", where);
}

const char *bb_result_status(const struct bb_result *r)
{
	return r->interrupted ? "interrupted" : r->ok ? "ok" : "failed";
}

void bb_series_add(struct bb_series *s, double sample)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->samples = bb_xrealloc(s->samples, s->cap * sizeof *s->samples);
	}
	s->samples[s->n++] = sample;
}

const double *bb_series_kept(const struct bb_series *s, size_t *n)
{
	size_t d = s->discard < s->n ? s->discard : s->n;
	*n = s->n - d;
	return s->samples + d;
}
