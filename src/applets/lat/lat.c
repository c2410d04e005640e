/* lat.c - the `lat` applet: memory latency against working-set size, by a
 * chase of dependent loads (each load's address is the value the previous
 * load returned), as lmbench's lat_mem_rd -t measures it: elements of one
 * cache line, shuffled within each page, pages shuffled
 * (kernels/lat_chase.c).  For every size it keeps every timed sample,
 * prints the median ns per load, then finds the plateaus of the curve
 * (core/plateau.c) and prints them as cache levels and memory next to what
 * sysfs claims.  Text is rendered from the results model by lat_render().
 * Its --help is src/applets/lat/help.txt.
 */
#include "core/applet.h"
#include "core/calib.h"
#include "core/cli.h"
#include "core/progress.h"
#include "core/stop.h"
#include "core/emit.h"
#include "core/error.h"
#include "core/headline.h"
#include "core/help.h"
#include "core/mathx.h"
#include "core/pages.h"
#include "core/parse.h"
#include "core/plateau.h"
#include "core/stats.h"
#include "kernels/lat_chase.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

BB_HELP_TEXT(lat);

#define LAT_DEFAULT_MIN 1024u
#define LAT_DEFAULT_MAX (256u * 1024 * 1024)
#define LAT_QUICK_MAX (64u * 1024 * 1024)
#define LAT_DEFAULT_PPD 4
#define LAT_DEFAULT_SAMPLES 5
#define LAT_DEFAULT_LINE 64
#define LAT_SEED 0x6c61745f63686173u   /* fixed: the same chain every run */
#define LAT_MAX_LEVELS 8
/* Each sample lasts at least this multiple of bb_timer_min_sample(). */
#define LAT_SAMPLE_MARGIN 1.25
/* Warm-up loads before a sample: the whole chain up to this many (64 MiB
 * of 64-byte lines); beyond, the cache holds a random part of it anyway. */
#define LAT_WARM_LOADS (1u << 20)
/* Times a preempted sample is taken again before it is kept as it is. */
#define LAT_RETAKES 3

struct lat_opts {
	uint64_t min, max;       /* bytes; 0 = default */
	uint64_t stride;         /* bytes; 0 = cache line size */
	int ppd;                 /* points per doubling */
	int samples;
	int hugepages;
	enum lat_order order;
	uint64_t default_max;    /* largest size unless --max */
	int max_follows_cache;   /* default_max grows to 4x the largest cache */
};

struct lat_plan {
	size_t *sizes;
	size_t n;
	size_t stride;
	size_t group;            /* page group of the random order */
	const char *stride_from; /* where the stride came from */
	char note[256];          /* why the largest size was reduced, or "" */
};

/* ---- sizes ---- */

/* The L1 data (or unified) line size sysfs reports, else any line size. */
static size_t sysfs_line(const struct bb_sysinfo *si)
{
	for (int i = 0; i < si->ncaches; i++)
		if (si->caches[i].level == 1 && strcmp(si->caches[i].type, "Instruction") != 0 &&
		    si->caches[i].line_bytes > 0)
			return (size_t)si->caches[i].line_bytes;
	for (int i = 0; i < si->ncaches; i++)
		if (si->caches[i].line_bytes > 0)
			return (size_t)si->caches[i].line_bytes;
	return 0;
}

static void plan_stride(struct lat_plan *p, const struct lat_opts *o, const struct bb_sysinfo *si)
{
	size_t line = sysfs_line(si);
	size_t page = 4096;
	long pg = sysconf(_SC_PAGESIZE);

	if (o->stride) {
		p->stride = (size_t)o->stride;
		p->stride_from = "--stride";
	} else if (line >= sizeof(void *) && (line & (line - 1)) == 0) {
		p->stride = line;
		p->stride_from = "cache line size from sysfs";
	} else {
		p->stride = LAT_DEFAULT_LINE;
		p->stride_from = "assumed: sysfs gives no line size";
	}
	if (pg > 0)
		page = (size_t)pg;
	p->group = page > p->stride ? page : p->stride;
}

/* The largest size: --max, or the default (256 MiB or 4x the largest
 * cache, whichever is more), at most half of MemAvailable; an explicit
 * --max beyond that is an error. */
