/* stream.c - the `stream` applet: McCalpin's STREAM (Copy, Scale, Add,
 * Triad) with its conventions: 16/16/24/24 bytes per element, MB = 10^6,
 * NTIMES repetitions with the first dropped, best rate plus avg/min/max
 * time, the clock-granularity lines and the validation of the arrays.
 *
 * Threads come from a bb_team and first-touch their own slice.  Variants
 * come from the registry in kernels/stream_table.c; tuned ones (--tuned)
 * are printed as "tuned STREAM".  The text layout is rendered from the
 * results model by stream_render(), never printed from the timing loop.
 * Its --help is src/applets/stream/help.txt.
 */
#include "core/applet.h"
#include "core/calib.h"
#include "core/cli.h"
#include "core/emit.h"
#include "core/error.h"
#include "core/fpu.h"
#include "core/headline.h"
#include "core/help.h"
#include "core/parse.h"
#include "core/progress.h"
#include "core/stats.h"
#include "core/stop.h"
#include "core/team.h"
#include "kernels/stream.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

BB_HELP_TEXT(stream);

#define STREAM_SCALAR 3.0
#define STREAM_NKERNELS 4
#define STREAM_MIN_ELEMENTS 16
#define STREAM_DEFAULT_MIN (2u * 1000 * 1000)
#define STREAM_EPSILON 1e-13
/* The array values grow about 15-fold per repetition and leave the range
 * of a double near 260 repetitions, after which validation cannot work. */
#define STREAM_MAX_NTIMES 200

enum { CMD_INIT, CMD_DOUBLE_A, CMD_COPY, CMD_SCALE, CMD_ADD, CMD_TRIAD };

static const char *const kernel_names[STREAM_NKERNELS] = { "Copy", "Scale", "Add", "Triad" };
static const int kernel_words[STREAM_NKERNELS] = { 2, 2, 3, 3 };

struct stream_opts {
	uint64_t n;            /* elements per array; 0 = default */
	int ntimes;
	int threads;
	int pin;
	int tuned;
	const char *variants;  /* comma list, or NULL */
	int list;
};

struct stream_arrays {
	double *a, *b, *c;
	size_t n;
	size_t map_bytes;
	const struct stream_variant *v;
};

/* The header printed before the rounds by `stream` itself (the quick
 * suite prints its summary afterwards), so the render skips it. */
static FILE *early_header;

/* ---- the measured work, run by every thread on its slice ---- */

static void stream_slice(void *p, int cmd, int i, int nthreads)
{
	struct stream_arrays *s = p;
	const struct stream_variant *v = s->v;
	size_t lo, hi;

	bb_team_slice(s->n, i, nthreads, 8, &lo, &hi);
	double *a = s->a + lo, *b = s->b + lo, *c = s->c + lo;
	size_t n = hi - lo;

	switch (cmd) {
	case CMD_INIT:
		for (size_t j = 0; j < n; j++) {
			a[j] = 1.0;
			b[j] = 2.0;
			c[j] = 0.0;
		}
		break;
	case CMD_DOUBLE_A:
		for (size_t j = 0; j < n; j++)
			a[j] = 2.0 * a[j];
		break;
	case CMD_COPY: v->copy(c, a, n); break;
	case CMD_SCALE: v->scale(b, c, STREAM_SCALAR, n); break;
	case CMD_ADD: v->add(c, a, b, n); break;
	case CMD_TRIAD: v->triad(a, b, c, STREAM_SCALAR, n); break;
	}
	__asm__ __volatile__("" ::: "memory");
}

