/* lava.c - `run --lava FILE`: the headline metric of each applet of the
 * quick suite as a LAVA test case, one shell line each, for the test
 * definition in packaging/lava/ to run on the board.
 *
 * The headlines and their figures are compare's (src/applets/compare/compare.c): the
 * metric compare heads each applet with, and the figure compare takes for
 * one run (the median of its kept samples, or the figure the applet
 * printed), so that the geometric mean of a LAVA measurement over runs is
 * the A or B figure compare prints.  They are picked from the results
 * model in memory rather than from JSON (a board's static binary has no
 * cJSON).  Names stay the same from board to board, so LAVA can chart a
 * metric across jobs:
 *   stream-triad          STREAM Triad, plain C, median rate            MB/s (10^6 B/s)
 *   lat-largest-set       latency at the largest working set, median   ns
 *   csum-total-generic32  the portable C checksum's Total time: per call,
 *                         summed over the lengths, median over rounds  ns
 *   mem-tot-memcpy-libc   the tot_memcpy sweep with libc's memcpy, median  ticks or cycles
 *   ttcp-tcp-transmit     loopback ttcp, median of the transfers     Mbit/s (10^6 bit/s)
 *   ttcp-tcp-transmit-streams2   the same with 2 streams
 *   rr-tcp-1x1-rate       loopback request/response, transactions per second
 * A result that failed or was cut short gives `--result fail` and no
 * measurement; an applet the suite did not run gives no line. */
#include "applets/run/lava.h"
#include "core/cli.h"
#include "core/error.h"
#include "core/outfile.h"
#include "core/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 96

/* LAVA test case names and units: [A-Za-z0-9._/-], anything else '_', so
 * that the line is safe for the shell and for LAVA alike. */
