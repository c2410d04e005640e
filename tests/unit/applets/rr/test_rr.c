/* test_rr.c - unit tests for the request/response figures
 * (src/applets/rr/rr_hist.c) and the control messages (src/applets/rr/rr_proto.c): the
 * histogram's buckets tile the nanoseconds without gaps and within their
 * stated width, nearest-rank percentiles on data whose answers are known
 * by hand, histogram percentiles within 0.4% of the exact ones, the kept
 * subset (all values up to its cap, then a uniform subset), and hello
 * messages a server must refuse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "applets/rr/rr_proto.h"
#include "applets/rr/rr_hist.h"

static struct bb_rr_hist *new_hist(void)
{
	struct bb_rr_hist *h = malloc(sizeof *h);

	assert_non_null(h);
	bb_rr_hist_init(h);
	return h;
}

/* Every value falls in its bucket; buckets follow each other without a
 * gap; a bucket is 1 ns wide below BB_RR_SUB, else at most lower/128. */
static void test_buckets_tile(void **state)
{
	(void)state;
	for (size_t i = 0; i + 1 < BB_RR_BUCKETS; i++) {
		uint64_t lo = bb_rr_hist_lower(i), w = bb_rr_hist_width(i);
		assert_int_equal(bb_rr_hist_lower(i + 1), lo + w);
		assert_int_equal(bb_rr_hist_index(lo), i);
		assert_int_equal(bb_rr_hist_index(lo + w - 1), i);
		if (lo >= BB_RR_SUB)
			assert_true(w * BB_RR_SUB <= lo);
		else
			assert_int_equal(w, 1);
	}
	assert_int_equal(bb_rr_hist_index(0), 0);
	assert_int_equal(bb_rr_hist_index(UINT64_MAX), BB_RR_BUCKETS - 1);
}

static void test_percentile_nearest_rank(void **state)
{
	const double x[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };   /* sorted */

	(void)state;
	assert_true(bb_rr_percentile_sorted(x, 10, 50) == 5);     /* ceil(5) = 5th */
	assert_true(bb_rr_percentile_sorted(x, 10, 90) == 9);
	assert_true(bb_rr_percentile_sorted(x, 10, 99) == 10);    /* ceil(9.9) = 10th */
	assert_true(bb_rr_percentile_sorted(x, 10, 99.9) == 10);
	assert_true(bb_rr_percentile_sorted(x, 10, 0) == 1);
	assert_true(bb_rr_percentile_sorted(x, 10, 100) == 10);
	assert_true(bb_rr_percentile_sorted(x, 10, 51) == 6);     /* ceil(5.1) = 6th */
	assert_true(bb_rr_percentile_sorted(x, 1, 50) == 1);
}