static double *map_array(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static int arrays_alloc(struct stream_arrays *s, size_t n)
{
	s->n = n;
	s->map_bytes = n * sizeof(double);
	s->a = map_array(s->map_bytes);
	s->b = map_array(s->map_bytes);
	s->c = map_array(s->map_bytes);
	return s->a && s->b && s->c ? 0 : -1;
}

static void arrays_free(struct stream_arrays *s)
{
	if (s->a)
		munmap(s->a, s->map_bytes);
	if (s->b)
		munmap(s->b, s->map_bytes);
	if (s->c)
		munmap(s->c, s->map_bytes);
}

/* ---- validation, as STREAM's checkSTREAMresults() ---- */

static double avg_abs_err(const double *x, size_t n, double expect)
{
	double sum = 0;
	for (size_t j = 0; j < n; j++)
		sum += fabs(x[j] - expect);
	return sum / (double)n;
}

/* Returns 1 if the arrays hold what ntimes passes of the kernels produce. */
static int stream_validate(const struct stream_arrays *s, int ntimes, char *msg, size_t len)
{
	double aj = 1.0, bj = 2.0, cj = 0.0;
	double err[3];
	const char *names = "abc";
	int ok = 1;
	size_t used = 0;

	aj = 2.0 * aj;
	for (int k = 0; k < ntimes; k++) {
		cj = aj;
		bj = STREAM_SCALAR * cj;
		cj = aj + bj;
		aj = bj + STREAM_SCALAR * cj;
	}
	err[0] = avg_abs_err(s->a, s->n, aj) / fabs(aj);
	err[1] = avg_abs_err(s->b, s->n, bj) / fabs(bj);
	err[2] = avg_abs_err(s->c, s->n, cj) / fabs(cj);
	msg[0] = '\0';
	for (int i = 0; i < 3; i++)
		if (!(err[i] <= STREAM_EPSILON)) {
			ok = 0;
			used += (size_t)snprintf(msg + used, used < len ? len - used : 0,
				"%sFailed Validation on array %c[], AvgRelAbsErr > epsilon (%e): %e",
				used ? "; " : "", names[i], STREAM_EPSILON, err[i]);
		}
	if (ok)
		snprintf(msg, len, "Solution Validates: avg error less than %e on all three arrays",
			 STREAM_EPSILON);
	return ok;
}

/* ---- one full STREAM run of one variant ---- */

static double time_cmd(struct bb_team *t, int cmd)
{
	double t0 = bb_now();
	bb_team_run(t, cmd);
	return bb_now() - t0;
}

static void add_series(struct bb_result *r, const struct stream_arrays *s,
		       const struct stream_variant *v, struct bb_series **ser)
{
	for (int k = 0; k < STREAM_NKERNELS; k++) {
		ser[k] = bb_result_add_series(r, kernel_names[k], v->name, "s",
					      (double)kernel_words[k] * sizeof(double) * (double)s->n,
					      "bytes");
		ser[k]->discard = 1;
	}
}

static void derive_values(struct bb_series *ser, const struct stream_variant *v)
{
	size_t n;
	const double *x = bb_series_kept(ser, &n);
	struct bb_stats st;

	if (bb_stats_compute(x, n, &st))
		return;
	bb_kv_num(&ser->values, "best_rate_Bps", ser->work / st.min);
	bb_kv_num(&ser->values, "median_rate_Bps", ser->work / st.median);
	bb_kv_num(&ser->values, "avg_time_s", st.mean);
	bb_kv_num(&ser->values, "min_time_s", st.min);
	bb_kv_num(&ser->values, "max_time_s", st.max);
	bb_kv_int(&ser->values, "tuned", v->tuned);
	bb_kv_int(&ser->values, "skips_write_allocate", v->nt);
}

/* Every variant runs its four kernels once per round, variants alternating
 * (ABAB...), so frequency drift and neighbours' load hit all of them
 * alike.  All variants compute the same values, so the arrays are
 * validated once, after the rounds of every variant.  A SIGINT/SIGTERM
 * ends the rounds between two rounds (core/stop.h); returns those run. */
static int run_rounds(struct bb_team *team, struct stream_arrays *s,
		      const struct stream_variant *const *vs, int nv,
		      const struct stream_opts *o, struct bb_result *r)
{
	struct bb_series *ser[16][STREAM_NKERNELS];
	char msg[512], key[96];
	int rep;

	for (int i = 0; i < nv; i++)
		add_series(r, s, vs[i], ser[i]);
	for (rep = 0; rep < o->ntimes && !bb_stopped(); rep++) {
		bb_progress("stream: round %d of %d", rep + 1, o->ntimes);
		for (int i = 0; i < nv; i++) {
			s->v = vs[i];
			for (int k = 0; k < STREAM_NKERNELS; k++)
				bb_series_add(ser[i][k], time_cmd(team, CMD_COPY + k));
		}
	}
	bb_progress_clear();
	if (!stream_validate(s, rep * nv, msg, sizeof msg))
		bb_result_set_status(r, 0, msg);
	for (int i = 0; i < nv; i++) {
		snprintf(key, sizeof key, "validation.%s", vs[i]->name);
		bb_kv_str(&r->params, key, msg);
		for (int k = 0; k < STREAM_NKERNELS; k++)
			derive_values(ser[i][k], vs[i]);
	}
	return rep;
}

/* ---- variant selection and sizing ---- */

struct stream_plan {
	const struct stream_variant *run[16];
	int nrun;
	char unsupported[256];
};

static void plan_add(struct stream_plan *p, const struct stream_variant *v)
{
	size_t used = strlen(p->unsupported);

	for (int i = 0; i < p->nrun; i++)
		if (p->run[i] == v)
			return;
	if (v->supported()) {
		if (p->nrun < (int)(sizeof p->run / sizeof p->run[0]))
			p->run[p->nrun++] = v;
	} else if (used < sizeof p->unsupported) {
		snprintf(p->unsupported + used, sizeof p->unsupported - used, "%s%s",
			 used ? "," : "", v->name);
	}
}

static void plan_variants(const struct stream_opts *o, struct stream_plan *p)
{
	memset(p, 0, sizeof *p);
	if (!o->variants) {
		plan_add(p, &stream_variants[0]);
		for (size_t i = 0; o->tuned && i < stream_nvariants; i++)
			if (stream_variants[i].tuned)
				plan_add(p, &stream_variants[i]);
		return;
	}
	char buf[256];
	if (!o->variants[strspn(o->variants, ",")])
		bb_die_value("--variant", o->variants, "expected a comma list, see --list");
	snprintf(buf, sizeof buf, "%s", o->variants);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct stream_variant *v = stream_variant_find(tok);
		if (!v)
			bb_die_value("--variant", tok, "see 'boardbench stream --list'");
		plan_add(p, v);
	}
}

