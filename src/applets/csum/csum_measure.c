/* csum_measure.c - the `csum` applet's measurements: a sample is N calls
 * of one variant on one size between two clock (and cycle counter)
 * readings, as the seed added up start and stop times; samples go into the
 * results model with per-call figures derived from the best and the
 * median.  Size by size, the variants take their samples in alternating
 * rounds (core/rounds.h: one sample each per round, the first rotating),
 * so drift in the clock frequency falls on all of them alike.  Every
 * measured variant's result on the measured buffer is checked against the
 * reference checksum.  Nothing is printed here. */
#include "csum_applet.h"
#include "core/calib.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/rounds.h"
#include "core/stats.h"
#include "core/stop.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- buffers ---- */

struct csum_buffers {
	unsigned char *src, *dst;
	void *src_mem, *dst_mem;
};

static void buffers_alloc(struct csum_buffers *b, size_t bytes, size_t offset)
{
	size_t total = bytes + offset + 64;
	uint32_t x = 0x6d2b79f5u;

	if (posix_memalign(&b->src_mem, 64, total) != 0 ||
	    posix_memalign(&b->dst_mem, 64, total) != 0)
		bb_die("cannot allocate 2 x %zu bytes of buffers", total);
	b->src = (unsigned char *)b->src_mem + offset;
	b->dst = (unsigned char *)b->dst_mem + offset;
	for (size_t i = 0; i < total; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		((unsigned char *)b->src_mem)[i] = (unsigned char)(x >> 24);
	}
	memset(b->dst_mem, 0, total);   /* touch every page before timing */
}

static void buffers_free(struct csum_buffers *b)
{
	free(b->src_mem);
	free(b->dst_mem);
}

/* ---- timing: one sample is `calls` calls between two clock readings ---- */

enum job_kind { JOB_SUM, JOB_CHAIN, JOB_IP, JOB_COPY };

struct job {
	enum job_kind kind;
	csum_fn sum;
	csum_ip_fn ip;
	csum_copy_fn copy;
	const unsigned char *src;
	unsigned char *dst;
	size_t len;
	uint64_t calls;
};

static volatile uint32_t csum_sink;

/* Hides a function pointer from the optimiser: the call cannot be inlined,
 * hoisted or deleted. */
#define OPAQUE(f) __asm__ __volatile__("" : "+r"(f) : : "memory")

static void job_run(const struct job *j, uint64_t calls)
{
	uint32_t acc = 0, seed = 0;
	csum_fn sum = j->sum;
	csum_ip_fn ip = j->ip;
	csum_copy_fn copy = j->copy;

	switch (j->kind) {
	case JOB_SUM:
		OPAQUE(sum);
		for (uint64_t i = 0; i < calls; i++)
			acc ^= sum(j->src, j->len, 0);
		break;
	case JOB_CHAIN:
		OPAQUE(sum);
		for (uint64_t i = 0; i < calls; i++)
			seed = sum(j->src, j->len, seed);
		break;
	case JOB_IP:
		OPAQUE(ip);
		for (uint64_t i = 0; i < calls; i++)
			acc ^= ip(j->src, (unsigned)(j->len / 4));
		break;
	case JOB_COPY:
		OPAQUE(copy);
		for (uint64_t i = 0; i < calls; i++)
			acc ^= copy(j->dst, j->src, j->len, 0);
		break;
	}
	csum_sink = acc ^ seed;
}

static void job_sample(const struct job *j, const struct bb_cycles *cyc, double *sec,
		       double *count)
{
	double t0 = bb_now();
	uint64_t c0 = bb_cycles_read(cyc);

	job_run(j, j->calls);
	uint64_t c1 = bb_cycles_read(cyc);
	double t1 = bb_now();
	*sec = t1 - t0;
	*count = (double)(c1 - c0);
}

static double median_of(const struct bb_series *s)
{
	size_t n;
	const double *x = bb_series_kept(s, &n);
	return bb_median(x, n);
}

static double best_of(const struct bb_series *s)
{
	size_t n;
	const double *x = bb_series_kept(s, &n);
	struct bb_stats st;
	return bb_stats_compute(x, n, &st) ? 0 : st.min;
}

/* Per-call figures from the kept samples, stored with the time series:
 * the best sample (STREAM's convention, and the least disturbed by other
 * load) and the median. */