static uint64_t plan_max(struct lat_plan *p, const struct lat_opts *o, const struct bb_sysinfo *si)
{
	uint64_t limit = si->mem_available_bytes / 2;
	uint64_t want = o->max;

	if (!want) {
		want = o->max_follows_cache ? 4 * bb_sysinfo_largest_cache(si) : 0;
		if (want < o->default_max)
			want = o->default_max;
	}
	if (want > SIZE_MAX / 2)
		bb_die("%llu bytes do not fit this %d-bit address space",
		       (unsigned long long)want, si->pointer_bits);
	if (!limit || want <= limit)
		return want;
	if (o->max)
		bb_die("--max %llu bytes is more than half of MemAvailable (which is %.1f MiB); "
		       "use a smaller --max", (unsigned long long)want,
		       (double)si->mem_available_bytes / 1048576.0);
	while (want > limit && want > 2 * LAT_DEFAULT_MIN)
		want /= 2;
	snprintf(p->note, sizeof p->note,
		 "largest size reduced to %.1f MiB (half of MemAvailable is %.1f MiB); "
		 "memory latency may not be reached", (double)want / 1048576.0,
		 (double)limit / 1048576.0);
	return want;
}

static size_t round_to(double v, size_t stride)
{
	size_t n = (size_t)(v / (double)stride + 0.5);
	return (n < 2 ? 2 : n) * stride;
}

static void plan_sizes(struct lat_plan *p, const struct lat_opts *o, uint64_t min, uint64_t max)
{
	size_t cap = 16;

	p->sizes = bb_xmalloc(cap * sizeof *p->sizes);
	p->n = 0;
	for (int k = 0;; k++) {
		double v = (double)min * bb_exp2((double)k / o->ppd);
		if (v > (double)max * (1 + 1e-9))
			break;
		size_t s = round_to(v, p->stride);
		if (p->n == cap)
			p->sizes = bb_xrealloc(p->sizes, (cap *= 2) * sizeof *p->sizes);
		if ((!p->n || s > p->sizes[p->n - 1]) && s <= max)
			p->sizes[p->n++] = s;
	}
	size_t last = (size_t)max / p->stride * p->stride;
	if (p->n < cap && (!p->n || p->sizes[p->n - 1] < last) && last >= 2 * p->stride)
		p->sizes[p->n++] = last;
}

static void plan_make(struct lat_plan *p, const struct lat_opts *o, const struct bb_sysinfo *si)
{
	uint64_t min, max;

	memset(p, 0, sizeof *p);
	plan_stride(p, o, si);
	min = o->min ? o->min : LAT_DEFAULT_MIN;
	if (min < 2 * p->stride) {
		if (o->min)
			bb_die_usage("invalid value '%llu' for --min (expected at least 2 strides, "
				     "%zu bytes)", (unsigned long long)o->min, 2 * p->stride);
		min = 2 * p->stride;
	}
	max = plan_max(p, o, si);
	if (max < min)
		bb_die_usage("invalid value '%llu' for --max (expected at least --min, %llu bytes)",
			     (unsigned long long)max, (unsigned long long)min);
	plan_sizes(p, o, min, max);
}

/* ---- measuring one size ---- */

/* Involuntary context switches of this thread so far, or -1. */
static long preemptions(void)
{
	struct rusage ru;

#ifdef RUSAGE_THREAD
	if (getrusage(RUSAGE_THREAD, &ru) == 0)
		return ru.ru_nivcsw;
#endif
	return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_nivcsw : -1;
}

/* Times count units of loads from *q.  A sample the scheduler interrupted
 * (an involuntary context switch) timed another program too: it is taken
 * again, at most LAT_RETAKES times, each retake counted in *retaken. */
static double timed_chase(void ***q, size_t count, long *retaken)
{
	for (int k = 0;; k++) {
		long cs = preemptions();
		double t0 = bb_now();
		*q = lat_chase(*q, count);
		double t = bb_now() - t0;
		if (cs < 0 || preemptions() == cs || k == LAT_RETAKES)
			return t;
		++*retaken;
	}
}

/* Loads per sample (in LAT_CHASE_UNROLL units) so a sample lasts at least
 * `target` seconds; the chase continues from *p. */