static uint64_t default_elements(const struct bb_sysinfo *si)
{
	uint64_t n = 4 * bb_sysinfo_largest_cache(si) / sizeof(double);
	return n < STREAM_DEFAULT_MIN ? STREAM_DEFAULT_MIN : n;
}

/* Arrays may use at most half of MemAvailable.  An explicit -s beyond that
 * is an error; the default shrinks to fit and says so. */
static size_t choose_elements(const struct stream_opts *o, const struct bb_sysinfo *si)
{
	uint64_t limit = si->mem_available_bytes / 2;
	uint64_t n = o->n ? o->n : default_elements(si);
	uint64_t need = n * 3 * sizeof(double);

	if (n > UINT64_MAX / 24 || need > SIZE_MAX)
		bb_die("%llu elements do not fit this %d-bit address space",
		       (unsigned long long)n, si->pointer_bits);
	if (limit && need > limit) {
		if (o->n)
			bb_die("3 arrays of %llu elements need %.1f MiB, more than half of "
			       "MemAvailable (%.1f MiB); use a smaller -s",
			       (unsigned long long)n, need / 1048576.0,
			       si->mem_available_bytes / 1048576.0);
		n = limit / (3 * sizeof(double));
		bb_warn("default array size reduced to %llu elements to fit half of "
			"MemAvailable; caches may not be fully defeated",
			(unsigned long long)n);
	}
	return (size_t)n;
}

