/* lava.c - `run --lava FILE`: the headline metric of each applet of the
 * quick suite as a LAVA test case, one shell line each, for the test
 * definition in packaging/lava/ to run on the board.
 *
 * The headlines follow compare's (src/tools/compare.c), picked from the
 * results model in memory rather than from JSON (a board's static binary
 * has no cJSON).  Names stay the same from board to board, so LAVA can
 * chart a metric across jobs:
 *   stream-triad          STREAM Triad, plain C, best rate         MB/s (10^6 B/s)
 *   lat-largest-set       latency at the largest working set, median   ns
 *   csum-1500-generic32   the portable C checksum of 1500 bytes, median ns per call
 *   mem-tot-memcpy-libc   the tot_memcpy sweep with libc's memcpy, best  ticks or cycles
 *   ttcp-tcp-transmit     loopback ttcp, median of the transfers     Mbit/s (10^6 bit/s)
 *   ttcp-tcp-transmit-streams2   the same with 2 streams
 *   rr-tcp-1x1-latency    loopback request/response, median latency   us
 * A result that failed or was cut short gives `--result fail` and no
 * measurement; an applet the suite did not run gives no line. */
#include "lava.h"
#include "cli.h"
#include "error.h"
#include "outfile.h"
#include "stats.h"

#include <math.h>
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

static double kept_min(const struct bb_series *s)
{
	size_t n;
	const double *x = bb_series_kept(s, &n);
	double m = NAN;

	for (size_t i = 0; i < n; i++)
		if (isnan(m) || x[i] < m)
			m = x[i];
	return m;
}

static double kept_median(const struct bb_series *s)
{
	size_t n;
	const double *x = bb_series_kept(s, &n);

	return bb_median(x, n);
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
		pass_line(f, "stream-triad", s->work / kept_min(s) * 1e-6, "MB/s");
}

static void lat_case(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = r->n ? r->series[r->n - 1] : NULL;

	if (s && s->work > 0)
		pass_line(f, "lat-largest-set", kept_median(s) / s->work * 1e9, "ns");
}

static void csum_case(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = bb_result_find(r, "bytes=1500", "generic32");
	double calls = s ? bb_kv_getnum(&s->values, "calls", 0) : 0;

	if (s && calls > 0)
		pass_line(f, "csum-1500-generic32", kept_median(s) / calls * 1e9, "ns");
}

static void mem_case(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = bb_result_find(r, "tot_memcpy", "libc");

	if (s)
		pass_line(f, "mem-tot-memcpy-libc", bb_kv_getnum(&s->values, "best", kept_min(s)),
			  s->unit);
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

/* "rr-tcp-1x1-latency", "-inflight4" before "-latency" when above 1. */
static void rr_name(char *name, size_t len, const struct bb_result *r)
{
	const struct bb_kv *proto = bb_kv_get(&r->params, "protocol");
	double inflight = bb_kv_getnum(&r->params, "inflight", 1);

	snprintf(name, len, "rr-%s-%.0fx%.0f", proto && proto->s ? proto->s : "tcp",
		 bb_kv_getnum(&r->params, "request_bytes", 1),
		 bb_kv_getnum(&r->params, "response_bytes", 1));
	if (inflight > 1)
		snprintf(name + strlen(name), len - strlen(name), "-inflight%.0f", inflight);
	snprintf(name + strlen(name), len - strlen(name), "-latency");
}

/* The median of every transaction (rr's own p50, from its histogram), else
 * of the latencies kept. */
static void rr_case(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = bb_result_find(r, "latency", NULL);
	char name[NAME_MAX_LEN];

	rr_name(name, sizeof name, r);
	if (s)
		pass_line(f, name, bb_kv_getnum(&s->values, "p50_s", kept_median(s)) * 1e6, "us");
}

static const struct {
	const char *applet;
	const char *name;   /* the test case when the result failed, or NULL: */
	void (*emit)(FILE *f, const struct bb_result *r);
	void (*name_of)(char *name, size_t len, const struct bb_result *r);  /* ... this */
} cases[] = {
	{ "stream", "stream-triad", stream_case, NULL },
	{ "lat", "lat-largest-set", lat_case, NULL },
	{ "csum", "csum-1500-generic32", csum_case, NULL },
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