static size_t calibrate(void ***p, double target)
{
	size_t count = 4;
	long ignored = 0;

	for (;;) {
		double t = timed_chase(p, count, &ignored);
		if (t >= target || count > SIZE_MAX / 64)
			return count;
		if (t > target / 64)
			count = (size_t)((double)count * target / t * 1.1) + 1;
		else
			count *= 8;
	}
}

struct lat_point {
	size_t size;
	size_t count;             /* LAT_CHASE_UNROLL units of loads per sample */
	long retaken;             /* samples taken again after a preemption */
	struct bb_series *s;
};

/* Links the chain for one size and runs a warm-up over it (all of it up to
 * LAT_WARM_LOADS loads); returns where the chase stands. */
static void **prepare(const struct lat_plan *p, const struct lat_opts *o, struct bb_pages *buf,
		      size_t *scratch, size_t size)
{
	struct lat_chain c = { buf->buf, size, p->stride, p->group, o->order, LAT_SEED ^ size };
	size_t warm = size / p->stride;
	void **q = lat_chain_build(&c, scratch);

	if (!q)
		bb_die("cannot build a chain of %zu bytes with stride %zu", size, p->stride);
	if (warm > LAT_WARM_LOADS)
		warm = LAT_WARM_LOADS;
	return lat_chase(q, (warm + LAT_CHASE_UNROLL - 1) / LAT_CHASE_UNROLL);
}

/* One timed sample of every size; the first pass also sizes the samples
 * and creates the series.  Passes interleave so that a burst of activity
 * elsewhere on the machine lands on one sample of many sizes, not on every
 * sample of one size. */
static void measure_pass(const struct lat_plan *p, const struct lat_opts *o, struct bb_pages *buf,
			 size_t *scratch, struct lat_point *pt, double target, struct bb_result *r)
{
	for (size_t i = 0; i < p->n && !bb_stopped(); i++) {
		void **q = prepare(p, o, buf, scratch, pt[i].size);
		if (!pt[i].s) {
			char name[32];
			pt[i].count = calibrate(&q, target);
			snprintf(name, sizeof name, "%zu", pt[i].size);
			pt[i].s = bb_result_add_series(r, name, o->order == LAT_ORDER_RANDOM ?
						       "random" : "sequential", "s",
						       (double)pt[i].count * LAT_CHASE_UNROLL, "loads");
			bb_kv_int(&pt[i].s->values, "size_bytes", (long long)pt[i].size);
		}
		bb_series_add(pt[i].s, timed_chase(&q, pt[i].count, &pt[i].retaken));
		lat_chase_sink(q);
	}
}

/* Every pass, or those a SIGINT/SIGTERM (core/stop.h) left time for: it
 * ends them between two samples.  Returns the passes that finished. */
/* After the first pass (which also sized the samples): one line when all
 * passes will take about BB_NOTE_SECONDS or more. */
static void announce_time(double first, int passes)
{
	char each[32], all[32];

	if (first * passes < BB_NOTE_SECONDS)
		return;
	bb_fmt_duration(each, sizeof each, first);
	bb_fmt_duration(all, sizeof all, first * passes);
	bb_note("%d passes over the sizes, %s each: %s in all", passes, each, all);
}

static int measure_all(const struct lat_plan *p, const struct lat_opts *o, struct bb_pages *buf,
		       double target, struct bb_result *r)
{
	size_t max = p->sizes[p->n - 1];
	struct lat_chain c = { buf->buf, max, p->stride, p->group, o->order, 0 };
	size_t *scratch = bb_xmalloc((lat_chain_scratch_len(&c) + 1) * sizeof *scratch);
	struct lat_point *pt = bb_xcalloc(p->n, sizeof *pt);
	long retaken = 0;
	int pass;

	for (size_t i = 0; i < p->n; i++)
		pt[i].size = p->sizes[i];
	double t0 = bb_now();
	for (pass = 0; pass < o->samples; pass++) {
		bb_progress("lat: pass %d of %d over %zu sizes", pass + 1, o->samples, p->n);
		measure_pass(p, o, buf, scratch, pt, target, r);
		if (bb_stopped())
			break;
		if (pass == 0)
			announce_time(bb_now() - t0, o->samples);
	}
	bb_progress_clear();
	for (size_t i = 0; i < p->n && pt[i].s; i++) {
		bb_kv_int(&pt[i].s->values, "samples_retaken", pt[i].retaken);
		retaken += pt[i].retaken;
	}
	bb_kv_int(&r->params, "samples_retaken", retaken);
	free(pt);
	free(scratch);
	return pass;
}