static void derive(struct bb_series *t, const struct bb_series *c, const struct job *j)
{
	double calls = (double)j->calls, tbest = best_of(t), cbest = best_of(c);

	bb_kv_int(&t->values, "calls", (long long)j->calls);
	bb_kv_int(&t->values, "bytes", (long long)j->len);
	bb_kv_num(&t->values, "time_best_s", tbest);
	bb_kv_num(&t->values, "time_median_s", median_of(t));
	bb_kv_num(&t->values, "ns_per_call", tbest * 1e9 / calls);
	bb_kv_num(&t->values, "ns_per_call_median", median_of(t) * 1e9 / calls);
	bb_kv_num(&t->values, "counts_per_call", cbest / calls);
	bb_kv_num(&t->values, csum_rate_key(c->unit), cbest > 0 ? (double)j->len * calls / cbest : 0);
}

/* ---- cells, measured in alternating rounds ---- */

/* One variant on one row (a size, or a size and a kind of call): the job
 * and its two series, seconds and counter. */
struct cell {
	struct job j;
	struct bb_series *t, *c;
};

/* nvar variants by nrow rows, stored variant by variant, the order in
 * which their series are added to the result. */
struct grid {
	const struct bb_run *run;
	struct cell *cell;
	int nvar, nrow;
	int row;   /* the row being measured */
};

static void grid_new(struct grid *g, const struct bb_run *run, int nvar, int nrow)
{
	g->run = run;
	g->nvar = nvar;
	g->nrow = nrow;
	g->row = 0;
	g->cell = bb_xcalloc((size_t)(nvar > 0 ? nvar : 1) * (size_t)nrow, sizeof *g->cell);
}

static struct cell *grid_at(const struct grid *g, int v, int row)
{
	return &g->cell[v * g->nrow + row];
}

/* Adds the cell's series to the result: the time, then the counter. */
static void cell_open(struct cell *k, struct bb_result *r, const struct bb_run *run,
		      const char *name, const char *variant)
{
	char cname[96];
	double work = (double)k->j.len * (double)k->j.calls;

	k->t = bb_result_add_series(r, name, variant, "s", work, "bytes");
	snprintf(cname, sizeof cname, "%s" CSUM_COUNTER, name);
	k->c = bb_result_add_series(r, cname, variant, run->cycles.unit, work, "bytes");
	k->t->discard = k->c->discard = 1;
}

static void grid_turn(void *p, int round, int v)
{
	const struct grid *g = p;
	struct cell *k = grid_at(g, v, g->row);
	double sec, count;

	if (round == 0)   /* warm caches and predictors before the first sample */
		job_run(&k->j, k->j.calls < 1000 ? k->j.calls : 1000);
	job_sample(&k->j, &g->run->cycles, &sec, &count);
	bb_series_add(k->t, sec);
	bb_series_add(k->c, count);
}

/* Set when a SIGINT/SIGTERM cut a grid's rounds short (core/stop.h). */
static int grid_cut;
#define CSUM_CALL_WEIGHT 600.0  /* a call's overhead, in bytes summed (x86-64, roughly) */
static struct bb_eta grid_eta;   /* rows of every grid of the run */

/* A row's expected cost: its bytes per call, plus a call's overhead. */
static double row_weight(const struct grid *g)
{
	return g->nvar ? (double)grid_at(g, 0, g->row)->j.len + CSUM_CALL_WEIGHT : 0;
}

/* Row by row, reps rounds of every variant (a stop request ends them
 * between two rounds); then each cell's figures. */
static void grid_measure(struct grid *g, int reps)
{
	for (g->row = 0; g->row < g->nrow; g->row++) {
		bb_progress("csum: row %d of %d", g->row + 1, g->nrow);
		if (bb_rounds_run(reps, g->nvar, grid_turn, g) < reps)
			grid_cut = 1;
		bb_eta_step_w(&grid_eta, row_weight(g));
	}
	bb_progress_clear();
	for (int i = 0; i < g->nvar * g->nrow; i++)
		derive(g->cell[i].t, g->cell[i].c, &g->cell[i].j);
}

/* ---- validation against the reference, on the measured buffer ---- */