/* ---- the classic text layout, rendered from the model ---- */

static const char *param_str(const struct bb_result *r, const char *key)
{
	const struct bb_kv *kv = bb_kv_get(&r->params, key);
	return kv && kv->type == BB_KV_STR ? kv->s : "";
}

static void render_header(FILE *f, const struct bb_result *r)
{
	const char *line = "-------------------------------------------------------------\n";
	double n = bb_kv_getnum(&r->params, "array_size", 0);
	double gran = bb_kv_getnum(&r->params, "granularity_us", 0);
	double est = bb_kv_getnum(&r->params, "test_time_us", 0);

	fprintf(f, "%sboardbench stream (STREAM conventions; MB = 10^6 bytes)\n%s", line, line);
	fprintf(f, "This system uses %d bytes per DOUBLE PRECISION word.\n%s", (int)sizeof(double),
		line);
	fprintf(f, "Array size = %.0f, Offset = 0\n", n);
	fprintf(f, "Total memory required = %.1f MiB (%.1f MB).\n",
		3.0 * sizeof(double) * n / 1048576.0, 3.0 * sizeof(double) * n / 1e6);
	fprintf(f, "Each test is run %.0f times, but only\nthe *best* time for each is used.\n",
		bb_kv_getnum(&r->params, "ntimes", 0));
	fprintf(f, "(the first iteration is dropped)\n");
	if (bb_kv_getnum(&r->params, "variants", 1) > 1)
		fprintf(f, "The %.0f variants alternate round by round (ABAB...); the arrays\n"
			   "are validated once, after all %.0f rounds.\n",
			bb_kv_getnum(&r->params, "variants", 1),
			bb_kv_getnum(&r->params, "variants", 1) *
				bb_kv_getnum(&r->params, "ntimes", 0));
	fputs(line, f);
	fprintf(f, "Number of Threads requested = %.0f\n", bb_kv_getnum(&r->params, "threads", 0));
	fprintf(f, "Threads pinned = %s\n%s", param_str(r, "pinning"), line);
	fprintf(f, "Your clock granularity/precision appears to be %.*f microseconds.\n",
		gran < 1 ? 3 : 0, gran);
	fprintf(f, "Each test below will take on the order of %.0f microseconds.\n", est);
	fprintf(f, "   (= %.0f clock ticks)\n", gran > 0 ? est / gran : 0);
	fprintf(f, "Increase the size of the arrays if this shows that\n"
		   "you are not getting at least 20 clock ticks per test.\n%s", line);
	fprintf(f, "WARNING -- The above is only a rough guideline.\n"
		   "For best results, please be sure you know the\n"
		   "precision of your system timer.\n%s", line);
}

static void render_table(FILE *f, const struct bb_result *r, const char *variant)
{
	fprintf(f, "Function      Rate (MB/s)   Avg time     Min time     Max time\n");
	for (int k = 0; k < STREAM_NKERNELS; k++) {
		const struct bb_series *s = bb_result_find(r, kernel_names[k], variant);
		char label[16];
		if (!s)
			continue;
		snprintf(label, sizeof label, "%s:", kernel_names[k]);
		fprintf(f, "%-11s%11.4f  %11.6f  %11.6f  %11.6f\n", label,
			bb_kv_getnum(&s->values, "best_rate_Bps", 0) * 1e-6,
			bb_kv_getnum(&s->values, "avg_time_s", 0),
			bb_kv_getnum(&s->values, "min_time_s", 0),
			bb_kv_getnum(&s->values, "max_time_s", 0));
	}
}

