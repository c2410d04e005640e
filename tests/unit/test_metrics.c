/* test_metrics.c - unit tests for src/analysis/metrics.c, the metric key
 * scheme: the key, value per sample, unit and direction of every known
 * applet's series, the generic mapping for applets the table does not
 * know (from unit and work_unit), warm-up samples left out, failed results
 * skipped, unusable values flagged instead of compared, and the checksum
 * totals compare derives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/abstats.h"
#include "analysis/metrics.h"

struct fixture {
	struct bb_rrun run;
	struct bb_metrics ms;
};

/* One result of applet with the given params (JSON object text) and one
 * series; its metrics in f. */
static void load(struct fixture *f, const char *applet, const char *params, const char *name,
		 const char *variant, const char *unit, double work, const char *work_unit,
		 const char *samples, const char *values)
{
	char text[4096], err[768];

	snprintf(text, sizeof text,
		 "{\"schema\": \"boardbench-results\", \"schema_version\": 1, \"results\": "
		 "[{\"applet\": \"%s\", \"params\": %s, \"series\": [{\"name\": \"%s\", "
		 "\"variant\": \"%s\", \"unit\": \"%s\", \"work\": %.17g, \"work_unit\": \"%s\", "
		 "\"discard\": 0, \"samples\": %s, \"values\": %s}]}]}",
		 applet, params, name, variant, unit, work, work_unit, samples, values);
	memset(f, 0, sizeof *f);
	if (bb_read_buf("m.json", text, strlen(text), &f->run, err, sizeof err))
		fail_msg("%s", err);
	bb_metrics_add_run(&f->ms, &f->run);
}

static void unload(struct fixture *f)
{
	bb_metrics_free(&f->ms);
	bb_rrun_free(&f->run);
}

static const struct bb_metric *only(const struct fixture *f)
{
	assert_int_equal(f->ms.n, 1);
	return &f->ms.m[0];
}

static void assert_close(double got, double want)
{
	if (!(fabs(got - want) <= 1e-12 * fabs(want)))
		fail_msg("got %.17g, want %.17g", got, want);
}

static void test_stream(void **state)
{
	struct fixture f;
	const struct bb_metric *m;

	(void)state;
	load(&f, "stream", "{}", "Triad", "c", "s", 24e6, "bytes", "[0.002, 0.004]", "{}");
	m = only(&f);
	assert_string_equal(m->key, "stream.triad.c.bandwidth");
	assert_string_equal(m->group, "stream.triad.*.bandwidth");
	assert_string_equal(m->unit, "B/s");
	assert_string_equal(m->disp_unit, "MB/s");
	assert_int_equal(m->better, BB_BETTER_HIGHER);
	assert_int_equal(m->n, 2);
	assert_close(m->v[0], 12e9);               /* work / sample */
	assert_close(m->v[1], 6e9);
	assert_string_equal(m->chart, "stream");
	assert_string_equal(m->category, "Triad");
	assert_null(m->bad);
	unload(&f);
}

static void test_lat(void **state)
{
	struct fixture f;
	const struct bb_metric *m;

	(void)state;
	load(&f, "lat", "{}", "65536", "random", "s", 1000, "loads", "[3e-6]", "{}");
	m = only(&f);
	assert_string_equal(m->key, "lat.65536.latency");
	assert_close(m->v[0], 3e-9);               /* seconds per load */
	assert_string_equal(m->disp_unit, "ns/load");
	assert_int_equal(m->better, BB_BETTER_LOWER);
	assert_close(m->x, 65536);
	assert_true(m->logy);
	unload(&f);
	load(&f, "lat", "{}", "65536", "sequential", "s", 1000, "loads", "[3e-6]", "{}");
	assert_string_equal(only(&f)->key, "lat.sequential.65536.latency");
	unload(&f);
}

static void test_csum(void **state)
{
	struct fixture f;
	const struct bb_metric *m;

	(void)state;
	load(&f, "csum", "{\"calls\": 10000}", "bytes=4096", "avx2", "s", 4096e4, "bytes",
	     "[0.001]", "{\"calls\": 1000}");
	m = only(&f);
	assert_string_equal(m->key, "csum.4096.avx2");
	assert_close(m->v[0], 1e-6);               /* per call: values.calls first */
	assert_string_equal(m->disp_unit, "ns/call");
	assert_int_equal(m->better, BB_BETTER_LOWER);
	assert_null(m->twin);
	assert_close(m->x, 4096);
	unload(&f);
	load(&f, "csum", "{\"calls\": 10000}", "bytes=4096 counter", "avx2", "ticks", 4096e4,
	     "bytes", "[2000000]", "{}");
	m = only(&f);
	assert_string_equal(m->key, "csum.4096.avx2.counter");
	assert_close(m->v[0], 200);                /* then params.calls */
	assert_string_equal(m->disp_unit, "ticks/call");
	assert_string_equal(m->twin, "csum.4096.avx2");   /* the time's samples, in ticks */
	assert_string_equal(m->chart, "");
	unload(&f);
	load(&f, "csum", "{}", "latency bytes=40", "ref16", "s", 4e5, "bytes", "[0.001]", "{}");
	m = only(&f);
	assert_string_equal(m->key, "csum.latency.40.ref16");
	assert_non_null(m->bad);                   /* no count of calls anywhere */
	unload(&f);
}