/* Exact figures when every sample is kept; ordered min <= p50 <= ... */
static void test_figures_exact(void **state)
{
	struct bb_rr_hist *h = new_hist();
	struct bb_rr_keep k;
	struct bb_rr_figures f;

	(void)state;
	bb_rr_keep_init(&k, 1000);
	for (uint64_t i = 1000; i >= 1; i--) {      /* 1..1000 us, in reverse */
		bb_rr_hist_add(h, i * 1000);
		bb_rr_keep_add(&k, (double)(i * 1000) * 1e-9);
	}
	assert_int_equal(bb_rr_figures(&k, h, &f), 0);
	assert_true(f.exact);
	assert_int_equal(f.n, 1000);
	assert_true(fabs(f.min - 1e-6) < 1e-15);
	assert_true(fabs(f.p50 - 500e-6) < 1e-15);
	assert_true(fabs(f.p90 - 900e-6) < 1e-15);
	assert_true(fabs(f.p99 - 990e-6) < 1e-15);
	assert_true(fabs(f.p999 - 999e-6) < 1e-15);
	assert_true(fabs(f.max - 1000e-6) < 1e-15);
	assert_true(fabs(f.mean - 500.5e-6) < 1e-12);
	bb_rr_keep_free(&k);
	free(h);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* A skewed distribution, far more values than kept: the histogram's
 * percentiles are within 0.4% of the exact ones, and ordered. */
static void test_figures_histogram(void **state)
{
	enum { N = 200000 };
	struct bb_rr_hist *h = new_hist();
	struct bb_rr_keep k;
	struct bb_rr_figures f;
	double *all = malloc(N * sizeof *all);
	const double pct[4] = { 50, 90, 99, 99.9 };
	uint64_t s = 12345;

	(void)state;
	assert_non_null(all);
	bb_rr_keep_init(&k, 1000);
	for (int i = 0; i < N; i++) {
		s = s * 6364136223846793005u + 1442695040888963407u;
		double u = (double)(s >> 11) / 9007199254740992.0;
		uint64_t ns = 20000 + (uint64_t)(-log1p(-u) * 5000.0);   /* 20 us + exp */
		all[i] = (double)ns * 1e-9;
		bb_rr_hist_add(h, ns);
		bb_rr_keep_add(&k, all[i]);
	}
	qsort(all, N, sizeof *all, cmp_double);
	assert_int_equal(bb_rr_figures(&k, h, &f), 0);
	assert_false(f.exact);
	assert_int_equal(k.n, 1000);
	assert_int_equal(k.seen, N);
	double got[4] = { f.p50, f.p90, f.p99, f.p999 };
	for (int i = 0; i < 4; i++) {
		double want = bb_rr_percentile_sorted(all, N, pct[i]);
		if (!(fabs(got[i] - want) <= 0.004 * want))
			fail_msg("p%g: histogram %.9g, exact %.9g", pct[i], got[i], want);
	}
	assert_true(f.min == all[0] && f.max == all[N - 1]);
	assert_true(f.min <= f.p50 && f.p50 <= f.p90 && f.p90 <= f.p99 && f.p99 <= f.p999 &&
		    f.p999 <= f.max);
	free(all);
	bb_rr_keep_free(&k);
	free(h);
}

/* Up to its cap the subset is every value, in order; past it, a uniform
 * subset: of 0..99999 kept 5000, the mean is near the middle and both
 * halves are kept about equally. */
static void test_keep_subset(void **state)
{
	struct bb_rr_keep k;
	double sum = 0;
	size_t low = 0;

	(void)state;
	bb_rr_keep_init(&k, 5000);
	for (int i = 0; i < 5000; i++)
		bb_rr_keep_add(&k, i);
	assert_int_equal(k.n, 5000);
	for (int i = 0; i < 5000; i++)
		assert_true(k.v[i] == i);
	for (int i = 5000; i < 100000; i++)
		bb_rr_keep_add(&k, i);
	assert_int_equal(k.n, 5000);
	assert_int_equal(k.seen, 100000);
	for (size_t i = 0; i < k.n; i++) {
		sum += k.v[i];
		low += k.v[i] < 50000;
	}
	assert_true(fabs(sum / 5000 - 49999.5) < 2000);   /* sd of the mean ~408 */
	assert_true(low > 2300 && low < 2700);             /* sd ~35 */
	bb_rr_keep_free(&k);
}

static void test_figures_empty(void **state)
{
	struct bb_rr_hist *h = new_hist();
	struct bb_rr_figures f;

	(void)state;
	assert_int_equal(bb_rr_figures(NULL, h, &f), -1);
	assert_true(bb_rr_hist_percentile(h, 50) == 0);
	free(h);
}

static void test_ctl_round_trip(void **state)
{
	struct bb_rr_ctl in = { 'H', BB_RR_UDP_VERSION, 1, 1024, 65507, 7 }, out;
	unsigned char buf[BB_RR_CTL_BYTES];

	(void)state;
	bb_rr_ctl_encode(buf, &in);
	assert_int_equal(buf[0], 0xBB);
	assert_int_equal(bb_rr_ctl_decode(buf, sizeof buf, &out), 0);
	assert_int_equal(out.type, 'H');
	assert_int_equal(out.flags, 1);
	assert_int_equal(out.req, 1024);
	assert_int_equal(out.resp, 65507);
	assert_int_equal(out.inflight, 7);
	assert_int_equal(bb_rr_hello_status(&out, 1), BB_RR_OK);
	assert_int_equal(bb_rr_hello_status(&out, 0), BB_RR_BAD_VERSION);     /* TCP: 1 */
	assert_int_equal(bb_rr_ctl_decode(buf, sizeof buf - 1, &out), -1);   /* short */
	buf[3] = 'X';
	assert_int_equal(bb_rr_ctl_decode(buf, sizeof buf, &out), -1);       /* unknown type */
	buf[3] = 'H';
	buf[0] = 0;
	assert_int_equal(bb_rr_ctl_decode(buf, sizeof buf, &out), -1);       /* a request */
}

/* What a server refuses: another version, sizes out of bounds, UDP below
 * the sequence number, too many in flight, a TCP window over 1M. */
static void test_hello_refused(void **state)
{
	struct bb_rr_ctl h = { 'H', BB_RR_VERSION, 0, 1, 1, 1 };
	int udp = 0;

	(void)state;
	assert_int_equal(bb_rr_hello_status(&h, 0), BB_RR_OK);
	h.version = 2;
	assert_int_equal(bb_rr_hello_status(&h, 0), BB_RR_BAD_VERSION);
	h.version = BB_RR_VERSION;
	h.req = 0;
	assert_int_equal(bb_rr_hello_status(&h, udp), BB_RR_BAD_SIZES);
	h.req = UINT32_MAX;
	assert_int_equal(bb_rr_hello_status(&h, udp), BB_RR_BAD_SIZES);
	h.req = 1;
	h.flags = 1;                                    /* UDP: 8 bytes at least */
	h.version = BB_RR_UDP_VERSION;
	udp = 1;
	assert_int_equal(bb_rr_hello_status(&h, udp), BB_RR_BAD_SIZES);
	h.version = BB_RR_VERSION;                      /* an old UDP client */
	assert_int_equal(bb_rr_hello_status(&h, udp), BB_RR_BAD_VERSION);
	h.version = BB_RR_UDP_VERSION;
	h.req = h.resp = 8;
	assert_int_equal(bb_rr_hello_status(&h, udp), BB_RR_OK);
	h.resp = 65508;
	assert_int_equal(bb_rr_hello_status(&h, udp), BB_RR_BAD_SIZES);
	h.resp = 8;
	h.inflight = 0;
	assert_int_equal(bb_rr_hello_status(&h, udp), BB_RR_BAD_INFLIGHT);
	h.inflight = 257;
	assert_int_equal(bb_rr_hello_status(&h, udp), BB_RR_BAD_INFLIGHT);
	h.flags = 0;
	h.version = BB_RR_VERSION;
	udp = 0;
	h.inflight = 256;
	h.req = h.resp = 4096;                          /* 256 x 8K = 2M */
	assert_int_equal(bb_rr_hello_status(&h, udp), BB_RR_BAD_SIZES);
	h.type = 'A';
	h.inflight = 1;
	assert_int_equal(bb_rr_hello_status(&h, udp), BB_RR_BAD_VERSION);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_tile),
		cmocka_unit_test(test_percentile_nearest_rank),
		cmocka_unit_test(test_figures_exact),
		cmocka_unit_test(test_figures_histogram),
		cmocka_unit_test(test_keep_subset),
		cmocka_unit_test(test_figures_empty),
		cmocka_unit_test(test_ctl_round_trip),
		cmocka_unit_test(test_hello_refused),
	};

	return cmocka_run_group_tests_name("rr", tests, NULL, NULL);
}