static void render_spread(FILE *f, const struct bb_result *r, const char *variant)
{
	fprintf(f, "Median rate (MB/s) and spread (CV of times), first iteration dropped:\n");
	for (int k = 0; k < STREAM_NKERNELS; k++) {
		const struct bb_series *s = bb_result_find(r, kernel_names[k], variant);
		size_t n = 0;
		const double *x = s ? bb_series_kept(s, &n) : NULL;
		struct bb_stats st;
		if (!x || bb_stats_compute(x, n, &st))
			continue;
		fprintf(f, "%-7s %11.4f  %5.1f%%\n", kernel_names[k],
			bb_kv_getnum(&s->values, "median_rate_Bps", 0) * 1e-6, 100.0 * st.cv);
	}
}

static void stream_render(FILE *f, const struct bb_result *r)
{
	const char *line = "-------------------------------------------------------------\n";
	const char *unsup = param_str(r, "unsupported");
	char key[96];

	if (!early_header)
		render_header(f, r);
	for (size_t i = 0; i < r->n; i++) {
		const struct bb_series *s = r->series[i];
		const struct stream_variant *v = stream_variant_find(s->variant);
		if (strcmp(s->name, "Copy") != 0)
			continue;
		if (v && v->tuned)
			fprintf(f, "tuned STREAM: %s (%s)\n", v->name, v->desc);
		if (v && v->nt)
			fprintf(f, "note: %s's non-temporal stores skip the write-allocate read of each\n"
				   "destination line (where the core honours them): the memory then moves\n"
				   "2/3 (Copy, Scale) and 3/4 (Add, Triad) of the bytes counted, so its\n"
				   "rates exceed `c` without a faster memory.\n", v->name);
		render_table(f, r, s->variant);
		fputs(line, f);
		snprintf(key, sizeof key, "validation.%s", s->variant);
		fprintf(f, "%s\n%s", param_str(r, key), line);
		render_spread(f, r, s->variant);
		fputs(line, f);
	}
	if (unsup[0])
		fprintf(f, "unsupported on this CPU (not run): %s\n%s", unsup, line);
}

static void stream_summary(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = bb_result_find(r, "Triad", "c");
	const struct bb_series *cp = bb_result_find(r, "Copy", "c");

	if (!s || !cp) {
		fprintf(f, "stream: no result\n");
		return;
	}
	fprintf(f, "stream   Copy %.1f MB/s, Triad %.1f MB/s (best of %.0f; %.0f threads, "
		   "%.0f elements) %s\n",
		bb_kv_getnum(&cp->values, "best_rate_Bps", 0) * 1e-6,
		bb_kv_getnum(&s->values, "best_rate_Bps", 0) * 1e-6,
		bb_kv_getnum(&r->params, "ntimes", 0) - 1,
		bb_kv_getnum(&r->params, "threads", 0),
		bb_kv_getnum(&r->params, "array_size", 0),
		r->ok ? "validates" : "FAILED VALIDATION");
}

/* ---- running ---- */

static void record_params(struct bb_result *r, const struct stream_opts *o, size_t n,
			  const struct bb_run *run, const struct stream_plan *p, int pin_failed)
{
	bb_kv_int(&r->params, "array_size", (long long)n);
	bb_kv_int(&r->params, "offset", 0);
	bb_kv_int(&r->params, "bytes_per_word", (long long)sizeof(double));
	bb_kv_int(&r->params, "ntimes", o->ntimes);
	bb_kv_int(&r->params, "threads", o->threads);
	bb_kv_str(&r->params, "pinning",
		  !o->pin ? "no" : pin_failed ? "requested, failed" : "yes, thread i on CPU i");
	bb_kv_num(&r->params, "granularity_us", run->timer.granularity_s * 1e6);
	bb_kv_str(&r->params, "rate_unit", "MB/s, MB = 10^6 bytes");
	bb_kv_str(&r->params, "bytes_counted", "16/16/24/24 bytes per element");
	bb_kv_str(&r->params, "unsupported", p->unsupported);
	bb_kv_str(&r->params, "floating_point", bb_fp_name(bb_fp_mode()));
}