/* The checksum's Total time of a variant: its lengths summed sample by
 * sample; counters and latency rows are not summed, and a variant whose
 * lengths kept different numbers of samples gets no total. */
static void test_csum_totals(void **state)
{
	static const char text[] =
		"{\"schema\": \"boardbench-results\", \"schema_version\": 1, \"results\": "
		"[{\"applet\": \"csum\", \"params\": {\"calls\": 10}, \"series\": ["
		"{\"name\": \"bytes=40\", \"variant\": \"c\", \"unit\": \"s\", \"work\": 400, "
		"\"work_unit\": \"bytes\", \"discard\": 0, \"samples\": [1e-6, 2e-6]},"
		"{\"name\": \"bytes=1500\", \"variant\": \"c\", \"unit\": \"s\", \"work\": 15000, "
		"\"work_unit\": \"bytes\", \"discard\": 0, \"samples\": [3e-6, 5e-6]},"
		"{\"name\": \"bytes=1500 counter\", \"variant\": \"c\", \"unit\": \"ticks\", "
		"\"work\": 15000, \"work_unit\": \"bytes\", \"discard\": 0, \"samples\": [9, 9]},"
		"{\"name\": \"bytes=40\", \"variant\": \"v\", \"unit\": \"s\", \"work\": 400, "
		"\"work_unit\": \"bytes\", \"discard\": 0, \"samples\": [1e-6, 2e-6]},"
		"{\"name\": \"bytes=1500\", \"variant\": \"v\", \"unit\": \"s\", \"work\": 15000, "
		"\"work_unit\": \"bytes\", \"discard\": 0, \"samples\": [3e-6]}]}]}";
	struct fixture f;
	char err[768];
	const struct bb_metric *t;

	(void)state;
	memset(&f, 0, sizeof f);
	if (bb_read_buf("t.json", text, strlen(text), &f.run, err, sizeof err))
		fail_msg("%s", err);
	bb_metrics_add_run(&f.ms, &f.run);
	assert_int_equal(f.ms.n, 5);
	bb_metrics_derive(&f.ms, 0);
	assert_int_equal(f.ms.n, 6);               /* c only: v's lengths differ */
	t = &f.ms.m[5];
	assert_string_equal(t->key, "csum.total.c");
	assert_string_equal(t->group, "csum.total.*");
	assert_int_equal(t->n, 2);
	assert_close(t->v[0], 4e-7);               /* (1 + 3) us / 10 calls */
	assert_close(t->v[1], 7e-7);
	assert_string_equal(t->disp_unit, "ns/call");
	assert_int_equal(t->better, BB_BETTER_LOWER);
	assert_null(t->twin);
	unload(&f);
}

static void test_mem(void **state)
{
	struct fixture f;
	const struct bb_metric *m;

	(void)state;
	load(&f, "mem", "{}", "tot_memcpy", "libc", "ticks", 3e7, "bytes", "[4635754]", "{}");
	m = only(&f);
	assert_string_equal(m->key, "mem.tot.memcpy.libc");
	assert_close(m->v[0], 4635754);
	assert_string_equal(m->unit, "ticks");
	assert_int_equal(m->better, BB_BETTER_LOWER);
	assert_string_equal(m->chart, "mem.tot.memcpy");
	assert_string_equal(m->category, "libc");
	unload(&f);
	load(&f, "mem", "{}", "memcpy:64", "nt-sse2", "s", 64e6, "bytes", "[0.01]", "{}");
	m = only(&f);
	assert_string_equal(m->key, "mem.sweep.memcpy.64.nt-sse2.bandwidth");
	assert_string_equal(m->disp_unit, "GB/s");
	assert_close(m->x, 64);
	unload(&f);
	load(&f, "mem", "{}", "copy_page cold+use", "libc", "cycles", 4096, "bytes", "[900]", "{}");
	assert_string_equal(only(&f)->key, "mem.page.copy_page.cold_use.libc");
	assert_string_equal(only(&f)->unit, "cycles");
	unload(&f);
}