static void fail_check(struct bb_result *r, const char *variant, size_t len, unsigned got,
		       unsigned want)
{
	char msg[160];

	snprintf(msg, sizeof msg, "%s at %zu bytes: checksum 0x%04x, reference 0x%04x", variant,
		 len, got, want);
	if (r->ok)
		bb_result_set_status(r, 0, msg);
}

static void check_sum(struct bb_result *r, struct bb_series *t, const char *name, csum_fn fn,
		      const unsigned char *p, size_t len)
{
	static const uint32_t seeds[] = { 0, 0xffffffffu };

	for (int i = 0; i < 2; i++) {
		unsigned got = csum_fold(fn(p, len, seeds[i]));
		unsigned want = csum_fold(csum_reference(p, len, seeds[i]));
		bb_kv_bool(&t->values, "checked", got == want);
		if (got != want) {
			fail_check(r, name, len, got, want);
			return;
		}
	}
}

static void check_ip(struct bb_result *r, struct bb_series *t, const char *name,
		     csum_ip_fn fn, const unsigned char *p, size_t len)
{
	unsigned got = fn(p, (unsigned)(len / 4));
	unsigned want = (uint16_t)~csum_fold(csum_reference(p, len, 0));

	bb_kv_bool(&t->values, "checked", got == want);
	if (got != want)
		fail_check(r, name, len, got, want);
}

static void check_copy(struct bb_result *r, struct bb_series *t, const char *name,
		       csum_copy_fn fn, const struct csum_buffers *b, size_t len)
{
	unsigned got, want = csum_fold(csum_reference(b->src, len, 0));

	memset(b->dst, 0, len);
	got = csum_fold(fn(b->dst, b->src, len, 0));
	if (memcmp(b->dst, b->src, len) != 0)
		got = want ^ 0xffff;   /* a wrong copy is a failed check */
	bb_kv_bool(&t->values, "checked", got == want);
	if (got != want)
		fail_check(r, name, len, got, want);
}

/* ---- the measurements of each mode ---- */

static void measure_sums(struct bb_result *r, const struct bb_run *run,
			 const struct csum_opts *o, const struct csum_plan *p,
			 const struct csum_buffers *b)
{
	struct grid g;
	char name[64];

	grid_new(&g, run, p->nsum, o->nsizes);
	for (int v = 0; v < p->nsum; v++)
		for (int s = 0; s < o->nsizes; s++) {
			struct cell *k = grid_at(&g, v, s);
			k->j = (struct job){ JOB_SUM, p->sum[v]->fn, NULL, NULL, b->src, NULL,
					     o->sizes[s], o->calls };
			csum_series_name(name, sizeof name, "", o->sizes[s]);
			cell_open(k, r, run, name, p->sum[v]->name);
		}
	grid_measure(&g, o->reps);
	for (int v = 0; v < p->nsum; v++)
		for (int s = 0; s < o->nsizes; s++)
			check_sum(r, grid_at(&g, v, s)->t, p->sum[v]->name, p->sum[v]->fn, b->src,
				  o->sizes[s]);
	free(g.cell);
}

/* improvement_pct = (t_baseline - t) / t_baseline, as the classic report's column. */
static void add_improvements(struct bb_result *r, const struct csum_opts *o,
			     const struct csum_plan *p, const char *prefix)
{
	char name[64];

	for (int s = 0; s < o->nsizes; s++) {
		csum_series_name(name, sizeof name, prefix, o->sizes[s]);
		const struct bb_series *base = bb_result_find(r, name, p->baseline->name);
		double tb = base ? bb_kv_getnum(&base->values, "ns_per_call", 0) : 0;
		for (size_t i = 0; tb > 0 && i < r->n; i++) {
			struct bb_series *t = r->series[i];
			if (strcmp(t->name, name) == 0)
				bb_kv_num(&t->values, "improvement_pct",
					  100.0 * (tb - bb_kv_getnum(&t->values, "ns_per_call", 0)) / tb);
		}
	}
}