/* One line before rounds that map more than BB_NOTE_BYTES or take about
 * BB_NOTE_SECONDS: how much memory, and about how long from the time of
 * one pass over an array (2 words per element; a round moves 10 per
 * element and variant). */
static void announce(size_t n, double pass_s, int rounds)
{
	double bytes = 3.0 * sizeof(double) * (double)n, est = pass_s * 5.0 * rounds;
	char sz[32], total[32], dur[32];

	if (bytes <= (double)BB_NOTE_BYTES && est < BB_NOTE_SECONDS)
		return;
	bb_fmt_bytes(sz, sizeof sz, bytes / 3.0);
	bb_fmt_bytes(total, sizeof total, bytes);
	bb_fmt_duration(dur, sizeof dur, est);
	bb_note("3 arrays of %s (%s in all), %d rounds: %s", sz, total, rounds, dur);
}

/* Runs STREAM into a new result of run; returns 0, or exits 1 on a
 * resource failure. */
static struct bb_result *stream_execute(struct bb_run *run, void *opts)
{
	struct stream_opts *o = opts;
	struct stream_plan plan;
	struct stream_arrays arr = { 0 };
	struct bb_team team = { 0 };
	struct bb_result *r;
	double test_time = 0;
	size_t n;
	int done;

	plan_variants(o, &plan);
	if (plan.nrun == 0)
		bb_die("no requested variant runs on this CPU (unsupported: %s)", plan.unsupported);
	if (o->ntimes * plan.nrun > STREAM_MAX_NTIMES)
		bb_die_usage("--ntimes %d with %d variants makes %d rounds; at most %d can be "
			     "validated", o->ntimes, plan.nrun, o->ntimes * plan.nrun,
			     STREAM_MAX_NTIMES);
	if (o->threads == 0)
		o->threads = run->sys.cpus_online;
	n = choose_elements(o, &run->sys);
	if (bb_fp_mode() != BB_FP_HARDWARE)
		bb_warn("floating point here is %s: Scale, Add and Triad time it as well as "
			"the memory (Copy does no arithmetic)", bb_fp_name(bb_fp_mode()));
	if (arrays_alloc(&arr, n) != 0) {
		arrays_free(&arr);
		bb_die("cannot map 3 arrays of %zu bytes: %s", n * sizeof(double),
		       strerror(errno));
	}
	if (bb_team_start(&team, o->threads, o->pin, stream_slice, &arr) != 0) {
		arrays_free(&arr);
		bb_die("cannot start %d threads: %s", o->threads, strerror(errno));
	}
	r = bb_run_add_result(run, "stream");
	r->render = stream_render;
	r->summary = stream_summary;
	bb_result_set_status(r, 1, "");
	arr.v = plan.run[0];
	bb_team_run(&team, CMD_INIT);
	test_time = time_cmd(&team, CMD_DOUBLE_A);
	record_params(r, o, n, run, &plan, team.pin_failed);
	bb_kv_int(&r->params, "variants", plan.nrun);
	bb_kv_num(&r->params, "test_time_us", test_time * 1e6);
	if (early_header) {
		render_header(early_header, r);
		fflush(early_header);
	}
	announce(n, test_time, o->ntimes * plan.nrun);
	done = run_rounds(&team, &arr, plan.run, plan.nrun, o, r);
	bb_team_stop(&team);
	arrays_free(&arr);
	if (done < o->ntimes) {
		char what[64];
		snprintf(what, sizeof what, "%d of %d rounds", done, o->ntimes);
		bb_result_set_interrupted(r, what);
	} else if (r->ok) {
		bb_result_set_status(r, 1, "Solution Validates");
	}
	return r;
}

static void stream_list(void)
{
	printf("STREAM variants (tuned ones are reported as \"tuned STREAM\"; nt: non-temporal\n"
	       "stores, which skip the write-allocate reads):\n");
	for (size_t i = 0; i < stream_nvariants; i++) {
		const struct stream_variant *v = &stream_variants[i];
		printf("  %-10s %-12s %-8s %s\n", v->name, v->supported() ? "supported" : "unsupported",
		       v->nt ? "tuned,nt" : v->tuned ? "tuned" : "", v->desc);
	}
}