static void test_ttcp(void **state)
{
	const char *params = "{\"protocol\": \"tcp\", \"role\": \"transmit\"}";
	struct fixture f;
	const struct bb_metric *m;

	(void)state;
	load(&f, "ttcp", params, "transfer", "total", "s", 1.25e8, "bytes", "[1.0]", "{}");
	m = only(&f);
	assert_string_equal(m->key, "ttcp.tcp.transmit.throughput");
	assert_close(m->v[0] * m->disp_scale, 1000);   /* Mbit/s, 10^6 bits */
	assert_int_equal(m->better, BB_BETTER_HIGHER);
	unload(&f);
	load(&f, "ttcp", params, "interval_bytes", "stream0", "bytes", 0.5, "s", "[1e6, 2e6]", "{}");
	m = only(&f);
	assert_string_equal(m->key, "ttcp.tcp.transmit.interval.stream0.throughput");
	assert_close(m->v[1], 4e6);                /* bytes per second of the interval */
	assert_true(m->timeseries);
	unload(&f);
	load(&f, "ttcp", params, "interval_end", "total", "s", 0.5, "s", "[0.5]", "{}");
	assert_int_equal(f.ms.n, 0);               /* a time stamp, not a metric */
	unload(&f);
}

/* Several streams at once are another measurement: their own key, so the
 * quick suite's one-stream and one-per-CPU results never pool. */
static void test_ttcp_streams(void **state)
{
	const char *one = "{\"protocol\": \"tcp\", \"role\": \"transmit\", \"streams\": 1}";
	const char *two = "{\"protocol\": \"tcp\", \"role\": \"transmit\", \"streams\": 2}";
	struct fixture f;
	const struct bb_metric *m;

	(void)state;
	load(&f, "ttcp", one, "transfer", "total", "s", 1.25e8, "bytes", "[1.0]", "{}");
	assert_string_equal(only(&f)->key, "ttcp.tcp.transmit.throughput");
	unload(&f);
	load(&f, "ttcp", two, "transfer", "total", "s", 2.5e8, "bytes", "[1.0]", "{}");
	m = only(&f);
	assert_string_equal(m->key, "ttcp.tcp.transmit.streams2.throughput");
	assert_close(m->v[0] * m->disp_scale, 2000);
	assert_null(m->twin);
	unload(&f);
	load(&f, "ttcp", two, "transfer", "stream1", "s", 1.25e8, "bytes", "[1.0]", "{}");
	m = only(&f);
	assert_string_equal(m->key, "ttcp.tcp.transmit.streams2.stream1.throughput");
	assert_null(m->twin);                      /* a stream is a fact of its own */
	unload(&f);
}

/* The quick suite's CPU-speed probe: ns per dependent add, lower is
 * better (compare keeps it outside the claims: a warning, never a
 * verdict). */
static void test_calib(void **state)
{
	struct fixture f;
	const struct bb_metric *m;

	(void)state;
	load(&f, "calib", "{}", "add_chain", "", "s", 1e6, "ops", "[0.0005]", "{}");
	m = only(&f);
	assert_string_equal(m->key, "calib.add_chain.time");
	assert_close(m->v[0] * m->disp_scale, 0.5);
	assert_string_equal(m->disp_unit, "ns/op");
	assert_int_equal(m->better, BB_BETTER_LOWER);
	assert_null(m->twin);
	unload(&f);
}

/* rr: the rate is its own metric (the run's figure: the transactions per
 * second it printed), the median latency's run figure is the histogram's
 * p50, and p99 is a metric of one value per run. */
static void test_rr(void **state)
{
	static const char text[] =
		"{\"schema\": \"boardbench-results\", \"schema_version\": 1, \"results\": [{"
		"\"applet\": \"rr\", \"params\": {\"protocol\": \"tcp\", \"request_bytes\": 1, "
		"\"response_bytes\": 1, \"inflight\": 1}, \"series\": ["
		"{\"name\": \"latency\", \"variant\": \"\", \"unit\": \"s\", \"work\": 0, "
		"\"work_unit\": \"\", \"discard\": 0, \"samples\": [4e-6, 5e-6, 6e-6], "
		"\"values\": {\"transactions_per_s\": 150000, \"p50_s\": 4.9e-6, \"p99_s\": 3e-5}},"
		"{\"name\": \"interval_transactions\", \"variant\": \"\", \"unit\": "
		"\"transactions\", \"work\": 0.1, \"work_unit\": \"s\", \"discard\": 0, "
		"\"samples\": [14000, 16000], \"values\": {}}]}]}";
	struct fixture f;
	char err[768];
	const struct bb_metric *lat, *p99, *rate;

	(void)state;
	memset(&f, 0, sizeof f);
	if (bb_read_buf("rr.json", text, strlen(text), &f.run, err, sizeof err))
		fail_msg("%s", err);
	bb_metrics_add_run(&f.ms, &f.run);
	assert_int_equal(f.ms.n, 3);
	lat = &f.ms.m[0];
	p99 = &f.ms.m[1];
	rate = &f.ms.m[2];
	assert_string_equal(lat->key, "rr.tcp.1x1.latency");
	assert_close(lat->run_fig, 4.9e-6);
	assert_int_equal(lat->n, 3);
	assert_string_equal(p99->key, "rr.tcp.1x1.latency.p99");
	assert_int_equal(p99->n, 1);
	assert_close(p99->v[0], 3e-5);
	assert_close(p99->run_fig, 3e-5);
	assert_int_equal(p99->better, BB_BETTER_LOWER);
	assert_string_equal(rate->key, "rr.tcp.1x1.rate");
	assert_close(rate->v[0], 140000);          /* each interval: transactions per second */
	assert_close(rate->run_fig, 150000);       /* the run: what it printed */
	assert_int_equal(rate->better, BB_BETTER_HIGHER);
	assert_null(rate->twin);
	unload(&f);
}