/* Rows 2s and 2s+1: size s, independent calls and then chained ones. */
static void measure_latency(struct bb_result *r, const struct bb_run *run,
			    const struct csum_opts *o, const struct csum_plan *p,
			    const struct csum_buffers *b)
{
	struct grid g;
	char name[64];

	grid_new(&g, run, p->nsum, 2 * o->nsizes);
	for (int v = 0; v < p->nsum; v++)
		for (int row = 0; row < g.nrow; row++) {
			struct cell *k = grid_at(&g, v, row);
			size_t len = o->sizes[row / 2];
			k->j = (struct job){ row % 2 ? JOB_CHAIN : JOB_SUM, p->sum[v]->fn, NULL, NULL,
					     b->src, NULL, len, o->calls };
			csum_series_name(name, sizeof name, row % 2 ? CSUM_LATENCY : "", len);
			cell_open(k, r, run, name, p->sum[v]->name);
		}
	grid_measure(&g, o->reps);
	for (int v = 0; v < p->nsum; v++)
		for (int s = 0; s < o->nsizes; s++)
			check_sum(r, grid_at(&g, v, 2 * s)->t, p->sum[v]->name, p->sum[v]->fn, b->src,
				  o->sizes[s]);
	free(g.cell);
}

/* Rows: IPv4 header lengths of 5..15 words. */
static void measure_ip(struct bb_result *r, const struct bb_run *run, const struct csum_opts *o,
		       const struct csum_plan *p, const struct csum_buffers *b)
{
	struct grid g;
	char name[64];

	grid_new(&g, run, p->nip, 11);
	for (int v = 0; v < p->nip; v++)
		for (int row = 0; row < g.nrow; row++) {
			struct cell *k = grid_at(&g, v, row);
			k->j = (struct job){ JOB_IP, NULL, p->ip[v]->fn, NULL, b->src, NULL,
					     4 * (size_t)(row + 5), o->calls };
			csum_series_name(name, sizeof name, "ip", k->j.len);
			cell_open(k, r, run, name, p->ip[v]->name);
		}
	grid_measure(&g, o->reps);
	for (int v = 0; v < p->nip; v++)
		for (int row = 0; row < g.nrow; row++) {
			struct cell *k = grid_at(&g, v, row);
			check_ip(r, k->t, p->ip[v]->name, k->j.ip, b->src, k->j.len);
		}
	free(g.cell);
}

static void measure_copy(struct bb_result *r, const struct bb_run *run,
			 const struct csum_opts *o, const struct csum_plan *p,
			 const struct csum_buffers *b)
{
	struct grid g;
	char name[64];

	grid_new(&g, run, p->ncopy, o->nsizes);
	for (int v = 0; v < p->ncopy; v++)
		for (int s = 0; s < o->nsizes; s++) {
			struct cell *k = grid_at(&g, v, s);
			k->j = (struct job){ JOB_COPY, NULL, NULL, p->copy[v]->fn, b->src, b->dst,
					     o->sizes[s], o->calls };
			csum_series_name(name, sizeof name, "copy", o->sizes[s]);
			cell_open(k, r, run, name, p->copy[v]->name);
		}
	grid_measure(&g, o->reps);
	for (int v = 0; v < p->ncopy; v++)
		for (int s = 0; s < o->nsizes; s++)
			check_copy(r, grid_at(&g, v, s)->t, p->copy[v]->name, p->copy[v]->fn, b,
				   o->sizes[s]);
	free(g.cell);
}

/* ---- running a benchmark mode ---- */

static void join_sizes(char *buf, size_t len, const struct csum_opts *o)
{
	char item[32];

	buf[0] = '\0';
	for (int i = 0; i < o->nsizes; i++) {
		snprintf(item, sizeof item, "%zu", o->sizes[i]);
		csum_append(buf, len, item);
	}
}