/* Median and best ns per load of every size, into each series' values. */
static void derive(struct bb_result *r, double *median_ns)
{
	for (size_t i = 0; i < r->n; i++) {
		struct bb_series *s = r->series[i];
		size_t n;
		const double *x = bb_series_kept(s, &n);
		struct bb_stats st;

		bb_stats_compute(x, n, &st);
		median_ns[i] = st.median / s->work * 1e9;
		bb_kv_num(&s->values, "ns_per_load_median", median_ns[i]);
		bb_kv_num(&s->values, "ns_per_load_min", st.min / s->work * 1e9);
		bb_kv_num(&s->values, "ns_per_load_max", st.max / s->work * 1e9);
		bb_kv_num(&s->values, "cv", st.cv);
	}
}

/* ---- the levels it sees ---- */

/* "1 KiB", "38.1 KiB", "1.19 MiB", "1 GiB": three digits, binary units,
 * never an exponent (core/progress.c). */
static void fmt_size(char *out, size_t len, double bytes)
{
	bb_fmt_bytes(out, len, bytes);
}

/* "L1d 32 KiB", "L2 1 MiB": a cache as sysfs describes it. */
static void cache_label(const struct bb_cache *c, char *out, size_t len)
{
	char sz[24];
	const char *t = strcmp(c->type, "Data") == 0 ? "d" :
			strcmp(c->type, "Instruction") == 0 ? "i" : "";

	fmt_size(sz, sizeof sz, (double)c->size_bytes);
	snprintf(out, len, "L%d%s %s", c->level, t, sz);
}

/* The data or unified cache sysfs reports at this level, or "". */
static void sysfs_label(const struct bb_sysinfo *si, int level, char *out, size_t len)
{
	out[0] = '\0';
	for (int i = 0; i < si->ncaches; i++) {
		const struct bb_cache *c = &si->caches[i];
		if (c->level == level && strcmp(c->type, "Instruction") != 0) {
			cache_label(c, out, len);
			return;
		}
	}
}

/* Is the last plateau main memory?  Only if the curve ends on it and goes
 * past twice the largest cache sysfs reports; -1 when sysfs gives none. */
static int last_is_memory(int ends, size_t max_size, const struct bb_sysinfo *si)
{
	uint64_t llc = bb_sysinfo_largest_cache(si);

	if (!ends)
		return 0;
	if (!llc)
		return -1;
	return max_size >= 2 * llc;
}

static void record_level(struct bb_result *r, int i, const char *name, const struct bb_plateau *pl,
			 const struct lat_plan *p, const char *sysfs)
{
	char key[48];

	snprintf(key, sizeof key, "level%d_name", i);
	bb_kv_str(&r->params, key, name);
	snprintf(key, sizeof key, "level%d_first_bytes", i);
	bb_kv_int(&r->params, key, (long long)p->sizes[pl->first]);
	snprintf(key, sizeof key, "level%d_last_bytes", i);
	bb_kv_int(&r->params, key, (long long)p->sizes[pl->last]);
	snprintf(key, sizeof key, "level%d_ns_per_load", i);
	bb_kv_num(&r->params, key, pl->level);
	snprintf(key, sizeof key, "level%d_sysfs", i);
	bb_kv_str(&r->params, key, sysfs);
}

/* The deepest data or unified cache level sysfs reports, 0 if none. */
static int deepest_level(const struct bb_sysinfo *si)
{
	int deepest = 0;

	for (int i = 0; i < si->ncaches; i++)
		if (strcmp(si->caches[i].type, "Instruction") != 0 && si->caches[i].level > deepest)
			deepest = si->caches[i].level;
	return deepest;
}

/* A plateau's name: "L2" only for a level sysfs reports (or any level when
 * sysfs reports none, the curve being all there is); a plateau past the
 * deepest cache is "past L3", since no L4 exists to name. */