enum { OPT_PIN = BB_OPT_FIRST_APPLET, OPT_TUNED, OPT_VARIANT, OPT_LIST };

static void stream_parse(int argc, char **argv, void *opts, struct bb_cli *cli)
{
	struct stream_opts *o = opts;
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "ntimes", required_argument, NULL, 'N' },
		{ "threads", required_argument, NULL, 't' },
		{ "pin", no_argument, NULL, OPT_PIN },
		{ "tuned", no_argument, NULL, OPT_TUNED },
		{ "variant", required_argument, NULL, OPT_VARIANT },
		{ "list", no_argument, NULL, OPT_LIST },
		BB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int opt;

	bb_cli_begin();
	while ((opt = getopt_long(argc, argv, ":s:N:t:h", longopts, NULL)) != -1) {
		if (bb_cli_common(opt, optarg, cli))
			continue;
		switch (opt) {
		case 's':
			if (bb_parse_size(optarg, &v) || v < STREAM_MIN_ELEMENTS)
				bb_die_value("--size", optarg, "expected elements >= 16, e.g. 2M");
			o->n = v;
			break;
		case 'N':
			if (bb_parse_u64(optarg, 2, STREAM_MAX_NTIMES, &v))
				bb_die_value("--ntimes", optarg, "expected 2..200");
			o->ntimes = (int)v;
			break;
		case 't':
			if (bb_parse_u64(optarg, 1, 1024, &v))
				bb_die_value("--threads", optarg, "expected 1..1024");
			o->threads = (int)v;
			break;
		case OPT_PIN: o->pin = 1; break;
		case OPT_TUNED: o->tuned = 1; break;
		case OPT_VARIANT: o->variants = optarg; break;
		case OPT_LIST: o->list = 1; break;
		case 'h': bb_help_print(&bb_help_stream); exit(0);
		default: bb_cli_bad(opt, argv);
		}
	}
	bb_cli_no_operands(argc, argv);
}

static void stream_defaults(void *opts)
{
	struct stream_opts *o = opts;

	memset(o, 0, sizeof *o);
	o->ntimes = 10;
}

/* --list answers at once; a run prints the table's header before it
 * measures, as stream.c does. */
static int stream_before(int argc, char **argv, void *opts, struct bb_cli *cli)
{
	const struct stream_opts *o = opts;

	(void)argc, (void)argv, (void)cli;
	if (o->list) {
		stream_list();
		return 0;
	}
	early_header = stdout;
	return -1;
}

static struct bb_result *stream_quick(struct bb_run *run)
{
	struct stream_opts o;

	stream_defaults(&o);
	return stream_execute(run, &o);
}

/* ---- the applet ---- */

/* STREAM's classic figure: Triad, the plain C variant, its median rate. */
static void stream_lava(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = bb_series_of(r, "Triad", "c");

	if (s)
		bb_lava_pass(f, "stream-triad", bb_kept_median_rate(s) * 1e-6, "MB/s");
}

static void stream_lava_name(char *name, size_t len, const struct bb_result *r)
{
	(void)r;
	snprintf(name, len, "stream-triad");
}

static const struct bb_headline stream_headline = {
	.keys = { "stream.triad.c.bandwidth", "stream.triad.*.bandwidth" },
	.lava = stream_lava,
	.lava_name = stream_lava_name,
};

const struct bb_applet bb_applet_stream = {
	.name = "stream",
	.summary = "STREAM memory bandwidth: Copy, Scale, Add, Triad (MB = 10^6 bytes)",
	.opts_size = sizeof(struct stream_opts),
	.defaults = stream_defaults,
	.parse = stream_parse,
	.before = stream_before,
	.execute = stream_execute,
	.quick = stream_quick,
	.headline = &stream_headline,
};