static void put_safe(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(strchr("._-/", *s) || (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
			      (*s >= 'A' && *s <= 'Z') ? *s : '_', f);
}

static void fail_line(FILE *f, const char *name)
{
	fputs("lava-test-case ", f);
	put_safe(f, name);
	fputs(" --result fail\n", f);
}

static void pass_line(FILE *f, const char *name, double v, const char *units)
{
	if (!isfinite(v) || v < 0) {
		fail_line(f, name);
		return;
	}
	fputs("lava-test-case ", f);
	put_safe(f, name);
	fprintf(f, " --result pass --measurement %.3f --units ", v);
	put_safe(f, units);
	fputc('\n', f);
}

static double kept_median(const struct bb_series *s)
{
	size_t n;
	const double *x = bb_series_kept(s, &n);

	return bb_median(x, n);
}

/* The median of work / sample over the kept samples (a rate per sample,
 * as compare takes it, not work over the median time). */
static double kept_median_rate(const struct bb_series *s)
{
	size_t n;
	const double *x = bb_series_kept(s, &n);
	double *r = bb_xcalloc(n ? n : 1, sizeof *r), m;

	for (size_t i = 0; i < n; i++)
		r[i] = s->work / x[i];
	m = bb_median(r, n);
	free(r);
	return m;
}

/* The first series named name, of variant if there is one, else of any. */
static const struct bb_series *find(const struct bb_result *r, const char *name,
				    const char *variant)
{
	const struct bb_series *s = bb_result_find(r, name, variant);

	return s ? s : bb_result_find(r, name, NULL);
}

static void stream_case(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = find(r, "Triad", "c");

	if (s)
		pass_line(f, "stream-triad", kept_median_rate(s) * 1e-6, "MB/s");
}

static void lat_case(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = r->n ? r->series[r->n - 1] : NULL;

	if (s && s->work > 0)
		pass_line(f, "lat-largest-set", kept_median(s) / s->work * 1e9, "ns");
}

/* The Total time of the portable C checksum, as compare derives it
 * (metrics.c, bb_metrics_add_totals): round by round, the time per call of
 * every length summed; the median over the rounds. */
static void csum_case(FILE *f, const struct bb_result *r)
{
	size_t n = 0, rounds = 0;
	double *sum = NULL, m;

	for (size_t i = 0; i < r->n; i++) {
		const struct bb_series *s = r->series[i];
		double calls = bb_kv_getnum(&s->values, "calls", 0);
		const double *x = bb_series_kept(s, &n);
		if (strcmp(s->variant, "generic32") || strncmp(s->name, "bytes=", 6) ||
		    strchr(s->name, ' ') || !(calls > 0))
			continue;
		if (!sum) {
			rounds = n;
			sum = bb_xcalloc(n ? n : 1, sizeof *sum);
		}
		if (n != rounds) {
			free(sum);
			return;              /* lengths with different rounds: no total */
		}
		for (size_t j = 0; j < n; j++)
			sum[j] += x[j] / calls;
	}
	if (sum && rounds) {
		m = bb_median(sum, rounds);
		pass_line(f, "csum-total-generic32", m * 1e9, "ns");
	}
	free(sum);
}

static void mem_case(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = bb_result_find(r, "tot_memcpy", "libc");

	if (s)
		pass_line(f, "mem-tot-memcpy-libc", kept_median(s), s->unit);
}

static void ttcp_name(char *name, size_t len, const struct bb_result *r)
{
	const struct bb_kv *proto = bb_kv_get(&r->params, "protocol");
	const struct bb_kv *role = bb_kv_get(&r->params, "role");
	double streams = bb_kv_getnum(&r->params, "streams", 1);

	snprintf(name, len, "ttcp-%s-%s", proto && proto->s ? proto->s : "tcp",
		 role && role->s ? role->s : "transmit");
	if (streams > 1)
		snprintf(name + strlen(name), len - strlen(name), "-streams%.0f", streams);
}

static void ttcp_case(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = bb_result_find(r, "transfer", "total");
	char name[NAME_MAX_LEN];

	ttcp_name(name, sizeof name, r);
	if (s && strcmp(s->work_unit, "bytes") == 0)
		pass_line(f, name, s->work * 8 / kept_median(s) * 1e-6, "Mbit/s");
}

/* "rr-tcp-1x1-rate", "-inflight4" before "-rate" when above 1. */
static void rr_name(char *name, size_t len, const struct bb_result *r)
{
	const struct bb_kv *proto = bb_kv_get(&r->params, "protocol");
	double inflight = bb_kv_getnum(&r->params, "inflight", 1);

	snprintf(name, len, "rr-%s-%.0fx%.0f", proto && proto->s ? proto->s : "tcp",
		 bb_kv_getnum(&r->params, "request_bytes", 1),
		 bb_kv_getnum(&r->params, "response_bytes", 1));
	if (inflight > 1)
		snprintf(name + strlen(name), len - strlen(name), "-inflight%.0f", inflight);
	snprintf(name + strlen(name), len - strlen(name), "-rate");
}

/* The transactions per second rr printed (netperf's TCP_RR figure). */
static void rr_case(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = bb_result_find(r, "latency", NULL);
	char name[NAME_MAX_LEN];

	rr_name(name, sizeof name, r);
	if (s)
		pass_line(f, name, bb_kv_getnum(&s->values, "transactions_per_s", NAN),
			  "transactions/s");
}

static const struct {
	const char *applet;
	const char *name;   /* the test case when the result failed, or NULL: */
	void (*emit)(FILE *f, const struct bb_result *r);
	void (*name_of)(char *name, size_t len, const struct bb_result *r);  /* ... this */
} cases[] = {
	{ "stream", "stream-triad", stream_case, NULL },
	{ "lat", "lat-largest-set", lat_case, NULL },
	{ "csum", "csum-total-generic32", csum_case, NULL },
	{ "mem", "mem-tot-memcpy-libc", mem_case, NULL },
	{ "ttcp", NULL, ttcp_case, ttcp_name },
	{ "rr", NULL, rr_case, rr_name },
};

int bb_emit_lava(FILE *f, const struct bb_run *run)
{
	for (size_t i = 0; i < run->n; i++) {
		const struct bb_result *r = run->results[i];
		for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
			char name[NAME_MAX_LEN];
			if (strcmp(r->applet, cases[c].applet) != 0)
				continue;
			if (r->ok) {
				cases[c].emit(f, r);
			} else {
				if (cases[c].name)
					snprintf(name, sizeof name, "%s", cases[c].name);
				else
					cases[c].name_of(name, sizeof name, r);
				fail_line(f, name);
			}
		}
	}
	return ferror(f) ? -1 : 0;
}

void bb_lava_check_path(const char *path)
{
	char err[512];

	switch (bb_outfile_check(path, err, sizeof err)) {
	case 0: return;
	case 2: bb_die_value("--lava", path, err);
	default: bb_die("cannot write --lava '%s': %s", path, err);
	}
}