static void level_name(char *out, size_t len, size_t level, int or_memory, int deepest)
{
	if (deepest > 0 && level > (size_t)deepest)
		snprintf(out, len, "past L%d", deepest);
	else
		snprintf(out, len, or_memory ? "L%zu or memory" : "L%zu", level);
}

static void find_levels(struct bb_result *r, const struct lat_plan *p, const struct lat_opts *o,
			const double *median_ns, const struct bb_sysinfo *si)
{
	struct bb_plateau pl[LAT_MAX_LEVELS];
	struct bb_plateau_opts po;
	size_t n;
	int mem = 0, ends;

	bb_plateau_defaults(&po, o->ppd);
	n = bb_plateaus_find(median_ns, p->n, &po, pl, LAT_MAX_LEVELS);
	if (n > LAT_MAX_LEVELS)
		n = LAT_MAX_LEVELS;
	ends = n && pl[n - 1].reaches_end;
	if (n >= 2)
		mem = last_is_memory(ends, p->sizes[p->n - 1], si);
	bb_kv_int(&r->params, "levels", (long long)n);
	for (size_t i = 0; i < n; i++) {
		char name[32], sysfs[64];
		int is_mem = i == n - 1 && mem != 0;
		level_name(name, sizeof name, i + 1, is_mem && mem < 0, deepest_level(si));
		sysfs_label(si, (int)i + 1, sysfs, sizeof sysfs);
		record_level(r, (int)i + 1, is_mem && mem > 0 ? "memory" : name, &pl[i], p,
			     is_mem && mem > 0 ? "" : sysfs);
	}
	bb_kv_bool(&r->params, "memory_reached", mem > 0);
	bb_kv_bool(&r->params, "ends_on_plateau", ends);
	if (mem > 0)
		bb_kv_num(&r->params, "memory_ns_per_load", pl[n - 1].level);
}

/* ---- the text layout, rendered from the model ---- */

static const char *param_str(const struct bb_result *r, const char *key)
{
	const struct bb_kv *kv = bb_kv_get(&r->params, key);
	return kv && kv->type == BB_KV_STR ? kv->s : "";
}

static void render_header(FILE *f, const struct bb_result *r)
{
	int random = strcmp(param_str(r, "order"), "random") == 0;

	fprintf(f, "boardbench lat: memory latency by dependent loads (each load's address is the "
		   "previous load's value)\n");
	fprintf(f, "order: %s\n", random ?
		"random, lines shuffled within each page and pages shuffled (lmbench lat_mem_rd -t)" :
		"sequential, one stride after another (hardware prefetchers help)");
	fprintf(f, "stride: %.0f bytes (%s); pages: %s\n", bb_kv_getnum(&r->params, "stride_bytes", 0),
		param_str(r, "stride_from"), param_str(r, "pages"));
	fprintf(f, "%.0f passes over all sizes, one sample per size per pass (>= %.2f ms of loads, "
		   "after a warm-up); median shown, nothing subtracted\n",
		bb_kv_getnum(&r->params, "samples", 0),
		bb_kv_getnum(&r->params, "min_sample_s", 0) * 1e3);
	fprintf(f, "samples the scheduler interrupted are taken again (up to %d times): %.0f "
		   "retaken\n", LAT_RETAKES, bb_kv_getnum(&r->params, "samples_retaken", 0));
	if (param_str(r, "note")[0])
		fprintf(f, "note: %s\n", param_str(r, "note"));
}

static void render_curve(FILE *f, const struct bb_result *r)
{
	fprintf(f, "\n%12s %10s %10s %10s %10s\n", "size", "MiB", "ns/load", "min", "max");
	for (size_t i = 0; i < r->n; i++) {
		const struct bb_series *s = r->series[i];
		double bytes = bb_kv_getnum(&s->values, "size_bytes", 0);
		char sz[24];

		fmt_size(sz, sizeof sz, bytes);
		fprintf(f, "%12s %10.5f %10.3f %10.3f %10.3f\n", sz, bytes / 1048576.0,
			bb_kv_getnum(&s->values, "ns_per_load_median", 0),
			bb_kv_getnum(&s->values, "ns_per_load_min", 0),
			bb_kv_getnum(&s->values, "ns_per_load_max", 0));
	}
}

