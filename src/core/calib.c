/* calib.c - the CPU's own speed: a chain of dependent integer adds, one
 * per clock on nearly every core, timed before and after an applet's
 * measurement, and in the quick suite before each applet and after the
 * last.  The samples go into a result of their own ("calib").  compare
 * warns when it differs between A and B, since then every single-thread
 * figure may have moved with the machine, not with what was changed; its
 * spread within a side shows a clock that changed while the runs went on
 * (DVFS, thermal throttling, a busy host). */
#include "core/calib.h"
#include "core/stats.h"
#include "core/timer.h"

#include <string.h>

double bb_calib_chain(unsigned long n)
{
	unsigned long x = 0;
	double t0 = bb_now();

	for (unsigned long i = 0; i < n; i++) {
		x += i;
		__asm__ __volatile__("" : "+r"(x));   /* one add after another */
	}
	__asm__ __volatile__("" : : "r"(x));
	return bb_now() - t0;
}

/* Adds per sample: doubled until a chain lasts BB_CALIB_MIN_S. */
static unsigned long chain_length(void)
{
	unsigned long n = BB_CALIB_MIN_OPS;

	while (n < BB_CALIB_MAX_OPS && bb_calib_chain(n) < BB_CALIB_MIN_S)
		n *= 2;
	return n;
}

static size_t calib_index(const struct bb_run *run)
{
	size_t i;

	for (i = 0; i < run->n; i++)
		if (strcmp(run->results[i]->applet, BB_CALIB_APPLET) == 0)
			break;
	return i;
}

static struct bb_series *calib_series(struct bb_run *run)
{
	size_t i = calib_index(run);
	struct bb_result *r = i < run->n ? run->results[i] : NULL;

	if (!r) {
		unsigned long ops = chain_length();
		r = bb_run_add_span(run, BB_CALIB_APPLET);
		r->summary = bb_calib_summary;
		bb_result_set_status(r, 1, "");
		bb_kv_str(&r->params, "kernel", "dependent integer adds");
		bb_kv_int(&r->params, "ops_per_sample", (long long)ops);
		return bb_result_add_series(r, BB_CALIB_SERIES, "", "s", (double)ops, "ops");
	}
	return r->series[0];
}

void bb_calib_sample(struct bb_run *run)
{
	struct bb_series *s = calib_series(run);

	for (int i = 0; i < BB_CALIB_PER_CALL; i++)
		bb_series_add(s, bb_calib_chain((unsigned long)s->work));
}

void bb_calib_finish(struct bb_run *run)
{
	size_t i = calib_index(run);
	struct bb_result *r;

	if (i == run->n)
		return;
	bb_calib_sample(run);
	r = run->results[i];
	memmove(run->results + i, run->results + i + 1, (run->n - i - 1) * sizeof *run->results);
	run->results[run->n - 1] = r;
}

/* The estimate's own chain: eight dependent adds a step, so the loop
 * around them (add, cmp, jne) is a small share of the instructions.  The
 * calib chain issues about four instructions per add; a core whose issue
 * slots are shared (an SMT sibling busy on the host) runs it at half
 * speed, which measured the clock at half its rate on the development VM,
 * while a chain of eight issues at well under two per cycle. */
static double est_chain(unsigned long n)
{
	unsigned long x = 0;
	double t0 = bb_now();

#define EST_ADD(x, i) do { x += i; __asm__ __volatile__("" : "+r"(x)); } while (0)
	for (unsigned long i = 0; i < n; i += 8) {
		EST_ADD(x, i); EST_ADD(x, i); EST_ADD(x, i); EST_ADD(x, i);
		EST_ADD(x, i); EST_ADD(x, i); EST_ADD(x, i); EST_ADD(x, i);
	}
#undef EST_ADD
	__asm__ __volatile__("" : : "r"(x));
	return bb_now() - t0;
}

/* The chains timed by the last bb_calib_mark(): the applets measure one
 * at a time, so one set is enough. */
static double est_before[BB_CALIB_EST_CHAINS];

static void est_time(double *t)
{
	for (int i = 0; i < BB_CALIB_EST_CHAINS; i++)
		t[i] = est_chain(BB_CALIB_EST_OPS);
}

size_t bb_calib_mark(struct bb_run *run)
{
	(void)run;
	est_time(est_before);
	return 0;
}

int bb_calib_estimate(struct bb_run *run, size_t mark, struct bb_clock_est *e)
{
	double t[2 * BB_CALIB_EST_CHAINS];
	struct bb_stats st;

	(void)run;
	(void)mark;
	memset(e, 0, sizeof *e);
	memcpy(t, est_before, sizeof est_before);
	est_time(t + BB_CALIB_EST_CHAINS);
	if (bb_stats_compute(t, 2 * BB_CALIB_EST_CHAINS, &st) != 0 || !(st.median > 0) ||
	    !(st.min > 0))
		return -1;
	e->hz = BB_CALIB_EST_OPS / st.min;
	e->hz_median = BB_CALIB_EST_OPS / st.median;
	e->hz_min = BB_CALIB_EST_OPS / st.max;
	e->samples = 2 * BB_CALIB_EST_CHAINS;
	return 0;
}

void bb_calib_record_estimate(struct bb_result *r, const struct bb_run *run,
			      const struct bb_clock_est *e)
{
	if (!(e->hz > 0))
		return;
	bb_kv_num(&r->params, "est_core_hz", e->hz);
	bb_kv_num(&r->params, "est_core_hz_median", e->hz_median);
	bb_kv_num(&r->params, "est_core_hz_min", e->hz_min);
	bb_kv_int(&r->params, "est_core_samples", (long long)e->samples);
	bb_kv_str(&r->params, "est_core_basis",
		  "an estimate: dependent integer adds per second in the fastest of the "
		  "chains timed right before and after the measurement, assuming one add "
		  "per core cycle");
	if (run->cycles.core_cycles && run->cycles.hz > 0)
		bb_kv_num(&r->params, "est_core_vs_counter", e->hz / run->cycles.hz);
}

void bb_calib_summary(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = r->n ? r->series[0] : NULL;
	struct bb_stats st;

	if (!s || bb_stats_compute(s->samples, s->n, &st) != 0 || !(st.median > 0))
		return;
	fprintf(f, "calib    %.3f ns per dependent add (median of %zu, %.2f to %.2f ns over the run)\n",
		1e9 * st.median / s->work, s->n, 1e9 * st.min / s->work, 1e9 * st.max / s->work);
}