static void record_params(struct bb_result *r, const struct bb_run *run,
			  const struct csum_opts *o, const struct csum_plan *p)
{
	char buf[1024];

	bb_kv_str(&r->params, "mode", o->latency ? "latency" : "table");
	join_sizes(buf, sizeof buf, o);
	bb_kv_str(&r->params, "sizes", buf);
	bb_kv_int(&r->params, "calls", (long long)o->calls);
	bb_kv_int(&r->params, "reps", o->reps);
	bb_kv_str(&r->params, "rounds", "alternating");
	bb_kv_int(&r->params, "offset", (long long)o->offset);
	bb_kv_str(&r->params, "baseline", p->baseline->name);
	buf[0] = '\0';
	for (int i = 0; i < p->nsum; i++)
		csum_append(buf, sizeof buf, p->sum[i]->name);
	bb_kv_str(&r->params, "variants", buf);
	buf[0] = '\0';
	for (int i = 0; !o->latency && i < p->nip; i++)
		csum_append(buf, sizeof buf, p->ip[i]->name);
	bb_kv_str(&r->params, "ip_variants", buf);
	buf[0] = '\0';
	for (int i = 0; !o->latency && i < p->ncopy; i++)
		csum_append(buf, sizeof buf, p->copy[i]->name);
	bb_kv_str(&r->params, "copy_variants", buf);
	bb_kv_str(&r->params, "unsupported", p->unsupported);
	bb_kv_str(&r->params, "counter", run->cycles.name);
	bb_kv_str(&r->params, "counter_unit", run->cycles.unit);
	bb_kv_num(&r->params, "counter_hz", run->cycles.hz);
	bb_kv_bool(&r->params, "core_cycles", run->cycles.core_cycles);
	bb_kv_str(&r->params, "time_unit", "Time: microseconds for all calls; Avg: usec per call");
}

/* Bytes per estimated core cycle beside the counter's figure: the clock
 * estimated from the dependent-add chain timed right before and after the
 * measurement (core/calib.h says what it assumes and where it fails). */
static void add_estimates(struct bb_result *r, struct bb_run *run, size_t mark)
{
	struct bb_clock_est e;

	if (bb_calib_estimate(run, mark, &e) != 0)
		return;
	bb_calib_record_estimate(r, run, &e);
	for (size_t i = 0; i < r->n; i++) {
		struct bb_series *t = r->series[i];
		double ns = bb_kv_getnum(&t->values, "ns_per_call", 0);
		double bytes = bb_kv_getnum(&t->values, "bytes", 0);
		if (strcmp(t->unit, "s") == 0 && ns > 0)
			bb_kv_num(&t->values, "bytes_per_est_cycle", bytes / (ns * 1e-9 * e.hz));
	}
}

/* The rows of the grids csum_execute measures, weighted as row_weight. */
static void eta_plan(const struct csum_opts *o, const struct csum_plan *plan)
{
	double sizes = 0, ip = 0;
	int rows = o->latency ? 2 * o->nsizes : o->nsizes;

	for (int i = 0; i < o->nsizes; i++)
		sizes += (double)o->sizes[i] + CSUM_CALL_WEIGHT;
	for (int w = 5; w <= 15; w++)
		ip += 4.0 * w + CSUM_CALL_WEIGHT;
	if (!o->latency && plan->nip)
		rows += 11;
	if (!o->latency && plan->ncopy)
		rows += o->nsizes;
	bb_eta_start_w(&grid_eta, rows, o->latency ? 2 * sizes :
		       sizes + (plan->nip ? ip : 0) + (plan->ncopy ? sizes : 0), "rows");
}

struct bb_result *csum_execute(struct bb_run *run, const struct csum_opts *o,
			       const struct csum_plan *plan)
{
	struct csum_buffers buf;
	struct bb_result *r;
	size_t largest = 60, mark = bb_calib_mark(run);

	for (int i = 0; i < o->nsizes; i++)
		if (o->sizes[i] > largest)
			largest = o->sizes[i];
	buffers_alloc(&buf, largest, (size_t)o->offset);
	r = bb_run_add_result(run, "csum");
	r->render = csum_render;
	r->summary = csum_summary;
	bb_result_set_status(r, 1, "");
	record_params(r, run, o, plan);
	eta_plan(o, plan);
	if (o->latency) {
		measure_latency(r, run, o, plan, &buf);
		add_improvements(r, o, plan, "");
	} else {
		measure_sums(r, run, o, plan, &buf);
		add_improvements(r, o, plan, "");
		if (!bb_stopped())
			measure_ip(r, run, o, plan, &buf);
		else
			grid_cut |= plan->nip > 0;
		if (!bb_stopped())
			measure_copy(r, run, o, plan, &buf);
		else
			grid_cut |= plan->ncopy > 0;
	}
	buffers_free(&buf);
	add_estimates(r, run, mark);
	if (grid_cut) {
		char what[64];
		snprintf(what, sizeof what, "the rows measured before it, up to %d samples each",
			 o->reps - 1);
		bb_result_set_interrupted(r, what);
	} else if (r->ok)
		bb_result_set_status(r, 1, "every measured variant agrees with the reference checksum");
	return r;
}