static void render_level(FILE *f, const struct bb_result *r, int i)
{
	char key[48], from[24], upto[24];

	snprintf(key, sizeof key, "level%d_first_bytes", i);
	fmt_size(from, sizeof from, bb_kv_getnum(&r->params, key, 0));
	snprintf(key, sizeof key, "level%d_last_bytes", i);
	fmt_size(upto, sizeof upto, bb_kv_getnum(&r->params, key, 0));
	snprintf(key, sizeof key, "level%d_ns_per_load", i);
	double ns = bb_kv_getnum(&r->params, key, 0);
	snprintf(key, sizeof key, "level%d_name", i);
	const char *name = param_str(r, key);
	snprintf(key, sizeof key, "level%d_sysfs", i);
	const char *sysfs = param_str(r, key);
	fprintf(f, "  %-14s %10s %10s %10.2f   %s\n", name, from, upto, ns,
		sysfs[0] ? sysfs : strcmp(name, "memory") == 0 ? "-" : "(none)");
}

static void render_sysfs(FILE *f, const struct bb_result *r)
{
	const char *claims = param_str(r, "sysfs_caches");

	fprintf(f, "sysfs claims: %s (may not be the real caches on a VM)\n",
		claims[0] ? claims : "no cache information");
	if (!bb_kv_getnum(&r->params, "ends_on_plateau", 0))
		fprintf(f, "the curve still rises at its largest size: raise --max to see the next "
			   "level\n");
	else if (!bb_kv_getnum(&r->params, "memory_reached", 0))
		fprintf(f, "memory latency not identified: the curve must end on a plateau past twice "
			   "the largest cache sysfs reports (raise --max)\n");
}

static void lat_render(FILE *f, const struct bb_result *r)
{
	int n = (int)bb_kv_getnum(&r->params, "levels", 0);

	render_header(f, r);
	render_curve(f, r);
	fprintf(f, "\nLevels seen (plateaus of the median curve; \"up to\" is the largest working set "
		   "still at the level's latency):\n");
	if (strcmp(param_str(r, "order"), "random") != 0)
		fprintf(f, "(sequential order: prefetchers hide misses, so plateaus need not be cache "
			   "levels)\n");
	fprintf(f, "  %-14s %10s %10s %10s   %s\n", "level", "from", "up to", "ns/load",
		"sysfs claims");
	for (int i = 1; i <= n; i++)
		render_level(f, r, i);
	if (n == 0)
		fprintf(f, "  (no plateau found)\n");
	render_sysfs(f, r);
}

static void lat_summary(FILE *f, const struct bb_result *r)
{
	int n = (int)bb_kv_getnum(&r->params, "levels", 0);
	char key[48], sz[24];

	fprintf(f, "lat     ");
	for (int i = 1; i <= n; i++) {
		snprintf(key, sizeof key, "level%d_name", i);
		const char *name = param_str(r, key);
		snprintf(key, sizeof key, "level%d_last_bytes", i);
		fmt_size(sz, sizeof sz, bb_kv_getnum(&r->params, key, 0));
		snprintf(key, sizeof key, "level%d_ns_per_load", i);
		if (strcmp(name, "memory") == 0)
			fprintf(f, "%s %.1f ns", name, bb_kv_getnum(&r->params, key, 0));
		else
			fprintf(f, "%s <=%s %.2f ns%s", name, sz, bb_kv_getnum(&r->params, key, 0),
				i < n ? ", " : "");
	}
	fprintf(f, "%s (%s chase, %.0f sizes)\n", n ? "" : "no plateau found",
		param_str(r, "order"), (double)r->n);
}

/* ---- running ---- */