/* An applet the table has never seen still gets keys and directions. */
static void test_generic(void **state)
{
	struct fixture f;
	const struct bb_metric *m;

	(void)state;
	load(&f, "net", "{}", "Round trip", "udp", "s", 0, "", "[0.001]", "{}");
	m = only(&f);
	assert_string_equal(m->key, "net.round.trip.udp.time");
	assert_int_equal(m->better, BB_BETTER_LOWER);
	unload(&f);
	load(&f, "net", "{}", "rx", "", "s", 8e6, "bits", "[1]", "{}");
	assert_string_equal(only(&f)->key, "net.rx.throughput");
	assert_int_equal(only(&f)->better, BB_BETTER_HIGHER);
	unload(&f);
	load(&f, "net", "{}", "pps", "x", "s", 100, "packets", "[2]", "{}");
	assert_string_equal(only(&f)->key, "net.pps.x.rate");
	assert_string_equal(only(&f)->unit, "packets/s");
	assert_close(only(&f)->v[0], 50);
	unload(&f);
	load(&f, "net", "{}", "odd", "x", "widgets", 1, "things", "[3]", "{}");
	assert_string_equal(only(&f)->key, "net.odd.x.value");
	assert_int_equal(only(&f)->better, BB_BETTER_UNKNOWN);
	unload(&f);
}

static void test_discard_and_bad(void **state)
{
	struct fixture f;
	const struct bb_metric *m;
	char text[1024], err[768];

	(void)state;
	load(&f, "stream", "{}", "Copy", "c", "s", 16, "bytes", "[1, 0]", "{}");
	assert_non_null(only(&f)->bad);             /* a zero time: no rate */
	unload(&f);
	snprintf(text, sizeof text,
		 "{\"schema\": \"boardbench-results\", \"schema_version\": 1, \"results\": ["
		 "{\"applet\": \"stream\", \"status\": \"failed\", \"series\": [{\"name\": \"Copy\", "
		 "\"variant\": \"c\", \"unit\": \"s\", \"work\": 16, \"work_unit\": \"bytes\", "
		 "\"discard\": 0, \"samples\": [1]}]}, "
		 "{\"applet\": \"stream\", \"series\": [{\"name\": \"Copy\", "
		 "\"variant\": \"c\", \"unit\": \"s\", \"work\": 16, \"work_unit\": \"bytes\", "
		 "\"discard\": 2, \"samples\": [8, 4, 2, 1]}]}]}");
	memset(&f, 0, sizeof f);
	assert_int_equal(bb_read_buf("m.json", text, strlen(text), &f.run, err, sizeof err), 0);
	bb_metrics_add_run(&f.ms, &f.run);
	m = only(&f);                                /* the failed result is left out */
	assert_int_equal(m->n, 2);                   /* two warm-up samples left out */
	assert_close(m->v[0], 8);
	assert_close(m->v[1], 16);
	unload(&f);
}

static void test_figures(void **state)
{
	const double v[] = { 3, 1, 2, 5 };
	struct bb_figures fig;

	(void)state;
	bb_metric_figures(v, 4, BB_BETTER_HIGHER, &fig);
	assert_close(fig.median, 2.5);
	assert_close(fig.best, 5);
	bb_metric_figures(v, 4, BB_BETTER_LOWER, &fig);
	assert_close(fig.best, 1);
	assert_close(fig.min, 1);
	assert_close(fig.max, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_lat),
		cmocka_unit_test(test_csum),
		cmocka_unit_test(test_csum_totals),
		cmocka_unit_test(test_mem),
		cmocka_unit_test(test_ttcp),
		cmocka_unit_test(test_ttcp_streams),
		cmocka_unit_test(test_calib),
		cmocka_unit_test(test_rr),
		cmocka_unit_test(test_generic),
		cmocka_unit_test(test_discard_and_bad),
		cmocka_unit_test(test_figures),
	};

	return cmocka_run_group_tests_name("metrics", tests, NULL, NULL);
}