static void sysfs_claims(const struct bb_sysinfo *si, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < si->ncaches && used < len; i++) {
		char label[48];
		cache_label(&si->caches[i], label, sizeof label);
		int w = snprintf(out + used, len - used, "%s%s", used ? ", " : "", label);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

static void record_params(struct bb_result *r, const struct lat_plan *p, const struct lat_opts *o,
			  const struct bb_pages *buf, const struct bb_run *run)
{
	char claims[256];

	bb_kv_str(&r->params, "order", o->order == LAT_ORDER_RANDOM ? "random" : "sequential");
	bb_kv_int(&r->params, "stride_bytes", (long long)p->stride);
	bb_kv_str(&r->params, "stride_from", p->stride_from);
	bb_kv_int(&r->params, "page_group_bytes", (long long)p->group);
	bb_kv_str(&r->params, "pages", buf->desc);
	bb_kv_bool(&r->params, "hugepages_requested", o->hugepages);
	bb_kv_int(&r->params, "min_bytes", (long long)p->sizes[0]);
	bb_kv_int(&r->params, "max_bytes", (long long)p->sizes[p->n ? p->n - 1 : 0]);  /* n 0: cut */
	bb_kv_int(&r->params, "points_per_doubling", o->ppd);
	bb_kv_int(&r->params, "samples", o->samples);
	bb_kv_num(&r->params, "min_sample_s", bb_timer_min_sample(&run->timer) * LAT_SAMPLE_MARGIN);
	bb_kv_str(&r->params, "seed", "0x6c61745f63686173 xor size");
	bb_kv_str(&r->params, "unit", "ns per load = sample seconds / loads * 1e9");
	bb_kv_str(&r->params, "note", p->note);
	sysfs_claims(&run->sys, claims, sizeof claims);
	bb_kv_str(&r->params, "sysfs_caches", claims);
}

/* One line before a curve that maps more than BB_NOTE_BYTES (the time
 * is not known before the first pass: roughly, each pass loads every size
 * for at least a sample and warms it up first). */
static void announce(const struct lat_plan *p, const struct lat_opts *o)
{
	char sz[32];

	if (p->sizes[p->n - 1] <= BB_NOTE_BYTES)
		return;
	bb_fmt_bytes(sz, sizeof sz, (double)p->sizes[p->n - 1]);
	bb_note("the largest working set maps %s; %d passes over %zu sizes", sz, o->samples,
		p->n);
}

static struct bb_result *lat_execute(struct bb_run *run, void *opts)
{
	const struct lat_opts *o = opts;

	struct lat_plan p;
	struct bb_pages buf;
	struct bb_result *r;
	double *median_ns;
	size_t max, planned;
	int passes;

	plan_make(&p, o, &run->sys);
	if (p.note[0])
		bb_warn("%s", p.note);
	max = p.sizes[p.n - 1];
	announce(&p, o);
	if (bb_pages_map(&buf, max, o->hugepages) != 0)
		bb_die("cannot map %zu bytes: %s", max, strerror(errno));
	r = bb_run_add_result(run, "lat");
	r->render = lat_render;
	r->summary = lat_summary;
	passes = measure_all(&p, o, &buf, bb_timer_min_sample(&run->timer) * LAT_SAMPLE_MARGIN, r);
	planned = p.n;
	if (r->n < p.n)
		p.n = r->n;     /* the first pass was cut: the sizes it reached */
	median_ns = bb_xmalloc((p.n ? p.n : 1) * sizeof *median_ns);
	derive(r, median_ns);
	record_params(r, &p, o, &buf, run);
	if (p.n)
		find_levels(r, &p, o, median_ns, &run->sys);
	bb_result_set_status(r, 1, "");
	if (passes < o->samples) {
		char what[96];
		if (r->n < planned)
			snprintf(what, sizeof what, "%zu of %zu sizes of the first of %d passes", r->n,
				 planned, o->samples);
		else
			snprintf(what, sizeof what, "%d of %d passes over %zu sizes", passes,
				 o->samples, planned);
		bb_result_set_interrupted(r, what);
	}
	free(median_ns);
	free(p.sizes);
	bb_pages_unmap(&buf);
	return r;
}

/* ---- options ---- */

enum { OPT_MIN = BB_OPT_FIRST_APPLET, OPT_MAX, OPT_PPD, OPT_SAMPLES, OPT_STRIDE, OPT_MODE,
       OPT_HUGE };

static uint64_t parse_size_opt(const char *opt, const char *arg)
{
	uint64_t v;

	if (bb_parse_size(arg, &v) || v == 0)
		bb_die_value(opt, arg, "expected a size in bytes, e.g. 4K or 64M");
	return v;
}

static void parse_one(int opt, const char *arg, struct lat_opts *o)
{
	uint64_t v;

	switch (opt) {
	case OPT_MIN: o->min = parse_size_opt("--min", arg); break;
	case OPT_MAX: o->max = parse_size_opt("--max", arg); break;
	case OPT_PPD:
		if (bb_parse_u64(arg, 1, 64, &v))
			bb_die_value("--points-per-doubling", arg, "expected 1..64");
		o->ppd = (int)v;
		break;
	case OPT_SAMPLES:
		if (bb_parse_u64(arg, 1, 1000, &v))
			bb_die_value("--samples", arg, "expected 1..1000");
		o->samples = (int)v;
		break;
	case OPT_STRIDE:
		if (bb_parse_size(arg, &v) || v < sizeof(void *) || v > 1048576 || (v & (v - 1)))
			bb_die_value("--stride", arg, "expected a power of two from the pointer size "
				     "to 1M");
		o->stride = v;
		break;
	case OPT_MODE:
		if (strcmp(arg, "random") == 0)
			o->order = LAT_ORDER_RANDOM;
		else if (strcmp(arg, "sequential") == 0 || strcmp(arg, "seq") == 0)
			o->order = LAT_ORDER_SEQUENTIAL;
		else
			bb_die_value("--mode", arg, "expected random or sequential");
		break;
	case OPT_HUGE: o->hugepages = 1; break;
	}
}

static void lat_parse(int argc, char **argv, void *opts, struct bb_cli *cli)
{
	struct lat_opts *o = opts;

	static const struct option longopts[] = {
		{ "min", required_argument, NULL, OPT_MIN },
		{ "max", required_argument, NULL, OPT_MAX },
		{ "points-per-doubling", required_argument, NULL, OPT_PPD },
		{ "samples", required_argument, NULL, OPT_SAMPLES },
		{ "stride", required_argument, NULL, OPT_STRIDE },
		{ "mode", required_argument, NULL, OPT_MODE },
		{ "hugepages", no_argument, NULL, OPT_HUGE },
		BB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	bb_cli_begin();
	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (bb_cli_common(opt, optarg, cli))
			continue;
		if (opt >= OPT_MIN && opt <= OPT_HUGE) {
			parse_one(opt, optarg, o);
			continue;
		}
		if (opt == 'h') {
			bb_help_print(&bb_help_lat);
			exit(0);
		}
		bb_cli_bad(opt, argv);
	}
	bb_cli_no_operands(argc, argv);
}

static void lat_defaults(void *opts)
{
	struct lat_opts *o = opts;

	memset(o, 0, sizeof *o);
	o->ppd = LAT_DEFAULT_PPD;
	o->samples = LAT_DEFAULT_SAMPLES;
	o->order = LAT_ORDER_RANDOM;
	o->default_max = LAT_DEFAULT_MAX;
	o->max_follows_cache = 1;
}

/* The quick suite's profile: the default curve, but only to 64 MiB (past
 * twice the last-level cache of most boards; about 4 s here). */
static struct bb_result *lat_quick(struct bb_run *run)
{
	struct lat_opts o;

	lat_defaults(&o);
	o.default_max = LAT_QUICK_MAX;
	o.max_follows_cache = 0;
	return lat_execute(run, &o);
}

/* ---- the applet ---- */

/* The latency at the largest working set measured: memory's. */
static void lat_lava(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = r->n ? r->series[r->n - 1] : NULL;

	if (s && s->work > 0)
		bb_lava_pass(f, "lat-largest-set", bb_kept_median(s) / s->work * 1e9, "ns");
}

static void lat_lava_name(char *name, size_t len, const struct bb_result *r)
{
	(void)r;
	snprintf(name, len, "lat-largest-set");
}

static const struct bb_headline lat_headline = {
	.last = 1,   /* no key: the last metric, the largest working set */
	.lava = lat_lava,
	.lava_name = lat_lava_name,
};

const struct bb_applet bb_applet_lat = {
	.name = "lat",
	.summary = "memory latency by dependent-load chase; cache levels vs sysfs (ns per load)",
	.opts_size = sizeof(struct lat_opts),
	.defaults = lat_defaults,
	.parse = lat_parse,
	.execute = lat_execute,
	.quick = lat_quick,
	.headline = &lat_headline,
};
